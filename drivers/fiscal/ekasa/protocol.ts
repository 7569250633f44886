/**
 * PORTOS eKasa local HTTP API (Nine Digit; docs at ekasa.ninedigit.sk, "Web API quick start"), pure:
 * the registration request built from a receipt, the answer read back, the QR code content, settings.
 * No I/O. Sources (NOTES in README, "Fiscal devices"):
 *
 * - Quick start: `POST {server}/api/v1/requests/receipts/cash_register` with
 *   `{request: {data: {items, payments, headerText, footerText, cashRegisterCode}, externalId}}`;
 *   items `{type, name, price, unitPrice, quantity {amount, unit}, vatRate, description}`; up to 500
 *   items; name ≤ 255 characters, "only alphanumeric values + CR + LF"; price to 2 decimals and equal to
 *   unitPrice × quantity; unitPrice to 6 decimals; quantity to 4 decimals.
 * - The vendor's PHP client (github.com/ninedigit/ekasa-clientphp): the answer
 *   `{request: {data: {receiptNumber, okp, pkp, amount, issueDate, cashRegisterCode, …}, id, externalId},
 *   response: {data: {id}, processDate} | null, isSuccessful: true | false | null, error: {message, code}}`
 *   (isSuccessful null: not sent yet, i.e. registered offline; response.data.id is the UUID "O-…");
 *   item types Positive, ReturnedContainer, Returned, Correction, Discount, Advance, Voucher; payment
 *   "Hotovosť" for cash and a negative payment for change ("Výdavok"); error codes -100…-1000.
 * - The QR code of a Slovak eKasa receipt: the UUID when registered online; offline
 *   `OKP:cash register code:issue date DDMMYYhhmmss:receipt number:amount` (Dotypay eKasa spec v1.7,
 *   ResponseDocument.qrCode example).
 */
import { Decimal } from 'decimal.js';
import { type EkasaInfo, type PaymentKind, type Receipt } from '../types.js';
import { DeviceError, type FaultCode } from '../../faults.js';
import { refused } from '../../settings.js';

export const REGISTER_PATH = '/api/v1/requests/receipts/cash_register';
/**
 * How a registration is looked up by its externalId. Not in the public quick start: an assumption kept
 * in this one place, to confirm against a real PORTOS eKasa installation (README, "eKasa").
 */
export const LOOKUP_PATH = (externalId: string) => `${REGISTER_PATH}?externalId=${encodeURIComponent(externalId)}`;

export interface EkasaItem {
  type: 'Positive' | 'Discount';
  name: string;
  price: string;
  unitPrice: string;
  quantity: { amount: string; unit: string };
  vatRate: string | null;
  description?: string;
}

export interface EkasaRequest {
  request: {
    data: { items: EkasaItem[]; payments: Array<{ name: string; amount: string }>; headerText?: string; footerText?: string; cashRegisterCode: string };
    externalId: string;
  };
}

export interface EkasaAnswer {
  request: { data: { receiptNumber: number; okp?: string | null; amount: number | string; issueDate?: string; createDate?: string; cashRegisterCode: string }; id: string; externalId: string };
  response: { data: { id: string | null }; processDate: string | null } | null;
  isSuccessful: boolean | null;
  error: { message: string; code: number | null } | null;
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

/**
 * The lines with each returned item (a negative line) taken off a sold line of the same name, unit
 * price and VAT rate on the same ticket: a storno before the receipt is registered is no return in
 * eKasa's sense (that needs the original receipt's id), it just sells less. A line sold out entirely
 * disappears; a return with nothing to take it off stays negative and is refused.
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

/** Why the service would refuse this receipt (its lines netted), or null. */
export function receiptProblem(receipt: Pick<Receipt, 'lines' | 'payments'>): string | null {
  if (receipt.lines.length === 0) return 'a receipt needs at least one line';
  if (receipt.lines.length > 250) return 'eKasa takes at most 500 items (a line with a discount takes two)';
  for (const [i, l] of receipt.lines.entries()) {
    if (new Decimal(l.total).isNegative()) return `line ${i + 1} (${l.name}) is a return: eKasa needs the original receipt's id for it, which a close does not carry`;
    if (new Decimal(l.quantity).lte(0)) return `line ${i + 1} (${l.name}) has quantity ${l.quantity}`;
    if (new Decimal(l.quantity).decimalPlaces() > 4) return `line ${i + 1} (${l.name}) has a quantity with more than 4 decimals`;
  }
  if (receipt.payments.length === 0) return 'a receipt needs a payment';
  return null;
}

/**
 * The registration request of one receipt. Each line is a Positive item whose price is unitPrice ×
 * quantity to the cent; the line's own discount (and its share of the ticket's discount, split per VAT
 * rate, the last cent to the largest share) follows as a Discount item of the same VAT rate, so the
 * items add up to the receipt's total exactly. Payments are named per kind; change is a negative
 * "Výdavok" payment, so the payments add up to the total as well.
 */
export function buildRequest(given: Receipt, s: EkasaSettings, jobId: string): EkasaRequest {
  const receipt = { ...given, lines: netLines(given.lines) };
  const problem = receiptProblem(receipt);
  if (problem) throw new DeviceError('REJECTED', problem, false, 'PLAN');
  const items: EkasaItem[] = [];
  const rate = (r: string) => d2(new Decimal(r));
  let linesTotal = new Decimal(0);
  const byRate = new Map<string, Decimal>();
  for (const l of receipt.lines) {
    const unit = new Decimal(l.unitPrice);
    const qty = new Decimal(l.quantity);
    const price = unit.times(qty).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    const name = cleanName(l.name);
    items.push({ type: 'Positive', name, price: price.toFixed(2), unitPrice: unit.toFixed(6), quantity: { amount: qty.toFixed(4), unit: s.unit }, vatRate: rate(l.vatRate) });
    const total = new Decimal(l.total);
    const discount = total.minus(price);
    if (!discount.isZero()) items.push(discountItem(`Zľava ${name}`, discount, rate(l.vatRate)));
    linesTotal = linesTotal.plus(total);
    byRate.set(rate(l.vatRate), (byRate.get(rate(l.vatRate)) ?? new Decimal(0)).plus(total));
  }
  const ticketDiscount = new Decimal(receipt.total).minus(linesTotal);
  if (!ticketDiscount.isZero()) {
    const rates = [...byRate.entries()].sort((a, b) => b[1].comparedTo(a[1]));
    let left = ticketDiscount;
    rates.forEach(([r, base], i) => {
      const share = i === rates.length - 1 ? left : ticketDiscount.times(base).div(linesTotal).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
      left = left.minus(share);
      if (!share.isZero()) items.push(discountItem('Zľava na doklad', share, r));
    });
  }
  const payments = receipt.payments
    .filter((p) => !new Decimal(p.amount).isZero())
    .map((p) => ({ name: (s.paymentNames[p.kind] ?? cleanName(p.name)).slice(0, 255), amount: d2(new Decimal(p.amount)) }));
  if (new Decimal(receipt.change).gt(0)) payments.push({ name: CHANGE_NAME, amount: d2(new Decimal(receipt.change).negated()) });
  const data: EkasaRequest['request']['data'] = { items, payments, cashRegisterCode: s.cashRegisterCode };
  if (s.headerText) data.headerText = s.headerText;
  if (s.footerText) data.footerText = s.footerText;
  return { request: { data, externalId: jobId } };
}

function discountItem(name: string, amount: Decimal, vatRate: string): EkasaItem {
  const v = amount.toFixed(2);
  return { type: 'Discount', name: cleanName(name), price: v, unitPrice: amount.toFixed(6), quantity: { amount: '1.0000', unit: 'x' }, vatRate };
}

/** `2023-11-28T15:24:30+01:00` → `281123152430`: the issue date as the offline QR code carries it, in the time the service wrote. */
function qrDate(iso: string): string {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)/.exec(iso);
  if (!m) return '';
  return `${m[3]}${m[2]}${m[1].slice(2)}${m[4]}${m[5]}${m[6]}`;
}

/** The eKasa identifiers of a registration answer, or null when it registered nothing (isSuccessful false). */
export function readAnswer(a: EkasaAnswer): EkasaInfo | null {
  if (a.isSuccessful === false) return null;
  const data = a.request.data;
  const uuid = a.isSuccessful === true ? (a.response?.data.id ?? undefined) : undefined;
  const okp = data.okp ?? undefined;
  const offline = a.isSuccessful !== true || !uuid;
  const amount = new Decimal(data.amount).toFixed(2);
  const qrCode = !offline && uuid ? uuid : `${okp ?? ''}:${data.cashRegisterCode}:${qrDate(data.issueDate ?? data.createDate ?? '')}:${data.receiptNumber}:${amount}`;
  return { ...(uuid ? { uuid } : {}), ...(okp ? { okp } : {}), receiptNumber: data.receiptNumber, offline, qrCode };
}

/**
 * The hub's fault for an error answer of the service: its errorCode (the PHP client's ApiErrorCode) or
 * the HTTP status. An error answer registered nothing: the outcome is known.
 */
export function faultOfAnswer(status: number, body: unknown): DeviceError {
  const b = (body ?? {}) as { errorCode?: number; code?: number; title?: string; detail?: string; message?: string; error?: { code?: number; message?: string } };
  const code = b.errorCode ?? b.code ?? b.error?.code ?? null;
  const text = b.detail ?? b.title ?? b.message ?? b.error?.message ?? `HTTP ${status}`;
  const byCode: Record<number, FaultCode> = {
    [-101]: 'BUSY', // client locked
    [-102]: 'REJECTED', // invalid time
    [-300]: 'REJECTED', // certificate error
    [-301]: 'REJECTED',
    [-302]: 'REJECTED', // certificate expired
    [-400]: 'FISCAL_MEMORY_FULL', // protected storage (CHDÚ) error
    [-401]: 'FISCAL_MEMORY_FULL', // CHDÚ full
    [-402]: 'REJECTED', // CHDÚ of another DIČ
    [-500]: 'OFFLINE', // printer error
    [-501]: 'OFFLINE', // printer not found
    [-502]: 'OFFLINE', // printing failed
    [-503]: 'PAPER_OUT', // printer not ready (paper, cover)
    [-900]: 'REJECTED', // validation
    [-1000]: 'REJECTED', // unauthenticated
  };
  const fault: FaultCode = code !== null && byCode[code] ? byCode[code] : status === 400 || status === 422 ? 'REJECTED' : status === 401 || status === 403 ? 'REJECTED' : status >= 500 ? 'OFFLINE' : 'PROTOCOL';
  return new DeviceError(fault, `eKasa: ${text}`, false, code !== null ? `EKASA${code}` : `HTTP${status}`);
}
