/**
 * Ticket arithmetic (CONTRACT §6), exact: item total = quantity × (unitPrice + chosen option
 * prices) × (1 − discountRate/100), negative for a returned item, rounded half away from zero to
 * 2 places; the ticket's total applies its own discountRate to the sum of the item totals.
 */
import { D, dec, roundMoney, type Dec } from '../../core/money.js';

export interface PricedItem {
  type: 'Positive' | 'Negative';
  quantity: number;
  unitPrice: number;
  discountRate: number;
  /** Unit price × quantity of each chosen option, per one item. */
  optionPrices: Array<{ unitPrice: number; quantity: number }>;
}

const HUNDRED = new D(100);

export function itemTotal(item: PricedItem): Dec {
  const options = item.optionPrices.reduce((sum, o) => sum.plus(dec(o.unitPrice).times(o.quantity)), new D(0));
  const gross = dec(item.quantity).times(dec(item.unitPrice).plus(options));
  const net = gross.times(HUNDRED.minus(dec(item.discountRate)).div(HUNDRED));
  const signed = item.type === 'Negative' ? net.negated() : net;
  return roundMoney(signed);
}

export function ticketTotal(itemTotals: Dec[], discountRate: number): Dec {
  const sum = itemTotals.reduce((a, b) => a.plus(b), new D(0));
  return roundMoney(sum.times(HUNDRED.minus(dec(discountRate)).div(HUNDRED)));
}
