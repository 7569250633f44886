/**
 * The OpenAPI 3.1 document (served by hub/http/docs.ts at /api/openapi.json).
 *
 * It is generated from what the hub validates and routes with: the resource definitions
 * (RESOURCES) and the route declarations (ROUTES, hub/http/route.ts), so a field, filter, verb or
 * route added shows up here without anyone editing a second copy.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { bodyErrors, ERR, ETAG, idempotencyHeader, JSON_TYPE, LOCATION, problemDetailsSchema, problemResponses } from './http/api-docs.js';
import { ErrorCode } from './http/errors.js';
import { IF_MATCH_PATTERN } from './http/handler.js';
import type { FilterSpec } from './http/ndata.js';
import { devices } from './resources/devices/resource.js';
import type { ResourceDef, WriteVerb } from './engine/define.js';
import { DEFAULT_TAKE, MAX_TAKE, sortableFields, sortsBySecret, VERSION_FIELD, WRITE_ONLY_FIELDS } from './engine/list-query.js';
import { RESOURCES } from './resources.js';
import { ROUTES } from './routes.js';
import type { RouteSpec } from './http/route.js';
import { listQuerySchema, modelsOf, registerRoute, xRights } from './http/route-docs.js';
import { VERSION } from './core/version.js';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** The keys `$sort` accepts by name (list-query.ts `sortables`); it matches them in any letter case, hence one per spelling. */
function sortKeys(def: ResourceDef): string[] {
  const keys = [def.key.field, VERSION_FIELD, ...sortableFields(def), ...Object.keys(def.filters), ...Object.keys(def.sorts ?? {})];
  const byLower = new Map<string, string>();
  for (const k of keys) if (!WRITE_ONLY_FIELDS.has(k) && !sortsBySecret(def, [k]) && !byLower.has(k.toLowerCase())) byLower.set(k.toLowerCase(), k);
  return [...byLower.values()];
}

function listQuery(def: ResourceDef): z.ZodObject {
  const filters = Object.fromEntries(
    Object.entries(def.filters).map(([name, filter]) => [name, { type: filter.type, enumValues: 'enumValues' in filter ? filter.enumValues : undefined, ops: 'ops' in filter ? filter.ops : undefined } satisfies FilterSpec]),
  );
  return listQuerySchema({ tieBreak: `\`${def.key.field}\` ascending`, example: `-${def.key.field}`, sortKeys: sortKeys(def), filters });
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
  const model = registry.register(def.title, z.object({ ...shape, ...(def.answered ?? {}), ...readOnly, _v: version }));
  const required = [
    ...Object.entries(shape)
      .filter(([field, s]) => alwaysAnswered(def, field, s as z.ZodType))
      .map(([field]) => field),
    ...Object.keys(def.readOnly),
    '_v',
  ];
  const serverOwned = [...Object.keys(def.readOnly), ...Object.keys(def.hidden ?? {})];
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
  const lookup = def.read?.lookup ? registry.register(`${def.title}Lookup`, def.read.lookup.schema) : undefined;
  const list = registry.register(
    `${def.title}QueryResult`,
    z.object({
      items: z
        .array(lookup ? z.union([model, lookup]) : model)
        .optional()
        .openapi({ description: lookup ? `Left out when \`$count=true\`. A lookup without ${def.read?.right} answers ${def.title}Lookup items.` : 'Left out when `$count=true`.' }),
      count: z.number().int().openapi({ description: 'Items in this page (with `$count=true`: what the page would hold).' }),
      totalCount: z.number().int().openapi({ description: 'All matches.' }),
    }),
  );
  return { model, input, list, modelName: def.title, required };
}


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
    return `Requires ${right}. Without it, a list with exactly one \`eq\` filter on ${lookup.filters.join(' or ')} (a non-empty value; \`$sort\` only by the members it answers) finds that record, answered with only what a register needs of it.`;
  }
  if (scope) return `Requires ${right} to read every record; without it, the caller reads ${scope.reads}${what === 'get' ? ' (another: 403)' : ' (the list holds only those)'}.`;
  return `Requires ${right}.`;
}


function registerResource(registry: OpenAPIRegistry, def: ResourceDef, problem: z.ZodObject): ResourceSchemas {
  const schemas = resourceSchemas(registry, def);
  const { model, input, list } = schemas;
  const offers = (verb: WriteVerb) => !def.without?.includes(verb);
  // What the hooks add, in words and errors, as each resource declares it beside them.
  const rules = def.rules ?? {};
  const note = (verb: WriteVerb) => (rules.notes?.[verb] ? ` ${rules.notes[verb]}` : '');
  const hookErrors = (verb: WriteVerb) => rules.errors?.[verb] ?? [];
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
      .openapi({ pattern: IF_MATCH_PATTERN, param: { description: 'The expected version (`"3"`, as the ETag), or `*` for any stored version; a different stored version, or none stored (a PUT would create): 409.', example: '"3"' } }),
  });
  const body = { required: true, content: { [JSON_TYPE]: { schema: input } } };
  // The example a "Try it out" sends: a body that works on a shop set up from the other examples.
  const postBody = def.example ? { required: true, content: { [JSON_TYPE]: { schema: input, example: def.example } } } : body;
  const json = (schema: z.ZodType) => ({ [JSON_TYPE]: { schema } });
  // Every key is checked for broken text (malformed percent-encoding, a lone surrogate, NUL) before anything else.
  const badKey = [ERR.validation(`\`${def.key.field}\` in the path is ${keyIsInt ? 'not a positive integer, or ' : ''}not valid text (malformed percent-encoding, a lone surrogate or NUL).`)];
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
        { method: 'get', path: base },
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
      request: { headers: idempotencyHeader(), body: postBody },
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
          { method: 'post', path: base },
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
        { method: 'get', path: one },
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
      request: { params, headers: ifMatch.extend(idempotencyHeader().shape), body },
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
            ERR.keyReused(),
            ...hookErrors('put'),
          ],
          problem,
          { method: 'put', path: one },
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
      request: { params, headers: ifMatch.extend(idempotencyHeader().shape) },
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
            ERR.keyReused(),
            ...hookErrors('delete'),
          ],
          problem,
          { method: 'delete', path: one },
        ),
      },
    });
  }
  return schemas;
}

/**
 * Whether hub/http/idempotency.ts serves a route: every write behind the session middleware. The
 * routes without a token, and those under /api/auth (mounted before it: they read the token themselves), are not.
 */
const takesIdempotencyKey = (spec: RouteSpec<never>) => spec.method !== 'get' && !spec.noToken && !spec.path.startsWith('/api/auth');

const OVERVIEW = `The back-office API of the POS Hub: an offline-first point-of-sale hub on the shop's own network.

**Authentication.** \`POST /api/auth {userName, password, deviceName}\` answers a \`tokenId\`; send it as
\`Authorization: Bearer <tokenId>\` (a bare token is accepted too). Every endpoint needs it except
health, login, refresh, a kitchen display's pairing (\`POST /api/kds/pair\`), a register's pairing and user list
(\`POST /api/registers/pair\`, \`GET /api/registers/users\` with its \`X-Register-Key\`) and this documentation. Reading is a right too:
everyone logged in reads the catalog (plus, modifiers, stocks, payment types, devices, order endpoints), open tickets and their
own sales; customers, every sale, users, settings and stock documents need CustomerRead, TicketReadAll, UserRead, SettingsRead
and StockRead. Each operation names the rights it needs in its description and in \`x-rights\`.

**Bodies.** JSON in UTF-8; over 1 MiB: 413; not \`application/json\`: 415; malformed: 400. PUT replaces the
whole resource. \`_v\` is the version: 1 on create, +1 on every stored change; a body's \`_v\` (or \`If-Match\`)
that is not the stored one: 409. Every POST, PUT, PATCH and DELETE behind a token takes an \`Idempotency-Key\` header
that makes a retry safe (a register replaying its offline changes). Names of query parameters, filters, sort keys, enum values
and rights match in any letter case.

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
export function buildOpenApi(resources: readonly ResourceDef[] = RESOURCES, routeSpecs: ReadonlyArray<RouteSpec<never>> = ROUTES): OpenApiDocument {
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
  for (const spec of routeSpecs) {
    // A route answering a resource's model is documented with that resource (a document of a few resources leaves it out).
    if (!modelsOf(spec).every((m) => models.has(m))) continue;
    registerRoute(registry, spec, problem, models, { idempotent: takesIdempotencyKey(spec) });
    if (!spec.sharedPath) answers405.push(spec.path);
  }
  // A session answers its device: the device model is documented even in a document of other resources.
  if (!models.has(devices.name)) {
    const schemas = resourceSchemas(registry, devices);
    required.set(schemas.modelName, schemas.required);
    models.set(devices.name, schemas.model);
  }

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
export function documentJson(resources: readonly ResourceDef[] = RESOURCES): string {
  let json = serialized.get(resources);
  if (json === undefined) {
    json = JSON.stringify(buildOpenApi(resources));
    serialized.set(resources, json);
  }
  return json;
}

