/**
 * A kitchen display's history list (issue 21): a served order back to Ready through
 * POST /api/kds/orders/{id}/recall, for a while after it was served, for the display that may read it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';

let hub: TestHub;
let waiter: Awaited<ReturnType<typeof register>>;
let display: string;

beforeAll(async () => {
  hub = await startHub();
  await restaurant(hub);
  await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Pass', type: 'Tablet', settings: {} }));
  const plu = (await hub.call('GET', '/api/plus?code=1&stockName=Menu')).body.items[0];
  await expect2xx(hub.call('PUT', `/api/plus/${plu.id}`, { ...plu, orderEndpointNames: ['Kitchen', 'Pass'] }));
  waiter = await register(hub);
  const { code } = await expect2xx(hub.call('POST', '/api/kds/pairings', { orderEndpointName: 'Pass' }));
  display = (await expect2xx(hub.call('POST', '/api/kds/pair', { code }, { token: null }))).tokenId;
});
afterAll(() => hub.close());

async function served(endpoint = 'Pass'): Promise<any> {
  const t = await expect2xx(hub.call('POST', '/api/tickets', { name: 'Stôl 1', items: [item(1, 1)] }, { token: waiter.token }));
  const order = (await hub.call('GET', `/api/orders?ticketId=${t.id}&orderEndpointName=${endpoint}`)).body.items[0];
  for (const state of ['InProgress', 'Ready', 'Served']) await expect2xx(hub.call('POST', `/api/orders/${order.id}/state`, { state }));
  return (await hub.call('GET', `/api/orders/${order.id}`)).body;
}
const recall = (id: string, body: unknown = {}, token = display) => hub.call('POST', `/api/kds/orders/${id}/recall`, body, { token });

describe('POST /api/kds/orders/{id}/recall', () => {
  it('brings a served order back to Ready, stamped in its history, while the state route still refuses', async () => {
    const order = await served();
    expect((await hub.call('POST', `/api/orders/${order.id}/state`, { state: 'Ready' })).status).toBe(403);
    const r = await recall(order.id, { _v: order._v });
    expect(r.status).toBe(200);
    expect(r.body.state).toBe('Ready');
    expect(r.body.stateHistory.at(-1)).toMatchObject({ state: 'Ready', userName: 'kds-Pass' });
    expect((await hub.call('GET', `/api/orders/${order.id}`)).body.state).toBe('Ready');
    // Only a served order: a second recall is refused (it is Ready now).
    expect((await recall(order.id)).status).toBe(403);
  });

  it('answers 409 for a stale _v and 403 once the window has passed', async () => {
    const order = await served();
    expect((await recall(order.id, { _v: order._v - 1 })).status).toBe(409);
    hub.clock.advance(31 * 60_000);
    const late = await recall(order.id);
    expect(late.status).toBe(403);
    expect(late.body.detail).toMatch(/more than 30 minutes/);
  });

  it('is for OrderProcess only, and a display recalls only its own endpoint\'s orders', async () => {
    const mine = await served();
    expect((await recall(mine.id, {}, waiter.token)).status).toBe(403);
    const other = await served('Kitchen');
    expect([403, 404]).toContain((await recall(other.id)).status);
    expect((await hub.call('GET', `/api/orders/${other.id}`)).body.state).toBe('Served');
  });
});
