/**
 * The three tickets the hub prints: the kitchen order, the preliminary bill, and the receipt the
 * `escpos` fiscal driver prints. Layouts take plain, already formatted data (times in the store's
 * zone, amounts as decimal strings) and return a document; they know nothing of the database.
 */
import { Decimal } from 'decimal.js';
import type { Receipt } from '../fiscal/types.js';
import type { Block, PrintDocument, Style } from './document.js';

/** A mark printed large at the top and bottom: the kitchen must not take a copy for a new order. */
export type PrintMark = 'REPRINT' | 'COPY';

export interface KitchenOrderData extends TicketHeader {
  endpointName: string;
  /** The short order number kitchen staff call out. */
  orderNumber: string;
  kind: 'New' | 'Cancel';
  items: Array<{ name: string; quantity: number; modifiers: Array<{ name: string; quantity: number }>; comment: string | null }>;
  mark: PrintMark | null;
}

/** The order endpoint's settings (CONTRACT §8), parsed from their "true"/"false" strings. */
export interface KitchenSettings {
  beep: boolean;
  highlightOrderNumber: boolean;
  doubleHeight: boolean;
  doubleWidth: boolean;
}

export function kitchenSettings(settings: Record<string, string> | undefined): KitchenSettings {
  const on = (k: string) => (settings?.[k] ?? '').trim().toLowerCase() === 'true';
  return { beep: on('IsBeepEnabled'), highlightOrderNumber: on('HighlightOrderNumber'), doubleHeight: on('DoubleHeightFont'), doubleWidth: on('DoubleWidthFont') };
}

const BANNER: Style = { align: 'center', bold: true, invert: true, width: 2, height: 2 };
const banner = (text: string): Block => ({ kind: 'text', text: ` ${text} `, style: BANNER });
const field = (label: string, value: string | null | undefined): Block[] => (value ? [{ kind: 'row', left: label, right: value }] : []);
const qty = (n: number) => String(n);

/** Where and for whom: the lines under the title of a kitchen order and of a bill. */
interface TicketHeader {
  ticketName: string;
  tableName: string | null;
  zoneName: string | null;
  waiter: string | null;
  /** Local time, formatted by the caller in the store's zone. */
  time: string;
}

function header(h: TicketHeader): Block[] {
  const place = [h.tableName, h.zoneName].filter(Boolean).join(' / ');
  return [...field('Ticket', h.ticketName), ...field('Table', place), ...field('Waiter', h.waiter), ...field('Time', h.time), { kind: 'rule' }];
}

/** A priced line: the name, then quantity × unit price (and its discount) with `right` at the edge. */
function priced(l: { name: string; quantity: string; unitPrice: string; discountRate: string | null }, right: string): Block[] {
  return [
    { kind: 'text', text: l.name },
    { kind: 'row', left: `  ${l.quantity} x ${l.unitPrice}${l.discountRate ? ` -${l.discountRate}%` : ''}`, right },
  ];
}
const withCurrency = (amount: string, currency: string) => (currency ? `${amount} ${currency}` : amount);

export function kitchenOrder(o: KitchenOrderData, s: KitchenSettings): PrintDocument {
  const cancel = o.kind === 'Cancel';
  const itemStyle: Style = { bold: true, width: s.doubleWidth ? 2 : 1, height: s.doubleHeight ? 2 : 1 };
  const detailStyle: Style = { width: itemStyle.width, height: itemStyle.height };
  const marks: Block[] = [...(o.mark ? [banner(`** ${o.mark} **`)] : []), ...(cancel ? [banner('CANCEL')] : [])];

  const blocks: Block[] = [
    ...marks,
    { kind: 'text', text: o.endpointName, style: { align: 'center', bold: true } },
    s.highlightOrderNumber ? { kind: 'text', text: `#${o.orderNumber}`, style: BANNER } : { kind: 'row', left: 'Order', right: `#${o.orderNumber}` },
    ...header(o),
  ];
  for (const item of o.items) {
    // A cancelled line carries its minus sign, so even a torn-off strip reads as a cancellation.
    blocks.push({ kind: 'text', text: `${cancel ? '-' : ''}${qty(item.quantity)} x ${item.name}`, style: itemStyle });
    for (const m of item.modifiers) blocks.push({ kind: 'text', text: `  + ${m.quantity === 1 ? '' : `${qty(m.quantity)} x `}${m.name}`, style: detailStyle });
    if (item.comment) blocks.push({ kind: 'text', text: `  ! ${item.comment}`, style: detailStyle });
  }
  blocks.push({ kind: 'rule' }, ...marks);
  return { blocks, beep: s.beep };
}

export interface BillData extends TicketHeader {
  currency: string;
  lines: Array<{ name: string; quantity: string; unitPrice: string; total: string; discountRate: string | null }>;
  /** Ticket-level discount in percent, null for none. */
  discountRate: string | null;
  total: string;
  requestedBy: string;
}

export function preliminaryBill(b: BillData): PrintDocument {
  const blocks: Block[] = [
    { kind: 'text', text: 'BILL', style: { align: 'center', bold: true, width: 2, height: 2 } },
    { kind: 'text', text: 'Not a fiscal receipt', style: { align: 'center' } },
    ...header(b),
  ];
  for (const l of b.lines) blocks.push(...priced(l, l.total));
  blocks.push({ kind: 'rule' });
  if (b.discountRate) blocks.push({ kind: 'row', left: 'Discount', right: `${b.discountRate}%` });
  blocks.push({ kind: 'row', left: 'TOTAL', right: withCurrency(b.total, b.currency), style: { bold: true, height: 2 } });
  blocks.push({ kind: 'rule' }, { kind: 'text', text: `Printed for ${b.requestedBy}`, style: { align: 'center' } });
  return { blocks };
}

export interface ReceiptData {
  header: string[];
  /** The receipt number as the shop's numbering shows it. */
  number: string;
  time: string;
  operator: string;
  currency: string;
  lines: Array<{ name: string; quantity: string; unitPrice: string; total: string; vatLetter: string; discountRate: string | null }>;
  discountRate: string | null;
  total: string;
  vat: Array<{ letter: string; rate: string; base: string; vat: string }>;
  payments: Array<{ name: string; amount: string }>;
  change: string;
  footer: string[];
  mark: PrintMark | null;
}

export function receipt(r: ReceiptData): PrintDocument {
  const marks: Block[] = r.mark ? [banner(`** ${r.mark} **`)] : [];
  const blocks: Block[] = [...marks, ...r.header.map((h, i): Block => ({ kind: 'text', text: h, style: { align: 'center', bold: i === 0 } }))];
  blocks.push({ kind: 'row', left: `Receipt ${r.number}`, right: r.time }, ...field('Operator', r.operator), { kind: 'rule' });
  for (const l of r.lines) blocks.push(...priced(l, `${l.total} ${l.vatLetter}`));
  blocks.push({ kind: 'rule' });
  if (r.discountRate) blocks.push({ kind: 'row', left: 'Discount', right: `${r.discountRate}%` });
  blocks.push({ kind: 'row', left: 'TOTAL', right: withCurrency(r.total, r.currency), style: { bold: true, height: 2 } });
  for (const p of r.payments) blocks.push({ kind: 'row', left: p.name, right: p.amount });
  if (new Decimal(r.change).gt(0)) blocks.push({ kind: 'row', left: 'Change', right: r.change, style: { bold: true } });
  blocks.push({ kind: 'rule' }, { kind: 'row', left: 'VAT', right: 'Base      VAT' });
  for (const v of r.vat) blocks.push({ kind: 'row', left: `${v.letter} ${v.rate}%`, right: `${v.base.padStart(9)} ${v.vat.padStart(8)}` });
  blocks.push({ kind: 'rule' }, ...r.footer.map((f): Block => ({ kind: 'text', text: f, style: { align: 'center' } })), ...marks);
  return { blocks };
}

/** VAT groups lettered A, B, C… by category number, as receipts print them. */
export const vatLetter = (category: number) => String.fromCharCode(0x41 + Math.max(0, Math.min(25, category - 1)));

/**
 * ReceiptData from the fiscal interface's Receipt: prices include VAT, so each group's VAT is
 * total × rate / (100 + rate), rounded half-up to cents once per group (not per line).
 */
export function receiptData(r: Receipt, meta: { header: string[]; number: string; time: string; currency: string; footer: string[]; mark?: PrintMark | null }): ReceiptData {
  const groups = new Map<number, { rate: Decimal; total: Decimal }>();
  const factor = new Decimal(1).minus(new Decimal(r.discountRate).div(100));
  for (const l of r.lines) {
    const g = groups.get(l.vatCategory) ?? { rate: new Decimal(l.vatRate), total: new Decimal(0) };
    g.total = g.total.plus(new Decimal(l.total).times(factor));
    groups.set(l.vatCategory, g);
  }
  const money = (d: Decimal.Value) => new Decimal(d).toFixed(2, Decimal.ROUND_HALF_UP);
  return {
    header: meta.header,
    number: meta.number,
    time: meta.time,
    operator: r.operator,
    currency: meta.currency,
    lines: r.lines.map((l) => ({
      name: l.name,
      quantity: l.quantity,
      unitPrice: money(l.unitPrice),
      total: money(l.total),
      vatLetter: vatLetter(l.vatCategory),
      discountRate: new Decimal(l.discountRate).isZero() ? null : l.discountRate,
    })),
    discountRate: new Decimal(r.discountRate).isZero() ? null : r.discountRate,
    total: money(r.total),
    vat: [...groups.entries()]
      .sort(([a], [b]) => a - b)
      .map(([category, g]) => {
        const total = new Decimal(money(g.total));
        const vat = new Decimal(money(total.times(g.rate).div(g.rate.plus(100))));
        return { letter: vatLetter(category), rate: g.rate.toString(), base: money(total.minus(vat)), vat: money(vat) };
      }),
    payments: r.payments.map((p) => ({ name: p.name, amount: money(p.amount) })),
    change: money(r.change),
    footer: meta.footer,
    mark: meta.mark ?? null,
  };
}
