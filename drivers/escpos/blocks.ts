/**
 * Building blocks the printed layouts share — the kitchen order and bill (hub/printing/layouts.ts)
 * and the escpos fiscal driver's receipt (drivers/fiscal/escpos/receipt.ts): a banner, a labelled
 * row, a priced line, an amount with its currency. Device-level pieces of a PrintDocument.
 */
import type { Block, Style } from './document.js';

/** A mark printed large at the top and bottom: the kitchen must not take a copy for a new order. */
export type PrintMark = 'REPRINT' | 'COPY';

export const BANNER: Style = { align: 'center', bold: true, invert: true, width: 2, height: 2 };
export const banner = (text: string): Block => ({ kind: 'text', text: ` ${text} `, style: BANNER });
export const field = (label: string, value: string | null | undefined): Block[] => (value ? [{ kind: 'row', left: label, right: value }] : []);

/** A priced line: the name, then quantity × unit price (and its discount) with `right` at the edge. */
export function priced(l: { name: string; quantity: string; unitPrice: string; discountRate: string | null }, right: string): Block[] {
  return [
    { kind: 'text', text: l.name },
    { kind: 'row', left: `  ${l.quantity} x ${l.unitPrice}${l.discountRate ? ` -${l.discountRate}%` : ''}`, right },
  ];
}
export const withCurrency = (amount: string, currency: string) => (currency ? `${amount} ${currency}` : amount);
