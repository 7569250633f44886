/**
 * The one error type of the hub (CONTRACT §2). Services throw HubError; the problem middleware
 * turns it into application/problem+json. Anything else that reaches the middleware is a bug and
 * is answered as a bare 500.
 */
import { t, type MessageKey, type Params } from '../i18n/index.js';

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
  /** The detail as a catalog message, said in the caller's language (problem.ts); `message` is its English. */
  readonly said?: { key: MessageKey; params?: Params };

  constructor(
    status: number,
    errorCode: number,
    detail: string,
    extra: { errors?: MemberError[]; resource?: ResourceRef; headers?: Record<string, string>; clientAborted?: boolean; said?: { key: MessageKey; params?: Params } } = {},
  ) {
    super(detail);
    this.name = 'HubError';
    this.status = status;
    this.errorCode = errorCode;
    this.errors = extra.errors;
    this.resource = extra.resource;
    this.headers = extra.headers ?? {};
    this.clientAborted = extra.clientAborted ?? false;
    this.said = extra.said;
  }

  get title(): string {
    return TITLES[this.status] ?? 'Error';
  }
}

const english = (key: MessageKey, params?: Params) => t('en', key, params);

/** An error whose detail is a catalog message: English in `message` (logs), the caller's language on the wire. */
function said(status: number, code: number, key: MessageKey, params: Params = {}, extra: ConstructorParameters<typeof HubError>[3] = {}): HubError {
  return new HubError(status, code, english(key, params), { ...extra, said: { key, params } });
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
  unauthenticated(detail?: string): HubError {
    return new HubError(401, ErrorCode.Unauthenticated, detail ?? english('error.unauthenticated'), {
      headers: { 'WWW-Authenticate': 'Bearer' },
      ...(detail ? {} : { said: { key: 'error.unauthenticated' } }),
    });
  },
  missingRight(right: string | string[], orElse = ''): HubError {
    const names = Array.isArray(right) ? right.join(' or ') : right;
    if (orElse) return new HubError(403, ErrorCode.Unauthorized, `This operation requires the right ${names}${orElse}.`);
    return said(403, ErrorCode.Unauthorized, 'error.missingRight', { rights: names });
  },
  notSaleEnvironment(): HubError {
    return said(403, ErrorCode.Unauthorized, 'error.notSale');
  },
  forbidden(detail: string): HubError {
    return new HubError(403, ErrorCode.OperationForbidden, detail);
  },
  notFound(resource: string, key: string | number): HubError {
    return said(404, ErrorCode.NotFound, 'error.notFound', { resource, key });
  },
  routeNotFound(path: string): HubError {
    return said(404, ErrorCode.NotFound, 'error.routeNotFound', { path });
  },
  methodNotAllowed(method: string, path: string, allow: string[]): HubError {
    return said(405, ErrorCode.OperationForbidden, 'error.methodNotAllowed', { method, path }, { headers: { Allow: allow.join(', ') } });
  },
  versionMismatch(resource: ResourceRef, sent: number): HubError {
    return said(409, ErrorCode.ResourceVersionMismatch, 'error.versionMismatch', { resource: resource.name, id: resource.id, version: resource.version, sent }, { resource });
  },
  locked(detail: string): HubError {
    return new HubError(423, ErrorCode.ResourceLocked, detail);
  },
  idempotencyKeyReused(): HubError {
    return said(409, ErrorCode.IdempotencyKeyReused, 'error.idempotencyKeyReused');
  },
  tooManyRequests(detail: string, retryAfterS: number): HubError {
    return new HubError(429, ErrorCode.TooManyRequests, detail, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterS))) } });
  },
  payloadTooLarge(limit: string): HubError {
    return said(413, ErrorCode.ValidationFailed, 'error.payloadTooLarge', { limit });
  },
  /** The client closed the connection before its request body was complete (logged as such, never a 500). */
  clientAborted(): HubError {
    return said(400, ErrorCode.ValidationFailed, 'error.clientAborted', {}, { clientAborted: true });
  },
  /** The disk could not confirm a commit (db/durability.ts): the change may not have been kept. */
  storageFailed(): HubError {
    return said(500, ErrorCode.Internal, 'error.storageFailed');
  },
  unsupportedMediaType(type: string): HubError {
    return said(415, ErrorCode.ValidationFailed, 'error.unsupportedMediaType', { type: type || 'unspecified' });
  },
};
