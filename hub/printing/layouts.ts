/**
 * What the hub prints on kitchen printers: the kitchen order and the preliminary bill. Layouts take
 * plain, already formatted data (times in the store's zone, amounts as decimal strings) and return a
 * document for the ESC/POS encoder; they know nothing of the database. Their words and amounts are in
 * the shop's language (POS_HUB_LOCALE): kitchen staff read "Stôl 4", not "Table 4".
 */
import type { Block, PrintDocument, Style } from '../../drivers/escpos/document.js';
import { BANNER, banner, field, priced, qrCode, withCurrency, type PrintMark } from '../../drivers/escpos/blocks.js';
import { formatDecimal, t, type Language } from '../i18n/index.js';

export type { PrintMark };

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

const qty = (n: number) => String(n);

/** Where and for whom: the lines under the title of a kitchen order and of a bill. */
export interface TicketHeader {
  ticketName: string;
  tableName: string | null;
  zoneName: string | null;
  waiter: string | null;
  /** Local time, formatted by the caller in the store's zone. */
  time: string;
  /** The shop's language: the printed words and the amounts' decimal sign. */
  language: Language;
}

function header(h: TicketHeader): Block[] {
  const place = [h.tableName, h.zoneName].filter(Boolean).join(' / ');
  const say = (key: 'print.ticket' | 'print.table' | 'print.waiter' | 'print.time') => t(h.language, key);
  return [...field(say('print.ticket'), h.ticketName), ...field(say('print.table'), place), ...field(say('print.waiter'), h.waiter), ...field(say('print.time'), h.time), { kind: 'rule' }];
}

const MARK_WORDS = { COPY: 'print.copy', REPRINT: 'print.reprint' } as const satisfies Record<PrintMark, string>;

export function kitchenOrder(o: KitchenOrderData, s: KitchenSettings): PrintDocument {
  const cancel = o.kind === 'Cancel';
  const itemStyle: Style = { bold: true, width: s.doubleWidth ? 2 : 1, height: s.doubleHeight ? 2 : 1 };
  const detailStyle: Style = { width: itemStyle.width, height: itemStyle.height };
  const marks: Block[] = [...(o.mark ? [banner(`** ${t(o.language, MARK_WORDS[o.mark])} **`)] : []), ...(cancel ? [banner(t(o.language, 'print.cancel'))] : [])];

  const blocks: Block[] = [
    ...marks,
    { kind: 'text', text: o.endpointName, style: { align: 'center', bold: true } },
    s.highlightOrderNumber ? { kind: 'text', text: `#${o.orderNumber}`, style: BANNER } : { kind: 'row', left: t(o.language, 'print.order'), right: `#${o.orderNumber}` },
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
  /** unitPrice: of one, its options included; options: each chosen one with its own price (per one). */
  lines: Array<{ name: string; quantity: string; unitPrice: string; total: string; discountRate: string | null; options?: Array<{ name: string; quantity: number; unitPrice: string }> }>;
  /** Ticket-level discount in percent, null for none. */
  discountRate: string | null;
  total: string;
  requestedBy: string;
  /** What the QR code at the foot holds (the endpoint's `QrCode` setting filled in), null for none. */
  qr: string | null;
}

export function preliminaryBill(b: BillData): PrintDocument {
  const lang = b.language;
  const blocks: Block[] = [
    { kind: 'text', text: t(lang, 'print.bill'), style: { align: 'center', bold: true, width: 2, height: 2 } },
    { kind: 'text', text: t(lang, 'print.notFiscal'), style: { align: 'center' } },
    ...header(b),
    ...billBody(b),
  ];
  blocks.push({ kind: 'rule' }, { kind: 'text', text: t(lang, 'print.printedFor', { name: b.requestedBy }), style: { align: 'center' } }, ...qrCode(b.qr));
  return { blocks };
}

/** The priced lines, the ticket discount and the total: what a bill and a receipt copy share. */
function billBody(b: Omit<BillData, 'qr'>): Block[] {
  const amount = (v: string) => formatDecimal(b.language, v);
  const blocks: Block[] = [];
  for (const l of b.lines) {
    const [name, row] = priced({ ...l, unitPrice: amount(l.unitPrice) }, amount(l.total));
    // The chosen options under their item, each with its price, so the line's price adds up on paper.
    const options: Block[] = (l.options ?? []).map((o) => ({
      kind: 'row',
      left: `  + ${o.quantity === 1 ? '' : `${qty(o.quantity)} x `}${o.name}`,
      right: Number(o.unitPrice) === 0 ? '' : amount(o.unitPrice),
    }));
    blocks.push(name, ...options, row);
  }
  blocks.push({ kind: 'rule' });
  if (b.discountRate) blocks.push({ kind: 'row', left: t(b.language, 'print.discount'), right: `${b.discountRate}%` });
  blocks.push({ kind: 'row', left: t(b.language, 'print.total'), right: withCurrency(amount(b.total), b.currency), style: { bold: true, height: 2 } });
  return blocks;
}

export interface ReceiptCopyData extends Omit<BillData, 'qr'> {
  payments: Array<{ name: string; amount: string }>;
  change: string | null;
  /** The fiscal close (the ticket's closeInfo): the numbers that identify the original receipt. */
  fiscal: { fiscalName: string; number: number; dailySalesReportNumber: number; deviceName: string };
}

/**
 * A copy of a closed ticket's receipt on a kitchen or bill printer (POST /api/tickets/{id}/print_receipt_copy):
 * the bill layout plus the payments, the change and the fiscal numbers of the original, between COPY
 * banners and under "not a fiscal receipt", so nobody can take it for a second receipt.
 */
export function receiptCopy(c: ReceiptCopyData): PrintDocument {
  const lang = c.language;
  const amount = (v: string) => formatDecimal(lang, v);
  const mark = banner(`** ${t(lang, MARK_WORDS.COPY)} **`);
  const blocks: Block[] = [
    mark,
    { kind: 'text', text: t(lang, 'print.receiptCopy'), style: { align: 'center', bold: true, width: 2, height: 2 } },
    { kind: 'text', text: t(lang, 'print.notFiscal'), style: { align: 'center' } },
    ...header(c),
    ...billBody(c),
  ];
  for (const p of c.payments) blocks.push({ kind: 'row', left: p.name, right: withCurrency(amount(p.amount), c.currency) });
  if (c.change) blocks.push({ kind: 'row', left: t(lang, 'print.change'), right: withCurrency(amount(c.change), c.currency) });
  blocks.push(
    { kind: 'rule' },
    ...field(t(lang, 'print.fiscalDevice'), c.fiscal.fiscalName),
    ...field(t(lang, 'print.receiptNumber'), String(c.fiscal.number)),
    ...field(t(lang, 'print.dailyReport'), String(c.fiscal.dailySalesReportNumber)),
    ...field(t(lang, 'print.register'), c.fiscal.deviceName),
    { kind: 'rule' },
    { kind: 'text', text: t(lang, 'print.printedFor', { name: c.requestedBy }), style: { align: 'center' } },
    mark,
  );
  return { blocks };
}

export interface ShiftReportData {
  language: Language;
  register: string;
  /** Local times, formatted by the caller in the store's zone. */
  openedAt: string;
  openedBy: string;
  closedAt: string | null;
  closedBy: string | null;
  /** Amounts as decimal strings. */
  openingFloat: string;
  tickets: number;
  total: string;
  payments: Array<{ name: string; amount: string }>;
  cashSales: string;
  movements: Array<{ time: string; by: string; kind: 'In' | 'Out'; amount: string; reason: string }>;
  cashIn: string;
  cashOut: string;
  expected: string;
  counted: string | null;
  difference: string | null;
  denominations: Array<{ value: string; count: number; total: string }> | null;
  requestedBy: string;
}

/**
 * A shift's report on the receipt printer (issue 28): the drawer from its float to its count — what
 * the register took by payment type, each cash movement with its reason, what the drawer should hold,
 * what was counted (by note and coin) and the difference. An open shift's says so at the top.
 */
export function shiftReport(r: ShiftReportData): PrintDocument {
  const lang = r.language;
  const amount = (v: string) => formatDecimal(lang, v);
  const signed = (v: string, kind: 'In' | 'Out') => `${kind === 'Out' ? '-' : '+'}${amount(v)}`;
  const blocks: Block[] = [
    { kind: 'text', text: t(lang, 'print.shiftReport'), style: { align: 'center', bold: true, width: 2, height: 2 } },
    ...(r.closedAt ? [] : [banner(t(lang, 'print.shiftOpen'))]),
    { kind: 'text', text: t(lang, 'print.notFiscal'), style: { align: 'center' } },
    ...field(t(lang, 'print.register'), r.register),
    ...field(t(lang, 'print.openedAt'), `${r.openedAt} ${r.openedBy}`),
    ...field(t(lang, 'print.closedAt'), r.closedAt ? `${r.closedAt} ${r.closedBy ?? ''}`.trim() : null),
    { kind: 'rule' },
    { kind: 'row', left: t(lang, 'print.openingFloat'), right: amount(r.openingFloat) },
    { kind: 'row', left: t(lang, 'print.sales', { n: r.tickets }), right: amount(r.total) },
  ];
  for (const p of r.payments) blocks.push({ kind: 'row', left: `  ${p.name}`, right: amount(p.amount) });
  blocks.push({ kind: 'row', left: t(lang, 'print.cashSales'), right: amount(r.cashSales) });
  if (r.movements.length) {
    blocks.push({ kind: 'rule' });
    for (const m of r.movements) {
      blocks.push({ kind: 'row', left: `${m.time} ${m.by}`, right: signed(m.amount, m.kind) }, { kind: 'text', text: `  ${m.reason}` });
    }
  }
  blocks.push(
    { kind: 'row', left: t(lang, 'print.cashIn'), right: signed(r.cashIn, 'In') },
    { kind: 'row', left: t(lang, 'print.cashOut'), right: signed(r.cashOut, 'Out') },
    { kind: 'rule' },
    { kind: 'row', left: t(lang, 'print.expected'), right: amount(r.expected), style: { bold: true } },
  );
  if (r.counted !== null) {
    for (const d of r.denominations ?? []) blocks.push({ kind: 'row', left: `  ${d.count} x ${amount(d.value)}`, right: amount(d.total) });
    blocks.push({ kind: 'row', left: t(lang, 'print.counted'), right: amount(r.counted), style: { bold: true } });
    blocks.push({ kind: 'row', left: t(lang, 'print.difference'), right: amount(r.difference ?? '0'), style: { bold: true, height: 2 } });
  }
  blocks.push({ kind: 'rule' }, { kind: 'text', text: t(lang, 'print.printedFor', { name: r.requestedBy }), style: { align: 'center' } });
  return { blocks };
}
