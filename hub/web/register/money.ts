/**
 * The register's arithmetic, exact like the hub's (CONTRACT §3, §6; hub/resources/tickets/math.ts):
 * decimal.js, never binary floats. An item's total is quantity × (unit price + chosen options) ×
 * (1 − discount/100), rounded half away from zero to the cent; the ticket's total applies its own
 * discount to the sum. The register shows these totals for what it has not sent yet; once the hub
 * has a ticket, its total is the hub's.
 */
import { Decimal } from 'decimal.js';
import { roundCash } from '../../../drivers/fiscal/cash-rounding';

export const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof D>;
const HUNDRED = new D(100);

export function dec(value: number | string | Dec): Dec {
  return value instanceof D ? value : new D(typeof value === 'number' ? String(value) : value);
}

const roundMoney = (value: Dec): Dec => value.toDecimalPlaces(2, D.ROUND_HALF_UP);
export const num = (value: Dec): number => value.toDecimalPlaces(4, D.ROUND_HALF_UP).toNumber();

interface PricedLine {
  type: 'Positive' | 'Negative';
  quantity: number;
  unitPrice: number;
  discountRate: number;
  modifiers: Array<{ unitPrice: number; quantity: number }>;
}

export function lineTotal(line: PricedLine): Dec {
  const options = line.modifiers.reduce((sum, o) => sum.plus(dec(o.unitPrice).times(o.quantity)), new D(0));
  const gross = dec(line.quantity).times(dec(line.unitPrice).plus(options));
  const net = gross.times(HUNDRED.minus(dec(line.discountRate)).div(HUNDRED));
  return roundMoney(line.type === 'Negative' ? net.negated() : net);
}

export function ticketTotal(lines: PricedLine[], discountRate: number): Dec {
  const sum = lines.reduce((a, l) => a.plus(lineTotal(l)), new D(0));
  return roundMoney(sum.times(HUNDRED.minus(dec(discountRate)).div(HUNDRED)));
}

/**
 * Slovak cash rounding (CONTRACT §8, on an eKasa device; README "Cash rounding"), as a register amount:
 * the eKasa driver's own function (drivers/fiscal/cash-rounding.ts), bundled into the page, so
 * the register asks for exactly the cash the hub will take.
 */
export function cashRounded(amount: number | string | Dec): Dec {
  return new D(roundCash(dec(amount).toString()).toFixed(2));
}

/**
 * `total` in `parts` amounts to the cent that add up to it exactly: the cents left over go one each to
 * the first parts (10,00 in three: 3,34 + 3,33 + 3,33).
 */
export function equalParts(total: number | Dec, parts: number): Dec[] {
  const cents = dec(total).times(100).toDecimalPlaces(0, D.ROUND_HALF_UP);
  const sign = cents.isNegative() ? -1 : 1;
  const abs = cents.abs();
  const base = abs.div(parts).floor();
  const extra = abs.minus(base.times(parts)).toNumber();
  return Array.from({ length: parts }, (_, i) => base.plus(i < extra ? 1 : 0).times(sign).div(100));
}

export function sum(values: Array<number | Dec>): Dec {
  return values.reduce<Dec>((a, v) => a.plus(dec(v)), new D(0));
}
