/**
 * The one error type of the hub (CONTRACT §2). Services throw HubError; the problem middleware
 * turns it into application/problem+json. Anything else that reaches the middleware is a bug and
 * is answered as a bare 500.
 */
export const ErrorCode = {
  Unauthenticated: 1,
  Unauthorized: 2,
  ValidationFailed: 3,
  ResourceLocked: 5,
  ResourceVersionMismatch: 6,
  NotFound: 7,
  OperationForbidden: 8,
  DeviceUnavailable: 9,
  TooManyRequests: 10,
  IdempotencyKeyReused: 11,
  Gone: 12,
  Internal: 0,
} as const;
export type ErrorCodeName = keyof typeof ErrorCode;

export type MemberErrorCode = 'Required' | 'Unique' | 'Invalid' | 'OutOfRange' | 'Unknown';
export interface MemberError {
  memberName: string;
  message: string;
  code: MemberErrorCode;
}
export interface ResourceRef {
  name: string;
  id: string | number;
  version: number;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  423: 'Locked',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export class HubError extends Error {
  readonly status: number;
  readonly errorCode: number;
  readonly errors?: MemberError[];
  readonly resource?: ResourceRef;
  readonly headers: Record<string, string>;
  /** Not the hub's doing: the client hung up mid-request (logged as a client abort). */
  readonly clientAborted: boolean;

  constructor(
    status: number,
    errorCode: number,
    detail: string,
    extra: { errors?: MemberError[]; resource?: ResourceRef; headers?: Record<string, string>; clientAborted?: boolean } = {},
  ) {
    super(detail);
    this.name = 'HubError';
    this.status = status;
    this.errorCode = errorCode;
    this.errors = extra.errors;
    this.resource = extra.resource;
    this.headers = extra.headers ?? {};
    this.clientAborted = extra.clientAborted ?? false;
  }

  get title(): string {
    return TITLES[this.status] ?? 'Error';
  }
}

/** Constructors for the rows of the CONTRACT §2 table, so call sites read like the table. */
export const errors = {
  validation(detail: string, members: MemberError[] = []): HubError {
    return new HubError(400, ErrorCode.ValidationFailed, detail, { errors: members });
  },
  member(memberName: string, message: string, code: MemberErrorCode = 'Invalid'): HubError {
    return new HubError(400, ErrorCode.ValidationFailed, `${memberName}: ${message}`, {
      errors: [{ memberName, message, code }],
    });
  },
  unauthenticated(detail = 'A valid access token is required.'): HubError {
    return new HubError(401, ErrorCode.Unauthenticated, detail, { headers: { 'WWW-Authenticate': 'Bearer' } });
  },
  missingRight(right: string | string[], orElse = ''): HubError {
    const names = Array.isArray(right) ? right.join(' or ') : right;
    return new HubError(403, ErrorCode.Unauthorized, `This operation requires the right ${names}${orElse}.`);
  },
  notSaleEnvironment(): HubError {
    return new HubError(403, ErrorCode.Unauthorized, 'Ticket writes require the Sale environment (a CashRegister or PDA device).');
  },
  forbidden(detail: string): HubError {
    return new HubError(403, ErrorCode.OperationForbidden, detail);
  },
  notFound(resource: string, key: string | number): HubError {
    return new HubError(404, ErrorCode.NotFound, `${resource} '${key}' does not exist.`);
  },
  routeNotFound(path: string): HubError {
    return new HubError(404, ErrorCode.NotFound, `No endpoint at ${path}.`);
  },
  methodNotAllowed(method: string, path: string, allow: string[]): HubError {
    return new HubError(405, ErrorCode.OperationForbidden, `${method} is not allowed on ${path}.`, {
      headers: { Allow: allow.join(', ') },
    });
  },
  versionMismatch(resource: ResourceRef, sent: number): HubError {
    return new HubError(
      409,
      ErrorCode.ResourceVersionMismatch,
      `${resource.name} '${resource.id}' is at version ${resource.version}, the request expected ${sent}.`,
      { resource },
    );
  },
  locked(detail: string): HubError {
    return new HubError(423, ErrorCode.ResourceLocked, detail);
  },
  idempotencyKeyReused(): HubError {
    return new HubError(409, ErrorCode.IdempotencyKeyReused, 'This Idempotency-Key was used before with a different request.');
  },
  tooManyRequests(detail: string, retryAfterS: number): HubError {
    return new HubError(429, ErrorCode.TooManyRequests, detail, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterS))) } });
  },
  payloadTooLarge(limit: string): HubError {
    return new HubError(413, ErrorCode.ValidationFailed, `The request body is larger than ${limit}.`);
  },
  /** The client closed the connection before its request body was complete (logged as such, never a 500). */
  clientAborted(): HubError {
    return new HubError(400, ErrorCode.ValidationFailed, 'The client closed the connection before its request body was complete.', { clientAborted: true });
  },
  /** The disk could not confirm a commit (db/durability.ts): the change may not have been kept. */
  storageFailed(): HubError {
    return new HubError(500, ErrorCode.Internal, 'The hub could not write this change to its disk and is restarting. It may not have been saved: check, then try again.');
  },
  unsupportedMediaType(type: string): HubError {
    return new HubError(415, ErrorCode.ValidationFailed, `Request bodies must be application/json, not ${type || 'unspecified'}.`);
  },
};
