/**
 * Sharing a ticket's discounted total out exactly (issue 21): the ticket's own discountRate applies to
 * the sum of its items, so what each item (or each VAT rate) really brought in is its total × (1 −
 * rate/100), rounded to the cent, with the rounding remainder given to the largest share so the
 * shares add up to the ticket's total to the cent. Prices include VAT: a rate's VAT is gross × rate /
 * (100 + rate). Used by the ticket's `vatBreakdown`, the e-mail receipt and the sales reports alike.
 * Computed in scaled integers (issue 31: every ticket write makes a breakdown): amounts in cents,
 * rates in units of 10^-4 (core/money.ts), each division rounded exactly half away from zero.
 */
import { centsToFixed, D, mulDivRound, unitsOf, unitsToString, type Dec } from './money.js';

export interface VatRow {
  rate: string;
  base: string;
  vat: string;
  gross: string;
}

const WHOLE_RATE = 1_000_000n; // 100 % in units
const UNITS_PER_CENT = 100n;

/** `parts` (cents) discounted by `rateUnits` (units of 10^-4 %), rounded to the cent, adding up to exactly `totalCents`. */
export function distributeCents(parts: readonly bigint[], rateUnits: bigint, totalCents: bigint): bigint[] {
  const factor = WHOLE_RATE - rateUnits;
  const shares = parts.map((p) => mulDivRound(p, factor, WHOLE_RATE));
  let sum = 0n;
  for (const s of shares) sum += s;
  const remainder = totalCents - sum;
  if (remainder !== 0n && shares.length) {
    let largest = 0;
    const abs = (x: bigint) => (x < 0n ? -x : x);
    shares.forEach((s, i) => {
      if (abs(s) > abs(shares[largest])) largest = i;
    });
    shares[largest] += remainder;
  }
  return shares;
}

/** Cents of an amount with at most 2 places (a total; more places are rounded half away from zero). */
const centsOf = (value: string | number | Dec) => mulDivRound(unitsOf(typeof value === 'object' ? value.toString() : value), 1n, UNITS_PER_CENT);

/** `parts` discounted by `discountRate` percent, rounded to the cent, adding up to exactly `total`. */
export function distribute(parts: Dec[], discountRate: string | number, total: string | number): Dec[] {
  const shares = distributeCents(
    parts.map((p) => centsOf(p)),
    unitsOf(discountRate),
    centsOf(total),
  );
  return shares.map((c) => new D(c.toString()).div(100));
}

/** VAT per rate of lines whose totals are before the ticket discount; the rows add up to `total`. */
export function vatBreakdown(lines: Array<{ vatRate: string | number; total: string | number }>, discountRate: string | number, total: string | number): VatRow[] {
  const byRate = new Map<bigint, bigint>();
  for (const l of lines) {
    const rate = unitsOf(l.vatRate);
    byRate.set(rate, (byRate.get(rate) ?? 0n) + centsOf(l.total));
  }
  const rates = [...byRate.keys()];
  const grosses = distributeCents([...byRate.values()], unitsOf(discountRate), centsOf(total));
  return rates
    .map((rate, i) => ({ rate, gross: grosses[i] }))
    .sort((a, b) => (a.rate < b.rate ? -1 : a.rate > b.rate ? 1 : 0))
    .map(({ rate, gross }) => {
      // gross × rate / (100 + rate), with the rate in units: gross × r / (10^6 + r).
      const vat = mulDivRound(gross, rate, WHOLE_RATE + rate);
      return { rate: unitsToString(rate), base: centsToFixed(gross - vat), vat: centsToFixed(vat), gross: centsToFixed(gross) };
    });
}
