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
