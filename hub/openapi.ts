/**
 * The OpenAPI 3.1 document (served by hub/http/docs.ts at /api/openapi.json).
 *
 * It is generated from what the hub validates and routes with: the resource definitions
 * (RESOURCES) and the route declarations (ROUTES, hub/http/route.ts), so a field, filter, verb or
 * route added shows up here without anyone editing a second copy.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { bodyErrors, ERR, ETAG, idempotencyHeader, JSON_TYPE, LOCATION, problemDetailsSchema, problemResponses, type ErrorSpec } from './http/api-docs.js';
import { ErrorCode } from './http/errors.js';
import type { FilterSpec } from './http/ndata.js';
import { devices } from './resources/devices/resource.js';
import type { ResourceDef } from './resources/engine/define.js';
import { DEFAULT_TAKE, MAX_TAKE } from './resources/engine/list-query.js';
import { RESOURCES } from './resources/index.js';
import { ROUTES } from './routes.js';
import type { BodySchema, RouteSpec } from './http/route.js';
import { VERSION } from './core/version.js';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/**
 * Fields a resource accepts but never answers with. The engine cannot see what a `present` hook
 * strips, and `password` (CONTRACT §5: write-only) is the one such field the contract names.
 */
const WRITE_ONLY_FIELDS = new Set(['password']);

/** One error response: a status and the errorCodes it comes with (CONTRACT §2), and when. */
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
  users: {
    notes: {
      post: 'Nobody grants a right they do not hold.',
      put: 'Nobody grants a right they do not hold, nor changes, deactivates or resets the password of a user holding a right they lack; the last active user holding UserUpdate keeps it and stays active.',
      delete: 'Nobody deletes a user holding a right they lack, nor the last active user holding UserUpdate.',
    },
    errors: {
      post: [ERR.stateForbids('The body grants a right the caller does not hold.')],
      put: [ERR.stateForbids('A right granted that the caller lacks; a change to a user holding a right the caller lacks; the last active holder of UserUpdate losing it.')],
      delete: [ERR.stateForbids('A user holding a right the caller lacks; the last active holder of UserUpdate.')],
    },
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
  const model = registry.register(def.title, z.object({ ...shape, ...(def.answered ?? {}), ...readOnly, _v: version }));
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
        ),
      },
    });
  }
  return schemas;
}

/** The ticket routes beyond the engine's CRUD (hub/resources/tickets/routes.ts). */
/** A schema of a route declaration, resolved: a resource's model, a named component, or as written. */
const namedOnce = new WeakMap<OpenAPIRegistry, Map<string, z.ZodType>>();

/** Registers a named schema once per document: routes sharing a name (a login and a refresh answer SessionTokens) share it. */
function registerOnce(registry: OpenAPIRegistry, name: string, make: () => z.ZodType): z.ZodType {
  let seen = namedOnce.get(registry);
  if (!seen) namedOnce.set(registry, (seen = new Map()));
  let schema = seen.get(name);
  if (!schema) seen.set(name, (schema = registry.register(name, make())));
  return schema;
}

function resolveSchema(registry: OpenAPIRegistry, schema: BodySchema, models: Map<string, z.ZodObject>): z.ZodType {
  if ('model' in schema && typeof schema.model === 'string') {
    const found = models.get(schema.model);
    if (!found) throw new Error(`A route answers the model of '${schema.model}', which is not among the documented resources.`);
    return schema.array ? z.array(found) : found;
  }
  if ('compose' in schema && typeof schema.compose === 'function') {
    const { compose, name } = schema;
    const build = () =>
      compose((model) => {
        const found = models.get(model);
        if (!found) throw new Error(`A route's schema is built on the model of '${model}', which is not among the documented resources.`);
        return found;
      });
    return name ? registerOnce(registry, name, build) : build();
  }
  if ('oneOf' in schema && Array.isArray(schema.oneOf)) return z.union(schema.oneOf.map((n) => registerOnce(registry, n.name, () => n.schema)) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
  if ('name' in schema && typeof schema.name === 'string' && 'schema' in schema) {
    const named = schema.schema as z.ZodType;
    return registerOnce(registry, schema.name, () => named);
  }
  return schema as z.ZodType;
}

/** The resource models a route's body and answers name. */
function modelsOf(spec: RouteSpec<never>): string[] {
  const schemas = [spec.body?.schema, ...Object.values(spec.responses).map((r) => r.schema)];
  return schemas.flatMap((s) => (s && 'model' in s && typeof s.model === 'string' ? [s.model] : s && 'uses' in s && Array.isArray(s.uses) ? s.uses : []));
}

/** One declared route (hub/http/route.ts) as an operation of the document. */
function registerRoute(registry: OpenAPIRegistry, spec: RouteSpec<never>, problem: z.ZodObject, models: Map<string, z.ZodObject>): void {
  const content = (schema: BodySchema, type = JSON_TYPE) => ({ [type]: { schema: resolveSchema(registry, schema, models) } });
  registry.registerPath({
    method: spec.method,
    path: spec.path,
    operationId: spec.operationId,
    tags: spec.tags,
    summary: spec.summary,
    description: spec.description,
    ...(spec.noToken ? { security: [] } : {}),
    ...xRights(...(spec.rights ?? [])),
    request: {
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { query: spec.query } : {}),
      ...(spec.headers ? { headers: spec.headers } : {}),
      ...(spec.body ? { body: { required: spec.body.required, content: content(spec.body.schema) } } : {}),
    },
    responses: {
      ...Object.fromEntries(
        Object.entries(spec.responses).map(([status, r]) => [
          status,
          { description: r.description, ...(r.headers ? { headers: r.headers as Record<string, { description: string }> } : {}), ...(r.schema ? { content: { ...content(r.schema, r.contentType), ...Object.fromEntries(Object.entries(r.also ?? {}).map(([type, schema]) => [type, { schema }])) } } : {}) },
        ]),
      ),
      ...problemResponses(spec.errors, problem),
    },
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
that is not the stored one: 409. Every POST, PATCH, PUT and DELETE behind a token takes an \`Idempotency-Key\` header that
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
    registerRoute(registry, spec, problem, models);
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

