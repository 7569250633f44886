/**
 * A declared route (hub/http/route.ts) as an operation of an OpenAPI document: the hub's
 * (hub/openapi.ts) and HQ's (hub/hq/openapi.ts) are written from their declarations alike.
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ERR, idempotencyHeader, JSON_TYPE, problemResponses, type ProblemContext } from './api-docs.js';
import { ErrorCode } from './errors.js';
import type { BodySchema, RouteSpec } from './route.js';
import type { FilterSpec } from './ndata.js';
import { DEFAULT_TAKE, MAX_SKIP, MAX_TAKE } from './list-params.js';

/** How a document's service treats every operation: `idempotent`, whether this one takes an Idempotency-Key. */
export interface DocumentOptions extends ProblemContext {
  idempotent: boolean;
}

/** `x-rights`: the rights an operation checks, machine-readable beside its description. */
export const xRights = (...rights: Array<string | null | undefined>) => ({ 'x-rights': rights.filter((r): r is string => !!r) });

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
export function modelsOf(spec: RouteSpec<never>): string[] {
  const schemas = [spec.body?.schema, ...Object.values(spec.responses).map((r) => r.schema)];
  return schemas.flatMap((s) => (s && 'model' in s && typeof s.model === 'string' ? [s.model] : s && 'uses' in s && Array.isArray(s.uses) ? s.uses : []));
}

/** One declared route (hub/http/route.ts) as an operation of the document. */
export function registerRoute(registry: OpenAPIRegistry, spec: RouteSpec<never>, problem: z.ZodObject, models: Map<string, z.ZodObject>, opts: DocumentOptions): void {
  const content = (schema: BodySchema, type = JSON_TYPE) => ({ [type]: { schema: resolveSchema(registry, schema, models) } });
  const { idempotent } = opts;
  const headers = idempotent ? (spec.headers ?? z.object({})).extend(idempotencyHeader().shape) : spec.headers;
  const errors = idempotent && !spec.errors.some((e) => e.codes.includes(ErrorCode.IdempotencyKeyReused)) ? [...spec.errors, ERR.keyReused()] : spec.errors;
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
      ...(spec.query ? { query: spec.query } : spec.list ? { query: listQuerySchema(spec.list) } : {}),
      ...(headers ? { headers } : {}),
      ...(spec.body ? { body: { required: spec.body.required, content: content(spec.body.schema) } } : {}),
    },
    responses: {
      ...Object.fromEntries(
        Object.entries(spec.responses).map(([status, r]) => [
          status,
          { description: r.description, ...(r.headers ? { headers: r.headers as Record<string, { description: string }> } : {}), ...(r.schema ? { content: { ...content(r.schema, r.contentType), ...Object.fromEntries(Object.entries(r.also ?? {}).map(([type, schema]) => [type, { schema }])) } } : {}) },
        ]),
      ),
      ...problemResponses(errors, problem, { method: spec.method, path: spec.path, noToken: spec.noToken }, opts),
    },
  });
}

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
    `${spec.type === 'stringList' ? '`in` (a plain `null`: `eq`)' : '`eq`'}. Operators: ${spec.ops ? spec.ops.map((o) => `\`${o}\``).join(', ') : OPERATORS_BY_TYPE[spec.type]}.${textOps} ` +
    '`in`/`nin` take comma-separated values (a value holding a comma is written in double quotes, CSV style); ' +
    '`null` with `eq`/`ne` matches a missing value. A bad value or operator: 400 naming this filter.'
  );
}

/**
 * A list's query as the document shows it (CONTRACT §4): paging, `$sort` with the keys it takes,
 * `$count`, and each NData filter with its type, operators and an example.
 */
export interface ListDoc {
  /** How ties break and what order a list without `$sort` has: `` `id` ascending ``. */
  tieBreak: string;
  /** Without `$sort`, when that is not `tieBreak`. */
  defaultOrder?: string;
  /** A `$sort` example. */
  example: string;
  sortKeys: string[];
  filters: Record<string, FilterSpec>;
}

export function listQuerySchema(list: ListDoc): z.ZodObject {
  const shape: Record<string, z.ZodType> = {
    $skip: z
      .number()
      .int()
      .min(0)
      .max(MAX_SKIP)
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
          `(\`a.b\`); repeatable. Ties break on ${list.tieBreak}, so paging is stable; without \`$sort\` the order is ` +
          `${list.defaultOrder ?? list.tieBreak}. Unknown key: 400. Keys: ${list.sortKeys.map((k) => `\`${k}\``).join(', ')}.`,
        example: list.example,
      },
    }),
    $count: z.boolean().default(false).openapi({
      param: { description: '`true`: the answer has no `items`; `count` is what the page would hold and `totalCount` every match.' },
    }),
  };
  for (const [name, spec] of Object.entries(list.filters)) {
    shape[name] = z
      .string()
      .optional()
      .openapi({ param: { description: filterDescription(name, spec), example: filterExample(spec) } });
  }
  return z.object(shape);
}
