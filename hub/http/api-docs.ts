/**
 * The pieces every route's documentation is made of (hub/http/route.ts, hub/openapi.ts): the
 * problem+json body, the error catalog (status, errorCodes and why, per CONTRACT §2), the headers
 * requests share. One place, so a route and the engine's operations describe errors alike.
 */
import { extendZodWithOpenApi, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { BODY_LIMIT_BYTES } from './body.js';
import { ErrorCode } from './errors.js';
import { IF_MATCH_PATTERN, ifMatchVersion } from './handler.js';

// Route declarations name schemas through `.openapi(...)`, which this adds to zod's prototype.
extendZodWithOpenApi(z);

export type Responses = RouteConfig['responses'];

export const JSON_TYPE = 'application/json';
export const PROBLEM_TYPE = 'application/problem+json';

/** The body sendProblem() writes (hub/http/problem.ts); exported so tests can hold real errors to it. */
export const problemDetailsSchema = z
  .object({
    type: z.string().openapi({ example: 'https://poshub.local/problems/404-7' }),
    title: z.string().openapi({ example: 'Not Found' }),
    status: z.number().int().openapi({ example: 404 }),
    detail: z.string().openapi({
      description: "In the caller's language: the user's own `language`, else Accept-Language, else POS_HUB_LOCALE (en, sk or cs).",
      example: "Customer 'c42' does not exist.",
    }),
    instance: z
      .string()
      .nullable()
      .openapi({ description: 'The request path and query (a token passed as `access_token` left out); null when the HTTP parser refused the request before its path could be read (400, 431).', example: '/api/customers/c42' }),
    traceId: z.string().openapi({ description: 'Equals the X-Request-Id response header.' }),
    errorCode: z
      .number()
      .int()
      .openapi({
        description: Object.entries(ErrorCode)
          .map(([name, code]) => `${code} ${name}`)
          .join(', '),
      }),
    errors: z
      .array(
        z.object({
          memberName: z.string().openapi({ description: 'The body member, query parameter or header at fault, e.g. `cards[0].serialNumber`.' }),
          message: z.string().openapi({ description: 'In the language of `detail`; memberName and code never change with it.' }),
          code: z.enum(['Required', 'Unique', 'Invalid', 'OutOfRange', 'Unknown']),
        }),
      )
      .optional(),
    resource: z
      .object({ name: z.string(), id: z.union([z.string(), z.number()]), version: z.number().int().openapi({ description: 'The stored version.' }) })
      .optional()
      .openapi({ description: 'With errorCode 6: the resource and its stored version.' }),
  });

export interface ErrorSpec {
  status: number;
  codes: number[];
  why: string;
  headers?: Record<string, { description: string; schema: { type: 'string' | 'integer' } }>;
}

const BEARER_CHALLENGE = { 'WWW-Authenticate': { description: 'Always `Bearer`.', schema: { type: 'string' as const } } };
const retryAfter = (what: string) => ({ 'Retry-After': { description: `Seconds until ${what}.`, schema: { type: 'integer' as const } } });

export const ERR = {
  validation: (why: string): ErrorSpec => ({ status: 400, codes: [ErrorCode.ValidationFailed], why }),
  unauthenticated: (why = 'No, unknown, expired or revoked token.'): ErrorSpec => ({
    status: 401,
    codes: [ErrorCode.Unauthenticated],
    why,
    headers: BEARER_CHALLENGE,
  }),
  missingRight: (why = 'A missing right; `detail` names it.'): ErrorSpec => ({ status: 403, codes: [ErrorCode.Unauthorized], why }),
  stateForbids: (why: string): ErrorSpec => ({ status: 403, codes: [ErrorCode.OperationForbidden], why }),
  notFound: (why: string): ErrorSpec => ({ status: 404, codes: [ErrorCode.NotFound], why }),
  versionMismatch: (): ErrorSpec => ({
    status: 409,
    codes: [ErrorCode.ResourceVersionMismatch],
    why: "The body's `_v` or the `If-Match` header is not the stored version; `resource.version` holds the stored one.",
  }),
  keyReused: (): ErrorSpec => ({
    status: 409,
    codes: [ErrorCode.IdempotencyKeyReused],
    why: 'This `Idempotency-Key` came before with a different request.',
  }),
  tooLarge: (): ErrorSpec => ({ status: 413, codes: [ErrorCode.ValidationFailed], why: `The body is larger than ${BODY_LIMIT_BYTES / 1024 / 1024} MiB.` }),
  mediaType: (): ErrorSpec => ({ status: 415, codes: [ErrorCode.ValidationFailed], why: 'A non-empty body that is not `application/json`.' }),
  locked: (): ErrorSpec => ({
    status: 423,
    codes: [ErrorCode.ResourceLocked],
    why: 'The ticket is being closed by another request right now, or its receipt may be out and a retried close must settle it first.',
  }),
  tooMany: (): ErrorSpec => ({
    status: 429,
    codes: [ErrorCode.TooManyRequests],
    why: 'Too many failed logins for this user name or from this address.',
    headers: retryAfter('another attempt is accepted'),
  }),
  deviceUnavailable: (): ErrorSpec => ({
    status: 503,
    codes: [ErrorCode.DeviceUnavailable],
    why: 'The fiscal device cannot be reached or is out of paper; nothing was changed.',
    headers: retryAfter('a retry makes sense'),
  }),
};

/** hub/http/idempotency.ts serves every POST, PUT, PATCH and DELETE behind the session. */
export const idempotencyHeader = () =>
  z.object({
    'Idempotency-Key': z
      .string()
      .regex(/^[\x21-\x7e]{1,200}$/)
      .optional()
      .openapi({
        param: {
          description:
            'Makes a retry safe: the same key with the same request (per user) answers the stored response again, with ' +
            '`Idempotent-Replayed: true`, and changes nothing; with a different request: 409 (errorCode 11).',
          example: '6f1c2a9e-reg1-0042',
        },
      }),
  });

/** `X-Register-Key`: the secret a paired register was given (POST /api/registers/pair). */
export const registerKeyHeader = (what: string, required = false) => {
  const key = z.string().openapi({ param: { description: what, example: 'kQ3v…' } });
  return z.object({ 'X-Register-Key': required ? key : key.optional() });
};

/** What reading a request body can answer (hub/http/body.ts runs before every non-GET route). */
export const bodyErrors = (why: string): ErrorSpec[] => [ERR.validation(why), ERR.tooLarge(), ERR.mediaType()];

const codeName = (code: number) => `${code} ${Object.entries(ErrorCode).find(([, v]) => v === code)?.[0] ?? ''}`.trim();

/**
 * problem+json responses, one per status. Each narrows ProblemDetails to its status and the
 * errorCodes it can carry, so a client (or a test) can tell a missing right from a closed ticket.
 */
/** Every request passes the per-address rate limit first (POS_HUB_RATE_LIMIT), so every operation can answer it. */
const RATE_LIMITED: ErrorSpec = {
  status: 429,
  codes: [ErrorCode.TooManyRequests],
  why: 'More requests from this address than the rate limit (`POS_HUB_RATE_LIMIT` per second) allows.',
  headers: retryAfter('a request is accepted again'),
};

/**
 * What the API's router answers before an operation sees its request (hub/app.ts), so every
 * operation can answer it too: broken text in the path or query (http/text.ts); for a method that
 * may carry a body, one that is unreadable, too large or not JSON (http/body.ts: a body is read even
 * where the operation takes none); for POST and PATCH behind a token, a malformed or reused
 * Idempotency-Key (http/idempotency.ts).
 */
export function beforeTheOperation(request: { method: string; path: string; noToken?: boolean }): ErrorSpec[] {
  if (!request.path.startsWith('/api/')) return [];
  const method = request.method.toUpperCase();
  const out: ErrorSpec[] = [
    ERR.validation('A path segment or query parameter that is not valid text (malformed percent-encoding, a lone surrogate or NUL); `errors[0].memberName` names it.'),
  ];
  if (method !== 'GET' && method !== 'HEAD') {
    out.push(ERR.validation('A body that is not JSON, nests deeper than 32 levels, or holds `__proto__`, a NUL or a lone surrogate.'), ERR.tooLarge(), ERR.mediaType());
  }
  if ((method === 'POST' || method === 'PATCH') && !request.noToken) out.push(ERR.validation('A malformed `Idempotency-Key`.'), ERR.keyReused());
  return out;
}

/**
 * What a service answers around its operations, for every operation of its document: `before`, the
 * errors its routers answer before an operation sees a request (the hub's: beforeTheOperation);
 * `rateLimited`, whether a per-address rate limit stands in front (the hub's; HQ has none).
 */
export interface ProblemContext {
  before?: (request: { method: string; path: string; noToken?: boolean }) => ErrorSpec[];
  rateLimited?: boolean;
}

export function problemResponses(specs: ErrorSpec[], problem: z.ZodObject, request?: { method: string; path: string; noToken?: boolean }, context: ProblemContext = {}): Responses {
  const { before = beforeTheOperation, rateLimited = true } = context;
  const byStatus = new Map<number, ErrorSpec[]>();
  const seen = new Set<string>();
  for (const spec of [...specs, ...(request ? before(request) : []), ...(rateLimited ? [RATE_LIMITED] : [])]) {
    const id = `${spec.status} ${spec.codes.join(',')} ${spec.why}`;
    if (seen.has(id)) continue;
    seen.add(id);
    byStatus.set(spec.status, [...(byStatus.get(spec.status) ?? []), spec]);
  }
  const out: Responses = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const codes = [...new Set(group.flatMap((g) => g.codes))].sort((a, b) => a - b);
    const headers = Object.assign({}, ...group.map((g) => g.headers ?? {})) as ErrorSpec['headers'];
    const reasons = group.map((g) => `${g.why} (errorCode ${g.codes.map(codeName).join(', ')})`);
    out[String(status)] = {
      description: group.length === 1 ? reasons[0] : reasons.map((r) => `- ${r}`).join('\n'),
      headers: headers && Object.keys(headers).length ? headers : undefined,
      content: {
        [PROBLEM_TYPE]: {
          schema: problem.extend({
            status: z.literal(status),
            // z.literal([2, 8]) would validate the same, but the generator only writes its first value.
            errorCode: z.number().int().openapi({ enum: codes }),
          }),
        },
      },
    };
  }
  return out;
}

export const ETAG = { ETag: { description: 'The version `_v`, quoted (`"3"`); send it back in `If-Match`.', schema: { type: 'string' as const } } };
export const LOCATION = { Location: { description: 'The path of the new resource.', schema: { type: 'string' as const } } };
/** `If-Match: "3"`: the expected version; another is a 409. */
export const ifMatchHeader = (what = 'The expected `_v` (`"3"`); another: 409.') =>
  z.object({ 'If-Match': ifMatchVersion.optional().openapi({ pattern: IF_MATCH_PATTERN, param: { description: what, example: '"3"' } }) });

/** A list's answer (CONTRACT §4): `count` items of `totalCount` matches; `items` left out with `$count=true`. */
export const queryResult = (item: z.ZodType) =>
  z.object({ items: z.array(item).optional().openapi({ description: 'Left out when `$count=true`.' }), count: z.number().int(), totalCount: z.number().int() });
