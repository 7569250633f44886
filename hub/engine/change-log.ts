/**
 * The change log's store (CONTRACT §9): every stored change appends its row here in the transaction
 * of the change (appendChange: the engine's putStored/deleteStored, and the mail outbox's own rows);
 * this module also reads them, and compacts what is older than the retention.
 */
import { sql } from 'drizzle-orm';
import { rawSql, type Db } from '../../db/client.js';

export interface Change {
  seq: number;
  resource: string;
  key: string;
  op: 'upsert' | 'delete';
  _v: number;
  at: string;
}

/** The log keeps at least 30 days (issue 7); compaction leaves a margin on top. */
export const RETENTION_MS = 35 * 86_400_000;
const COMPACTED_KEY = 'changes.compactedThrough';

export function lastSeq(db: Db): number {
  return db.get<{ seq: number | null }>(sql`SELECT max(seq) AS seq FROM changes`)?.seq ?? 0;
}

/** The highest seq removed by compaction: a client behind it must reload (410). */
export function compactedThrough(db: Db): number {
  return Number(db.get<{ value: string }>(sql`SELECT value FROM meta WHERE key = ${COMPACTED_KEY}`)?.value ?? 0);
}

/** Entries after `since` (up to `through`, when given; none of the `hidden` resources), oldest first. */
export function changesSince(db: Db, since: number, take: number, through = Number.MAX_SAFE_INTEGER, hidden: readonly string[] = []): Change[] {
  const visible = hidden.length ? sql` AND resource NOT IN (${sql.join(hidden.map((r) => sql`${r}`), sql`, `)})` : sql``;
  return db
    .all<{ seq: number; resource: string; key: string; op: 'upsert' | 'delete'; v: number; at: number }>(
      sql`SELECT seq, resource, key, op, v, at FROM changes WHERE seq > ${since} AND seq <= ${through}${visible} ORDER BY seq LIMIT ${take}`,
    )
    .map((r) => ({ seq: r.seq, resource: r.resource, key: r.key, op: r.op, _v: r.v, at: new Date(r.at).toISOString() }));
}

/**
 * The newest entry written before `cutoff`. `at` grows with seq (entries are appended in the clock's
 * order), so a binary search over seq finds it in a few dozen primary-key lookups, however long the
 * log: no index on `at`, which every change would write another page of (issue 31). Where the clock
 * was set back, `at` steps down; the search still returns an entry older than the cutoff, at or before
 * `max(seq) WHERE at < cutoff` (what it replaced), so it never compacts more than that did — and the
 * log is a position for catching up (a register further behind reloads: 410), never the data itself.
 */
function lastBefore(db: Db, cutoff: number): number | undefined {
  const first = (from: number) => rawSql.get<{ seq: number; at: number }>(db, 'SELECT seq, at FROM changes WHERE seq >= ? ORDER BY seq LIMIT 1', [from]);
  const oldest = first(0);
  if (!oldest || oldest.at >= cutoff) return undefined;
  // lo: an entry before the cutoff; past hi none is.
  let lo = oldest.seq;
  let hi = lastSeq(db);
  while (lo < hi) {
    const mid = lo + Math.ceil((hi - lo) / 2);
    const row = first(mid)!;
    if (row.at < cutoff) lo = row.seq;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Removes entries older than the retention. `keepAfter`: on a hub in a chain, the highest seq up to
 * which head office holds every entry (its own word, not its stream's ack: hub/chain/publisher.ts);
 * entries after it are kept whatever their age, or HQ would never get them.
 */
export function compact(db: Db, now: number, retentionMs = RETENTION_MS, keepAfter = Number.MAX_SAFE_INTEGER): number {
  const cutoff = now - retentionMs;
  const through = lastBefore(db, cutoff);
  if (!through) return 0;
  // Never delete the newest row: AUTOINCREMENT keeps counting, but an empty log would hide the position.
  const newest = lastSeq(db);
  const upTo = Math.min(through, newest - 1, keepAfter);
  if (upTo <= compactedThrough(db)) return 0;
  const removed = db.run(sql`DELETE FROM changes WHERE seq <= ${upTo}`).changes;
  db.run(sql`INSERT INTO meta (key, value) VALUES (${COMPACTED_KEY}, ${String(upTo)}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
  return removed;
}

const docKeepers = new WeakSet<Db>();

/**
 * From now on every entry appended on this database keeps the document as stored at its version
 * (a hub in a chain: HQ gets every version, and a later write must not hide an earlier one).
 * A hub outside a chain never calls this, so its log stays as it was.
 */
export function keepDocsInLog(db: Db): void {
  docKeepers.add(db);
}

export function keepsDocsInLog(db: Db): boolean {
  return docKeepers.has(db);
}

/** Told of every change-log entry written on a database: its resource and key (as the log keeps it). */
export type ChangeListener = (resource: string, key: string) => void;

const listeners = new WeakMap<Db, Set<ChangeListener>>();

/**
 * Listens to the change log of `db` as it is written (issue 31): every stored change of a resource
 * appends an entry (the engine's putStored/deleteStored, in the change's own transaction), so a copy
 * of a document kept in memory — a session's user and device, the catalog a ticket write reads — is
 * dropped the moment its document changes, before that write's transaction even ends. Answers the
 * function that stops listening.
 */
export function onChange(db: Db, listener: ChangeListener): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Called by appendChange for each entry it appends. */
function announceChange(db: Db, resource: string, key: string): void {
  const set = listeners.get(db);
  if (set) for (const listener of set) listener(resource, key);
}

/** `docJson`: the document as stored at `v`, kept in the entry only on a hub in a chain (keepDocsInLog). */
export function appendChange(db: Db, resource: string, key: string | number, op: 'upsert' | 'delete', v: number, at: number, docJson?: string): void {
  if (docJson !== undefined && keepsDocsInLog(db)) {
    rawSql.run(db, 'INSERT INTO changes (resource, key, op, v, at, doc) VALUES (?, ?, ?, ?, ?, ?)', [resource, String(key), op, v, at, docJson]);
  } else {
    rawSql.run(db, 'INSERT INTO changes (resource, key, op, v, at) VALUES (?, ?, ?, ?, ?)', [resource, String(key), op, v, at]);
  }
  // In-memory copies of this document (sessions, the catalog) go now, in the change's transaction.
  announceChange(db, resource, String(key));
}
