import { Decimal } from 'decimal.js';

/**
 * Exact decimal arithmetic for money, rates and quantities (CONTRACT §3): decimal.js instead of
 * binary floats. Values are stored with at most 4 decimal places; totals round half away from zero
 * to 2 places. In SQL, decimal columns hold the value scaled by 10^4 as an integer.
 */
export const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof D>;
export const STORED_PLACES = 4;
const SCALE = new D(10).pow(STORED_PLACES);

/** A JSON number (or numeric string) as an exact decimal; JS prints the shortest round-trip form. */
export function dec(value: number | string | Dec): Dec {
  return value instanceof D ? value : new D(typeof value === 'number' ? String(value) : value);
}

/** Decimal places of a number as JSON writes it (its shortest round-trip form, as decimal.js reads it too). */
export function placesOf(value: number): number {
  const s = String(value);
  const e = s.indexOf('e');
  if (e < 0) {
    const dot = s.indexOf('.');
    return dot < 0 ? 0 : s.length - dot - 1;
  }
  const dot = s.indexOf('.');
  const mantissaPlaces = dot < 0 || dot > e ? 0 : e - dot - 1;
  return Math.max(0, mantissaPlaces - Number(s.slice(e + 1)));
}

export function hasAtMostStoredPlaces(value: number): boolean {
  return Number.isFinite(value) && placesOf(value) <= STORED_PLACES;
}

// --- Scaled integers for the hot paths (issue 31): units of 10^-4, cents; no decimal object per operation. ---

/** 10^4: a value with at most 4 places is a whole number of units. */
export const UNIT = 10_000;
const UNIT_N = 10_000n;

/**
 * A number with at most 4 places as a whole number of units (value × 10^4), exactly: under 1e11 the
 * product's binary error stays far below half a unit, so rounding finds the exact integer.
 * Anything else (more places, larger) goes through decimal.js.
 */
export function toUnits(value: number): number {
  if (Math.abs(value) < 1e11 && placesOf(value) <= STORED_PLACES) return Math.round(value * UNIT);
  return dec(value).times(SCALE).toDecimalPlaces(0, D.ROUND_HALF_UP).toNumber();
}

/** Units of a decimal string or number with at most 4 places, exactly (e.g. '6.90', -2.5, '0.23'). */
export function unitsOf(value: string | number): bigint {
  if (typeof value === 'number') return BigInt(toUnits(value));
  const m = /^(-?)(\d+)(?:\.(\d{1,4}))?$/.exec(value.trim());
  if (!m) return BigInt(toUnits(Number(value)));
  const units = BigInt(m[2]) * UNIT_N + BigInt((m[3] ?? '').padEnd(4, '0'));
  return m[1] ? -units : units;
}

/** a × b ÷ d rounded half away from zero (as decimal.js's ROUND_HALF_UP), exactly. */
export function mulDivRound(a: bigint, b: bigint, d: bigint): bigint {
  let n = a * b;
  let q = d;
  if (q < 0n) {
    q = -q;
    n = -n;
  }
  const negative = n < 0n;
  const abs = negative ? -n : n;
  let r = abs / q;
  if ((abs % q) * 2n >= q) r += 1n;
  return negative ? -r : r;
}

/** Cents as the JSON number the API answers (the nearest double to the exact decimal). */
export function centsToNumber(cents: bigint | number): number {
  return Number(cents) / 100;
}

/** Cents as a decimal string with two places ("-6.90"), exactly. */
export function centsToFixed(cents: bigint): string {
  const negative = cents < 0n;
  const abs = (negative ? -cents : cents).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${abs.slice(0, -2)}.${abs.slice(-2)}`;
}

/** Units as decimal.js's toString() writes the same value ('20', '0.23', '-5.5'). */
export function unitsToString(units: bigint): string {
  const negative = units < 0n;
  const abs = (negative ? -units : units).toString().padStart(5, '0');
  const fraction = abs.slice(-4).replace(/0+$/, '');
  return `${negative ? '-' : ''}${abs.slice(0, -4)}${fraction ? `.${fraction}` : ''}`;
}

/** Half away from zero: ROUND_HALF_UP in decimal.js rounds magnitudes, so -2.345 → -2.35. */
export function roundMoney(value: Dec): Dec {
  return value.toDecimalPlaces(2, D.ROUND_HALF_UP);
}

export function toJsonNumber(value: Dec): number {
  return value.toDecimalPlaces(STORED_PLACES, D.ROUND_HALF_UP).toNumber();
}

/** Scaled integer for SQL columns (exact comparisons and sums without floats). */
export function toScaled(value: number | string | Dec): number {
  if (typeof value === 'number') return toUnits(value);
  return dec(value).times(SCALE).toDecimalPlaces(0, D.ROUND_HALF_UP).toNumber();
}

export function fromScaled(value: number): Dec {
  return new D(value).div(SCALE);
}
