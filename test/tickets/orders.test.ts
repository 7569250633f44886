/** Kitchen orders from ticket writes (CONTRACT §6, §11): New and Cancel orders, print jobs, GET /api/orders. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from './fixture.js';

let hub: TestHub;
let cashier: Awaited<ReturnType<typeof register>>;
let waiter: Awaited<ReturnType<typeof register>>;

beforeAll(async () => {
  hub = await startHub();
  await restaurant(hub);
  await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Grill', type: 'TM88', address: 'tcp://127.0.0.1:9', isActive: false }));
  const plu = (code: number, name: string, amount: number, orderEndpointNames: string[]) =>
    expect2xx(hub.call('POST', '/api/plus', { code, stockName: 'Menu', name, type: 'Service', unitPrice: { amount }, orderEndpointNames }));
  await plu(6, 'Palacinky', 3.5, ['Kitchen', 'Bar']);
  await plu(7, 'Steak', 19, ['Grill', 'Kitchen']);
  await expect2xx(hub.call('POST', '/api/modifiers', { id: 'doneness', options: [{ id: 'rare', name: 'Rare' }, { id: 'medium', name: 'Medium' }] }));
  cashier = await register(hub);
  waiter = await register(hub, ['TicketCreate', 'TicketUpdate']);
});
afterAll(() => hub.close());

const as = () => ({ token: cashier.token });
const open = (body: Record<string, unknown>) => expect2xx(hub.call('POST', '/api/tickets', body, as()));
const update = (t: any, items: unknown[]) => expect2xx(hub.call('PUT', `/api/tickets/${t.id}`, { ...t, items }, as()));

async function ordersOf(ticketId: string, extra = ''): Promise<any[]> {
  const r = await hub.call('GET', `/api/orders?ticketId=${ticketId}&$sort=createdAt,orderEndpointName${extra}`);
  expect(r.status).toBe(200);
  return r.body.items;
}
const brief = (orders: any[]) => orders.map((o) => [o.orderEndpointName, o.kind, o.state, o.items.map((i: any) => [i.name, i.quantity])]);
const jobsOf = (orderId: string) =>
  hub.db.all<{ endpoint_name: string; kind: string; state: string; payload: string }>(sql`SELECT endpoint_name, kind, state, payload FROM print_jobs WHERE ref_id = ${orderId}`);

describe('New orders', () => {
  it('makes one order per order endpoint of the plus, none for plus without one', async () => {
    const t = await open({ name: 'T5', location: { tableName: '5', zoneName: 'Hall' }, items: [item(1, 2), item(3, 1), item(4, 3), item(6, 1)] });
    expect(brief(await ordersOf(t.id))).toEqual([
      ['Bar', 'New', 'New', [['Pivo', 1], ['Palacinky', 1]]],
      ['Kitchen', 'New', 'New', [['Gulyás', 2], ['Palacinky', 1]]],
    ]);
    const [bar] = await ordersOf(t.id);
    expect(bar).toMatchObject({
      ticketId: t.id,
      createdAt: hub.clock.now().toISOString(),
      location: { tableName: '5', zoneName: 'Hall' },
      employee: { userName: cashier.userName },
      items: [{ itemId: 2, plu: { code: 3, stockName: 'Menu' } }, { itemId: 4, plu: { code: 6, stockName: 'Menu' } }],
      print: { state: 'Queued', attempts: 0 },
      _v: 1,
    });
  });

  it('orders only the added quantity when a quantity is raised or an item added', async () => {
    const t = await open({ items: [item(1, 2)] });
    hub.clock.advance(1000);
    const t2 = await update(t, [{ ...t.items[0], quantity: 3 }, item(3, 2)]);
    const orders = await ordersOf(t.id);
    expect(brief(orders)).toEqual([
      ['Kitchen', 'New', 'New', [['Gulyás', 2]]],
      ['Bar', 'New', 'New', [['Pivo', 2]]],
      ['Kitchen', 'New', 'New', [['Gulyás', 1]]],
    ]);
    // Storing the ticket again unchanged orders nothing.
    hub.clock.advance(1000);
    await update(t2, t2.items);
    expect(await ordersOf(t.id)).toHaveLength(3);
  });

  it('carries modifiers and the comment to the kitchen', async () => {
    const t = await open({ items: [item(7, 1, { comment: 'no salt', modifiers: [{ modifierId: 'doneness', optionId: 'rare' }] })] });
    const [kitchen] = await ordersOf(t.id);
    expect(kitchen.orderEndpointName).toBe('Kitchen');
    expect(kitchen.items[0]).toMatchObject({ name: 'Steak', quantity: 1, comment: 'no salt', modifiers: [{ modifierId: 'doneness', optionId: 'rare', name: 'Rare', quantity: 1 }] });
  });

  it('sends nothing to an inactive order endpoint', async () => {
    const t = await open({ items: [item(7, 2)] });
    // Steak goes to Grill (inactive) and Kitchen.
    expect(brief(await ordersOf(t.id))).toEqual([['Kitchen', 'New', 'New', [['Steak', 2]]]]);
    expect((await hub.call('GET', '/api/orders?orderEndpointName=Grill')).body.totalCount).toBe(0);
  });

  it('sends no order for a returned (Negative) item', async () => {
    const t = await open({ items: [item(1, 1, { type: 'Negative' })] });
    expect(await ordersOf(t.id)).toEqual([]);
  });
});

describe('Cancel orders', () => {
  it('a storno (lower quantity) makes a Cancel order of the difference, born Cancelled', async () => {
    const t = await open({ items: [item(1, 3), item(3, 1)] });
    hub.clock.advance(1000);
    await update(t, [{ ...t.items[0], quantity: 1 }, t.items[1]]);
    const orders = await ordersOf(t.id);
    expect(brief(orders.slice(2))).toEqual([['Kitchen', 'Cancel', 'Cancelled', [['Gulyás', 2]]]]);
  });

  it('removing an item cancels all of it', async () => {
    const t = await open({ items: [item(1, 2), item(3, 1)] });
    hub.clock.advance(1000);
    await update(t, [t.items[0]]);
    expect(brief((await ordersOf(t.id)).slice(2))).toEqual([['Bar', 'Cancel', 'Cancelled', [['Pivo', 1]]]]);
  });

  it('swapping the plu of an item cancels the old one and orders the new one', async () => {
    const t = await open({ items: [item(1, 1)] });
    hub.clock.advance(1000);
    await update(t, [{ ...t.items[0], plu: { code: 2, stockName: 'Menu' } }]);
    const later = brief((await ordersOf(t.id)).slice(1)).sort((x, y) => String(x[1]).localeCompare(String(y[1])));
    expect(later).toEqual([
      ['Kitchen', 'Cancel', 'Cancelled', [['Gulyás', 1]]],
      ['Kitchen', 'New', 'New', [['Šopský šalát', 1]]],
    ]);
  });

  it("changing an ordered item's options or comment cancels it as it was sent and orders it as it is now (no Storno needed)", async () => {
    // A waiter without Storno, on their own ticket.
    const mine = { token: waiter.token };
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(7, 2, { modifiers: [{ modifierId: 'doneness', optionId: 'rare' }] }), item(1, 1)] }, mine));
    const sent = (await ordersOf(t.id)).length;
    hub.clock.advance(1000);
    const changed = await expect2xx(hub.call('PUT', `/api/tickets/${t.id}`, { ...t, items: [{ ...t.items[0], modifiers: [{ modifierId: 'doneness', optionId: 'medium' }] }, t.items[1]] }, mine));
    const second = (await ordersOf(t.id)).slice(sent);
    expect(second.map((o) => [o.orderEndpointName, o.kind, o.items.map((i: any) => [i.name, i.quantity, i.modifiers.map((m: any) => m.optionId)])]).sort()).toEqual([
      ['Kitchen', 'Cancel', [['Steak', 2, ['rare']]]],
      ['Kitchen', 'New', [['Steak', 2, ['medium']]]],
    ]);
    // A new comment on it likewise; the untouched Gulyás orders nothing.
    hub.clock.advance(1000);
    await expect2xx(hub.call('PUT', `/api/tickets/${t.id}`, { ...changed, items: [{ ...changed.items[0], comment: 'no salt' }, changed.items[1]] }, mine));
    const third = (await ordersOf(t.id)).slice(sent + second.length);
    expect(third.map((o) => [o.kind, o.items.map((i: any) => [i.name, i.comment])]).sort()).toEqual([
      ['Cancel', [['Steak', null]]],
      ['New', [['Steak', 'no salt']]],
    ]);
  });

  it('DELETE cancels everything that was ordered', async () => {
    const t = await open({ items: [item(1, 2), item(3, 1), item(4, 1)] });
    hub.clock.advance(1000);
    await expect2xx(hub.call('DELETE', `/api/tickets/${t.id}`, undefined, as()));
    expect(brief((await ordersOf(t.id)).slice(2))).toEqual([
      ['Bar', 'Cancel', 'Cancelled', [['Pivo', 1]]],
      ['Kitchen', 'Cancel', 'Cancelled', [['Gulyás', 2]]],
    ]);
  });

  it('a refused storno makes no order', async () => {
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 2)] }, { token: waiter.token }));
    const r = await hub.call('PUT', `/api/tickets/${t.id}`, { ...t, items: [{ ...t.items[0], quantity: 1 }] }, { token: waiter.token });
    expect(r.status).toBe(403);
    expect(await ordersOf(t.id)).toHaveLength(1);
  });
});

describe('print jobs', () => {
  it('queues one print job per order, in the same write', async () => {
    const t = await open({ items: [item(1, 1), item(3, 1), item(6, 2)] });
    const orders = await ordersOf(t.id);
    expect(orders).toHaveLength(2);
    for (const o of orders) {
      const jobs = jobsOf(o.id);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ endpoint_name: o.orderEndpointName, kind: 'order', state: 'Queued' });
      expect(JSON.parse(jobs[0].payload)).toEqual({ orderId: o.id });
    }
  });

  it('a refused write leaves neither orders nor print jobs', async () => {
    const count = () => hub.db.get<{ orders: number; jobs: number }>(sql`SELECT (SELECT count(*) FROM orders) AS orders, (SELECT count(*) FROM print_jobs) AS jobs`);
    const before = count();
    const r = await hub.call('POST', '/api/tickets', { items: [item(1, 1), item(99, 1)] }, as());
    expect(r.status).toBe(400);
    expect(count()).toEqual(before);
  });
});

describe('GET /api/orders filters', () => {
  it('filters by ticketId, orderEndpointName and state, with matches and misses', async () => {
    const t = await open({ items: [item(1, 2), item(3, 1)] });
    hub.clock.advance(1000);
    await update(t, [{ ...t.items[0], quantity: 1 }, t.items[1]]);
    const list = async (q: string) => {
      const r = await hub.call('GET', `/api/orders?ticketId=${t.id}&${q}`);
      expect(r.status, q).toBe(200);
      return brief(r.body.items);
    };
    expect(await list('orderEndpointName=Bar')).toEqual([['Bar', 'New', 'New', [['Pivo', 1]]]]);
    expect(await list('orderEndpointName=Grill')).toEqual([]);
    expect(await list('state=Cancelled')).toEqual([['Kitchen', 'Cancel', 'Cancelled', [['Gulyás', 1]]]]);
    expect(await list('state=New&orderEndpointName=Kitchen')).toEqual([['Kitchen', 'New', 'New', [['Gulyás', 2]]]]);
    expect(await list('state=Served')).toEqual([]);
    expect((await hub.call('GET', '/api/orders?ticketId=nope')).body.totalCount).toBe(0);
    expect((await hub.call('GET', '/api/orders?state=Eaten')).status).toBe(400);
  });
});
