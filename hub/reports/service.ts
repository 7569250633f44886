/**
 * Sales reports and a fiscal day's figures (issue 21), answered from the running totals: a year by
 * product sums twelve month rows per product, not a year of tickets. Days are the shop's local days
 * (POS_HUB_TIMEZONE), `from` and `to` both included.
 */
import { errors } from '../http/errors.js';
import { csvDocument, csvNumber, type CsvCell } from '../core/csv.js';
import { fromScaled, toJsonNumber } from '../core/money.js';
import { csvConvention, formatDecimal, t, type Language, type MessageKey } from '../i18n/index.js';
import { inTransaction, type Db } from '../../db/client.js';
import type { Logger } from '../core/log.js';
import { readFiscalStatus } from '../core/fiscal-status.js';
import {
  backfillBatch,
  backfillDone,
  catalogVatRates,
  closedTicketsBetween,
  countsOfDay,
  dailyTotals,
  fiscalDaysBetween,
  fiscalDayTotals,
  lastReportNumbers,
  latestFiscalBucket,
  paymentTypeNames,
  reportsOfDay,
  shiftsBetween,
  sumTotals,
  type StoredRow,
  type SummedRow,
} from './store.js';
import { fromZoned } from '../core/time.js';
import { DAY_MS, isoDay, utcDay } from '../http/members.js';
import { auditSums } from './audit-store.js';
import type { AuditKind } from './audit.js';
import { journalCsv, pohodaRateClasses, pohodaXml, type DaySales, type ExportFormat, type JournalTicket } from './export.js';
import { fiscalBucket, MEASURES, type Dimension, type Measures } from './totals.js';

export const GROUP_BY = ['product', 'category', 'waiter', 'register', 'vat', 'payment', 'hour', 'day', 'month'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

/** Quantities keep 4 places, money 2 (they are sums of 2-place amounts); `tickets` is a count. */
const QUANTITIES = new Set<keyof Measures>(['quantity', 'returnsQuantity', 'voidQuantity']);

/**
 * The measures a row of these groupings holds (reports/totals.ts): a VAT rate's row counts tickets, net
 * and VAT, a payment type's tickets and what was paid. Their CSV leaves the rest out: an accountant read
 * "Gross sales 0,00" beside "Net sales 16,50" as a figure.
 */
const MEASURES_OF: Partial<Record<GroupBy, ReadonlyArray<keyof Measures>>> = {
  vat: ['tickets', 'net', 'vat'],
  payment: ['tickets', 'net'],
};

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
  /** `rounding`: what Slovak cash rounding added to the payments (negative: took off), apart from the sales. */
  totals: ReportMeasures & { vat: number; base: number; rounding: number };
}

/** The longest span a report covers; the accounting export, a year. */
export const MAX_DAYS = 366 * 20;
export const MAX_EXPORT_DAYS = 366;

const utc = utcDay;
const iso = isoDay;
const DAY = DAY_MS;

/**
 * Local days as the routes read them (http/members.ts `localDay`: each the date's UTC midnight), `to`
 * not before `from` and within the route's span (`daySpan`).
 */
export interface DayRange {
  from: number;
  to: number;
}

/** [from, to] as whole months and the day ranges around them. */
export function spanOf(fromMs: number, toMs: number): { months: string[]; days: Array<[string, string]> } {
  const months: string[] = [];
  const days: Array<[string, string]> = [];
  let cur = fromMs;
  while (cur <= toMs) {
    const d = new Date(cur);
    const monthStart = utc(d.getUTCFullYear(), d.getUTCMonth(), 1);
    const nextMonth = utc(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
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
  /** `fiscalDeviceNamed`: whether a fiscal device of that name is set up (the fiscal devices resource's, given by the composition). */
  constructor(
    private readonly db: Db,
    readonly timeZone: string,
    private readonly fiscalDeviceNamed: (name: string) => boolean,
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
    return this.fiscalDeviceNamed(name);
  }

  sales({ from: fromMs, to: toMs, groupBy }: DayRange & { groupBy: GroupBy }): SalesReport {
    const span = spanOf(fromMs, toMs);
    const daysOnly = { months: [], days: [[`d:${iso(fromMs)}`, `d:${iso(toMs)}`]] as Array<[string, string]> };
    const rows =
      groupBy === 'day' || groupBy === 'month'
        ? sumTotals(this.db, 'total', daysOnly, groupBy)
        : sumTotals(this.db, groupBy as Dimension, span);
    const [all] = sumTotals(this.db, 'total', span);
    const totals = all ? measures(all) : measures(Object.fromEntries(MEASURES.map((m) => [m, 0])) as unknown as Measures);
    const types = groupBy === 'payment' ? paymentTypeNames(this.db) : undefined;
    const [rounded] = sumTotals(this.db, 'rounding', span);
    return {
      from: iso(fromMs),
      to: iso(toMs),
      timeZone: this.timeZone,
      groupBy,
      upToDate: backfillDone(this.db),
      rows: sortRows(groupBy, rows.map((r) => present(groupBy, r, types))),
      totals: { ...totals, base: toJsonNumber(fromScaled(all ? all.net - all.vat : 0)), rounding: scaled('net', rounded?.net ?? 0) },
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
      ...(MEASURES_OF[report.groupBy] ?? MEASURES).map((m) => ({ field: m as keyof ReportRow, header: `report.${m}` as MessageKey })),
      ...extra,
    ];
    // Figures are numbers the hub wrote; keys and labels are text (a plu's or a waiter's name), which
    // the CSV helper neutralises where a spreadsheet would run it as a formula (CONTRACT §12).
    const cell = (field: keyof ReportRow, value: unknown): CsvCell => {
      if (typeof value === 'number') {
        if (field === 'tickets') return value;
        // Quantities as exact as they are and no more ("3", "0,35"; not "3,0000"); money to the cent.
        const text = QUANTITIES.has(field as keyof Measures) ? String(value) : formatDecimal(lang, value, 2, false).replace(',', '.');
        return csvNumber(decimalComma ? text.replace('.', ',') : text);
      }
      return value === null || value === undefined ? '' : String(value);
    };
    const rows: CsvCell[][] = [columns.map((c) => t(lang, c.header))];
    for (const row of report.rows) rows.push(columns.map((c) => cell(c.field, c.field === 'label' && row.label === null && report.groupBy === 'category' ? t(lang, 'report.uncategorized') : row[c.field])));
    const totals: Record<string, unknown> = { ...report.totals, key: t(lang, 'report.total'), label: '' };
    rows.push(columns.map((c) => cell(c.field, totals[c.field])));
    return csvDocument(rows, { separator, bom: true });
  }

  fiscalDay(fiscalName: string, number?: number): FiscalDay {
    return fiscalDayFigures(this.db, fiscalName, number);
  }

  /**
   * The sales of local days `from`..`to` for the accountant (issue 28): POHODA's XML import (one
   * internal document a day, a VAT rate an item) from the running totals, or a CSV journal of the
   * closed tickets (a line per ticket and VAT rate). Both exact to the cent, and equal to each other
   * and to the sales report per day and rate.
   */
  /** `ico`: POHODA's accounting unit, digits (the route requires it with `pohoda`). */
  accountingExport({ from: fromMs, to: toMs, format, ico = '' }: DayRange & { format: ExportFormat; ico?: string }, lang: Language): { format: ExportFormat; from: string; to: string; body: string } {
    const [from, to] = [iso(fromMs), iso(toMs)];
    const types = paymentTypeNames(this.db);
    if (format === 'csv') {
      const start = this.localMidnight(fromMs);
      const end = this.localMidnight(toMs + DAY);
      const paymentName = (n: number) => types.get(n)?.name ?? String(n);
      return { format, from, to, body: journalCsv(closedTicketsBetween(this.db, start, end) as unknown as JournalTicket[], { language: lang, timeZone: this.timeZone, paymentName }) };
    }
    const days = new Map<string, DaySales>();
    const dayOf = (day: string) => {
      let d = days.get(day);
      if (!d) days.set(day, (d = { day, tickets: 0, vat: [], payments: [] }));
      return d;
    };
    for (const r of dailyTotals(this.db, 'total', from, to)) if (r.tickets) dayOf(r.day).tickets = r.tickets;
    for (const r of dailyTotals(this.db, 'vat', from, to)) {
      if (!r.tickets) continue;
      const gross = fromScaled(r.net);
      const vat = fromScaled(r.vat);
      dayOf(r.day).vat.push({ rate: Number(r.key), base: gross.minus(vat), vat, gross });
    }
    for (const r of dailyTotals(this.db, 'payment', from, to)) {
      if (r.tickets) dayOf(r.day).payments.push({ name: types.get(Number(r.key))?.name ?? r.label ?? r.key, amount: fromScaled(r.net) });
    }
    const list = [...days.values()].filter((d) => d.vat.length).sort((a, b) => a.day.localeCompare(b.day));
    for (const d of list) d.vat.sort((a, b) => a.rate - b.rate);
    const rateClasses = pohodaRateClasses([...catalogVatRates(this.db), ...list.flatMap((d) => d.vat.map((v) => v.rate))]);
    return { format, from, to, body: pohodaXml(list, { ico, from, to, language: lang, rateClasses }) };
  }

  /** The instant a local day (UTC midnight `ms` names it) begins in the shop's time zone. */
  private localMidnight(ms: number): number {
    const d = new Date(ms);
    return fromZoned({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }, this.timeZone).getTime();
  }

  /**
   * The audit per local day and user (issue 28): voids, deleted items, returns, discounts and price
   * overrides, each as events, quantity and amount; `from` and `to` included.
   */
  audit({ from: fromMs, to: toMs }: DayRange): AuditReport {
    const empty = (): AuditFigures => ({
      voids: { events: 0, quantity: 0, amount: 0 },
      deletes: { events: 0, quantity: 0, amount: 0 },
      returns: { events: 0, quantity: 0, amount: 0 },
      discounts: { events: 0, quantity: 0, amount: 0 },
      priceOverrides: { events: 0, quantity: 0, amount: 0 },
      total: 0,
    });
    // Summed as scaled integers; turned into decimals once.
    const rows = new Map<string, { day: string; userName: string; name: string } & AuditFigures>();
    const totals = empty();
    for (const r of auditSums(this.db, iso(fromMs), iso(toMs))) {
      const field = AUDIT_FIELDS[r.kind as AuditKind];
      if (!field || field === 'total') continue;
      const id = `${r.day}\u0000${r.userName}`;
      let row = rows.get(id);
      if (!row) rows.set(id, (row = { day: r.day, userName: r.userName, name: r.name || r.userName, ...empty() }));
      for (const target of [row, totals]) {
        const f = target[field] as AuditFigure;
        f.events += r.events;
        f.quantity += r.quantity;
        f.amount += r.amount;
        target.total += r.amount;
      }
    }
    const done = <T extends AuditFigures>(f: T): T => {
      const out = { ...f };
      for (const k of Object.values(AUDIT_FIELDS)) {
        const v = f[k] as AuditFigure;
        (out[k] as AuditFigure) = { events: v.events, quantity: scaled('quantity', v.quantity), amount: scaled('net', v.amount) };
      }
      out.total = scaled('net', f.total);
      return out;
    };
    return { from: iso(fromMs), to: iso(toMs), timeZone: this.timeZone, rows: [...rows.values()].map(done), totals: done(totals) };
  }

  /**
   * A local date's fiscal days (issue 28): every fiscal day that had a receipt, a report or a count
   * that day, with its figures, every X and Z report and cash count of it; and the shifts open at
   * any time that day. A day closed by a Z stays the day shown, never the empty day after it.
   */
  /** `ms`: the local day (its UTC midnight, http/members.ts `localDay`). */
  fiscalDays(ms: number): FiscalDaysOn {
    const from = this.localMidnight(ms);
    const to = this.localMidnight(ms + DAY);
    const days = fiscalDaysBetween(this.db, from, to).map(({ fiscalName, number }) => ({
      figures: fiscalDayFigures(this.db, fiscalName, number),
      reports: reportsOfDay(this.db, fiscalName, number),
      cashCounts: countsOfDay(this.db, fiscalName, number),
    }));
    return { date: iso(ms), timeZone: this.timeZone, days, shifts: shiftsBetween(this.db, from, to) };
  }
}

const AUDIT_FIELDS: Record<AuditKind, keyof AuditFigures> = { Void: 'voids', Delete: 'deletes', Return: 'returns', Discount: 'discounts', PriceOverride: 'priceOverrides' };

export interface AuditFigure {
  events: number;
  quantity: number;
  amount: number;
}
export interface AuditFigures {
  voids: AuditFigure;
  deletes: AuditFigure;
  returns: AuditFigure;
  discounts: AuditFigure;
  priceOverrides: AuditFigure;
  /** Every kind's amount together. */
  total: number;
}
export interface AuditReport {
  from: string;
  to: string;
  timeZone: string;
  rows: Array<{ day: string; userName: string; name: string } & AuditFigures>;
  totals: AuditFigures;
}

export interface FiscalDaysOn {
  date: string;
  timeZone: string;
  days: Array<{ figures: FiscalDay; reports: StoredRow[]; cashCounts: StoredRow[] }>;
  shifts: StoredRow[];
}

/**
 * What a fiscal device's day holds (the X report's figures, or a Z's once closed): totals, per
 * payment type and per VAT rate, from the hub's own record of the receipts it had issued. `number`:
 * that day; default the open day as the hub last saw the device, else its latest day with sales.
 */
export function fiscalDayFigures(db: Db, fiscalName: string, number?: number): FiscalDay {
  const open = openFiscalDay(db, fiscalName);
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
  const [rounded] = fiscalDayTotals(db, 'rounding', bucket);
  const vat = fiscalDayTotals(db, 'vat', bucket).map((r) => ({
    rate: Number(r.key),
    base: scaled('net', r.net - r.vat),
    vat: scaled('vat', r.vat),
    gross: scaled('net', r.net),
  }));
  return {
    fiscalName,
    dailySalesReportNumber: day,
    isOpen: open === null ? null : day >= open,
    tickets: total?.tickets ?? 0,
    total: scaled('net', total?.net ?? 0),
    returns: scaled('returns', total?.returns ?? 0),
    discounts: scaled('discounts', total?.discounts ?? 0),
    vatTotal: scaled('vat', total?.vat ?? 0),
    payments: payments.sort((a, b) => a.paymentTypeNumber - b.paymentTypeNumber),
    vat: vat.sort((a, b) => a.rate - b.rate),
    cashSales: scaled('net', cash),
    rounding: scaled('net', rounded?.net ?? 0),
  };
}

/**
 * The device's open fiscal day as far as the hub knows: from its status as last seen, and from the
 * reports it printed (after a Z numbered n the open day is n + 1; an X names the open day). Null:
 * nothing known yet.
 */
export function openFiscalDay(db: Db, fiscalName: string): number | null {
  const seen = readFiscalStatus(db, fiscalName).dailySalesReportNumber;
  const { x, z } = lastReportNumbers(db, fiscalName);
  const known = [seen, x, z === null ? null : z + 1].filter((n): n is number => n !== null);
  return known.length ? Math.max(...known) : null;
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
  /** Slovak cash rounding: what it added to the payments (negative: took off); the payments add up to total + rounding. */
  rounding: number;
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
