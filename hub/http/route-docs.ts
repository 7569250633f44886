/**
 * A declared route (hub/http/route.ts) as an operation of an OpenAPI document: the hub's
 * (hub/openapi.ts) and HQ's (hub/hq/openapi.ts) are written from their declarations alike.
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ERR, idempotencyHeader, JSON_TYPE, problemResponses, type ProblemContext } from './api-docs.js';
import { ErrorCode } from './errors.js';
import type { BodySchema, RouteSpec } from './route.js';

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
      ...(spec.query ? { query: spec.query } : {}),
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
