/**
 * Trust between a store and the chain's NATS (CONTRACT §13), on Debian's nats-server run with the
 * configuration `npm run hq -- nats-config` generates: the real hub publishes its events, sends its
 * heartbeat and applies its catalog as its own NATS user; the same user cannot publish as another
 * store, hear another store's replies or catalog, nor create a consumer wider than its own catalog.
 * And what comes the other way: a catalog message the store must not take (a user, a fiscal
 * device, broken JSON, `__proto__`, a document its own API refuses) — sent here with HQ's own NATS
 * identity, as a rogue or compromised HQ would — is refused, reported back and acknowledged,
 * and the next good one is applied: never a stall.
 */
import { type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_STREAM, EVENTS_STREAM, catalogConsumer, catalogMsgId, catalogSubject, heartbeatSubject, storeInbox, type CatalogChange, type Heartbeat } from '../../hub/hq/protocol.js';
import { ensureStreams } from '../../hub/hq/streams.js';
import type { HqConfig } from '../../hub/hq/config.js';
import { E2E_ADMIN_PASSWORD, startHubProcess, type HubProcess } from '../support/process.js';
import { chainTestsAvailable, eventually, removeNats, startNats, type NatsServer } from '../support/chain.js';

const available = chainTestsAvailable();

let nats: NatsServer;
let hq: NatsConnection;
let hub: HubProcess;
let token: string;

beforeAll(async () => {
  if (!available) return;
  nats = await startNats({ stores: ['s1', 's2'] });
  hq = await nats.connect('hq');
  // The streams as HQ makes them at its start, as HQ's own user.
  await ensureStreams(hq, { duplicateWindowMs: 120_000, ackWaitMs: 30_000 } as HqConfig);
  hub = await startHubProcess({ ...nats.storeEnv('s1'), POS_HUB_HQ_HEARTBEAT: '200ms' });
  token = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
}, 60_000);

afterAll(async () => {
  await hub?.stop(3000, 'SIGKILL').catch(() => {});
  await hq?.close();
  if (nats) await removeNats(nats);
}, 30_000);

/** The next heartbeat of store `s1` that satisfies `ok`. */
async function heartbeat(ok: (h: Heartbeat) => boolean, ms = 15_000): Promise<Heartbeat> {
  const sub = hq.subscribe(heartbeatSubject('s1'), { timeout: ms });
  for await (const m of sub) {
    const h = m.json<Heartbeat>();
    if (ok(h)) {
      sub.unsubscribe();
      return h;
    }
  }
  throw new Error('no such heartbeat');
}

/** Messages `who` receives on `subject` within `ms`. */
async function heard(who: NatsConnection, subject: string, send: () => void, ms = 500): Promise<number> {
  let n = 0;
  who.subscribe(subject, { callback: (err) => { if (!err) n++; } });
  await who.flush().catch(() => {});
  send();
  await hq.flush();
  await new Promise((r) => setTimeout(r, ms));
  return n;
}

/** A JetStream API request as raw NATS: the server's JSON answer, or the error (a permissions violation ends in no answer). */
async function jsApi(nc: NatsConnection, subject: string, body: unknown): Promise<{ error?: { description?: string }; config?: { filter_subject?: string } } | Error> {
  try {
    return (await nc.request(subject, JSON.stringify(body), { timeout: 1500 })).json();
  } catch (err) {
    return err as Error;
  }
}

/** A catalog message for s1 with HQ's NATS identity, as a rogue HQ would send it. */
async function push(version: number, body: string | CatalogChange): Promise<void> {
  await jetstream(hq).publish(catalogSubject('s1'), typeof body === 'string' ? body : JSON.stringify(body), { msgID: catalogMsgId('s1', version) });
}

describe.skipIf(!available)("a store's NATS user, limited to its own subjects", () => {
  it('is enough for the hub: its events are acknowledged, its heartbeat arrives, its catalog is applied', async () => {
    // The first start's change log (the admin, the BackOffice device, numberings…) and a new stock.
    expect((await hub.call('POST', '/api/stocks', { name: 'Sklad' }, { token })).status).toBe(201);
    const lastSeq = (await hub.call('GET', '/api/health', undefined, { token })).body.changeLog.lastSeq as number;
    expect(lastSeq).toBeGreaterThan(0);
    const beat = await heartbeat((h) => h.ackedSeq === h.lastSeq && h.lastSeq >= lastSeq);
    expect(beat.ackedSeq).toBeGreaterThanOrEqual(lastSeq);
    const jsm = await jetstreamManager(hq);
    const info = await jsm.streams.info(EVENTS_STREAM, { subjects_filter: 'pos.s1.>' });
    expect(info.state.messages).toBeGreaterThanOrEqual(lastSeq);

    await push(1, { storeId: 's1', version: 1, resource: 'stocks', key: 'Bar', op: 'put', doc: { name: 'Bar' } });
    await heartbeat((h) => h.appliedCatalogVersion === 1);
    const stocks = (await hub.call('GET', '/api/stocks', undefined, { token })).body.items.map((s: { name: string }) => s.name);
    expect(stocks).toContain('Bar');
  });

  it('cannot publish events as another store, nor hear its replies or its catalog', async () => {
    const s1 = await nats.connect('s1');
    try {
      const jsm = await jetstreamManager(hq);
      /** Messages of the events stream per subject under `filter`. */
      const subjects = async (filter: string) => (await jsm.streams.info(EVENTS_STREAM, { subjects_filter: filter })).state.subjects ?? {};
      // A forged sale of store s2 and a heartbeat in its name: refused by the server; s1's own still lands.
      s1.publish('pos.s2.tickets', JSON.stringify({ storeId: 's2', seq: 1 }));
      expect(await heard(hq, heartbeatSubject('s2'), () => s1.publish(heartbeatSubject('s2'), '{}'))).toBe(0);
      s1.publish('pos.s1.forged_check', JSON.stringify({ storeId: 's1', seq: 0 }));
      await s1.flush().catch(() => {});
      await eventually(async () => (await subjects('pos.s1.forged_check'))['pos.s1.forged_check'] === 1, 5000, "s1's own publish to land");
      expect(await subjects('pos.s2.>')).toEqual({});

      // Another store's inbox, anyone's default inbox and the catalog subjects it does not hear.
      expect(await heard(s1, `${storeInbox('s2')}.>`, () => hq.publish(`${storeInbox('s2')}.x`, 'for s2'))).toBe(0);
      expect(await heard(s1, '_INBOX.>', () => hq.publish('_INBOX.x', 'for anyone'))).toBe(0);
      expect(await heard(s1, catalogSubject('s2'), () => hq.publish(catalogSubject('s2'), 'a price list'))).toBe(0);

      // Nor may it read another store's catalog consumer through JetStream.
      await expect(jetstream(s1, { timeout: 1000 }).consumers.get(CATALOG_STREAM, catalogConsumer('s2'))).rejects.toThrow();
    } finally {
      await s1.close();
    }
  });

  it("lets HQ's user answer a store's heartbeat, once and into that store's inbox, and send nothing there unasked", async () => {
    const s1 = await nats.connect('s1');
    const inbox = `${storeInbox('s1')}.answers`;
    const got: string[] = [];
    const asked = hq.subscribe(heartbeatSubject('s1'), {
      callback: (err, m) => {
        // The hub beats on the same subject: only the test's own heartbeat is answered here, twice.
        if (err || !m.reply?.startsWith(inbox)) return;
        m.respond('first');
        m.respond('second');
      },
    });
    try {
      s1.subscribe(`${inbox}.*`, { callback: (err, m) => void (err || got.push(`${m.subject.slice(inbox.length + 1)}: ${m.string()}`)) });
      await Promise.all([s1.flush(), hq.flush()]);
      s1.publish(heartbeatSubject('s1'), '{}', { reply: `${inbox}.1` });
      await eventually(async () => got.length > 0, 5000, "HQ's answer");
      hq.publish(`${inbox}.1`, 'again, unasked');
      hq.publish(`${inbox}.2`, 'unasked');
      await hq.flush();
      await new Promise((r) => setTimeout(r, 300));
      expect(got).toEqual(['1: first']);
    } finally {
      asked.unsubscribe();
      await s1.close();
    }
  });

  it("cannot widen its catalog consumer to every store's catalog, in any of JetStream's create forms", async () => {
    const s1 = await nats.connect('s1');
    const jsm = await jetstreamManager(hq);
    const own = catalogConsumer('s1');
    const wide = { durable_name: own, filter_subject: 'catalog.>', ack_policy: 'explicit', deliver_policy: 'all' };
    try {
      // Another store's price list waits in the stream.
      await jetstream(hq).publish(catalogSubject('s2'), JSON.stringify({ storeId: 's2', version: 1, resource: 'plus', key: 'Bar/1', op: 'put', doc: { name: 'secret price' } }), { msgID: catalogMsgId('s2', 1) });
      const attempts = [
        // The forms without a filter token take any filter in the body: not allowed at all.
        [`$JS.API.CONSUMER.CREATE.${CATALOG_STREAM}.${own}`, { stream_name: CATALOG_STREAM, config: { ...wide, name: own } }],
        [`$JS.API.CONSUMER.DURABLE.CREATE.${CATALOG_STREAM}.${own}`, { stream_name: CATALOG_STREAM, config: wide }],
        [`$JS.API.CONSUMER.CREATE.${CATALOG_STREAM}`, { stream_name: CATALOG_STREAM, config: wide }],
        // The filter token of the subject is the permission: a wider one is not allowed…
        [`$JS.API.CONSUMER.CREATE.${CATALOG_STREAM}.${own}.catalog.>`, { stream_name: CATALOG_STREAM, config: { ...wide, name: own } }],
        // …and under its own, the server refuses a body asking for another filter.
        [`$JS.API.CONSUMER.CREATE.${CATALOG_STREAM}.${own}.catalog.s1`, { stream_name: CATALOG_STREAM, config: { ...wide, name: own } }],
        [`$JS.API.CONSUMER.CREATE.${CATALOG_STREAM}.${own}.catalog.s1`, { stream_name: CATALOG_STREAM, config: { ...wide, filter_subject: undefined, filter_subjects: ['catalog.>'], name: own } }],
        // Another consumer, of its own name or not, is not its to make.
        [`$JS.API.CONSUMER.CREATE.${CATALOG_STREAM}.spy.catalog.s2`, { stream_name: CATALOG_STREAM, config: { ...wide, durable_name: 'spy', name: 'spy', filter_subject: 'catalog.s2' } }],
      ] as const;
      for (const [subject, body] of attempts) {
        const answer = await jsApi(s1, subject, body);
        expect(answer instanceof Error || answer.error !== undefined, `${subject} ${JSON.stringify(body.config)}: ${JSON.stringify(answer)}`).toBe(true);
      }
      // Whatever it tried, its consumer still follows its own catalog only, and no other consumer exists.
      expect((await jsm.consumers.info(CATALOG_STREAM, own)).config.filter_subject).toBe(catalogSubject('s1'));
      const names: string[] = [];
      for await (const c of jsm.consumers.list(CATALOG_STREAM)) names.push(c.name);
      expect(names).toEqual([own]);
    } finally {
      await s1.close();
    }
  });

  it('refuses, reports and acknowledges what it must not take from HQ, and applies the next good change', async () => {
    const before = {
      users: (await hub.call('GET', '/api/users', undefined, { token })).body.items,
      fiscal: (await hub.call('GET', '/api/fiscaldevices', undefined, { token })).body.items,
    };
    const seen: Array<Heartbeat['catalogError']> = [];
    const watch = hq.subscribe(heartbeatSubject('s1'), { callback: (err, m) => { if (!err) seen.push(m.json<Heartbeat>().catalogError); } });
    const change = (version: number, resource: string, key: string, op: 'put' | 'delete', doc: Record<string, unknown> | null) =>
      ({ storeId: 's1', version, resource, key, op, doc }) as unknown as CatalogChange;
    // Version 1 was applied above; each of 2–8 is something the store must refuse.
    await push(2, change(2, 'users', 'evil', 'put', { userName: 'evil', password: 'evil-password', rights: ['UserUpdate'] }));
    await push(3, change(3, 'fiscaldevices', 'FP9', 'put', { name: 'FP9', driver: 'simulator', address: 'sim:fp9' }));
    await push(4, 'this is not JSON {');
    await push(5, change(5, '__proto__', 'x', 'put', { polluted: true }));
    await push(6, change(6, 'users', 'admin', 'delete', null));
    // A plu its own API refuses (a price that is no amount), and one whose document pollutes prototypes.
    await push(7, change(7, 'plus', 'Bar/5', 'put', { name: 'Free', type: 'Service', unitPrice: { amount: 'free' }, vatInfo: { category: 1, rate: 20 } }));
    await push(8, `{"storeId":"s1","version":8,"resource":"stocks","key":"Evil","op":"put","doc":{"name":"Evil","__proto__":{"isAdmin":true}}}`);
    // The good one after them: applied, so nothing stalled.
    await push(9, change(9, 'stocks', 'Terasa', 'put', { name: 'Terasa' }));
    await heartbeat((h) => h.appliedCatalogVersion === 9, 20_000);
    watch.unsubscribe();

    const stocks = (await hub.call('GET', '/api/stocks', undefined, { token })).body.items.map((s: { name: string }) => s.name);
    expect(stocks).toContain('Terasa');
    expect(stocks).not.toContain('Evil');
    expect((await hub.call('GET', '/api/plus?Code=5', undefined, { token })).body.items).toEqual([]);
    expect((await hub.call('GET', '/api/users', undefined, { token })).body.items).toEqual(before.users);
    expect((await hub.call('GET', '/api/fiscaldevices', undefined, { token })).body.items.map((d: { name: string }) => d.name)).toEqual(before.fiscal.map((d: { name: string }) => d.name));
    // Each refusal reached HQ in a heartbeat, naming its version.
    const refused = new Set(seen.filter((e) => e !== null).map((e) => e!.version));
    for (const v of [2, 3, 5, 6, 7, 8]) expect(refused.has(v), `version ${v} reported`).toBe(true);
    // Every message was acknowledged: nothing waits for a redelivery.
    const consumer = await (await jetstreamManager(hq)).consumers.info(CATALOG_STREAM, catalogConsumer('s1'));
    expect({ pending: consumer.num_pending, unacked: consumer.num_ack_pending }).toEqual({ pending: 0, unacked: 0 });
  });
});
