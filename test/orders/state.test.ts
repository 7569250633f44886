import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';

let hub: TestHub;
let waiter: Awaited<ReturnType<typeof register>>;
let cook: string;
beforeAll(async () => {
  hub = await startHub();
  await restaurant(hub);
  waiter = await register(hub);
  cook = await hub.userWith(['OrderProcess']);
});
afterAll(() => hub.close());

async function newOrder(quantity = 1): Promise<any> {
  const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, quantity)] }, { token: waiter.token }));
  const orders = await hub.call('GET', `/api/orders?ticketId=${t.id}&orderEndpointName=Kitchen`);
  return { ticket: t, order: orders.body.items[0] };
}

const move = (id: string, state: string, token = cook) => hub.call('POST', `/api/orders/${id}/state`, { state }, { token });

describe('kitchen order states', () => {
  it('moves forward through the flow, stamps each change, and bumps _v', async () => {
    const { order } = await newOrder();
    expect(order.state).toBe('New');
    const a = await move(order.id, 'InProgress');
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ state: 'InProgress', _v: order._v + 1 });
    hub.clock.advance(60_000);
    const b = await move(order.id, 'ready');
    expect(b.body.state).toBe('Ready');
    expect(b.body.stateHistory.map((h: any) => [h.state, h.at])).toEqual([
      ['InProgress', '2026-11-21T10:00:00.000Z'],
      ['Ready', '2026-11-21T10:01:00.000Z'],
    ]);
    expect((await hub.call('GET', '/api/orders?state=Ready')).body.items.map((o: any) => o.id)).toContain(order.id);
  });

  it('goes back one step, never two, and never out of Served', async () => {
    const { order } = await newOrder();
    await move(order.id, 'Ready');
    const twoBack = await move(order.id, 'New');
    expect(twoBack.status).toBe(403);
    expect(twoBack.body.errorCode).toBe(8);
    expect((await move(order.id, 'InProgress')).status).toBe(200);
    expect((await move(order.id, 'Served')).status).toBe(200);
    const out = await move(order.id, 'Ready');
    expect(out.status).toBe(403);
    expect(out.body.errorCode).toBe(8);
    expect((await hub.call('GET', `/api/orders/${order.id}`)).body.state).toBe('Served');
  });

  it('keeps cancel orders Cancelled and refuses to cancel by state', async () => {
    const { ticket, order } = await newOrder(2);
    const after = await expect2xx(hub.call('PUT', `/api/tickets/${ticket.id}`, { ...ticket, items: [{ ...ticket.items[0], quantity: 1 }] }, { token: waiter.token }));
    expect(after.items[0].quantity).toBe(1);
    const cancels = await hub.call('GET', `/api/orders?ticketId=${ticket.id}&kind=Cancel`);
    expect(cancels.body.items[0].state).toBe('Cancelled');
    expect((await move(cancels.body.items[0].id, 'New')).status).toBe(403);
    expect((await move(order.id, 'Cancelled')).status).toBe(403);
  });

  it('needs OrderProcess (no Sale environment), a known state and a known order', async () => {
    const { order } = await newOrder();
    const refused = await move(order.id, 'InProgress', (await hub.userWith([]))!);
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(2);
    expect(refused.body.detail).toMatch(/OrderProcess/);
    const bad = await move(order.id, 'Cooking');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].memberName).toBe('state');
    expect((await move('nope', 'Ready')).status).toBe(404);
  });

  it('reaches registers through the change log as resource orders', async () => {
    const { order } = await newOrder();
    const before = (await hub.call('GET', '/api/health')).body.changeLog.lastSeq;
    await move(order.id, 'InProgress');
    const changes = await hub.call('GET', `/api/changes?since=${before}`);
    expect(changes.body.items).toEqual([expect.objectContaining({ resource: 'orders', key: order.id, op: 'upsert', _v: order._v + 1 })]);
  });
});

describe('orders for a kitchen display', () => {
  it('are stored for a Tablet endpoint without a print job', async () => {
    await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'KDS', type: 'Tablet', address: 'kitchen wall' }));
    await expect2xx(hub.call('POST', '/api/plus', { code: 77, stockName: 'Menu', name: 'Polievka', type: 'Service', unitPrice: { amount: 3 }, orderEndpointNames: ['KDS'] }));
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(77, 2)] }, { token: waiter.token }));
    const orders = (await hub.call('GET', `/api/orders?ticketId=${t.id}`)).body.items;
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ orderEndpointName: 'KDS', state: 'New', print: { state: 'NotPrinted' } });
    const jobs = hub.db.$client.prepare('SELECT count(*) AS n FROM print_jobs WHERE ref_id = ?').get(orders[0].id) as { n: number };
    expect(jobs.n).toBe(0);
  });
});

describe('stale views', () => {
  it('refuses a state change whose _v or If-Match is not the stored version (409), and takes a matching one', async () => {
    const { order } = await newOrder();
    const moved = await hub.call('POST', `/api/orders/${order.id}/state`, { state: 'InProgress', _v: order._v }, { token: cook });
    expect(moved.status).toBe(200);
    const stale = await hub.call('POST', `/api/orders/${order.id}/state`, { state: 'New', _v: order._v }, { token: cook });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ errorCode: 6, resource: { name: 'Order', id: order.id, version: moved.body._v } });
    const header = await hub.call('POST', `/api/orders/${order.id}/state`, { state: 'Ready' }, { token: cook, headers: { 'If-Match': `"${order._v}"` } });
    expect(header.status).toBe(409);
    expect((await hub.call('POST', `/api/orders/${order.id}/state`, { state: 'Ready' }, { token: cook, headers: { 'If-Match': `"${moved.body._v}"` } })).status).toBe(200);
  });
});
