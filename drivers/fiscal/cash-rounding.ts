/**
 * Slovak cash rounding, alone and pure (decimal.js only) so that the register's page bundles the very
 * function the eKasa driver applies: the register asks for the cash the hub will take
 * (hub/web/register/money.ts cashRounded; scripts/eslint.config.js BUNDLED_FOR_BROWSER).
 */
import { Decimal } from 'decimal.js';

/**
 * Slovak cash rounding (zákon 18/1996 Z. z. § 3 ods. 4 as amended by 457/2021; the vendor's
 * ReceiptDto.roundingAmount quotes it): the amount paid in cash is rounded to 5 cents, …1 and …2 down
 * to …0, …3 and …4 up to …5, …6 and …7 down to …5, …8 and …9 up to the next …0; an amount paid in cash
 * of 1 or 2 cents is rounded up to 5 cents (the law's own sentence; CONTRACT §8's table alone would make
 * it 0.00: the README names this deviation). A refund (negative) is rounded the same way by its size.
 * Answers the rounded amount.
 */
export function roundCash(amount: string | Decimal): Decimal {
  const a = new Decimal(amount);
  const size = a.abs();
  const rounded = size.gt(0) && size.lt('0.05') ? new Decimal('0.05') : size.div('0.05').toDecimalPlaces(0, Decimal.ROUND_HALF_UP).times('0.05');
  return a.isNegative() ? rounded.negated() : rounded;
}
