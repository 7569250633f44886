import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from './fixture.js';

let hub: TestHub;
let cashier: Awaited<ReturnType<typeof register>>;
beforeAll(async () => {
  hub = await startHub();
  await restaurant(hub);
  cashier = await register(hub);
});
afterAll(() => hub.close());

const as = (token: string) => ({ token });

describe('ticket lifecycle', () => {
  it('opens a ticket with server-set fields, exact totals and kitchen orders', async () => {
    const r = await hub.call('POST', '/api/tickets', { name: 'Table 5', location: { tableName: '5', zoneName: 'Terrace' }, items: [item(1, 2), item(3, 1)] }, as(cashier.token));
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      state: 'Opened',
      originDeviceName: cashier.device,
      employee: { userName: cashier.userName },
      openDate: '2026-11-21T10:00:00.000Z',
      totalPrice: { amount: 16 },
      closeInfo: null,
      _v: 1,
    });
    expect(r.body.items.map((i: any) => [i.id, i.plu.name, i.totalPrice.amount])).toEqual([
      [1, 'Gulyás', 13.8],
      [2, 'Pivo', 2.2],
    ]);
    const orders = await hub.call('GET', `/api/orders?ticketId=${r.body.id}&$sort=orderEndpointName`);
    expect(orders.body.items.map((o: any) => [o.orderEndpointName, o.kind, o.items.map((i: any) => [i.name, i.quantity])])).toEqual([
      ['Bar', 'New', [['Pivo', 1]]],
      ['Kitchen', 'New', [['Gulyás', 2]]],
    ]);
  });

  it('closes with a simulator receipt exactly once', async () => {
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(4, 1), item(5, 1)] }, as(cashier.token)));
    expect(t.totalPrice.amount).toBe(0.3);
    const closed = await hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 1 }] }, as(cashier.token));
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ state: 'Closed', closeInfo: { deviceName: cashier.device, fiscalName: 'FP1', number: 1, dailySalesReportNumber: 1 } });
    const again = await hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 1 }] }, as(cashier.token));
    expect(again.status).toBe(200);
    expect(again.body.closeInfo.number).toBe(1);
    const put = await hub.call('PUT', `/api/tickets/${t.id}`, { items: [] }, as(cashier.token));
    expect(put.status).toBe(403);
    expect(put.body.errorCode).toBe(8);
  });
});
