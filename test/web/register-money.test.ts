/**
 * The register asks for the cash the hub will take: its cash rounding (hub/web/register/money.ts) is
 * the eKasa driver's (drivers/fiscal/ekasa/protocol.ts roundCash, README "Cash rounding") for every
 * amount from -2,00 € to 2,00 € and a few large ones — the 1- and 2-cent amounts rounded up to 5 cents
 * included, which the register once rounded to 0,00 € (a card paying all but a cent left nothing to pay
 * the cent with).
 */
import { describe, expect, it } from 'vitest';
import { roundCash } from '../../drivers/fiscal/ekasa/protocol.js';
import { cashRounded } from '../../hub/web/register/money.js';

describe("the register's cash rounding", () => {
  it('is the eKasa driver’s, cent by cent', () => {
    const amounts = Array.from({ length: 401 }, (_, i) => ((i - 200) / 100).toFixed(2));
    amounts.push('1234567.98', '-1234567.97', '999999999.99', '4.49', '8.98');
    const differ = amounts.filter((a) => cashRounded(a).toFixed(2) !== roundCash(a).toFixed(2));
    expect(differ).toEqual([]);
    expect(['0.01', '0.02', '-0.01', '4.49', '4.48', '4.47'].map((a) => cashRounded(a).toFixed(2))).toEqual(['0.05', '0.05', '-0.05', '4.50', '4.50', '4.45']);
  });
});
