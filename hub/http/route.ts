/**
 * A route is declared once (ARCHITECTURE "A route is declared once"; Fastify's route schemas are
 * the model): method, path, parameters, body, answers, errors, rights and handler side by side, next
 * to what it serves. `mount()` registers the handlers (and a 405 with `Allow` for the methods a path
 * does not offer); hub/openapi.ts writes the document from the same declarations, listed once in
 * hub/routes.ts beside RESOURCES. Nothing is described a second time by hand.
 */
import { Router, type RequestHandler } from 'express';
import type { z } from 'zod';
import type { ErrorSpec } from './api-docs.js';
// For its side effect before any declaration's schema exists: zod 4 gives `.openapi()` only to
// schemas made after extendZodWithOpenApi, and a route's named schema is registered through it.
import './api-docs.js';
import { methodNotAllowed } from './handler.js';

/** A resource's model as the engine registers it (`Ticket`, `Order`…), answered by a route. */
export interface ModelRef {
  model: string;
  array?: boolean;
}
/** A schema registered under its own name in the document's components. */
export interface Named {
  name: string;
  schema: z.ZodType;
}
/** One of several named bodies (a batch action's). */
export interface OneOf {
  oneOf: Named[];
}
/** A schema built around resources' models (a session holds its device): `uses` names them. */
export interface Composed {
  name?: string;
  uses: string[];
  compose: (model: (name: string) => z.ZodObject) => z.ZodType;
}
export type BodySchema = z.ZodType | ModelRef | Named | OneOf | Composed;

export const model = (name: string, opts: { array?: boolean } = {}): ModelRef => ({ model: name, array: opts.array ?? false });
export const named = (name: string, schema: z.ZodType): Named => ({ name, schema });

export interface HeaderDoc {
  description: string;
  schema: { type: 'string' | 'integer' };
}

export interface RouteSpec<D> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The path as the document names it: `/api/tickets/{id}/close` (`{x}` is `req.params.x`). */
  path: string;
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  /** The rights the route checks (x-rights); none: it needs a token and nothing else, or no token (`noToken`). */
  rights?: string[];
  noToken?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  body?: { schema: BodySchema; required: boolean };
  /** `also`: the same answer in other media types the client may ask for with Accept (a report as CSV). */
  responses: Record<number, { description: string; schema?: BodySchema; contentType?: string; also?: Record<string, z.ZodType>; headers?: Record<string, HeaderDoc> }>;
  /** Every error the route can answer (CONTRACT §2), for the document and for the tests that hold real errors to it. */
  errors: ErrorSpec[];
  /** Another router serves the path's other methods (the engine's list and create of /api/tickets): no 405 here. */
  sharedPath?: boolean;
  /** Made once at mount time from what the route needs; it answers the request. */
  handler: (deps: D) => RequestHandler;
}

/** The declarations of one module: typed by what their handlers need. */
export function routes<D>(specs: Array<RouteSpec<D>>): Array<RouteSpec<D>> {
  return specs;
}

/** `/api/tickets/{id}/close` → `/tickets/:id/close` (under the router mounted at `/api`; `base` strips more). */
export function expressPath(path: string, base = '/api'): string {
  const local = path.startsWith(base) ? path.slice(base.length) || '/' : path;
  return local.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `Allow` lists methods in one order whatever order the declarations come in (clients and tests compare it). */
export function inMethodOrder(methods: string[]): string[] {
  return [...methods].sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b));
}

/**
 * Every `METHOD /api/path` (in the document's form) a router of this process serves, as mounted: the
 * test that no mounted route goes undocumented reads it.
 */
const mounted = new Set<string>();

export function recordMounted(method: string, path: string): void {
  mounted.add(`${method.toUpperCase()} ${path}`);
}

export function mountedRoutes(): ReadonlySet<string> {
  return mounted;
}

/** The methods declarations add to a path another router serves (PATCH on the engine's /api/tickets), for its `Allow`. */
export function sharedMethods(specs: ReadonlyArray<RouteSpec<never>>, path: string): string[] {
  return specs.filter((s) => s.sharedPath && s.path === path).map((s) => s.method.toUpperCase());
}

/** Registers each declaration's handler on a new router, then a 405 for the other methods of each path. */
export function mount<D>(specs: Array<RouteSpec<D>>, deps: D, base = '/api'): Router {
  const router = Router();
  const methods = new Map<string, string[]>();
  for (const spec of specs) {
    const path = expressPath(spec.path, base);
    router[spec.method](path, spec.handler(deps));
    recordMounted(spec.method, spec.path);
    if (!spec.sharedPath) methods.set(path, [...(methods.get(path) ?? []), spec.method.toUpperCase()]);
  }
  for (const [path, allowed] of methods) router.all(path, methodNotAllowed(inMethodOrder(allowed)));
  return router;
}
