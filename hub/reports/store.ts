/**
 * The running sales totals' SQL (issue 21). `recordTicketClose` and `recordTicketVoids` run inside the
 * transaction of the close or the ticket write, so a total exists if and only if its sale (or void)
 * does; reports read sums of a few hundred rows per month. Each closed ticket carries a mark
 * (`sales_counted`) set in the transaction that adds it: the backfill (`backfillBatch`) counts exactly
 * the closed tickets without it — those of a store upgraded from a version without totals, or of one
 * whose totals migration 0016 rebuilt (issue 28: an earlier backfill chose by closeDate and counted
 * back-dated tickets twice).
 */
import { rawSql, type Db } from '../../db/client.js';
import { newId } from '../core/ids.js';
import { closeEvents, voidEvents } from './audit.js';
import { forgetCloseEvents, insertAuditEvents } from './audit-store.js';
import { recordShiftSale } from './drawer-store.js';
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
  const plus = new Map<string, { category: string | null; vatRate: number | null; unitPrice: number | null } | undefined>();
  const types = new Map<number, { name: string; isChangeable: boolean } | undefined>();
  return {
    plu(code, stockName) {
      const key = `${stockName}\u0000${code}`;
      if (!plus.has(key)) {
        plus.set(
          key,
          rawSql.get<{ category: string | null; vatRate: number | null; unitPrice: number | null }>(
            db,
            "SELECT category, json_extract(doc, '$.vatInfo.rate') AS vatRate, json_extract(doc, '$.unitPrice.amount') AS unitPrice FROM plus WHERE stock_name = ? AND code = ?",
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

/**
 * The close of a ticket, added to the running totals in the close's transaction, and the ticket
 * marked as counted in the same transaction: a ticket counts once because it is marked, whatever its
 * dates say. Answers false (and adds nothing) for a ticket counted already. `lookups`: the caller's
 * catalog, if it keeps one.
 */
export function recordTicketClose(db: Db, ticket: ClosedTicket & AuditedTicket, timeZone: string, lookups: Lookups = lookupsOf(db)): boolean {
  if (!markCounted(db, ticket.id)) return false;
  const delta = new TotalsDelta();
  addClosedTicket(delta, ticket, timeZone, lookups);
  applyDelta(db, delta);
  insertAuditEvents(db, closeEvents(ticket, timeZone, lookups, newId, { priceOverrides: true }));
  // The drawer of the register it closed on takes its cash now, in the shift open now (issue 28).
  recordShiftSale(db, ticket, lookups);
  return true;
}

type AuditedTicket = Parameters<typeof closeEvents>[0];

/** Marks a closed ticket as counted; false when it was already (or is not closed). */
function markCounted(db: Db, id: string): boolean {
  return rawSql.run(db, 'UPDATE tickets SET sales_counted = 1 WHERE id = ? AND is_closed = 1 AND sales_counted = 0', [id]).changes === 1;
}

/**
 * Items a ticket write (a storno) or a delete (`deleted`) takes off a ticket, added to the voids and
 * to the audit in that write's transaction.
 */
export function recordTicketVoids(
  db: Db,
  ticket: { id: string; name?: string | null; location?: { tableName?: string | null } | null },
  items: { before: ClosedTicket['items']; after: ClosedTicket['items'] },
  by: { at: Date; userName: string; name: string; deviceName: string },
  timeZone: string,
  deleted = false,
): void {
  const lines = voidedLines(items.before, items.after);
  if (!lines.length) return;
  const delta = new TotalsDelta();
  addVoids(delta, lines, by, timeZone, lookupsOf(db));
  applyDelta(db, delta);
  insertAuditEvents(db, voidEvents(lines, ticket, by, deleted, timeZone, newId));
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

/** One fiscal day's rows of a dimension (total, payment, vat, rounding). */
export function fiscalDayTotals(db: Db, dimension: 'total' | 'payment' | 'vat' | 'rounding', bucket: string): SummedRow[] {
  return rawSql
    .all<SummedRow>(db, `SELECT key, label, ${SUMS} FROM sales_totals WHERE dimension = ? AND bucket = ? GROUP BY key ORDER BY key`, [dimension, bucket])
    .map((r) => ({ ...r }));
}

/** The newest fiscal-day bucket of a fiscal device (from its sales), or undefined. */
export function latestFiscalBucket(db: Db, prefix: string): string | undefined {
  return rawSql.get<{ b: string | null }>(db, "SELECT max(bucket) AS b FROM sales_totals WHERE dimension = 'total' AND bucket > ? AND bucket < ?", [prefix, `${prefix}\uffff`])?.b ?? undefined;
}

/** The highest fiscal days of a device's recorded X and Z reports. */
export function lastReportNumbers(db: Db, fiscalName: string): { x: number | null; z: number | null } {
  const row = rawSql.get<{ x: number | null; z: number | null }>(
    db,
    "SELECT max(CASE WHEN kind = 'X' THEN number END) AS x, max(CASE WHEN kind = 'Z' THEN number END) AS z FROM fiscal_reports WHERE fiscal_name = ?",
    [fiscalName],
  );
  return { x: row?.x ?? null, z: row?.z ?? null };
}

// --- Accounting exports (issue 28): a range's figures per local day, and its closed tickets. ---

/** One dimension's rows per local day and key over [from, to] (YYYY-MM-DD, both included). */
export function dailyTotals(db: Db, dimension: 'total' | 'vat' | 'payment', from: string, to: string): Array<{ day: string } & SummedRow> {
  return rawSql.all<{ day: string } & SummedRow>(
    db,
    `SELECT substr(bucket, 3) AS day, key, label, ${SUMS} FROM sales_totals WHERE dimension = ? AND bucket BETWEEN ? AND ? GROUP BY bucket, key ORDER BY bucket, key`,
    [dimension, `d:${from}`, `d:${to}`],
  );
}

/** The closed tickets of [from, to) (epoch ms), in the order they closed; from the close_date index. */
export function closedTicketsBetween(db: Db, from: number, to: number): Array<Record<string, unknown>> {
  return rawSql
    .all<{ doc: string }>(db, 'SELECT doc FROM tickets WHERE close_date >= ? AND close_date < ? ORDER BY close_date, id', [from, to])
    .map((r) => JSON.parse(r.doc) as Record<string, unknown>);
}

/** Every VAT rate of the catalog's plus. */
export function catalogVatRates(db: Db): number[] {
  return rawSql.all<{ rate: number }>(db, "SELECT DISTINCT json_extract(doc, '$.vatInfo.rate') AS rate FROM plus WHERE json_extract(doc, '$.vatInfo.rate') IS NOT NULL", []).map((r) => r.rate);
}

// --- A fiscal day's history (issue 28): the days with something on a date, and what each holds. ---

/** A stored resource row as the engine presents it. */
export interface StoredRow {
  doc: Record<string, unknown>;
  v: number;
}
const rows = (list: Array<{ doc: string; v: number }>): StoredRow[] => list.map((r) => ({ doc: JSON.parse(r.doc) as Record<string, unknown>, v: r.v }));

/**
 * The fiscal days that had anything in [from, to) (epoch ms): a receipt, an X or Z report, a cash
 * count. From the indexes on close_date, taken_at and counted_at: a day's rows, not the tables.
 */
export function fiscalDaysBetween(db: Db, from: number, to: number): Array<{ fiscalName: string; number: number }> {
  return rawSql.all<{ fiscalName: string; number: number }>(
    db,
    `SELECT close_fiscal_name AS fiscalName, close_daily_sales_report_number AS number FROM tickets
       WHERE close_date >= ? AND close_date < ? AND close_fiscal_name IS NOT NULL AND close_daily_sales_report_number IS NOT NULL
     UNION SELECT fiscal_name, number FROM fiscal_reports WHERE taken_at >= ? AND taken_at < ?
     UNION SELECT fiscal_name, day_number FROM cash_counts WHERE counted_at >= ? AND counted_at < ? AND fiscal_name <> '' AND day_number > 0
     ORDER BY 1, 2`,
    [from, to, from, to, from, to],
  );
}

/** Every X and Z report of one fiscal day, in the order they were taken. */
export function reportsOfDay(db: Db, fiscalName: string, number: number): StoredRow[] {
  return rows(rawSql.all(db, 'SELECT doc, v FROM fiscal_reports WHERE fiscal_name = ? AND number = ? ORDER BY taken_at, rowid', [fiscalName, number]));
}

/** Every cash count of one fiscal day (of a fiscal day, or of a shift of a register printing on it). */
export function countsOfDay(db: Db, fiscalName: string, number: number): StoredRow[] {
  return rows(rawSql.all(db, 'SELECT doc, v FROM cash_counts WHERE fiscal_name = ? AND day_number = ? ORDER BY counted_at, rowid', [fiscalName, number]));
}

/** How long a shift may stay open and still be found by the days it spans (a register left open over a long weekend). */
const LONGEST_SHIFT_MS = 14 * 86_400_000;

/** The shifts open at any time in [from, to): opened before `to` and not closed before `from`. */
export function shiftsBetween(db: Db, from: number, to: number): StoredRow[] {
  return rows(
    rawSql.all(
      db,
      `SELECT doc, v FROM shifts WHERE opened_at >= ? AND opened_at < ? AND (closed_at IS NULL OR closed_at >= ?)
       UNION ALL SELECT doc, v FROM shifts INDEXED BY shifts_one_open WHERE is_open = 1 AND opened_at < ?`,
      [from - LONGEST_SHIFT_MS, to, from, from - LONGEST_SHIFT_MS],
    ),
  ).sort((a, b) => String(a.doc.openedAt).localeCompare(String(b.doc.openedAt)));
}

/** Payment types as reports show them. */
export function paymentTypeNames(db: Db): Map<number, { name: string; category: string }> {
  const rows = rawSql.all<{ number: number; name: string | null; category: string }>(db, "SELECT number, json_extract(doc, '$.name') AS name, category FROM payment_types", []);
  return new Map(rows.map((r) => [r.number, { name: r.name ?? String(r.number), category: r.category }]));
}

// --- The backfill: closed tickets not yet in the totals (an upgraded store, a repaired one). ---

/**
 * Marks every closed ticket as counted, for a generator that wrote their totals itself
 * (scripts/generate-store.ts); tickets it leaves open are counted when they close.
 */
export function markAllCounted(db: Db): void {
  rawSql.run(db, 'UPDATE tickets SET sales_counted = 1 WHERE is_closed = 1 AND sales_counted = 0', []);
}

// Served by the partial index tickets_uncounted, which holds only the closed tickets not yet counted
// (none, once a store is counted). Named: without statistics SQLite's planner prefers an index on
// is_closed alone and would read every closed ticket; the condition is the index's own, as it must be.
const UNCOUNTED = 'tickets INDEXED BY tickets_uncounted WHERE is_closed = 1 AND sales_counted = 0';

/** True when every closed ticket is in the totals. */
export function backfillDone(db: Db): boolean {
  return !rawSql.get(db, `SELECT 1 AS hit FROM ${UNCOUNTED} LIMIT 1`, []);
}

/**
 * Adds up to `take` closed tickets not yet counted to the totals and marks them, in one transaction
 * (the caller's): a stop between two batches leaves each ticket either counted and marked, or
 * neither. Answers how many it added; 0 when none is left.
 */
export function backfillBatch(db: Db, timeZone: string, take: number): number {
  const rows = rawSql.all<{ id: string; doc: string }>(db, `SELECT id, doc FROM ${UNCOUNTED} LIMIT ?`, [take]);
  const delta = new TotalsDelta();
  const lookups = lookupsOf(db);
  let counted = 0;
  for (const row of rows) {
    if (!markCounted(db, row.id)) continue;
    const ticket = JSON.parse(row.doc) as AuditedTicket;
    addClosedTicket(delta, ticket, timeZone, lookups);
    // A ticket counted again after a rebuild of the totals (migration 0016) keeps one audit of its close.
    forgetCloseEvents(db, row.id);
    insertAuditEvents(db, closeEvents(ticket, timeZone, lookups, newId, { priceOverrides: false }));
    counted++;
  }
  applyDelta(db, delta);
  return counted;
}
