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
function enumValue<T extends string>(v: unknown, values: readonly T[], fallback: T): Out<T> {
  if (v === undefined) return fallback;
  if (typeof v !== 'string') return NO;
  const lower = v.toLowerCase();
  return values.find((x) => x === v) ?? values.find((x) => x.toLowerCase() === lower) ?? NO;
}

function modifier(v: unknown): Out<{ modifierId: string; optionId: string; quantity: number }> {
  if (!isObject(v) || !isIdKey(v.modifierId) || !isIdKey(v.optionId)) return NO;
  const quantity = v.quantity === undefined ? 1 : v.quantity;
  if (!isInt(quantity, 1, 1000)) return NO;
  return { modifierId: v.modifierId, optionId: v.optionId, quantity };
}

// Each object is made in one literal at the end, its members in the schema's order (the stored JSON is the answer).
function item<I extends string>(v: unknown, itemTypes: readonly I[], itemTypeDefault: I) {
  if (!isObject(v)) return NO;
  if (v.id !== undefined && !isInt(v.id, 1, MAX_INT32)) return NO;
  const id = v.id;
  const plu = v.plu;
  if (!isObject(plu) || !isInt(plu.code, 0, Number.MAX_SAFE_INTEGER) || !isNameKey(plu.stockName)) return NO;
  if (plu.name !== undefined && !isText(plu.name)) return NO;
  const type = enumValue(v.type, itemTypes, itemTypeDefault);
  if (type === NO) return NO;
  if (!isDecimal(v.quantity) || !(v.quantity > 0)) return NO;
  let unitPrice: { amount: number } | undefined;
  if (v.unitPrice !== undefined) {
    if (!isObject(v.unitPrice) || !isDecimal(v.unitPrice.amount)) return NO;
    unitPrice = { amount: v.unitPrice.amount };
  }
  const discountRate = v.discountRate === undefined ? 0 : v.discountRate;
  if (!isRate(discountRate)) return NO;
  const modifiers: Array<{ modifierId: string; optionId: string; quantity: number }> = [];
  if (v.modifiers !== undefined) {
    if (!Array.isArray(v.modifiers) || v.modifiers.length > 50) return NO;
    for (const m of v.modifiers) {
      const parsed = modifier(m);
      if (parsed === NO) return NO;
      modifiers.push(parsed);
    }
  }
  const comment = nullableText(v.comment);
  if (comment === NO) return NO;
  return {
    ...(typeof id === 'number' ? { id } : {}),
    plu: plu.name === undefined ? { code: plu.code, stockName: plu.stockName } : { code: plu.code, stockName: plu.stockName, name: plu.name },
    type,
    quantity: v.quantity,
    ...(unitPrice !== undefined ? { unitPrice } : {}),
    discountRate,
    modifiers,
    comment,
  };
}

/** The ticket body as `tickets.schema` parses it, or undefined (zod decides, and says what is wrong). The enums with the schema's defaults. */
export function fastTicketBody<P extends string, I extends string>(
  v: unknown,
  enums: { purchaseTypes: readonly P[]; purchaseTypeDefault: NoInfer<P>; itemTypes: readonly I[]; itemTypeDefault: NoInfer<I> },
) {
  if (!isObject(v)) return undefined;
  if (v.id !== undefined && !isIdKey(v.id)) return undefined;
  const id = v.id;
  const externalId = nullableText(v.externalId);
  if (externalId === NO) return undefined;
  const name = v.name === undefined ? '' : v.name;
  if (!isText(name)) return undefined;
  const purchaseType = enumValue(v.purchaseType, enums.purchaseTypes, enums.purchaseTypeDefault);
  if (purchaseType === NO) return undefined;
  const currencyLabel = nullableText(v.currencyLabel);
  if (currencyLabel === NO) return undefined;
  const discountRate = v.discountRate === undefined ? 0 : v.discountRate;
  if (!isRate(discountRate)) return undefined;
  let customer: { id?: string; cardSerialNumber?: string | null } | null = null;
  const sent = v.customer;
  if (sent !== undefined && sent !== null) {
    if (!isObject(sent)) return undefined;
    if (sent.id !== undefined && !isIdKey(sent.id)) return undefined;
    const card = sent.cardSerialNumber;
    if (card !== undefined && card !== null && !isText(card)) return undefined;
    customer = { ...(typeof sent.id === 'string' ? { id: sent.id } : {}), ...(card !== undefined ? { cardSerialNumber: card } : {}) };
  }
  let location: { tableName: string | null; zoneName: string | null } | null = null;
  if (v.location !== undefined && v.location !== null) {
    if (!isObject(v.location)) return undefined;
    const tableName = nullableText(v.location.tableName);
    const zoneName = nullableText(v.location.zoneName);
    if (tableName === NO || zoneName === NO) return undefined;
    location = { tableName, zoneName };
  }
  const note = nullableText(v.note);
  if (note === NO) return undefined;
  const items: Array<Exclude<ReturnType<typeof item<I>>, typeof NO>> = [];
  if (v.items !== undefined) {
    if (!Array.isArray(v.items) || v.items.length > 1000) return undefined;
    for (const i of v.items) {
      const parsed = item(i, enums.itemTypes, enums.itemTypeDefault);
      if (parsed === NO) return undefined;
      items.push(parsed);
    }
  }
  return { ...(typeof id === 'string' ? { id } : {}), externalId, name, purchaseType, currencyLabel, discountRate, customer, location, note, items };
}
