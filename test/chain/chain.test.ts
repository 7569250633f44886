/**
 * The chain end to end (CONTRACT §13, issue 20; the servers: ./fixture.ts): stores sell and HQ holds
 * it all, the catalog pushed from HQ, a week's backlog caught up, and a hub without HQ. The
 * partition and the SIGKILL cases are partition.test.ts and sigkill.test.ts, each with its own servers.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { E2E_ADMIN_PASSWORD, startHubProcess, type HubProcess } from '../support/process.js';
import { eventually, startHq, type HqProcess } from '../support/chain.js';
import { generateBacklog } from '../support/backlog.js';
import { DAY, lastSeqOf, ok, sell, setUpShop, storeFigures, useChain } from './fixture.js';

const c = useChain(['s1', 's2', 's3', 'w1']);

describe.skipIf(!c.available)('a chain of stores', () => {
  const shops: Record<string, { hub: HubProcess; token: string }> = {};

  it('three stores sell: HQ holds every ticket, the same counts and exact totals, ingestedSeq = each last seq', async () => {
    for (const id of ['s1', 's2', 's3']) {
      const hub = await c.startStore(id);
      shops[id] = { hub, token: await setUpShop(hub) };
    }
    await Promise.all(Object.values(shops).map(({ hub, token }, i) => sell(hub, token, 3 + i * 2)));
    for (const [id, { hub, token }] of Object.entries(shops)) {
      const own = await storeFigures(hub, token);
      await c.ingestedUpTo(id, own.lastSeq);
      const atHq = await c.hq.call('GET', `/hq/api/tickets?StoreId=${id}&IsClosed=true&$count=true`);
      expect(atHq.body.totalCount).toBe(own.closed);
      const events = await c.eventsAtHq(id);
      expect(events).toEqual({ rows: own.lastSeq, distinct: own.lastSeq, max: own.lastSeq });
      const store = await c.hqStore(id);
      expect(store).toMatchObject({ storeId: id, name: `Store ${id}`, online: true, ingestedSeq: own.lastSeq, backlog: 0 });
      // HQ was there all along: no outage is logged (publishing starts once connected), and HQ never
      // took an event on its way for a lost one (wipe.test.ts: when it asks for events again).
      expect(hub.output()).not.toContain('publishing paused');
      expect(hub.output()).not.toContain('publishing them again');
    }
    const report = await c.hq.call('GET', `/hq/api/reports/sales?from=${new Date(Date.now() - DAY).toISOString()}&to=${new Date(Date.now() + DAY).toISOString()}&groupBy=store`);
    expect(report.status).toBe(200);
    let sum = new Decimal(0);
    for (const [id, { hub, token }] of Object.entries(shops)) {
      const own = await storeFigures(hub, token);
      const row = report.body.rows.find((r: any) => r.storeId === id);
      expect({ tickets: row.tickets, total: new Decimal(String(row.total)).toFixed(2) }).toEqual({ tickets: own.closed, total: own.total });
      sum = sum.plus(own.total);
    }
    expect(new Decimal(String(report.body.total)).toFixed(2)).toBe(sum.toFixed(2));
    // The seed's ticket filters work at HQ too, with the store beside each ticket.
    const page = await c.hq.call('GET', '/hq/api/tickets?StoreId=s2&ItemPluCode=1&$sort=-totalPrice.amount&$take=2');
    expect(page.body).toMatchObject({ count: 2, totalCount: 5 });
    expect(page.body.items[0].storeId).toBe('s2');
    expect(page.body.items[0].totalPrice.amount).toBeGreaterThanOrEqual(page.body.items[1].totalPrice.amount);
    expect((await c.hq.call('GET', '/hq/api/tickets?Bogus=1')).body).toMatchObject({ status: 400, errorCode: 3 });
    // HQ's login is throttled like the hub's (CONTRACT §11, §12): parallel guesses are refused beyond
    // the hashing share of the address, and after 10 failures the 11th attempt is 429.
    const guess = (password: string) =>
      fetch(`${c.hq.url}/hq/api/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userName: 'guessed', password }) }).then((r) => r.status);
    const parallel = await Promise.all(Array.from({ length: 30 }, (_, i) => guess(`wrong-${i}`)));
    expect(parallel.filter((st) => st === 401).length).toBeLessThanOrEqual(10);
    for (let i = 0; i < 10; i++) await guess(`again-${i}`);
    expect(await guess('one-more')).toBe(429);
  });

  it('catalog: a push to all reaches every online store, a store that was down applies it in order, a push to one reaches only that one', async () => {
    const { s1, s2, s3 } = shops;
    const price = async (shop: { hub: HubProcess; token: string }, code: number) =>
      (await ok(shop.hub, 'GET', `/api/plus?Code=${code}&StockName=Bar`, undefined, shop.token)).items[0]?.unitPrice.amount;
    const pivo = (amount: number) => ({ doc: { name: 'Pivo', type: 'Service', unitPrice: { amount }, vatInfo: { category: 1, rate: 20 } }, stores: ['*'] });

    // s3 goes down (its data stays); two price changes for every store meanwhile.
    const s3Dir = s3.hub.dataDir;
    expect((await s3.hub.stop()).code).toBe(0);
    // Silent for longer than POS_HQ_OFFLINE_AFTER (3 s here, 90 s by default): offline at HQ.
    await eventually(async () => (await c.hqStore('s3')).online === false, 15_000, 's3 to show offline');
    const first = await c.hq.call('PUT', '/hq/api/catalog/plus/Bar/1', pivo(2.1));
    expect(first.status).toBe(202);
    expect(first.body.stores.map((s: any) => s.storeId)).toEqual(expect.arrayContaining(['s1', 's2', 's3']));
    const second = await c.hq.call('PUT', '/hq/api/catalog/plus/Bar/1', pivo(2.35));
    expect(second.body.catalogVersion).toBeGreaterThan(first.body.catalogVersion);
    await eventually(async () => (await price(s1, 1)) === 2.35 && (await price(s2, 1)) === 2.35, 10_000, 'the online stores to apply both prices');

    // To one store only.
    const only = await c.hq.call('PUT', '/hq/api/catalog/plus/Bar/2', { doc: { name: 'Kofola', type: 'Service', unitPrice: { amount: 1.65 }, vatInfo: { category: 1, rate: 20 } }, stores: ['s1'] });
    expect(only.status).toBe(202);
    expect(only.body.stores).toEqual([{ storeId: 's1', catalogVersion: 3 }]);
    await eventually(async () => (await price(s1, 2)) === 1.65, 10_000, 's1 to apply its own change');
    expect(await price(s2, 2)).toBe(1.45);
    await eventually(async () => (await c.hqStore('s1')).appliedCatalogVersion === 3, 10_000, "s1's applied version at HQ");
    await eventually(async () => (await c.hqStore('s2')).appliedCatalogVersion === 2, 10_000, "s2's applied version at HQ");
    expect((await c.hqStore('s2')).catalogVersion).toBe(2);

    // s3 comes back and applies what it missed, in order, through its own write path: its change log
    // (and so HQ) shows 2.10 before 2.35.
    const back = await c.startStore('s3', { dataDir: s3Dir });
    shops.s3 = { hub: back, token: await back.login('admin', E2E_ADMIN_PASSWORD, 'Register1') };
    await eventually(async () => (await price(shops.s3, 1)) === 2.35, 15_000, 's3 to catch up on the catalog');
    await eventually(async () => (await c.hqStore('s3')).appliedCatalogVersion === 2, 10_000, "s3's applied version at HQ");
    const own = await storeFigures(back, shops.s3.token);
    await c.ingestedUpTo('s3', own.lastSeq);
    const prices = await c.pg.pool.query(
      "SELECT (doc->'unitPrice'->>'amount')::numeric::text AS amount FROM store_events WHERE store_id = 's3' AND resource = 'plus' AND doc->>'code' = '1' ORDER BY seq",
    );
    expect(prices.rows.map((r) => r.amount)).toEqual(['1.9', '2.1', '2.35']);
    expect(await price(shops.s3, 2)).toBe(1.45);
    expect(await c.hqStore('s3')).toMatchObject({ online: true, catalogVersion: 2, appliedCatalogVersion: 2 });

    // A delete, for one store: its plu goes through its own write path; the others keep theirs.
    const gone = await c.hq.call('DELETE', '/hq/api/catalog/plus/Bar/2', { stores: ['s2'] });
    expect(gone.status).toBe(202);
    await eventually(async () => (await price(s2, 2)) === undefined, 10_000, 's2 to delete its plu');
    expect(await price(shops.s3, 2)).toBe(1.45);
    // An unknown store is refused, and nothing is queued.
    expect((await c.hq.call('PUT', '/hq/api/catalog/plus/Bar/2', { doc: {}, stores: ['nope'] })).body).toMatchObject({ status: 400, errorCode: 3 });
    // A body of the wrong shape: refused as the hub refuses one, naming each member at fault.
    expect((await c.hq.call('PUT', '/hq/api/catalog/plus/Bar/2', { doc: 'x', stores: [] })).body.errors.map((e: any) => e.memberName).sort()).toEqual(['doc', 'stores']);
    await Promise.all(Object.values(shops).map((s) => s.hub.stop())); // the tests below need the CPU
  });

  // The week's backlog at full size (100,000 events) and how long it takes to drain are the bench's
  // (`npm run bench -- --chain`, scripts/bench-chain.ts); here a tenth of it, for the rules.
  it('a store offline for 7 days (10,000 events, older than the log retention) catches up, two HQ processes ingesting', async () => {
    const dir = c.tempDir('poshub-w1-');
    // The week ended 40 days ago, on the clock the generator drives: compaction would drop all of it
    // were HQ not still owed every entry.
    const backlog = generateBacklog(dir, { events: 10_000, versions: 4, from: new Date(Date.now() - 47 * DAY), spanMs: 7 * DAY });
    // Two HQ processes share the ingest, as several may run against one NATS and one PostgreSQL;
    // the second in smaller batches, so it surely pulls some of a backlog this size.
    const second = await startHq(c.hqEnv({ POS_HQ_BATCH: '500' }));
    const stats = async (h: HqProcess) => (await h.call('GET', '/hq/api/health')).body.ingest;
    const before = [(await stats(c.hq)).events, (await stats(second)).events];
    const started = Date.now();
    const hub = await c.startStore('w1', { dataDir: dir });
    const last = await lastSeqOf(hub);
    expect(last).toBeGreaterThanOrEqual(backlog);
    await c.ingestedUpTo('w1', last, 90_000);
    const seconds = (Date.now() - started) / 1000;
    expect(await c.eventsAtHq('w1')).toEqual({ rows: last, distinct: last, max: last });
    const after = [await stats(c.hq), await stats(second)];
    expect(after[0].events).toBeGreaterThan(before[0]);
    expect(after[1].events).toBeGreaterThan(before[1]);
    process.stdout.write(`ingest: ${JSON.stringify(after)}\n`);
    await second.stop();
    await hub.stop();
    const docs = await c.pg.pool.query("SELECT count(*)::int AS n, min(version)::int AS lo FROM customers WHERE store_id = 'w1'");
    expect(docs.rows[0]).toEqual({ n: 2_500, lo: 4 });
    process.stdout.write(`7-day backlog of ${backlog} events caught up in ${seconds.toFixed(1)} s\n`);
  }, 150_000);
});

describe('a hub without HQ', () => {
  it('opens no outbound connection', async () => {
    const hub = await startHubProcess({}, {});
    c.track(hub);
    const admin = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
    await ok(hub, 'POST', '/api/stocks', { name: 'Bar' }, admin);
    await new Promise((r) => setTimeout(r, 1000));
    // Every TCP socket the process holds is on its own port: the listener and our own requests to it.
    const pid = hub.child.pid!;
    const inodes = new Set(
      readdirSync(`/proc/${pid}/fd`)
        .map((fd) => {
          try {
            return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
          } catch {
            return undefined;
          }
        })
        .filter((x): x is string => !!x),
    );
    const mine: Array<{ local: number; remote: number }> = [];
    for (const table of ['tcp', 'tcp6', 'udp', 'udp6']) {
      for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
        const f = line.trim().split(/\s+/);
        if (f.length > 9 && inodes.has(f[9])) mine.push({ local: parseInt(f[1].split(':')[1], 16), remote: parseInt(f[2].split(':')[1], 16) });
      }
    }
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.filter((s) => s.local !== hub.port)).toEqual([]);
    expect(hub.stdout()).not.toContain('In a chain');
  });
});
