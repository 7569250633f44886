/**
 * The ticket body checked without zod (issue 31): every ticket write validates a body of a dozen
 * members and a few items of a dozen more, and zod's general machinery cost as much as the rest of
 * the ticket's rules. This is the same schema (resource.ts `tickets.schema`), written out: it answers
 * what `tickets.schema.parse` would answer — the same members in the same order, the same defaults,
 * enum values in their canonical spelling, unknown members dropped — or `undefined` whenever the body
 * is anything but plainly valid, and zod then parses it and names every member at fault. So it only
 * ever decides the answer for a valid body; test/tickets/fast-body.test.ts holds it to zod's on
 * generated bodies, valid and broken.
 */
import { hasAtMostStoredPlaces } from '../../core/money.js';
import type { Doc } from '../../engine/define.js';
import { ID_PATTERN, MAX_INT32, MAX_MAGNITUDE, MAX_STRING } from '../../engine/fields.js';

type Obj = Record<string, unknown>;
/** Not sure: zod decides. */
const NO = Symbol('no');
type Out<T> = T | typeof NO;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_STRING;
const isIdKey = (v: unknown): v is string => typeof v === 'string' && ID_PATTERN.test(v) && v !== '.' && v !== '..';
const NAME_FORBIDDEN = /[\u0000-\u001f/]/;
const isNameKey = (v: unknown): v is string =>
  typeof v === 'string' && v.length >= 1 && v.length <= MAX_STRING && v.trim() === v && !NAME_FORBIDDEN.test(v) && v !== '.' && v !== '..';
const isInt = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;
const isDecimal = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= -MAX_MAGNITUDE && v <= MAX_MAGNITUDE && hasAtMostStoredPlaces(v);
const isRate = (v: unknown): v is number => isDecimal(v) && v >= 0 && v <= 100;

/** `nullableText().default(null)`. */
const nullableText = (v: unknown): Out<string | null> => (v === undefined || v === null ? null : isText(v) ? v : NO);

/** `enumOf(values).default(fallback)`: matched case-insensitively, answered in the canonical spelling. */
function enumValue(v: unknown, values: readonly string[], fallback: string): Out<string> {
  if (v === undefined) return fallback;
  if (typeof v !== 'string') return NO;
  if (values.includes(v)) return v;
  const lower = v.toLowerCase();
  return values.find((x) => x.toLowerCase() === lower) ?? NO;
}

function modifier(v: unknown): Out<Obj> {
  if (!isObject(v) || !isIdKey(v.modifierId) || !isIdKey(v.optionId)) return NO;
  const quantity = v.quantity === undefined ? 1 : v.quantity;
  if (!isInt(quantity, 1, 1000)) return NO;
  return { modifierId: v.modifierId, optionId: v.optionId, quantity };
}

function item(v: unknown, itemTypes: readonly string[]): Out<Obj> {
  if (!isObject(v)) return NO;
  const out: Obj = {};
  if (v.id !== undefined) {
    if (!isInt(v.id, 1, MAX_INT32)) return NO;
    out.id = v.id;
  }
  const plu = v.plu;
  if (!isObject(plu) || !isInt(plu.code, 0, Number.MAX_SAFE_INTEGER) || !isNameKey(plu.stockName)) return NO;
  if (plu.name !== undefined && !isText(plu.name)) return NO;
  out.plu = plu.name === undefined ? { code: plu.code, stockName: plu.stockName } : { code: plu.code, stockName: plu.stockName, name: plu.name };
  const type = enumValue(v.type, itemTypes, 'Positive');
  if (type === NO) return NO;
  out.type = type;
  if (!isDecimal(v.quantity) || !(v.quantity > 0)) return NO;
  out.quantity = v.quantity;
  if (v.unitPrice !== undefined) {
    if (!isObject(v.unitPrice) || !isDecimal(v.unitPrice.amount)) return NO;
    out.unitPrice = { amount: v.unitPrice.amount };
  }
  const discountRate = v.discountRate === undefined ? 0 : v.discountRate;
  if (!isRate(discountRate)) return NO;
  out.discountRate = discountRate;
  let modifiers: Obj[] = [];
  if (v.modifiers !== undefined) {
    if (!Array.isArray(v.modifiers) || v.modifiers.length > 50) return NO;
    modifiers = [];
    for (const m of v.modifiers) {
      const parsed = modifier(m);
      if (parsed === NO) return NO;
      modifiers.push(parsed);
    }
  }
  out.modifiers = modifiers;
  const comment = nullableText(v.comment);
  if (comment === NO) return NO;
  out.comment = comment;
  return out;
}

/** The ticket body as `tickets.schema` parses it, or undefined (zod decides, and says what is wrong). */
export function fastTicketBody(v: unknown, enums: { purchaseTypes: readonly string[]; itemTypes: readonly string[] }): Doc | undefined {
  if (!isObject(v)) return undefined;
  const out: Obj = {};
  if (v.id !== undefined) {
    if (!isIdKey(v.id)) return undefined;
    out.id = v.id;
  }
  const externalId = nullableText(v.externalId);
  if (externalId === NO) return undefined;
  out.externalId = externalId;
  const name = v.name === undefined ? '' : v.name;
  if (!isText(name)) return undefined;
  out.name = name;
  const purchaseType = enumValue(v.purchaseType, enums.purchaseTypes, 'WalkIn');
  if (purchaseType === NO) return undefined;
  out.purchaseType = purchaseType;
  const currencyLabel = nullableText(v.currencyLabel);
  if (currencyLabel === NO) return undefined;
  out.currencyLabel = currencyLabel;
  const discountRate = v.discountRate === undefined ? 0 : v.discountRate;
  if (!isRate(discountRate)) return undefined;
  out.discountRate = discountRate;
  const customer = v.customer;
  if (customer === undefined || customer === null) out.customer = null;
  else {
    if (!isObject(customer)) return undefined;
    const c: Obj = {};
    if (customer.id !== undefined) {
      if (!isIdKey(customer.id)) return undefined;
      c.id = customer.id;
    }
    if (customer.cardSerialNumber !== undefined) {
      if (customer.cardSerialNumber !== null && !isText(customer.cardSerialNumber)) return undefined;
      c.cardSerialNumber = customer.cardSerialNumber;
    }
    out.customer = c;
  }
  const location = v.location;
  if (location === undefined || location === null) out.location = null;
  else {
    if (!isObject(location)) return undefined;
    const tableName = nullableText(location.tableName);
    const zoneName = nullableText(location.zoneName);
    if (tableName === NO || zoneName === NO) return undefined;
    out.location = { tableName, zoneName };
  }
  const note = nullableText(v.note);
  if (note === NO) return undefined;
  out.note = note;
  const items: Obj[] = [];
  if (v.items !== undefined) {
    if (!Array.isArray(v.items) || v.items.length > 1000) return undefined;
    for (const i of v.items) {
      const parsed = item(i, enums.itemTypes);
      if (parsed === NO) return undefined;
      items.push(parsed);
    }
  }
  out.items = items;
  return out;
}
