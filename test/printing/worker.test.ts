/**
 * The print service on its own (the hub's database, our logger): what it logs, when it gives up on
 * a job, and that a confirmed job is never sent again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../hub/core/log.js';
import { kitchenOrders } from '../../hub/resources/orders/prints.js';
import { PrintService } from '../../hub/printing/service.js';
import { takeAnnounced } from '../../hub/printing/store.js';
import { FakeEscPosPrinter } from '../support/fake-escpos-printer.js';
import type { TestHub } from '../support/hub.js';
import { FAST_PRINTING, kitchen, order, ordersOf, until, type Kitchen } from './setup.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

interface Setup {
  k: Kitchen;
  kp: FakeEscPosPrinter;
  service: PrintService;
  logs: Array<{ msg: string; printer?: string }>;
}

/** A kitchen whose jobs are printed by a PrintService built here, with its log lines collected. */
async function setup(opts: { maxSends?: number; statusEveryMs?: number } = {}): Promise<Setup> {
  const kp = await FakeEscPosPrinter.start();
  cleanup.push(() => kp.close());
  const k = await kitchen({ Kitchen: kp }, { workers: false });
  const hub: TestHub = k.hub;
  cleanup.push(() => hub.close());
  const logs: Setup['logs'] = [];
  const log = createLogger('info', { write: (line: string) => void logs.push(JSON.parse(line)) });
  const service = new PrintService({ db: hub.db, clock: hub.clock, log, timeZone: 'Europe/Bratislava', orders: kitchenOrders }, { ...FAST_PRINTING, pollMs: 20, maxSends: opts.maxSends, statusEveryMs: opts.statusEveryMs });
  cleanup.push(() => service.stop());
  return { k, kp, service, logs };
}

const messages = (s: Setup) => s.logs.map((l) => l.msg);
const sends = (kp: FakeEscPosPrinter) => kp.rawBytes.filter((b, i, all) => b === 0x1d && all[i + 1] === 0x72).length;

describe('print service', () => {
  it('logs a printer going offline once and coming back once, however many retries', async () => {
    const s = await setup();
    await s.kp.setRefusing(true);
    const t = await order(s.k, 'L1', ['Kitchen']);
    s.service.start();
    await new Promise((r) => setTimeout(r, 400)); // a dozen refused attempts at these backoffs
    await s.kp.setRefusing(false);
    await until(() => ordersOf(s.k, t.id), (o) => o[0].print.state === 'Printed');
    expect(messages(s).filter((m) => m === 'printer offline')).toHaveLength(1);
    expect(messages(s).filter((m) => m === 'printer online')).toHaveLength(1);
    expect(s.logs.find((l) => l.msg === 'printer offline')?.printer).toBe('Kitchen');
  });

  it('a printer that takes connections but never answers shows offline, is logged once, and prints once it answers', async () => {
    const s = await setup();
    s.kp.realtimeAnswers = new Set(); // reads everything, answers no status request
    const t = await order(s.k, 'L0', ['Kitchen']);
    s.service.start();
    await until(async () => s.kp.connectionsAccepted, (n) => n >= 3);
    // Sampled while it holds a fresh connection too: a connection is not an answer.
    for (let i = 0; i < 5; i++) {
      expect(s.service.status('Kitchen')).toMatchObject({ online: false, queueDepth: 1, lastError: expect.stringMatching(/^TIMEOUT/) });
      await new Promise((r) => setTimeout(r, 60));
    }
    expect(s.kp.tickets).toEqual([]);
    s.kp.realtimeAnswers = new Set([1, 2, 3, 4]);
    await until(() => ordersOf(s.k, t.id), (o) => o[0].print.state === 'Printed');
    expect(s.service.status('Kitchen')).toMatchObject({ online: true, queueDepth: 0, lastError: null });
    expect(s.kp.cutTickets()).toHaveLength(1);
    expect(messages(s).filter((m) => m === 'printer offline')).toHaveLength(1);
    // Once at the first connection, once when it answered: not once per reconnect.
    expect(messages(s).filter((m) => m === 'printer online')).toHaveLength(2);
  });

  it("shows an idle printer's state without a job waiting: out of paper, refilled, switched off", async () => {
    const s = await setup({ statusEveryMs: 40 });
    s.kp.setPaperOut(true);
    s.service.start();
    await until(async () => s.service.status('Kitchen'), (st) => st.paper === 'out');
    expect(s.service.status('Kitchen')).toMatchObject({ online: false, paper: 'out', queueDepth: 0, worker: 'idle', lastError: expect.stringMatching(/^PAPER_OUT/) });
    s.kp.setPaperOut(false);
    await until(async () => s.service.status('Kitchen'), (st) => st.paper === 'ok');
    expect(s.service.status('Kitchen')).toMatchObject({ online: true, cover: 'closed', lastError: null });
    await s.kp.setRefusing(true);
    await until(async () => s.service.status('Kitchen'), (st) => st.online === false);
    // Switched off: what it said before is not its state now.
    expect(s.service.status('Kitchen')).toMatchObject({ paper: 'unknown', cover: 'unknown', lastError: expect.stringMatching(/^OFFLINE/) });
    expect(s.kp.tickets).toEqual([]);
  });

  it('logs paper out once and its end once', async () => {
    const s = await setup();
    s.kp.setPaperOut(true);
    const t = await order(s.k, 'L2', ['Kitchen']);
    s.service.start();
    await new Promise((r) => setTimeout(r, 300));
    s.kp.setPaperOut(false);
    await until(() => ordersOf(s.k, t.id), (o) => o[0].print.state === 'Printed');
    expect(messages(s).filter((m) => m === 'printer cannot print')).toHaveLength(1);
    expect(messages(s).filter((m) => m === 'printer printing again')).toHaveLength(1);
  });

  it("a write wakes the workers of the endpoints it queued jobs on, and no other's", async () => {
    const kp = await FakeEscPosPrinter.start();
    const bar = await FakeEscPosPrinter.start();
    cleanup.push(() => kp.close(), () => bar.close());
    const k = await kitchen({ Kitchen: kp, Bar: bar }, { workers: false });
    cleanup.push(() => k.hub.close());
    // Idle workers look for unannounced jobs only once a minute: within this test, only a kick wakes them.
    const service = new PrintService({ db: k.hub.db, clock: k.hub.clock, log: createLogger('warn'), timeZone: 'Europe/Bratislava', orders: kitchenOrders }, { ...FAST_PRINTING, pollMs: 60_000 });
    cleanup.push(() => service.stop());
    service.start();
    await until(async () => ['Kitchen', 'Bar'].map((n) => service.status(n).worker), (w) => w.every((x) => x === 'idle'));
    // A job on Bar that no write of this process announced (as one another process wrote).
    const unannounced = await order(k, 'U1', ['Bar']);
    takeAnnounced(k.hub.db);
    const t = await order(k, 'K1', ['Kitchen']);
    service.kick(false);
    await until(() => ordersOf(k, t.id), (o) => o[0].print.state === 'Printed');
    expect((await ordersOf(k, unannounced.id))[0].print.state).toBe('Queued');
    expect(bar.cutTickets()).toHaveLength(0);
    // A change of the endpoints wakes every worker.
    service.kick(true);
    await until(() => ordersOf(k, unannounced.id), (o) => o[0].print.state === 'Printed');
    expect(bar.cutTickets()).toHaveLength(1);
  });

  it('never sends a confirmed job again', async () => {
    const s = await setup();
    s.service.start();
    const t = await order(s.k, 'L3', ['Kitchen']);
    await until(() => ordersOf(s.k, t.id), (o) => o[0].print.state === 'Printed');
    for (let i = 0; i < 5; i++) {
      s.service.kick();
      await new Promise((r) => setTimeout(r, 30));
    }
    expect(sends(s.kp)).toBe(1);
    expect(s.kp.cutTickets()).toHaveLength(1);
  });

  it('fails a job after maxSends sends without a confirmation, and goes on with the next', async () => {
    const s = await setup({ maxSends: 2 });
    const a = await order(s.k, 'F1', ['Kitchen']);
    const b = await order(s.k, 'F2', ['Kitchen']);
    s.kp.dropBeforeConfirm = 2; // printed, but the connection dies before each reply
    s.service.start();
    const failed = await until(() => ordersOf(s.k, a.id), (o) => o[0].print.state === 'Failed');
    expect(failed[0].print).toMatchObject({ attempts: 2, lastError: expect.stringMatching(/sent 2 times without a confirmation/) });
    await until(() => ordersOf(s.k, b.id), (o) => o[0].print.state === 'Printed');
    expect(s.logs.some((l) => l.msg === 'print job failed: never confirmed')).toBe(true);
    // What the kitchen got: F1 twice (the second marked REPRINT), then F2.
    expect(s.kp.cutTickets().map((t) => [t[0], t.find((l) => l.startsWith('Ticket'))!.split(' ').pop()])).toEqual([
      ['Kitchen', 'F1'],
      [' ** REPRINT ** ', 'F1'],
      ['Kitchen', 'F2'],
    ]);
  });

  it('fails a job whose order is gone without holding up the queue', async () => {
    const s = await setup();
    const a = await order(s.k, 'G1', ['Kitchen']);
    const b = await order(s.k, 'G2', ['Kitchen']);
    const [gone] = await ordersOf(s.k, a.id);
    s.k.hub.db.$client.prepare('DELETE FROM orders WHERE id = ?').run(gone.id);
    s.service.start();
    await until(() => ordersOf(s.k, b.id), (o) => o[0].print.state === 'Printed');
    const job = s.k.hub.db.$client.prepare('SELECT state, last_error FROM print_jobs WHERE ref_id = ?').get(gone.id) as { state: string; last_error: string };
    expect(job).toEqual({ state: 'Failed', last_error: `order ${gone.id} no longer exists` });
    expect(s.kp.cutTickets()).toHaveLength(1);
  });

  it('stops within its grace period while a job is held in a printer out of paper', async () => {
    const s = await setup();
    s.kp.lineDelayMs = 10;
    s.kp.once('line', () => s.kp.setPaperOut(true));
    const t = await order(s.k, 'S1', ['Kitchen']);
    s.service.start();
    await until(() => ordersOf(s.k, t.id), (o) => o[0].print.state === 'Waiting');
    const started = Date.now();
    await s.service.stop();
    expect(Date.now() - started).toBeLessThan(2000);
    // Its bytes went out: the next start prints it again, marked.
    expect((await ordersOf(s.k, t.id))[0].print).toMatchObject({ state: 'Waiting', attempts: 1 });
  });
});
