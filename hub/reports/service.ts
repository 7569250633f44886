/**
 * Sales reports and a fiscal day's figures (issue 21), answered from the running totals: a year by
 * product sums twelve month rows per product, not a year of tickets. Days are the shop's local days
 * (POS_HUB_TIMEZONE), `from` and `to` both included.
 */
import { errors } from '../http/errors.js';
import { fromScaled, toJsonNumber } from '../core/money.js';
import { csvConvention, formatDecimal, t, type Language, type MessageKey } from '../i18n/index.js';
import { inTransaction, type Db } from '../../db/client.js';
import type { Logger } from '../core/log.js';
import { fiscalDeviceConfig, readFiscalStatus } from '../resources/fiscaldevices/store.js';
import { backfillBatch, backfillDone, fiscalDayTotals, latestFiscalBucket, paymentTypeNames, sumTotals, type SummedRow } from './store.js';
import { fiscalBucket, MEASURES, type Dimension, type Measures } from './totals.js';

export const GROUP_BY = ['product', 'category', 'waiter', 'register', 'vat', 'payment', 'hour', 'day', 'month'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

/** Quantities keep 4 places, money 2 (they are sums of 2-place amounts); `tickets` is a count. */
const QUANTITIES = new Set<keyof Measures>(['quantity', 'returnsQuantity', 'voidQuantity']);

export type ReportMeasures = Record<keyof Measures, number>;
export interface ReportRow extends ReportMeasures {
  key: string;
  label: string | null;
  /** product: the plu; payment: its number and category; vat: the rate and the base (net − vat); hour: 0-23. */
  plu?: { code: number; stockName: string };
  paymentTypeNumber?: number;
  category?: string | null;
  rate?: number;
  base?: number;
  hour?: number;
}

export interface SalesReport {
  from: string;
  to: string;
  timeZone: string;
  groupBy: GroupBy;
  /** False while a store upgraded from a version without running totals is still being counted. */
  upToDate: boolean;
  rows: ReportRow[];
  totals: ReportMeasures & { vat: number; base: number };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MAX_DAYS = 366 * 20;

function parseDay(name: string, value: unknown): number {
  const text = typeof value === 'string' ? value.trim() : '';
  const m = DATE.exec(text);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(m[3])) {
    throw errors.member(name, text ? 'reports.notDate' : 'reports.dateRequired', { value: text ?? '' }, text ? 'Invalid' : 'Required');
  }
  return ms;
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const DAY = 86_400_000;

/** [from, to] as whole months and the day ranges around them. */
export function spanOf(fromMs: number, toMs: number): { months: string[]; days: Array<[string, string]> } {
  const months: string[] = [];
  const days: Array<[string, string]> = [];
  let cur = fromMs;
  while (cur <= toMs) {
    const d = new Date(cur);
    const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    const nextMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    if (cur === monthStart && nextMonth - DAY <= toMs) {
      months.push(`m:${iso(cur).slice(0, 7)}`);
      cur = nextMonth;
      continue;
    }
    const end = Math.min(toMs, nextMonth - DAY);
    days.push([`d:${iso(cur)}`, `d:${iso(end)}`]);
    cur = end + DAY;
  }
  return { months, days };
}

const scaled = (m: keyof Measures, v: number) => (m === 'tickets' ? v : toJsonNumber(fromScaled(v)));

function measures(row: Measures): ReportMeasures {
  return Object.fromEntries(MEASURES.map((m) => [m, scaled(m, row[m])])) as ReportMeasures;
}

export class Reports {
  constructor(
    private readonly db: Db,
    readonly timeZone: string,
  ) {}

  /**
   * Counts the tickets a store closed before it had running totals, a batch per transaction, letting
   * requests in between (a store upgraded with a year of sales: a minute or so, once).
   */
  async backfill(log: Logger, batch = 2000): Promise<void> {
    let counted = 0;
    for (;;) {
      const n = inTransaction(this.db, () => backfillBatch(this.db, this.timeZone, batch));
      if (!n) break;
      counted += n;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (counted) log.info({ tickets: counted }, 'sales totals counted for the tickets closed before they existed');
  }

  fiscalDeviceExists(name: string): boolean {
    return fiscalDeviceConfig(this.db, name) !== undefined;
  }

  sales(query: Record<string, unknown>): SalesReport {
    const q = lowerKeys(query);
    const fromMs = parseDay('from', q.from);
    const toMs = parseDay('to', q.to);
    if (toMs < fromMs) throw errors.member('to', 'reports.toBeforeFrom', { from: iso(fromMs) }, 'OutOfRange');
    if ((toMs - fromMs) / DAY > MAX_DAYS) throw errors.member('to', 'reports.tooLong', {}, 'OutOfRange');
    const raw = typeof q.groupby === 'string' ? q.groupby : 'product';
    const groupBy = GROUP_BY.find((g) => g === raw.toLowerCase());
    if (!groupBy) throw errors.member('groupBy', 'member.notOneOf', { value: raw, values: GROUP_BY.join(', ') });
    const span = spanOf(fromMs, toMs);
    const daysOnly = { months: [], days: [[`d:${iso(fromMs)}`, `d:${iso(toMs)}`]] as Array<[string, string]> };
    const rows =
      groupBy === 'day' || groupBy === 'month'
        ? sumTotals(this.db, 'total', daysOnly, groupBy)
        : sumTotals(this.db, groupBy as Dimension, span);
    const [all] = sumTotals(this.db, 'total', span);
    const totals = all ? measures(all) : measures(Object.fromEntries(MEASURES.map((m) => [m, 0])) as unknown as Measures);
    const types = groupBy === 'payment' ? paymentTypeNames(this.db) : undefined;
    return {
      from: iso(fromMs),
      to: iso(toMs),
      timeZone: this.timeZone,
      groupBy,
      upToDate: backfillDone(this.db),
      rows: sortRows(groupBy, rows.map((r) => present(groupBy, r, types))),
      totals: { ...totals, base: toJsonNumber(fromScaled(all ? all.net - all.vat : 0)) },
    };
  }

  /** The same report as CSV in `lang`'s spreadsheet convention (UTF-8 with a BOM, so Excel reads Š and Č). */
  salesCsv(report: SalesReport, lang: Language): string {
    const { separator, decimalComma } = csvConvention(lang);
    const extra: Array<{ field: keyof ReportRow; header: MessageKey }> =
      report.groupBy === 'vat' ? [{ field: 'base', header: 'report.base' }] : [];
    const columns: Array<{ field: keyof ReportRow; header: MessageKey }> = [
      { field: 'key', header: `report.groupBy.${report.groupBy}` as MessageKey },
      { field: 'label', header: 'report.label' },
      ...MEASURES.map((m) => ({ field: m as keyof ReportRow, header: `report.${m}` as MessageKey })),
      ...extra,
    ];
    const cell = (field: keyof ReportRow, value: unknown): string => {
      if (typeof value === 'number') {
        if (field === 'tickets') return String(value);
        // Quantities as exact as they are and no more ("3", "0,35"; not "3,0000"); money to the cent.
        const text = QUANTITIES.has(field as keyof Measures) ? String(value) : formatDecimal(lang, value, 2, false).replace(',', '.');
        return decimalComma ? text.replace('.', ',') : text;
      }
      const s = value === null || value === undefined ? '' : String(value);
      return /["\r\n]/.test(s) || s.includes(separator) ? `"${s.replace(/"/g, '""')}"` : s;
    };
    const lines = [columns.map((c) => cell('label', t(lang, c.header))).join(separator)];
    for (const row of report.rows) lines.push(columns.map((c) => cell(c.field, c.field === 'label' && row.label === null && report.groupBy === 'category' ? t(lang, 'report.uncategorized') : row[c.field])).join(separator));
    const totals: Record<string, unknown> = { ...report.totals, key: t(lang, 'report.total'), label: '' };
    lines.push(columns.map((c) => cell(c.field, totals[c.field])).join(separator));
    return `\uFEFF${lines.join('\r\n')}\r\n`;
  }

  fiscalDay(fiscalName: string, number?: number): FiscalDay {
    return fiscalDayFigures(this.db, fiscalName, number);
  }
}

/**
 * What a fiscal device's day holds (the X report's figures, or a Z's once closed): totals, per
 * payment type and per VAT rate, from the hub's own record of the receipts it had issued. `number`:
 * that day; default the open day as the hub last saw the device, else its latest day with sales.
 */
export function fiscalDayFigures(db: Db, fiscalName: string, number?: number): FiscalDay {
  const open = readFiscalStatus(db, fiscalName).dailySalesReportNumber;
  const latest = latestFiscalBucket(db, fiscalBucket(fiscalName, 0).slice(0, -10));
  const latestNumber = latest ? Number(latest.slice(-10)) : undefined;
  const day = number ?? Math.max(open ?? 0, latestNumber ?? 0);
  if (!day) throw errors.member('number', 'fiscal.noDayGiveReportNumber', { name: fiscalName }, 'Required');
  const bucket = fiscalBucket(fiscalName, day);
  const [total] = fiscalDayTotals(db, 'total', bucket);
  const types = paymentTypeNames(db);
  const paid = fiscalDayTotals(db, 'payment', bucket).map((r) => ({ row: r, type: types.get(Number(r.key)) }));
  const payments = paid.map(({ row: r, type }) => ({
    paymentTypeNumber: Number(r.key),
    name: type?.name ?? r.label ?? r.key,
    category: type?.category ?? null,
    tickets: r.tickets,
    amount: scaled('net', r.net),
  }));
  // Summed as scaled integers: no float ever adds money up.
  const cash = paid.filter(({ type }) => type?.category === 'Cash').reduce((sum, { row }) => sum + row.net, 0);
  const vat = fiscalDayTotals(db, 'vat', bucket).map((r) => ({
    rate: Number(r.key),
    base: scaled('net', r.net - r.vat),
    vat: scaled('vat', r.vat),
    gross: scaled('net', r.net),
  }));
  return {
    fiscalName,
    dailySalesReportNumber: day,
    isOpen: open === null ? null : open === day,
    tickets: total?.tickets ?? 0,
    total: scaled('net', total?.net ?? 0),
    returns: scaled('returns', total?.returns ?? 0),
    discounts: scaled('discounts', total?.discounts ?? 0),
    vatTotal: scaled('vat', total?.vat ?? 0),
    payments: payments.sort((a, b) => a.paymentTypeNumber - b.paymentTypeNumber),
    vat: vat.sort((a, b) => a.rate - b.rate),
    cashSales: scaled('net', cash),
  };
}

export interface FiscalDay {
  fiscalName: string;
  dailySalesReportNumber: number;
  /** True: the device's open day (an X report's figures); false: closed by a Z; null: the hub has not seen the device's state. */
  isOpen: boolean | null;
  tickets: number;
  total: number;
  returns: number;
  discounts: number;
  vatTotal: number;
  payments: Array<{ paymentTypeNumber: number; name: string; category: string | null; tickets: number; amount: number }>;
  vat: Array<{ rate: number; base: number; vat: number; gross: number }>;
  /** What the Cash-category payment types took in, change deducted: what the drawer should have gained. */
  cashSales: number;
}

function lowerKeys(query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) out[k.toLowerCase()] = Array.isArray(v) ? v[v.length - 1] : v;
  return out;
}

function present(groupBy: GroupBy, r: SummedRow, types?: Map<number, { name: string; category: string }>): ReportRow {
  const row: ReportRow = { key: r.key, label: r.label, ...measures(r) };
  switch (groupBy) {
    case 'product': {
      const slash = r.key.lastIndexOf('/');
      row.plu = { code: Number(r.key.slice(slash + 1)), stockName: r.key.slice(0, slash) };
      break;
    }
    case 'category':
      row.label = r.key || null;
      break;
    case 'payment': {
      const type = types?.get(Number(r.key));
      row.paymentTypeNumber = Number(r.key);
      row.label = type?.name ?? r.label;
      row.category = type?.category ?? null;
      break;
    }
    case 'vat':
      row.rate = Number(r.key);
      row.label = `${r.key} %`;
      row.base = toJsonNumber(fromScaled(r.net - r.vat));
      break;
    case 'hour':
      row.hour = Number(r.key);
      break;
    case 'register':
    case 'day':
    case 'month':
      row.label = r.label ?? r.key;
      break;
    default:
      break;
  }
  return row;
}

function sortRows(groupBy: GroupBy, rows: ReportRow[]): ReportRow[] {
  if (groupBy === 'hour' || groupBy === 'day' || groupBy === 'month') return rows;
  if (groupBy === 'vat' || groupBy === 'payment') return rows.sort((a, b) => Number(a.key) - Number(b.key));
  // Best sellers first.
  return rows.sort((a, b) => b.net - a.net || a.key.localeCompare(b.key));
}
