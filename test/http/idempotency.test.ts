import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(() => hub.close());

const key = (k: string) => ({ headers: { 'Idempotency-Key': k } });

describe('Idempotency-Key', () => {
  it('replays the stored answer of a retried POST and creates nothing twice', async () => {
    const body = { firstName: 'Eva', lastName: 'Retry' };
    const first = await hub.call('POST', '/api/customers', body, key('k-1'));
    const second = await hub.call('POST', '/api/customers', body, key('k-1'));
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await hub.call('GET', '/api/customers?Search=Retry')).body.totalCount).toBe(1);
  });

  it('answers 409 errorCode 11 when a key comes back with a different request', async () => {
    await hub.call('POST', '/api/customers', { firstName: 'A', lastName: 'One' }, key('k-2'));
    const r = await hub.call('POST', '/api/customers', { firstName: 'B', lastName: 'Two' }, key('k-2'));
    expect(r.status).toBe(409);
    expect(r.body.errorCode).toBe(11);
    expect((await hub.call('GET', '/api/customers?Search=Two')).body.totalCount).toBe(0);
  });

  it('replays a 4xx answer too, and scopes keys to the user', async () => {
    const bad = await hub.call('POST', '/api/stocks', { description: 'no name' }, key('k-3'));
    expect(bad.status).toBe(400);
    const again = await hub.call('POST', '/api/stocks', { description: 'no name' }, key('k-3'));
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await hub.userWith(['StockCreate']);
    const theirs = await hub.call('POST', '/api/stocks', { name: 'Theirs' }, { token: other, headers: { 'Idempotency-Key': 'k-3' } });
    expect(theirs.status).toBe(201);
  });

  it('runs two simultaneous copies once', async () => {
    const body = { name: 'Parallel' };
    const [a, b] = await Promise.all([hub.call('POST', '/api/stocks', body, key('k-4')), hub.call('POST', '/api/stocks', body, key('k-4'))]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body).toEqual(b.body);
  });

  it('refuses a malformed key', async () => {
    const r = await hub.call('POST', '/api/stocks', { name: 'X' }, key('bad key with spaces'));
    expect(r.status).toBe(400);
    expect(r.body.errors[0].memberName).toBe('Idempotency-Key');
  });
});

describe('Idempotency-Key on ticket actions', () => {
  it('replays PATCH, close and print_preliminary_ticket without doing them twice', async () => {
    const { restaurant, register, item } = await import('../tickets/fixture.js');
    await restaurant(hub);
    const cashier = await register(hub);
    const as = (k: string) => ({ token: cashier.token, headers: { 'Idempotency-Key': k } });
    const t = (await hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, { token: cashier.token })).body;

    const patch1 = await hub.call('PATCH', '/api/tickets?action=Relocate', { ids: [t.id], location: { tableName: '7', zoneName: null } }, as('p-1'));
    const patch2 = await hub.call('PATCH', '/api/tickets?action=Relocate', { ids: [t.id], location: { tableName: '7', zoneName: null } }, as('p-1'));
    expect(patch1.status).toBe(200);
    expect(patch2.body).toEqual(patch1.body);
    expect((await hub.call('GET', `/api/tickets/${t.id}`)).body._v).toBe(patch1.body[0]._v);

    const jobs = () => hub.db.$client.prepare(`SELECT count(*) AS n FROM print_jobs WHERE kind = 'preliminary' AND ref_id = ?`).get(t.id) as { n: number };
    expect((await hub.call('POST', `/api/tickets/${t.id}/print_preliminary_ticket`, {}, as('b-1'))).status).toBe(204);
    expect((await hub.call('POST', `/api/tickets/${t.id}/print_preliminary_ticket`, {}, as('b-1'))).status).toBe(204);
    expect(jobs().n).toBe(1);

    const pay = { payments: [{ paymentTypeNumber: 1, amount: 10 }] };
    const close1 = await hub.call('POST', `/api/tickets/${t.id}/close`, pay, as('c-1'));
    const close2 = await hub.call('POST', `/api/tickets/${t.id}/close`, pay, as('c-1'));
    expect(close1.status).toBe(200);
    expect(close2.body).toEqual(close1.body);
    const fp1 = hub.fiscal.peek('FP1') as unknown as { journal: unknown[] };
    expect(fp1.journal).toHaveLength(1);
  });
});
