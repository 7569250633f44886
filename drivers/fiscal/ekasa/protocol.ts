/**
 * PORTOS eKasa local HTTP API (Nine Digit), pure: the registration request built from a receipt, every
 * answer of the service validated before any of it is used, the outcome an answer proves, the QR code
 * content, Slovak cash rounding, settings. No I/O. What each rule rests on (README, "Fiscal devices"):
 *
 * - Quick start (ekasa.ninedigit.sk/docs/webapi/quick-start): `POST {server}/api/v1/requests/receipts/
 *   cash_register` with `{request: {data: {items, payments, headerText, footerText, cashRegisterCode},
 *   externalId}}`; items `{type, name, price, unitPrice, quantity {amount, unit}, vatRate}`; up to 500
 *   items; name ≤ 255 characters, letters and digits (+ CR, LF); price to 2 decimals and equal to
 *   unitPrice × quantity; unitPrice to 6 decimals; quantity positive, to 4 decimals.
 * - The vendor's PHP client (github.com/ninedigit/ekasa-clientphp, src/Models/Registrations/Receipts):
 *   the answer `{request: {data: {receiptNumber, okp, pkp, amount, roundingAmount, issueDate, …}, id,
 *   externalId}, response: {data: {id}, processDate}, isSuccessful, error: {message, code}}` and a real
 *   captured one (tests/data/response1.json: a UUID `O-` + 32 hex, an OKP of 5 × 8 hex in lower case);
 *   isSuccessful true = registered online, null = registered offline (not sent yet), false = failed
 *   (MIGRATION.md); item types (ReceiptItemType.php; Returned: negative, with `referenceReceiptId` = the
 *   original's UUID, or its OKP when it has none, ReceiptItemDto.php); `roundingAmount` in the receipt
 *   data, −0.04…0.04, the cash part rounded to 5 cents (ReceiptDto.php), and in its integration test
 *   items 3.48 paid 4.00 − 0.50 with roundingAmount 0.02: the payments add up to items + rounding;
 *   error codes (ApiErrorCode.php); 400/422 carry validation problem details (HttpClient.php).
 * - Public clients of the same service: a JS restaurant POS reads 200 as registered online and 202 as
 *   registered offline, and looks a registration up with `GET /api/v1/requests/receipts/receipt?
 *   CashRegisterCode=…&ExternalId=…` (404: none); the unizdrav fork of the PHP client has the same
 *   endpoint, and the status endpoints `GET /api/v1/printers/status` `{state: Unknown|Ready|Error,
 *   paperState: Ready|CoverOpen|NearEnd|Empty}` and `GET /api/v1/connectivity/status` `{state:
 *   Unknown|Up|Down}`, and `GET /api/v1/product/info` `{vendorName, swid, ppekk {name, version}, chdu
 *   {name, version}}`.
 * - The QR code of a Slovak eKasa receipt: the UUID when registered online; offline
 *   `OKP:cash register code:issue date DDMMYYhhmmss:receipt number:amount` (Dotypay eKasa spec v1.7).
 */
import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { type EkasaInfo, type PaymentKind, type Receipt } from '../types.js';
import { DeviceError, type FaultCode } from '../../faults.js';
import { refused } from '../../settings.js';

export const REGISTER_PATH = '/api/v1/requests/receipts/cash_register';
/** A registration looked up by its externalId (two public clients; 404: the service holds none). */
export const LOOKUP_PATH = (cashRegisterCode: string, externalId: string) =>
  `/api/v1/requests/receipts/receipt?CashRegisterCode=${encodeURIComponent(cashRegisterCode)}&ExternalId=${encodeURIComponent(externalId)}`;
export const PRODUCT_INFO_PATH = '/api/v1/product/info';
export const PRINTER_STATUS_PATH = '/api/v1/printers/status';
export const CONNECTIVITY_PATH = '/api/v1/connectivity/status';

export type EkasaItemType = 'Positive' | 'Discount' | 'Returned';

export interface EkasaItem {
  type: EkasaItemType;
  name: string;
  price: string;
  unitPrice: string;
  quantity: { amount: string; unit: string };
  vatRate: string | null;
  /** Returned items: the original receipt's UUID, or its OKP when it was registered offline. */
  referenceReceiptId?: string;
  description?: string;
}

export interface EkasaRequest {
  request: {
    data: {
      items: EkasaItem[];
      payments: Array<{ name: string; amount: string }>;
      /** What the cash rounding added to the cash paid (negative: took off), when it is not zero. */
      roundingAmount?: string;
      headerText?: string;
      footerText?: string;
      cashRegisterCode: string;
    };
    externalId: string;
  };
}

export interface EkasaSettings {
  cashRegisterCode: string;
  headerText?: string;
  footerText?: string;
  /** The unit printed beside quantities ("ks"). */
  unit: string;
  paymentNames: Record<PaymentKind, string | null>;
  timeoutMs: number;
}

/** Names the payment kinds carry on the receipt unless settings say otherwise; null: the payment type's own name. */
export const DEFAULT_PAYMENT_NAMES: Record<PaymentKind, string | null> = { Cash: 'Hotovosť', CreditCard: 'Platobná karta', Voucher: 'Poukážka', Other: null };
export const CHANGE_NAME = 'Výdavok';
export const DEFAULT_TIMEOUT_MS = 10_000;

export class EkasaSettingsError extends Error {}

/**
 * Settings of an `ekasa` fiscal device: CashRegisterCode (the ORP code, 16-17 digits, required),
 * HeaderText, FooterText, Unit ("ks"), PaymentNames ("CreditCard=Karta,Voucher=Stravenka"),
 * TimeoutMs (10000).
 */
export function parseEkasaSettings(settings: Record<string, string>): EkasaSettings {
  const code = settings.CashRegisterCode ?? '';
  if (!/^\d{16,17}$/.test(code)) throw refused(new EkasaSettingsError(`CashRegisterCode: '${code}' is not the 16 or 17 digits of the cash register's code (kód ORP)`), 'cashRegisterCode', { setting: 'CashRegisterCode', value: code });
  const names = { ...DEFAULT_PAYMENT_NAMES };
  for (const pair of (settings.PaymentNames ?? '').split(',').filter((p) => p.trim())) {
    const m = /^\s*(Cash|CreditCard|Voucher|Other)\s*=\s*(.{1,255})$/.exec(pair);
    if (!m) throw refused(new EkasaSettingsError(`PaymentNames: '${pair}' is not <Cash|CreditCard|Voucher|Other>=<name>`), 'form', { setting: 'PaymentNames', value: pair, form: '<Cash|CreditCard|Voucher|Other>=<name>' });
    names[m[1] as PaymentKind] = m[2].trim();
  }
  const timeout = settings.TimeoutMs ?? String(DEFAULT_TIMEOUT_MS);
  if (!/^\d{3,6}$/.test(timeout)) throw refused(new EkasaSettingsError(`TimeoutMs: '${timeout}' is not 100-999999`), 'range', { setting: 'TimeoutMs', value: timeout, range: '100-999999' });
  return { cashRegisterCode: code, headerText: settings.HeaderText, footerText: settings.FooterText, unit: settings.Unit ?? 'ks', paymentNames: names, timeoutMs: Number(timeout) };
}

/** A name as the service takes it: letters, digits and spaces (plus CR/LF), at most 255 characters, never empty. */
export function cleanName(name: string): string {
  const clean = name
    .replace(/[^\p{L}\p{N} \r\n]+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, 255);
  return clean || 'Polozka';
}

const d2 = (v: Decimal) => v.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
const round2 = (v: Decimal) => v.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

/**
 * The lines with each returned item (a negative line) taken off a sold line of the same name, unit
 * price and VAT rate on the same ticket: a storno before the receipt is registered is no return in
 * eKasa's sense (that refers to an earlier receipt), it just sells less. A line sold out entirely
 * disappears; a return with nothing to take it off stays negative (a Returned item, which needs the
 * original receipt).
 */
export function netLines(lines: Receipt['lines']): Receipt['lines'] {
  const key = (l: Receipt['lines'][number]) => `${l.name}\u0000${new Decimal(l.unitPrice).toString()}\u0000${new Decimal(l.vatRate).toString()}`;
  const out: Receipt['lines'] = lines.filter((l) => !new Decimal(l.total).isNegative()).map((l) => ({ ...l }));
  for (const ret of lines.filter((l) => new Decimal(l.total).isNegative())) {
    const sold = out.find((l) => key(l) === key(ret) && new Decimal(l.quantity).gte(ret.quantity) && new Decimal(l.total).plus(ret.total).gte(0));
    if (!sold) {
      out.push(ret);
      continue;
    }
    sold.quantity = new Decimal(sold.quantity).minus(ret.quantity).toString();
    sold.total = new Decimal(sold.total).plus(ret.total).toFixed(2);
  }
  return out.filter((l) => !(new Decimal(l.quantity).isZero() && new Decimal(l.total).isZero()));
}

/**
 * The id a Returned item refers to: the original receipt's UUID, else its OKP (ReceiptItemDto:
 * "if the original receipt has no unique identifier, its OKP"). Undefined when the original was not
 * registered by an eKasa service (another kind of fiscal device).
 */
export function referenceOf(origin: Receipt['returnOf']): string | undefined {
  return origin?.ekasa?.uuid ?? origin?.ekasa?.okp;
}

/** A refusal the service would give this receipt for sure: permanent, nothing was sent. */
function plan(message: string): DeviceError {
  return new DeviceError('REJECTED', message, false, 'PLAN');
}

/** Why the service would refuse this receipt (its lines netted), or null. */
export function receiptProblem(receipt: Pick<Receipt, 'lines' | 'payments' | 'returnOf'>): string | null {
  if (receipt.lines.length === 0) return 'a receipt needs at least one line';
  if (receipt.lines.length > 250) return 'eKasa takes at most 500 items (a line with a discount takes two)';
  for (const [i, l] of receipt.lines.entries()) {
    if (new Decimal(l.quantity).lte(0)) return `line ${i + 1} (${l.name}) has quantity ${l.quantity}`;
    if (new Decimal(l.quantity).decimalPlaces() > 4) return `line ${i + 1} (${l.name}) has a quantity with more than 4 decimals`;
    if (new Decimal(l.total).isNegative() && !referenceOf(receipt.returnOf)) {
      return receipt.returnOf
        ? `line ${i + 1} (${l.name}) is a return of ticket ${receipt.returnOf.ticketId}, whose receipt (fiscal device ${receipt.returnOf.fiscalName}) was not registered by an eKasa service: eKasa refunds only against the original receipt's UUID or OKP`
        : `line ${i + 1} (${l.name}) is a return: eKasa refunds only against the original receipt (start the return from the closed ticket)`;
    }
  }
  if (receipt.payments.length === 0) return 'a receipt needs a payment';
  return null;
}

/** The unit price (6 places) that makes `amount` exactly when multiplied by `quantity` and rounded to the cent. */
function unitPriceFor(amount: Decimal, quantity: Decimal): Decimal {
  const first = amount.div(quantity).toDecimalPlaces(6, Decimal.ROUND_HALF_UP);
  const step = new Decimal('0.000001');
  for (let k = 0; k <= 1000; k++) {
    for (const u of k === 0 ? [first] : [first.plus(step.times(k)), first.minus(step.times(k))]) {
      if (round2(u.times(quantity)).eq(amount)) return u;
    }
  }
  throw plan(`no unit price to 6 places gives ${amount.toFixed(2)} for quantity ${quantity.toString()}`);
}

/** Each line's total with its share of what the ticket's own discount (or surcharge) changes, to the cent; the last cent to the largest line. */
function withTicketShare(lines: Receipt['lines'], change: Decimal): Decimal[] {
  const totals = lines.map((l) => new Decimal(l.total));
  const sum = totals.reduce((s, t) => s.plus(t), new Decimal(0));
  if (change.isZero() || sum.isZero()) return totals;
  const largest = totals.reduce((best, t, i) => (t.abs().gt(totals[best].abs()) ? i : best), 0);
  const shares = totals.map((t) => change.times(t).div(sum).toDecimalPlaces(2, Decimal.ROUND_HALF_UP));
  shares[largest] = shares[largest].plus(change.minus(shares.reduce((s, x) => s.plus(x), new Decimal(0))));
  return totals.map((t, i) => t.plus(shares[i]));
}

/**
 * The registration request of one receipt; its items add up to the receipt's total exactly.
 * - A sold line is a Positive item priced unitPrice × quantity to the cent; what its own discount takes
 *   off follows as a Discount item (always negative) of the same VAT rate, and the ticket's discount as
 *   Discount items per VAT rate (the last cent to the largest). A line that costs more than unitPrice ×
 *   quantity (a surcharge, which is no discount) is sent at the price it really costs.
 * - A returned line (a return started from a closed ticket) is a Returned item at the price really
 *   refunded (its discounts and its share of the ticket's discount included: a Discount item can only
 *   lower a price), referring to the original receipt by its UUID, or its OKP when it had none.
 * - Payments are named per kind; change is a negative "Výdavok" payment; the cash rounding goes as
 *   `roundingAmount`, so the payments add up to the total plus the rounding.
 */
export function buildRequest(given: Receipt, s: EkasaSettings, jobId: string): EkasaRequest {
  const receipt = { ...given, lines: netLines(given.lines) };
  const problem = receiptProblem(receipt);
  if (problem) throw plan(problem);
  const rate = (r: string) => d2(new Decimal(r));
  const reference = referenceOf(receipt.returnOf);
  const linesTotal = receipt.lines.reduce((sum, l) => sum.plus(l.total), new Decimal(0));
  const ticketChange = new Decimal(receipt.total).minus(linesTotal);
  // A ticket discount on sold lines only is shown as Discount items; a surcharge, or any change of a
  // receipt that refunds, goes into the lines' own prices.
  const hasReturns = receipt.lines.some((l) => new Decimal(l.total).isNegative());
  const folded = hasReturns || ticketChange.gt(0);
  const finals = folded ? withTicketShare(receipt.lines, ticketChange) : receipt.lines.map((l) => new Decimal(l.total));
  const items: EkasaItem[] = [];
  const byRate = new Map<string, Decimal>();
  receipt.lines.forEach((l, i) => {
    const qty = new Decimal(l.quantity);
    const quantity = { amount: qty.toFixed(4), unit: s.unit };
    const name = cleanName(l.name);
    const vatRate = rate(l.vatRate);
    const final = finals[i];
    if (final.isNegative()) {
      items.push({ type: 'Returned', name, price: final.toFixed(2), unitPrice: unitPriceFor(final, qty).toFixed(6), quantity, vatRate, referenceReceiptId: reference! });
      return;
    }
    if (final.isZero() && new Decimal(l.total).isNegative()) return;
    const unit = new Decimal(l.unitPrice);
    const price = round2(unit.times(qty));
    if (final.gt(price)) {
      items.push({ type: 'Positive', name, price: final.toFixed(2), unitPrice: unitPriceFor(final, qty).toFixed(6), quantity, vatRate });
    } else {
      items.push({ type: 'Positive', name, price: price.toFixed(2), unitPrice: unit.toFixed(6), quantity, vatRate });
      if (final.lt(price)) items.push(discountItem(`Zľava ${name}`, final.minus(price), vatRate));
    }
    byRate.set(vatRate, (byRate.get(vatRate) ?? new Decimal(0)).plus(final));
  });
  if (!items.length) throw plan('nothing on the receipt has a price');
  if (!folded && !ticketChange.isZero()) {
    const base = [...byRate.values()].reduce((sum, v) => sum.plus(v), new Decimal(0));
    const rates = [...byRate.entries()].sort((a, b) => b[1].comparedTo(a[1]));
    let left = ticketChange;
    rates.forEach(([r, part], i) => {
      const share = i === rates.length - 1 ? left : ticketChange.times(part).div(base).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
      left = left.minus(share);
      if (!share.isZero()) items.push(discountItem('Zľava na doklad', share, r));
    });
  }
  const payments = receipt.payments
    .filter((p) => !new Decimal(p.amount).isZero())
    .map((p) => ({ name: (s.paymentNames[p.kind] ?? cleanName(p.name)).slice(0, 255), amount: d2(new Decimal(p.amount)) }));
  if (new Decimal(receipt.change).gt(0)) payments.push({ name: CHANGE_NAME, amount: d2(new Decimal(receipt.change).negated()) });
  if (!payments.length) throw plan('a receipt needs a payment that is not zero');
  const data: EkasaRequest['request']['data'] = { items, payments, cashRegisterCode: s.cashRegisterCode };
  const rounding = new Decimal(receipt.rounding ?? 0);
  if (!rounding.isZero()) data.roundingAmount = d2(rounding);
  if (s.headerText) data.headerText = s.headerText;
  if (s.footerText) data.footerText = s.footerText;
  return { request: { data, externalId: jobId } };
}

/** A Discount item: always negative (the service refuses a positive one). */
function discountItem(name: string, amount: Decimal, vatRate: string): EkasaItem {
  if (!amount.isNegative()) throw new Error(`a Discount item of ${amount.toFixed(2)}: a discount is negative`);
  return { type: 'Discount', name: cleanName(name), price: amount.toFixed(2), unitPrice: amount.toFixed(6), quantity: { amount: '1.0000', unit: 'x' }, vatRate };
}

// --- Answers: validated before any of them is used (a rogue or changed service stores nothing odd). ---

export const UUID = /^O-[0-9A-Fa-f]{32}$/;
export const OKP = /^[0-9A-Fa-f]{8}(-[0-9A-Fa-f]{8}){4}$/;
/** ISO 8601 date and time as the service writes them ("2023-11-28T15:24:30+01:00"; the offset taken as optional). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,7})?(Z|[+-]\d{2}:\d{2})?$/;

/** Printable text, bounded: what the service says in an error, for logs and problem details. */
export function serviceText(value: unknown, max = 200): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/[\u0000-\u001f\u007f-\u009f<>]+/g, ' ').replace(/\s+/g, ' ').trim();
  return text ? text.slice(0, max) : undefined;
}

const dateTime = z.string().max(40).regex(DATE_TIME).refine((v) => !Number.isNaN(Date.parse(v)), 'not a date');
/** An amount as the service writes it: a number, or a decimal string, to the cent, within ±10,000,000. */
const amount = z
  .union([z.number(), z.string().max(20)])
  .transform((v, ctx) => {
    const text = typeof v === 'number' ? String(v) : v;
    if (!/^-?\d{1,8}(\.\d{1,2})?$/.test(text) || (typeof v === 'number' && !Number.isFinite(v))) {
      ctx.addIssue({ code: 'custom', message: 'not an amount to the cent' });
      return z.NEVER;
    }
    return new Decimal(text);
  })
  .refine((d) => d.abs().lte(10_000_000), 'out of range');

const registrationSchema = z.object({
  request: z.object({
    data: z.object({
      receiptNumber: z.number().int().min(1).max(4_294_967_295),
      okp: z.string().regex(OKP).nullish(),
      amount: amount.nullish(),
      issueDate: dateTime.nullish(),
      createDate: dateTime.nullish(),
      cashRegisterCode: z.string().regex(/^\d{16,17}$/).nullish(),
    }),
    externalId: z.string().max(200).nullish(),
  }),
  response: z.object({ data: z.object({ id: z.string().regex(UUID).nullable() }).nullable(), processDate: dateTime.nullish() }).nullish(),
  isSuccessful: z.boolean().nullish(),
  error: z.object({ message: z.unknown().optional(), code: z.number().int().nullish() }).nullish(),
});

/** A registration as the service holds it, checked. */
export interface Registration {
  receiptNumber: number;
  /** Always there offline; a lean service may leave it out of an online registration (the UUID identifies it). */
  okp?: string;
  amount: string;
  /** The issue date as the service wrote it (its own offset). */
  issueDate: string;
  cashRegisterCode: string;
  /** Present once the eKasa system accepted it online. */
  uuid?: string;
  /** true: registered online; null: registered offline, sent later; false: the eKasa system refused it (stored all the same). */
  isSuccessful: boolean | null;
  error?: { message?: string; code?: number };
}

/** What the hub knows of a registration it asked for, to check an answer against and to fill in what a lean answer leaves out. */
export interface Expected {
  externalId: string;
  cashRegisterCode: string;
  /** The receipt's amount as sent (the items' prices), where the driver still knows it. */
  amount?: string;
  /** The hub's time of asking: the issue date of an answer that carries none. */
  askedAt: string;
}

/**
 * The registration in an answer of the service (to a registration or a lookup) for `externalId` on
 * `cashRegisterCode`, checked field by field; anything else is a PROTOCOL fault whose outcome is
 * unknown (the service may well have registered it: only a lookup can tell).
 * The vendor's service echoes the request (externalId, cash register code) and writes the amount,
 * the OKP and the issue date; a service that leaves some out (a leaner compatible one) is read all
 * the same: an echo is checked where it is given, never assumed; the amount is the one sent, the
 * issue date the service's processing time or else the hub's time of asking; isSuccessful missing
 * reads as online with a UUID, offline without. What cannot be filled in is required: the receipt
 * number, and the OKP of a receipt registered offline (it is all the customer's receipt proves then).
 */
export function parseRegistration(body: unknown, expect: Expected): Registration {
  const parsed = registrationSchema.safeParse(body);
  const bad = (why: string) => new DeviceError('PROTOCOL', `eKasa answered a registration that cannot be read (${why})`, true, 'EKASA-ANSWER');
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw bad(`${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  const { request, response, error } = parsed.data;
  if (request.externalId != null && request.externalId !== expect.externalId) throw bad(`externalId ${serviceText(request.externalId, 60) ?? '?'} is not ${expect.externalId}`);
  const code = request.data.cashRegisterCode ?? expect.cashRegisterCode;
  if (code !== expect.cashRegisterCode) throw bad(`cashRegisterCode ${code} is not ${expect.cashRegisterCode}`);
  const uuid = response?.data?.id ?? undefined;
  const isSuccessful = parsed.data.isSuccessful === undefined ? (uuid ? true : null) : parsed.data.isSuccessful;
  if (isSuccessful === true && !uuid) throw bad('registered online without a receipt id');
  const okp = request.data.okp ?? undefined;
  if (!okp && !(isSuccessful === true && uuid)) throw bad('no OKP on a receipt not registered online');
  const amountText = request.data.amount?.toFixed(2) ?? expect.amount;
  if (amountText === undefined) throw bad('no amount');
  return {
    receiptNumber: request.data.receiptNumber,
    ...(okp ? { okp } : {}),
    amount: amountText,
    issueDate: request.data.issueDate ?? request.data.createDate ?? response?.processDate ?? expect.askedAt,
    cashRegisterCode: code,
    ...(isSuccessful === true && uuid ? { uuid } : {}),
    isSuccessful,
    ...(error ? { error: { message: serviceText(error.message), code: error.code ?? undefined } } : {}),
  };
}

/** The amount of a registration request as the service sums it: its items' prices. */
export function requestAmount(req: EkasaRequest): string {
  return req.request.data.items.reduce((sum, item) => sum.plus(item.price), new Decimal(0)).toFixed(2);
}

/** `2023-11-28T15:24:30+01:00` → `281123152430`: the issue date as the offline QR code carries it, in the time the service wrote. */
function qrDate(iso: string): string {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)/.exec(iso)!;
  return `${m[3]}${m[2]}${m[1].slice(2)}${m[4]}${m[5]}${m[6]}`;
}

/** What closeInfo.ekasa keeps of a registration: only checked fields, and a QR code made of them. */
export function ekasaInfoOf(r: Registration): EkasaInfo {
  const offline = !r.uuid;
  const qrCode = r.uuid ?? `${r.okp}:${r.cashRegisterCode}:${qrDate(r.issueDate)}:${r.receiptNumber}:${r.amount}`;
  return { ...(r.uuid ? { uuid: r.uuid } : {}), ...(r.okp ? { okp: r.okp } : {}), receiptNumber: r.receiptNumber, offline, qrCode };
}

/** The service's error code (the PHP client's ApiErrorCode) and its text, read from a problem answer. */
function problemOf(status: number, body: unknown): { code: number | null; text: string } {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const nested = (b.error && typeof b.error === 'object' ? b.error : {}) as Record<string, unknown>;
  const code = [b.errorCode, b.code, nested.code].find((c): c is number => Number.isInteger(c)) ?? null;
  const text = serviceText(b.detail) ?? serviceText(b.title) ?? serviceText(b.message) ?? serviceText(nested.message) ?? `HTTP ${status}`;
  return { code, text };
}

const FAULT_BY_CODE: Record<number, FaultCode> = {
  [-101]: 'BUSY', // client locked
  [-102]: 'REJECTED', // invalid time
  [-201]: 'REJECTED', // identity not found
  [-300]: 'REJECTED', // certificate error
  [-301]: 'REJECTED', // certificate not found
  [-302]: 'REJECTED', // certificate expired
  [-400]: 'FISCAL_MEMORY_FULL', // protected storage (CHDÚ) error
  [-401]: 'FISCAL_MEMORY_FULL', // CHDÚ full
  [-402]: 'REJECTED', // CHDÚ of another DIČ
  [-403]: 'PROTOCOL', // duplicate key in the CHDÚ: a repeated externalId
  [-500]: 'OFFLINE', // printer error
  [-501]: 'OFFLINE', // printer not found
  [-502]: 'OFFLINE', // printing failed
  [-503]: 'PAPER_OUT', // printer not ready (paper, cover)
  [-900]: 'REJECTED', // validation
  [-1000]: 'REJECTED', // unauthenticated
};

/**
 * Refusals that come before anything is stored: validation, authentication, the signing identity and
 * certificate, the clock, a locked client. With HTTP 400, 401, 403 or 422 (and no other code) they
 * prove nothing was registered.
 */
const BEFORE_STORAGE = new Set([-101, -102, -201, -300, -301, -302, -900, -1000]);

/**
 * The hub's fault for an error answer of the service to a registration. Only a refusal before storage
 * (validation, authentication: HTTP 400/401/403/422) proves that nothing was registered; any other
 * answer (a 5xx, a printer or CHDÚ fault, which come after the receipt is stored, a repeated externalId)
 * leaves the outcome unknown, settled by looking the registration up.
 */
export function faultOfAnswer(status: number, body: unknown): DeviceError {
  const { code, text } = problemOf(status, body);
  const byStatus: FaultCode = status === 400 || status === 401 || status === 403 || status === 422 ? 'REJECTED' : status >= 500 ? 'OFFLINE' : 'PROTOCOL';
  const fault = (code !== null ? FAULT_BY_CODE[code] : undefined) ?? byStatus;
  const refusedBeforeStorage = byStatus === 'REJECTED' && (code === null || BEFORE_STORAGE.has(code));
  return new DeviceError(fault, `eKasa: ${text}`, !refusedBeforeStorage, code !== null ? `EKASA${code}` : `HTTP${status}`);
}

/** The fault of a lookup that did not answer a registration or a clear "none": the job stays as it is. */
export function faultOfLookup(status: number, body: unknown): DeviceError {
  const { code, text } = problemOf(status, body);
  const fault = (code !== null ? FAULT_BY_CODE[code] : undefined) ?? (status >= 500 ? 'OFFLINE' : 'PROTOCOL');
  return new DeviceError(fault === 'REJECTED' ? 'PROTOCOL' : fault, `eKasa lookup: ${text}`, false, code !== null ? `EKASA${code}` : `HTTP${status}`);
}

/** The service's product information (`GET /api/v1/product/info`), checked. */
const productSchema = z.object({
  vendorName: z.string().max(100).nullish(),
  swid: z.string().max(100).nullish(),
  ppekk: z.object({ name: z.string().max(100), version: z.string().max(50) }).nullish(),
  chdu: z.object({ name: z.string().max(100), version: z.string().max(50) }).nullish(),
});
export type ProductInfo = z.output<typeof productSchema>;

const printerSchema = z.object({ state: z.enum(['Unknown', 'Ready', 'Error']), paperState: z.enum(['Ready', 'CoverOpen', 'NearEnd', 'Empty']).nullish() });
const connectivitySchema = z.object({ state: z.enum(['Unknown', 'Up', 'Down']) });

function parseStatusAnswer<T>(schema: z.ZodType<T>, what: string, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new DeviceError('PROTOCOL', `eKasa answered ${what} that cannot be read (${parsed.error.issues[0].path.join('.') || 'body'}: ${parsed.error.issues[0].message})`, false, 'EKASA-ANSWER');
  return parsed.data;
}

export const parseProductInfo = (body: unknown): ProductInfo => parseStatusAnswer(productSchema, 'its product information', body);
export const parsePrinterStatus = (body: unknown) => parseStatusAnswer(printerSchema, "its printer's status", body);
export const parseConnectivity = (body: unknown) => parseStatusAnswer(connectivitySchema, 'its connectivity', body);

/** A product name or version as shown to people: printable, bounded. */
export const shown = (value: string | null | undefined, max = 60) => serviceText(value ?? undefined, max);
