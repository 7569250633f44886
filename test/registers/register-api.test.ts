/**
 * The API as a register working offline uses it (issue 29 F): tickets made with ids the register
 * chose (PUT with a new id), every write replayable with an Idempotency-Key — PUT and DELETE too, so a
 * queued change whose answer was lost is neither refused as a conflict with itself nor done twice —
 * and what a table plan shows of every open ticket in one list, the minutes since the last order
 * included (lastOrderDate).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawSql } from '../../db/client.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';

let hub: TestHub;
let waiter: Awaited<ReturnType<typeof register>>;
let other: Awaited<ReturnType<typeof register>>;

beforeAll(async () => {
  hub = await startHub();
  await restaurant(hub);
  waiter = await register(hub);
  other = await register(hub, ['TicketCreate', 'TicketUpdate']);
});
afterAll(() => hub.close());

const as = (token: string, key?: string): { token: string; headers: Record<string, string> } => ({ token, headers: key ? { 'Idempotency-Key': key } : {} });
const kitchenOrders = (ticketId: string) => rawSql.get<{ n: number }>(hub.db, 'SELECT count(*) AS n FROM orders WHERE ticket_id = ?', [ticketId])!.n;

describe('a ticket with an id the register made', () => {
  it('is created by PUT (201), and the same PUT sent again with its key is answered again, not done again', async () => {
    const body = { name: 'Stôl 4', location: { tableName: '4', zoneName: 'Terasa' }, items: [item(1, 2)] };
    const first = await hub.call('PUT', '/api/tickets/reg1-0001', body, as(waiter.token, 'reg1-w1'));
    expect([first.status, first.body.id, first.body._v]).toEqual([201, 'reg1-0001', 1]);
    expect(first.headers.get('location')).toBe('/api/tickets/reg1-0001');
    const again = await hub.call('PUT', '/api/tickets/reg1-0001', body, as(waiter.token, 'reg1-w1'));
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(again.body).toEqual(first.body);
    expect((await hub.call('GET', '/api/tickets/reg1-0001')).body._v).toBe(1);
    expect(kitchenOrders('reg1-0001')).toBe(1);
  });

  it('a queued PUT carrying _v whose answer was lost is replayed with its key, where without one it would be a conflict with itself', async () => {
    const stored = (await hub.call('GET', '/api/tickets/reg1-0001')).body;
    const change = { ...stored, items: [...stored.items, item(3, 1)], _v: stored._v };
    const sent = await hub.call('PUT', '/api/tickets/reg1-0001', change, as(waiter.token, 'reg1-w2'));
    expect([sent.status, sent.body._v]).toEqual([200, 2]);
    const retried = await hub.call('PUT', '/api/tickets/reg1-0001', change, as(waiter.token, 'reg1-w2'));
    expect([retried.status, retried.body._v, retried.headers.get('idempotent-replayed')]).toEqual([200, 2, 'true']);
    expect(kitchenOrders('reg1-0001')).toBe(2);
    // The same change without a key: the stored version moved on, so the hub cannot tell it from another register's.
    const blind = await hub.call('PUT', '/api/tickets/reg1-0001', change, as(waiter.token));
    expect([blind.status, blind.body.errorCode, blind.body.resource.version]).toEqual([409, 6, 2]);
    // The key with another change is refused as a reused key.
    const reused = await hub.call('PUT', '/api/tickets/reg1-0001', { ...change, name: 'Other' }, as(waiter.token, 'reg1-w2'));
    expect([reused.status, reused.body.errorCode]).toEqual([409, 11]);
  });

  it('a DELETE sent again with its key answers as the first did, not 404', async () => {
    await expect2xx(hub.call('PUT', '/api/tickets/reg1-0002', { items: [] }, as(waiter.token)));
    const gone = await hub.call('DELETE', '/api/tickets/reg1-0002', undefined, as(waiter.token, 'reg1-d1'));
    expect([gone.status, gone.body.id]).toEqual([200, 'reg1-0002']);
    const again = await hub.call('DELETE', '/api/tickets/reg1-0002', undefined, as(waiter.token, 'reg1-d1'));
    expect([again.status, again.body.id, again.headers.get('idempotent-replayed')]).toEqual([200, 'reg1-0002', 'true']);
    expect((await hub.call('DELETE', '/api/tickets/reg1-0002', undefined, as(waiter.token))).status).toBe(404);
  });

  it('keys of one register user are theirs: another user may use the same key for their own write', async () => {
    const mine = await hub.call('PUT', '/api/tickets/reg2-0001', { items: [item(4, 1)] }, as(other.token, 'reg1-w1'));
    expect([mine.status, mine.body.id]).toEqual([201, 'reg2-0001']);
  });
});

describe('a table plan', () => {
  it('reads every open ticket of every table in one list, with the waiter, the total and the time of the last order', async () => {
    const openedAt = hub.clock.now().toISOString();
    const t = await expect2xx(hub.call('PUT', '/api/tickets/reg2-0002', { location: { tableName: '9', zoneName: 'Salón' }, items: [item(1, 1)] }, as(other.token)));
    expect(t.lastOrderDate).toBe(openedAt);
    // A rename and a storno send nothing to the kitchen: the last order stays.
    hub.clock.advance(5 * 60_000);
    const renamed = await expect2xx(hub.call('PUT', '/api/tickets/reg2-0002', { ...t, name: 'Pán Novák', items: t.items }, as(waiter.token)));
    expect(renamed.lastOrderDate).toBe(openedAt);
    const lowered = await expect2xx(hub.call('PUT', '/api/tickets/reg1-0001', { ...(await hub.call('GET', '/api/tickets/reg1-0001')).body, items: [item(1, 1, { id: 1 })] }, as(waiter.token)));
    const orderedBefore = lowered.lastOrderDate;
    expect(orderedBefore).not.toBe(hub.clock.now().toISOString());
    // More of an item is a new order.
    hub.clock.advance(60_000);
    const more = await expect2xx(hub.call('PUT', '/api/tickets/reg2-0002', { ...renamed, items: [{ ...renamed.items[0], quantity: 3 }] }, as(waiter.token)));
    expect(more.lastOrderDate).toBe(hub.clock.now().toISOString());
    // Nothing ordered yet: null.
    expect((await expect2xx(hub.call('PUT', '/api/tickets/reg2-0003', { location: { tableName: '10' } }, as(other.token)))).lastOrderDate).toBeNull();

    // A waiter without TicketReadAll reads every open ticket (a table plan needs them), in one page.
    const plan = await hub.call('GET', '/api/tickets?IsClosed=false&$take=1000&$sort=location.zoneName,location.tableName', undefined, { token: other.token });
    expect(plan.status).toBe(200);
    const rows = plan.body.items.map((x: any) => [x.id, x.location?.tableName ?? null, x.employee.userName, x.totalPrice.amount]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['reg1-0001', '4', waiter.userName, 6.9],
        ['reg2-0002', '9', other.userName, 20.7],
        ['reg2-0003', '10', other.userName, 0],
      ]),
    );
  });
});
