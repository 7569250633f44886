/**
 * A route is declared once (ARCHITECTURE "A route is declared once"; Fastify's route schemas are
 * the model): method, path, parameters, body, answers, errors, rights and handler side by side, next
 * to what it serves. The declaration is executable: `mount()` registers the handlers (and a 405
 * with `Allow` for the methods a path does not offer), reads the path parameters, query, headers
 * and body with the declared schemas, answers 400 itself, and hands the handler typed input (as
 * Fastify's compiled schemas and Outline's `validate()` do); hub/openapi.ts writes the document
 * from the same declarations, listed once in hub/routes.ts beside RESOURCES. Nothing is described
 * or parsed a second time by hand.
 */
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import type { ErrorSpec } from './api-docs.js';
// For its side effect before any declaration's schema exists: zod 4 gives `.openapi()` only to
// schemas made after extendZodWithOpenApi, and a route's named schema is registered through it.
import './api-docs.js';
import type { Caller } from './caller.js';
import { errors, memberError, type MemberError } from './errors.js';
export { catalogIssue } from './errors.js';
import { callerOf, methodNotAllowed } from './handler.js';
import { under } from './segments.js';
import { requireObjectBody } from './body.js';
import { parseListParams, type ListParams } from './list-params.js';
import type { ListDoc } from './route-docs.js';
import { memberOfIssue, parseOr400 } from './validate.js';

/** A resource's model as the engine registers it (`Ticket`, `Order`…), answered by a route. */
export interface ModelRef {
  model: string;
  array?: boolean;
}
/** A schema registered under its own name in the document's components. */
export interface Named<S extends z.ZodType = z.ZodType> {
  name: string;
  schema: S;
}
/**
 * One of several named bodies (a batch action's). `by` picks the one a request's body is read
 * with, by name, from its other input (the batch's `action`).
 */
export interface OneOf<N extends Named = Named> {
  oneOf: N[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the route's own parsed input, typed where the route is declared.
  by?: (input: { params: any; query: any }) => string;
}
/** Several named bodies, the one a request is read with picked by `by` from its parsed params and query. */
export const oneOf = <N extends Named>(schemas: N[], by: OneOf<N>['by']): OneOf<N> => ({ oneOf: schemas, by });
/** A schema built around resources' models (a session holds its device): `uses` names them. */
export interface Composed {
  name?: string;
  uses: string[];
  compose: (model: (name: string) => z.ZodObject) => z.ZodType;
}
export type BodySchema = z.ZodType | ModelRef | Named | OneOf | Composed;

export const model = (name: string, opts: { array?: boolean } = {}): ModelRef => ({ model: name, array: opts.array ?? false });
export const named = <S extends z.ZodType>(name: string, schema: S): Named<S> => ({ name, schema });

export interface HeaderDoc {
  description: string;
  schema: { type: 'string' | 'integer' };
}

/** What a body schema reads into. */
type Read<S> = S extends z.ZodType ? z.output<S> : S extends Named<infer T> ? z.output<T> : S extends OneOf<infer N> ? z.output<N['schema']> : unknown;
type Members<S> = S extends z.ZodObject ? z.output<S> : Record<string, never>;

/**
 * What a handler is handed, read with the route's declared schemas: path parameters, query
 * (names matched in any letter case, CONTRACT §1), headers (each optional here: a missing
 * credential is the handler's 401 to answer, not a 400) and body (an optional body left out is
 * read as `{}`, so its defaults apply).
 */
export interface RouteInput<P = unknown, Q = unknown, H = unknown, B = unknown, L = unknown> {
  params: Members<P>;
  query: Members<Q>;
  headers: Partial<Members<H>>;
  body: B extends { schema: infer S } ? Read<S> : undefined;
  /** A list's query (`list`), read by the NData parser every list shares (http/list-params.ts). */
  list: L extends ListSpec ? ListParams : undefined;
}

/** A list route's query (CONTRACT §4): its NData filters and sort keys, `what` naming it in messages. */
export interface ListSpec extends ListDoc {
  what: string;
}

export type RouteHandler<I> = (input: I, req: Request, res: Response, next: NextFunction) => unknown;

/* eslint-disable @typescript-eslint/no-explicit-any -- a list holds declarations of different inputs: each was checked where it was written (route()). */
export interface RouteSpec<D, P = any, Q = any, H = any, B = any, L = any> {
  /* eslint-enable @typescript-eslint/no-explicit-any */
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The path as the document names it: `/api/tickets/{id}/close` (`{x}` is the parameter `x`). */
  path: string;
  /**
   * The path as express matches it, when the document's form cannot say it: `/catalog/:resource/*key`
   * for a key that holds a slash (a wildcard parameter is read as its segments joined by `/`).
   */
  match?: string;
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  /** The rights the route checks (x-rights); none: it needs a token and nothing else, or no token (`noToken`). */
  rights?: string[];
  noToken?: boolean;
  /**
   * Checks run on the caller before anything of the request is read (a missing right is a 403
   * whatever the query says, as it was before the input was read for the handler).
   */
  authorize?: (caller: Caller) => void;
  params?: P;
  /**
   * What a path whose parameters fail their schema answers: by default 404 (the path names nothing,
   * as a path no route matches); `400` where a parameter is a choice the caller made (HQ's catalog resource).
   */
  invalidParams?: 400 | 404;
  query?: Q;
  /** A list's query instead of `query`: paging, `$sort`, `$count` and NData filters, handed over as `input.list`. */
  list?: L;
  headers?: H;
  body?: B;
  /** `also`: the same answer in other media types the client may ask for with Accept (a report as CSV). */
  responses: Record<number, { description: string; schema?: BodySchema; contentType?: string; also?: Record<string, z.ZodType>; headers?: Record<string, HeaderDoc> }>;
  /** Every error the route can answer (CONTRACT §2), for the document and for the tests that hold real errors to it. */
  errors: ErrorSpec[];
  /** Another router serves the path's other methods (the engine's list and create of /api/tickets): no 405 here. */
  sharedPath?: boolean;
  /** Made once at mount time from what the route needs; it answers the request from its input. */
  handler: (deps: D) => RouteHandler<RouteInput<P, Q, H, B, L>>;
}

/**
 * The declarations of one module, typed by what their handlers need: `routes<Deps>((route) => [route({...}), ...])`.
 * Each `route()` infers its input's types from its own schemas.
 */
export function routes<D>(
  build: (
    route: <
      P extends z.ZodObject | undefined = undefined,
      Q extends z.ZodObject | undefined = undefined,
      H extends z.ZodObject | undefined = undefined,
      B extends { schema: BodySchema; required: boolean } | undefined = undefined,
      L extends ListSpec | undefined = undefined,
    >(
      spec: RouteSpec<D, P, Q, H, B, L>,
    ) => RouteSpec<D>,
  ) => Array<RouteSpec<D>>,
): Array<RouteSpec<D>> {
  return build((spec) => spec as RouteSpec<D>);
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
 * Every `METHOD /path` (in the document's form) a router of this process serves, as mounted: the
 * tests that no mounted route goes undocumented read it (the hub's and HQ's, told apart by path).
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

/* eslint-disable @typescript-eslint/no-explicit-any -- zod's internals (_zod.def) are not typed for reading back. */
/** The schema under optional, default, nullable and transforms: what a text from the URL is turned into. */
function baseOf(schema: z.ZodType): any {
  let s: any = schema;
  for (;;) {
    const def = s._zod.def;
    if (['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch'].includes(def.type)) s = def.innerType;
    else if (def.type === 'pipe') s = def.in;
    else return s;
  }
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * A text from the URL (a query value, a path parameter) as the type its schema declares, the way
 * Fastify coerces querystrings: numbers, booleans, and enum values in any letter case (CONTRACT §1).
 * A MemberError: not of the type — an empty value (`?since=`) included, as the lists answer `$skip=`:
 * only a parameter left out is "none".
 */
function coerce(name: string, text: string, schema: z.ZodType): unknown {
  const base = baseOf(schema);
  const value = text.trim();
  switch (base._zod.def.type) {
    case 'number':
      // Any number of digits is an integer; the schema's bounds then say whether it is in range.
      if (base.isInt) return /^-?\d+$/.test(value) ? Number(value) : memberError(name, 'query.notInteger', { value });
      return /^-?\d{1,15}(\.\d+)?$/.test(value) ? Number(value) : memberError(name, 'query.notDecimal', { value });
    case 'boolean':
      if (/^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
      return memberError(name, 'query.notBoolean', { value });
    case 'enum': {
      const options = base.options as string[];
      return options.find((o) => o === value) ?? options.find((o) => o.toLowerCase() === value.toLowerCase()) ?? memberError(name, 'query.notEnum', { value, values: options.join(', ') });
    }
    default:
      return text;
  }
}

const isMemberError = (v: unknown): v is MemberError => typeof v === 'object' && v !== null && 'memberName' in v && 'code' in v;

/**
 * Reads `raw` (name → text, or a wildcard parameter's segments) with an object schema: names
 * matched in any letter case, names not declared left out, each value coerced to its declared
 * type, then the schema; `ignoreMissing`: every member optional (headers). Every member at fault is listed.
 */
function readMembers(schema: z.ZodObject, raw: Record<string, unknown>, ignoreMissing = false): { value?: unknown; problems: MemberError[] } {
  const shape = schema.shape as Record<string, z.ZodType>;
  const declared = new Map(Object.keys(shape).map((k) => [k.toLowerCase(), k]));
  const input: Record<string, unknown> = {};
  const problems: MemberError[] = [];
  for (const [key, v] of Object.entries(raw)) {
    const name = declared.get(key.toLowerCase());
    if (!name || v === undefined) continue;
    const text = Array.isArray(v) ? v.join('/') : String(v);
    const value = coerce(name, text, shape[name]);
    if (isMemberError(value)) problems.push(value);
    else if (value !== undefined) input[name] = value;
  }
  const failed = new Set(problems.map((p) => p.memberName));
  const result = (ignoreMissing ? schema.partial() : schema).safeParse(input, { reportInput: true });
  if (result.success) return { value: result.data, problems };
  for (const issue of result.error.issues) if (!failed.has(String(issue.path[0]))) problems.push(memberOfIssue(issue));
  return { problems };
}

const invalid = (problems: MemberError[]) => errors.validation('error.invalidRequest', {}, problems);

/** Query values as their names came (a repeated name: every value, the last one read). */
function lastValues(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, Array.isArray(v) ? v[v.length - 1] : v]));
}

/**
 * A query parameter by name in any letter case (CONTRACT §1), for what reads it before any route
 * does (the session middleware's `access_token`); the last value of a repeated one.
 */
export function queryValue(req: Request, name: string): string | undefined {
  const lower = name.toLowerCase();
  const hit = Object.entries(req.query).filter(([k]) => k.toLowerCase() === lower).pop()?.[1];
  const value = Array.isArray(hit) ? hit[hit.length - 1] : hit;
  return typeof value === 'string' ? value : undefined;
}

/** The zod schema a declared body is read with. */
function bodySchema(schema: BodySchema, input: { params: unknown; query: unknown }): z.ZodType {
  if ('oneOf' in schema && Array.isArray(schema.oneOf)) {
    const { oneOf, by } = schema as OneOf;
    if (!by) throw new Error('A body of several schemas needs `by` to pick the one a request is read with.');
    const name = by(input as never);
    const hit = oneOf.find((n) => n.name === name);
    if (!hit) throw new Error(`No body schema is named '${name}'.`);
    return hit.schema;
  }
  if ('name' in schema && 'schema' in schema && typeof schema.name === 'string') return schema.schema as z.ZodType;
  if ('model' in schema || 'compose' in schema) throw new Error('A body the hub reads is declared as a zod schema (or a named one).');
  return schema as z.ZodType;
}

/** A request's input, read as `spec` declares it; a 404 or 400 naming the members at fault. `timeZone`: a list's date-times without an offset. */
export function readInput(spec: RouteSpec<never>, req: Request, timeZone = 'UTC'): RouteInput {
  let params: unknown = {};
  if (spec.params) {
    const read = readMembers(spec.params as z.ZodObject, req.params as Record<string, unknown>);
    if (read.problems.length) {
      if (spec.invalidParams === 400) throw invalid(read.problems);
      throw errors.routeNotFound(req.originalUrl.split('?')[0]);
    }
    params = read.value;
  }
  let query: unknown = {};
  if (spec.query) {
    const read = readMembers(spec.query as z.ZodObject, lastValues(req.query as Record<string, unknown>));
    if (read.problems.length) throw invalid(read.problems);
    query = read.value;
  }
  const declaredList = spec.list as ListSpec | undefined;
  const list = declaredList ? parseListParams(req.query as Record<string, unknown>, declaredList.filters, declaredList.what, timeZone) : undefined;
  let headers: unknown = {};
  if (spec.headers) {
    const raw = Object.fromEntries(Object.keys((spec.headers as z.ZodObject).shape).map((name) => [name, req.headers[name.toLowerCase()]]));
    const read = readMembers(spec.headers as z.ZodObject, raw, true);
    if (read.problems.length) throw invalid(read.problems);
    headers = read.value;
  }
  let body: unknown;
  const declared = spec.body as { schema: BodySchema; required: boolean } | undefined;
  if (declared) {
    const raw = req.body === undefined && !declared.required ? {} : req.body;
    body = parseOr400(bodySchema(declared.schema, { params, query }), requireObjectBody(raw));
  }
  return { params, query, headers, body, list } as RouteInput;
}

/**
 * Registers each declaration's handler on a new router, then a 405 for the other methods of each
 * path; the router answers only under its declarations' first path segments (http/segments.ts).
 * `authenticate`: for routes mounted before the session middleware (a login beside the session it
 * opens), what attaches the caller to those of them that need a token (and, for HQ, checks the
 * rights each declares).
 */
export function mount<D>(
  specs: Array<RouteSpec<D>>,
  deps: D,
  opts: { base?: string; authenticate?: (req: Request, res: Response, spec: RouteSpec<never>) => void | Promise<void>; timeZone?: string } = {},
): RequestHandler {
  const { base = '/api', authenticate, timeZone } = opts;
  const router = Router();
  const methods = new Map<string, string[]>();
  const segments = new Set<string>();
  for (const spec of specs) {
    const path = spec.match ?? expressPath(spec.path, base);
    const handle = spec.handler(deps);
    const answer = (req: Request, res: Response, next: NextFunction) => {
      if (spec.authorize) spec.authorize(callerOf(res));
      return handle(readInput(spec as RouteSpec<never>, req, timeZone), req, res, next);
    };
    // An authentication that waits (HQ looks its sessions up in PostgreSQL) is waited for; express 5 answers a rejection.
    const run: RequestHandler = (req, res, next) => {
      const pending = authenticate && !spec.noToken ? authenticate(req, res, spec as RouteSpec<never>) : undefined;
      return (pending instanceof Promise ? pending.then(() => answer(req, res, next)) : answer(req, res, next)) as void;
    };
    router[spec.method](path, run);
    recordMounted(spec.method, spec.path);
    segments.add(path.split('/')[1] ?? '');
    if (!spec.sharedPath) methods.set(path, [...(methods.get(path) ?? []), spec.method.toUpperCase()]);
  }
  for (const [path, allowed] of methods) router.all(path, methodNotAllowed(inMethodOrder(allowed)));
  return under([...segments], router);
}
