/**
 * Returns on eKasa (issues 27.5, 28.2): a return started from a closed ticket is closed on the eKasa
 * service as Returned items referring to the original receipt — its UUID, or its OKP when it was
 * registered offline — at the price really refunded. A return the service can never take (its
 * original holds no eKasa receipt) is a 403 naming the reason, not a 503 "try again".
 */
import { describe, expect, it } from 'vitest';
import type { TestHub } from '../support/hub.js';
import { expect2xx, item } from '../tickets/fixture.js';
import { ekasaSuite, type EkasaRestaurant } from './ekasa-fixture.js';
import { jobStates } from './fixture.js';

let hub: TestHub;
let r: EkasaRestaurant;
ekasaSuite((started) => ({ hub, r } = started));

const startReturn = (id: string, body?: unknown) => expect2xx(hub.call('POST', `/api/tickets/${id}/return`, body, { token: r.cashier.token }));
const payOut = (amount: number, paymentTypeNumber = 1) => ({ payments: [{ paymentTypeNumber, amount }] });
const cents = (x: string | number) => Math.round(Number(x) * 100);

/** A sale closed on `fiscalName`: 2 × Gulyás 6.90 and 1 × Pivo 2.20, `discountRate` off the ticket. */
async function sale(opts: { fiscalName?: string; discountRate?: number; items?: unknown[] } = {}): Promise<any> {
  const t = await expect2xx(hub.call('POST', '/api/tickets', { discountRate: opts.discountRate ?? 0, items: opts.items ?? [item(1, 2), item(3, 1)] }, { token: r.cashier.token }));
  return expect2xx(r.close(t.id, { fiscalName: opts.fiscalName ?? 'EK1' }));
}

describe('a return closed on eKasa', () => {
  it('Returned items at the refunded price, referring to the original receipt by its UUID; the refund paid out in cash', async () => {
    const original = await sale();
    const ret = await startReturn(original.id, { items: [{ id: 1, quantity: 1 }] });
    const res = await r.close(ret.id, payOut(-6.9));
    expect(res.status).toBe(200);
    expect(res.body.closeInfo).toMatchObject({ fiscalName: 'EK1', ekasa: { offline: false } });
    const [reg] = r.registrationsOf(ret.id);
    expect(reg.request.data.items).toEqual([
      { type: 'Returned', name: 'Gulyás', price: '-6.90', unitPrice: '-6.900000', quantity: { amount: '1.0000', unit: 'ks' }, vatRate: '20.00', referenceReceiptId: original.closeInfo.ekasa.uuid },
    ]);
    expect(reg.request.data.payments).toEqual([{ name: 'Hotovosť', amount: '-6.90' }]);
    expect(r.registrationsOf(ret.id)).toHaveLength(1);
  });

  it('a lost answer to the return: settled by the lookup in the same request; one Returned registration, also on a retry', async () => {
    const original = await sale();
    const ret = await startReturn(original.id, { items: [{ id: 2, quantity: 1 }] });
    r.svc.loseAnswers = 1;
    const res = await r.close(ret.id, payOut(-2.2));
    expect(res.status).toBe(200);
    const [reg] = r.registrationsOf(ret.id);
    expect(res.body.closeInfo).toMatchObject({ number: reg.request.data.receiptNumber, ekasa: { okp: reg.request.data.okp } });
    expect(reg.request.data.items.map((i) => [i.type, i.referenceReceiptId])).toEqual([['Returned', original.closeInfo.ekasa.uuid]]);
    expect((await r.close(ret.id, payOut(-2.2))).status).toBe(200);
    expect(r.registrationsOf(ret.id)).toHaveLength(1);
    expect(jobStates(hub, ret.id)).toEqual(['Done']);
  });

  it('an original registered offline is referred to by its OKP', async () => {
    r.svc.service.online = false;
    const original = await sale();
    expect(original.closeInfo.ekasa.uuid).toBeUndefined();
    r.svc.service.online = true;
    const ret = await startReturn(original.id, { items: [{ id: 2, quantity: 1 }] });
    expect((await r.close(ret.id, payOut(-2.2))).status).toBe(200);
    expect(r.registrationsOf(ret.id)[0].request.data.items.map((i) => i.referenceReceiptId)).toEqual([original.closeInfo.ekasa.okp]);
  });

  it('with the discounts of the original (item and ticket): each Returned item carries its share, the items add up to the refund', async () => {
    const original = await sale({ discountRate: 10, items: [item(1, 3, { discountRate: 15 }), item(3, 2)] });
    const ret = await startReturn(original.id);
    const total = ret.totalPrice.amount as number;
    const res = await r.close(ret.id, payOut(total, 2));
    expect(res.status).toBe(200);
    const items = r.registrationsOf(ret.id)[0].request.data.items;
    expect(items.map((i) => i.type)).toEqual(['Returned', 'Returned']);
    expect(items.reduce((s, i) => s + cents(i.price), 0)).toBe(cents(total));
    for (const i of items) expect(cents(i.price)).toBe(Math.round(Number(i.unitPrice) * Number(i.quantity.amount) * 100));
  });

  it('the refund in cash is rounded to 5 cents too: −3.48 is paid out as −3.50 (rounding −0.02); −3.48 exactly is refused', async () => {
    const original = await sale({ items: [item(4, 1, { unitPrice: { amount: 3.48 } })] });
    const ret = await startReturn(original.id);
    const exact = await r.close(ret.id, payOut(-3.48));
    expect(exact.status).toBe(400);
    expect(exact.body.errors[0]).toMatchObject({ memberName: 'payments', code: 'OutOfRange' });
    const res = await r.close(ret.id, payOut(-3.5));
    expect(res.status).toBe(200);
    expect(res.body.closeInfo.rounding).toEqual({ amount: -0.02 });
    expect(r.registrationsOf(ret.id)[0].request.data).toMatchObject({ roundingAmount: '-0.02', payments: [{ name: 'Hotovosť', amount: '-3.50' }] });
  });

  it('an original closed on another kind of device: 403 (errorCode 8) naming the reason, nothing registered, and again on a retry', async () => {
    const original = await sale({ fiscalName: 'FP1' });
    const ret = await startReturn(original.id);
    const res = await r.close(ret.id, payOut(ret.totalPrice.amount, 2));
    expect(res.status).toBe(403);
    expect(res.body.errorCode).toBe(8);
    expect(res.body.detail).toMatch(/REJECTED.*FP1.*not registered by an eKasa service/);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(r.registrationsOf(ret.id)).toHaveLength(0);
    expect(jobStates(hub, ret.id)).toEqual(['Failed']);
    expect((await r.ticket(ret.id)).state).toBe('Opened');
    expect((await r.close(ret.id, payOut(ret.totalPrice.amount, 2))).status).toBe(403);
  });

  it('the service refusing the receipt for good (a validation 400) is a 403 too, not a 503', async () => {
    const t = await r.open();
    r.svc.service.refuseNext = { status: 400, title: 'The request is not valid.', errorCode: -900 };
    const res = await r.close(t.id);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ errorCode: 8, detail: expect.stringMatching(/REJECTED: eKasa: The request is not valid/) });
  });
});
