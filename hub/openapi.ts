/**
 * GET /api/openapi.json (OpenAPI 3.1) and the readable page /api/docs, both without a token.
 *
 * The document is generated from the same zod schemas and resource definitions the hub validates
 * and routes with (RESOURCES, loginSchema, refreshSchema), so a field, filter or verb added to a
 * resource shows up here without anyone editing a second copy.
 */
import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import express, { Router, type Request, type Response } from 'express';
// The package's index also require()s the 1.5 MB browser bundle; the path helper alone is enough.
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';
import { z } from 'zod';
import { BODY_LIMIT_BYTES } from './http/body.js';
import { ErrorCode, errors } from './http/errors.js';
import { methodNotAllowed } from './http/handler.js';
import type { FilterSpec } from './http/ndata.js';
import { ENV_NAMES, RIGHTS } from './http/rights.js';
import { loginSchema, refreshSchema } from './resources/auth/service.js';
import { PAIRING_TTL_MS, pairingRequestSchema, pairSchema } from './kds/service.js';
import { actionSchemas, preliminarySchema, TICKET_ACTIONS } from './resources/tickets/actions.js';
import { closeContextSchema } from './resources/tickets/close.js';
import { receiptEmails } from './resources/receipts/resource.js';
import { settingsAnswerSchema, settingsSchema } from './mail/settings.js';
import { tickets } from './resources/tickets/resource.js';
import { devices } from './resources/devices/resource.js';
import type { ResourceDef } from './resources/engine/define.js';
import { DEFAULT_TAKE, MAX_TAKE } from './resources/engine/list-query.js';
import { RESOURCES } from './resources/index.js';
import { VERSION } from './core/version.js';
import { fiscalDaySchema, salesReportSchema } from './reports/schema.js';
import { GROUP_BY } from './reports/service.js';

// registry.register() names a schema through `.openapi(refId)`, which this adds to zod's prototype.
extendZodWithOpenApi(z);

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;
type Responses = RouteConfig['responses'];

const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';

/**
 * Fields a resource accepts but never answers with. The engine cannot see what a `present` hook
 * strips, and `password` (CONTRACT §5: write-only) is the one such field the contract names.
 */
const WRITE_ONLY_FIELDS = new Set(['password']);

/** The body sendProblem() writes (hub/http/problem.ts); exported so tests can hold real errors to it. */
export const problemDetailsSchema = z
  .object({
    type: z.string().openapi({ example: 'https://poshub.local/problems/404-7' }),
    title: z.string().openapi({ example: 'Not Found' }),
    status: z.number().int().openapi({ example: 404 }),
    detail: z.string().openapi({ example: "Customer 'c42' does not exist." }),
    instance: z.string().openapi({ description: 'The request path and query.', example: '/api/customers/c42' }),
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
          message: z.string(),
          code: z.enum(['Required', 'Unique', 'Invalid', 'OutOfRange', 'Unknown']),
        }),
      )
      .optional(),
    resource: z
      .object({ name: z.string(), id: z.union([z.string(), z.number()]), version: z.number().int().openapi({ description: 'The stored version.' }) })
      .optional()
      .openapi({ description: 'With errorCode 6: the resource and its stored version.' }),
  });

/** What GET /api/health answers (hub/health.ts). */
const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptimeS: z.number().int(),
  db: z.enum(['ok', 'error']),
  printers: z
    .array(z.object({ name: z.string(), type: z.string(), isActive: z.boolean(), status: z.unknown(), queueDepth: z.number().int() }))
    .optional()
    .openapi({ description: 'With a token.' }),
  fiscalDevices: z
    .array(z.object({ name: z.string(), driver: z.string(), isActive: z.boolean(), status: z.record(z.string(), z.unknown()).nullable() }))
    .optional()
    .openapi({ description: 'With a token holding SettingsRead.' }),
  changeLog: z.object({ lastSeq: z.number().int() }).optional().openapi({ description: 'With a token holding SettingsRead.' }),
  emailOutbox: z
    .object({ queued: z.number().int(), failed: z.number().int() })
    .optional()
    .openapi({ description: 'With a token holding SettingsRead: e-mail receipts waiting to be sent (Queued) and given up (Failed).' }),
});

/** One error response: a status and the errorCodes it comes with (CONTRACT §2), and when. */
interface ErrorSpec {
  status: number;
  codes: number[];
  why: string;
  headers?: Record<string, { description: string; schema: { type: 'string' | 'integer' } }>;
}

const BEARER_CHALLENGE = { 'WWW-Authenticate': { description: 'Always `Bearer`.', schema: { type: 'string' as const } } };
const retryAfter = (what: string) => ({ 'Retry-After': { description: `Seconds until ${what}.`, schema: { type: 'integer' as const } } });

const ERR = {
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

/** hub/http/idempotency.ts serves every POST and PATCH behind the session. */
const idempotencyHeader = () =>
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

/** What reading a request body can answer (hub/http/body.ts runs before every non-GET route). */
const bodyErrors = (why: string): ErrorSpec[] => [ERR.validation(why), ERR.tooLarge(), ERR.mediaType()];

const codeName = (code: number) => `${code} ${Object.entries(ErrorCode).find(([, v]) => v === code)?.[0] ?? ''}`.trim();

/**
 * problem+json responses, one per status. Each narrows ProblemDetails to its status and the
 * errorCodes it can carry, so a client (or a test) can tell a missing right from a closed ticket.
 */
function problemResponses(specs: ErrorSpec[], problem: z.ZodObject): Responses {
  const byStatus = new Map<number, ErrorSpec[]>();
  for (const spec of specs) byStatus.set(spec.status, [...(byStatus.get(spec.status) ?? []), spec]);
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

type WriteVerb = 'post' | 'put' | 'delete';

const SALE_ONLY = ERR.missingRight('A caller outside the Sale environment (a device other than CashRegister or PDA).');

/**
 * What resource hooks add to the engine's behaviour: rules no declaration exposes (extra rights,
 * state checks). Keyed by resource name; a resource without an entry adds nothing.
 */
const HOOK_DOCS: Record<string, { notes?: Partial<Record<WriteVerb, string>>; errors?: Partial<Record<WriteVerb, ErrorSpec[]>> }> = {
  customers: {
    notes: {
      post: 'A non-zero credit also needs CustomerSetCredit.',
      put: "A change of credit also needs CustomerSetCredit; a change of an existing customer's discountRate, CustomerSetDiscount.",
    },
  },
  stocktakings: {
    notes: {
      post: 'Giving closedBy and closedAt (both, or neither) closes it: that also needs StockTakingClose and an actualQuantity on every item.',
      put: 'Giving closedBy and closedAt (both, or neither) closes it: that also needs StockTakingClose and an actualQuantity on every item.',
    },
    errors: { put: [ERR.stateForbids('The stock taking is closed and read-only.')] },
  },
  tickets: {
    notes: {
      post:
        'Only from the Sale environment (a CashRegister or PDA device), with TicketCreate. A customer also needs TicketSetCustomer; ' +
        "a non-zero discountRate, TicketSetDiscount (unless it is the customer's own).",
      put:
        'Only from the Sale environment. A new id needs what POST needs. ' +
        "Changing a stored ticket needs TicketUpdate for one's own ticket or TicketUpdateAny for " +
        "another's, TicketRename for a new name, TicketSetDiscount for a discount change, TicketSetCustomer for another customer, " +
        'and Storno to lower or remove an item already stored. A closed ticket answers 403 (errorCode 8); a stale `_v` answers 409 ' +
        'first, and the register that re-reads the ticket finds it closed.',
      delete: 'Only from the Sale environment, and only an open ticket; items already ordered get a cancel order.',
    },
    errors: {
      post: [SALE_ONLY],
      put: [SALE_ONLY, ERR.stateForbids('The ticket is closed.'), ERR.locked()],
      delete: [SALE_ONLY, ERR.locked()],
    },
  },
};

const OPERATORS_BY_TYPE: Record<FilterSpec['type'], string> = {
  string: '`eq` (the default), `ne`, `gt`, `ge`, `lt`, `le`, `in`, `nin`, `contains`, `startswith`',
  stringList: '`in` (the default: comma-separated values), `nin`, `eq`, `ne`, `gt`, `ge`, `lt`, `le`, `contains`, `startswith`',
  int: '`eq` (the default), `ne`, `gt`, `ge`, `lt`, `le`, `in`, `nin`',
  decimal: '`eq` (the default), `ne`, `gt`, `ge`, `lt`, `le`, `in`, `nin`',
  datetime: '`eq` (the default), `ne`, `gt`, `ge`, `lt`, `le`, `in`, `nin`',
  enum: '`eq` (the default), `ne`, `in`, `nin` (and `gt`, `ge`, `lt`, `le`, which compare the text)',
  bool: '`eq` (the default), `ne`, `in`, `nin`',
};

const TYPE_WORDS: Record<FilterSpec['type'], string> = {
  string: 'text',
  stringList: 'text, several values',
  int: 'integer',
  decimal: 'decimal (at most 4 places)',
  datetime: 'ISO 8601 date-time',
  enum: 'enumeration',
  bool: '`true` or `false`',
};

function filterExample(spec: FilterSpec): string {
  switch (spec.type) {
    case 'string':
      return 'startswith:Ab';
    case 'stringList':
      return 'A,B';
    case 'int':
      return 'ge:10;lt:20';
    case 'decimal':
      return 'gt:9.5';
    case 'datetime':
      return 'ge:2026-11-21T10:00:00Z';
    case 'enum':
      return spec.enumValues && spec.enumValues.length > 1 ? `in:${spec.enumValues.slice(0, 2).join(',')}` : (spec.enumValues?.[0] ?? '');
    case 'bool':
      return 'true';
  }
}

function filterDescription(name: string, spec: FilterSpec): string {
  const values = spec.type === 'enum' && spec.enumValues ? ` (${spec.enumValues.join(', ')}; any letter case)` : '';
  const textOps = spec.type === 'string' || spec.type === 'stringList' ? ' `contains` and `startswith` ignore letter case.' : '';
  return (
    `NData filter on \`${name}\`, of type ${TYPE_WORDS[spec.type]}${values}. ` +
    'Syntax `OP:ARG;OP:ARG` (operations joined by `;` are ANDed; so are repeated parameters); a plain value means ' +
    `${spec.type === 'stringList' ? '`in`' : '`eq`'}. Operators: ${OPERATORS_BY_TYPE[spec.type]}.${textOps} ` +
    '`in`/`nin` take comma-separated values (a value holding a comma is written in double quotes, CSV style); ' +
    '`null` with `eq`/`ne` matches a missing value. A bad value or operator: 400 naming this filter.'
  );
}

/** The keys `$sort` accepts by name (list-query.ts `sortables`); it matches them in any letter case, hence one per spelling. */
function sortKeys(def: ResourceDef): string[] {
  const keys = [def.key.field, ...Object.keys(def.schema.shape), ...Object.keys(def.readOnly), ...Object.keys(def.filters), ...Object.keys(def.sorts ?? {})];
  const byLower = new Map<string, string>();
  for (const k of keys) if (!WRITE_ONLY_FIELDS.has(k) && !byLower.has(k.toLowerCase())) byLower.set(k.toLowerCase(), k);
  return [...byLower.values()];
}

function listQuery(def: ResourceDef): z.ZodObject {
  const shape: Record<string, z.ZodType> = {
    $skip: z
      .number()
      .int()
      .min(0)
      .default(0)
      .openapi({ param: { description: 'Matching records to skip.' } }),
    $take: z
      .number()
      .int()
      .min(0)
      .max(MAX_TAKE)
      .default(DEFAULT_TAKE)
      .openapi({ param: { description: `Page size, 0..${MAX_TAKE}; outside that range: 400.` } }),
    $sort: z.string().optional().openapi({
      param: {
        description:
          'Comma-separated sort keys, each ascending unless followed by `:desc` or led by `-`; dotted paths sort by nested fields ' +
          `(\`a.b\`); repeatable. Ties break on \`${def.key.field}\` ascending, so paging is stable; without \`$sort\` the order is ` +
          `\`${def.key.field}\` ascending. Unknown key: 400. Keys: ${sortKeys(def)
            .map((k) => `\`${k}\``)
            .join(', ')}.`,
        example: `-${def.key.field}`,
      },
    }),
    $count: z.boolean().default(false).openapi({
      param: { description: '`true`: the answer has no `items`; `count` is what the page would hold and `totalCount` every match.' },
    }),
  };
  for (const [name, filter] of Object.entries(def.filters)) {
    const spec: FilterSpec = { type: filter.type, enumValues: 'enumValues' in filter ? filter.enumValues : undefined };
    shape[name] = z
      .string()
      .optional()
      .openapi({ param: { description: filterDescription(name, spec), example: filterExample(spec) } });
  }
  return z.object(shape);
}

/** Whether a field is in every stored document: required, defaulted, or the key the server fills in. */
function alwaysAnswered(def: ResourceDef, field: string, schema: z.ZodType): boolean {
  if (field === def.key.field) return true;
  const r = schema.safeParse(undefined);
  return !r.success || r.data !== undefined;
}

interface ResourceSchemas {
  model: z.ZodObject;
  input: z.ZodObject;
  list: z.ZodObject;
  modelName: string;
  required: string[];
}

function resourceSchemas(registry: OpenAPIRegistry, def: ResourceDef): ResourceSchemas {
  const shape = Object.fromEntries(Object.entries(def.schema.shape).filter(([field]) => !WRITE_ONLY_FIELDS.has(field))) as z.ZodRawShape;
  const readOnly = Object.fromEntries(Object.entries(def.readOnly).map(([field, s]) => [field, (s as z.ZodType).meta({ readOnly: true })]));
  const version = z.number().int().min(1).openapi({ description: 'Version: 1 on create, +1 on every stored change.', readOnly: true });
  // A fresh object rather than .extend(): zod refuses to extend an object carrying a superRefine.
  const model = registry.register(def.title, z.object({ ...shape, ...readOnly, _v: version }));
  const required = [
    ...Object.entries(shape)
      .filter(([field, s]) => alwaysAnswered(def, field, s as z.ZodType))
      .map(([field]) => field),
    ...Object.keys(def.readOnly),
    '_v',
  ];
  const serverOwned = [...Object.keys(def.readOnly), ...(def.ignored ?? [])];
  const input = registry.register(
    `${def.title}Input`,
    z
      .object({
        ...def.schema.shape,
        _v: z
          .number()
          .int()
          .min(0)
          .optional()
          .openapi({ description: 'If given, the stored version must equal it (else 409); a body without `_v` is not checked.' }),
      })
      .openapi({
        description:
          `A ${def.title} as written by a client. Unknown top-level fields are dropped` +
          (serverOwned.length ? `; server-owned fields (${serverOwned.map((f) => `\`${f}\``).join(', ')}) are ignored.` : '.'),
      }),
  );
  const list = registry.register(
    `${def.title}QueryResult`,
    z.object({
      items: z.array(model).optional().openapi({ description: 'Left out when `$count=true`.' }),
      count: z.number().int().openapi({ description: 'Items in this page (with `$count=true`: what the page would hold).' }),
      totalCount: z.number().int().openapi({ description: 'All matches.' }),
    }),
  );
  return { model, input, list, modelName: def.title, required };
}

const ETAG = { ETag: { description: 'The version `_v`, quoted (`"3"`); send it back in `If-Match`.', schema: { type: 'string' as const } } };
const LOCATION = { Location: { description: 'The path of the new resource.', schema: { type: 'string' as const } } };

/** "Requires X or Y." from the rights the engine checks; null rights leave the decision to hooks. */
function rightsText(rights: Array<string | null>): string {
  const named = rights.filter((r): r is string => r !== null);
  return named.length ? `Requires ${named.join(' or ')}.` : 'No right of its own; the rules below decide.';
}

/** Who reads a resource (CONTRACT §12), in words, for its list and get operations. */
function readText(def: ResourceDef, what: 'list' | 'get'): string {
  if (!def.read) return 'Needs a valid token; no right (everyone logged in reads the catalog).';
  const { right, scope, lookup } = def.read;
  if (lookup && what === 'list') {
    return `Requires ${right}. Without it, a list with exactly one \`eq\` filter on ${lookup.filters.join(' or ')} finds that record, answered with only what a register needs of it.`;
  }
  if (scope) return `Requires ${right} to read every record; without it, the caller reads ${def.name === 'orders' ? "the orders of the tickets they read (a kitchen display's session: its own endpoint's orders only)" : 'every open ticket and the closed ones of their own device or user'}${what === 'get' ? ' (another: 403)' : ' (the list holds only those)'}.`;
  return `Requires ${right}.`;
}

/** `x-rights`: the rights an operation checks, machine-readable beside its description. */
const xRights = (...rights: Array<string | null | undefined>) => ({ 'x-rights': rights.filter((r): r is string => !!r) });

function registerResource(registry: OpenAPIRegistry, def: ResourceDef, problem: z.ZodObject): ResourceSchemas {
  const schemas = resourceSchemas(registry, def);
  const { model, input, list } = schemas;
  const offers = (verb: WriteVerb) => !def.without?.includes(verb);
  const hookDocs = HOOK_DOCS[def.name] ?? {};
  const note = (verb: WriteVerb) => (hookDocs.notes?.[verb] ? ` ${hookDocs.notes[verb]}` : '');
  const hookErrors = (verb: WriteVerb) => hookDocs.errors?.[verb] ?? [];
  const base = `/api/${def.name}`;
  const one = `${base}/{${def.key.field}}`;
  const params = z.object({
    [def.key.field]: def.key.schema.meta({ param: { description: `The ${def.title}'s key \`${def.key.field}\`.` } }),
  });
  const tags = [def.title];
  const keyIsInt = def.key.type === 'int';
  const ifMatch = z.object({
    'If-Match': z
      .string()
      .optional()
      .openapi({ param: { description: 'The expected version (`"3"`, as the ETag); a different stored version: 409.', example: '"3"' } }),
  });
  const body = { required: true, content: { [JSON_TYPE]: { schema: input } } };
  const json = (schema: z.ZodType) => ({ [JSON_TYPE]: { schema } });
  const badKey = keyIsInt ? [ERR.validation(`\`${def.key.field}\` in the path is not a positive integer.`)] : [];
  const keyBody = def.key.generate
    ? `The server makes \`${def.key.field}\` when the body leaves it out.`
    : `The body must carry \`${def.key.field}\`.`;

  registry.registerPath({
    method: 'get',
    path: base,
    operationId: `${def.name}.list`,
    tags,
    summary: `List ${def.title} records`,
    description: `${readText(def, 'list')} Paging, sorting and NData filters as the parameters describe.`,
    ...xRights(def.read?.right),
    request: { query: listQuery(def) },
    responses: {
      200: { description: 'A page of matches.', content: json(list) },
      ...problemResponses(
        [
          ERR.validation(
            'A bad `$skip`, `$take`, `$sort` or `$count`, an unknown sort key, an unknown or malformed filter, more than 32 sort keys, 64 operations in one filter value or 100 values in `in`/`nin`; `errors[0].memberName` names the parameter.',
          ),
          ERR.unauthenticated(),
          ...(def.read ? [ERR.missingRight(`Without ${def.read.right}${def.read.lookup ? ' (and not an exact lookup)' : ''}.`)] : []),
        ],
        problem,
      ),
    },
  });
  if (offers('post')) {
    registry.registerPath({
      method: 'post',
      path: base,
      operationId: `${def.name}.create`,
      tags,
      summary: `Create a ${def.title}`,
      description: `${rightsText([def.rights.create])}${note('post')} ${keyBody}`,
      ...xRights(def.rights.create),
      request: { headers: idempotencyHeader(), body },
      responses: {
        201: { description: `The created ${def.title}.`, headers: LOCATION, content: json(model) },
        ...problemResponses(
          [
            ...bodyErrors(
              `An invalid body, a key (\`${def.key.field}\`) that already exists (code Unique), a reference to something that does not exist, or a malformed \`Idempotency-Key\`; \`errors\` lists every member at fault.`,
            ),
            ERR.unauthenticated(),
            ERR.missingRight(),
            ERR.keyReused(),
            ...hookErrors('post'),
          ],
          problem,
        ),
      },
    });
  }
  registry.registerPath({
    method: 'get',
    path: one,
    operationId: `${def.name}.get`,
    tags,
    summary: `Read one ${def.title}`,
    description: readText(def, 'get'),
    ...xRights(def.read?.right),
    request: { params },
    responses: {
      200: { description: `The ${def.title}.`, headers: ETAG, content: json(model) },
      ...problemResponses(
        [...badKey, ERR.unauthenticated(), ...(def.read ? [ERR.missingRight(`Without ${def.read.right}.`)] : []), ERR.notFound(`No ${def.title} has this ${def.key.field}.`)],
        problem,
      ),
    },
  });
  if (offers('put')) {
    registry.registerPath({
      method: 'put',
      path: one,
      operationId: `${def.name}.put`,
      tags,
      summary: `Create or replace a ${def.title}`,
      ...xRights(def.rights.create, def.rights.update),
      description:
        `${def.rights.create || def.rights.update ? `Requires ${def.rights.create} when it creates, ${def.rights.update} when it replaces.` : rightsText([])}${note('put')} Replaces the whole resource (fields left out take their ` +
        `defaults) or creates it with this key. The body's \`${def.key.field}\`, if given, must equal the path's.`,
      request: { params, headers: ifMatch, body },
      responses: {
        200: { description: `Replaced: the stored ${def.title}.`, headers: ETAG, content: json(model) },
        201: { description: `Created: the stored ${def.title}.`, headers: { ...ETAG, ...LOCATION }, content: json(model) },
        ...problemResponses(
          [
            ...bodyErrors(
              `An invalid body or \`If-Match\`, a key (\`${def.key.field}\`) in the body that differs from the path, or a reference to something that does not exist.`,
            ),
            ERR.unauthenticated(),
            ERR.missingRight(),
            ERR.versionMismatch(),
            ...hookErrors('put'),
          ],
          problem,
        ),
      },
    });
  }
  if (offers('delete')) {
    registry.registerPath({
      method: 'delete',
      path: one,
      operationId: `${def.name}.delete`,
      tags,
      summary: `Delete a ${def.title}`,
      description: `${rightsText([def.rights.delete])}${note('delete')} Answers the deleted ${def.title}.`,
      ...xRights(def.rights.delete),
      request: { params, headers: ifMatch },
      responses: {
        200: { description: `The deleted ${def.title}.`, content: json(model) },
        ...problemResponses(
          [
            ...bodyErrors(keyIsInt ? `A malformed \`If-Match\` or \`${def.key.field}\`, or an unreadable body.` : 'A malformed `If-Match`, or an unreadable body.'),
            ERR.unauthenticated(),
            ERR.missingRight(),
            // beforeDelete exists to refuse what the stored state forbids (a stock holding plus, a closed ticket).
            ...(def.hooks?.beforeDelete ? [ERR.stateForbids(`The ${def.title}'s state forbids deleting it.`)] : []),
            ERR.notFound(`No ${def.title} has this ${def.key.field}.`),
            ERR.versionMismatch(),
            ...hookErrors('delete'),
          ],
          problem,
        ),
      },
    });
  }
  return schemas;
}

/** The ticket routes beyond the engine's CRUD (hub/resources/tickets/routes.ts). */
function registerTicketRoutes(registry: OpenAPIRegistry, problem: z.ZodObject, ticket: z.ZodObject): void {
  const tags = [tickets.title];
  const json = (schema: z.ZodType) => ({ [JSON_TYPE]: { schema } });
  const params = z.object({ id: tickets.key.schema.meta({ param: { description: "The Ticket's key `id`." } }) });
  // Fresh objects over the same fields: the shared schemas were built before zod learned `.openapi`.
  const actionBodies = TICKET_ACTIONS.map((action) => registry.register(`Ticket${action}`, z.object(actionSchemas[action].shape)));
  const close = registry.register('TicketCloseContext', z.object(closeContextSchema.shape));
  const preliminary = registry.register('PrintPreliminaryTicketContext', z.object(preliminarySchema.shape));
  const notClosed = ERR.stateForbids('A ticket in the request is closed.');

  registry.registerPath({
    method: 'patch',
    path: '/api/tickets',
    operationId: 'tickets.batch',
    tags,
    summary: 'Hand over, take over or relocate tickets, all or nothing',
    description:
      'Only from the Sale environment. `Handover {ids, userName}` needs TicketHandover (and TicketUpdateAny for tickets of others); ' +
      "`Takeover {ids}` needs TicketTakeover and TicketUpdateAny; `Relocate {ids, location}` needs TicketUpdate for one's own " +
      "tickets and TicketUpdateAny for others'.",
    request: {
      query: z.object({
        action: z.enum(TICKET_ACTIONS).openapi({ param: { description: 'The batch action (any letter case); unknown or missing: 400.' } }),
      }),
      headers: idempotencyHeader(),
      body: { required: true, content: json(z.union(actionBodies)) },
    },
    responses: {
      200: { description: 'The affected tickets as stored.', content: json(z.array(ticket)) },
      ...problemResponses(
        [
          ...bodyErrors('An unknown action, an invalid body, an id twice, an unknown ticket id or user name.'),
          ERR.unauthenticated(),
          ERR.missingRight('A missing right (`detail` names it), or a caller outside the Sale environment.'),
          notClosed,
          ERR.keyReused(),
          ERR.locked(),
        ],
        problem,
      ),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/tickets/{id}/close',
    operationId: 'tickets.close',
    tags,
    summary: 'Pay and fiscalize a ticket',
    description:
      'Requires TicketClose, from the Sale environment. The fiscal device is `fiscalName`, else the calling device\'s setting ' +
      '`DefaultFiscalName`. The payments must cover the total; an overpayment is change, allowed only on a changeable payment type ' +
      'and never more than was paid in changeable types (a card is never overpaid). ' +
      'Exactly once: a retry after a timeout or a lost reply answers the closed ticket and issues no second receipt. When the ' +
      'device cannot yet tell whether a receipt went out (503), the ticket takes no edits (423) until a retried close settles it; ' +
      'if the receipt was issued, the ticket closes with the payments and device of that receipt, whatever the retry says. ' +
      '`receipt.email` (empty or null: none) queues an e-mail receipt in the same transaction as the close; the hub sends it when ' +
      'it can (GET /api/receipts/emails). A malformed address is a 400 before anything is fiscalized. `receipt.print: false` asks ' +
      'the fiscal device to skip the paper copy; only a device that may issue a fiscal receipt without printing it does.',
    request: { params, headers: idempotencyHeader(), body: { required: true, content: json(close) } },
    responses: {
      200: { description: 'The closed ticket, with closeDate and closeInfo.', content: json(ticket) },
      ...problemResponses(
        [
          ...bodyErrors(
            'An invalid body; payments short of the total, change on a non-changeable type, an unknown or inactive payment type; ' +
              'no or an unknown fiscal device; a ticket without items.',
          ),
          ERR.unauthenticated(),
          ERR.missingRight('A missing right (`detail` names it), or a caller outside the Sale environment.'),
          ERR.stateForbids('The fiscal device is inactive or does not support the action.'),
          ERR.notFound('No ticket has this id.'),
          ERR.keyReused(),
          ERR.locked(),
          ERR.deviceUnavailable(),
        ],
        problem,
      ),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/tickets/{id}/print_preliminary_ticket',
    operationId: 'tickets.printPreliminary',
    tags,
    summary: 'Print the bill before payment',
    description:
      'Requires TicketPrintPreliminary, from the Sale environment; an open or a closed ticket. The order endpoint is ' +
      "`orderEndpointName`, else the calling device's setting `DefaultOrderEndpointName`. The body is optional.",
    request: { params, headers: idempotencyHeader(), body: { required: false, content: json(preliminary) } },
    responses: {
      204: { description: 'The print job is durably queued.' },
      ...problemResponses(
        [
          ...bodyErrors('An invalid body; no or an unknown order endpoint.'),
          ERR.unauthenticated(),
          ERR.missingRight('A missing right (`detail` names it), or a caller outside the Sale environment.'),
          ERR.stateForbids('The order endpoint is inactive or cannot print (a kitchen display).'),
          ERR.notFound('No ticket has this id.'),
          ERR.keyReused(),
        ],
        problem,
      ),
    },
  });
}

/** X and Z reports of a fiscal device (hub/resources/fiscaldevices/routes.ts). */
function registerFiscalReportRoutes(registry: OpenAPIRegistry, problem: z.ZodObject): void {
  const report = registry.register(
    'FiscalReport',
    z.object({
      fiscalName: z.string(),
      kind: z.enum(['X', 'Z']),
      number: z.number().int().openapi({ description: 'Z: the number of the report just printed; X: the number of the open fiscal day.' }),
      date: z.string(),
      total: z.string().openapi({ description: "The day's sales total, a decimal string." }),
      receipts: z.number().int().openapi({ description: 'Fiscal receipts of the day.' }),
    }),
  );
  registry.registerPath({
    method: 'post',
    path: '/api/fiscaldevices/{name}/reports/{kind}',
    operationId: 'fiscaldevices.report',
    tags: ['FiscalDevice'],
    summary: 'Print an X or a Z report',
    description:
      'Requires FiscalReport. `kind` is `x` (the day so far; the day stays open) or `z` (closes the fiscal day: the receipts after it ' +
      'carry the next dailySalesReportNumber). Receipts left unsettled on the device are settled first. No body.',
    request: {
      params: z.object({ name: z.string().openapi({ param: { description: 'The fiscal device.' } }), kind: z.enum(['x', 'z', 'X', 'Z']) }),
      headers: idempotencyHeader(),
    },
    responses: {
      200: { description: 'The report the device printed.', content: { [JSON_TYPE]: { schema: report } } },
      ...problemResponses(
        [
          ERR.unauthenticated(),
          ERR.missingRight(),
          ERR.stateForbids('The fiscal device is inactive or does not print reports.'),
          ERR.notFound('No fiscal device has this name, or `kind` is neither x nor z.'),
          ERR.keyReused(),
          ERR.deviceUnavailable(),
        ],
        problem,
      ),
    },
  });
}

/** Sales reports and a fiscal day's figures (hub/reports/routes.ts). */
function registerReportRoutes(registry: OpenAPIRegistry, problem: z.ZodObject): void {
  const tags = ['Report'];
  const report = registry.register('SalesReport', z.object(salesReportSchema.shape));
  const day = registry.register('FiscalDay', z.object(fiscalDaySchema.shape));
  registry.registerPath({
    method: 'get',
    path: '/api/reports/sales',
    operationId: 'reports.sales',
    tags,
    summary: 'Sales by product, category, waiter, register, VAT rate, payment type, hour, day or month',
    description:
      'Requires ReportRead. Local days in the shop\'s time zone (POS_HUB_TIMEZONE), `from` and `to` included; a ticket counts on the day ' +
      'it closed. Answered from running totals kept as tickets close (a year takes milliseconds), so the figures are those of closed ' +
      'tickets: returns (Negative items), discounts (item and ticket discounts, shared out over the items to the cent), voids (items ' +
      'cancelled by a storno and the items of deleted tickets, counted when and by whom they were voided) and totals. Amounts are exact ' +
      'decimals (2 places; quantities up to 4). `Accept: text/csv` or `format=csv` answers CSV: UTF-8 with a byte-order mark, in the ' +
      'language of the request (the user\'s `language`, else Accept-Language, else POS_HUB_LOCALE): Slovak and Czech with `;` between ' +
      'fields and a decimal comma (as Excel there opens it), English with `,` and a decimal point; the last line holds the totals.',
    ...xRights('ReportRead'),
    request: {
      query: z.object({
        from: z.string().openapi({ param: { description: 'First day, `YYYY-MM-DD` (local).', example: '2026-01-01' } }),
        to: z.string().openapi({ param: { description: 'Last day, `YYYY-MM-DD` (local), at most 20 years after `from`.', example: '2026-12-31' } }),
        groupBy: z.enum(GROUP_BY).default('product').openapi({ param: { description: 'What a row is (any letter case).' } }),
        format: z.enum(['json', 'csv']).optional().openapi({ param: { description: 'Overrides the Accept header.' } }),
      }),
    },
    responses: {
      200: { description: 'The report.', content: { [JSON_TYPE]: { schema: report }, 'text/csv': { schema: z.string() } } },
      ...problemResponses([ERR.validation('A missing or malformed `from`/`to`, `to` before `from`, an unknown `groupBy` or `format`; `errors[0].memberName` names it.'), ERR.unauthenticated(), ERR.missingRight('Without ReportRead.')], problem),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/reports/fiscalday',
    operationId: 'reports.fiscalDay',
    tags,
    summary: "A fiscal day's X/Z figures: totals per payment type and VAT rate, and the cash the drawer gained",
    description:
      'Requires ReportRead. What the hub recorded of the receipts a fiscal device issued in one fiscal day (dailySalesReportNumber): ' +
      'the figures an X report prints, or a Z once the day is closed, without printing anything. `number` defaults to the device\'s ' +
      'open day as the hub last saw it (else its latest day with sales). Count the drawer against `cashSales` with POST /api/cashcounts.',
    ...xRights('ReportRead'),
    request: {
      query: z.object({
        fiscalName: z.string().openapi({ param: { description: 'The fiscal device.', example: 'FP1' } }),
        number: z.number().int().min(1).optional().openapi({ param: { description: 'The fiscal day (dailySalesReportNumber).' } }),
      }),
    },
    responses: {
      200: { description: "The day's figures.", content: { [JSON_TYPE]: { schema: day } } },
      ...problemResponses([ERR.validation('No or an unknown `fiscalName`, a malformed `number`, or no day known yet.'), ERR.unauthenticated(), ERR.missingRight('Without ReportRead.')], problem),
    },
  });
}

/** E-mail receipts beyond the engine's list (hub/resources/receipts/routes.ts). */
function registerReceiptRoutes(registry: OpenAPIRegistry, problem: z.ZodObject, email: z.ZodObject): void {
  const tags = [receiptEmails.title];
  const json = (schema: z.ZodType) => ({ [JSON_TYPE]: { schema } });
  const settingsAnswer = registry.register('ReceiptSettings', z.object(settingsAnswerSchema.shape));
  const settingsInput = registry.register(
    'ReceiptSettingsInput',
    z.object({ ...settingsSchema.shape, _v: z.number().int().min(0).optional() }).openapi({
      description:
        'PUT replaces the whole. `shopName` null: POS_HUB_SHOP_NAME. `smtp` null: the server of POS_HUB_SMTP_URL; else this server ' +
        'as a whole (port null: 465 for Implicit TLS, else 587). `smtp.password` is write-only: left out, the stored one is kept (for the same host and user only); null clears it.',
    }),
  );
  registry.registerPath({
    method: 'post',
    path: '/api/receipts/emails/{id}/resend',
    operationId: 'receiptEmails.resend',
    tags,
    summary: 'Send an e-mail receipt again',
    description:
      'Requires TicketClose (from any device: the manager\'s web page too). A Sent or Failed e-mail is queued again as a new ' +
      'delivery (attempts from 0, a new Message-ID, a fresh give-up time); a Queued one is tried now instead of after its backoff; ' +
      'one being sent right now is left as it is. No body.',
    request: { params: z.object({ id: receiptEmails.key.schema.meta({ param: { description: "The ReceiptEmail's key `id`." } }) }), headers: idempotencyHeader() },
    responses: {
      200: { description: 'The e-mail as queued.', content: json(email) },
      ...problemResponses(
        [...bodyErrors('A malformed `Idempotency-Key`, or an unreadable body.'), ERR.unauthenticated(), ERR.missingRight(), ERR.notFound('No e-mail receipt has this id.'), ERR.keyReused()],
        problem,
      ),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/receipts/settings',
    operationId: 'receiptSettings.get',
    tags,
    summary: 'The e-mail receipt settings: SMTP server and shop header',
    description:
      'Requires SettingsRead. The password is never answered (`passwordSet` says whether there is one). `effective` is what ' +
      'the hub uses: the stored settings, else the environment (POS_HUB_SMTP_URL, POS_HUB_SMTP_FROM, POS_HUB_SHOP_NAME). ' +
      '`_v` is 0 until the settings are first stored.',
    ...xRights('SettingsRead'),
    responses: {
      200: { description: 'The settings.', headers: ETAG, content: json(settingsAnswer) },
      ...problemResponses([ERR.unauthenticated(), ERR.missingRight('Without SettingsRead.')], problem),
    },
  });
  registry.registerPath({
    method: 'put',
    path: '/api/receipts/settings',
    operationId: 'receiptSettings.put',
    tags,
    summary: 'Replace the e-mail receipt settings',
    description:
      'Requires ReceiptSettingsUpdate. Always 200 (the settings always exist, with defaults). Changes apply to e-mails of later closes ' +
      '(an e-mail is rendered when its ticket closes); a new server is used at once, also for e-mails already waiting.',
    request: {
      headers: z.object({ 'If-Match': z.string().optional().openapi({ param: { description: 'The expected `_v` (`"3"`); another: 409.' } }) }),
      body: { required: true, content: json(settingsInput) },
    },
    responses: {
      200: { description: 'The stored settings.', headers: ETAG, content: json(settingsAnswer) },
      ...problemResponses([...bodyErrors('An invalid body or `If-Match`; `errors` lists every member at fault.'), ERR.unauthenticated(), ERR.missingRight(), ERR.versionMismatch()], problem),
    },
  });
}

function registerAuth(registry: OpenAPIRegistry, problem: z.ZodObject, device: z.ZodObject): z.ZodObject {
  const tags = ['Auth'];
  // Fresh objects over the same fields: the shared schemas were built before zod learned `.openapi`.
  const login = registry.register('LoginRequest', z.object(loginSchema.shape));
  const refresh = registry.register('RefreshRequest', z.object(refreshSchema.shape));
  const session = registry.register(
    'Session',
    z.object({
      expiresAt: z.string().openapi({ format: 'date-time', description: 'When the access token stops working.' }),
      user: z.object({
        id: z.string(),
        userName: z.string(),
        name: z.string(),
        rights: z.array(z.enum(RIGHTS)),
        device,
      }),
    }),
  );
  const tokens = registry.register(
    'SessionTokens',
    z.object({
      tokenId: z.string().openapi({ description: 'The access token: send `Authorization: Bearer <tokenId>`.' }),
      refreshToken: z.string().openapi({ description: 'Single use, for POST /api/auth/refresh.' }),
      ...session.shape,
    }),
  );
  const json = (schema: z.ZodType) => ({ [JSON_TYPE]: { schema } });

  registry.registerPath({
    method: 'post',
    path: '/api/auth',
    operationId: 'auth.login',
    tags,
    security: [],
    summary: 'Log in',
    description:
      `No token and no right. A login on a sale device (${ENV_NAMES.filter((e) => e === 'CashRegister' || e === 'PDA').join(', ')}) ends the earlier ` +
      'session on that device. 10 failed logins for one user name within 15 minutes, or 50 from one address, answer 429 until the window has passed.',
    request: { body: { required: true, content: json(login) } },
    responses: {
      200: { description: 'A new session.', content: json(tokens) },
      ...problemResponses(
        [
          ...bodyErrors('A body without userName, password or deviceName.'),
          ERR.unauthenticated('Unknown user or device, wrong password, or an inactive user or device.'),
          ERR.tooMany(),
        ],
        problem,
      ),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/auth',
    operationId: 'auth.session',
    tags,
    summary: 'The current session',
    description: 'Needs a valid token; no right.',
    responses: {
      200: { description: 'The session behind the token.', content: json(session) },
      ...problemResponses([ERR.unauthenticated()], problem),
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/api/auth',
    operationId: 'auth.logout',
    tags,
    summary: 'Log out',
    description: 'Needs a valid token; no right. The token stops working at once.',
    responses: {
      204: { description: 'Logged out.' },
      ...problemResponses([...bodyErrors('An unreadable body.'), ERR.unauthenticated()], problem),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/auth/refresh',
    operationId: 'auth.refresh',
    tags,
    security: [],
    summary: 'Exchange a refresh token for a new token pair',
    description: 'No token and no right. The old pair stops working.',
    request: { body: { required: true, content: json(refresh) } },
    responses: {
      200: { description: 'A new token pair for the same session.', content: json(tokens) },
      ...problemResponses(
        [...bodyErrors('A body without tokenId or refreshToken.'), ERR.unauthenticated('The refresh token is unknown, expired, already used, or not the pair of tokenId.')],
        problem,
      ),
    },
  });
  return tokens;
}

/** Kitchen display pairing (hub/kds): a code from the manager, traded by the tablet for a session. */
function registerKds(registry: OpenAPIRegistry, problem: z.ZodObject, tokens: z.ZodObject): void {
  const tags = ['Kitchen display'];
  const json = (schema: z.ZodType) => ({ [JSON_TYPE]: { schema } });
  const pairing = registry.register(
    'KdsPairing',
    z.object({
      id: z.string(),
      orderEndpointName: z.string(),
      createdAt: z.string().openapi({ format: 'date-time' }),
      createdBy: z.string().openapi({ description: 'The user name of the manager who asked for the code.' }),
      expiresAt: z.string().openapi({ format: 'date-time', description: `${PAIRING_TTL_MS / 60_000} minutes after createdAt.` }),
    }),
  );
  const id = z.object({ id: z.string() });
  registry.registerPath({
    method: 'post',
    path: '/api/kds/pairings',
    operationId: 'kds.pairings.create',
    tags,
    summary: 'A pairing code for a kitchen display',
    description:
      `Requires OrderEndpointUpdate. The code is 6 digits, shown once (the hub keeps only a keyed hash in memory), valid for ` +
      `${PAIRING_TTL_MS / 60_000} minutes and for one POST /api/kds/pair; a restart of the hub forgets it. Only an active Tablet endpoint is paired.`,
    request: { headers: idempotencyHeader(), body: { required: true, content: json(pairingRequestSchema) } },
    responses: {
      201: {
        description: 'The code, with `Location` naming the pairing.',
        content: json(pairing.extend({ code: z.string().openapi({ description: 'Six digits, for the tablet.', example: '042917' }) })),
      },
      ...problemResponses(
        [
          ...bodyErrors('A body without orderEndpointName, or an order endpoint that does not exist.'),
          ERR.unauthenticated(),
          ERR.missingRight('Without OrderEndpointUpdate.'),
          ERR.stateForbids('The order endpoint is a printer, not a Tablet, or is inactive.'),
          ERR.keyReused(),
        ],
        problem,
      ),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/kds/pairings',
    operationId: 'kds.pairings.list',
    tags,
    summary: 'Codes not yet used nor expired (without the codes)',
    description: 'Requires OrderEndpointUpdate. Soonest to expire first.',
    ...xRights('OrderEndpointUpdate'),
    responses: {
      200: { description: 'The outstanding pairings.', content: json(z.object({ items: z.array(pairing), count: z.number().int(), totalCount: z.number().int() })) },
      ...problemResponses([ERR.unauthenticated(), ERR.missingRight('Without OrderEndpointUpdate.')], problem),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/kds/pairings/{id}',
    operationId: 'kds.pairings.get',
    tags,
    summary: 'One outstanding pairing',
    description: 'Requires OrderEndpointUpdate.',
    ...xRights('OrderEndpointUpdate'),
    request: { params: id },
    responses: {
      200: { description: 'The pairing.', content: json(pairing) },
      ...problemResponses([ERR.unauthenticated(), ERR.missingRight('Without OrderEndpointUpdate.'), ERR.notFound('No outstanding pairing has this id (used, expired or withdrawn).')], problem),
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/api/kds/pairings/{id}',
    operationId: 'kds.pairings.delete',
    tags,
    summary: 'Withdraw a code before it is used',
    description: 'Requires OrderEndpointUpdate.',
    request: { params: id },
    responses: {
      200: { description: 'The withdrawn pairing.', content: json(pairing) },
      ...problemResponses([ERR.unauthenticated(), ERR.missingRight('Without OrderEndpointUpdate.'), ERR.notFound('No outstanding pairing has this id.')], problem),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/kds/pair',
    operationId: 'kds.pair',
    tags,
    security: [],
    summary: 'Trade a pairing code for a session (the tablet)',
    description:
      'No token: the code is the credential. Answers an ordinary session (refresh it with POST /api/auth/refresh) of user ' +
      '`kds-<endpoint>` (right OrderProcess only, a random password nobody is shown) on the Tool device `KDS <endpoint>`; ' +
      'both are made when missing and reused when present. The code is spent. 10 wrong codes within 15 minutes, or 50 from ' +
      'one address, answer 429 until the window has passed, whatever code comes next.',
    request: { body: { required: true, content: json(pairSchema) } },
    responses: {
      200: {
        description: 'A new session, and the order endpoint the code was made for.',
        content: json(tokens.extend({ orderEndpointName: z.string() })),
      },
      ...problemResponses(
        [
          ...bodyErrors('A code that is not 6 digits.'),
          ERR.unauthenticated('The code is wrong, expired, withdrawn or already used.'),
          ERR.stateForbids(
            'The endpoint is no longer an active Tablet, or device `KDS <endpoint>` or user `kds-<endpoint>` exists but is inactive, ' +
              'not a Tool device, or holds more rights than OrderProcess. The code is not spent.',
          ),
          { ...ERR.tooMany(), why: 'Too many wrong pairing codes within 15 minutes.' },
        ],
        problem,
      ),
    },
  });
}

const changeSchema = z.object({
  seq: z.number().int(),
  resource: z.string().openapi({ description: 'The path name of the resource: `tickets`, `plus`, `orders`, ...' }),
  key: z.string(),
  op: z.enum(['upsert', 'delete']),
  _v: z.number().int(),
  at: z.string(),
});

function registerEvents(registry: OpenAPIRegistry, problem: z.ZodObject): void {
  const tags = ['Events'];
  const change = registry.register('Change', changeSchema);
  const gone: ErrorSpec = { status: 410, codes: [ErrorCode.Gone], why: 'The position is older than the change log keeps (at least 30 days): reload, then follow from `lastSeq`.' };
  registry.registerPath({
    method: 'get',
    path: '/api/changes',
    operationId: 'events.changes',
    tags,
    summary: 'The change log, for polling clients',
    description: 'Every stored change of every resource, in order. Ask again with `since=lastSeq`.',
    request: {
      query: z.object({
        since: z.number().int().min(0).optional().openapi({ description: 'The last `seq` already seen (0: from the start).' }),
        $take: z.number().int().min(0).max(1000).optional().openapi({ description: 'At most this many changes (default 100).' }),
      }),
    },
    responses: {
      200: {
        description: '`lastSeq` is the highest `seq` in the answer, or `since` when it is empty.',
        content: { [JSON_TYPE]: { schema: z.object({ items: z.array(change), count: z.number().int(), lastSeq: z.number().int() }) } },
      },
      ...problemResponses([ERR.validation('A position that is not a whole number; `$take` out of range.'), ERR.unauthenticated(), gone], problem),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/events',
    operationId: 'events.stream',
    tags,
    summary: 'The change log as Server-Sent Events',
    description:
      'One event per stored change: `id:` the `seq`, `event:` the resource path name, `data:` the change as JSON. ' +
      'Resumes after `Last-Event-ID` (or `?since=`) with nothing missed or repeated; without a position it starts now. ' +
      'A comment line every 15 s keeps idle connections open. Browsers may pass the token as `?access_token=`.',
    request: { headers: z.object({ 'Last-Event-ID': z.string().optional() }) },
    responses: {
      200: { description: 'An endless `text/event-stream`.', content: { 'text/event-stream': { schema: z.string() } } },
      ...problemResponses([ERR.validation('A `Last-Event-ID` that is not a whole number.'), ERR.unauthenticated(), gone], problem),
    },
  });
}

/** Routes beside the engine's CRUD: kitchen order states and copies, printer status, backups. */
function registerOperations(registry: OpenAPIRegistry, problem: z.ZodObject, order: z.ZodObject | undefined): void {
  const anyOrder = order ?? z.record(z.string(), z.unknown());
  registry.registerPath({
    method: 'post',
    path: '/api/orders/{id}/state',
    operationId: 'orders.state',
    tags: ['Order'],
    summary: "Move a kitchen order on: New → InProgress → Ready → Served (or one step back)",
    description: 'Requires OrderProcess; no Sale environment needed (a kitchen display or the pass). Each change is stamped in `stateHistory` and reaches registers through the change log.',
    request: {
      params: z.object({ id: z.string() }),
      body: { content: { [JSON_TYPE]: { schema: z.object({ state: z.enum(['New', 'InProgress', 'Ready', 'Served']), _v: z.number().int().optional() }) } } },
      headers: z.object({ 'If-Match': z.string().optional() }),
    },
    responses: {
      200: { description: 'The order with its new state.', content: { [JSON_TYPE]: { schema: anyOrder } } },
      ...problemResponses(
        [
          ERR.validation('An unknown state.'),
          ERR.unauthenticated(),
          ERR.missingRight('Without OrderProcess.'),
          ERR.stateForbids('Out of Served or Cancelled, to Cancelled, or back more than one step.'),
          ERR.notFound('No such order.'),
          ERR.versionMismatch(),
        ],
        problem,
      ),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/orders/{id}/reprint',
    operationId: 'orders.reprint',
    tags: ['Order'],
    summary: 'Print a copy of a kitchen order, marked COPY',
    description: 'A token is enough: the copy cannot be cooked as a new order, and the requester is printed on it.',
    request: { params: z.object({ id: z.string() }) },
    responses: {
      202: {
        description: 'The copy is queued.',
        content: { [JSON_TYPE]: { schema: z.object({ jobId: z.string(), orderId: z.string(), orderEndpointName: z.string(), kind: z.string(), state: z.string() }) } },
      },
      ...problemResponses([ERR.unauthenticated(), ERR.stateForbids('The endpoint is a kitchen display, inactive or gone.'), ERR.notFound('No such order.')], problem),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/orderendpoints/{name}/status',
    operationId: 'orderendpoints.status',
    tags: ['OrderEndpoint'],
    summary: "A printer's live status",
    description: 'Online, paper, cover, queue depth, last error and the worker state, as the print queue last saw them.',
    request: { params: z.object({ name: z.string() }) },
    responses: {
      200: { description: 'The status.', content: { [JSON_TYPE]: { schema: z.record(z.string(), z.unknown()) } } },
      ...problemResponses([ERR.unauthenticated(), ERR.notFound('No such order endpoint.')], problem),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/orderendpoints/{name}/test',
    operationId: 'orderendpoints.test',
    tags: ['OrderEndpoint'],
    summary: 'Print a test page on a printer',
    description: 'Requires OrderEndpointUpdate. Queued like any print job; its progress shows in the printer status.',
    request: { params: z.object({ name: z.string() }) },
    responses: {
      202: { description: 'The test page is queued.', content: { [JSON_TYPE]: { schema: z.object({ jobId: z.string(), orderEndpointName: z.string(), kind: z.string(), state: z.string() }) } } },
      ...problemResponses(
        [ERR.unauthenticated(), ERR.missingRight('Without OrderEndpointUpdate.'), ERR.stateForbids('A kitchen display or an inactive endpoint.'), ERR.notFound('No such order endpoint.')],
        problem,
      ),
    },
  });
  const backup = z.object({ file: z.string(), size: z.number().int(), createdAt: z.string() });
  registry.registerPath({
    method: 'get',
    path: '/api/backups',
    operationId: 'backups.list',
    tags: ['System'],
    summary: 'The backups kept in <data>/backups, newest first',
    description: 'Requires SettingsRead.',
    ...xRights('SettingsRead'),
    responses: {
      200: { description: 'The backups.', content: { [JSON_TYPE]: { schema: z.object({ items: z.array(backup), count: z.number().int(), totalCount: z.number().int() }) } } },
      ...problemResponses([ERR.unauthenticated(), ERR.missingRight('Without SettingsRead.')], problem),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/backups',
    operationId: 'backups.create',
    tags: ['System'],
    summary: 'Write an online backup now',
    ...xRights('Backup'),
    description: "Requires Backup. SQLite's backup API, consistent while the hub keeps working; the oldest beyond POS_HUB_BACKUP_KEEP are removed. Restore with `npm run restore -- <file>` into a stopped hub.",
    responses: {
      201: { description: 'The backup written.', content: { [JSON_TYPE]: { schema: backup } } },
      ...problemResponses([ERR.unauthenticated(), ERR.missingRight('Without Backup.')], problem),
    },
  });
}

function registerSystem(registry: OpenAPIRegistry): void {
  const tags = ['System'];
  const health = registry.register('Health', healthSchema);
  registry.registerPath({
    method: 'get',
    path: '/api/health',
    operationId: 'system.health',
    tags,
    security: [],
    summary: 'Health of the hub, its database and devices',
    description:
      'No token needed: what a register or an installer checks first, `{status, version, uptimeS, db}` and nothing about the shop. ' +
      'With a token, also `printers`; with a token holding SettingsRead, also `fiscalDevices`, `changeLog` and `emailOutbox`.',
    responses: {
      200: { description: 'The hub and its database work.', content: { [JSON_TYPE]: { schema: health } } },
      503: { description: 'The database does not answer (`status: degraded`).', content: { [JSON_TYPE]: { schema: health } } },
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/openapi.json',
    operationId: 'system.openapi',
    tags,
    security: [],
    summary: 'This document',
    description: 'No token. OpenAPI 3.1, generated from the schemas the hub validates with.',
    responses: { 200: { description: 'The OpenAPI document.', content: { [JSON_TYPE]: { schema: z.record(z.string(), z.unknown()) } } } },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/docs/',
    operationId: 'system.docs',
    tags,
    security: [],
    summary: 'This document as a readable page',
    description: 'No token, no network beyond the hub: the page and its scripts are served by the hub. `/api/docs` redirects here.',
    responses: { 200: { description: 'An HTML page.', content: { 'text/html': { schema: z.string() } } } },
  });
}

const OVERVIEW = `The back-office API of the POS Hub: an offline-first point-of-sale hub on the shop's own network.

**Authentication.** \`POST /api/auth {userName, password, deviceName}\` answers a \`tokenId\`; send it as
\`Authorization: Bearer <tokenId>\` (a bare token is accepted too). Every endpoint needs it except
health, login, refresh, a kitchen display's pairing (\`POST /api/kds/pair\`) and this documentation. Reading is a right too:
everyone logged in reads the catalog (plus, modifiers, stocks, payment types, devices, order endpoints), open tickets and their
own sales; customers, every sale, users, settings and stock documents need CustomerRead, TicketReadAll, UserRead, SettingsRead
and StockRead. Each operation names the rights it needs in its description and in \`x-rights\`.

**Bodies.** JSON in UTF-8; over 1 MiB: 413; not \`application/json\`: 415; malformed: 400. PUT replaces the
whole resource. \`_v\` is the version: 1 on create, +1 on every stored change; a body's \`_v\` (or \`If-Match\`)
that is not the stored one: 409. Every POST and PATCH behind a token takes an \`Idempotency-Key\` header that
makes a retry safe. Names of query parameters, filters, sort keys, enum values and rights match in any letter case.

**Lists** answer \`{items, count, totalCount}\` and take \`$skip\`, \`$take\` (0..${MAX_TAKE}, default ${DEFAULT_TAKE}),
\`$sort\`, \`$count\` and NData filters \`Member=OP:ARG;OP:ARG\` (each list operation describes its filters).

**Errors** are \`application/problem+json\` (RFC 9457, \`ProblemDetails\`) with an \`errorCode\`:
1 Unauthenticated (401), 2 Unauthorized (403, a missing right), 3 ValidationFailed (400, 413, 415),
5 ResourceLocked (423), 6 ResourceVersionMismatch (409), 7 NotFound (404), 8 OperationForbidden (403 when the state forbids it;
also 405 for a method a path does not offer, with \`Allow\`), 9 DeviceUnavailable (503, with \`Retry-After\`),
10 TooManyRequests (429, with \`Retry-After\`), 11 IdempotencyKeyReused (409),
0 for an unexpected 500 (never with a stack trace). Each operation lists the statuses and errorCodes it answers.
Every response carries \`X-Request-Id\`, which errors repeat as \`traceId\`.`;

/** The OpenAPI 3.1 document of every endpoint the hub serves for these resources. */
export function buildOpenApi(resources: readonly ResourceDef[] = RESOURCES): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'The `tokenId` from POST /api/auth.',
  });
  const problem = registry.register('ProblemDetails', problemDetailsSchema);

  const required = new Map<string, string[]>();
  const models = new Map<string, z.ZodObject>();
  // Paths whose other methods the hub answers with 405 (a router.all(..., methodNotAllowed) behind them).
  const answers405: string[] = [];
  for (const def of resources) {
    const schemas = registerResource(registry, def, problem);
    required.set(schemas.modelName, schemas.required);
    models.set(def.name, schemas.model);
    answers405.push(`/api/${def.name}`, `/api/${def.name}/{${def.key.field}}`);
  }
  const ticketModel = models.get(tickets.name);
  if (ticketModel) registerTicketRoutes(registry, problem, ticketModel);
  registerFiscalReportRoutes(registry, problem);
  registerReportRoutes(registry, problem);
  answers405.push('/api/reports/sales', '/api/reports/fiscalday');
  const emailModel = models.get(receiptEmails.name);
  if (emailModel) {
    registerReceiptRoutes(registry, problem, emailModel);
    answers405.push('/api/receipts/emails/{id}/resend', '/api/receipts/settings');
  }
  let deviceModel = models.get(devices.name);
  if (!deviceModel) {
    const schemas = resourceSchemas(registry, devices);
    required.set(schemas.modelName, schemas.required);
    deviceModel = schemas.model;
  }
  registerKds(registry, problem, registerAuth(registry, problem, deviceModel));
  registerEvents(registry, problem);
  registerOperations(registry, problem, models.get('orders'));
  registerSystem(registry);
  answers405.push('/api/auth', '/api/auth/refresh', '/api/openapi.json', '/api/docs/');
  answers405.push('/api/kds/pair', '/api/kds/pairings', '/api/kds/pairings/{id}');

  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'POS Hub API', version: VERSION, description: OVERVIEW },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Auth', description: 'Sessions: log in, refresh, log out.' },
      ...resources.map((def) => ({ name: def.title, description: `\`/api/${def.name}\`, keyed by \`${def.key.field}\`.` })),
      { name: 'Report', description: 'Sales reports and fiscal-day figures, from running totals (right ReportRead).' },
      { name: 'Events', description: 'The change log: polling and Server-Sent Events.' },
      { name: 'Kitchen display', description: 'Pairing a kitchen display tablet; the display itself is the page at `/kds/<orderEndpointName>`.' },
      { name: 'System', description: 'Health and this documentation; no token needed.' },
    ],
  });

  // The generator reads zod's input side, where defaulted fields are optional; in answers they are always there.
  const schemas = doc.components?.schemas ?? {};
  for (const [name, fields] of required) {
    const schema = schemas[name];
    if (schema && 'properties' in schema) schema.required = fields;
  }
  // OpenAPI has no place for an operation that does not exist, so the 405 is told on the path item.
  for (const path of answers405) {
    const item = doc.paths?.[path];
    if (item) item.description = `Methods not listed here answer 405 (errorCode ${ErrorCode.OperationForbidden}) with an \`Allow\` header.`;
  }
  return doc;
}

const serialized = new WeakMap<readonly ResourceDef[], string>();

/** Built on first request and kept: the resources cannot change while the hub runs. */
function documentJson(resources: readonly ResourceDef[]): string {
  let json = serialized.get(resources);
  if (json === undefined) {
    json = JSON.stringify(buildOpenApi(resources));
    serialized.set(resources, json);
  }
  return json;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function docsPage(base: string): string {
  const spec = escapeHtml(`${base}/openapi.json`);
  const docs = escapeHtml(`${base}/docs/`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>POS Hub API</title>
<base href="${docs}">
<link rel="stylesheet" href="swagger-ui.css">
<link rel="icon" type="image/png" href="favicon-32x32.png" sizes="32x32">
<link rel="describedby" type="application/openapi+json" href="${spec}">
</head>
<body>
<noscript><p>This page needs JavaScript. The API description itself is at <a href="${spec}">${spec}</a>.</p></noscript>
<div id="swagger-ui" data-spec-url="${spec}"></div>
<script src="swagger-ui-bundle.js" charset="utf-8"></script>
<script src="poshub-init.js" charset="utf-8"></script>
</body>
</html>
`;
}

// A file rather than an inline script, so the page also works under a script-src 'self' policy.
// validatorUrl null: Swagger UI would otherwise ask validator.swagger.io, which a shop offline cannot reach.
const INIT_SCRIPT = `window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-spec-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
});
`;

/** /openapi.json and /docs under the router's mount point (/api), before the auth middleware. */
export function openApiRouter(resources: readonly ResourceDef[] = RESOURCES): Router {
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.type(JSON_TYPE).send(documentJson(resources));
  });
  router.all('/openapi.json', methodNotAllowed(['GET']));

  const page = (req: Request, res: Response) => {
    res.type('html').send(docsPage(req.baseUrl));
  };
  router.get('/docs', (req, res) => {
    // Non-strict routing lets /docs and /docs/ both land here; only the slash form resolves the assets.
    if (!req.path.endsWith('/')) {
      const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      res.redirect(301, `${req.baseUrl}/docs/${query}`);
      return;
    }
    page(req, res);
  });
  router.get('/docs/index.html', page);
  router.get('/docs/poshub-init.js', (_req, res) => {
    res.type('application/javascript').send(INIT_SCRIPT);
  });
  // The package's own index.html and initializer point at petstore.swagger.io; ours replace them.
  router.get('/docs/swagger-initializer.js', (req) => {
    throw errors.routeNotFound(req.originalUrl.split('?')[0]);
  });
  router.use('/docs', express.static(getAbsoluteFSPath(), { index: false, redirect: false, maxAge: '1h' }));
  router.use('/docs', (req) => {
    // Without this, an unknown asset would fall through to the auth middleware and answer 401.
    if (req.method === 'GET' || req.method === 'HEAD') throw errors.routeNotFound(req.originalUrl.split('?')[0]);
    throw errors.methodNotAllowed(req.method, req.originalUrl.split('?')[0], ['GET']);
  });
  return router;
}
