/**
 * Ticket arithmetic (CONTRACT §6), exact: item total = quantity × (unitPrice + chosen option
 * prices) × (1 − discountRate/100), negative for a returned item, rounded half away from zero to
 * 2 places; the ticket's total applies its own discountRate to the sum of the item totals.
 * In scaled integers (issue 31: every ticket write runs this): quantities, prices and rates are
 * whole units of 10^-4 (they carry at most 4 places), totals whole cents, products in BigInt, and
 * the one division — by 100 % — rounded exactly (core/money.ts mulDivRound).
 */
import { D, toUnits, mulDivRound, type Dec } from '../../core/money.js';

export interface PricedItem {
  type: 'Positive' | 'Negative';
  quantity: number;
  unitPrice: number;
  discountRate: number;
  /** Unit price × quantity of each chosen option, per one item. */
  optionPrices: Array<{ unitPrice: number; quantity: number }>;
}

/** 100 % in units; units × units × this = 10^14 per 1; cents are 10^-2. */
const WHOLE_RATE = 1_000_000n;
const TO_CENTS = 1_000_000_000_000n;

/** An item's total in cents (BigInt: its product may be far out of range before the range check). */
export function itemTotalCents(item: PricedItem): bigint {
  let price = BigInt(toUnits(item.unitPrice));
  for (const o of item.optionPrices) price += BigInt(toUnits(o.unitPrice)) * BigInt(o.quantity);
  const net = mulDivRound(BigInt(toUnits(item.quantity)) * price, WHOLE_RATE - BigInt(toUnits(item.discountRate)), TO_CENTS);
  return item.type === 'Negative' ? -net : net;
}

/** The ticket's total in cents from its items' totals in cents. */
export function ticketTotalCents(itemCents: readonly bigint[], discountRate: number): bigint {
  let sum = 0n;
  for (const c of itemCents) sum += c;
  return mulDivRound(sum, WHOLE_RATE - BigInt(toUnits(discountRate)), WHOLE_RATE);
}

export function itemTotal(item: PricedItem): Dec {
  return new D(itemTotalCents(item).toString()).div(100);
}

export function ticketTotal(itemTotals: Dec[], discountRate: number): Dec {
  const cents = itemTotals.map((t) => BigInt(t.times(100).toFixed(0)));
  return new D(ticketTotalCents(cents, discountRate).toString()).div(100);
}
