/**
 * HQ's NATS loses its JetStream storage (CONTRACT §13; the servers: ./fixture.ts): the stream had
 * acknowledged a store's events HQ had not ingested yet, and stored a catalog version the store had
 * not applied yet. Both heal without anyone's hands, exactly once: HQ, answering the store's
 * heartbeat, asks for the lost events again; its relay publishes again the versions the store is
 * stalled on. And a store whose stream acknowledged everything before HQ had any of it keeps it all
 * through compaction, however old.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Decimal } from 'decimal.js';
import { jetstreamManager } from '@nats-io/jetstream';
import { describe, expect, it } from 'vitest';
import { CATALOG_STREAM, catalogConsumer } from '../../hub/hq/protocol.js';
import { eventually, startHq, startProxy } from '../support/chain.js';
import { generateBacklog } from '../support/backlog.js';
import type { HubProcess } from '../support/process.js';
import { DAY, ackedOnDisk, lastSeqOf, ok, sell, setUpShop, storeFigures, useChain } from './fixture.js';

const c = useChain(['x1', 'x2']);

const pivo = (amount: number) => ({ doc: { name: 'Pivo', type: 'Service', unitPrice: { amount }, vatInfo: { category: 1, rate: 20 } }, stores: ['x1'] });

describe.skipIf(!c.available)("HQ's NATS loses its storage", () => {
  it('a store whose stream acknowledged weeks of events before HQ had any keeps them through compaction, and HQ gets them', async () => {
    const dir = c.tempDir('poshub-x2-');
    // Entries 40 days old, past the log's retention: compaction on the hub's start would remove them were HQ holding them.
    const last = generateBacklog(dir, { events: 600, versions: 2, from: new Date(Date.now() - 47 * DAY), spanMs: DAY });
    // As the store left it: HQ's stream had acknowledged every entry, HQ had said it holds none.
    const db = new Database(join(dir, 'hub.sqlite'));
    try {
      const set = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
      for (const [key, value] of [['chain.base', '0'], ['chain.ackedSeq', String(last)], ['chain.ingestedSeq', '0']]) set.run(key, value);
    } finally {
      db.close();
    }
    const hub = await c.startStore('x2', { dataDir: dir });
    try {
      const lastX2 = await lastSeqOf(hub); // the backlog and what the first start wrote
      expect(lastX2).toBeGreaterThan(last);
      await c.ingestedUpTo('x2', lastX2, 30_000);
      expect(await c.eventsAtHq('x2')).toEqual({ rows: lastX2, distinct: lastX2, max: lastX2 });
      const docs = await c.pg.pool.query("SELECT count(*)::int AS n, min(version)::int AS lo FROM customers WHERE store_id = 'x2'");
      expect(docs.rows[0]).toEqual({ n: 300, lo: 2 });
    } finally {
      await hub.stop();
    }
  }, 60_000);

  // The file's last: HQ ends on a link that is closed with it.
  it('events the stream acknowledged but HQ had not ingested, and a catalog version it stored but the store had not applied, arrive once and in order', async () => {
    // HQ behind a link that can go silent (it stops ingesting while the store sells on); the store
    // behind one that can drop its catalog deliveries (the version is stored, never applied). Both
    // reconnect through them to the emptied server.
    const hqLink = await startProxy(c.nats.port, 'POS_EVENTS');
    const storeLink = await startProxy(c.nats.port, 'POS_CATALOG');
    let hub: HubProcess | undefined;
    try {
      await c.hq.stop();
      // A store waits 1 s on a catalog version before HQ publishes it again (2 min by default).
      c.hq = await startHq(c.hqEnv({ POS_HQ_NATS_URL: hqLink.url, POS_HQ_CATALOG_RESEND: '1s' }));
      hub = await c.startStore('x1', { url: storeLink.url });
      const token = await setUpShop(hub);
      const shop = hub;
      const price = async () => (await ok(shop, 'GET', '/api/plus?Code=1&StockName=Bar', undefined, token)).items[0]?.unitPrice.amount;
      await sell(hub, token, 3);
      await c.ingestedUpTo('x1', (await storeFigures(hub, token)).lastSeq);

      // Version 1 applied as usual.
      expect((await c.hq.call('PUT', '/hq/api/catalog/plus/Bar/1', pivo(2.1))).body.stores).toEqual([{ storeId: 'x1', catalogVersion: 1 }]);
      await eventually(async () => (await price()) === 2.1, 10_000, 'version 1 to be applied');
      // Version 2: the relay publishes it, the stream stores it, the store never gets it.
      storeLink.set('dropDeliveries');
      expect((await c.hq.call('PUT', '/hq/api/catalog/plus/Bar/1', pivo(2.35))).body.stores).toEqual([{ storeId: 'x1', catalogVersion: 2 }]);
      await eventually(async () => storeLink.dropped > 0, 10_000, 'version 2 to be stored and delivered (and dropped)');

      // HQ goes silent; the store sells on, and the stream acknowledges every event.
      hqLink.set('blackhole');
      await sell(hub, token, 4);
      const beforeWipe = await storeFigures(hub, token);
      await eventually(async () => ackedOnDisk(shop.dataDir) === beforeWipe.lastSeq, 15_000, 'the stream to acknowledge every event');
      const held = (await c.hqStore('x1')).ingestedSeq;
      expect(held).toBeLessThan(beforeWipe.lastSeq);

      // The disk of HQ's NATS is lost: the server comes back empty, HQ and the store reconnect.
      await c.nats.restartEmpty();
      hqLink.set('pass');
      storeLink.set('pass');
      // A change pushed after the loss, and more sales.
      expect((await c.hq.call('PUT', '/hq/api/catalog/plus/Bar/1', pivo(2.6))).body.stores).toEqual([{ storeId: 'x1', catalogVersion: 3 }]);
      await sell(hub, token, 2);

      // Both catalog versions reach the store, the lost one first.
      await eventually(async () => (await price()) === 2.6 && (await c.hqStore('x1')).appliedCatalogVersion === 3, 20_000, 'versions 2 and 3 to be applied');
      // Every event at HQ exactly once; the tickets' count and total to the cent.
      const own = await storeFigures(hub, token);
      await c.ingestedUpTo('x1', own.lastSeq, 30_000);
      expect(await c.eventsAtHq('x1')).toEqual({ rows: own.lastSeq, distinct: own.lastSeq, max: own.lastSeq });
      expect((await c.hq.call('GET', '/hq/api/tickets?StoreId=x1&IsClosed=true&$count=true')).body.totalCount).toBe(own.closed);
      const report = await c.hq.call('GET', `/hq/api/reports/sales?from=${new Date(Date.now() - DAY).toISOString()}&to=${new Date(Date.now() + DAY).toISOString()}&groupBy=store`);
      const row = report.body.rows.find((r: any) => r.storeId === 'x1');
      expect({ tickets: row.tickets, total: new Decimal(String(row.total)).toFixed(2) }).toEqual({ tickets: own.closed, total: own.total });
      expect(c.hq.output()).toContain('the store publishes them again');
      expect(c.hq.output()).toContain('catalog versions published again');
      // In order, through the store's own write path: its change log (and so HQ) shows 2.35 before 2.6.
      const prices = await c.pg.pool.query(
        "SELECT (doc->'unitPrice'->>'amount')::numeric::text AS amount FROM store_events WHERE store_id = 'x1' AND resource = 'plus' AND doc->>'code' = '1' ORDER BY seq",
      );
      expect(prices.rows.map((r) => r.amount)).toEqual(['1.9', '2.1', '2.35', '2.6']);
      expect(await c.hqStore('x1')).toMatchObject({ catalogVersion: 3, appliedCatalogVersion: 3, catalogError: null, backlog: 0 });
      // Whatever came twice was acknowledged and skipped: nothing waits in the store's catalog consumer.
      const nc = await c.nats.connect();
      try {
        const consumer = await (await jetstreamManager(nc)).consumers.info(CATALOG_STREAM, catalogConsumer('x1'));
        expect({ pending: consumer.num_pending, unacked: consumer.num_ack_pending }).toEqual({ pending: 0, unacked: 0 });
      } finally {
        await nc.close();
      }
    } finally {
      await hub?.stop();
      await hqLink.close();
      await storeLink.close();
    }
  }, 120_000);

});
