/**
 * The chain end to end (CONTRACT §13, issue 20), shared by the files that test it: real hub processes,
 * Debian's nats-server with JetStream, an embedded PostgreSQL and real HQ processes, all on 127.0.0.1
 * in temp dirs. Each file has its own servers (useChain), so the files run side by side: the chain's
 * cases wait on processes and timeouts far more than they use a core, and one file holding all of
 * them was the suite's longest (48 s of a 160 s run on two cores).
 * Without nats-server the tests fail in CI (CI=true) and are skipped, loudly, elsewhere.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { jetstreamManager } from '@nats-io/jetstream';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll } from 'vitest';
import { EVENTS_STREAM, INGEST_CONSUMER } from '../../hub/hq/protocol.js';
import { E2E_ADMIN_PASSWORD, startHubProcess, type HubProcess } from '../support/process.js';
import { chainTestsAvailable, eventually, removeNats, startHq, startNats, startPostgres, type HqProcess, type NatsServer, type Postgres } from '../support/chain.js';

export const DAY = 86_400_000;

export interface Chain {
  available: boolean;
  nats: NatsServer;
  pg: Postgres;
  /** The HQ the file's tests talk to; a test that kills it starts the next one here. */
  hq: HqProcess;
  /** HQ's settings with short timings, plus `extra`. */
  hqEnv(extra?: Record<string, string>): Record<string, string>;
  /** A store's hub process, in the chain as `storeId`; stopped (SIGKILL after 3 s) when the file ends. */
  startStore(storeId: string, opts?: { url?: string; dataDir?: string; env?: Record<string, string> }): Promise<HubProcess>;
  /** A temp dir removed when the file ends. */
  tempDir(name: string): string;
  /** A hub process outside the chain, stopped when the file ends. */
  track(hub: HubProcess): HubProcess;
  hqStore(storeId: string): Promise<any>;
  ingestedUpTo(storeId: string, seq: number, ms?: number): Promise<void>;
  /** HQ's ingest consumer has nothing pending and nothing waiting for its ack. */
  everyEventAcknowledged(): Promise<void>;
  /** Each store event at HQ exactly once: as many rows as seqs 1..last, none twice (the key guarantees that). */
  eventsAtHq(storeId: string): Promise<{ rows: number; distinct: number; max: number }>;
}

/**
 * NATS (the configuration an operator makes with `npm run hq -- nats-config`: each of `stores` its
 * own user), PostgreSQL and one HQ for the file's tests, started before them and stopped after.
 */
export function useChain(stores: string[]): Chain {
  const hubs: HubProcess[] = [];
  const dirs: string[] = [];
  const chain: Chain = {
    available: chainTestsAvailable(),
    nats: undefined as unknown as NatsServer,
    pg: undefined as unknown as Postgres,
    hq: undefined as unknown as HqProcess,
    hqEnv: (extra = {}) => ({
      ...chain.nats.hqEnv(),
      POS_HQ_DATABASE_URL: chain.pg.url,
      POS_HQ_DUPLICATE_WINDOW: '1s',
      // Short, so the SIGKILL test's unacknowledged batch comes back soon; not so short that a batch of
      // 1,000 committed on a busy machine (the suite runs three files at a time) comes back while it is
      // being committed (2 s did: a week's catch-up took 34 s instead of 5 s, redoing batches).
      POS_HQ_ACK_WAIT: '5s',
      POS_HQ_OFFLINE_AFTER: '3s',
      POS_HQ_BATCH: '1000',
      ...extra,
    }),
    async startStore(storeId, opts = {}) {
      const dataDir = opts.dataDir ?? chain.tempDir(`poshub-${storeId}-`);
      const hub = await startHubProcess(
        { ...chain.nats.storeEnv(storeId, opts.url), POS_HUB_STORE_NAME: `Store ${storeId}`, POS_HUB_HQ_HEARTBEAT: '300ms', ...opts.env },
        { dataDir, keepDataDir: true },
      );
      return chain.track(hub);
    },
    tempDir(name) {
      const dir = mkdtempSync(join(tmpdir(), name));
      dirs.push(dir);
      return dir;
    },
    track(hub) {
      hubs.push(hub);
      return hub;
    },
    async hqStore(storeId) {
      const r = await chain.hq.call('GET', `/hq/api/stores?StoreId=${storeId}`);
      return r.body.items[0];
    },
    async ingestedUpTo(storeId, seq, ms = 20_000) {
      await eventually(async () => (await chain.hqStore(storeId))?.ingestedSeq === seq, ms, `HQ to hold ${storeId}'s events up to ${seq}`);
    },
    async everyEventAcknowledged() {
      const nc = await chain.nats.connect();
      try {
        const jsm = await jetstreamManager(nc);
        await eventually(async () => {
          const c = await jsm.consumers.info(EVENTS_STREAM, INGEST_CONSUMER);
          return c.num_pending === 0 && c.num_ack_pending === 0;
        }, 30_000, 'HQ to acknowledge every event');
      } finally {
        await nc.close();
      }
    },
    async eventsAtHq(storeId) {
      const r = await chain.pg.pool.query('SELECT count(*)::int AS rows, count(DISTINCT seq)::int AS distinct, max(seq)::int AS max FROM store_events WHERE store_id = $1', [storeId]);
      return r.rows[0];
    },
  };

  beforeAll(async () => {
    if (!chain.available) return;
    [chain.nats, chain.pg] = await Promise.all([startNats({ stores }), startPostgres()]);
    chain.hq = await startHq(chain.hqEnv());
  }, 60_000);

  afterAll(async () => {
    await Promise.all(hubs.map((h) => h.stop(3000, 'SIGKILL').catch(() => {})));
    await chain.hq?.stop('SIGKILL');
    await chain.pg?.stop();
    if (chain.nats) await removeNats(chain.nats);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }, 60_000);

  return chain;
}

export async function ok(hub: HubProcess, method: string, path: string, body: unknown, token: string): Promise<any> {
  const r = await hub.call(method, path, body, { token });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A bar with two drinks, a simulated fiscal printer and a register; answers the register's token. */
export async function setUpShop(hub: HubProcess): Promise<string> {
  const admin = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
  await ok(hub, 'POST', '/api/stocks', { name: 'Bar' }, admin);
  await ok(hub, 'POST', '/api/plus', { code: 1, stockName: 'Bar', name: 'Pivo', type: 'Service', unitPrice: { amount: 1.9 }, vatInfo: { category: 1, rate: 20 } }, admin);
  await ok(hub, 'POST', '/api/plus', { code: 2, stockName: 'Bar', name: 'Kofola', type: 'Service', unitPrice: { amount: 1.45 }, vatInfo: { category: 1, rate: 20 } }, admin);
  await ok(hub, 'POST', '/api/fiscaldevices', { name: 'FP1', driver: 'simulator', address: 'sim:fp1' }, admin);
  await ok(hub, 'POST', '/api/devices', { name: 'Register1', envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1' } }, admin);
  return hub.login('admin', E2E_ADMIN_PASSWORD, 'Register1');
}

/** `n` tickets sold and closed in cash; quantities vary so totals have cents. */
export async function sell(hub: HubProcess, token: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t = await ok(hub, 'POST', '/api/tickets', { items: [{ plu: { code: 1, stockName: 'Bar' }, quantity: 1 + (i % 3) }, { plu: { code: 2, stockName: 'Bar' }, quantity: 1 + (i % 2) }] }, token);
    await ok(hub, 'POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: t.totalPrice.amount }] }, token);
  }
}

/** The store's own view: closed tickets, their exact total, and its change log's last seq. */
export async function storeFigures(hub: HubProcess, token: string): Promise<{ closed: number; total: string; lastSeq: number }> {
  const list = await ok(hub, 'GET', '/api/tickets?IsClosed=true&$take=1000', undefined, token);
  const total = list.items.reduce((s: Decimal, t: any) => s.plus(new Decimal(String(t.totalPrice.amount))), new Decimal(0));
  const health = await ok(hub, 'GET', '/api/health', undefined, token);
  return { closed: list.totalCount, total: total.toFixed(2), lastSeq: health.changeLog.lastSeq };
}

/** The store's change-log position (health shows it to a user who may read settings). */
export async function lastSeqOf(hub: HubProcess): Promise<number> {
  const token = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
  return (await hub.call('GET', '/api/health', undefined, { token })).body.changeLog.lastSeq;
}

/** The acknowledged position a store's hub has on disk (`meta` chain.ackedSeq; 0 before the first ack). */
export function ackedOnDisk(dataDir: string): number {
  const db = new Database(join(dataDir, 'hub.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return Number((db.prepare("SELECT value FROM meta WHERE key = 'chain.ackedSeq'").get() as { value: string } | undefined)?.value ?? 0);
  } finally {
    db.close();
  }
}
