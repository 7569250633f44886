/**
 * Slovak cash rounding on an eKasa device (CONTRACT §8): the part paid in Cash-category payment types
 * is rounded to 5 cents; paying the rounded amount covers the total, change is counted from it, the
 * service gets the difference as `roundingAmount`, closeInfo keeps it, and the fiscal day and the
 * sales totals carry it apart from the sales. Other devices round nothing.
 */
import { describe, expect, it } from 'vitest';
import { roundCash } from '../../drivers/fiscal/cash-rounding.js';
import type { TestHub } from '../support/hub.js';
import { item } from '../tickets/fixture.js';
import { ekasaSuite, type EkasaRestaurant } from './ekasa-fixture.js';

describe('the rounding rule (pure)', () => {
  it('…1, …2 → …0; …3, …4 → …5; …6, …7 → …5; …8, …9 → next …0; 1 or 2 cents in all → 5 cents; a refund by its size', () => {
    const up = ['3.40', '3.40', '3.40', '3.45', '3.45', '3.45', '3.45', '3.45', '3.50', '3.50'];
    for (let d = 0; d <= 9; d++) {
      expect(roundCash(`3.4${d}`).toFixed(2), `3.4${d}`).toBe(up[d]);
      expect(roundCash(`-3.4${d}`).toFixed(2), `-3.4${d}`).toBe(`-${up[d]}`);
    }
    expect(['0.01', '0.02', '0.03', '0.04', '0.05', '0.06', '0.07', '0.08'].map((a) => roundCash(a).toFixed(2))).toEqual(['0.05', '0.05', '0.05', '0.05', '0.05', '0.05', '0.05', '0.10']);
    expect(roundCash('-0.01').toFixed(2)).toBe('-0.05');
    expect(roundCash('0').toFixed(2)).toBe('0.00');
    expect(roundCash('1234567.98').toFixed(2)).toBe('1234568.00');
  });
});

describe('closes on an eKasa device', () => {
  let hub: TestHub;
  let r: EkasaRestaurant;
  ekasaSuite((started) => ({ hub, r } = started));

  /** A ticket whose total is `price` (one item at that unit price). */
  const ticketOf = (price: number) => r.open([item(4, 1, { unitPrice: { amount: price } })]);
  const pay = (...p: Array<[number, number]>) => ({ payments: p.map(([paymentTypeNumber, amount]) => ({ paymentTypeNumber, amount })) });

  it('every last digit, paid with exactly the rounded cash: accepted, no change, roundingAmount and closeInfo.rounding signed as paid − total', async () => {
    const rounded = [3.4, 3.4, 3.4, 3.45, 3.45, 3.45, 3.45, 3.45, 3.5, 3.5];
    for (let d = 0; d <= 9; d++) {
      const total = Number(`3.4${d}`);
      const t = await ticketOf(total);
      const res = await r.close(t.id, pay([1, rounded[d]]));
      expect(res.status, `3.4${d}`).toBe(200);
      const diff = Math.round((rounded[d] - total) * 100) / 100;
      expect(res.body.change, `3.4${d}`).toBe(0);
      const [reg] = r.registrationsOf(t.id);
      if (diff === 0) {
        expect(res.body.closeInfo.rounding, `3.4${d}`).toBeUndefined();
        expect(reg.request.data.roundingAmount, `3.4${d}`).toBeUndefined();
      } else {
        expect(res.body.closeInfo.rounding, `3.4${d}`).toEqual({ amount: diff });
        expect(reg.request.data.roundingAmount, `3.4${d}`).toBe(diff.toFixed(2));
      }
      expect(reg.request.data.payments, `3.4${d}`).toEqual([{ name: 'Hotovosť', amount: rounded[d].toFixed(2) }]);
      expect(res.body.payments).toEqual([{ paymentTypeNumber: 1, amount: rounded[d] }]);
    }
  });

  it('change is counted from the rounded cash; paying the unrounded amount when it rounds up is short (400 naming payments)', async () => {
    const t = await ticketOf(3.48);
    const short = await r.close(t.id, pay([1, 3.48]));
    expect(short.status).toBe(400);
    expect(short.body.errors[0]).toMatchObject({ memberName: 'payments', code: 'OutOfRange' });
    expect(short.body.detail).toContain('3.50');
    const res = await r.close(t.id, pay([1, 5]));
    expect(res.status).toBe(200);
    expect(res.body.change).toBe(1.5);
    expect(res.body.closeInfo.rounding).toEqual({ amount: 0.02 });
    const [reg] = r.registrationsOf(t.id);
    expect(reg.request.data.payments).toEqual([{ name: 'Hotovosť', amount: '5.00' }, { name: 'Výdavok', amount: '-1.50' }]);
    // Rounded down: paying the unrounded amount is 2 cents of change.
    const down = await ticketOf(3.47);
    const paid = await r.close(down.id, pay([1, 3.47]));
    expect(paid.body).toMatchObject({ change: 0.02, closeInfo: { rounding: { amount: -0.02 } } });
  });

  it('mixed cash and card: only the part left for cash is rounded; all card: nothing', async () => {
    const t = await ticketOf(10.03);
    const res = await r.close(t.id, pay([2, 5], [1, 6]));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ change: 0.95, closeInfo: { rounding: { amount: 0.02 } } });
    const [reg] = r.registrationsOf(t.id);
    expect(reg.request.data).toMatchObject({ roundingAmount: '0.02', payments: [{ name: 'Platobná karta', amount: '5.00' }, { name: 'Hotovosť', amount: '6.00' }, { name: 'Výdavok', amount: '-0.95' }] });
    const card = await ticketOf(10.03);
    const byCard = await r.close(card.id, pay([2, 10.03]));
    expect(byCard.status).toBe(200);
    expect(byCard.body.closeInfo.rounding).toBeUndefined();
    // Card pays 10.02, a cent left in cash: 1 or 2 cents in all are rounded up to 5.
    const cent = await ticketOf(10.03);
    expect((await r.close(cent.id, pay([2, 10.02], [1, 0.05]))).body.closeInfo.rounding).toEqual({ amount: 0.04 });
  });

  it('1 or 2 cents left to pay in cash are rounded up to 5 (zákon 18/1996 § 3(4), the deviation from CONTRACT §8\'s letter): the whole ticket, or the cash part of a mixed payment; 3 cents and more by the rule', async () => {
    // A ticket of 0.02 paid in cash: 0.05 (the rule alone would make it 0.00: nothing paid).
    const two = await ticketOf(0.02);
    const short = await r.close(two.id, pay([1, 0.02]));
    expect(short.status).toBe(400);
    expect(short.body.detail).toContain('0.05');
    const res = await r.close(two.id, pay([1, 0.05]));
    expect(res.status).toBe(200);
    expect(res.body.closeInfo.rounding).toEqual({ amount: 0.03 });
    expect(r.registrationsOf(two.id)[0].request.data).toMatchObject({ roundingAmount: '0.03', payments: [{ name: 'Hotovosť', amount: '0.05' }] });
    // The same ticket by card: nothing is paid in cash, nothing is rounded.
    const card = await ticketOf(0.01);
    expect((await r.close(card.id, pay([2, 0.01]))).body.closeInfo.rounding).toBeUndefined();
    // 2 cents left for cash after the card: 0.05 in cash. 0.07 left: 0.05 by the rule (down), not the exception.
    const mixed = await ticketOf(5.02);
    expect((await r.close(mixed.id, pay([2, 5], [1, 0.05]))).body.closeInfo.rounding).toEqual({ amount: 0.03 });
    const seven = await ticketOf(5.07);
    expect((await r.close(seven.id, pay([2, 5], [1, 0.05]))).body.closeInfo.rounding).toEqual({ amount: -0.02 });
  });

  it('what is rounded is what payment types of category Cash pay, whether or not they give change; a changeable voucher is not cash', async () => {
    await hub.call('POST', '/api/paymenttypes', { number: 7, name: 'Hotovosť bez výdavku', category: 'Cash', isChangeable: false });
    await hub.call('POST', '/api/paymenttypes', { number: 8, name: 'Poukaz s výdavkom', category: 'Voucher', isChangeable: true });
    const exactCash = await ticketOf(3.48);
    const res = await r.close(exactCash.id, pay([7, 3.5]));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ change: 0, closeInfo: { rounding: { amount: 0.02 } } });
    const voucher = await ticketOf(3.48);
    const byVoucher = await r.close(voucher.id, pay([8, 3.5]));
    expect(byVoucher.status).toBe(200);
    expect(byVoucher.body.change).toBe(0.02);
    expect(byVoucher.body.closeInfo.rounding).toBeUndefined();
    expect(r.registrationsOf(voucher.id)[0].request.data.roundingAmount).toBeUndefined();
  });

  it('another kind of fiscal device rounds nothing: 3.48 in cash is 3.48', async () => {
    const t = await ticketOf(3.48);
    const res = await r.close(t.id, { fiscalName: 'FP1', ...pay([1, 3.48]) });
    expect(res.status).toBe(200);
    expect(res.body.change).toBe(0);
    expect(res.body.closeInfo.rounding).toBeUndefined();
    const short = await ticketOf(3.48);
    expect((await r.close(short.id, { fiscalName: 'FP1', ...pay([1, 3.45]) })).status).toBe(400);
  });

  it('the fiscal day and the sales totals carry the rounding apart from the sales; the payments add up to total + rounding', async () => {
    const z = await hub.call('POST', '/api/fiscaldevices/EK1/reports/z');
    expect(z.status).toBe(200);
    const a = await ticketOf(3.48);
    await r.close(a.id, pay([1, 3.5]));
    const b = await ticketOf(2.23);
    await r.close(b.id, pay([1, 5]));
    const c = await ticketOf(1.99);
    await r.close(c.id, pay([2, 1.99]));
    const day = (await hub.call('GET', '/api/reports/fiscalday?fiscalName=EK1')).body;
    // Sales 3.48 + 2.23 + 1.99; the cash drawer got 3.50 and 2.25 (5 less 2.75 of change).
    expect(day).toMatchObject({ tickets: 3, total: 7.7, rounding: 0.04, cashSales: 5.75 });
    const cents = (x: number) => Math.round(x * 100);
    expect(day.payments.reduce((s: number, p: { amount: number }) => s + cents(p.amount), 0)).toBe(cents(day.total) + cents(day.rounding));
    const today = hub.clock.now().toISOString().slice(0, 10);
    const sales = (await hub.call('GET', `/api/reports/sales?from=${today}&to=${today}&groupBy=payment`)).body;
    // Every receipt of the day so far (this file's earlier tests too), as the service got them.
    const sent = r.svc.service.registrations.reduce((sum, reg) => sum + cents(Number(reg.request.data.roundingAmount ?? 0)), 0);
    expect(cents(sales.totals.rounding)).toBe(sent);
    expect(sales.rows.reduce((s: number, row: { net: number }) => s + cents(row.net), 0)).toBe(cents(sales.totals.net) + cents(sales.totals.rounding));
  });
});
