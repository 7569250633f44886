/**
 * `npm run bench -- --chain`: the chain's figures (issue 20), measured on real processes — Debian's
 * nats-server, an embedded PostgreSQL, HQ and hubs — on this machine:
 *   1. HQ ingest into PostgreSQL, events/s, from a stream that already holds the events;
 *   2. a 100,000-event backlog of one store (a week offline) drained, hub → NATS → HQ;
 *   3. a catalog change from HQ's commit (its 202) to applied at 20 online stores (seen on each
 *      hub's /api/events), p50/p99;
 *   4. a register's write latency at store rate with and without publishing to HQ.
 * Options: --events=100000 --stores=20 --pushes=10 --rate=20 --seconds=20
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { E2E_ADMIN_PASSWORD, startHubProcess, type HubProcess } from '../test/support/process.js';
import { startHq, startNats, startPostgres, type HqProcess } from '../test/support/chain.js';
import { generateBacklog } from '../test/support/backlog.js';
import { eventMsgId, eventSubject, type StoreEvent } from '../hub/hq/protocol.js';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const EVENTS = arg('events', 100_000);
const STORES = arg('stores', 20);
const PACED_ROUNDS = 2;
const PUSHES = arg('pushes', 10);
const RATE = arg('rate', 20);
const SECONDS = arg('seconds', 20);
const say = (s: string) => process.stdout.write(`${s}\n`);
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] * 10) / 10 : 0;
};

async function waitUntil(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function ingestedSeq(hq: HqProcess, storeId: string): Promise<number> {
  return (await hq.call('GET', `/hq/api/stores?StoreId=${storeId}`)).body.items[0]?.ingestedSeq ?? 0;
}

/** A closed ticket as a store publishes it (~1 KB). */
function ticketDoc(i: number): Record<string, unknown> {
  return {
    id: `t${i}`, externalId: null, name: `Table ${i % 30}`, state: 'Closed', purchaseType: 'WalkIn', originDeviceName: 'Register1', currencyLabel: 'EUR',
    discountRate: 0, openDate: new Date(Date.now() - 3600_000).toISOString(), closeDate: new Date().toISOString(), customer: null,
    employee: { userName: 'jana', name: 'Jana' }, location: { tableName: String(i % 30), zoneName: 'Hall' }, note: null,
    items: [1, 2, 3].map((n) => ({ id: n, plu: { code: n, stockName: 'Bar', name: `Item ${n}` }, type: 'Positive', quantity: n, unitPrice: { amount: 1.9 }, discountRate: 0, modifiers: [], comment: null, totalPrice: { amount: 1.9 * n } })),
    totalPrice: { amount: 11.4, currencyLabel: 'EUR' }, payments: [{ paymentTypeNumber: 1, amount: 11.4 }],
    closeInfo: { deviceName: 'Register1', fiscalName: 'FP1', number: i, dailySalesReportNumber: 1, fiscalMemorySerialNumber: 'SIM' }, _v: 2,
  };
}

async function hubWithShop(env: Record<string, string>): Promise<{ hub: HubProcess; admin: string }> {
  const hub = await startHubProcess({ POS_HUB_RATE_LIMIT: '0', ...env }, {});
  const admin = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
  const post = (path: string, body: unknown) => hub.call('POST', path, body, { token: admin });
  await post('/api/stocks', { name: 'Bar' });
  await post('/api/plus', { code: 1, stockName: 'Bar', name: 'Pivo', type: 'Service', unitPrice: { amount: 1.9 }, vatInfo: { category: 1, rate: 20 } });
  await post('/api/devices', { name: 'Register1', envName: 'CashRegister' });
  return { hub, admin };
}

/** Resolves with the time each `plus` change reaches the hub's event stream, for `count` changes. */
function watchPlus(hub: HubProcess, token: string, onPlus: (at: number) => void): AbortController {
  const abort = new AbortController();
  void (async () => {
    const res = await fetch(`${hub.url}/api/events`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
    const decoder = new TextDecoder();
    let buf = '';
    for await (const chunk of res.body!) {
      buf += decoder.decode(chunk as Uint8Array, { stream: true });
      let end;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        const frame = buf.slice(0, end);
        buf = buf.slice(end + 2);
        if (/^event: plus$/m.test(frame)) onPlus(performance.now());
      }
    }
  })().catch(() => {});
  return abort;
}

/** POST /api/tickets at RATE a second for `seconds`: each write's latency (ms). */
async function pacedWrites(hub: HubProcess, token: string, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; performance.now() < start + seconds * 1000; i++) {
    const t0 = performance.now();
    pending.push(
      fetch(`${hub.url}/api/tickets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `T${i}`, items: [{ plu: { code: 1, stockName: 'Bar' }, quantity: 1 + (i % 3) }] }),
      }).then(async (r) => {
        await r.arrayBuffer();
        if (r.status === 201) latencies.push(performance.now() - t0);
      }),
    );
    await new Promise((r) => setTimeout(r, Math.max(0, start + ((i + 1) * 1000) / RATE - performance.now())));
  }
  await Promise.all(pending);
  return latencies;
}

export async function benchChain(): Promise<void> {
  // The chain's own NATS configuration (npm run hq -- nats-config): each store its user, HQ its own.
  const storeIds = ['bench1', 'week', ...Array.from({ length: STORES }, (_, i) => `c${i}`), ...Array.from({ length: PACED_ROUNDS }, (_, i) => `paced${i}`)];
  const [nats, pg] = await Promise.all([startNats({ stores: storeIds }), startPostgres()]);
  const hqEnv = { ...nats.hqEnv(), POS_HQ_DATABASE_URL: pg.url };
  const cleanup: Array<() => Promise<unknown>> = [];
  try {
    // 1. HQ ingest: the stream is filled while HQ is away, then HQ drains it.
    let hq = await startHq(hqEnv); // creates the streams and the consumer
    await hq.stop();
    const nc = await nats.connect('bench1');
    const js = jetstream(nc);
    const inFlight = new Set<Promise<unknown>>();
    for (let seq = 1; seq <= EVENTS; seq++) {
      const event: StoreEvent = { storeId: 'bench1', seq, base: 0, resource: 'tickets', key: `t${Math.ceil(seq / 2)}`, op: 'upsert', v: 2 - (seq % 2), at: new Date().toISOString(), doc: ticketDoc(Math.ceil(seq / 2)) };
      const p = js.publish(eventSubject('bench1', 'tickets'), JSON.stringify(event), { msgID: eventMsgId('bench1', seq) }).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= 1000) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    await nc.close();
    hq = await startHq(hqEnv);
    const t0 = performance.now(); // HQ answers: its ingest has just begun
    cleanup.push(() => hq.stop());
    await waitUntil(async () => (await ingestedSeq(hq, 'bench1')) === EVENTS, 600_000, 'HQ ingest');
    const ingestS = (performance.now() - t0) / 1000;
    say(`HQ ingest: ${EVENTS} events (tickets, ~1 KB each) from the stream into PostgreSQL in ${ingestS.toFixed(1)} s: ${Math.round(EVENTS / ingestS)} events/s`);

    // 2. A week's backlog of one busy store, hub → HQ.
    const dir = mkdtempSync(join(tmpdir(), 'poshub-bench-week-'));
    cleanup.push(async () => rmSync(dir, { recursive: true, force: true }));
    const last = generateBacklog(dir, { events: EVENTS, versions: 4, from: new Date(Date.now() - 8 * 86_400_000), spanMs: 7 * 86_400_000 });
    const t1 = performance.now();
    const week = await startHubProcess(nats.storeEnv('week'), { dataDir: dir, keepDataDir: true });
    cleanup.push(() => week.stop());
    await waitUntil(async () => (await ingestedSeq(hq, 'week')) >= last, 600_000, 'the backlog');
    const drainS = (performance.now() - t1) / 1000;
    say(`Backlog: ${last} events of a week offline drained into HQ in ${drainS.toFixed(1)} s (hub start included): ${Math.round(last / drainS)} events/s`);
    await week.stop();

    // 3. Catalog: HQ commit → applied at every online store.
    const stores: Array<{ hub: HubProcess; admin: string }> = [];
    for (let i = 0; i < STORES; i++) {
      const s = await hubWithShop(nats.storeEnv(`c${i}`));
      stores.push(s);
      cleanup.push(() => s.hub.stop());
    }
    await waitUntil(async () => (await hq.call('GET', '/hq/api/stores?$count=true')).body.totalCount >= STORES + 2, 30_000, 'every store at HQ');
    const latencies: number[] = [];
    let committedAt = 0;
    let seen = 0;
    const watchers = stores.map((s) =>
      watchPlus(s.hub, s.admin, (at) => {
        if (committedAt) {
          latencies.push(at - committedAt);
          seen++;
        }
      }),
    );
    await new Promise((r) => setTimeout(r, 500));
    for (let k = 0; k < PUSHES; k++) {
      seen = 0;
      const targets = stores.map((_, i) => `c${i}`);
      const before = performance.now();
      const r = await hq.call('PUT', '/hq/api/catalog/plus/Bar/1', { doc: { name: 'Pivo', type: 'Service', unitPrice: { amount: 2 + k / 100 }, vatInfo: { category: 1, rate: 20 } }, stores: targets });
      if (r.status !== 202) throw new Error(`push: ${r.status} ${JSON.stringify(r.body)}`);
      // The 202 comes after the commit; the commit is taken as half-way through the call.
      committedAt = (before + performance.now()) / 2;
      await waitUntil(async () => seen >= STORES, 30_000, 'every store to apply the change');
      committedAt = 0;
    }
    watchers.forEach((w) => w.abort());
    say(`Catalog: HQ commit → applied at ${STORES} online stores, ${PUSHES} changes: p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms`);
    for (const s of stores) await s.hub.stop();

    // 4. A register's write at store rate, with and without publishing. HQ's own work (ingest,
    // PostgreSQL) happens on another machine in a real chain; here it would share the two cores,
    // so HQ is stopped: the chain hub publishes into the stream, which keeps the events for it.
    await hq.stop();
    const byMode: Record<string, number[]> = { alone: [], 'in a chain': [] };
    for (let round = 0; round < PACED_ROUNDS; round++) {
      for (const [name, env] of [['alone', {}], ['in a chain', nats.storeEnv(`paced${round}`)]] as const) {
        const { hub } = await hubWithShop(env);
        const register = await hub.login('admin', E2E_ADMIN_PASSWORD, 'Register1');
        await pacedWrites(hub, register, 3); // warm-up, not counted
        byMode[name].push(...(await pacedWrites(hub, register, SECONDS)));
        await hub.stop();
      }
    }
    const rows = Object.fromEntries(Object.entries(byMode).map(([k, xs]) => [k, { p50: percentile(xs, 50), p99: percentile(xs, 99), n: xs.length }]));
    for (const [name, r] of Object.entries(rows)) say(`Ticket write at ${RATE}/s, hub ${name}: p50 ${r.p50} ms, p99 ${r.p99} ms (${r.n} writes, two runs)`);
    const added = (a: number, b: number) => `${(((b - a) / a) * 100).toFixed(1)} %`;
    say(`Publishing adds ${added(rows.alone.p50, rows['in a chain'].p50)} at p50, ${added(rows.alone.p99, rows['in a chain'].p99)} at p99 to a register's write.`);
  } finally {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    await pg.stop();
    await nats.stop();
  }
}
