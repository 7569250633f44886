/**
 * The chain when processes are killed (CONTRACT §13, issue 20; the servers: ./fixture.ts): a hub
 * mid-publish, HQ mid-batch, and HQ between its commit and its ack.
 */
import { describe, expect, it } from 'vitest';
import { eventually, startHq, startProxy } from '../support/chain.js';
import type { HubProcess } from '../support/process.js';
import { generateBacklog } from '../support/backlog.js';
import { DAY, ackedOnDisk, lastSeqOf, useChain } from './fixture.js';

const c = useChain(['k1', 'k2']);

describe.skipIf(!c.available)('a chain of stores', () => {
  it('SIGKILL: a hub mid-publish, HQ mid-batch, and HQ between its commit and its ack — nothing missing, nothing twice', async () => {
    // A hub killed while its backlog is being published, then started again. Its acks come 100 ms
    // late through a proxy: with 512 publishes in flight it publishes ~5,000 events a second, so
    // the kill, at its first acknowledged position on disk (saved 0.5 s after the first ack), lands
    // with most of the backlog still to go however fast this machine is (straight to NATS, on a
    // quiet machine, 20,000 were once all acknowledged before that first save).
    const dir = c.tempDir('poshub-k1-');
    const last = generateBacklog(dir, { events: 10_000, versions: 2, from: new Date(Date.now() - DAY), spanMs: DAY / 2 });
    const slow = await startProxy(c.nats.port, 'POS_EVENTS');
    let hub: HubProcess;
    try {
      slow.set('delay');
      hub = await c.startStore('k1', { dataDir: dir, url: slow.url });
      // Killed once the first acks are on its disk: what the store itself knows HQ has, not how far
      // HQ got (on a busy machine HQ's ingest can lag until the store has published everything).
      await eventually(async () => ackedOnDisk(dir) > 0, 60_000, 'publishing to start');
      await hub.stop(0, 'SIGKILL');
    } finally {
      await slow.close();
    }
    expect(ackedOnDisk(dir)).toBeLessThan(last);
    hub = await c.startStore('k1', { dataDir: dir });
    const lastK1 = await lastSeqOf(hub); // the backlog and what the first start wrote
    expect(lastK1).toBeGreaterThan(last);
    await c.ingestedUpTo('k1', lastK1, 90_000);
    expect(await c.eventsAtHq('k1')).toEqual({ rows: lastK1, distinct: lastK1, max: lastK1 });

    // HQ killed mid-ingest, then HQ killed right after a commit and before its ack: the batch comes
    // back after the ack wait and only adds duplicates that change nothing.
    const dir2 = c.tempDir('poshub-k2-');
    generateBacklog(dir2, { events: 8_000, versions: 4, from: new Date(Date.now() - DAY), spanMs: DAY / 2 });
    // Every k1 batch acknowledged first: one left unacknowledged would come back to the next HQ as its
    // first batch, and the crash after that commit would happen before any k2 event is in.
    await c.everyEventAcknowledged();
    await c.hq.stop('SIGKILL');
    c.hq = await startHq(c.hqEnv({ POS_HQ_FAULT: 'crash-after-commit' }));
    await hub.stop();
    const k2 = await c.startStore('k2', { dataDir: dir2 });
    const last2 = await lastSeqOf(k2);
    const crashed = await c.hq.exit;
    expect(crashed.signal).toBe('SIGKILL');
    const committed = (await c.eventsAtHq('k2')).rows;
    expect(committed).toBeGreaterThan(0);
    c.hq = await startHq(c.hqEnv());
    // The batch committed before the crash comes again after the ack wait: duplicates, ignored.
    await eventually(async () => (await c.hq.call('GET', '/hq/api/health')).body.ingest.duplicates > 0, 60_000, 'the unacknowledged batch to come again');
    await eventually(async () => ((await c.hqStore('k2'))?.ingestedSeq ?? 0) > committed, 60_000, 'ingest to go on');
    await c.hq.stop('SIGKILL'); // mid-ingest, as far as the timing allows
    c.hq = await startHq(c.hqEnv());
    await c.ingestedUpTo('k2', last2, 90_000);
    expect(await c.eventsAtHq('k2')).toEqual({ rows: last2, distinct: last2, max: last2 });
    // Each customer's latest version, written 4 times: the table holds version 4 of each, once.
    const docs = await c.pg.pool.query("SELECT count(*)::int AS n, min(version)::int AS lo, max(version)::int AS hi FROM customers WHERE store_id = 'k2'");
    expect(docs.rows[0]).toEqual({ n: 2000, lo: 4, hi: 4 });
    await k2.stop();
  }, 240_000);
});
