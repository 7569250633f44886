/**
 * Durable commits with group commit (CONTRACT §12, issue 16): nothing a commit causes leaves the
 * hub before an fdatasync of the WAL that started after the commit has completed; writes arriving
 * together share one sync; a failed sync fails the answers that waited for it, and every later one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { backupDb, closeDb, durableCommits, inTransaction, isDurable, openDb, whenDurable, type Db } from '../../db/client.js';
import { fdatasync, type SyncFd } from '../../db/durability.js';
import { HeldSync } from '../support/held-sync.js';
import type { SimulatorFiscalDevice } from '../../drivers/fiscal/simulator/driver.js';
import { FakeEscPosPrinter } from '../support/fake-escpos-printer.js';
import { startHub, type TestHub } from '../support/hub.js';
import { SseClient } from '../support/sse.js';
import { kitchen, order } from '../printing/setup.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

describe('DurableCommits on a database file', () => {
  let dir: string;
  let db: Db;
  afterEach(() => {
    closeDb(db);
    rmSync(dir, { recursive: true, force: true });
  });
  const open = (sync: SyncFd) => {
    dir = mkdtempSync(join(tmpdir(), 'poshub-durable-'));
    db = openDb(join(dir, 'hub.sqlite'), { syncFd: sync });
  };
  const write = (k: string) => inTransaction(db, () => db.run(sql`INSERT INTO meta (key, value) VALUES (${k}, 'x')`));

  it('resolves only once a sync that started after the commit has completed', async () => {
    const sync = new HeldSync();
    open(sync.fn);
    expect(isDurable(db)).toBe(true);
    write('a');
    expect(isDurable(db)).toBe(false);
    let done = false;
    const waited = whenDurable(db).then(() => (done = true));
    await tick();
    expect(sync.waiting).toBe(1);
    expect(done).toBe(false);
    await sync.release();
    await waited;
    expect(done).toBe(true);
    expect(isDurable(db)).toBe(true);
    // Nothing new committed: no sync, no wait.
    await whenDurable(db);
    expect(sync.calls).toBe(1);
  });

  it('a commit made while a sync runs waits for the next sync, and everything that arrived meanwhile shares it', async () => {
    const sync = new HeldSync();
    open(sync.fn);
    write('first');
    let firstDone = false;
    const first = whenDurable(db).then(() => (firstDone = true));
    await tick();
    expect(sync.waiting).toBe(1);
    // Ten commits land while the first sync is still running.
    const later: Array<Promise<void>> = [];
    let laterDone = 0;
    for (let i = 0; i < 10; i++) {
      write(`later${i}`);
      later.push(whenDurable(db).then(() => void laterDone++));
    }
    await sync.release();
    await first;
    expect(firstDone).toBe(true);
    await tick();
    // The first sync started before they committed: it cannot vouch for them.
    expect(laterDone).toBe(0);
    expect(sync.waiting).toBe(1);
    await sync.release();
    await Promise.all(later);
    expect(laterDone).toBe(10);
    expect(sync.calls).toBe(2);
  });

  it('writes answered in the same turn of the event loop share one sync, started once that turn is done', async () => {
    const sync = new HeldSync();
    open(sync.fn);
    // Two requests handled one after the other in one turn (registers answered together write together).
    write('a');
    const a = whenDurable(db);
    write('b');
    const b = whenDurable(db);
    expect(sync.calls).toBe(0); // not yet: the rest of the turn's requests may still commit
    await tick();
    expect(sync.calls).toBe(1);
    await sync.release();
    await Promise.all([a, b]);
    // Started at the first answer, the sync would have covered 'a' alone and 'b' would wait for a second one.
    expect(sync.calls).toBe(1);
  });

  it('a transaction is synchronous: an async function does not type-check', () => {
    open(fdatasync);
    // @ts-expect-error better-sqlite3 cannot span an await: inTransaction takes no async function.
    const attempt = () => inTransaction(db, async () => undefined);
    expect(typeof attempt).toBe('function');
    expect(inTransaction(db, () => 42)).toBe(42);
  });

  it('writes that arrive together share one COMMIT, each in its own savepoint: one that throws rolls back alone', async () => {
    open(fdatasync);
    const batch = durableCommits(db)!;
    const before = batch.commits;
    write('a');
    expect(() =>
      inTransaction(db, () => {
        db.run(sql`INSERT INTO meta (key, value) VALUES ('b', 'x')`);
        throw new Error('refused half-way');
      }),
    ).toThrow('refused half-way');
    write('c');
    // Not committed yet: the batch is still open (and nothing of it may leave the process).
    expect(db.$client.inTransaction).toBe(true);
    expect(isDurable(db)).toBe(false);
    await whenDurable(db);
    expect(batch.commits - before).toBe(1);
    const keys = db.all<{ key: string }>(sql`SELECT key FROM meta WHERE key IN ('a', 'b', 'c') ORDER BY key`).map((r) => r.key);
    expect(keys).toEqual(['a', 'c']);
    // A batch nobody waits for commits within a few milliseconds anyway.
    write('d');
    await new Promise((r) => setTimeout(r, 20));
    expect(db.$client.inTransaction).toBe(false);
  });

  it('a failed sync rejects the writes that waited for it and every later one (fail stop)', async () => {
    const sync = new HeldSync();
    open(sync.fn);
    let told: Error | null = null;
    durableCommits(db)!.onFailure = (e) => (told = e);
    write('x');
    const waited = whenDurable(db);
    await tick();
    sync.fail();
    await expect(waited).rejects.toThrow(/could not be synced to disk.*EIO/);
    expect(told).not.toBeNull();
    expect(isDurable(db)).toBe(false);
    await expect(whenDurable(db)).rejects.toThrow(/could not be synced/);
  });
});

describe('answers, events and devices wait for the sync', () => {
  let hub: TestHub;
  afterEach(async () => hub?.close());

  it('a write is answered only after its sync; a burst of writes shares syncs and one bad write leaves the others committed', async () => {
    const sync = new HeldSync(false);
    hub = await startHub({ syncFd: sync.fn });
    await hub.call('PUT', '/api/customers/taken', { firstName: 'Taken' });
    sync.hold = true;
    const before = sync.calls;
    const commitsBefore = durableCommits(hub.db)!.commits;
    let answered = 0;
    const writes = Array.from({ length: 10 }, (_, i) =>
      hub
        .call('POST', '/api/customers', i === 4 ? { id: 'taken', firstName: 'Duplicate' } : { id: `c${i}`, firstName: `Customer ${i}` })
        .then((r) => (answered++, r)),
    );
    // Let every request commit; none may be answered while the sync is held (the duplicate's 400
    // answer waits too: it follows the commits of the others).
    for (let i = 0; i < 50 && sync.waiting === 0; i++) await tick(10);
    await tick(50);
    expect(answered).toBe(0);
    while (answered < 10) {
      await sync.release();
      await tick(10);
    }
    const replies = await Promise.all(writes);
    expect(replies.map((r) => r.status)).toEqual([201, 201, 201, 201, 400, 201, 201, 201, 201, 201]);
    expect(replies[4].body.errors[0]).toMatchObject({ memberName: 'id', code: 'Unique' });
    // The ten requests shared their syncs and their commits (a few groups, not one each).
    expect(sync.calls - before).toBeLessThan(10);
    expect(durableCommits(hub.db)!.commits - commitsBefore).toBeLessThan(10);
    sync.hold = false;
    for (let i = 0; i < 10; i++) expect((await hub.call('GET', `/api/customers/${i === 4 ? 'taken' : `c${i}`}`)).status).toBe(200);
    expect((await hub.call('GET', '/api/customers/taken')).body.firstName).toBe('Taken');
  });

  it('a sync that fails turns the answer into a 500 problem, not a 201, and the hub answers nothing more as saved', async () => {
    const sync = new HeldSync(false);
    hub = await startHub({ syncFd: sync.fn });
    sync.hold = true;
    const pending = hub.call('POST', '/api/customers', { id: 'lost', firstName: 'Maybe' });
    for (let i = 0; i < 100 && sync.waiting === 0; i++) await tick(10);
    sync.fail();
    const r = await pending;
    expect(r.status).toBe(500);
    expect(r.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(r.body).toMatchObject({ status: 500, errorCode: 0 });
    expect(r.body.detail).toMatch(/could not write this change to its disk/);
    expect(r.headers.get('location')).toBeNull();
    // Fail stop: reads are not answered from a state the disk may not hold either.
    expect((await hub.call('GET', '/api/customers/lost')).status).toBe(500);
  });

  it('an SSE event is sent only once the change it reports is synced', async () => {
    const sync = new HeldSync(false);
    hub = await startHub({ syncFd: sync.fn });
    const sse = new SseClient(`${hub.url}/api/events`, { authorization: `Bearer ${hub.adminToken}` });
    try {
      await sse.waitFor(() => sse.status === 200);
      sync.hold = true;
      const answer = hub.call('PUT', '/api/customers/evt', { firstName: 'Event' });
      for (let i = 0; i < 100 && sync.waiting === 0; i++) await tick(10);
      await tick(200); // several polls of the log
      expect(sse.events.filter((e) => e.event === 'customers')).toHaveLength(0);
      sync.hold = false;
      await sync.release();
      expect((await answer).status).toBe(201);
      await sse.waitFor(() => sse.events.some((e) => e.event === 'customers'));
      expect(JSON.parse(sse.events.find((e) => e.event === 'customers')!.data)).toMatchObject({ resource: 'customers', key: 'evt', op: 'upsert' });
    } finally {
      sse.close();
    }
  });

  it('kitchen bytes go out only once the ticket write that made the order is synced', async () => {
    const sync = new HeldSync(false);
    const printer = await FakeEscPosPrinter.start();
    const k = await kitchen({ Kitchen: printer }, { syncFd: sync.fn });
    hub = k.hub;
    try {
      sync.hold = true;
      const answer = order(k, 'Stôl 7', ['Kitchen']);
      for (let i = 0; i < 100 && sync.waiting === 0; i++) await tick(10);
      await tick(300); // several polls of the print queue (50 ms)
      expect(printer.tickets).toEqual([]);
      sync.hold = false;
      await sync.release();
      await answer;
      await printer.waitFor(() => printer.cutTickets().length === 1);
    } finally {
      await hub.close();
      await printer.close();
      hub = undefined as unknown as TestHub;
    }
  });

  it('the fiscal device is asked to print only once the receipt journal row is synced', async () => {
    const sync = new HeldSync(false);
    hub = await startHub({ syncFd: sync.fn });
    await restaurant(hub);
    const cashier = await register(hub);
    const fp1 = hub.fiscal.get({ name: 'FP1', driver: 'simulator', address: 'sim:fp1', settings: {} }) as SimulatorFiscalDevice;
    // As a real printer: its memory is its own, not this database's.
    expect(fp1.memoryInHubDatabase).toBe(true);
    Object.defineProperty(fp1, 'memoryInHubDatabase', { value: false });
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, { token: cashier.token }));
    sync.hold = true;
    const closing = hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 6.9 }] }, { token: cashier.token });
    for (let i = 0; i < 100 && sync.waiting === 0; i++) await tick(10);
    await tick(100);
    const pending = hub.db.all<{ state: string }>(sql`SELECT state FROM fiscal_jobs WHERE ticket_id = ${t.id}`);
    expect(pending).toEqual([{ state: 'Pending' }]);
    expect(fp1.journal.filter((j) => j.receipt.reference === t.id)).toHaveLength(0);
    sync.hold = false;
    await sync.release();
    expect((await closing).status).toBe(200);
    expect(fp1.journal.filter((j) => j.receipt.reference === t.id)).toHaveLength(1);
  });

  it('the simulator, whose memory is this database, is asked at once: a power cut takes both back together', async () => {
    const sync = new HeldSync(false);
    hub = await startHub({ syncFd: sync.fn });
    await restaurant(hub);
    const cashier = await register(hub);
    const fp1 = hub.fiscal.get({ name: 'FP1', driver: 'simulator', address: 'sim:fp1', settings: {} }) as SimulatorFiscalDevice;
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, { token: cashier.token }));
    sync.hold = true;
    const closing = hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 6.9 }] }, { token: cashier.token });
    for (let i = 0; i < 100 && fp1.journal.every((j) => j.receipt.reference !== t.id); i++) await tick(10);
    // Issued while the sync is held; the answer still waits for it.
    expect(fp1.journal.filter((j) => j.receipt.reference === t.id)).toHaveLength(1);
    let answered = false;
    void closing.then(() => (answered = true));
    await tick(100);
    expect(answered).toBe(false);
    sync.hold = false;
    await sync.release();
    expect((await closing).status).toBe(200);
  });
});

describe('every connection that commits', () => {
  it("syncs each COMMIT itself (FULL, 2) unless it is the hub's, whose commits the shared sync covers (NORMAL, 1)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'poshub-sync-'));
    const db = openDb(join(dir, 'hub.sqlite'));
    try {
      // 2 = FULL: a script's or a restore's commits are awaited by nobody, so COMMIT syncs itself.
      expect(db.$client.pragma('synchronous', { simple: true })).toBe(2);
    } finally {
      closeDb(db);
      rmSync(dir, { recursive: true, force: true });
    }
    const hub = await startHub();
    try {
      // 1 = NORMAL: only on a connection whose every commit is followed by the shared sync.
      expect(hub.db.$client.pragma('synchronous', { simple: true })).toBe(1);
      expect(durableCommits(hub.db)).toBeDefined();
    } finally {
      await hub.close();
    }
  });
});

describe("the hub's connection (synchronous = NORMAL): no commit left without its sync", () => {
  let dir: string;
  let db: Db;
  afterEach(() => {
    if (db.$client.open) closeDb(db);
    rmSync(dir, { recursive: true, force: true });
  });
  const open = (sync: SyncFd) => {
    dir = mkdtempSync(join(tmpdir(), 'poshub-group-'));
    db = openDb(join(dir, 'hub.sqlite'), { syncFd: sync, groupSync: true });
  };
  const write = (k: string) => inTransaction(db, () => db.run(sql`INSERT INTO meta (key, value) VALUES (${k}, 'x')`));

  it('a commit nobody awaits (a worker\'s bookkeeping) is synced anyway, off the event loop', async () => {
    const sync = new HeldSync(false);
    open(sync.fn);
    write('unawaited');
    // Nobody calls whenDurable(): the batch commits on its timer and the sync follows it.
    for (let i = 0; i < 100 && !isDurable(db); i++) await tick(5);
    expect(isDurable(db)).toBe(true);
    expect(sync.calls).toBe(1);
    // A statement outside inTransaction (autocommit) is counted too: the next answer waits for its sync.
    db.run(sql`INSERT INTO meta (key, value) VALUES ('autocommit', 'x')`);
    expect(isDurable(db)).toBe(false);
    await whenDurable(db);
    expect(sync.calls).toBe(2);
  });

  it('closing syncs what is not synced yet, even while a sync is still running', async () => {
    const sync = new HeldSync();
    open(sync.fn);
    write('a');
    const waited = whenDurable(db);
    await tick();
    expect(sync.waiting).toBe(1);
    write('b'); // lands while the first sync runs: the next one would cover it
    const batch = durableCommits(db)!;
    const before = batch.syncs;
    closeDb(db);
    expect(batch.syncs).toBe(before + 1);
    await sync.release();
    await waited;
  });

  it('a backup is done only once everything it copied is on disk', async () => {
    const sync = new HeldSync(false);
    open(sync.fn);
    await whenDurable(db);
    sync.hold = true;
    write('in-the-backup');
    let done = false;
    const backup = backupDb(db, join(dir, 'backup.sqlite')).then(() => (done = true));
    for (let i = 0; i < 100 && sync.waiting === 0; i++) await tick(5);
    await tick(50);
    expect(done).toBe(false);
    sync.hold = false;
    await sync.release();
    await backup;
    expect(done).toBe(true);
  });
});

describe('fiscal device calls wait for the sync', () => {
  let hub: TestHub;
  afterEach(async () => hub?.close());

  it('a Z report is printed only once what the hub wrote before it is synced', async () => {
    const sync = new HeldSync(false);
    hub = await startHub({ syncFd: sync.fn });
    await restaurant(hub);
    const fp1 = hub.fiscal.get({ name: 'FP1', driver: 'simulator', address: 'sim:fp1', settings: {} }) as SimulatorFiscalDevice;
    // As a real printer: its memory is its own, not this database's.
    Object.defineProperty(fp1, 'memoryInHubDatabase', { value: false });
    const dayBefore = (await fp1.status()).dailySalesReportNumber ?? 0;
    sync.hold = true;
    const written = hub.call('PUT', '/api/customers/before-z', { firstName: 'Before' });
    for (let i = 0; i < 100 && sync.waiting === 0; i++) await tick(10);
    const report = hub.call('POST', '/api/fiscaldevices/FP1/reports/z');
    await tick(200);
    expect((await fp1.status()).dailySalesReportNumber).toBe(dayBefore);
    sync.hold = false;
    await sync.release();
    expect((await written).status).toBe(201);
    expect((await report).status).toBe(200);
    expect((await fp1.status()).dailySalesReportNumber).toBe(dayBefore + 1);
  });
});

describe('closing the database', () => {
  it.each([
    ['FULL (a script, a restore)', false],
    ["the hub's (NORMAL, group sync)", true],
  ])('ends a wait asked for in the same turn, before its sync started: %s', async (_, groupSync) => {
    const dir = mkdtempSync(join(tmpdir(), 'poshub-close-'));
    const sync = new HeldSync(false);
    const db = openDb(join(dir, 'hub.sqlite'), { syncFd: sync.fn, groupSync });
    try {
      inTransaction(db, () => db.run(sql`INSERT INTO meta (key, value) VALUES ('a', 'x')`));
      const waited = whenDurable(db);
      closeDb(db); // the sync it asked for starts at the end of the turn: closing must start it
      await waited;
      expect(sync.calls).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
