/**
 * Sharing a ticket's discounted total out exactly (issue 21): the ticket's own discountRate applies to
 * the sum of its items, so what each item (or each VAT rate) really brought in is its total × (1 −
 * rate/100), rounded to the cent, with the rounding remainder given to the largest share so the
 * shares add up to the ticket's total to the cent. Prices include VAT: a rate's VAT is gross × rate /
 * (100 + rate). Used by the ticket's `vatBreakdown`, the e-mail receipt and the sales reports alike.
 */
import { D, dec, roundMoney, type Dec } from './money.js';

const HUNDRED = new D(100);

export interface VatRow {
  rate: string;
  base: string;
  vat: string;
  gross: string;
}

/** `parts` discounted by `discountRate` percent, rounded to the cent, adding up to exactly `total`. */
export function distribute(parts: Dec[], discountRate: string | number, total: string | number): Dec[] {
  const factor = HUNDRED.minus(dec(discountRate)).div(HUNDRED);
  const shares = parts.map((p) => roundMoney(p.times(factor)));
  const remainder = dec(total).minus(shares.reduce((s, r) => s.plus(r), new D(0)));
  if (!remainder.isZero() && shares.length) {
    let largest = 0;
    shares.forEach((s, i) => {
      if (s.abs().gt(shares[largest].abs())) largest = i;
    });
    shares[largest] = shares[largest].plus(remainder);
  }
  return shares;
}

/** VAT per rate of lines whose totals are before the ticket discount; the rows add up to `total`. */
export function vatBreakdown(lines: Array<{ vatRate: string | number; total: string | number }>, discountRate: string | number, total: string | number): VatRow[] {
  const byRate = new Map<string, Dec>();
  for (const l of lines) {
    const key = dec(l.vatRate).toString();
    byRate.set(key, (byRate.get(key) ?? new D(0)).plus(dec(l.total)));
  }
  const rates = [...byRate.keys()];
  const grosses = distribute([...byRate.values()], discountRate, total);
  return rates
    .map((rate, i) => ({ rate: dec(rate), gross: grosses[i] }))
    .sort((a, b) => a.rate.comparedTo(b.rate))
    .map(({ rate, gross }) => {
      const vat = roundMoney(gross.times(rate).div(HUNDRED.plus(rate)));
      return { rate: rate.toString(), base: gross.minus(vat).toFixed(2), vat: vat.toFixed(2), gross: gross.toFixed(2) };
    });
}
