/**
 * The receipt the `escpos` fiscal driver prints (a plain receipt printer, the hub keeping the
 * numbers): its data from the fiscal interface's Receipt, and its layout.
 */
import { Decimal } from 'decimal.js';
import type { Block, PrintDocument } from '../../escpos/document.js';
import { banner, field, priced, qrCode, withCurrency, type PrintMark, type QrFields } from '../../escpos/blocks.js';
import type { Receipt } from '../types.js';

/**
 * What a receipt's QR code may hold (the `QrCode` setting of an `escpos` fiscal device): {number},
 * {date} (ISO 8601, UTC), {total}, {currency}, {serial} (the hub's id, the receipts' fiscal memory
 * serial number); "true" is all four that identify it.
 */
export const RECEIPT_QR: QrFields = { placeholders: ['number', 'date', 'total', 'currency', 'serial'], whenTrue: '{serial}:{number}:{date}:{total}' };

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
  /** What the QR code above the footer holds (the device's `QrCode` setting filled in), null for none. */
  qr: string | null;
  /** A refund (total below zero): printed as such, so nobody takes it for a sale. */
  refund: boolean;
  /** The receipt a return refunds: its number, time, and its device when another one issued it. */
  refundOf: { number: string; time: string; fiscalName: string | null } | null;
}

export function receipt(r: ReceiptData): PrintDocument {
  const marks: Block[] = r.mark ? [banner(`** ${r.mark} **`)] : [];
  const blocks: Block[] = [...marks, ...r.header.map((h, i): Block => ({ kind: 'text', text: h, style: { align: 'center', bold: i === 0 } }))];
  if (r.refund) blocks.push({ kind: 'text', text: 'REFUND', style: { align: 'center', bold: true, height: 2 } });
  blocks.push({ kind: 'row', left: `Receipt ${r.number}`, right: r.time });
  if (r.refundOf) {
    blocks.push({ kind: 'row', left: `Refund of receipt ${r.refundOf.number}`, right: r.refundOf.time });
    if (r.refundOf.fiscalName) blocks.push(...field('Issued on', r.refundOf.fiscalName));
  }
  blocks.push(...field('Operator', r.operator), { kind: 'rule' });
  for (const l of r.lines) blocks.push(...priced(l, `${l.total} ${l.vatLetter}`));
  blocks.push({ kind: 'rule' });
  if (r.discountRate) blocks.push({ kind: 'row', left: 'Discount', right: `${r.discountRate}%` });
  blocks.push({ kind: 'row', left: 'TOTAL', right: withCurrency(r.total, r.currency), style: { bold: true, height: 2 } });
  for (const p of r.payments) blocks.push({ kind: 'row', left: p.name, right: p.amount });
  if (new Decimal(r.change).gt(0)) blocks.push({ kind: 'row', left: 'Change', right: r.change, style: { bold: true } });
  blocks.push({ kind: 'rule' }, { kind: 'row', left: 'VAT', right: 'Base      VAT' });
  for (const v of r.vat) blocks.push({ kind: 'row', left: `${v.letter} ${v.rate}%`, right: `${v.base.padStart(9)} ${v.vat.padStart(8)}` });
  blocks.push({ kind: 'rule' }, ...qrCode(r.qr), ...r.footer.map((f): Block => ({ kind: 'text', text: f, style: { align: 'center' } })), ...marks);
  return { blocks };
}

/** VAT groups lettered A, B, C… by category number, as receipts print them. */
export const vatLetter = (category: number) => String.fromCharCode(0x41 + Math.max(0, Math.min(25, category - 1)));

/**
 * ReceiptData from the fiscal interface's Receipt: prices include VAT, so each group's VAT is
 * total × rate / (100 + rate), rounded half-up to cents once per group (not per line).
 */
export function receiptData(
  r: Receipt,
  meta: {
    header: string[];
    number: string;
    time: string;
    currency: string;
    footer: string[];
    mark?: PrintMark | null;
    qr?: string | null;
    refundOf?: ReceiptData['refundOf'];
  },
): ReceiptData {
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
    qr: meta.qr ?? null,
    refund: new Decimal(r.total).isNegative(),
    refundOf: meta.refundOf ?? null,
  };
}
