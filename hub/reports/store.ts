/**
 * The running sales totals' SQL (issue 21). `recordTicketClose` and `recordTicketVoids` run inside the
 * transaction of the close or the ticket write, so a total exists if and only if its sale (or void)
 * does; reports read sums of a few hundred rows per month. Old stores are brought up to date once by
 * `backfillBatch` (tickets closed before this version).
 */
import { rawSql, type Db } from '../../db/client.js';
import { getMeta, setMeta } from '../core/meta-store.js';
import { addClosedTicket, addVoids, MEASURES, TotalsDelta, voidedLines, type ClosedTicket, type Dimension, type Lookups, type Measures } from './totals.js';

const COLUMNS: Record<keyof Measures, string> = {
  tickets: 'tickets',
  quantity: 'quantity',
  gross: 'gross',
  discounts: 'discounts',
  returnsQuantity: 'returns_quantity',
  returns: 'returns',
  net: 'net',
  vat: 'vat',
  voidQuantity: 'void_quantity',
  voids: 'voids',
};
const MEASURE_COLUMNS = MEASURES.map((m) => COLUMNS[m]);

/** Rows one UPSERT statement adds at most (a close adds some 27): a statement text per count, a handful prepared. */
const ROWS_AT_ONCE = 16;
const upserts = new Map<number, string>();
function upsertOf(rows: number): string {
  let text = upserts.get(rows);
  if (!text) {
    const tuple = `(?, ?, ?, ?, ${MEASURE_COLUMNS.map(() => '?').join(', ')})`;
    text = `INSERT INTO sales_totals (dimension, bucket, key, label, ${MEASURE_COLUMNS.join(', ')})
  VALUES ${Array.from({ length: rows }, () => tuple).join(', ')}
  ON CONFLICT (dimension, bucket, key) DO UPDATE SET label = coalesce(excluded.label, label), ${MEASURE_COLUMNS.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}`;
    upserts.set(rows, text);
  }
  return text;
}

/** Adds a delta to the totals (inside the caller's transaction), many rows per statement. */
export function applyDelta(db: Db, delta: TotalsDelta): void {
  const rows = [...delta.values()];
  for (let i = 0; i < rows.length; i += ROWS_AT_ONCE) {
    const part = rows.slice(i, i + ROWS_AT_ONCE);
    const params: Array<string | number | null> = [];
    for (const row of part) {
      params.push(row.dimension, row.bucket, row.key, row.label);
      for (const m of MEASURES) params.push(row.measures[m]);
    }
    rawSql.run(db, upsertOf(part.length), params);
  }
}

/** The plus' categories and VAT rates and the payment types, read once per lookup and kept for the batch. */
export function lookupsOf(db: Db): Lookups {
  const plus = new Map<string, { category: string | null; vatRate: number | null } | undefined>();
  const types = new Map<number, { name: string; isChangeable: boolean } | undefined>();
  return {
    plu(code, stockName) {
      const key = `${stockName}\u0000${code}`;
      if (!plus.has(key)) {
        plus.set(
          key,
          rawSql.get<{ category: string | null; vatRate: number | null }>(
            db,
            "SELECT category, json_extract(doc, '$.vatInfo.rate') AS vatRate FROM plus WHERE stock_name = ? AND code = ?",
            [stockName, code],
          ),
        );
      }
      return plus.get(key);
    },
    paymentType(number) {
      if (!types.has(number)) {
        const row = rawSql.get<{ name: string | null; is_changeable: number }>(db, "SELECT json_extract(doc, '$.name') AS name, is_changeable FROM payment_types WHERE number = ?", [number]);
        types.set(number, row ? { name: row.name ?? String(number), isChangeable: row.is_changeable === 1 } : undefined);
      }
      return types.get(number);
    },
  };
}

/** The close of a ticket, added to the running totals in the close's transaction (`lookups`: the caller's catalog, if it keeps one). */
export function recordTicketClose(db: Db, ticket: object, timeZone: string, lookups: Lookups = lookupsOf(db)): void {
  const delta = new TotalsDelta();
  addClosedTicket(delta, ticket as ClosedTicket, timeZone, lookups);
  applyDelta(db, delta);
}

/** Items a ticket write (a storno) or a delete takes off a ticket, added to the voids in that write's transaction. */
export function recordTicketVoids(
  db: Db,
  items: { before: unknown[]; after: unknown[] },
  by: { at: Date; userName: string; name: string; deviceName: string },
  timeZone: string,
): void {
  const lines = voidedLines(items.before as ClosedTicket['items'], items.after as ClosedTicket['items']);
  if (!lines.length) return;
  const delta = new TotalsDelta();
  addVoids(delta, lines, by, timeZone, lookupsOf(db));
  applyDelta(db, delta);
}

export type SummedRow = { key: string; label: string | null } & Measures;

const SUMS = MEASURES.map((m) => `total(${COLUMNS[m]}) AS ${m}`).join(', ');

/**
 * Sums of one dimension over whole months and day ranges (`d:…` buckets), per key or per bucket
 * (`by: 'day'` the bucket, `by: 'month'` the month of a day bucket). The label is the latest one seen.
 */
export function sumTotals(db: Db, dimension: Dimension, span: { months: string[]; days: Array<[string, string]> }, by: 'key' | 'day' | 'month' = 'key'): SummedRow[] {
  const terms: string[] = [];
  const params: Array<string | number> = [dimension];
  if (span.months.length) {
    terms.push(`bucket IN (${span.months.map(() => '?').join(', ')})`);
    params.push(...span.months);
  }
  for (const [from, to] of span.days) {
    terms.push('bucket BETWEEN ? AND ?');
    params.push(from, to);
  }
  if (!terms.length) return [];
  const group = by === 'key' ? 'key' : by === 'day' ? 'substr(bucket, 3)' : 'substr(bucket, 3, 7)';
  const rows = rawSql.all<SummedRow & { k: string; latest: string }>(
    db,
    // max(bucket) picks the row the bare `label` comes from: the latest bucket's label.
    `SELECT ${group} AS k, label, max(bucket) AS latest, ${SUMS} FROM sales_totals WHERE dimension = ? AND (${terms.join(' OR ')}) GROUP BY k ORDER BY k`,
    params,
  );
  return rows.map(({ k, label, latest: _latest, ...m }) => ({ ...(m as unknown as Measures), key: k, label }));
}

/** One fiscal day's rows of a dimension (total, payment, vat). */
export function fiscalDayTotals(db: Db, dimension: 'total' | 'payment' | 'vat', bucket: string): SummedRow[] {
  return rawSql
    .all<SummedRow>(db, `SELECT key, label, ${SUMS} FROM sales_totals WHERE dimension = ? AND bucket = ? GROUP BY key ORDER BY key`, [dimension, bucket])
    .map((r) => ({ ...r }));
}

/** The newest fiscal-day bucket of a fiscal device (from its sales), or undefined. */
export function latestFiscalBucket(db: Db, prefix: string): string | undefined {
  return rawSql.get<{ b: string | null }>(db, "SELECT max(bucket) AS b FROM sales_totals WHERE dimension = 'total' AND bucket > ? AND bucket < ?", [prefix, `${prefix}\uffff`])?.b ?? undefined;
}

/** Payment types as reports show them. */
export function paymentTypeNames(db: Db): Map<number, { name: string; category: string }> {
  const rows = rawSql.all<{ number: number; name: string | null; category: string }>(db, "SELECT number, json_extract(doc, '$.name') AS name, category FROM payment_types", []);
  return new Map(rows.map((r) => [r.number, { name: r.name ?? String(r.number), category: r.category }]));
}

// --- The one-time backfill of a store that had tickets before the running totals existed. ---

const SINCE = 'reports.since';
const CURSOR = 'reports.backfill';

/** From when closes are counted as they happen (set once, at the first start of this version). */
export function countingSince(db: Db, now: number): number {
  const known = getMeta(db, SINCE);
  if (known !== undefined) return Number(known);
  setMeta(db, SINCE, String(now));
  return now;
}

/** Marks every ticket in the store as counted (a generator that wrote the totals itself). */
export function markCounted(db: Db): void {
  setMeta(db, SINCE, '0');
  setMeta(db, CURSOR, 'done');
}

/** True when no ticket closed before counting began is left to count. */
export function backfillDone(db: Db): boolean {
  const cursor = getMeta(db, CURSOR);
  const since = Number(getMeta(db, SINCE) ?? 0);
  if (cursor === 'done' || since === 0) return true;
  return !rawSql.get(db, 'SELECT 1 AS hit FROM tickets WHERE close_date < ? AND rowid > ? AND is_closed = 1 LIMIT 1', [since, Number(cursor ?? 0)]);
}

/**
 * Adds the next `take` tickets closed before counting began to the totals (one transaction, the
 * caller's). Answers how many it added; 0 when the backfill is complete.
 */
export function backfillBatch(db: Db, timeZone: string, take: number): number {
  const since = Number(getMeta(db, SINCE) ?? 0);
  const cursor = getMeta(db, CURSOR);
  if (cursor === 'done' || since === 0) return 0;
  const after = Number(cursor ?? 0);
  const rows = rawSql.all<{ r: number; doc: string }>(
    db,
    'SELECT rowid AS r, doc FROM tickets WHERE rowid > ? AND is_closed = 1 AND close_date < ? ORDER BY rowid LIMIT ?',
    [after, since, take],
  );
  if (!rows.length) {
    setMeta(db, CURSOR, 'done');
    return 0;
  }
  const delta = new TotalsDelta();
  const lookups = lookupsOf(db);
  for (const row of rows) addClosedTicket(delta, JSON.parse(row.doc) as ClosedTicket, timeZone, lookups);
  applyDelta(db, delta);
  setMeta(db, CURSOR, String(rows[rows.length - 1].r));
  return rows.length;
}
