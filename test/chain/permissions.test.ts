/**
 * A store's NATS user with only the permissions of `storeNatsPermissions` (README "A chain of
 * stores", NATS users), on Debian's nats-server configured with users: the real hub publishes its
 * events, sends its heartbeat and applies its catalog through them; the same user cannot publish
 * events as another store, nor hear another store's replies or catalog.
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_STREAM, EVENTS_STREAM, catalogMsgId, catalogSubject, heartbeatSubject, storeInbox, storeNatsPermissions, type CatalogChange, type Heartbeat } from '../../hub/hq/protocol.js';
import { ensureStreams } from '../../hub/hq/streams.js';
import type { HqConfig } from '../../hub/hq/config.js';
import { E2E_ADMIN_PASSWORD, startHubProcess, type HubProcess } from '../support/process.js';
import { chainTestsAvailable, eventually, removeNats, startNats, type NatsServer } from '../support/chain.js';

const available = chainTestsAvailable();
const PASSWORD = { hq: 'hq-nats-password', s1: 's1-nats-password', s2: 's2-nats-password' };

/** nats-server's configuration: HQ may do anything; each store only what its permissions allow. */
const config = `authorization {
  users = [
    { user: hq, password: "${PASSWORD.hq}" }
    { user: s1, password: "${PASSWORD.s1}", permissions: ${JSON.stringify(storeNatsPermissions('s1'))} }
    { user: s2, password: "${PASSWORD.s2}", permissions: ${JSON.stringify(storeNatsPermissions('s2'))} }
  ]
}
`;

let nats: NatsServer;
let hq: NatsConnection;
let hub: HubProcess;

beforeAll(async () => {
  if (!available) return;
  nats = await startNats({ config });
  hq = await connect({ servers: `127.0.0.1:${nats.port}`, user: 'hq', pass: PASSWORD.hq });
  // The streams as HQ makes them at its start.
  await ensureStreams(hq, { duplicateWindowMs: 120_000, ackWaitMs: 30_000 } as HqConfig);
  hub = await startHubProcess({
    POS_HUB_HQ_URL: nats.url,
    POS_HUB_HQ_USER: 's1',
    POS_HUB_HQ_PASSWORD: PASSWORD.s1,
    POS_HUB_STORE_ID: 's1',
    POS_HUB_HQ_HEARTBEAT: '200ms',
  });
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

describe.skipIf(!available)("a store's NATS user, limited to its own subjects", () => {
  it('is enough for the hub: its events are acknowledged, its heartbeat arrives, its catalog is applied', async () => {
    // The first start's change log (the admin, the BackOffice device, numberings…) and a new stock.
    const token = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
    expect((await hub.call('POST', '/api/stocks', { name: 'Sklad' }, { token })).status).toBe(201);
    const lastSeq = (await hub.call('GET', '/api/health', undefined, { token })).body.changeLog.lastSeq as number;
    expect(lastSeq).toBeGreaterThan(0);
    const beat = await heartbeat((h) => h.ackedSeq === h.lastSeq && h.lastSeq >= lastSeq);
    expect(beat.ackedSeq).toBeGreaterThanOrEqual(lastSeq);
    const jsm = await jetstreamManager(hq);
    const info = await jsm.streams.info(EVENTS_STREAM, { subjects_filter: 'pos.s1.>' });
    expect(info.state.messages).toBeGreaterThanOrEqual(lastSeq);

    const change: CatalogChange = { storeId: 's1', version: 1, resource: 'stocks', key: 'Bar', op: 'put', doc: { name: 'Bar' } };
    await jetstream(hq).publish(catalogSubject('s1'), JSON.stringify(change), { msgID: catalogMsgId('s1', 1) });
    await heartbeat((h) => h.appliedCatalogVersion === 1);
    const stocks = (await hub.call('GET', '/api/stocks', undefined, { token })).body.items.map((s: { name: string }) => s.name);
    expect(stocks).toContain('Bar');
  });

  it('cannot publish events as another store, nor hear its replies or its catalog', async () => {
    const s1 = await connect({ servers: `127.0.0.1:${nats.port}`, user: 's1', pass: PASSWORD.s1, inboxPrefix: storeInbox('s1') });
    try {
      const jsm = await jetstreamManager(hq);
      /** Messages of the events stream per subject under `filter`. */
      const subjects = async (filter: string) => (await jsm.streams.info(EVENTS_STREAM, { subjects_filter: filter })).state.subjects ?? {};
      // A forged sale of store s2: refused by the server, never in the stream; s1's own still lands.
      s1.publish('pos.s2.tickets', JSON.stringify({ storeId: 's2', seq: 1 }));
      s1.publish('pos.s1.forged_check', JSON.stringify({ storeId: 's1', seq: 0 }));
      await s1.flush().catch(() => {});
      await eventually(async () => (await subjects('pos.s1.forged_check'))['pos.s1.forged_check'] === 1, 5000, "s1's own publish to land");
      expect(await subjects('pos.s2.>')).toEqual({});

      // Its own inbox it hears; another store's, and the catalog subjects, it does not.
      expect(await heard(s1, `${storeInbox('s1')}.x`, () => hq.publish(`${storeInbox('s1')}.x`, 'for s1'))).toBe(1);
      expect(await heard(s1, `${storeInbox('s2')}.>`, () => hq.publish(`${storeInbox('s2')}.x`, 'for s2'))).toBe(0);
      expect(await heard(s1, '_INBOX.>', () => hq.publish('_INBOX.x', 'for anyone'))).toBe(0);
      expect(await heard(s1, catalogSubject('s2'), () => hq.publish(catalogSubject('s2'), 'a price list'))).toBe(0);

      // Nor may it read another store's catalog consumer through JetStream.
      await expect(jetstream(s1, { timeout: 1000 }).consumers.get(CATALOG_STREAM, 'catalog-s2')).rejects.toThrow();
    } finally {
      await s1.close();
    }
  });
});
