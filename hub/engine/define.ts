/**
 * A resource is declared once — key, schema, filters, sort keys, rights, hooks, the rules they enforce
 * in words — and served by the shared engine (service.ts, repo.ts, routes.ts). Adding a resource means
 * writing one of these. defineResource() is generic over the declaration's zod schemas: its hooks and
 * column mappings, and every service reading it (repo.ts getStored, service.ts serviceOf), see the
 * document as the schemas make it (StoredForm), so a renamed field fails to compile, not at run time.
 */
import type { z } from 'zod';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Caller } from '../http/caller.js';
import type { Condition, FilterType, Op } from '../http/ndata.js';
import type { Right } from '../http/rights.js';
import type { Clock } from '../core/clock.js';
import type { MessageKey } from '../i18n/index.js';
import type { ErrorSpec } from '../http/api-docs.js';

export type SqlValue = string | number | null;
/** A document as the engine moves it untyped (the generic router, the change log, the document). */
export type Doc = Record<string, unknown>;

/**
 * Marks a read-only member `present` makes at read time (a user's hasPin, a device's secretSettings,
 * an open shift's figures): not stored, or not on every record, so optional in the stored form hooks
 * see. The schema itself is unchanged.
 */
export function atRead<T extends z.ZodType>(schema: T): T & AtRead {
  return Object.assign(schema, { '~atRead': true as const });
}
interface AtRead {
  readonly '~atRead': true;
}

type KeyKind = 'string' | 'int';
/** The key a body has once the engine set it (from the path, or generated) and every stored document has. */
type Keyed<K extends string, T extends KeyKind> = { [F in K]: T extends 'int' ? number : string };

/** A shape's output; nothing for an empty shape (zod makes `{}` a record of nevers). */
type ShapeOutput<T extends z.ZodRawShape> = [keyof T] extends [never] ? unknown : z.output<z.ZodObject<T>>;
type Partly<T extends z.ZodRawShape> = [keyof T] extends [never] ? unknown : Partial<z.output<z.ZodObject<T>>>;
type Stored<R extends z.ZodRawShape> = { [K in keyof R as R[K] extends AtRead ? never : K]: R[K] };
type MadeAtRead<R extends z.ZodRawShape> = { [K in keyof R as R[K] extends AtRead ? K : never]: R[K] };
/** Answered fields every record has: written ones (in the schema) not made at read time. */
type AnsweredAlways<S extends z.ZodObject, A extends z.ZodRawShape> = { [K in keyof A as K extends keyof z.output<S> ? (A[K] extends AtRead ? never : K) : never]: A[K] };
/** Answered fields only some records carry: those the schema lacks, and those made at read time. */
type AnsweredSometimes<S extends z.ZodObject, A extends z.ZodRawShape> = { [K in keyof A as K extends keyof z.output<S> ? (A[K] extends AtRead ? K : never) : K]: A[K] };

/**
 * A resource's document as stored (what hooks get and `prepare` makes; `present` answers it): the
 * written fields as `schema` parses them; those `answered` in another form, in that form — on every
 * record where the schema has the field, on some where only `answered` names it; the server-owned
 * `readOnly` fields (those made at read time, atRead, only where stored); and the `hidden` ones.
 */
export type StoredForm<S extends z.ZodObject, A extends z.ZodRawShape, R extends z.ZodRawShape, H extends z.ZodRawShape = Record<never, never>> = Omit<
  z.output<S>,
  keyof A | keyof R | keyof H
> &
  ShapeOutput<AnsweredAlways<S, A>> &
  Partly<AnsweredSometimes<S, A>> &
  ShapeOutput<Stored<R>> &
  Partly<MadeAtRead<R>> &
  ShapeOutput<H>;

/** What hooks and computed filters may use. */
export interface EngineContext {
  db: Db;
  clock: Clock;
  timeZone: string;
  /** Keys (`tickets:<id>`) a device call is working on right now; writes to them answer 423. */
  busy: Set<string>;
}

/** A list filter: a typed column, a column of a child table (matched with EXISTS), or computed SQL. */
export type FilterDef =
  | { type: FilterType; column: string; enumValues?: readonly string[]; nocase?: boolean }
  | { type: FilterType; child: { table: string; fk: string; column: string }; enumValues?: readonly string[] }
  | { type: FilterType; expr: (ctx: EngineContext) => SQL; enumValues?: readonly string[] }
  | { type: 'bool'; predicate: (ctx: EngineContext) => SQL }
  | { type: FilterType; build: (c: Condition, ctx: EngineContext) => SQL; enumValues?: readonly string[]; ops?: readonly Op[] };

export interface ChildTable<D extends Doc = Doc> {
  table: string;
  fk: string;
  rows(doc: D): Record<string, SqlValue>[];
  /** The columns (beside `fk`) that tell a parent's rows apart: a write then changes only the rows that differ. */
  key?: string[];
  /** A column unique across all parents; `member(i)` names the body field of row i in a 400. */
  unique?: { column: string; member: (index: number) => string; message: MessageKey };
}

export interface UniqueRule<D extends Doc = Doc> {
  /** SQL columns that together must be unique among rows of this resource. */
  columns: string[];
  member: string;
  message: MessageKey;
  /** Compared in any letter case, Unicode-aware ("Šimon" = "šimon"; accents still count). */
  nocase?: boolean;
  /** Only rows where this SQL condition holds take part (e.g. "is_active = 1"). */
  where?: string;
  /** The rule applies only to documents for which this holds (e.g. active ones). */
  when?(doc: D): boolean;
}

/** What `prepare` gets: `B` the body as the schema parses it, `D` the stored form, `E` what the write brings beside the body. */
export interface WriteInput<B extends Doc = Doc, D extends Doc = Doc, E = unknown> {
  caller: Caller;
  /** The validated body with the key set, server-owned fields removed. */
  body: B;
  /** The stored document before this write (undefined on create). */
  existing?: D;
  /** Result of `prepareAsync`, computed before the transaction (e.g. a password hash), or what a service's own write hands store(). */
  extra?: E;
  ctx: EngineContext;
}

/**
 * A resource's declaration. `B`: a body as its schema parses it; `D`: its document as stored
 * (StoredForm of its schemas); `E`: what a write brings beside the body (`extra`). The engine holds
 * every resource as a plain ResourceDef (hooks are methods, so a typed one is one of those).
 */
export interface ResourceDef<B extends Doc = Doc, D extends Doc = Doc, E = unknown> {
  /** Path segment under /api and the change-log resource name, e.g. `customers`. */
  name: string;
  /** Singular for messages and OpenAPI, e.g. `Customer`. */
  title: string;
  table: string;
  key: { field: string; column: string; type: KeyKind; schema: z.ZodType; generate?: () => string };
  /** A body that a POST accepts on a shop set up from the other resources' examples: the document's request example. */
  example?: Doc;
  /** Writable fields (the key included, optional for POST). */
  schema: z.ZodObject;
  /**
   * The same schema checked without zod, for a resource written on every sale (tickets): answers
   * what `schema` would parse the body to, or undefined whenever it is not sure (then zod parses).
   */
  fastParse?(body: Record<string, unknown>): Doc | undefined;
  /** Fields only the server writes, for the response description; stripped from bodies. */
  readOnly: z.ZodRawShape;
  /**
   * Fields answered in a form other than written, for the document: writable fields the server
   * completes (a ticket's items gain their plu's name and totals), or fields only some records carry
   * (a closed ticket's change). Absent: a field answers as written.
   */
  answered?: z.ZodRawShape;
  /**
   * Server-owned fields the stored document keeps but no answer shows (a password's hash): a body's
   * are ignored (CONTRACT §3), like those in readOnly, and `present` leaves them out.
   */
  hidden?: z.ZodRawShape;
  /** Typed columns written beside the document. */
  columns(doc: D): Record<string, SqlValue>;
  children?: ChildTable<D>[];
  unique?: UniqueRule<D>[];
  filters: Record<string, FilterDef>;
  /** Sort keys beyond filters and top-level fields: name → SQL column, or SQL for a derived field. */
  sorts?: Record<string, string | ((ctx: EngineContext) => SQL)>;
  /**
   * Text sort keys people read (issue 21): `$sort` by one of these orders by the shop locale's
   * collation (hub/i18n/collation.ts) instead of binary. Where the key resolves to a column listed in
   * `sortKeyColumns`, the stored, indexed sort key of that column is used (large tables); otherwise
   * the key is computed per row with the SQL function `sortkey()` (small tables).
   */
  collate?: string[];
  /** column → the column holding its sort key, kept by the engine on every write (and rebuilt when the locale changes). */
  sortKeyColumns?: Record<string, string>;
  /** Rights per verb; a PUT needs create when it creates, update when it replaces. `null`: the resource's hooks decide (tickets). */
  rights: { create: Right | null; update: Right | null; delete: Right | null };
  /**
   * Who reads it (CONTRACT §12). Absent: everyone logged in (the catalog a register needs).
   * `scope`: what a caller without `right` still reads, as a condition on the resource's rows (a
   * waiter's open tickets and own sales) and in words for the document; `lookup`: a list narrowed to an exact lookup by one of
   * these filters, answered in a reduced shape (a register finding a customer by card). Neither: a
   * caller without the right reads nothing (403 naming it).
   */
  read?: {
    right: Right;
    scope?: {
      where: (caller: Caller, ctx: EngineContext) => SQL;
      /** The same in words, for the document: "the caller reads …" (plural, as a list holds them). */
      reads: string;
    };
    lookup?: { filters: string[]; present(doc: D): Doc; schema: z.ZodObject };
  };
  /**
   * A body `_v` on a PUT that would create is refused as stale against version 0, as `If-Match` is
   * (service.checkCreate): for resources whose clients make their own keys and send `_v` only for a
   * version they were answered (a register's tickets), so a change made offline to a record deleted
   * meanwhile never brings it back (README "Tickets offline and online": a change in between is a 409).
   */
  bodyVersionNeedsRecord?: boolean;
  /** Verbs the resource does not offer (answered 405). */
  without?: Array<'post' | 'put' | 'delete'>;
  hooks?: {
    /** Before anything else on a write (e.g. the Sale environment for tickets). */
    authorize?(caller: Caller, verb: 'post' | 'put' | 'delete'): void;
    /** Async work outside the transaction (no database writes): hashing, say. */
    prepareAsync?(body: B, caller: Caller): Promise<E>;
    /** Inside the write transaction: complete server-owned fields, check references and extra rights. */
    prepare?(input: WriteInput<B, D, E>): D;
    /** Inside the write transaction, after the row is stored: side effects such as kitchen orders. `extra`: as prepare got it. */
    afterWrite?(input: { caller: Caller; before?: D; after: D; ctx: EngineContext; extra?: E }): void;
    beforeDelete?(input: { caller: Caller; existing: D; ctx: EngineContext }): void;
    /** At read time: derived fields (the clock), hidden fields removed (some only from some readers: `caller`). */
    present?(doc: D, ctx: EngineContext, caller?: Caller): Doc;
  };
  /**
   * What the hooks add to a write, for the document (hub/openapi.ts): the rules no declaration above
   * shows (extra rights, state checks) in words per verb, and the errors they answer. Kept beside the
   * hooks that enforce them.
   */
  rules?: {
    notes?: Partial<Record<WriteVerb, string>>;
    errors?: Partial<Record<WriteVerb, ErrorSpec[]>>;
  };
}

export type WriteVerb = 'post' | 'put' | 'delete';

/**
 * A declaration typed by its schemas: `schema` (S), `readOnly` (R), `answered` (A), `hidden` (H);
 * `E`, what a write brings beside the body, from `prepareAsync` or named by the resource.
 */
export type Defined<S extends z.ZodObject, R extends z.ZodRawShape, A extends z.ZodRawShape, H extends z.ZodRawShape, E, K extends string, T extends KeyKind> = ResourceDef<
  z.output<S> & Keyed<K, T>,
  StoredForm<S, A, R, H> & Keyed<K, T>,
  E
> & {
  key: { field: K; type: T };
  schema: S;
  /** As the schema parses a body (the key as the schema has it: the engine set it before). */
  fastParse?(body: Record<string, unknown>): z.output<S> | undefined;
  readOnly: R;
  answered?: A;
  hidden?: H;
};

export function defineResource<
  S extends z.ZodObject,
  R extends z.ZodRawShape,
  K extends string,
  T extends KeyKind,
  A extends z.ZodRawShape = Record<never, never>,
  H extends z.ZodRawShape = Record<never, never>,
  E = unknown,
>(def: Defined<S, R, A, H, E, K, T>): Defined<S, R, A, H, E, K, T> {
  return def;
}

/** The stored form of a declared resource's documents. */
export type DocOf<R extends ResourceDef> = R extends ResourceDef<Doc, infer D extends Doc, unknown> ? D : Doc;
/** A body of a declared resource as its schema parses it. */
export type BodyOf<R extends ResourceDef> = R extends ResourceDef<infer B extends Doc, Doc, unknown> ? B : Doc;
