/**
 * Building blocks the printed layouts share — the kitchen order and bill (hub/printing/layouts.ts)
 * and the escpos fiscal driver's receipt (drivers/fiscal/escpos/receipt.ts): a banner, a labelled
 * row, a priced line, an amount with its currency, a QR code from a `QrCode` setting. Device-level
 * pieces of a PrintDocument.
 */
import type { Block, Style } from './document.js';
import { printable } from './encoding.js';

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

/** What a `QrCode` setting may name in braces, and what "true" stands for. */
export interface QrFields {
  placeholders: readonly string[];
  whenTrue: string;
}

const MAX_QR = 300;

/**
 * A `QrCode` setting read: absent, "" or "false" prints no QR code; "true" prints `fields.whenTrue`;
 * any other text is the content, e.g. `https://example.sk/pay/{ticket}`, its placeholders filled in
 * at print time. Printable ASCII only (a URL, an id): the printers' QR commands take bytes, and
 * a code no phone reads is better refused when the setting is saved than found on paper.
 */
/** A QrCode setting refused: which rule and with what, for the hub to say in its caller's language (`qr.<fault>`). */
export class QrTemplateError extends Error {
  constructor(
    message: string,
    readonly fault: 'notAscii' | 'tooLong' | 'placeholder',
    readonly params: Record<string, string | number>,
  ) {
    super(message);
  }
}

export function qrTemplate(setting: string | undefined, fields: QrFields): string | null {
  const v = (setting ?? '').trim();
  if (v === '' || v.toLowerCase() === 'false') return null;
  if (v.toLowerCase() === 'true') return fields.whenTrue;
  if (!/^[\x20-\x7e]+$/.test(v)) throw new QrTemplateError(`QrCode: printable ASCII only (a URL, an id), not '${v}'`, 'notAscii', { value: v });
  if (v.length > MAX_QR) throw new QrTemplateError(`QrCode: at most ${MAX_QR} characters`, 'tooLong', { max: MAX_QR });
  for (const [, name] of v.matchAll(/\{([^}]*)\}/g)) {
    if (!fields.placeholders.includes(name)) {
      const known = fields.placeholders.map((p) => `{${p}}`).join(', ');
      throw new QrTemplateError(`QrCode: unknown placeholder {${name}} (known: ${known})`, 'placeholder', { name, known });
    }
  }
  return v;
}

/** `template` with its placeholders filled in (as ASCII): the QR code's content; null without a template. */
export function fillQr(template: string | null, values: Record<string, string>): string | null {
  return template && template.replace(/\{(\w+)\}/g, (_, name: string) => printable(values[name] ?? '', 'ascii'));
}

/** A centred QR code holding `data`, or nothing for null. */
export const qrCode = (data: string | null): Block[] => (data ? [{ kind: 'qr', data }] : []);
