/**
 * A resource is declared once — key, schema, filters, sort keys, rights, hooks — and served by the
 * shared engine (service.ts, repo.ts, routes.ts). Adding a resource means writing one of these.
 */
import type { z } from 'zod';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Caller } from '../http/caller.js';
import type { Condition, FilterType } from '../http/ndata.js';
import type { Right } from '../http/rights.js';
import type { Clock } from '../core/clock.js';
import type { MessageKey } from '../i18n/index.js';
import type { ErrorSpec } from '../http/api-docs.js';

export type SqlValue = string | number | null;
export type Doc = Record<string, unknown>;

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
  | { type: FilterType; build: (c: Condition, ctx: EngineContext) => SQL; enumValues?: readonly string[] };

export interface ChildTable {
  table: string;
  fk: string;
  rows(doc: Doc): Record<string, SqlValue>[];
  /** The columns (beside `fk`) that tell a parent's rows apart: a write then changes only the rows that differ. */
  key?: string[];
  /** A column unique across all parents; `member(i)` names the body field of row i in a 400. */
  unique?: { column: string; member: (index: number) => string; message: MessageKey };
}

export interface UniqueRule {
  /** SQL columns that together must be unique among rows of this resource. */
  columns: string[];
  member: string;
  message: MessageKey;
  nocase?: boolean;
  /** Only rows where this SQL condition holds take part (e.g. "is_active = 1"). */
  where?: string;
  /** The rule applies only to documents for which this holds (e.g. active ones). */
  when?: (doc: Doc) => boolean;
}

export interface WriteInput {
  caller: Caller;
  /** The validated body with the key set, server-owned fields removed. */
  body: Doc;
  /** The stored document before this write (undefined on create). */
  existing?: Doc;
  /** Result of `prepareAsync`, computed before the transaction (e.g. a password hash). */
  extra?: unknown;
  ctx: EngineContext;
}

export interface ResourceDef {
  /** Path segment under /api and the change-log resource name, e.g. `customers`. */
  name: string;
  /** Singular for messages and OpenAPI, e.g. `Customer`. */
  title: string;
  table: string;
  key: { field: string; column: string; type: 'string' | 'int'; schema: z.ZodType; generate?: () => string };
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
  /** Extra body fields that are ignored (CONTRACT §3 server-owned) beside those in readOnly. */
  ignored?: string[];
  /** Typed columns written beside the document. */
  columns(doc: Doc): Record<string, SqlValue>;
  children?: ChildTable[];
  unique?: UniqueRule[];
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
   * waiter's open tickets and own sales); `lookup`: a list narrowed to an exact lookup by one of
   * these filters, answered in a reduced shape (a register finding a customer by card). Neither: a
   * caller without the right reads nothing (403 naming it).
   */
  read?: {
    right: Right;
    scope?: (caller: Caller, ctx: EngineContext) => SQL;
    lookup?: { filters: string[]; present(doc: Doc): Doc; schema: z.ZodObject };
  };
  /** Verbs the resource does not offer (answered 405). */
  without?: Array<'post' | 'put' | 'delete'>;
  hooks?: {
    /** Before anything else on a write (e.g. the Sale environment for tickets). */
    authorize?(caller: Caller, verb: 'post' | 'put' | 'delete'): void;
    /** Async work outside the transaction (no database writes): hashing, say. */
    prepareAsync?(body: Doc, caller: Caller): Promise<unknown>;
    /** Inside the write transaction: complete server-owned fields, check references and extra rights. */
    prepare?(input: WriteInput): Doc;
    /** Inside the write transaction, after the row is stored: side effects such as kitchen orders. `extra`: as prepare got it. */
    afterWrite?(input: { caller: Caller; before?: Doc; after: Doc; ctx: EngineContext; extra?: unknown }): void;
    beforeDelete?(input: { caller: Caller; existing: Doc; ctx: EngineContext }): void;
    /** At read time: derived fields (the clock), hidden fields removed (some only from some readers: `caller`). */
    present?(doc: Doc, ctx: EngineContext, caller?: Caller): Doc;
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

export function defineResource(def: ResourceDef): ResourceDef {
  return def;
}
