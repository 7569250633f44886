/**
 * Zod building blocks shared by every resource schema, so a rule such as "strings are at most
 * 4,000 characters" or "decimals carry at most 4 places" is written once.
 */
import { z } from 'zod';
import { hasAtMostStoredPlaces, placesOf } from '../core/money.js';
import { fieldMessage } from '../i18n/say.js';

export const MAX_STRING = 4000;
/** Numbers a register's own numbering schemes use (payment types, plu codes, item ids): any non-negative 32-bit integer. */
export const MAX_INT32 = 2_147_483_647;

/** A named string field (CONTRACT §11: at most 4,000 characters). */
export const text = () => z.string().max(MAX_STRING);
export const nullableText = () => text().nullable().optional();

/** `id` keys: 1-64 of A-Za-z0-9._- (CONTRACT §3). */
export const ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
/** `.` and `..` are dot segments: clients normalise them out of a URL, so such a key could never be read or deleted. */
const isDotSegment = (s: string) => s === '.' || s === '..';
export const idKey = () =>
  z
    .string()
    .regex(ID_PATTERN, fieldMessage('field.idKey'))
    .refine((s) => !isDotSegment(s), fieldMessage('field.notDotSegment'));
/**
 * `name` keys (devices, stocks, order endpoints, fiscal devices): visible names, so spaces allowed;
 * as long as any named string (CONTRACT §11). No "/" (a plu is `<stockName>/<code>` at head office),
 * no control characters, no spaces at either end (a name that looks the same must be the same).
 */
export const nameKey = () =>
  z
    .string()
    .min(1)
    .max(MAX_STRING)
    .refine((s) => s.trim() === s && !/[\u0000-\u001f/]/.test(s), fieldMessage('field.nameKey'))
    .refine((s) => !isDotSegment(s), fieldMessage('field.notDotSegment'));

/** A user's PIN (CONTRACT §5): 4 to 8 digits, for a quick login on a paired register. */
export const pin = () => z.string().regex(/^\d{4,8}$/, fieldMessage('field.pin'));

/** Every amount, unit price, quantity and total stays within ±1,000,000,000 (CONTRACT §12). */
export const MAX_MAGNITUDE = 1_000_000_000;
const RANGE = fieldMessage('field.range');

/** A decimal given as a JSON number, at most 4 decimal places (CONTRACT §3), within ±1e9 (§12). */
export const decimal = () =>
  z
    .number()
    .refine(hasAtMostStoredPlaces, fieldMessage('field.decimal'))
    .min(-MAX_MAGNITUDE, RANGE)
    .max(MAX_MAGNITUDE, RANGE);
/**
 * Money handed over (a close's payments): whole cents. The receipt prints each payment to the cent, so an
 * amount with more places would print payments that do not add up to the total the hub checked.
 */
export const cents = () =>
  z
    .number()
    .refine((v) => Number.isFinite(v) && placesOf(v) <= 2, fieldMessage('field.cents'))
    .min(-MAX_MAGNITUDE, RANGE)
    .max(MAX_MAGNITUDE, RANGE);
/** A percentage 0-100; out of those bounds is code OutOfRange, not Invalid. */
export const rate = () => decimal().min(0, fieldMessage('field.rate')).max(100, fieldMessage('field.rate'));

/** A price: the seed shows currencyLabel beside amount, so it is always answered (null when none was given). */
export const money = () => z.object({ amount: decimal(), currencyLabel: text().nullable().default(null) });
/** A stored price written before currencyLabel was always kept: answered with currencyLabel null. */
export const presentMoney = <T extends { currencyLabel?: string | null }>(m: T): T & { currencyLabel: string | null } => ({ ...m, currencyLabel: m.currencyLabel ?? null });

/** ISO 8601 date-time; stored normalised to UTC `...Z`. */
export const dateTime = () =>
  z
    .string()
    .max(64)
    .refine((s) => /^\d{4}-\d{2}-\d{2}(T|$)/.test(s) && !Number.isNaN(Date.parse(s)), fieldMessage('field.dateTime'))
    .transform((s) => new Date(s).toISOString());

/** Free-form objects (`meta`, `preferences`) are stored as given. */
export const freeObject = () => z.record(z.string(), z.unknown());
/** Device and order-endpoint `settings`: string to string (CONTRACT §11). */
export const stringMap = () => z.record(z.string(), z.string());

export function enumOf<const T extends readonly [string, ...string[]]>(values: T) {
  // Enum values are matched case-insensitively on input and answered in the seed's spelling.
  return z.preprocess((v) => (typeof v === 'string' ? (values.find((x) => x.toLowerCase() === v.toLowerCase()) ?? v) : v), z.enum(values));
}

/** The GS1 check digit of an EAN-8 or EAN-13 code (weights 3 and 1 from the right, before the check digit). */
export function eanCheckDigitOk(code: string): boolean {
  if (!/^(\d{8}|\d{13})$/.test(code)) return false;
  const digits = [...code].map(Number);
  const check = digits.pop()!;
  const sum = digits.reverse().reduce((s, d, i) => s + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

/** A barcode: EAN-8 or EAN-13 with a valid check digit. */
export const ean = () => z.string().refine(eanCheckDigitOk, fieldMessage('field.ean'));
