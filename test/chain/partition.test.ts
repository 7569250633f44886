/**
 * The chain through a partition (CONTRACT §13, issue 20; the servers: ./fixture.ts): the link to NATS
 * cut, black-holed, and its publish acks lost past JetStream's duplicate window; a hub stopped while
 * HQ's NATS is silent.
 */
import { headers as natsHeaders } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { describe, expect, it } from 'vitest';
import { eventMsgId } from '../../hub/hq/protocol.js';
import { eventually, startHq, startProxy } from '../support/chain.js';
import { ok, sell, setUpShop, storeFigures, useChain } from './fixture.js';

const c = useChain(['p1', 'p2', 'p3']);

describe.skipIf(!c.available)('a chain of stores', () => {
  it('partition: cut, black-holed, and acks lost past the duplicate window — the store sells on, every event arrives once', async () => {
    const proxy = await startProxy(c.nats.port, 'POS_EVENTS');
    try {
      // A 2 s wait for HQ instead of 5 s: each outage below is noticed sooner; still past the 1 s
      // duplicate window, which the lost-acks case needs.
      const hub = await c.startStore('p1', { url: proxy.url, env: { POS_HUB_HQ_TIMEOUT: '2s' } });
      const token = await setUpShop(hub);
      await c.ingestedUpTo('p1', (await storeFigures(hub, token)).lastSeq);

      for (const mode of ['cut', 'blackhole'] as const) {
        proxy.set(mode);
        await sell(hub, token, 2); // selling never waits for HQ
        const own = await storeFigures(hub, token);
        await new Promise((r) => setTimeout(r, 500));
        expect((await c.hqStore('p1')).ingestedSeq).toBeLessThan(own.lastSeq);
        proxy.set('pass');
        await c.ingestedUpTo('p1', own.lastSeq, 30_000);
      }

      // The publishes land but their acks are lost; the store republishes after its 2 s timeout, past
      // JetStream's 1 s duplicate window, so the stream takes them again: HQ must ignore them.
      const before = (await c.hq.call('GET', '/hq/api/health')).body.ingest.duplicates;
      proxy.set('dropAcks');
      await sell(hub, token, 2);
      const own = await storeFigures(hub, token);
      await c.ingestedUpTo('p1', own.lastSeq); // they did land
      await eventually(async () => proxy.dropped > 0, 10_000, 'acks to be dropped');
      // Healed at once: the store still waits for the lost acks, and republishes only when they time
      // out (2 s), past the 1 s duplicate window.
      proxy.set('pass');
      await eventually(async () => (await c.hq.call('GET', '/hq/api/health')).body.ingest.duplicates > before, 20_000, 'the republished events to reach HQ');
      await eventually(async () => {
        const h = await ok(hub, 'GET', '/api/health', undefined, token);
        return h.changeLog.lastSeq === own.lastSeq && (await c.eventsAtHq('p1')).rows === own.lastSeq;
      }, 10_000, 'all events once');
      expect(await c.eventsAtHq('p1')).toEqual({ rows: own.lastSeq, distinct: own.lastSeq, max: own.lastSeq });
      const atHq = await c.hq.call('GET', '/hq/api/tickets?StoreId=p1&IsClosed=true&$count=true');
      expect(atHq.body.totalCount).toBe(own.closed);
      await hub.stop();
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('SIGTERM while HQ is silent with publishes in flight: exit 0 within 10 s, and what was in flight goes again after the restart', async () => {
    const proxy = await startProxy(c.nats.port, 'POS_EVENTS');
    try {
      // The longest wait for an ack there is: stopping must not sit it out (CONTRACT §10: exit 0 within 10 s).
      const env = { POS_HUB_HQ_TIMEOUT: '60s' };
      const hub = await c.startStore('p2', { url: proxy.url, env });
      const token = await setUpShop(hub);
      await c.ingestedUpTo('p2', (await storeFigures(hub, token)).lastSeq);
      proxy.set('blackhole');
      await sell(hub, token, 2); // published, never acknowledged
      const own = await storeFigures(hub, token);
      expect(await hub.stop(10_000, 'SIGTERM'), hub.output()).toEqual({ code: 0, signal: null });

      proxy.set('pass');
      const again = await c.startStore('p2', { url: proxy.url, dataDir: hub.dataDir, env });
      await c.ingestedUpTo('p2', own.lastSeq, 30_000);
      expect(await c.eventsAtHq('p2')).toEqual({ rows: own.lastSeq, distinct: own.lastSeq, max: own.lastSeq });
      await again.stop();
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it("a store HQ hears from only through a backlog it takes late is as silent as it was: lastSeenAt is when HQ's NATS took its events", async () => {
    // HQ away: the store's events wait in the stream, and then the store falls silent.
    expect((await c.hq.stop('SIGTERM')).code).toBe(0);
    const nc = await c.nats.connect('p3');
    try {
      for (const seq of [1, 2]) {
        const h = natsHeaders();
        h.set('Nats-Msg-Id', eventMsgId('p3', seq));
        const event = { storeId: 'p3', seq, base: 0, resource: 'stocks', key: `S${seq}`, op: 'upsert', v: 1, at: new Date().toISOString(), doc: { name: `S${seq}` } };
        await jetstream(nc).publish('pos.p3.stocks', JSON.stringify(event), { headers: h });
      }
    } finally {
      await nc.close();
    }
    const silentFrom = Date.now();
    // Silent for longer than POS_HQ_OFFLINE_AFTER (3 s here) before HQ is back and takes the backlog.
    await new Promise((r) => setTimeout(r, 4000));
    c.hq = await startHq(c.hqEnv());
    await c.ingestedUpTo('p3', 2);
    const store = await c.hqStore('p3');
    expect(Date.parse(store.lastSeenAt)).toBeLessThanOrEqual(silentFrom);
    expect(store.online).toBe(false);
  }, 60_000);
});
