import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, createHmac } from 'node:crypto';
import { fingerprintKey } from '../../hub/backups/seal.js';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { startHub, type TestHub } from '../support/hub.js';
import { saveReply } from '../../hub/http/idempotency-store.js';
import { idempotency } from '../../hub/http/idempotency.js';
import { FakeClock } from '../../hub/core/clock.js';
import { openDb } from '../../db/client.js';

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

  it('takes a retry whose JSON members come in another order as the same request (CONTRACT §9)', async () => {
    const first = await hub.call('POST', '/api/customers', { firstName: 'Ola', lastName: 'Reordered', address: { city: 'Nitra', street: 'Hlavná 1' } }, key('k-order'));
    const again = await hub.call('POST', '/api/customers', { address: { street: 'Hlavná 1', city: 'Nitra' }, lastName: 'Reordered', firstName: 'Ola' }, key('k-order'));
    expect(first.status).toBe(201);
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(again.body).toEqual(first.body);
    expect((await hub.call('GET', '/api/customers?Search=Reordered')).body.totalCount).toBe(1);
    // Another value is still another request.
    const other = await hub.call('POST', '/api/customers', { address: { street: 'Hlavná 2', city: 'Nitra' }, lastName: 'Reordered', firstName: 'Ola' }, key('k-order'));
    expect([other.status, other.body.errorCode]).toEqual([409, 11]);
  });

  it('takes a retry conditional on another If-Match as another request (409 errorCode 11), the same one as a replay', async () => {
    expect((await hub.call('PUT', '/api/stocks/IfMatchKey', { description: 'one' })).status).toBe(201);
    const first = await hub.call('PUT', '/api/stocks/IfMatchKey', { description: 'two' }, { headers: { 'Idempotency-Key': 'k-if', 'If-Match': '"1"' } });
    expect([first.status, first.body._v]).toEqual([200, 2]);
    const same = await hub.call('PUT', '/api/stocks/IfMatchKey', { description: 'two' }, { headers: { 'Idempotency-Key': 'k-if', 'If-Match': '"1"' } });
    expect([same.status, same.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    const other = await hub.call('PUT', '/api/stocks/IfMatchKey', { description: 'two' }, { headers: { 'Idempotency-Key': 'k-if', 'If-Match': '"5"' } });
    expect([other.status, other.body.errorCode]).toEqual([409, 11]);
  });

  it('still finds an answer stored under the fingerprint of the body as it came (a key stored before an upgrade)', async () => {
    const body = { name: 'Legacy', description: 'stored before the upgrade' };
    const asItCame = createHash('sha256').update(`POST /api/stocks\n${JSON.stringify(body)}`).digest('hex');
    const stored = { name: 'Legacy', description: 'stored before the upgrade', _v: 1 };
    saveReply(hub.db, 'admin', 'k-legacy', { fingerprint: asItCame, status: 201, headers: JSON.stringify({ 'content-type': 'application/json; charset=utf-8' }), body: JSON.stringify(stored) }, hub.clock.now().getTime());
    const retry = await hub.call('POST', '/api/stocks', body, key('k-legacy'));
    expect([retry.status, retry.headers.get('idempotent-replayed'), retry.body]).toEqual([201, 'true', stored]);
    expect((await hub.call('GET', '/api/stocks/Legacy')).status).toBe(404);
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

describe('Idempotency-Key fingerprints in a backup', () => {
  it('are keyed with the data directory\'s key: a stored fingerprint is no plain hash of the request, so a backup lets nobody test guesses at a secret the body carried', async () => {
    const body = { smtp: { host: '127.0.0.1', port: 2525, secure: false, user: 'shop', password: 'guess-me-1' } };
    const first = await hub.call('PUT', '/api/receipts/settings', body, key('k-secret'));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const row = hub.db.$client.prepare("SELECT fingerprint FROM idempotency_keys WHERE key = 'k-secret'").get() as { fingerprint: string };
    // What an unkeyed fingerprint of the guessed body would be, in either spelling the hub ever used.
    const text = (b: unknown) => `PUT /api/receipts/settings\n${JSON.stringify(b)}`;
    const canonical = { smtp: { host: '127.0.0.1', password: 'guess-me-1', port: 2525, secure: false, user: 'shop' } };
    for (const guess of [text(body), text(canonical)]) expect(row.fingerprint).not.toBe(createHash('sha256').update(guess).digest('hex'));
    // The key is the data directory's, derived from the backup key, which no backup holds.
    const keyed = createHmac('sha256', fingerprintKey(hub.dataDir)).update(text(canonical)).digest('hex');
    expect(row.fingerprint).toBe(keyed);
    // And a retry is still the same request.
    const retry = await hub.call('PUT', '/api/receipts/settings', body, key('k-secret'));
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
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

describe('Idempotency-Key on PUT and DELETE (issue 29: a register working offline)', () => {
  it('replays a ticket PUT retried after a lost reply instead of meeting its own write as a stale _v, and makes its kitchen order once', async () => {
    const { register, item } = await import('../tickets/fixture.js');
    const cashier = await register(hub);
    const as = (k: string) => ({ token: cashier.token, headers: { 'Idempotency-Key': k } });
    // Made by the register, offline: its own id, created with PUT.
    const id = 'reg-offline-0001';
    const create = { name: 'Stôl 9', items: [item(1, 1)] };
    const first = await hub.call('PUT', `/api/tickets/${id}`, create, as('put-1'));
    const again = await hub.call('PUT', `/api/tickets/${id}`, create, as('put-1'));
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);

    // An update carrying the _v it was made on: the retry gets the stored answer, not a 409.
    const update = { ...create, items: [item(1, 1, { id: 1 }), item(2, 2)], _v: first.body._v };
    const u1 = await hub.call('PUT', `/api/tickets/${id}`, update, as('put-2'));
    const u2 = await hub.call('PUT', `/api/tickets/${id}`, update, as('put-2'));
    expect([u1.status, u2.status]).toEqual([200, 200]);
    expect(u2.body).toEqual(u1.body);
    expect(u2.body._v).toBe(first.body._v + 1);
    // Without the key the same retry is refused as stale: the key is what makes it safe.
    expect((await hub.call('PUT', `/api/tickets/${id}`, update, { token: cashier.token })).status).toBe(409);
    const orders = (await hub.call('GET', `/api/orders?ticketId=${id}&$sort=createdAt`)).body.items;
    expect(orders.map((o: any) => o.items.map((i: any) => [i.name, i.quantity]))).toEqual([[['Gulyás', 1]], [['Šopský šalát', 2]]]);

    const d1 = await hub.call('DELETE', `/api/tickets/${id}`, undefined, as('del-1'));
    const d2 = await hub.call('DELETE', `/api/tickets/${id}`, undefined, as('del-1'));
    expect([d1.status, d2.status]).toEqual([200, 200]);
    expect(d2.body).toEqual(d1.body);
  });
});

describe('Idempotency-Key when the client goes away', () => {
  it('a retry sent after the first copy\'s client disconnected, while that copy still runs, waits for it and gets its answer', async () => {
    // A handler that takes its time (a fiscal report, a print): the register's Wi-Fi drops meanwhile
    // and it sends the request again on a new connection.
    const db = openDb(':memory:');
    let runs = 0;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const app = express();
    app.use(express.json());
    let arrived!: () => void;
    const retried = new Promise<void>((resolve) => (arrived = resolve));
    let arrivals = 0;
    app.use((_req, res, next) => {
      if (++arrivals === 2) arrived();
      res.locals.caller = { userId: 'u1' };
      next();
    });
    app.use(idempotency({ db, clock: new FakeClock('2026-11-21T10:00:00Z') }));
    app.post('/api/slow', async (_req, res) => {
      runs++;
      started();
      await gate;
      res.status(201).json({ run: runs });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/slow`;
    const send = (signal?: AbortSignal) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'Idempotency-Key': 'k-gone' }, body: '{"a":1}', signal });
    try {
      const abort = new AbortController();
      const first = send(abort.signal).catch(() => 'aborted');
      await running;
      abort.abort();
      expect(await first).toBe('aborted');
      const retry = send();
      // The first copy finishes only once the retry is in: the retry must not run the handler again.
      await retried;
      finish();
      const answer = await retry;
      expect([answer.status, await answer.json(), answer.headers.get('idempotent-replayed')]).toEqual([201, { run: 1 }, 'true']);
      expect(runs).toBe(1);
    } finally {
      server.closeAllConnections();
      server.close();
      db.$client.close();
    }
  });
});
