/**
 * Datecs ISL commands, pure: per firmware variant the command data, the reply parsers, the status
 * bits and their faults, and the settings that differ (tax groups, payment modes, lengths, the default
 * operator password). No I/O. Every rule names the vendor manual and page it comes from (NOTES.md):
 *
 *   P  "Fiscal printer programming interface FP-800/FP-2000/FP-650/SK1-21F/SK1-31F/FMP-10/FP-550",
 *      v1.00BG (bg.isl.dt.p.protocol-v1.00BG-en.pdf)
 *   C  "Програмен интерфейс на каси DP-05, DP-25, DP-35, WP-50, DP-150", v2.04BG
 *      (bg.isl.dt.c.protocol-v2.04BG-bg.pdf)
 *   X  "FMP-350X, FMP-55X, FP-700X, WP-500X, WP-50X, DP-25X, DP-150X Programmer's Manual" v2.02
 *      (bg.isl.dt.x.protocol-v2.02-en.pdf); v2.08 where it adds to it (per-model passwords, 4Ch
 *      IsOpen 5, the error table), cited as "X v2.08"
 */
import { Decimal } from 'decimal.js';
import type { PaymentKind, Receipt } from '../types.js';
import type { FaultCode } from '../../faults.js';
import { decode1251, deviceText, encode1251 } from './cp1251.js';
import { CLASSIC, X_FORMAT, type FrameFormat } from './frame.js';
import { refused } from '../../settings.js';

export type VariantName = 'P' | 'C' | 'X';
export const VARIANT_NAMES: readonly VariantName[] = ['P', 'C', 'X'];

/** Command codes, the same on every variant. */
export const CMD = {
  /** 27h closes a service (non-fiscal) receipt (P p.13, C p.10, X p.6). */
  closeNonFiscalReceipt: 0x27,
  /** 2Bh opens a storno document on X (X v2.08 p.8); P and C open a storno receipt with 2Eh. */
  openStornoDocument: 0x2b,
  /** 2Eh opens a storno (refund) receipt on P (p.16) and C (p.10). */
  openStornoReceipt: 0x2e,
  openFiscalReceipt: 0x30,
  sale: 0x31,
  subtotal: 0x33,
  total: 0x35,
  fiscalText: 0x36,
  closeFiscalReceipt: 0x38,
  cancelFiscalReceipt: 0x3c,
  readDateTime: 0x3e,
  lastFiscalEntry: 0x40,
  dailyReport: 0x45,
  status: 0x4a,
  transactionStatus: 0x4c,
  diagnosticInfo: 0x5a,
  /** P and C only (P p.35, C p.27); X has no 71h: its receipt number comes from 4Ch. */
  lastDocumentNumber: 0x71,
} as const;

export const CMD_NAMES: Record<number, string> = Object.fromEntries(Object.entries(CMD).map(([k, v]) => [v, k]));

export const bytes = (text: string): Buffer => encode1251(text);
export const str = (data: Uint8Array): string => decode1251(data);

export class ReplyError extends Error {
  override readonly name = 'ReplyError';
}

/** An answer that is well formed but says the command failed (classic 40h `F`): a refusal, not a misreading. */
export class RefusedReply extends ReplyError {
  constructor(
    message: string,
    readonly vendorCode: string,
  ) {
    super(message);
  }
}

// ---- money ----------------------------------------------------------------------------------------

/** An amount as the printer takes it: two decimals, a leading '-' when negative ("12.50"). */
export function amount(value: Decimal.Value): string {
  return new Decimal(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
}

/** A quantity with at most three decimals, without trailing zeros ("1.5", "2"). */
export function quantity(value: Decimal.Value): string {
  return new Decimal(value).toDecimalPlaces(3, Decimal.ROUND_HALF_UP).toString();
}

/**
 * An amount as the printer answers it, as a decimal string. With a decimal point it is in currency
 * units ("15.78"); without one it is a signed count of stotinki/cents ("+000001578" → "15.78"): 4Ch's
 * Amount and Tender are "9 bytes with a sign" (P p.25, C p.20), 40h/45h sums "12 bytes with a sign"
 * (P p.22-23), and X answers "0.00...9999999.99 or 0...999999999 depending on the decimal point" (X p.11).
 * Empty or malformed → null.
 */
export function parseAmount(text: string): string | null {
  const t = text.trim();
  if (/^[+-]?\d+\.\d+$/.test(t)) return new Decimal(t).toString();
  if (/^[+-]?\d+$/.test(t)) return new Decimal(t).div(100).toString();
  return null;
}

function int(text: string | undefined, what: string): number {
  if (text === undefined || !/^\s*\d+\s*$/.test(text)) throw new ReplyError(`${what}: '${text ?? ''}' is not a number`);
  return Number(text);
}

function money(text: string | undefined, what: string): string {
  const v = parseAmount(text ?? '');
  if (v === null) throw new ReplyError(`${what}: '${text ?? ''}' is not an amount`);
  return v;
}

// ---- status bits -----------------------------------------------------------------------------------

export interface StatusBit {
  byte: number;
  bit: number;
  text: string;
  /** The fault this bit raises; absent for information bits. */
  fault?: FaultCode;
  /** Part of the general error bit (0.5, '#' in the manuals) or of the fiscal memory error bit (4.5, '*'). */
  or?: '#' | '*';
}

export type StatusFlag =
  | 'syntaxError'
  | 'invalidCommand'
  | 'clockNotSet'
  | 'mechanismFault'
  | 'coverOpen'
  | 'overflow'
  | 'notAllowed'
  | 'ramReset'
  | 'lowBattery'
  | 'stornoReceiptOpen'
  | 'taxTerminalSilent'
  | 'paperOut'
  | 'paperLow'
  | 'ejFull'
  | 'fiscalReceiptOpen'
  | 'ejNearlyFull'
  | 'nonFiscalReceiptOpen'
  | 'fiscalMemoryWriteError'
  | 'fiscalMemoryNearlyFull'
  | 'fiscalMemoryFull'
  | 'headOverheated'
  | 'fiscalMemoryMissing'
  | 'fiscalMemoryReadOnly'
  | 'fiscalMemoryLastWriteFailed'
  | 'fiscalMode';

type StatusTable = Partial<Record<StatusFlag, StatusBit>>;

/** Bits that every variant has at the same place (P p.4-5, C p.3, X p.45-46). */
const COMMON: StatusTable = {
  syntaxError: { byte: 0, bit: 0, text: 'syntax error in the data', fault: 'REJECTED', or: '#' },
  invalidCommand: { byte: 0, bit: 1, text: 'invalid command code', fault: 'REJECTED', or: '#' },
  clockNotSet: { byte: 0, bit: 2, text: 'the clock is not set', fault: 'REJECTED' },
  overflow: { byte: 1, bit: 0, text: 'an amount field overflowed', fault: 'REJECTED' },
  notAllowed: { byte: 1, bit: 1, text: 'the command is not allowed in the current fiscal mode', fault: 'REJECTED', or: '#' },
  paperOut: { byte: 2, bit: 0, text: 'out of paper', fault: 'PAPER_OUT', or: '#' },
  ejFull: { byte: 2, bit: 2, text: 'the electronic journal is full', fault: 'FISCAL_MEMORY_FULL' },
  fiscalReceiptOpen: { byte: 2, bit: 3, text: 'a fiscal receipt is open' },
  ejNearlyFull: { byte: 2, bit: 4, text: 'the electronic journal is nearly full' },
  nonFiscalReceiptOpen: { byte: 2, bit: 5, text: 'a service (non-fiscal) receipt is open' },
  fiscalMemoryWriteError: { byte: 4, bit: 0, text: 'fiscal memory write error', fault: 'FISCAL_MEMORY_FULL', or: '*' },
  fiscalMemoryNearlyFull: { byte: 4, bit: 3, text: 'the fiscal memory is nearly full' },
  fiscalMemoryFull: { byte: 4, bit: 4, text: 'the fiscal memory is full', fault: 'FISCAL_MEMORY_FULL', or: '*' },
  fiscalMode: { byte: 5, bit: 3, text: 'the printer is fiscalized' },
};

const STATUS: Record<VariantName, StatusTable> = {
  // P manual p.4-5: 0.4 printing unit, 0.6 cover, 1.2 RAM reset, 1.3 battery, 1.4 storno receipt open,
  // 2.1 low paper, 4.6 head overheated, 5.0 read-only, 5.2 last write failed.
  P: {
    ...COMMON,
    mechanismFault: { byte: 0, bit: 4, text: 'printing unit fault', fault: 'OFFLINE', or: '#' },
    coverOpen: { byte: 0, bit: 6, text: 'the cover is open', fault: 'COVER_OPEN' },
    ramReset: { byte: 1, bit: 2, text: 'the working memory was reset', fault: 'REJECTED', or: '#' },
    lowBattery: { byte: 1, bit: 3, text: 'low battery: the clock is in RESET', fault: 'REJECTED', or: '#' },
    stornoReceiptOpen: { byte: 1, bit: 4, text: 'a storno (refund) receipt is open' },
    taxTerminalSilent: { byte: 1, bit: 6, text: 'the built-in tax terminal does not answer', fault: 'REJECTED' },
    paperLow: { byte: 2, bit: 1, text: 'paper is running low' },
    headOverheated: { byte: 4, bit: 6, text: 'the printing head is overheated', fault: 'BUSY' },
    fiscalMemoryReadOnly: { byte: 5, bit: 0, text: 'the fiscal memory is read-only', fault: 'FISCAL_MEMORY_FULL', or: '*' },
    // 5.2 is one of the '*' fiscal memory errors on P only (C p.3 and X p.46: reserved, always 0).
    fiscalMemoryLastWriteFailed: { byte: 5, bit: 2, text: 'the last fiscal memory write failed', fault: 'FISCAL_MEMORY_FULL', or: '*' },
  },
  // C manual p.3: no cover, mechanism or paper-low bits (reserved, always 0); 1.6 tax terminal.
  C: {
    ...COMMON,
    taxTerminalSilent: { byte: 1, bit: 6, text: 'the built-in tax terminal does not answer', fault: 'REJECTED' },
  },
  // X manual p.45-46: eight bytes; 4.6 fiscal memory not found or damaged.
  X: {
    ...COMMON,
    mechanismFault: { byte: 0, bit: 4, text: 'printing mechanism fault', fault: 'OFFLINE', or: '#' },
    coverOpen: { byte: 0, bit: 6, text: 'the cover is open', fault: 'COVER_OPEN' },
    paperLow: { byte: 2, bit: 1, text: 'paper is running low' },
    fiscalMemoryMissing: { byte: 4, bit: 6, text: 'the fiscal memory is missing or damaged', fault: 'FISCAL_MEMORY_FULL' },
  },
};

/** In the order a fault is reported when several bits are set: what a person must fix first. */
const FAULT_ORDER: StatusFlag[] = [
  'paperOut',
  'coverOpen',
  'mechanismFault',
  'headOverheated',
  'fiscalMemoryFull',
  'fiscalMemoryReadOnly',
  'fiscalMemoryWriteError',
  'fiscalMemoryLastWriteFailed',
  'fiscalMemoryMissing',
  'ejFull',
  'taxTerminalSilent',
  'clockNotSet',
  'lowBattery',
  'ramReset',
  'invalidCommand',
  'syntaxError',
  'overflow',
  'notAllowed',
];

/** Bits that say the command itself was refused, whatever the command. */
const COMMAND_ERRORS: StatusFlag[] = ['invalidCommand', 'syntaxError', 'overflow', 'notAllowed'];

// ---- variants ----------------------------------------------------------------------------------------

export interface Variant {
  name: VariantName;
  frame: FrameFormat;
  status: StatusTable;
  /** Bytes of a sale's text (31h). */
  textMax: number;
  /** Tax groups in order: VAT category n → the nth (P p.1, C p.1: А–З; X p.9-10: '1'–'8'). */
  taxGroups: readonly string[];
  /** Payment modes of 35h by the hub's payment kind. */
  payments: Record<PaymentKind, string>;
  /**
   * The factory password of operator `operator` on `model`: P "0000", C "1" (ErpNet.FP's defaults); X
   * per model (X v2.08 p.10, 30h note): the operator's own number on the cash registers, "0000" on the
   * FMP-350X, FMP-55X and FP-700X printers.
   */
  defaultPassword(model: string, operator: string): string;
  /** Bytes of a free text line (36h) on `model`: X prints PrintColumns-2 (p.13), 30 on the 32-column FMP-55X. */
  commentMaxFor(model: string): number;
  /** The storno (refund) receipt's opening command and its data, referencing the original receipt. */
  storno: { cmd: number; open(op: string, password: string, till: string, origin: StornoOrigin): string };
  /** 4Ah data: classic 'X' answers without waiting for the print buffer (P p.24, C p.20); X takes none (p.20). */
  statusRequest: string;
  /** 4Ch data: classic 'T' for the bill so far (P p.25, C p.20); X takes none (p.21). */
  transactionRequest: string;
  /** Where the receipt number is read: classic 71h (P p.35, C p.27), X 4Ch's Number (p.21). */
  numberFrom: 'lastDocumentNumber' | 'transactionStatus';
  open(operator: string, password: string, till: string, unp: string | null): string;
  sale(text: string, group: string, price: string, qty: string | null, adjustment: string | null): string;
  subtotal(adjustment: string | null): string;
  payment(mode: string, value: string): string;
  /** 35h paying whatever is left, in cash: how ErpNet.FP's Reset finishes a receipt left open after a payment. */
  payRest(rest: string): string;
  fiscalText(text: string): string;
  dailyReport(kind: 'X' | 'Z'): string;
  /** X answers an error code first (X p.5); classic answers carry none. Non-zero: the vendor's code. */
  errorCode(data: string): string | null;
  parsePayment(data: string): { code: PaidCode; amount: string | null };
  parseTransaction(data: string): Transaction;
  parseReport(data: string): { closure: number; total: string };
  parseLastFiscalEntry(data: string): number;
  parseSubtotal(data: string): string;
  /**
   * The number of the receipt 30h just opened, from its answer: X `{ErrorCode}\t{SlipNumber}\t` (p.9);
   * classic answers counts, not the number (P p.16, C p.10): null, the number is the last document's + 1.
   */
  openedNumber(data: string): number | null;
  /**
   * A refused 30h/2Eh that says so in its data: C answers ErrCode `F` instead of the counts (C p.10,
   * `<ErrCode>` or `<AllReceipt>,<FiscalReceipt>`), and may raise no status bit with it. P's counts are
   * never `F` (p.16) either; X refuses with its error code (X p.5).
   */
  openRefused(data: string): boolean;
}

export type PaidCode = 'D' | 'R' | 'F' | 'E' | 'I';

/** What a storno receipt quotes of the receipt it refunds (P p.16, C p.10, X v2.08 p.8). */
export interface StornoOrigin {
  /** The original's (global) document number. */
  number: number;
  /** When it was issued, in the printer's own (local) time. */
  date: { day: number; month: number; year: number; hour: number; minute: number; second: number };
  fiscalMemorySerialNumber: string;
  /** The original's unique sale number (УНП), or null when it was issued without one. */
  unp: string | null;
}

const p2 = (n: number) => String(n).padStart(2, '0');
/** `DDMMYYhhmmss` (P p.16 StDT, C p.10 DocDateTime). */
const compactDate = ({ date: d }: StornoOrigin) => `${p2(d.day)}${p2(d.month)}${p2(d.year % 100)}${p2(d.hour)}${p2(d.minute)}${p2(d.second)}`;

export interface Transaction {
  /**
   * A receipt is open: X a fiscal or storno receipt (IsOpen 1-4, p.21); classic "a fiscal or service
   * receipt" (P p.25, C p.20), which of them the status bits tell.
   */
  open: boolean;
  /** X IsOpen 2-4: the open receipt is a storno receipt (X p.21). */
  storno: boolean;
  /** X IsOpen 5: a standard non-fiscal receipt is open (X v2.08 p.24), no fiscal one. */
  nonFiscal: boolean;
  /** The current or last receipt's number (X only): while a receipt is open, the open one's own. */
  number: number | null;
  items: number;
  amount: string | null;
  tender: string | null;
}

const commas = (data: string) => data.split(',');
const tabs = (data: string) => data.split('\t');

function sumOf(values: string[], what: string): string {
  return values.reduce((s, v) => s.plus(money(v, what)), new Decimal(0)).toString();
}

/** 35h answer of P and C: `<PaidCode><Amount>` (P p.20, C p.13). */
function classicPayment(data: string): { code: PaidCode; amount: string | null } {
  const code = data[0] as PaidCode;
  if (!['D', 'R', 'F', 'E', 'I'].includes(code)) throw new ReplyError(`payment: '${data}' has no paid code`);
  return { code, amount: parseAmount(data.slice(1)) };
}

/** 4Ch answer of P and C: `Open,Items,Amount[,Tender]` (P p.25, C p.20). */
function classicTransaction(data: string): Transaction {
  const [open, items, amt, tender] = commas(data);
  if (open !== '0' && open !== '1') throw new ReplyError(`transaction status: '${data}' does not start with 0 or 1`);
  return {
    open: open === '1',
    storno: false,
    nonFiscal: false,
    number: null,
    items: int(items, 'Items'),
    amount: parseAmount(amt ?? ''),
    tender: tender === undefined ? null : parseAmount(tender),
  };
}

/** 45h answer of P and C: `Closure,FM_Total,TotA..TotH` (P p.23, C p.18); the total is the sum of the groups. */
function classicReport(data: string): { closure: number; total: string } {
  const [closure, , ...groups] = commas(data);
  return { closure: int(closure, 'Closure'), total: sumOf(groups.slice(0, 8), 'daily report') };
}

/**
 * 40h answer of P and C: `P,N,TaxA..TaxH,Date` on success (the number of the last Z report), `F` when
 * the command failed (P p.22 "The command is unsuccessful", C p.17 "the last record cannot be read"):
 * an error, not "no Z report yet" (which is N 0).
 */
function classicLastEntry(data: string): number {
  const [code, n] = commas(data);
  if (code === 'F') throw new RefusedReply('the printer could not read its last fiscal memory record (40h answered F)', 'F');
  if (code !== 'P') throw new ReplyError(`last fiscal entry: '${data}' starts with neither P nor F`);
  return int(n, 'N');
}

function classicSubtotal(data: string): string {
  return money(commas(data)[0], 'subtotal');
}

/** `<L1><Tab><TaxCd><Price>[*<Qty>][;Abs]` (P p.17, C p.11). */
function classicSale(text: string, group: string, price: string, qty: string | null, adjustment: string | null): string {
  return `${text}\t${group}${price}${qty ? `*${qty}` : ''}${adjustment ? `;${adjustment}` : ''}`;
}

const CYRILLIC_GROUPS = ['А', 'Б', 'В', 'Г', 'Д', 'Е', 'Ж', 'З'] as const;

const classic = {
  frame: CLASSIC,
  taxGroups: CYRILLIC_GROUPS,
  statusRequest: 'X',
  transactionRequest: 'T',
  numberFrom: 'lastDocumentNumber' as const,
  sale: classicSale,
  /** `<Print><Display>[;Abs]` (P p.18, C p.12). */
  subtotal: (adjustment: string | null) => (adjustment ? `00;${adjustment}` : '00'),
  /** `[Text]<Tab>[<PaidMode><Amount>]` (P p.19, C p.13). */
  payment: (mode: string, value: string) => `\t${mode}${value}`,
  payRest: () => '\t',
  fiscalText: (text: string) => text,
  /** '0' Z, '2' X (P p.23, C p.18). */
  dailyReport: (kind: 'X' | 'Z') => (kind === 'Z' ? '0' : '2'),
  errorCode: () => null,
  parsePayment: classicPayment,
  parseTransaction: classicTransaction,
  parseReport: classicReport,
  parseLastFiscalEntry: classicLastEntry,
  parseSubtotal: classicSubtotal,
  openedNumber: () => null,
  openRefused: (data: string) => data.trim() === 'F',
};

export const VARIANTS: Record<VariantName, Variant> = {
  P: {
    ...classic,
    name: 'P',
    status: STATUS.P,
    // 31h text: ErpNet.FP sends at most 34 bytes to P firmware (the manual allows 42, p.17, but the line
    // also holds price and group); 36h: 46 (ErpNet.FP); 35h: 36 bytes (p.19).
    textMax: 34,
    // 35h modes (p.19-20): P cash, D debit card, m coupons, C cheque.
    payments: { Cash: 'P', CreditCard: 'D', Voucher: 'm', Other: 'C' },
    defaultPassword: () => '0000',
    commentMaxFor: () => 46,
    /**
     * 2Eh `<OpNum>,<Password>,<TillNum>,<StType><DocNo>,<StUNP>,<StDT>,<StFMIN>` (p.16), StType R for a
     * return. With StUNP, StDT and StFMIN it opens a storno receipt that takes sales and payments; the
     * original's whole УНП must be given (without them P reverses the whole original by itself).
     */
    storno: {
      cmd: CMD.openStornoReceipt,
      open: (op, pwd, till, o) => [op, pwd, till, `R${o.number}`, o.unp ?? '', compactDate(o), o.fiscalMemorySerialNumber].join(','),
    },
    /** `<OpNum>,<Password>,<TillNum>[,<UNP>]` (p.16): the UNP must be set at least once, later ones count on. */
    open: (op, pwd, till, unp) => [op, pwd, till, ...(unp ? [unp] : [])].join(','),
  },
  C: {
    ...classic,
    name: 'C',
    status: STATUS.C,
    // 31h: "Текст до 22 байта" (p.11); 36h: 36 bytes (p.15).
    textMax: 22,
    // 35h modes (p.13): P cash, C debit card, I voucher, N credit.
    payments: { Cash: 'P', CreditCard: 'C', Voucher: 'I', Other: 'N' },
    defaultPassword: () => '1',
    commentMaxFor: () => 36,
    /**
     * 2Eh `<OpCode>,<OpPwd>,<NSale>,<TillNmb>,<DocType>,<DocNumber>,<DocDateTime>,<FMNumber>` (p.10):
     * DocType 1 a return, NSale the original's УНП or empty when it had none.
     */
    storno: {
      cmd: CMD.openStornoReceipt,
      open: (op, pwd, till, o) => [op, pwd, o.unp ?? '', till, '1', String(o.number), compactDate(o), o.fiscalMemorySerialNumber].join(','),
    },
    /** `<OpCode>,<OpPwd>,<NSale>,<TillNmb>` or `<OpCode>,<OpPwd>,<TillNmb>` (p.10). */
    open: (op, pwd, till, unp) => [op, pwd, ...(unp ? [unp] : []), till].join(','),
  },
  X: {
    name: 'X',
    frame: X_FORMAT,
    status: STATUS.X,
    // 31h PluName up to 72 (p.9); 36h text PrintColumns-2, 40 on the 42-column DP-25X/DP-150X (p.12).
    textMax: 72,
    taxGroups: ['1', '2', '3', '4', '5', '6', '7', '8'],
    // 35h PaidMode (p.11): 0 cash, 1 credit card, 3-5 other payments; ErpNet.FP books coupons to 5.
    payments: { Cash: '0', CreditCard: '1', Voucher: '5', Other: '3' },
    defaultPassword: (model, operator) => (/^(FMP|FP)-/i.test(model.trim()) ? '0000' : operator),
    commentMaxFor: (model) => (/^FMP-55/i.test(model.trim()) ? 30 : 40),
    /**
     * 2Bh `{OpCode}\t{OpPwd}\t{TillNmb}\t{Storno}\t{DocNum}\t{DateTime}\t{FMNumber}\t{Invoice}\t{ToInvoice}\t{Reason}\t{NSale}\t`
     * (v2.08 p.8): Storno 1 a refund, DateTime `DD-MM-YY hh:mm:ss`, NSale the original's УНП (needed
     * when a PC program issued the original).
     */
    storno: {
      cmd: CMD.openStornoDocument,
      open: (op, pwd, till, o) => {
        const d = o.date;
        const when = `${p2(d.day)}-${p2(d.month)}-${p2(d.year % 100)} ${p2(d.hour)}:${p2(d.minute)}:${p2(d.second)}`;
        return [op, pwd, till, '1', String(o.number), when, o.fiscalMemorySerialNumber, '', '', '', o.unp ?? ''].join('\t') + '\t';
      },
    },
    statusRequest: '',
    transactionRequest: '',
    numberFrom: 'transactionStatus',
    /** Syntax 1 `{OpCode}\t{OpPwd}\t{TillNmb}\t{Invoice}\t`, syntax 2 with `{NSale}` before TillNmb (p.9). */
    open: (op, pwd, till, unp) => [op, pwd, ...(unp ? [unp] : []), till, ''].join('\t') + '\t',
    /**
     * `{PluName}\t{TaxCd}\t{Price}\t{Quantity}\t{DiscountType}\t{DiscountValue}\t{Department}\t` (p.9-10):
     * Price "Format: 2 decimals", Quantity "Format: 3 decimals" (p.10), DiscountValue two decimals.
     */
    sale: (text, group, price, qty, adjustment) => {
      const adj = adjustment ? new Decimal(adjustment) : null;
      const type = !adj || adj.isZero() ? '' : adj.isNegative() ? '4' : '3';
      return [text, group, price, qty === null ? '' : new Decimal(qty).toFixed(3), type, type ? amount(adj!.abs()) : '', '0'].join('\t') + '\t';
    },
    /** `{Print}\t{Display}\t{DiscountType}\t{DiscountValue}\t` (p.10-11). */
    subtotal: (adjustment) => {
      const adj = adjustment ? new Decimal(adjustment) : null;
      const type = !adj || adj.isZero() ? '' : adj.isNegative() ? '4' : '3';
      return ['0', '0', type, type ? amount(adj!.abs()) : ''].join('\t') + '\t';
    },
    /** `{PaidMode}\t{Amount}\t{Type}\t` (p.11). */
    payment: (mode, value) => `${mode}\t${value}\t\t`,
    payRest: (rest) => `0\t${rest}\t\t`,
    fiscalText: (text) => `${text}\t\t\t\t\t\t`,
    /** `{ReportType}\t`: 'X' or 'Z' (p.18). */
    dailyReport: (kind) => `${kind}\t`,
    errorCode: (data) => {
      const code = tabs(data)[0];
      return code === undefined || code === '' || code === '0' ? null : code;
    },
    /** `{ErrorCode}\t{Status}\t{Amount}\t` (p.12). */
    parsePayment: (data) => {
      const [, code, amt] = tabs(data);
      if (code !== 'D' && code !== 'R') throw new ReplyError(`payment: '${data}' has no status D or R`);
      return { code, amount: parseAmount(amt ?? '') };
    },
    /** `{ErrorCode}\t{IsOpen}\t{Number}\t{Items}\t{Amount}\t{Payed}\t` (p.21). */
    /** IsOpen (X v2.08 p.24): 0 closed, 1 fiscal receipt, 2-4 storno receipt (operator error, refund, tax base), 5 non-fiscal receipt. */
    parseTransaction: (data) => {
      const [, open, number, items, amt, paid] = tabs(data);
      if (!/^[0-5]$/.test(open ?? '')) throw new ReplyError(`transaction status: '${data}' has no IsOpen 0-5`);
      const state = Number(open);
      return {
        open: state >= 1 && state <= 4,
        storno: state >= 2 && state <= 4,
        nonFiscal: state === 5,
        number: int(number, 'Number'),
        items: int(items, 'Items'),
        amount: parseAmount(amt ?? ''),
        tender: parseAmount(paid ?? ''),
      };
    },
    /** `{ErrorCode}\t{nRep}\t{TotA}..{TotH}\t{StorA}..` (p.19). */
    parseReport: (data) => {
      const [, closure, ...groups] = tabs(data);
      return { closure: int(closure, 'nRep'), total: sumOf(groups.slice(0, 8), 'report') };
    },
    /** `{ErrorCode}\t{nRep}\t...` (p.17). */
    parseLastFiscalEntry: (data) => int(tabs(data)[1], 'nRep'),
    /** `{ErrorCode}\t{SlipNumber}\t{Subtotal}\t...` (p.11). */
    parseSubtotal: (data) => money(tabs(data)[2], 'subtotal'),
    openedNumber: (data) => {
      const n = tabs(data)[1];
      return n !== undefined && /^\s*\d{1,7}\s*$/.test(n) ? Number(n) : null;
    },
    openRefused: () => false,
  },
};

// ---- X error codes --------------------------------------------------------------------------------

/** X refuses a wrong operator password with this code (X v2.08 error table: ERR_OPER_WRONG_PASSWORD). */
export const X_WRONG_PASSWORD = '-102002';

/**
 * What the X error codes the driver can meet mean (X manual v2.08, "Error codes", p.53-67), in words a
 * person can act on; the others are named by their code.
 */
export const X_ERRORS: Record<string, string> = {
  '-102000': 'the battery is low',
  [X_WRONG_PASSWORD]: 'wrong operator password (check OperatorCode/OperatorPassword)',
  '-104000': 'a Z report is needed first',
  '-104003': 'the operation is forbidden',
  '-105010': 'the electronic journal is full',
  '-110104': 'the device is not fiscalized',
  '-111002': 'syntax error',
  '-111003': 'the operation is not possible now',
  '-111015': 'a receipt is open',
  '-111016': 'no receipt is open',
  '-111017': 'not enough cash in the register',
  '-111018': 'payment has started',
  '-111020': 'the receipt has no sales',
  '-111021': 'the turnover of a tax group would become negative',
  '-111024': 'a Z report is overdue: the device blocks sales 24 hours after the day began',
  '-112001': 'invalid command syntax',
  '-112002': 'the command is not permitted now',
  '-112006': 'out of paper',
};

// ---- device info (5Ah) --------------------------------------------------------------------------------

export interface DiagnosticInfo {
  model: string;
  firmware: string;
  serialNumber: string;
  fiscalMemorySerialNumber: string;
}

/** A Datecs device serial number: two Latin letters and six digits (P p.29 "2 Latin letters and at least 6 digits", X p.24). */
const SERIAL = /^[A-Za-z]{2}\d{6,}$/;
/** A fiscal memory number: eight digits (P p.29, C p.22, X p.24). */
const FISCAL_MEMORY = /^\d{8}$/;

/**
 * 5Ah with '1' answers comma-separated fields, in two orders the documents disagree on:
 * - P p.29 and X p.24 "syntax 2": `Name,FwRev FwDate FwTime,Chk,Sw,Ser,FM`; so do real DP cash
 *   registers (ErpNet.FP's C driver reads the serial from the fifth of six fields).
 * - C p.22: `<Name><FwRev><Sp><FwDate><Sp><FwTime>,<Chk>,<Sw>,<FM>,<Ser>`: five fields, the name and
 *   firmware in one, the fiscal memory number before the serial.
 * The two last fields are told apart by their shapes (a serial has letters, a fiscal memory number is
 * eight digits), so both orders read right. X firmware outside Bulgaria may leave out the serial
 * number (ErpNet.FP issue #183: `DP-150MX,609428 20Jul23 1353,9460,00000000,    02500002`): then the
 * fiscal memory number is the last field and there is no serial.
 */
export function parseDiagnosticInfo(data: string): DiagnosticInfo {
  const f = data.split(',').map((s) => s.trim());
  if (f.length < 5 || !f[0]) throw new ReplyError(`diagnostic info: '${data}' has ${f.length} fields, not 6`);
  const [a, b] = f.slice(-2);
  const cOrder = FISCAL_MEMORY.test(a) && SERIAL.test(b);
  if (cOrder && f.length === 5) {
    // C p.22: the name and the firmware share the first field, separated by a space.
    const [model, ...firmware] = f[0].split(/\s+/);
    return { model, firmware: firmware.join(' '), serialNumber: b, fiscalMemorySerialNumber: a };
  }
  if (cOrder) return { model: f[0], firmware: f[1], serialNumber: b, fiscalMemorySerialNumber: a };
  return { model: f[0], firmware: f[1], serialNumber: f.length >= 6 ? a : '', fiscalMemorySerialNumber: b };
}

/**
 * The variant a model name speaks: names ending X, XR, XE or MX speak X (as ErpNet.FP tells them
 * apart), and so does the DP-05C (X manual v2.08 names it beside the DP-25X); DP/WP C; FP/FMP/SK P.
 */
export function variantOfModel(model: string): VariantName | null {
  const m = model.trim().toUpperCase();
  if (/(X|XR|XE|MX)$/.test(m) || /^DP-05C$/.test(m)) return 'X';
  if (/^(DP|WP)/.test(m)) return 'C';
  if (/^(FP|FMP|SK)/.test(m)) return 'P';
  return null;
}

// ---- status helpers ---------------------------------------------------------------------------------

export function hasFlag(v: Variant, status: Uint8Array, flag: StatusFlag): boolean {
  const b = v.status[flag];
  return !!b && (status[b.byte] & (1 << b.bit)) !== 0;
}

/** Status bytes with these flags set (bit 7 always on; 0.5 and 4.5 are the OR of the '#' and '*' bits). */
export function statusBytes(v: Variant, flags: Iterable<StatusFlag>): Buffer {
  const out = Buffer.alloc(v.frame.statusLength, 0x80);
  for (const f of flags) {
    const b = v.status[f];
    if (!b) continue;
    out[b.byte] |= 1 << b.bit;
    if (b.or === '#') out[0] |= 1 << 5;
    if (b.or === '*') out[4] |= 1 << 5;
  }
  return out;
}

/**
 * The fault a reply's status raises, with the vendor's bit as `S<byte>.<bit>`; null when the command
 * succeeded. Conditions of the printer (no paper, cover open, fiscal memory) refuse commands that print
 * or write the fiscal memory; a query answered while the paper is out still answered.
 */
export function faultOf(v: Variant, status: Uint8Array, printing = true): { code: FaultCode; vendorCode: string; text: string } | null {
  for (const flag of FAULT_ORDER) {
    if (!printing && !COMMAND_ERRORS.includes(flag)) continue;
    const b = v.status[flag];
    if (b?.fault && hasFlag(v, status, flag)) return { code: b.fault, vendorCode: `S${b.byte}.${b.bit}`, text: b.text };
  }
  return null;
}

// ---- settings --------------------------------------------------------------------------------------

export interface DatecsSettings {
  /** Named in settings; null: detected from the model name (5Ah) at the first call. */
  variant: VariantName | null;
  operator: string;
  /** null: the variant's factory default, which is known once the variant is. */
  password: string | null;
  till: string;
  /** VAT category → tax group code; null: the variant's defaults (category n → the nth group). */
  taxGroups: Record<number, string> | null;
  /** Payment kind → 35h mode; missing kinds take the variant's default. */
  payments: Partial<Record<PaymentKind, string>>;
  /** Send a unique sale number (УНП) with every receipt. */
  uniqueSaleNumber: boolean;
  /** The printer's clock's time zone (IANA), for the original's time a storno receipt quotes; null: the hub's own. */
  timeZone: string | null;
}

const KINDS: PaymentKind[] = ['Cash', 'CreditCard', 'Voucher', 'Other'];

function pairs(text: string | undefined, key: string, pattern: RegExp): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const pair of (text ?? '').split(',').filter((p) => p.trim())) {
    const m = pattern.exec(pair.trim());
    if (!m) throw refused(new ReplyError(`${key}: '${pair}' is not of the form ${pattern.source}`), 'form', { setting: key, value: pair, form: pattern.source });
    out.push([m[1], m[2]]);
  }
  return out;
}

/**
 * Settings keys of a `datecs` fiscal device (all strings): Variant (P, C, X; default: from the model),
 * OperatorCode (1), OperatorPassword (the variant's default), TillNumber (1), TaxGroups ("1=Б,2=А"),
 * PaymentModes ("CreditCard=D,Voucher=m"), UniqueSaleNumber ("true" default, "false" to leave it out),
 * TimeZone (the printer clock's IANA zone, e.g. "Europe/Sofia"; default: the hub's).
 */
export function parseSettings(settings: Record<string, string>): DatecsSettings {
  const variant = settings.Variant?.trim().toUpperCase();
  if (variant !== undefined && variant !== '' && variant !== 'AUTO' && !VARIANT_NAMES.includes(variant as VariantName)) {
    throw refused(new ReplyError(`Variant: '${settings.Variant}' is not P, C, X or auto`), 'variant', { setting: 'Variant', value: settings.Variant });
  }
  const named = variant && variant !== 'AUTO' ? (variant as VariantName) : null;
  const groupCodes = new Set([...CYRILLIC_GROUPS, ...'ABCDEFGH', ...'12345678']);
  const taxPairs = pairs(settings.TaxGroups, 'TaxGroups', /^(\d+)\s*=\s*(\S)$/);
  for (const [, g] of taxPairs) if (!groupCodes.has(g.toUpperCase())) throw refused(new ReplyError(`TaxGroups: '${g}' is not a tax group (А-З, A-H or 1-8)`), 'taxGroup', { setting: 'TaxGroups', value: g });
  const payments: Partial<Record<PaymentKind, string>> = {};
  for (const [k, m] of pairs(settings.PaymentModes, 'PaymentModes', /^(\w+)\s*=\s*(\w)$/)) {
    const kind = KINDS.find((x) => x.toLowerCase() === k.toLowerCase());
    if (!kind) throw refused(new ReplyError(`PaymentModes: '${k}' is not one of ${KINDS.join(', ')}`), 'notOneOf', { setting: 'PaymentModes', value: k, values: KINDS.join(', ') });
    payments[kind] = m;
  }
  const operator = settings.OperatorCode ?? '1';
  if (!/^\d{1,2}$/.test(operator)) throw refused(new ReplyError(`OperatorCode: '${operator}' is not 1-30`), 'range', { setting: 'OperatorCode', value: operator, range: '1-30' });
  const password = settings.OperatorPassword ?? null;
  if (password !== null && !/^\d{1,8}$/.test(password)) throw refused(new ReplyError('OperatorPassword: 1 to 8 digits'), 'operatorPassword', { setting: 'OperatorPassword' });
  const till = settings.TillNumber ?? '1';
  if (!/^\d{1,5}$/.test(till)) throw refused(new ReplyError(`TillNumber: '${till}' is not 1-99999`), 'range', { setting: 'TillNumber', value: till, range: '1-99999' });
  const unp = settings.UniqueSaleNumber ?? 'true';
  if (unp !== 'true' && unp !== 'false') throw refused(new ReplyError(`UniqueSaleNumber: '${unp}' is not true or false`), 'trueFalse', { setting: 'UniqueSaleNumber', value: unp });
  const timeZone = settings.TimeZone?.trim() || null;
  if (timeZone !== null && !validTimeZone(timeZone)) throw refused(new ReplyError(`TimeZone: '${timeZone}' is not an IANA time zone`), 'form', { setting: 'TimeZone', value: timeZone, form: 'Area/City (an IANA time zone)' });
  return {
    variant: named,
    operator,
    password,
    till,
    taxGroups: taxPairs.length ? Object.fromEntries(taxPairs.map(([c, g]) => [Number(c), g.toUpperCase()])) : null,
    payments,
    uniqueSaleNumber: unp === 'true',
    timeZone,
  };
}

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The tax group of VAT category `category` on variant `v`: the configured one, else the nth group. Latin A-H on C/P is sent as Cyrillic. */
export function taxGroupOf(v: Variant, s: DatecsSettings, category: number): string | null {
  const configured = s.taxGroups ? s.taxGroups[category] : v.taxGroups[category - 1];
  if (!configured) return null;
  if (v.name === 'X') return /^[1-8]$/.test(configured) ? configured : null;
  const latin = 'ABCDEFGH'.indexOf(configured);
  if (latin >= 0) return CYRILLIC_GROUPS[latin];
  return (CYRILLIC_GROUPS as readonly string[]).includes(configured) ? configured : null;
}

/**
 * The unique sale number (УНП) of a receipt: `<serial, 8>-<operator, 4>-<sale, 7 digits>` (P p.16,
 * C p.10, X p.9), e.g. `DY423793-0001-0000002` as a DP-150 took it (ErpNet.FP issue #112). Null when
 * the serial is not 8 letters and digits (a firmware without one has no УНП rule either).
 */
export function uniqueSaleNumber(serial: string, operator: string, sale: number): string | null {
  if (!/^[0-9A-Za-z]{8}$/.test(serial)) return null;
  return `${serial}-${operator.padStart(4, '0')}-${String(sale % 10_000_000).padStart(7, '0')}`;
}

// ---- a whole receipt ----------------------------------------------------------------------------------

export interface ReceiptPlan {
  texts: string[];
  sales: string[];
  subtotal: string;
  /** What 33h must answer: the receipt's total (positive on a storno receipt, which refunds it). */
  total: string;
  /** 35h data in the order sent. */
  payments: string[];
  /** The 35h mode and amount of each payment, in the same order: what pays the rest when a receipt is finished after a failure. */
  modes: string[];
  amounts: string[];
  /** A return: issued as a storno receipt. */
  storno: boolean;
}

type PlanReceipt = Pick<Receipt, 'reference' | 'lines' | 'total' | 'payments' | 'change'>;

/** A receipt of negative lines and a negative total: a return, refunded on a storno receipt. */
export function isReturn(receipt: Pick<Receipt, 'total' | 'lines'>): boolean {
  return new Decimal(receipt.total).isNegative() || receipt.lines.some((l) => new Decimal(l.total).isNegative());
}

/** Why the printer would refuse this receipt, or null: checked before anything is sent. */
export function receiptProblem(receipt: PlanReceipt, v: Variant, s: DatecsSettings): string | null {
  if (receipt.lines.length === 0) return 'a receipt needs at least one line';
  const refund = isReturn(receipt);
  for (const [i, l] of receipt.lines.entries()) {
    if (!taxGroupOf(v, s, l.vatCategory)) return `line ${i + 1} (${l.name}) has VAT category ${l.vatCategory}, which maps to no tax group of the printer`;
    if (new Decimal(l.quantity).lte(0)) return `line ${i + 1} (${l.name}) has quantity ${l.quantity}`;
    // A storno receipt takes only returned items, a sale receipt only sold ones: BG firmware refuses a
    // negative sum in a tax group (P p.20) and a storno receipt is the refund of a whole receipt's lines.
    if (new Decimal(l.total).isNegative() !== refund && !new Decimal(l.total).isZero()) {
      return `line ${i + 1} (${l.name}) is ${refund ? 'a sale on a return' : 'a return on a sale'}: one receipt cannot mix them (a return is a storno receipt of returned items only)`;
    }
  }
  if (refund && !new Decimal(receipt.total).isNegative()) return `a return's total must be negative, not ${receipt.total}`;
  if (receipt.payments.length === 0) return 'a receipt needs a payment';
  return null;
}

/**
 * The commands of one receipt. Each line's printed total equals the hub's exactly: the printer
 * multiplies price × quantity itself (half away from zero), and any difference (a discount) goes in
 * as an absolute correction of the line; the ticket's own discount as one on the subtotal. A price
 * with more than two decimals is sold as one piece of the line total. Cash goes last, so the change
 * comes out of the last payment. A return is planned as its storno receipt: the same lines, totals
 * and payments with the sign turned (the storno receipt itself says they are refunded).
 */
export function planReceipt(receipt: PlanReceipt, v: Variant, s: DatecsSettings, jobId: string, commentMax: number): ReceiptPlan {
  const problem = receiptProblem(receipt, v, s);
  if (problem) throw new ReplyError(problem);
  const storno = isReturn(receipt);
  const sign = storno ? -1 : 1;
  let sum = new Decimal(0);
  const sales = receipt.lines.map((l) => {
    const group = taxGroupOf(v, s, l.vatCategory)!;
    const total = new Decimal(l.total).times(sign);
    sum = sum.plus(total);
    const unit = new Decimal(l.unitPrice).abs();
    const qty = new Decimal(l.quantity);
    if (unit.decimalPlaces() > 2 || qty.decimalPlaces() > 3) {
      return v.sale(deviceText(`${quantity(qty)} x ${l.name}`, v.textMax), group, amount(total), null, null);
    }
    const gross = unit.times(qty).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    const adj = total.minus(gross);
    return v.sale(deviceText(l.name, v.textMax), group, amount(unit), qty.eq(1) ? null : quantity(qty), adj.isZero() ? null : amount(adj));
  });
  const total = new Decimal(receipt.total).times(sign);
  const ticketAdj = total.minus(sum);
  const ordered = [...receipt.payments]
    .map((p) => ({ ...p, amount: new Decimal(p.amount).times(sign) }))
    .filter((p) => !p.amount.isZero())
    .sort((a, b) => Number(a.kind === 'Cash') - Number(b.kind === 'Cash'));
  const modes = ordered.map((p) => s.payments[p.kind] ?? v.payments[p.kind]);
  const lines = (text: string) => {
    const plain = deviceText(text, text.length);
    const out: string[] = [];
    for (let i = 0; i < plain.length; i += commentMax) out.push(v.fiscalText(plain.slice(i, i + commentMax)));
    return out;
  };
  return {
    texts: [...lines(`Ticket ${receipt.reference}`), ...lines(`Job ${jobId}`)],
    sales,
    subtotal: v.subtotal(ticketAdj.isZero() ? null : amount(ticketAdj)),
    total: total.toFixed(2),
    payments: ordered.length ? ordered.map((p, i) => v.payment(modes[i], amount(p.amount))) : [v.payment(v.payments.Cash, amount(total))],
    modes: ordered.length ? modes : [v.payments.Cash],
    amounts: ordered.length ? ordered.map((p) => amount(p.amount)) : [amount(total)],
    storno,
  };
}
