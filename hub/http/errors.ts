/**
 * The one error type of the hub (CONTRACT §2). Services throw HubError; the problem middleware
 * turns it into application/problem+json. Anything else that reaches the middleware is a bug and
 * is answered as a bare 500.
 */
import { t, type MessageKey, type Params } from '../i18n/index.js';
import { customIssue, type Said } from '../i18n/say.js';
import type { z } from 'zod';

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
  /** English (logs); the answer says `said` in the caller's language. */
  message: string;
  code: MemberErrorCode;
  said?: Said;
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
  /**
   * The detail as a catalog message, said in the caller's language (problem.ts); `message` is its
   * English. A `{members}` in it stands for the members' messages, said in the same language.
   */
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
export function saidError(status: number, code: number, key: MessageKey, params: Params = {}, extra: ConstructorParameters<typeof HubError>[3] = {}): HubError {
  return new HubError(status, code, english(key, params), { ...extra, said: { key, params } });
}

/** A member at fault, its message from the catalog. */
export function memberError(memberName: string, key: MessageKey, params: Params = {}, code: MemberErrorCode = 'Invalid'): MemberError {
  return { memberName, message: english(key, params), code, said: { key, params } };
}

/**
 * A schema's own check failing with a catalog message (a local day, a change-log position): the
 * member at fault (`path` from an object's own check) with `code`, said in the caller's language
 * like any member (http/validate.ts).
 */
export function catalogIssue(ctx: z.core.$RefinementCtx, key: MessageKey, params: Params = {}, code: MemberErrorCode = 'Invalid', path?: PropertyKey[]): void {
  const issue = customIssue(key, params);
  ctx.addIssue({ code: 'custom', message: issue.message, params: { ...issue.params, memberCode: code }, ...(path ? { path } : {}) });
}

/** Members as the detail lists them: "name: message name: message". */
export function membersText(members: ReadonlyArray<{ memberName: string; message: string }>): string {
  return members.map((m) => `${m.memberName}: ${m.message}`).join(' ');
}

/** Constructors for the rows of the CONTRACT §2 table, so call sites read like the table. */
export const errors = {
  /** A 400 whose detail (`key`, where `{members}` lists the members) and members are catalog messages. */
  validation(key: MessageKey, params: Params, members: MemberError[]): HubError {
    return saidError(400, ErrorCode.ValidationFailed, key, { ...params, members: membersText(members) }, { errors: members });
  },
  member(memberName: string, key: MessageKey, params: Params = {}, code: MemberErrorCode = 'Invalid'): HubError {
    return errors.validation('error.member', {}, [memberError(memberName, key, params, code)]);
  },
  unauthenticated(key: MessageKey = 'error.unauthenticated'): HubError {
    return saidError(401, ErrorCode.Unauthenticated, key, {}, { headers: { 'WWW-Authenticate': 'Bearer' } });
  },
  /** `lookup`: the filters that read one row without the right (a GET by an exact filter). */
  missingRight(right: string | string[], lookup?: string[]): HubError {
    const rights = Array.isArray(right) ? right.join(' or ') : right;
    if (lookup) return saidError(403, ErrorCode.Unauthorized, 'error.missingRightOrLookup', { rights, filters: lookup.join(' or ') });
    return saidError(403, ErrorCode.Unauthorized, 'error.missingRight', { rights });
  },
  notSaleEnvironment(): HubError {
    return saidError(403, ErrorCode.Unauthorized, 'error.notSale');
  },
  forbidden(key: MessageKey, params: Params = {}): HubError {
    return saidError(403, ErrorCode.OperationForbidden, key, params);
  },
  notFound(resource: string, key: string | number): HubError {
    return saidError(404, ErrorCode.NotFound, 'error.notFound', { resource, key });
  },
  routeNotFound(path: string): HubError {
    return saidError(404, ErrorCode.NotFound, 'error.routeNotFound', { path });
  },
  methodNotAllowed(method: string, path: string, allow: string[]): HubError {
    return saidError(405, ErrorCode.OperationForbidden, 'error.methodNotAllowed', { method, path }, { headers: { Allow: allow.join(', ') } });
  },
  /** `sent` undefined: `If-Match: *` on a record that does not exist. */
  versionMismatch(resource: ResourceRef, sent: number | undefined): HubError {
    if (sent === undefined) return saidError(409, ErrorCode.ResourceVersionMismatch, 'error.versionMismatchAbsent', { resource: resource.name, id: resource.id }, { resource });
    return saidError(409, ErrorCode.ResourceVersionMismatch, 'error.versionMismatch', { resource: resource.name, id: resource.id, version: resource.version, sent }, { resource });
  },
  locked(key: MessageKey, params: Params = {}): HubError {
    return saidError(423, ErrorCode.ResourceLocked, key, params);
  },
  idempotencyKeyReused(): HubError {
    return saidError(409, ErrorCode.IdempotencyKeyReused, 'error.idempotencyKeyReused');
  },
  tooManyRequests(retryAfterS: number, key: MessageKey, params: Params = {}): HubError {
    return saidError(429, ErrorCode.TooManyRequests, key, params, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterS))) } });
  },
  payloadTooLarge(limit: string): HubError {
    return saidError(413, ErrorCode.ValidationFailed, 'error.payloadTooLarge', { limit });
  },
  /** The client closed the connection before its request body was complete (logged as such, never a 500). */
  clientAborted(): HubError {
    return saidError(400, ErrorCode.ValidationFailed, 'error.clientAborted', {}, { clientAborted: true });
  },
  /** The disk could not confirm a commit (db/durability.ts): the change may not have been kept. */
  storageFailed(): HubError {
    return saidError(500, ErrorCode.Internal, 'error.storageFailed');
  },
  unsupportedMediaType(type: string): HubError {
    return saidError(415, ErrorCode.ValidationFailed, 'error.unsupportedMediaType', { type: type || 'unspecified' });
  },
  unsupportedEncoding(encoding: string): HubError {
    return saidError(415, ErrorCode.ValidationFailed, 'error.unsupportedEncoding', { encoding });
  },
};
