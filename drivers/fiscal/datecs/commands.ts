/**
 * Datecs ISL commands, pure: the command table, data builders and reply parsers, and the status
 * bytes mapped to the hub's fault codes (the vendor's bit kept as `S<byte>.<bit>`). No I/O here.
 * The commands and their fields follow the FP-2000 / FP-550 programmer's manuals (NOTES.md).
 */
import { Decimal } from 'decimal.js';
import type { FaultCode, PaymentKind, Receipt } from '../types.js';

export const CMD = {
  /** 30h `<Op>,<Pwd>,<Till>` → `AllReceipt,FiscReceipt` (today's counts). */
  openFiscalReceipt: 0x30,
  /** 31h `<Text><TAB><TaxCd><[Sign]Price>[*<Qty>][,Perc|;Abs]` → nothing. */
  sale: 0x31,
  /** 33h `<Print><Display>[,Perc|;Abs]` → `Subtotal,TaxA..TaxI`. */
  subtotal: 0x33,
  /** 35h `[<Text>]<TAB>[<Mode><[Sign]Amount>]` → `<PaidCode><Amount>`. */
  total: 0x35,
  /** 36h `<Text>`: a free text line inside a fiscal receipt. */
  fiscalText: 0x36,
  /** 38h → `AllReceipt,FiscReceipt`: the receipt is fiscalized. */
  closeFiscalReceipt: 0x38,
  /** 3Ch: voids the open fiscal receipt. */
  cancelFiscalReceipt: 0x3c,
  /** 3Eh → `DD-MM-YY HH:MM:SS`. */
  readDateTime: 0x3e,
  /** 40h → `<Closure>,...`: the last record of the fiscal memory (the last Z report). */
  lastFiscalEntry: 0x40,
  /** 45h `<Option>`: '0' Z report (closes the day), '2' X report → `Closure,Total,TaxA..TaxI`. */
  dailyReport: 0x45,
  /** 4Ah `[W|X]` → the six status bytes. */
  status: 0x4a,
  /** 4Ch `[T]` → `Open,Items,Amount[,Tender]`: the open, or else the last, fiscal receipt. */
  transactionStatus: 0x4c,
  /** 5Ah `<Calc>` → `Name,FwRev FwDate FwTime,Chk,Sw,Serial,FiscalMemory`. */
  diagnosticInfo: 0x5a,
  /** 71h → `DocNum`: the number of the last document issued. */
  lastDocumentNumber: 0x71,
} as const;

export const CMD_NAMES: Record<number, string> = Object.fromEntries(Object.entries(CMD).map(([k, v]) => [v, k]));

// ---- text ---------------------------------------------------------------------------------------

/**
 * Text as the printer takes it: one byte a character. Latin letters lose their diacritics
 * ("Šopský šalát" → "Sopsky salat"), anything else outside ASCII becomes '?', control characters
 * become spaces (they are framing bytes), and the text is cut to `max` characters.
 */
export function deviceText(text: string, max: number): string {
  const plain = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/[^\u0020-\u007e]/g, '?');
  return plain.slice(0, max);
}

export const bytes = (text: string): Buffer => Buffer.from(text, 'latin1');
export const str = (data: Uint8Array): string => Buffer.from(data).toString('latin1');

// ---- money --------------------------------------------------------------------------------------

/** An amount as the printer takes it: two decimals, a leading '-' when negative ("12.50"). */
export function amount(value: Decimal.Value): string {
  return new Decimal(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
}

/** A quantity with at most three decimals, without trailing zeros ("1.5", "2"). */
export function quantity(value: Decimal.Value): string {
  return new Decimal(value).toDecimalPlaces(3, Decimal.ROUND_HALF_UP).toString();
}

/** "+12.50", "-3.00", "12.50" → "12.5" as a decimal string; empty or malformed → null. */
export function parseAmount(text: string): string | null {
  const t = text.trim();
  if (!/^[+-]?\d+(\.\d+)?$/.test(t)) return null;
  return new Decimal(t).toString();
}

// ---- builders ------------------------------------------------------------------------------------

export const TEXT_MAX = 30;
export const FREE_TEXT_MAX = 36;
export const TAX_GROUPS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I'] as const;
export type TaxGroup = (typeof TAX_GROUPS)[number];

/** Payment modes of 35h: P cash, N credit card, C cheque, D coupon/voucher. */
export const PAYMENT_MODES: Record<PaymentKind, string> = { Cash: 'P', CreditCard: 'N', Voucher: 'D', Other: 'C' };

export function openFiscalReceipt(operator: string, password: string, till: string): string {
  return `${operator},${password},${till}`;
}

export interface SaleLine {
  text: string;
  taxGroup: TaxGroup;
  /** Unit price, two decimals; negative for a returned item. */
  price: string;
  quantity: string;
  /** A signed absolute correction of the line (negative: discount), two decimals; omitted when zero. */
  adjustment?: string;
}

export function sale(line: SaleLine): string {
  const qty = new Decimal(line.quantity).eq(1) ? '' : `*${quantity(line.quantity)}`;
  const adj = line.adjustment && !new Decimal(line.adjustment).isZero() ? `;${amount(line.adjustment)}` : '';
  return `${deviceText(line.text, TEXT_MAX)}\t${line.taxGroup}${amount(line.price)}${qty}${adj}`;
}

/** 33h without printing or display; a signed absolute correction of the whole receipt when given. */
export function subtotal(adjustment?: string): string {
  return adjustment && !new Decimal(adjustment).isZero() ? `00;${amount(adjustment)}` : '00';
}

export function payment(kind: PaymentKind, value: string, text = ''): string {
  return `${deviceText(text, TEXT_MAX)}\t${PAYMENT_MODES[kind]}${amount(value)}`;
}

export function fiscalText(text: string): string {
  return deviceText(text, FREE_TEXT_MAX);
}

/** A text as free-text lines of the printer's width (a long ticket id takes two). */
function lines(text: string): string[] {
  const plain = deviceText(text, text.length);
  const out: string[] = [];
  for (let i = 0; i < plain.length; i += FREE_TEXT_MAX) out.push(plain.slice(i, i + FREE_TEXT_MAX));
  return out;
}

// ---- reply parsers --------------------------------------------------------------------------------

const fields = (data: Uint8Array): string[] => str(data).split(',');

function int(text: string | undefined, what: string): number {
  if (text === undefined || !/^\s*\d+\s*$/.test(text)) throw new ReplyError(`${what}: '${text ?? ''}' is not a number`);
  return Number(text);
}

export class ReplyError extends Error {
  override readonly name = 'ReplyError';
}

/** 30h and 38h: `AllReceipt,FiscReceipt`. */
export function parseReceiptCounts(data: Uint8Array): { all: number; fiscal: number } {
  const [all, fiscal] = fields(data);
  return { all: int(all, 'AllReceipt'), fiscal: int(fiscal, 'FiscReceipt') };
}

/** 33h: `Subtotal,TaxA..`. */
export function parseSubtotal(data: Uint8Array): string {
  const value = parseAmount(fields(data)[0] ?? '');
  if (value === null) throw new ReplyError(`subtotal: '${str(data)}' has no amount`);
  return value;
}

export type PaidCode = 'D' | 'R' | 'F' | 'E' | 'I';

/**
 * 35h: `<PaidCode><Amount>`. D: still due (Amount is what is left), R: paid (Amount is the change),
 * F: refused, E: the subtotal is negative, I: a tax group went negative.
 */
export function parsePayment(data: Uint8Array): { code: PaidCode; amount: string | null } {
  const text = str(data);
  const code = text[0] as PaidCode;
  if (!['D', 'R', 'F', 'E', 'I'].includes(code)) throw new ReplyError(`payment: '${text}' has no paid code`);
  return { code, amount: parseAmount(text.slice(1)) };
}

/** 40h: `<Closure>,...`: the number of the last Z report (0 before the first). */
export function parseLastFiscalEntry(data: Uint8Array): number {
  return int(fields(data)[0], 'Closure');
}

/** 45h: `Closure,Total,TaxA..TaxI`. */
export function parseDailyReport(data: Uint8Array): { closure: number; total: string } {
  const [closure, total] = fields(data);
  const t = parseAmount(total ?? '');
  if (t === null) throw new ReplyError(`daily report: '${str(data)}' has no total`);
  return { closure: int(closure, 'Closure'), total: t };
}

/** 4Ch: `Open,Items,Amount[,Tender]`. */
export function parseTransactionStatus(data: Uint8Array): { open: boolean; items: number; amount: string | null; tender: string | null } {
  const [open, items, amt, tender] = fields(data);
  return { open: open === '1', items: int(items, 'Items'), amount: parseAmount(amt ?? ''), tender: tender === undefined ? null : parseAmount(tender) };
}

/** 5Ah: `Name,FwRev FwDate FwTime,Chk,Sw,Serial,FiscalMemory`. */
export function parseDiagnosticInfo(data: Uint8Array): { model: string; firmware: string; serialNumber: string; fiscalMemorySerialNumber: string } {
  const f = fields(data);
  if (f.length < 6) throw new ReplyError(`diagnostic info: '${str(data)}' has ${f.length} fields, not 6`);
  return { model: f[0].trim(), firmware: f[1].trim(), serialNumber: f[4].trim(), fiscalMemorySerialNumber: f[5].trim() };
}

/** 71h: `DocNum`. */
export function parseDocumentNumber(data: Uint8Array): number {
  return int(str(data), 'DocNum');
}

/** 3Eh: `DD-MM-YY HH:MM:SS` (the printer's local time) → `20YY-MM-DDTHH:MM:SS`. */
export function parseDateTime(data: Uint8Array): string {
  const m = /^(\d\d)[-.](\d\d)[-.](\d\d) (\d\d):(\d\d):(\d\d)$/.exec(str(data).trim());
  if (!m) throw new ReplyError(`date: '${str(data)}' is not DD-MM-YY HH:MM:SS`);
  return `20${m[3]}-${m[2]}-${m[1]}T${m[4]}:${m[5]}:${m[6]}`;
}

// ---- status bytes ---------------------------------------------------------------------------------

export interface StatusBit {
  byte: number;
  bit: number;
  text: string;
  /** The fault this bit raises when a command answers with it set; absent for information bits. */
  fault?: FaultCode;
}

/** The status bits the driver reads (FP-2000 layout); bit 7 of every byte is always 1. */
export const STATUS_BITS = {
  syntaxError: { byte: 0, bit: 0, text: 'syntax error in the data', fault: 'REJECTED' },
  invalidCommand: { byte: 0, bit: 1, text: 'invalid command code', fault: 'REJECTED' },
  clockNotSet: { byte: 0, bit: 2, text: 'the clock is not set', fault: 'REJECTED' },
  mechanismFault: { byte: 0, bit: 4, text: 'printing mechanism fault', fault: 'OFFLINE' },
  generalError: { byte: 0, bit: 5, text: 'general error' },
  coverOpen: { byte: 0, bit: 6, text: 'the cover is open', fault: 'COVER_OPEN' },
  overflow: { byte: 1, bit: 0, text: 'an amount field overflowed', fault: 'REJECTED' },
  notAllowed: { byte: 1, bit: 1, text: 'the command is not allowed in the current fiscal mode', fault: 'REJECTED' },
  ramReset: { byte: 1, bit: 4, text: 'the working memory was reset', fault: 'REJECTED' },
  paperOut: { byte: 2, bit: 0, text: 'out of paper', fault: 'PAPER_OUT' },
  paperLow: { byte: 2, bit: 1, text: 'paper is running low' },
  fiscalReceiptOpen: { byte: 2, bit: 3, text: 'a fiscal receipt is open' },
  nonFiscalReceiptOpen: { byte: 2, bit: 5, text: 'a non-fiscal receipt is open' },
  fiscalMemoryWriteError: { byte: 4, bit: 0, text: 'fiscal memory write error', fault: 'FISCAL_MEMORY_FULL' },
  fiscalMemoryNearlyFull: { byte: 4, bit: 3, text: 'fewer than 50 fiscal memory records left' },
  fiscalMemoryFull: { byte: 4, bit: 4, text: 'the fiscal memory is full', fault: 'FISCAL_MEMORY_FULL' },
  fiscalMemoryReadOnly: { byte: 5, bit: 0, text: 'the fiscal memory is read-only', fault: 'FISCAL_MEMORY_FULL' },
  fiscalMode: { byte: 5, bit: 3, text: 'the printer is fiscalized' },
} as const satisfies Record<string, StatusBit>;

export type StatusFlag = keyof typeof STATUS_BITS;

/** Six status bytes with these flags set (bit 7 always on; 0.5 and 4.5 are the OR of the errors below them). */
export function statusBytes(flags: Iterable<StatusFlag>): Buffer {
  const out = Buffer.alloc(6, 0x80);
  for (const f of flags) out[STATUS_BITS[f].byte] |= 1 << STATUS_BITS[f].bit;
  const errorsIn = (byte: number) => Object.values(STATUS_BITS).some((b: StatusBit) => b.byte === byte && b.fault && out[byte] & (1 << b.bit));
  if (errorsIn(0) || errorsIn(1) || errorsIn(2)) out[0] |= 1 << 5;
  if (errorsIn(4) || errorsIn(5)) out[4] |= 1 << 5;
  return out;
}

export function hasFlag(status: Uint8Array, flag: StatusFlag): boolean {
  const { byte, bit } = STATUS_BITS[flag];
  return (status[byte] & (1 << bit)) !== 0;
}

/** In the order a fault is reported when several bits are set: what a person must fix first. */
const FAULT_ORDER: StatusFlag[] = [
  'paperOut',
  'coverOpen',
  'mechanismFault',
  'fiscalMemoryFull',
  'fiscalMemoryReadOnly',
  'fiscalMemoryWriteError',
  'clockNotSet',
  'ramReset',
  'invalidCommand',
  'syntaxError',
  'overflow',
  'notAllowed',
];

/** Bits that say the command itself was refused, whatever the command. */
const COMMAND_ERRORS: StatusFlag[] = ['invalidCommand', 'syntaxError', 'overflow', 'notAllowed'];

/**
 * The fault a reply's status raises, with the vendor's bit as `S<byte>.<bit>`; null when the command
 * succeeded. Conditions of the printer (no paper, cover open, fiscal memory) refuse commands that print
 * or write the fiscal memory; a query answered while the paper is out still answered.
 */
export function faultOf(status: Uint8Array, printing = true): { code: FaultCode; vendorCode: string; text: string } | null {
  for (const flag of FAULT_ORDER) {
    if (!printing && !COMMAND_ERRORS.includes(flag)) continue;
    const b: StatusBit = STATUS_BITS[flag];
    if (hasFlag(status, flag)) return { code: b.fault!, vendorCode: `S${b.byte}.${b.bit}`, text: b.text };
  }
  return null;
}

// ---- a whole receipt --------------------------------------------------------------------------------

export interface DatecsSettings {
  operator: string;
  password: string;
  till: string;
  /** The hub's VAT category → the printer's tax group letter. */
  taxGroups: Record<number, TaxGroup>;
}

/** Settings keys of a fiscal device (all strings): OperatorCode, OperatorPassword, TillNumber, TaxGroups ("1=A,2=B"). */
export function parseSettings(settings: Record<string, string>): DatecsSettings {
  const taxGroups: Record<number, TaxGroup> = Object.fromEntries(TAX_GROUPS.map((g, i) => [i + 1, g]));
  for (const pair of (settings.TaxGroups ?? '').split(',').filter((p) => p.trim())) {
    const m = /^\s*(\d+)\s*=\s*([A-Ia-i])\s*$/.exec(pair);
    if (!m) throw new ReplyError(`TaxGroups: '${pair}' is not <category>=<letter A-I>`);
    taxGroups[Number(m[1])] = m[2].toUpperCase() as TaxGroup;
  }
  return { operator: settings.OperatorCode ?? '1', password: settings.OperatorPassword ?? '0000', till: settings.TillNumber ?? '1', taxGroups };
}

export interface ReceiptPlan {
  open: string;
  texts: string[];
  sales: string[];
  subtotal: string;
  /** What 33h must answer: the receipt's total. */
  total: string;
  payments: Array<{ kind: PaymentKind; data: string }>;
  change: string;
}

type PlanReceipt = Pick<Receipt, 'reference' | 'lines' | 'total' | 'payments' | 'change'>;

/** Why the printer would refuse this receipt, or null: checked before anything is sent. */
export function receiptProblem(receipt: PlanReceipt, settings: DatecsSettings): string | null {
  if (receipt.lines.length === 0) return 'a receipt needs at least one line';
  for (const [i, l] of receipt.lines.entries()) {
    if (!settings.taxGroups[l.vatCategory]) return `line ${i + 1} (${l.name}) has VAT category ${l.vatCategory}, which maps to no tax group of the printer`;
    if (new Decimal(l.quantity).lte(0)) return `line ${i + 1} (${l.name}) has quantity ${l.quantity}`;
  }
  if (new Decimal(receipt.total).lt(0)) return `the total ${receipt.total} is negative`;
  if (receipt.payments.length === 0) return 'a receipt needs a payment';
  return null;
}

/**
 * The commands of one receipt. Each line's printed total equals the hub's exactly: the printer
 * multiplies price × quantity itself (half away from zero), and any difference (a discount) goes in
 * as an absolute correction of the line; the ticket's own discount as one on the subtotal. A price
 * with more than two decimals is sold as one piece of the line total. Cash goes last, so the change
 * comes out of the last payment.
 */
export function planReceipt(receipt: PlanReceipt, settings: DatecsSettings, jobId: string): ReceiptPlan {
  const problem = receiptProblem(receipt, settings);
  if (problem) throw new ReplyError(problem);
  let sum = new Decimal(0);
  const sales = receipt.lines.map((l) => {
    const total = new Decimal(l.total);
    sum = sum.plus(total);
    const sign = total.isNegative() ? -1 : 1;
    const unit = new Decimal(l.unitPrice).abs();
    const qty = new Decimal(l.quantity);
    const exact = unit.decimalPlaces() <= 2 && qty.decimalPlaces() <= 3;
    if (!exact) return sale({ text: `${quantity(qty)} x ${l.name}`, taxGroup: settings.taxGroups[l.vatCategory], price: total.toFixed(2), quantity: '1' });
    const price = unit.times(sign);
    const gross = price.times(qty).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    return sale({ text: l.name, taxGroup: settings.taxGroups[l.vatCategory], price: price.toFixed(2), quantity: qty.toString(), adjustment: total.minus(gross).toFixed(2) });
  });
  const payments = [...receipt.payments]
    .filter((p) => !new Decimal(p.amount).isZero())
    .sort((a, b) => Number(a.kind === 'Cash') - Number(b.kind === 'Cash'))
    .map((p) => ({ kind: p.kind, data: payment(p.kind, p.amount, p.name) }));
  return {
    open: openFiscalReceipt(settings.operator, settings.password, settings.till),
    texts: [...lines(`Ticket ${receipt.reference}`), ...lines(`Job ${jobId}`)],
    sales,
    subtotal: subtotal(new Decimal(receipt.total).minus(sum).toFixed(2)),
    total: new Decimal(receipt.total).toFixed(2),
    payments: payments.length ? payments : [{ kind: 'Cash', data: payment('Cash', receipt.total) }],
    change: new Decimal(receipt.change).toFixed(2),
  };
}
