/**
 * The store side's SQL: the chain's positions in the `meta` table, the change-log entries still to
 * publish, and the few lookups applying HQ's catalog needs.
 */
import { rawSql, type Db } from '../../db/client.js';

const ACKED = 'chain.ackedSeq';
const INGESTED = 'chain.ingestedSeq';
const BASE = 'chain.base';
const CATALOG_APPLIED = 'chain.catalogVersion';
const CATALOG_ERROR = 'chain.catalogError';

function getMeta(db: Db, key: string): string | undefined {
  return rawSql.get<{ value: string }>(db, 'SELECT value FROM meta WHERE key = ?', [key])?.value;
}

function setMeta(db: Db, key: string, value: string): void {
  rawSql.run(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
}

/**
 * Where the chain starts on this hub: the first start in a chain records the position below the
 * oldest entry the log still holds (compaction may have removed older ones), and the cursor with it.
 * `acked`: the publish cursor (the stream stored every entry up to it); `ingested`: what HQ last said
 * it holds (the store forgets only up to there). A hub that was in a chain before HQ said so starts
 * from its base: it forgets nothing until HQ answers.
 */
export function chainStart(db: Db): { base: number; acked: number; ingested: number } {
  let base = getMeta(db, BASE);
  if (base === undefined) {
    const oldest = rawSql.get<{ s: number | null }>(db, 'SELECT min(seq) AS s FROM changes', [])?.s;
    const compacted = Number(getMeta(db, 'changes.compactedThrough') ?? 0);
    base = String(oldest ? oldest - 1 : compacted);
    rawSql.run(db, 'INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)', [BASE, base]);
    base = getMeta(db, BASE)!;
  }
  const acked = Number(getMeta(db, ACKED) ?? base);
  const ingested = Number(getMeta(db, INGESTED) ?? base);
  return { base: Number(base), acked: Math.max(acked, Number(base)), ingested: Math.max(ingested, Number(base)) };
}

/** Moves the publish cursor (forward with acks, back when HQ asks for events again). */
export function saveAcked(db: Db, acked: number): void {
  setMeta(db, ACKED, String(acked));
}

/** Moves what HQ holds: the store may forget up to there. */
export function saveIngested(db: Db, ingested: number): void {
  setMeta(db, INGESTED, String(ingested));
}

/** Forgets the documents kept for entries after `after` up to `upTo` (they were kept only until HQ holds them). */
export function forgetDocs(db: Db, after: number, upTo: number): void {
  rawSql.run(db, 'UPDATE changes SET doc = NULL WHERE seq > ? AND seq <= ? AND doc IS NOT NULL', [after, upTo]);
}

/**
 * The first entry the log holds at or after `seq` (null: none). Below it the log may hold nothing:
 * compacted away, or never handed out here (a restore goes on after the replaced database's last seq).
 */
export function firstHeldFrom(db: Db, seq: number): number | null {
  return rawSql.get<{ s: number | null }>(db, 'SELECT min(seq) AS s FROM changes WHERE seq >= ?', [seq])?.s ?? null;
}

/** Moves where the chain starts (only forward): HQ counts what it holds from there (CONTRACT §13 `base`). */
export function saveBase(db: Db, base: number): void {
  setMeta(db, BASE, String(base));
}

export interface PendingEntry {
  seq: number;
  resource: string;
  key: string;
  op: 'upsert' | 'delete';
  v: number;
  at: number;
  doc: string | null;
}

export function entriesAfter(db: Db, seq: number, take: number): PendingEntry[] {
  return rawSql.all<PendingEntry>(db, 'SELECT seq, resource, key, op, v, at, doc FROM changes WHERE seq > ? ORDER BY seq LIMIT ?', [seq, take]);
}

export function newestSeq(db: Db): number {
  return rawSql.get<{ s: number | null }>(db, 'SELECT max(seq) AS s FROM changes', [])?.s ?? 0;
}

export function appliedCatalogVersion(db: Db): number {
  return Number(getMeta(db, CATALOG_APPLIED) ?? 0);
}

export function catalogError(db: Db): { version: number; detail: string } | null {
  const raw = getMeta(db, CATALOG_ERROR);
  return raw ? (JSON.parse(raw) as { version: number; detail: string }) : null;
}

/** A refusal that counts no version (a message that names none of this store's). */
export function setCatalogError(db: Db, error: { version: number; detail: string }): void {
  setMeta(db, CATALOG_ERROR, JSON.stringify(error));
}

/** Inside the transaction that applied (or gave up on) `version`. */
export function setAppliedCatalogVersion(db: Db, version: number, error?: { version: number; detail: string }): void {
  setMeta(db, CATALOG_APPLIED, String(version));
  if (error) setMeta(db, CATALOG_ERROR, JSON.stringify(error));
}

/** HQ names a plu by stock and code; the hub keys it by id. */
export function pluIdByCode(db: Db, stockName: string, code: number): string | undefined {
  return rawSql.get<{ id: string }>(db, 'SELECT id FROM plus WHERE stock_name = ? AND code = ?', [stockName, code])?.id;
}
