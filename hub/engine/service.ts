/**
 * The generic resource service: rights per verb, `_v` checks, PUT as create-or-replace, unique
 * rules, hooks, and one transaction per write that also appends the change log.
 */
import { inTransaction } from '../../db/client.js';
import type { SQL } from 'drizzle-orm';
import { hasRight, requireRight, type Caller } from '../http/caller.js';
import { errors } from '../http/errors.js';
import type { Right } from '../http/rights.js';
import type { BodyOf, Doc, DocOf, EngineContext, ResourceDef } from './define.js';
import { parseListQuery } from './list-query.js';
import { childOwner, deleteStored, getDocBytes, type DocBytes, getStored, getStoredRow, keyValue, listDocBytes, listStored, putStored, rowExists, rowMatches, uniqueTaken, type ListPlan, type StoredDoc } from './repo.js';
import { parseOr400 } from '../http/validate.js';

export interface QueryResult<T> {
  items?: T[];
  count: number;
  totalCount: number;
}

export type Key = string | number;

const ITEMS_OPEN = Buffer.from('{"items":[');
const COMMA = Buffer.from(',');
const EMPTY_OBJECT = Buffer.from('{}');

/** `{...doc, _v}` as byte pieces of the stored JSON (always an object: `{…}`). */
function withVersion({ bytes, v }: DocBytes, parts: Buffer[]): void {
  if (bytes.equals(EMPTY_OBJECT)) parts.push(Buffer.from(`{"_v":${v}}`));
  else parts.push(bytes.subarray(0, bytes.length - 1), Buffer.from(`,"_v":${v}}`));
}

/** The version an `If-Match` names; `*` names none (it only asks that the record exist). */
function versionOf(ifMatch: number | '*' | undefined): number | undefined {
  return ifMatch === '*' ? undefined : ifMatch;
}

/**
 * One resource served: `R` its declaration, so what a service reads (getStored) and writes (store)
 * is typed as the resource's stored form and body.
 */
export class ResourceService<R extends ResourceDef = ResourceDef> {
  constructor(
    readonly def: R,
    readonly ctx: EngineContext,
  ) {}

  /** The document as the API answers it (to `caller`, when the resource hides parts from some readers). */
  present(stored: StoredDoc, caller?: Caller): Doc {
    const doc = this.def.hooks?.present ? this.def.hooks.present(stored.doc, this.ctx, caller) : stored.doc;
    return { ...doc, _v: stored.v };
  }

  /** A key from a URL path segment, typed as the resource keys it. */
  parseKey(raw: string): Key {
    if (this.def.key.type === 'int') {
      if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw errors.member(this.def.key.field, 'resource.notPositiveKey', { value: raw });
      return Number(raw);
    }
    return raw;
  }

  /**
   * What `caller` may read of this resource (CONTRACT §12), for a list planned as `plan` (or one
   * document, without a plan): everything, the rows of a condition, a lookup in a reduced shape,
   * or nothing (403 naming the right). No caller: the hub's own reads, which see everything.
   */
  private readAccess(caller: Caller | undefined, plan?: ListPlan): { where?: SQL; reduce?: (doc: Doc) => Doc } {
    const read = this.def.read;
    if (!caller || !read || hasRight(caller, read.right)) return {};
    if (read.lookup && plan) {
      const lookup = read.lookup;
      // An empty value is no lookup: it would list every record whose member is empty (CONTRACT §12: one found).
      const exact = plan.used.length > 0 && plan.used.every((u) => lookup.filters.includes(u.filter) && u.op === 'eq' && u.values === 1 && !u.isNull && !u.blank);
      // Ordered only by what the reduced view shows: an order by a member it hides gives that member away.
      const shown = Object.keys(lookup.schema.shape).map((k) => k.toLowerCase());
      const sortsShown = plan.sortKeys.every((k) => shown.includes(k.toLowerCase()));
      if (exact && sortsShown) return { reduce: lookup.present };
      throw errors.missingRight(read.right, read.lookup.filters);
    }
    if (read.scope) return { where: read.scope.where(caller, this.ctx) };
    throw errors.missingRight(read.right);
  }

  list(query: Record<string, unknown>, caller?: Caller): QueryResult<Doc> {
    const plan = parseListQuery(this.def, query, this.ctx);
    const access = this.readAccess(caller, plan);
    if (access.where) plan.where.push(access.where);
    const { items, totalCount } = listStored(this.ctx.db, this.def, plan);
    if (plan.countOnly) return { count: Math.max(0, Math.min(plan.take, totalCount - plan.skip)), totalCount };
    const shown = items.map((s) => this.present(s, caller));
    return { items: access.reduce ? shown.map(access.reduce) : shown, count: items.length, totalCount };
  }

  /**
   * The same answers as list() and get(), as UTF-8 JSON. A resource without a read-time hook is
   * answered from the stored bytes with `_v` spliced in: a page of a hundred tickets (~140 KB) is
   * then neither parsed, serialized, nor decoded into JS strings and encoded back (1.1 → 0.4 ms).
   */
  listJson(query: Record<string, unknown>, caller?: Caller): Buffer {
    if (this.def.hooks?.present) return Buffer.from(JSON.stringify(this.list(query, caller)));
    const plan = parseListQuery(this.def, query, this.ctx);
    const access = this.readAccess(caller, plan);
    if (access.where) plan.where.push(access.where);
    const { docs, totalCount } = listDocBytes(this.ctx.db, this.def, plan);
    if (plan.countOnly) return Buffer.from(JSON.stringify({ count: Math.max(0, Math.min(plan.take, totalCount - plan.skip)), totalCount }));
    const parts: Buffer[] = [ITEMS_OPEN];
    docs.forEach((doc, i) => {
      if (i) parts.push(COMMA);
      withVersion(doc, parts);
    });
    parts.push(Buffer.from(`],"count":${docs.length},"totalCount":${totalCount}}`));
    return Buffer.concat(parts);
  }

  getJson(key: Key, caller?: Caller): { json: Buffer; v: number } {
    if (this.def.hooks?.present) {
      const doc = this.get(key, caller);
      return { json: Buffer.from(JSON.stringify(doc)), v: doc._v as number };
    }
    const row = getDocBytes(this.ctx.db, this.def, key);
    if (!row) throw errors.notFound(this.def.title, key);
    this.requireReadable(key, caller);
    const parts: Buffer[] = [];
    withVersion(row, parts);
    return { json: Buffer.concat(parts), v: row.v };
  }

  getStored(key: Key): StoredDoc<DocOf<R>> {
    const stored = getStored(this.ctx.db, this.def, key);
    if (!stored) throw errors.notFound(this.def.title, key);
    return stored;
  }

  /**
   * getStored() with the row's typed columns, for a write in the same transaction: store() then
   * writes only what changed. Never across an await (the row may change meanwhile).
   */
  getStoredRow(key: Key): StoredDoc<DocOf<R>> {
    const stored = getStoredRow(this.ctx.db, this.def, key);
    if (!stored) throw errors.notFound(this.def.title, key);
    return stored;
  }

  get(key: Key, caller?: Caller): Doc {
    return this.present(this.read(key, caller), caller);
  }

  /** The stored document of `key` (typed as the resource stores it), when `caller` may read it: get() before `present`. */
  read(key: Key, caller?: Caller): StoredDoc<DocOf<R>> {
    const stored = this.getStored(key);
    this.requireReadable(key, caller);
    return stored;
  }

  /** One document: readable with the right, or when it meets the caller's scope (else 403 naming the right). */
  private requireReadable(key: Key, caller: Caller | undefined): void {
    const { where } = this.readAccess(caller);
    if (where && !rowMatches(this.ctx.db, this.def, key, where)) throw errors.missingRight(this.def.read!.right);
  }

  /** Validates a body: server-owned fields dropped, the key checked against the path. */
  validate(raw: Record<string, unknown>, pathKey?: Key): { body: BodyOf<R>; expectedV?: number } {
    const def: ResourceDef = this.def;
    const copy: Record<string, unknown> = { ...raw };
    const sentV = copy._v;
    for (const f of [...Object.keys(def.readOnly), ...Object.keys(def.hidden ?? {}), '_v']) delete copy[f];
    if (sentV !== undefined && sentV !== null && !(typeof sentV === 'number' && Number.isInteger(sentV) && sentV >= 0)) {
      throw errors.member('_v', 'member.nonNegativeInteger');
    }
    const keyField = def.key.field;
    if (pathKey !== undefined) {
      const given = copy[keyField];
      if (given !== undefined && given !== null && given !== pathKey) {
        throw errors.member(keyField, 'resource.keyDiffers', { field: keyField, given: String(given), path: pathKey });
      }
      copy[keyField] = pathKey;
    } else if (copy[keyField] === undefined || copy[keyField] === null) {
      if (!def.key.generate) throw errors.member(keyField, 'member.required', {}, 'Required');
      copy[keyField] = def.key.generate();
    }
    const body = def.fastParse?.(copy) ?? parseOr400(def.schema, copy);
    // The declaration's schema (or its written-out copy) made it: a body of R.
    return { body: body as BodyOf<R>, expectedV: typeof sentV === 'number' ? sentV : undefined };
  }

  private authorize(caller: Caller, verb: 'post' | 'put' | 'delete', ...rights: Array<Right | null>): void {
    this.def.hooks?.authorize?.(caller, verb);
    const needed = rights.filter((r): r is Right => r !== null);
    if (needed.length) requireRight(caller, ...needed);
  }

  async create(caller: Caller, raw: Record<string, unknown>): Promise<Doc> {
    this.authorize(caller, 'post', this.def.rights.create);
    const { body } = this.validate(raw);
    const extra = await this.def.hooks?.prepareAsync?.(body, caller);
    return inTransaction(this.ctx.db, () => {
      const key = body[this.def.key.field] as Key;
      if (rowExists(this.ctx.db, this.def, key)) {
        throw errors.member(this.def.key.field, 'resource.exists', { resource: this.def.title, key }, 'Unique');
      }
      return this.store(caller, key, body, undefined, extra, true);
    });
  }

  /**
   * A PUT that creates needs the Create right, one that replaces needs the Update right (CONTRACT §5:
   * the seed's "Create or Update", read per case). Checked before the body is read, so a caller
   * with neither learns nothing more, and again in the transaction, where the answer is final.
   */
  async put(caller: Caller, key: Key, raw: Record<string, unknown>, ifMatch?: number | '*'): Promise<{ doc: Doc; created: boolean }> {
    this.def.hooks?.authorize?.(caller, 'put');
    // Nothing to await before the write: one transaction, one read of what exists, checks in the same order.
    if (!this.def.hooks?.prepareAsync) {
      return inTransaction(this.ctx.db, () => {
        const existing = getStoredRow(this.ctx.db, this.def, key);
        this.requirePutRight(caller, existing !== undefined);
        const { body, expectedV } = this.validate(raw, key);
        if (existing) this.checkVersion(key, existing.v, expectedV, versionOf(ifMatch));
        else this.checkCreate(key, ifMatch, expectedV);
        return { doc: this.store(caller, key, body, existing, undefined, !existing), created: !existing };
      });
    }
    this.requirePutRight(caller, rowExists(this.ctx.db, this.def, key));
    const { body, expectedV } = this.validate(raw, key);
    const extra = await this.def.hooks?.prepareAsync?.(body, caller);
    return this.putValidated(caller, key, body, [expectedV, versionOf(ifMatch)], extra, ifMatch);
  }

  /**
   * put() without its asynchronous step, so a writer can run it inside a transaction of its own
   * (better-sqlite3 nests it as a savepoint): HQ's catalog change commits with the version applied.
   * Only for resources without `prepareAsync` (a user's password hash).
   */
  putSync(caller: Caller, key: Key, raw: Record<string, unknown>): { doc: Doc; created: boolean } {
    if (this.def.hooks?.prepareAsync) throw new Error(`${this.def.name} needs put(): it prepares asynchronously`);
    this.def.hooks?.authorize?.(caller, 'put');
    const { body, expectedV } = this.validate(raw, key);
    return this.putValidated(caller, key, body, [expectedV], undefined, undefined);
  }

  private putValidated(caller: Caller, key: Key, body: BodyOf<R>, expected: Array<number | undefined>, extra: unknown, ifMatch: number | '*' | undefined): { doc: Doc; created: boolean } {
    return inTransaction(this.ctx.db, () => {
      const existing = getStoredRow(this.ctx.db, this.def, key);
      this.requirePutRight(caller, existing !== undefined);
      if (existing) this.checkVersion(key, existing.v, ...expected);
      else this.checkCreate(key, ifMatch, expected[0]);
      return { doc: this.store(caller, key, body, existing, extra, !existing), created: !existing };
    });
  }

  private requirePutRight(caller: Caller, exists: boolean): void {
    const right = exists ? this.def.rights.update : this.def.rights.create;
    if (right) requireRight(caller, right);
  }

  async remove(caller: Caller, key: Key, ifMatch?: number | '*'): Promise<Doc> {
    return this.removeSync(caller, key, ifMatch);
  }

  /** remove() as one synchronous transaction (see putSync). */
  removeSync(caller: Caller, key: Key, ifMatch?: number | '*'): Doc {
    this.authorize(caller, 'delete', this.def.rights.delete);
    return inTransaction(this.ctx.db, () => {
      const existing = this.getStored(key);
      this.checkVersion(key, existing.v, versionOf(ifMatch));
      this.def.hooks?.beforeDelete?.({ caller, existing: existing.doc, ctx: this.ctx });
      deleteStored(this.ctx.db, this.def, key, existing.v + 1, this.ctx.clock.now().getTime());
      return this.present(existing);
    });
  }

  /**
   * Each expectation given (the body's `_v`, the `If-Match` header) must be the stored version:
   * a request that sends both is refused when either is stale (CONTRACT §3, §9).
   */
  checkVersion(key: Key, stored: number, ...expected: Array<number | undefined>): void {
    const stale = expected.find((e) => e !== undefined && e !== stored);
    if (stale !== undefined) throw errors.versionMismatch({ name: this.def.title, id: key, version: stored }, stale);
  }

  /**
   * A PUT that would create: an `If-Match` expects a version that exists (RFC 9110 §13.1.1), so it is
   * refused as stale against version 0 — a change meant for a record deleted meanwhile must not bring
   * it back; `If-Match: *` (any version) too, for it asks that a version exist. A body's `_v`
   * (`bodyV`) is checked only where the resource says so (`bodyVersionNeedsRecord`): elsewhere a body
   * copied from another record may carry one.
   */
  private checkCreate(key: Key, ifMatch: number | '*' | undefined, bodyV?: number): void {
    if (ifMatch === '*') throw errors.versionMismatch({ name: this.def.title, id: key, version: 0 }, undefined);
    if (ifMatch !== undefined) throw errors.versionMismatch({ name: this.def.title, id: key, version: 0 }, ifMatch);
    // `_v: 0` expects what there is: no record.
    if (bodyV !== undefined && bodyV !== 0 && this.def.bodyVersionNeedsRecord) throw errors.versionMismatch({ name: this.def.title, id: key, version: 0 }, bodyV);
  }

  /**
   * Stores a new state of the resource inside the caller's transaction: hooks, unique rules,
   * version, typed columns, children and the change log. Also used by services that change a
   * resource as a side effect (stock quantities, say), so `_v` grows on the server's own changes.
   * `existing` read with its columns (getStoredRow, in this transaction): only what changes is
   * written. `absent`: the caller made sure no row of `key` exists (a plain INSERT).
   */
  store(caller: Caller, key: Key, body: BodyOf<R>, existing: StoredDoc<DocOf<R>> | undefined, extra?: unknown, absent?: boolean): Doc;
  /** The server's own change (no caller): `doc` is stored as it is, without the hooks. */
  store(caller: undefined, key: Key, doc: DocOf<R>, existing: StoredDoc<DocOf<R>> | undefined): Doc;
  store(caller: Caller | undefined, key: Key, body: Doc, existing: StoredDoc | undefined, extra?: unknown, absent = false): Doc {
    const def: ResourceDef = this.def;
    const doc =
      caller && def.hooks?.prepare
        ? def.hooks.prepare({ caller, body, existing: existing?.doc, extra, ctx: this.ctx })
        : body;
    const columns = def.columns(doc);
    const before = existing ? def.columns(existing.doc) : undefined;
    for (const rule of def.unique ?? []) {
      if (rule.when && !rule.when(doc)) continue;
      // A letter-case-blind value the record already holds stays: two user names stored before the rule
      // saw beyond ASCII ("Šimon", "šimon") must not block deactivating either (A-Z: the unique index).
      if (rule.nocase && before && rule.columns.every((c) => before[c] === columns[c])) continue;
      if (uniqueTaken(this.ctx.db, def, rule, columns, key)) throw errors.member(rule.member, rule.message, {}, 'Unique');
    }
    for (const child of def.children ?? []) {
      if (!child.unique) continue;
      const seen = new Set<unknown>();
      child.rows(doc).forEach((row, i) => {
        const value = row[child.unique!.column];
        const clash = seen.has(value) || childOwner(this.ctx.db, child.table, child.fk, child.unique!.column, value, keyValue(def, key)) !== undefined;
        if (clash) throw errors.member(child.unique!.member(i), child.unique!.message, {}, 'Unique');
        seen.add(value);
      });
    }
    const v = existing ? existing.v + 1 : 1;
    putStored(this.ctx.db, def, key, doc, v, this.ctx.clock.now().getTime(), existing?.columns ? existing : absent && !existing ? null : undefined);
    if (caller) def.hooks?.afterWrite?.({ caller, before: existing?.doc, after: doc, ctx: this.ctx, extra });
    return this.present({ doc, v });
  }
}

/** Whether `service` serves `def` (so its documents are of that declaration's form). */
function serves<R extends ResourceDef>(service: ResourceService, def: R): service is ResourceService<R> {
  return service.def === def;
}

/** The service of a declared resource among the app's (app.ts builds one per resource), typed as its declaration. */
export function serviceOf<R extends ResourceDef>(services: Readonly<Record<string, ResourceService>>, def: R): ResourceService<R> {
  const service = services[def.name];
  if (!service || !serves(service, def)) throw new Error(`No service serves the resource ${def.name}`);
  return service;
}
