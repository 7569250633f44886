/**
 * What HQ takes from a store it cannot trust beyond its own data (CONTRACT §13, issue 30), on the
 * real servers with the generated NATS configuration: a rogue store (its own NATS password, taken
 * from a shop PC) publishing HTML heartbeats and poison events; HQ's page in Chromium, where a
 * script in a store's data never runs; HQ's users with rights and a password change.
 */
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_STREAM, EVENTS_STREAM, INGEST_CONSUMER, catalogSubject, eventMsgId, heartbeatSubject, storeInbox, type Heartbeat } from '../../hub/hq/protocol.js';
import { HQ_ADMIN_PASSWORD, chainTestsAvailable, eventually, removeNats, startHq, startNats, startPostgres, type HqProcess, type NatsServer, type Postgres } from '../support/chain.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';

const available = chainTestsAvailable();
const browserAvailable = available && chromiumAvailable("HQ's page test");
const XSS = `<img src=x onerror="window.__xss=(window.__xss||0)+1"><script>window.__xss=(window.__xss||0)+1</script>`;

let nats: NatsServer;
let pg: Postgres;
let hq: HqProcess;
let rogue: NatsConnection;
let honest: NatsConnection;

beforeAll(async () => {
  if (!available) return;
  [nats, pg] = await Promise.all([startNats({ stores: ['s1', 's2'] }), startPostgres()]);
  hq = await startHq({ ...nats.hqEnv(), POS_HQ_DATABASE_URL: pg.url, POS_HQ_OFFLINE_AFTER: '60s' });
  [rogue, honest] = await Promise.all([nats.connect('s2'), nats.connect('s1')]);
}, 60_000);

afterAll(async () => {
  await Promise.all([rogue, honest].map((c) => c?.close().catch(() => {})));
  await hq?.stop('SIGKILL');
  await pg?.stop();
  if (nats) await removeNats(nats);
}, 60_000);

const beat = (storeId: string, extra: Partial<Record<keyof Heartbeat, unknown>> = {}) =>
  JSON.stringify({ storeId, name: `Store ${storeId}`, at: new Date().toISOString(), lastSeq: 0, ackedSeq: 0, appliedCatalogVersion: 0, catalogError: null, printers: [], fiscalDevices: [], ...extra });

const event = (storeId: string, seq: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ storeId, seq, base: 0, resource: 'stocks', key: `S${seq}`, op: 'upsert', v: 1, at: new Date().toISOString(), doc: { name: `S${seq}` }, ...extra });

/** An event as the store's publisher sends it: its subject, its message id. */
async function publish(nc: NatsConnection, storeId: string, seq: number, body: string, resource = 'stocks'): Promise<void> {
  const h = natsHeaders();
  h.set('Nats-Msg-Id', eventMsgId(storeId, seq));
  await jetstream(nc).publish(`pos.${storeId}.${resource}`, body, { headers: h });
}

async function store(storeId: string): Promise<any> {
  return (await hq.call('GET', `/hq/api/stores?StoreId=${storeId}`)).body.items[0];
}

describe.skipIf(!available)('a rogue store', () => {
  it("its heartbeats are checked and tied to its own subject; what is stored is a store's word, kept as text", async () => {
    rogue.publish(heartbeatSubject('s2'), beat('s2', { name: `Evil ${XSS}`, catalogError: { version: 3, detail: XSS } }));
    await eventually(async () => (await store('s2'))?.name === `Evil ${XSS}`, 10_000, "s2's heartbeat");
    // A catalog error whose version is markup, a heartbeat claiming another store, broken text: refused.
    rogue.publish(heartbeatSubject('s2'), beat('s2', { name: 'Evil 2', catalogError: { version: XSS, detail: 'x' } }));
    rogue.publish(heartbeatSubject('s2'), beat('s1', { name: 'I am s1' }));
    rogue.publish(heartbeatSubject('s2'), beat('s2', { name: 'NUL \u0000 here' }));
    rogue.publish(heartbeatSubject('s2'), beat('s2', { name: 'Evil 3', printers: [{ name: 'P\ud800' }] }));
    rogue.publish(heartbeatSubject('s2'), '{"not": "a heartbeat"');
    honest.publish(heartbeatSubject('s1'), beat('s1', { name: 'Honest s1' }));
    await eventually(async () => (await store('s1'))?.name === 'Honest s1', 10_000, "s1's heartbeat");
    await rogue.flush();
    await new Promise((r) => setTimeout(r, 300));
    expect(await store('s2')).toMatchObject({ name: `Evil ${XSS}`, catalogError: { version: 3, detail: XSS } });
    expect((await store('s1')).name).toBe('Honest s1');
  });

  it('poison events go to the dead letters with their reason; the rest of the batch and the other store go on', async () => {
    const poison: Array<[number, string, string?]> = [
      [2, event('s2', 2, { at: '2026-02-30T10:00:00.000Z' })], // JavaScript reads it (2 March), PostgreSQL does not
      [3, event('s2', 3, { v: 2 ** 31 })], // beyond int4
      [4, event('s2', 4, { doc: { name: 'NUL \u0000' } })], // jsonb takes no NUL
      [5, event('s2', 5, { resource: 'tickets', doc: { items: 'not a list', totalPrice: { amount: 'lots' } } }), 'tickets'], // a later report would fail
      [6, `{"storeId":"s2","seq":6, ${XSS}`], // not JSON at all
      [7, event('s1', 7)], // another store's word, on its own subject
      [8, event('s2', 8, { key: XSS, doc: { name: XSS } }).replace('"doc":{', '"doc":{"__proto__":{"polluted":true},')],
      [9, event('s2', 9, { doc: { amount: 12345 } }).replace('12345', '1e400')], // beyond a double: JSON.parse makes it Infinity
    ];
    await publish(rogue, 's2', 1, event('s2', 1));
    for (const [seq, body, resource] of poison) await publish(rogue, 's2', seq, body, resource);
    await publish(rogue, 's2', 10, event('s2', 10));
    await publish(honest, 's1', 1, event('s1', 1));
    await publish(honest, 's1', 2, event('s1', 2));
    await eventually(async () => (await store('s2'))?.ingestedSeq === 10 && (await store('s1'))?.ingestedSeq === 2, 20_000, 'ingest to go past the poison');
    expect((await store('s2')).deadLetters).toBe(poison.length);
    expect((await store('s1')).deadLetters).toBe(0);
    const taken = await pg.pool.query("SELECT store_id, seq::int FROM store_events ORDER BY store_id, seq");
    expect(taken.rows).toEqual([{ store_id: 's1', seq: 1 }, { store_id: 's1', seq: 2 }, { store_id: 's2', seq: 1 }, { store_id: 's2', seq: 10 }]);
    const dead = (await hq.call('GET', '/hq/api/deadletters?StoreId=s2&$sort=seq&$take=100')).body;
    expect(dead.items.map((d: any) => d.seq)).toEqual(poison.map(([seq]) => seq));
    for (const d of dead.items) expect(d.reason.length).toBeGreaterThan(0);
    expect(dead.items.find((d: any) => d.seq === 7).reason).toContain("storeId: 's1'");
    expect(dead.items.find((d: any) => d.seq === 4).reason).toBe('event.doc.name: must not contain the NUL character');
    // Every message was acknowledged: nothing is redelivered for ever.
    const nc = await nats.connect();
    try {
      await eventually(async () => {
        const c = await (await jetstreamManager(nc)).consumers.info(EVENTS_STREAM, INGEST_CONSUMER);
        return c.num_pending === 0 && c.num_ack_pending === 0;
      }, 10_000, 'every event acknowledged');
    } finally {
      await nc.close();
    }
    // The lists and the report still answer.
    expect((await hq.call('GET', `/hq/api/reports/sales?from=2020-01-01T00:00:00Z&to=2100-01-01T00:00:00Z&groupBy=plu`)).status).toBe(200);
    expect((await hq.call('GET', '/hq/api/tickets')).status).toBe(200);
  });

  it("HQ answers its heartbeat only into the store's own inbox: never onto the JetStream API, a catalog or another store's inbox", async () => {
    const nc = await nats.connect(); // HQ's user, to look at the streams
    try {
      const jsm = await jetstreamManager(nc);
      const catalogBefore = (await jsm.streams.info(CATALOG_STREAM)).state.messages;
      const heardByS1: string[] = [];
      honest.subscribe(`${storeInbox('s1')}.>`, { callback: (err, m) => void (err || heardByS1.push(m.subject)) });
      const answers: string[] = [];
      rogue.subscribe(`${storeInbox('s2')}.answers.*`, { callback: (err, m) => void (err || answers.push(m.string())) });
      await Promise.all([honest.flush(), rogue.flush()]);
      // HQ's NATS user may publish to the JetStream API and the catalog, and may answer what it is sent:
      // a store naming those as its reply subject would have HQ delete a stream, push a price, or tell
      // another store what it may forget.
      const elsewhere = [`$JS.API.STREAM.DELETE.${EVENTS_STREAM}`, `$JS.API.STREAM.PURGE.${CATALOG_STREAM}`, catalogSubject('s1'), `${storeInbox('s1')}.answers.1`, '_INBOX.x', `${storeInbox('s2')}.*`];
      // (The heartbeat the page test below expects to see.)
      const same = beat('s2', { name: `Evil ${XSS}`, catalogError: { version: 3, detail: XSS } });
      for (const reply of elsewhere) rogue.publish(heartbeatSubject('s2'), same, { reply });
      rogue.publish(heartbeatSubject('s2'), same, { reply: `${storeInbox('s2')}.answers.1` });
      await eventually(async () => answers.length === 1, 10_000, "HQ's answer in s2's own inbox");
      // What HQ holds of s2's events (up to 10, the poison above counted as taken); nothing to publish again.
      expect(JSON.parse(answers[0])).toEqual({ storeId: 's2', ingestedSeq: 10, republishFrom: null });
      await new Promise((r) => setTimeout(r, 300));
      expect(answers).toHaveLength(1);
      expect(heardByS1).toEqual([]);
      expect((await jsm.streams.info(EVENTS_STREAM)).config.name).toBe(EVENTS_STREAM);
      expect((await jsm.streams.info(CATALOG_STREAM)).state.messages).toBe(catalogBefore);
    } finally {
      await nc.close();
    }
  });
});

describe.skipIf(!browserAvailable)("HQ's page", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("never runs a script from a store's data, sends a CSP without unsafe-inline and cannot be framed", async () => {
    const res = await fetch(`${hq.url}/hq/`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${hq.url}/hq/`);
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password').fill(HQ_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    // The rogue store's name and refusal are there, as text.
    await page.getByText(`Evil ${XSS}`).waitFor();
    await page.getByText(`v3 refused: ${XSS}`).waitFor();
    await page.getByRole('button', { name: 'Dead letters' }).click();
    await page.locator('[data-testid="dead-letters"] td', { hasText: "storeId: 's1'" }).first().waitFor();
    // Slovak too, the same data.
    await page.getByLabel('Language').selectOption('sk');
    await page.getByRole('button', { name: 'Predajne' }).click();
    await page.getByText(`Evil ${XSS}`).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss ?? 0)).toBe(0);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe.skipIf(!available)("HQ's users", () => {
  it('a reports user reads but pushes nothing and manages no one; a password change ends the other sessions; the last manager stays', async () => {
    expect((await hq.call('PUT', '/hq/api/users/anna', { password: 'anna-reads-only', rights: ['ReportRead'] })).status).toBe(201);
    expect((await hq.call('PUT', '/hq/api/users/bob', { rights: ['ReportRead'] })).body).toMatchObject({ status: 400 });
    expect((await hq.call('PUT', '/hq/api/users/bob', { password: 'short', rights: ['ReportRead'] })).body).toMatchObject({ status: 400 });
    const login = async (userName: string, password: string) => {
      const r = await fetch(`${hq.url}/hq/api/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userName, password }) });
      return { status: r.status, body: (await r.json()) as any };
    };
    const as = (token: string) => async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${hq.url}${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: r.status, body: r.status === 204 ? undefined : ((await r.json()) as any) };
    };
    const first = await login('anna', 'anna-reads-only');
    expect(first.body.user).toEqual({ userName: 'anna', rights: ['ReportRead'] });
    const anna = as(first.body.tokenId);
    expect((await anna('GET', '/hq/api/stores')).status).toBe(200);
    expect((await anna('GET', '/hq/api/deadletters')).status).toBe(200);
    expect((await anna('PUT', '/hq/api/catalog/stocks/Bar', { doc: { name: 'Bar' }, stores: ['*'] })).status).toBe(403);
    expect((await anna('GET', '/hq/api/users')).status).toBe(403);
    expect((await anna('PUT', '/hq/api/users/anna', { rights: ['ReportRead', 'UserManage'] })).status).toBe(403);

    // Her own password: the current one first; then her other session ends, this one stays.
    const second = as((await login('anna', 'anna-reads-only')).body.tokenId);
    expect((await anna('POST', '/hq/api/auth/password', { currentPassword: 'wrong', newPassword: 'anna-new-password' })).body.errors[0].memberName).toBe('currentPassword');
    expect((await anna('POST', '/hq/api/auth/password', { currentPassword: 'anna-reads-only', newPassword: 'anna-new-password' })).status).toBe(204);
    expect((await second('GET', '/hq/api/stores')).status).toBe(401);
    expect((await anna('GET', '/hq/api/stores')).status).toBe(200);
    expect((await login('anna', 'anna-reads-only')).status).toBe(401);
    expect((await login('anna', 'anna-new-password')).status).toBe(200);

    // The admin may not take the last UserManage away, nor delete its last holder; anna may go.
    expect((await hq.call('PUT', '/hq/api/users/admin', { rights: ['ReportRead'] })).status).toBe(403);
    expect((await hq.call('DELETE', '/hq/api/users/admin')).status).toBe(403);
    expect((await hq.call('GET', '/hq/api/users')).body.items).toEqual([
      { userName: 'admin', rights: ['ReportRead', 'CatalogPush', 'UserManage'] },
      { userName: 'anna', rights: ['ReportRead'] },
    ]);
    expect((await hq.call('DELETE', '/hq/api/users/anna')).status).toBe(204);
    expect((await anna('GET', '/hq/api/stores')).status).toBe(401);
  });
});
