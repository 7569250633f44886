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

export function hasAtMostStoredPlaces(value: number): boolean {
  return Number.isFinite(value) && dec(value).decimalPlaces() <= STORED_PLACES;
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
  return dec(value).times(SCALE).toDecimalPlaces(0, D.ROUND_HALF_UP).toNumber();
}

export function fromScaled(value: number): Dec {
  return new D(value).div(SCALE);
}
