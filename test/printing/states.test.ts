/**
 * The print queue's state changes written together (hub/printing/states.ts, issue 31): the changes
 * the workers make together are one write, one COMMIT and — when a send waits on them — one sync;
 * what a printer did (Printed) asks for no sync of its own but is synced soon after anyway; and no
 * byte of a job reaches its printer before the mark that it is being sent is on disk.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { commitNow, durableCommits, inTransaction, isDurable, whenDurable } from '../../db/client.js';
import { sql } from 'drizzle-orm';
import { createLogger } from '../../hub/core/log.js';
import { kitchenOrders } from '../../hub/resources/orders/prints.js';
import { JobStates } from '../../hub/printing/states.js';
import { nextJob } from '../../hub/printing/store.js';
import { FakeEscPosPrinter } from '../support/fake-escpos-printer.js';
import { HeldSync } from '../support/held-sync.js';
import { kitchen, order, until, type Kitchen } from './setup.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function printers(n: number): Promise<Record<string, FakeEscPosPrinter>> {
  const all: Record<string, FakeEscPosPrinter> = {};
  for (let i = 0; i < n; i++) {
    const p = await FakeEscPosPrinter.start();
    cleanup.push(() => p.close());
    all[`P${i}`] = p;
  }
  return all;
}

async function open(ps: Record<string, FakeEscPosPrinter>, sync: HeldSync, workers: boolean): Promise<Kitchen> {
  const k = await kitchen(ps, { syncFd: sync.fn, workers });
  cleanup.push(() => k.hub.close());
  return k;
}

type JobRow = { endpoint_name: string; state: string; attempts: number };
const rows = (k: Kitchen) => k.hub.db.$client.prepare('SELECT endpoint_name, state, attempts FROM print_jobs ORDER BY endpoint_name').all() as JobRow[];

describe('print job states, written together', () => {
  it('the jobs marked together are one write, one COMMIT and one sync; their Printed records ask for no sync of their own', async () => {
    const sync = new HeldSync(false);
    const ps = await printers(3);
    const names = Object.keys(ps);
    const k = await open(ps, sync, false);
    const db = k.hub.db;
    await order(k, 'Stôl 1', names);
    const states = new JobStates(db, kitchenOrders, k.hub.clock, createLogger('warn'));
    const jobs = names.map((n) => nextJob(db, n)!);
    const commits = durableCommits(db)!;
    const before = { commits: commits.commits, syncs: sync.calls };

    // Three printers about to send, at once: each waits for its mark to be on disk.
    sync.hold = true;
    const marked = jobs.map((j) => states.change(j, { state: 'Printing', sending: true }));
    let durable = 0;
    const waits = marked.map(() => states.durable().then(() => void durable++));
    await until(() => sync.waiting, (n) => n === 1);
    expect(states.writes).toBe(1);
    expect(commits.commits - before.commits).toBe(1);
    expect(sync.calls - before.syncs).toBe(1);
    expect(rows(k).map((r) => [r.state, r.attempts])).toEqual(names.map(() => ['Printing', 1]));
    expect(durable).toBe(0); // not before the sync completed
    sync.hold = false;
    await sync.release();
    await Promise.all(waits);
    expect(sync.calls - before.syncs).toBe(1);

    // The printers confirmed: the three records are one write, whose COMMIT starts no sync…
    for (const j of marked) states.change(j, { state: 'Printed', lastError: null, printedAt: k.hub.clock.now().getTime() });
    states.flush();
    commitNow(db);
    expect(states.writes).toBe(2);
    expect(commits.commits - before.commits).toBe(2);
    expect(sync.calls - before.syncs).toBe(1);
    expect(isDurable(db)).toBe(false);
    // …while an ordinary write's COMMIT starts one at once.
    inTransaction(db, () => db.run(sql`INSERT INTO meta (key, value) VALUES ('states-test', 'x')`));
    commitNow(db);
    expect(sync.calls - before.syncs).toBe(2);
    await until(() => isDurable(db), (d) => d);
    expect(rows(k).map((r) => r.state)).toEqual(names.map(() => 'Printed'));
  });

  it('the Printed record alone is synced soon after, with nobody waiting for it', async () => {
    const sync = new HeldSync(false);
    const ps = await printers(1);
    const k = await open(ps, sync, false);
    const db = k.hub.db;
    await order(k, 'Stôl 2', ['P0']);
    const states = new JobStates(db, kitchenOrders, k.hub.clock, createLogger('warn'));
    const job = states.change(nextJob(db, 'P0')!, { state: 'Printing', sending: true });
    await states.durable();
    const syncs = sync.calls;
    states.change(job, { state: 'Printed', lastError: null, printedAt: k.hub.clock.now().getTime() });
    await until(() => isDurable(db) && sync.calls > syncs, (d) => d);
    expect(sync.calls).toBe(syncs + 1);
    expect(rows(k)).toEqual([{ endpoint_name: 'P0', state: 'Printed', attempts: 1 }]);
  });

  it("while registers write, a send's mark rides the next register's sync; in a quiet moment it is synced at once", async () => {
    const sync = new HeldSync(false);
    const ps = await printers(2);
    const k = await open(ps, sync, false);
    const db = k.hub.db;
    await order(k, 'Stôl 4', ['P0', 'P1']);
    const states = new JobStates(db, kitchenOrders, k.hub.clock, createLogger('warn'));
    const [a, b] = ['P0', 'P1'].map((n) => nextJob(db, n)!);
    const registerWrite = (key: string) => {
      inTransaction(db, () => db.run(sql`INSERT INTO meta (key, value) VALUES (${key}, 'x')`));
      return whenDurable(db);
    };
    // The turn the mark is written in, and the next, where a sync asked for in it starts (durability.ts startSyncSoon).
    const turn = () => new Promise((r) => setImmediate(() => setImmediate(r)));

    // Busy: a register's write was just synced. The mark is written at the end of the turn and waits…
    await registerWrite('busy-1');
    const before = sync.calls;
    states.change(a, { state: 'Printing', sending: true });
    const marked = states.durable();
    await turn();
    expect(states.writes).toBe(1);
    expect(sync.calls).toBe(before); // …for no sync of its own:
    await Promise.all([registerWrite('busy-2'), marked]); // the next register's covers it.
    expect(sync.calls).toBe(before + 1);

    // Quiet: nobody else synced for a while; the mark starts its own sync at once.
    await new Promise((r) => setTimeout(r, 60));
    const quiet = sync.calls;
    states.change(b, { state: 'Printing', sending: true });
    const alone = states.durable();
    await turn();
    expect(sync.calls).toBe(quiet + 1);
    await alone;
    expect(isDurable(db)).toBe(true);
  });

  it("no byte of a job reaches its printer before the mark that it is being sent is on disk, and each job prints once", async () => {
    const sync = new HeldSync(false);
    const ps = await printers(3);
    const names = Object.keys(ps);
    const k = await open(ps, sync, true);
    sync.hold = true;
    const answer = order(k, 'Stôl 3', names);
    // The ticket write's own sync: released, so the workers start; every sync after it is held.
    let answered = false;
    void answer.then(() => (answered = true));
    while (!answered) {
      await sync.release();
      await new Promise((r) => setTimeout(r, 5));
    }
    await until(() => rows(k), (r) => r.every((j) => j.state === 'Printing' && j.attempts === 1), 5000);
    await new Promise((r) => setTimeout(r, 200)); // time enough for a send that did not wait
    for (const p of Object.values(ps)) {
      expect(p.tickets).toEqual([]);
      expect(p.current.lines).toEqual([]);
      expect(p.rawBytes.length).toBe(p.statusRequests * 3); // only the status requests (DLE EOT n)
    }
    sync.hold = false;
    await sync.release();
    for (const p of Object.values(ps)) await p.waitFor(() => p.cutTickets().length === 1);
    await until(() => rows(k), (r) => r.every((j) => j.state === 'Printed' && j.attempts === 1));
    await new Promise((r) => setTimeout(r, 100));
    for (const p of Object.values(ps)) expect(p.cutTickets()).toHaveLength(1);
  });
});
