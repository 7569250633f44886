/**
 * Running sales totals (issue 21), pure: what a closed ticket or a void adds to the totals, as a
 * delta of measures per (dimension, bucket, key). The store (store.ts) adds a delta to its table in
 * the transaction of the close or of the ticket write; a report then sums a few hundred rows per
 * month instead of reading a year of tickets.
 *
 * Buckets: the local day (`d:2026-11-21`) and month (`m:2026-11`) of the close in the shop's time zone
 * (POS_HUB_TIMEZONE), and for the fiscal-day figures the fiscal device's day (`f:FP1␟0000000042`).
 * Every amount is an exact decimal kept as an integer × 10^4 (the hub's scaled decimals); what a
 * ticket's own discountRate takes is shared out over its items to the cent (core/vat.ts), so the net
 * sales of the items of a ticket add up to its total, and those of a report to the tickets' totals.
 */
import { dec, mulDivRound, roundMoney, toScaled, unitsOf, unitsToString, type Dec } from '../core/money.js';
import { zonedParts } from '../core/time.js';
import { distributeCents, vatBreakdown } from '../core/vat.js';

/**
 * `rounding`: Slovak cash rounding (an eKasa device, CONTRACT §8), apart from the sales: one row per
 * bucket (key ''), `tickets` the tickets rounded and `net` what the rounding added to the payments
 * (negative: took off). The payment rows hold what was really paid, so they add up to the total's net
 * plus the rounding.
 */
export const DIMENSIONS = ['total', 'product', 'category', 'waiter', 'register', 'vat', 'payment', 'hour', 'rounding'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** Every measure a totals row keeps; amounts and quantities × 10^4. */
export interface Measures {
  tickets: number;
  /** Quantity sold (Positive items). */
  quantity: number;
  /** Positive items at their prices with options, before any discount. */
  gross: number;
  /** What item discounts and the ticket discount took off the positive items. */
  discounts: number;
  returnsQuantity: number;
  /** Negative (returned) items, as a positive amount, after the ticket discount. */
  returns: number;
  /** gross − discounts − returns: what the tickets' totals say (per payment type: what was paid, change deducted). */
  net: number;
  /** VAT in `net` (the `vat` and `total` dimensions). */
  vat: number;
  /** Items cancelled by a storno and the ordered items of deleted tickets, at the time of the void. */
  voidQuantity: number;
  voids: number;
}

export const MEASURES: ReadonlyArray<keyof Measures> = ['tickets', 'quantity', 'gross', 'discounts', 'returnsQuantity', 'returns', 'net', 'vat', 'voidQuantity', 'voids'];

const zero = (): Measures => ({ tickets: 0, quantity: 0, gross: 0, discounts: 0, returnsQuantity: 0, returns: 0, net: 0, vat: 0, voidQuantity: 0, voids: 0 });

export interface TotalsRow {
  dimension: Dimension;
  bucket: string;
  key: string;
  label: string | null;
  measures: Measures;
}

/** Changes to the totals, summed per (dimension, bucket, key) before they are written. */
export class TotalsDelta {
  private readonly rows = new Map<string, TotalsRow>();

  add(dimension: Dimension, buckets: string[], key: string, label: string | null, m: Partial<Measures>): void {
    for (const bucket of buckets) {
      const id = `${dimension}\u0000${bucket}\u0000${key}`;
      let row = this.rows.get(id);
      if (!row) this.rows.set(id, (row = { dimension, bucket, key, label, measures: zero() }));
      if (label !== null) row.label = label;
      for (const k of MEASURES) row.measures[k] += m[k] ?? 0;
    }
  }

  get size(): number {
    return this.rows.size;
  }

  values(): IterableIterator<TotalsRow> {
    return this.rows.values();
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The local day and month buckets of an instant, and its local hour. */
export function calendarOf(at: Date, timeZone: string): { day: string; month: string; hour: string } {
  const p = zonedParts(at, timeZone);
  const month = `${p.year}-${pad(p.month)}`;
  return { day: `d:${month}-${pad(p.day)}`, month: `m:${month}`, hour: pad(p.hour) };
}

/** The bucket of one fiscal device's fiscal day (its dailySalesReportNumber). */
export function fiscalBucket(fiscalName: string, dayNumber: number): string {
  return `f:${fiscalName}\u001f${pad(dayNumber, 10)}`;
}

export const productKey = (plu: { code: number; stockName: string }) => `${plu.stockName}/${plu.code}`;

/** What the totals need to know of a plu, and of a payment type. */
export interface Lookups {
  /** `unitPrice`: the plu's list price now (the audit's price overrides). */
  plu(code: number, stockName: string): { category: string | null; vatRate: number | null; unitPrice?: number | null } | undefined;
  paymentType(number: number): { name: string; isChangeable: boolean } | undefined;
}

interface StoredItem {
  plu: { code: number; stockName: string; name?: string };
  type: 'Positive' | 'Negative';
  quantity: number;
  unitPrice: { amount: number };
  modifiers?: Array<{ unitPrice?: number; quantity?: number }>;
  totalPrice: { amount: number };
}

/** The closed ticket as stored (the fields the totals read). */
export interface ClosedTicket {
  items: StoredItem[];
  discountRate: number;
  totalPrice: { amount: number };
  closeDate: string;
  employee?: { userName?: string; name?: string } | null;
  closeInfo?: { deviceName?: string; fiscalName?: string; dailySalesReportNumber?: number; rounding?: { amount: number } } | null;
  payments?: Array<{ paymentTypeNumber: number; amount: number }>;
  change?: number;
  vatBreakdown?: Array<{ rate: number; vat: number; gross: number }>;
}

const s = (d: Dec) => toScaled(d);
/** Cents as units of the totals (× 10^4). */
const unitsOfCents = (c: bigint) => Number(c * 100n);
const UNITS_PER_CENT = 100n;
const TO_CENTS = 1_000_000n; // units × units → cents

/**
 * Adds one closed ticket to `delta`. Every close runs this, so it counts in scaled integers (issue 31):
 * quantities and prices in units of 10^-4, amounts in cents, products in BigInt — the same figures
 * decimal.js gave, each rounding half away from zero as before.
 */
export function addClosedTicket(delta: TotalsDelta, t: ClosedTicket, timeZone: string, lookups: Lookups): void {
  const cal = calendarOf(new Date(t.closeDate), timeZone);
  const time = [cal.day, cal.month];
  const items = t.items ?? [];
  const nets = distributeCents(
    items.map((i) => mulDivRound(unitsOf(i.totalPrice.amount), 1n, UNITS_PER_CENT)),
    unitsOf(t.discountRate ?? 0),
    mulDivRound(unitsOf(t.totalPrice.amount), 1n, UNITS_PER_CENT),
  );
  const whole = zero();
  whole.tickets = 1;
  const byProduct = new Map<string, { label: string; category: string | null; m: Measures }>();
  items.forEach((item, i) => {
    const net = nets[i];
    const m = zero();
    const quantity = unitsOf(item.quantity);
    if (item.type === 'Negative') {
      m.returnsQuantity = Number(quantity);
      m.returns = unitsOfCents(-net);
    } else {
      let price = unitsOf(item.unitPrice.amount);
      for (const o of item.modifiers ?? []) price += unitsOf(o.unitPrice ?? 0) * BigInt(o.quantity ?? 1);
      const gross = mulDivRound(quantity * price, 1n, TO_CENTS);
      m.quantity = Number(quantity);
      m.gross = unitsOfCents(gross);
      m.discounts = unitsOfCents(gross - net);
    }
    m.net = unitsOfCents(net);
    for (const k of MEASURES) whole[k] += m[k];
    const key = productKey(item.plu);
    const seen = byProduct.get(key);
    if (seen) for (const k of MEASURES) seen.m[k] += m[k];
    else byProduct.set(key, { label: item.plu.name ?? key, category: lookups.plu(item.plu.code, item.plu.stockName)?.category ?? null, m: { ...m, tickets: 1 } });
  });
  // The product rows count the ticket once per product; a category row once per category.
  const byCategory = new Map<string, Measures>();
  for (const [key, p] of byProduct) {
    delta.add('product', time, key, p.label, p.m);
    const c = p.category ?? '';
    const sum = byCategory.get(c) ?? { ...zero(), tickets: 1 };
    for (const k of MEASURES) if (k !== 'tickets') sum[k] += p.m[k];
    byCategory.set(c, sum);
  }
  for (const [c, m] of byCategory) delta.add('category', time, c, c || null, m);

  const vat = t.vatBreakdown ?? vatOf(t, lookups);
  const fiscal = t.closeInfo?.fiscalName ? [fiscalBucket(t.closeInfo.fiscalName, t.closeInfo.dailySalesReportNumber ?? 0)] : [];
  for (const row of vat) {
    const rowVat = Number(unitsOf(row.vat));
    whole.vat += rowVat;
    delta.add('vat', [...time, ...fiscal], unitsToString(unitsOf(row.rate)), null, { tickets: 1, net: Number(unitsOf(row.gross)), vat: rowVat });
  }
  delta.add('total', [...time, ...fiscal], '', null, whole);
  if (t.employee?.userName) delta.add('waiter', time, t.employee.userName, t.employee.name || t.employee.userName, whole);
  if (t.closeInfo?.deviceName) delta.add('register', time, t.closeInfo.deviceName, null, whole);
  delta.add('hour', time, cal.hour, null, whole);
  for (const [number, amount] of paidNetOfChange(t, lookups)) {
    delta.add('payment', [...time, ...fiscal], String(number), lookups.paymentType(number)?.name ?? null, { tickets: 1, net: Number(amount) });
  }
  const rounding = t.closeInfo?.rounding?.amount ?? 0;
  if (rounding !== 0) delta.add('rounding', [...time, ...fiscal], '', null, { tickets: 1, net: s(dec(rounding)) });
}

/** VAT per rate of a ticket stored before tickets kept their own split: from the plus' rates now. */
function vatOf(t: ClosedTicket, lookups: Lookups): Array<{ rate: string; vat: string; gross: string }> {
  const lines = (t.items ?? []).map((i) => ({ vatRate: lookups.plu(i.plu.code, i.plu.stockName)?.vatRate ?? 0, total: i.totalPrice.amount }));
  return vatBreakdown(lines, t.discountRate ?? 0, t.totalPrice.amount);
}

/** What each payment type brought in (units of 10^-4): the change comes back out of the changeable (cash) payments, in order. */
export function paidNetOfChange(t: ClosedTicket, lookups: Lookups): Map<number, bigint> {
  let change = unitsOf(t.change ?? 0);
  const out = new Map<number, bigint>();
  for (const p of t.payments ?? []) {
    let amount = unitsOf(p.amount);
    if (change > 0n && lookups.paymentType(p.paymentTypeNumber)?.isChangeable) {
      const back = change < amount ? change : amount;
      amount -= back;
      change -= back;
    }
    out.set(p.paymentTypeNumber, (out.get(p.paymentTypeNumber) ?? 0n) + amount);
  }
  return out;
}

/** One voided line: a quantity of a plu taken off a ticket (a storno, a deleted ticket), and its value. */
export interface VoidLine {
  plu: { code: number; stockName: string; name?: string };
  quantity: Dec;
  amount: Dec;
}

/** Adds voids made at `at` by `user` on `deviceName` to `delta`. */
export function addVoids(
  delta: TotalsDelta,
  lines: VoidLine[],
  by: { at: Date; userName: string; name: string; deviceName: string },
  timeZone: string,
  lookups: Lookups,
): void {
  if (!lines.length) return;
  const cal = calendarOf(by.at, timeZone);
  const time = [cal.day, cal.month];
  const whole = zero();
  for (const l of lines) {
    const m = { voidQuantity: s(l.quantity), voids: s(l.amount) };
    whole.voidQuantity += m.voidQuantity;
    whole.voids += m.voids;
    delta.add('product', time, productKey(l.plu), l.plu.name ?? null, m);
    const category = lookups.plu(l.plu.code, l.plu.stockName)?.category ?? '';
    delta.add('category', time, category, category || null, m);
  }
  delta.add('total', time, '', null, whole);
  delta.add('waiter', time, by.userName, by.name || by.userName, whole);
  delta.add('register', time, by.deviceName, null, whole);
  delta.add('hour', time, cal.hour, null, whole);
}

/**
 * The positive items a ticket write takes away from what a previous write stored: removed ones, ones
 * whose plu or type changed, and lowered quantities (valued at the item's total per unit, to the cent).
 */
export function voidedLines(before: StoredItem[], after: StoredItem[]): VoidLine[] {
  const now = new Map(after.map((i) => [(i as { id?: number }).id, i]));
  const out: VoidLine[] = [];
  for (const old of before) {
    if (old.type !== 'Positive') continue;
    const cur = now.get((old as { id?: number }).id);
    const same = cur && cur.type === old.type && cur.plu.code === old.plu.code && cur.plu.stockName === old.plu.stockName;
    const was = dec(old.quantity);
    const gone = same ? was.minus(dec(cur.quantity)) : was;
    if (gone.lte(0)) continue;
    out.push({ plu: old.plu, quantity: gone, amount: roundMoney(dec(old.totalPrice.amount).times(gone).div(was)) });
  }
  return out;
}
