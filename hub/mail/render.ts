/**
 * The e-mail receipt: one data model built from the closed ticket and the receipt the fiscal
 * device issued, rendered twice (plain text and HTML) so both parts say exactly the same thing.
 * Pure functions, no I/O: it runs inside the close's transaction, and the result is stored
 * (the e-mail is frozen at the close; a later change of prices or header lines does not alter it).
 * Every amount is an exact decimal printed with 2 places. The words are in the shop's language
 * (POS_HUB_LOCALE), and so is the HTML's `lang`.
 */
import type { EkasaInfo, Receipt } from '../../drivers/fiscal/types.js';
import { D, dec, type Dec } from '../core/money.js';
import type { Doc } from '../engine/define.js';
import { zonedParts } from '../core/time.js';
import { vatBreakdown, type VatRow } from '../core/vat.js';
import type { ShopHeader } from './settings.js';
import { localDecimal, t, type Language, type MessageKey } from '../i18n/index.js';

export interface ReceiptMailLine {
  name: string;
  /** Chosen modifier options, shown under the item. */
  options: string[];
  quantity: string;
  unitPrice: string;
  discountRate: string;
  vatRate: string;
  total: string;
}

export type { VatRow };
export { vatBreakdown };

export interface ReceiptMailData {
  /** The shop's language: the receipt's words and the HTML's `lang`. */
  language: Language;
  shop: ShopHeader;
  ticketId: string;
  ticketName: string | null;
  /** The close time on the shop's wall clock, `2026-11-21 11:00`. */
  closedAt: string;
  currency: string;
  operator: string | null;
  lines: ReceiptMailLine[];
  subtotal: string;
  discountRate: string;
  discount: string;
  total: string;
  vat: VatRow[];
  payments: Array<{ name: string; amount: string }>;
  /** Slovak cash rounding (an eKasa device), signed, e.g. "+0.02"; absent: none. */
  rounding?: string;
  change: string;
  closeInfo: { number: number; dailySalesReportNumber: number; fiscalMemorySerialNumber: string; fiscalName: string; deviceName: string; ekasa?: EkasaInfo };
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

function wallClock(iso: string, timeZone: string): string {
  const p = zonedParts(new Date(iso), timeZone);
  return `${p.year}-${pad2(p.month)}-${pad2(p.day)} ${pad2(p.hour)}:${pad2(p.minute)}`;
}

/** The data of one e-mail receipt, from the closed ticket (as stored) and the receipt the device issued. */
export function receiptMailData(ticket: Doc, receipt: Receipt, shop: ShopHeader, timeZone: string, language: Language = 'en'): ReceiptMailData {
  const items = (ticket.items as Array<{ modifiers?: Array<{ name?: string; quantity?: number }> }>) ?? [];
  const subtotal = receipt.lines.reduce((s, l) => s.plus(dec(l.total)), new D(0));
  const total = dec(receipt.total);
  const closeInfo = ticket.closeInfo as ReceiptMailData['closeInfo'];
  // Amounts with 2 places, every number with the shop's decimal sign ("3,45" in Slovak).
  const num = (plain: string) => localDecimal(language, plain);
  const money = (d: Dec) => num(d.toFixed(2));
  const employee = ticket.employee as { name?: string; userName?: string } | null;
  return {
    language,
    shop,
    ticketId: String(ticket.id),
    ticketName: (ticket.name as string | null) || null,
    closedAt: wallClock(String(ticket.closeDate), timeZone),
    currency: (ticket.currencyLabel as string | null) || '',
    operator: employee?.name || employee?.userName || receipt.operator || null,
    // Receipt lines are made from the ticket's items in order (tickets/close.ts), so index i is item i.
    lines: receipt.lines.map((l, i) => ({
      name: l.name,
      options: (items[i]?.modifiers ?? []).map((m) => (m.quantity && m.quantity > 1 ? `${m.quantity}× ${m.name ?? ''}` : String(m.name ?? ''))),
      quantity: num(dec(l.quantity).toString()),
      unitPrice: money(dec(l.unitPrice)),
      discountRate: num(dec(l.discountRate).toString()),
      vatRate: num(dec(l.vatRate).toString()),
      total: money(dec(l.total)),
    })),
    subtotal: money(subtotal),
    discountRate: num(dec(receipt.discountRate).toString()),
    discount: money(subtotal.minus(total)),
    total: money(total),
    vat: vatBreakdown(receipt.lines, receipt.discountRate, receipt.total).map((v) => ({ rate: num(v.rate), base: num(v.base), vat: num(v.vat), gross: num(v.gross) })),
    payments: receipt.payments.map((p) => ({ name: p.name, amount: money(dec(p.amount)) })),
    ...(receipt.rounding && !dec(receipt.rounding).isZero() ? { rounding: `${dec(receipt.rounding).gt(0) ? '+' : ''}${money(dec(receipt.rounding))}` } : {}),
    change: money(dec(receipt.change)),
    closeInfo: {
      number: closeInfo.number,
      dailySalesReportNumber: closeInfo.dailySalesReportNumber,
      fiscalMemorySerialNumber: closeInfo.fiscalMemorySerialNumber,
      fiscalName: closeInfo.fiscalName,
      deviceName: closeInfo.deviceName,
      ...(closeInfo.ekasa ? { ekasa: closeInfo.ekasa } : {}),
    },
  };
}

const WIDTH = 48;

/** `left ........ right` in WIDTH columns (the right side never cut). */
function row(left: string, right: string): string {
  const room = WIDTH - right.length - 1;
  const l = left.length > room ? `${left.slice(0, Math.max(0, room - 1))}…` : left;
  return `${l}${' '.repeat(Math.max(1, WIDTH - l.length - right.length))}${right}`;
}

function withCurrency(amount: string, currency: string): string {
  return currency ? `${amount} ${currency}` : amount;
}

/** A rate as the receipt shows it (already with the shop's decimal sign) is zero: "0", "0,00". */
const isZero = (shown: string) => /^-?0+([.,]0*)?$/.test(shown);

function discountText(rate: string): string {
  return isZero(rate) ? '' : ` −${rate} %`;
}

/** A Slovak eKasa receipt's identifiers and QR code content, as the law has them on every receipt. */
function ekasaLines(d: ReceiptMailData): string[] {
  const e = d.closeInfo.ekasa;
  if (!e) return [];
  return [
    e.offline ? t(d.language, 'mail.ekasaOffline') : `eKasa UID: ${e.uuid}`,
    ...(e.okp ? [`OKP: ${e.okp}`] : []),
    `QR: ${e.qrCode}`,
  ];
}

/** The receipt's words in its language. */
const sayer =
  (d: ReceiptMailData) =>
  (key: MessageKey, params?: Record<string, string | number>): string =>
    t(d.language, key, params);

/** The lines under the receipt's number: date, ticket, who served. */
function metaLines(d: ReceiptMailData): string[] {
  const say = sayer(d);
  return [`${say('mail.date')}: ${d.closedAt}`, ...(d.ticketName ? [`${say('mail.ticket')}: ${d.ticketName}`] : []), ...(d.operator ? [`${say('mail.servedBy')}: ${d.operator}`] : [])];
}

/** The fiscal identifiers at the foot. */
function fiscalLines(d: ReceiptMailData): string[] {
  const say = sayer(d);
  const c = d.closeInfo;
  return [
    say('mail.fiscalReceipt', { number: c.number, report: c.dailySalesReportNumber }),
    say('mail.fiscalMemory', { serial: c.fiscalMemorySerialNumber, name: c.fiscalName, device: c.deviceName }),
    ...ekasaLines(d),
    `${say('mail.ticket')} ${d.ticketId}`,
  ];
}

export function renderText(d: ReceiptMailData): string {
  const say = sayer(d);
  const out: string[] = [d.shop.name, ...d.shop.addressLines, ''];
  out.push(say('mail.receiptNo', { number: d.closeInfo.number }), ...metaLines(d));
  out.push('-'.repeat(WIDTH));
  for (const l of d.lines) {
    out.push(row(l.name, l.total));
    for (const o of l.options) out.push(`  + ${o}`);
    out.push(`  ${l.quantity} × ${l.unitPrice}${discountText(l.discountRate)}  ${say('mail.vat')} ${l.vatRate} %`);
  }
  out.push('-'.repeat(WIDTH));
  if (!isZero(d.discountRate)) {
    out.push(row(say('mail.subtotal'), d.subtotal), row(say('mail.discount', { rate: d.discountRate }), `−${d.discount}`));
  }
  out.push(row(say('mail.TOTAL'), withCurrency(d.total, d.currency)), '');
  out.push(row(say('mail.vatRate'), say('mail.vatColumns')));
  for (const v of d.vat) out.push(row(`  ${v.rate} %`, `${v.base} / ${v.vat} / ${v.gross}`));
  out.push('');
  if (d.rounding) out.push(row(say('mail.rounding'), d.rounding));
  for (const p of d.payments) out.push(row(p.name, p.amount));
  out.push(row(say('mail.change'), d.change));
  out.push('-'.repeat(WIDTH));
  out.push(...fiscalLines(d));
  if (d.shop.footerLines.length) out.push('', ...d.shop.footerLines);
  return `${out.join('\n')}\n`;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const TD = 'padding:2px 6px;vertical-align:top';
const NUM = `${TD};text-align:right;white-space:nowrap`;

export function renderHtml(d: ReceiptMailData): string {
  const say = sayer(d);
  const lines = d.lines
    .map(
      (l) =>
        `<tr><td style="${TD}">${esc(l.name)}${l.options.map((o) => `<br><small>+ ${esc(o)}</small>`).join('')}</td>` +
        `<td style="${NUM}">${esc(l.quantity)} × ${esc(l.unitPrice)}${esc(discountText(l.discountRate))}</td>` +
        `<td style="${NUM}">${esc(l.vatRate)} %</td><td style="${NUM}">${esc(l.total)}</td></tr>`,
    )
    .join('\n');
  const discount = isZero(d.discountRate)
    ? ''
    : `<tr><td colspan="3" style="${TD}">${esc(say('mail.subtotal'))}</td><td style="${NUM}">${esc(d.subtotal)}</td></tr>\n` +
      `<tr><td colspan="3" style="${TD}">${esc(say('mail.discount', { rate: d.discountRate }))}</td><td style="${NUM}">−${esc(d.discount)}</td></tr>\n`;
  const vat = d.vat
    .map((v) => `<tr><td style="${TD}">${esc(v.rate)} %</td><td style="${NUM}">${esc(v.base)}</td><td style="${NUM}">${esc(v.vat)}</td><td style="${NUM}">${esc(v.gross)}</td></tr>`)
    .join('\n');
  const rounding = d.rounding ? `<tr><td style="${TD}">${esc(say('mail.rounding'))}</td><td style="${NUM}">${esc(d.rounding)}</td></tr>\n` : '';
  const payments = d.payments.map((p) => `<tr><td style="${TD}">${esc(p.name)}</td><td style="${NUM}">${esc(p.amount)}</td></tr>`).join('\n');
  return `<!doctype html>
<html lang="${d.language}"><head><meta charset="utf-8"><title>${esc(subject(d))}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#111;max-width:560px;margin:0 auto;padding:16px">
<h1 style="font-size:20px;margin:0 0 4px">${esc(d.shop.name)}</h1>
${d.shop.addressLines.map((a) => `<div>${esc(a)}</div>`).join('\n')}
<h2 style="font-size:16px;margin:16px 0 4px">${esc(say('mail.receiptNo', { number: d.closeInfo.number }))}</h2>
${metaLines(d).map((m) => `<div>${esc(m)}</div>`).join('\n')}
<table style="border-collapse:collapse;width:100%;margin-top:12px">
<thead><tr><th style="${TD};text-align:left">${esc(say('mail.item'))}</th><th style="${NUM}">${esc(say('mail.qtyPrice'))}</th><th style="${NUM}">${esc(say('mail.vat'))}</th><th style="${NUM}">${esc(say('mail.total'))}</th></tr></thead>
<tbody>
${lines}
</tbody>
<tfoot>
${discount}<tr><td colspan="3" style="${TD};font-weight:bold;border-top:1px solid #999">${esc(say('mail.TOTAL'))}</td><td style="${NUM};font-weight:bold;border-top:1px solid #999">${esc(withCurrency(d.total, d.currency))}</td></tr>
</tfoot>
</table>
<table style="border-collapse:collapse;margin-top:12px">
<thead><tr><th style="${TD};text-align:left">${esc(say('mail.vatRate'))}</th><th style="${NUM}">${esc(say('mail.base'))}</th><th style="${NUM}">${esc(say('mail.vat'))}</th><th style="${NUM}">${esc(say('mail.total'))}</th></tr></thead>
<tbody>
${vat}
</tbody>
</table>
<table style="border-collapse:collapse;margin-top:12px">
<tbody>
${rounding}${payments}
<tr><td style="${TD}">${esc(say('mail.change'))}</td><td style="${NUM}">${esc(d.change)}</td></tr>
</tbody>
</table>
<p style="font-size:12px;color:#555;margin-top:16px">${fiscalLines(d).map(esc).join('<br>\n')}</p>
${d.shop.footerLines.map((f) => `<p style="margin:4px 0">${esc(f)}</p>`).join('\n')}
</body></html>
`;
}

function subject(d: ReceiptMailData): string {
  return t(d.language, 'mail.subject', { number: d.closeInfo.number, shop: d.shop.name });
}

export function renderReceipt(d: ReceiptMailData): RenderedMail {
  return { subject: subject(d), text: renderText(d), html: renderHtml(d) };
}
