/**
 * The store side of the chain without a network: the change log keeps each version's document only
 * in a chain, compaction keeps what HQ does not hold (HQ's word, not its stream's ack), and the
 * publisher's cursor is the highest unbroken run of acks, resumed after an error and rewound when
 * HQ asks for events again. The publish function is a fake here; the real NATS path is in
 * chain.test.ts and wipe.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeDb, openDb, rawSql, type Db } from '../../db/client.js';
import { FakeClock } from '../../hub/core/clock.js';
import { compact, keepDocsInLog } from '../../hub/engine/change-log.js';
import { createLogger } from '../../hub/core/log.js';
import { ResourceService } from '../../hub/engine/service.js';
import type { ResourceDef } from '../../hub/engine/define.js';
import { devices, fiscalDevices, orderEndpoints, stocks, users } from '../../hub/resources.js';
import { Publisher, type PublisherOptions } from '../../hub/chain/publisher.js';
import { chainStart } from '../../hub/chain/repo.js';
import { SYSTEM_CALLER } from '../../hub/http/caller.js';

const DAY = 86_400_000;
let dir: string;
let db: Db;

function setUp(chain: boolean) {
  dir = mkdtempSync(join(tmpdir(), 'poshub-chainlog-'));
  db = openDb(join(dir, 'hub.sqlite'));
  if (chain) keepDocsInLog(db);
  const clock = new FakeClock('2026-10-01T10:00:00Z');
  const ctx = { db, clock, timeZone: 'UTC', busy: new Set<string>() };
  const service = (def: ResourceDef) => new ResourceService(def, ctx);
  return { clock, resources: { stocks: service(stocks), users: service(users), devices: service(devices), orderendpoints: service(orderEndpoints), fiscaldevices: service(fiscalDevices) } };
}

afterEach(() => {
  closeDb(db);
  rmSync(dir, { recursive: true, force: true });
});

const docs = () => rawSql.all<{ seq: number; v: number; doc: string | null }>(db, 'SELECT seq, v, doc FROM changes ORDER BY seq', []);

describe('the change log in a chain', () => {
  it('keeps the document of each version only on a hub in a chain', async () => {
    const alone = setUp(false);
    await alone.resources.stocks.put(SYSTEM_CALLER, 'Bar', { description: 'one' });
    expect(docs().map((d) => d.doc)).toEqual([null]);
    closeDb(db);
    rmSync(dir, { recursive: true, force: true });

    const { resources } = setUp(true);
    await resources.stocks.put(SYSTEM_CALLER, 'Bar', { description: 'one' });
    await resources.stocks.put(SYSTEM_CALLER, 'Bar', { description: 'two' });
    expect(docs().map((d) => JSON.parse(d.doc!).description)).toEqual(['one', 'two']);
  });

  it('compaction keeps every entry HQ has not acknowledged, however old', async () => {
    const { clock, resources } = setUp(true);
    for (const name of ['A', 'B', 'C', 'D']) await resources.stocks.put(SYSTEM_CALLER, name, {});
    clock.advance(60 * DAY);
    await resources.stocks.put(SYSTEM_CALLER, 'E', {});
    expect(compact(db, clock.now().getTime(), 35 * DAY, 2)).toBe(2); // acknowledged through 2
    expect(docs().map((d) => d.seq)).toEqual([3, 4, 5]);
  });
});

/** Store st1's publisher over the test's database, looking for new entries every 10 ms. */
const publisherOf = (resources: PublisherOptions['resources'], opts: Partial<PublisherOptions> & Pick<PublisherOptions, 'publish'>) =>
  new Publisher({ db, storeId: 'st1', log: createLogger('silent'), resources, pollMs: 10, ...opts });

describe('the publisher', () => {
  it('moves its cursor to the highest unbroken run of acks, resumes after an error, and forgets documents once HQ holds them', async () => {
    const { resources } = setUp(true);
    for (const name of ['A', 'B', 'C', 'D', 'E']) await resources.stocks.put(SYSTEM_CALLER, name, { description: name });
    await resources.users.put(SYSTEM_CALLER, 'u1', { userName: 'jana', name: 'Jana', password: 'secret-pw', rights: [] });
    const sent: Array<{ subject: string; msgId: string; body: any }> = [];
    let failSeq3 = true;
    const held: Array<() => void> = [];
    const publisher = publisherOf(resources, {
      saveEveryMs: 10,
      maxBackoffMs: 20,
      publish: async (subject, payload, msgId) => {
        const body = JSON.parse(payload);
        sent.push({ subject, msgId, body });
        if (body.seq === 3 && failSeq3) {
          failSeq3 = false;
          throw new Error('no ack');
        }
        if (body.seq === 2 && held.length === 0) await new Promise<void>((r) => held.push(r)); // acked last
      },
    });
    publisher.start();
    await expect.poll(() => held.length, { timeout: 5000 }).toBe(1);
    // 1 is acked; 2 waits; 3 failed: nothing past 1 may count as delivered.
    expect(publisher.ackedSeq()).toBe(1);
    held[0]();
    await expect.poll(() => publisher.ackedSeq(), { timeout: 5000 }).toBe(6);
    await publisher.stop();

    // Every entry went out, 3 at least twice (it failed once), each under its own message id.
    expect(new Set(sent.map((s) => s.msgId))).toEqual(new Set([1, 2, 3, 4, 5, 6].map((n) => `st1:${n}`)));
    expect(sent.filter((s) => s.body.seq === 3).length).toBeGreaterThanOrEqual(2);
    const first = sent.find((s) => s.body.seq === 1)!;
    expect(first.subject).toBe('pos.st1.stocks');
    expect(first.body).toMatchObject({ storeId: 'st1', seq: 1, base: 0, resource: 'stocks', key: 'A', op: 'upsert', v: 1, doc: { name: 'A', description: 'A', _v: 1 } });
    // A user goes to HQ as the API shows it: without the password hash.
    const user = sent.find((s) => s.body.resource === 'users')!;
    expect(user.body.doc.userName).toBe('jana');
    expect(JSON.stringify(user.body.doc)).not.toContain('scrypt');
    // The position survives a restart. The stream's ack is not HQ holding them: every document is
    // kept until HQ says it holds the entry, then forgotten.
    expect(chainStart(db).acked).toBe(6);
    expect(docs().every((d) => d.doc !== null)).toBe(true);
    publisher.hqHolds(4);
    expect(docs().map((d) => d.doc === null)).toEqual([true, true, true, true, false, false]);
    expect(chainStart(db)).toMatchObject({ acked: 6, ingested: 4 });
  });

  it("never publishes a secret: settings' API keys and PINs, password hashes (CONTRACT §12)", async () => {
    const { resources } = setUp(true);
    const secrets = { ApiKey: 'key-of-the-delivery-app', Pin: '4711', TerminalPassword: 'terminal-pw' };
    await resources.devices.put(SYSTEM_CALLER, 'Register1', { envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1', ...secrets } });
    await resources.orderendpoints.put(SYSTEM_CALLER, 'Kuchyna', { type: 'TM88', address: 'tcp://127.0.0.1:9100', settings: { PrinterProfile: 'TM88', ...secrets } });
    await resources.fiscaldevices.put(SYSTEM_CALLER, 'FP1', { driver: 'simulator', address: 'sim:fp1', settings: { HeaderText: 'Bistro', ...secrets } });
    await resources.users.put(SYSTEM_CALLER, 'u1', { userName: 'jana', name: 'Jana', password: 'secret-pw', rights: [] });
    const sent: string[] = [];
    const publisher = publisherOf(resources, { publish: async (_subject, payload) => void sent.push(payload) });
    publisher.start();
    await expect.poll(() => publisher.ackedSeq(), { timeout: 5000 }).toBe(4);
    await publisher.stop();
    const docs = Object.fromEntries(sent.map((p) => JSON.parse(p)).map((e) => [e.resource, e.doc]));
    // What a reader without SettingsRead sees: the other settings stay.
    expect(docs.devices.settings).toEqual({ DefaultFiscalName: 'FP1' });
    expect(docs.orderendpoints.settings).toEqual({ PrinterProfile: 'TM88' });
    expect(docs.fiscaldevices.settings).toEqual({ HeaderText: 'Bistro' });
    expect(docs.users.userName).toBe('jana');
    for (const payload of sent) {
      for (const secret of [...Object.values(secrets), 'scrypt', 'passwordHash', 'secret-pw']) expect(payload).not.toContain(secret);
    }
  });

  it("compaction keeps every entry HQ does not hold, however old, even those its stream acknowledged", async () => {
    const { clock, resources } = setUp(true);
    for (const name of ['A', 'B', 'C', 'D']) await resources.stocks.put(SYSTEM_CALLER, name, {});
    clock.advance(60 * DAY);
    await resources.stocks.put(SYSTEM_CALLER, 'E', {});
    const publisher = publisherOf(resources, { saveEveryMs: 10, publish: async () => {} });
    publisher.start();
    await expect.poll(() => publisher.ackedSeq(), { timeout: 5000 }).toBe(5);
    await publisher.stop();
    // Every entry stored by HQ's stream, none held by HQ yet (its NATS may lose them): compaction, as
    // the hub runs it (main.ts), removes nothing, and every document stays for a republish.
    expect(compact(db, clock.now().getTime(), 35 * DAY, publisher.heldByHq())).toBe(0);
    expect(docs().map((d) => d.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(docs().every((d) => d.doc !== null)).toBe(true);
    // HQ holds 1–2: those may go; 3 and 4 are as old, and stay.
    publisher.hqHolds(2);
    expect(compact(db, clock.now().getTime(), 35 * DAY, publisher.heldByHq())).toBe(2);
    expect(docs().map((d) => d.seq)).toEqual([3, 4, 5]);
    // What HQ holds survives a restart: a new publisher on the same log keeps 3 and 4 too.
    const again = publisherOf(resources, { publish: async () => {} });
    expect(again.heldByHq()).toBe(2);
    expect(compact(db, clock.now().getTime(), 35 * DAY, again.heldByHq())).toBe(0);
  });

  it('rewound by HQ, publishes again from where HQ asks, each entry with its own version, never before what the log holds', async () => {
    const { clock, resources } = setUp(true);
    for (const description of ['one', 'two', 'three']) await resources.stocks.put(SYSTEM_CALLER, 'Bar', { description }); // seq 1–3: versions 1–3
    for (const name of ['B', 'C']) await resources.stocks.put(SYSTEM_CALLER, name, {}); // seq 4–5
    const sent: Array<{ seq: number; v: number; description?: string; base?: number }> = [];
    const publisher = publisherOf(resources, {
      saveEveryMs: 10,
      publish: async (_subject, payload) => {
        const e = JSON.parse(payload);
        sent.push({ seq: e.seq, v: e.v, description: e.doc?.description, ...(e.base ? { base: e.base } : {}) });
      },
    });
    publisher.start();
    await expect.poll(() => publisher.ackedSeq(), { timeout: 5000 }).toBe(5);
    // HQ holds only 1: its NATS lost 2–5 after acknowledging them, and it asks again from 2.
    publisher.hqHolds(1);
    sent.length = 0;
    expect(publisher.rewind(2)).toBe(1);
    await expect.poll(() => publisher.ackedSeq(), { timeout: 5000 }).toBe(5);
    expect(sent.map((e) => e.seq)).toEqual([2, 3, 4, 5]);
    // Each version as it was stored, not the document as it is now.
    expect(sent.slice(0, 2)).toEqual([
      { seq: 2, v: 2, description: 'two' },
      { seq: 3, v: 3, description: 'three' },
    ]);
    expect(chainStart(db).acked).toBe(5);
    // Asked for what it has already published again (an answer to an older heartbeat): nothing moves.
    expect(publisher.rewind(6)).toBeNull();

    // Entries compacted away cannot come again: HQ asking from before them gets what is left, and
    // the chain's start moves past them (every event says it), so HQ counts on from there.
    publisher.hqHolds(3);
    clock.advance(60 * DAY);
    await resources.stocks.put(SYSTEM_CALLER, 'D', {}); // seq 6
    await expect.poll(() => publisher.ackedSeq(), { timeout: 5000 }).toBe(6);
    expect(compact(db, clock.now().getTime(), 35 * DAY, publisher.heldByHq())).toBe(3);
    sent.length = 0;
    expect(publisher.rewind(1)).toBe(3);
    await expect.poll(() => publisher.ackedSeq(), { timeout: 5000 }).toBe(6);
    expect(sent).toMatchObject([4, 5, 6].map((seq) => ({ seq, base: 3 })));
    expect(chainStart(db).base).toBe(3);
    await publisher.stop();
  });

  it('asked for entries a restore never brought back, moves the chain\'s start past them: HQ counts on, and is not left asking at every heartbeat', async () => {
    const { resources } = setUp(true);
    for (const name of ['A', 'B', 'C']) await resources.stocks.put(SYSTEM_CALLER, name, {}); // seq 1–3
    // A restore: the backup held 1–3, the replaced database had gone on to 10 (HQ got 1–4 of it);
    // the restored log goes on after 10 (scripts/restore.ts continueChangesAfter).
    rawSql.run(db, "UPDATE sqlite_sequence SET seq = 10 WHERE name = 'changes'", []);
    for (const name of ['D', 'E']) await resources.stocks.put(SYSTEM_CALLER, name, {}); // seq 11–12
    const sent: Array<{ seq: number; base: number }> = [];
    const publisher = publisherOf(resources, {
      saveEveryMs: 10,
      publish: async (_subject, payload) => {
        const e = JSON.parse(payload);
        sent.push({ seq: e.seq, base: e.base });
      },
    });
    publisher.start();
    await expect.poll(() => publisher.ackedSeq(), { timeout: 5000 }).toBe(12);
    expect(sent.map((e) => e.seq)).toEqual([1, 2, 3, 11, 12]);
    // HQ holds 1–4; 5–10 went with the replaced database. HQ asks from 5.
    publisher.hqHolds(4);
    sent.length = 0;
    expect(publisher.rewind(5)).toBe(10);
    await expect.poll(() => sent.length, { timeout: 5000 }).toBe(2);
    // What is left goes again, each event saying the chain goes on after 10: HQ's position passes
    // the hole (it would otherwise stay at 4, HQ asking again at every heartbeat for ever).
    expect(sent).toEqual([
      { seq: 11, base: 10 },
      { seq: 12, base: 10 },
    ]);
    expect(chainStart(db)).toMatchObject({ base: 10, acked: 12 });
    // Asked again from 5 (HQ lacks them still: the republish was lost too), it goes again from after
    // 10 — never from before, and the start stays.
    expect(publisher.rewind(5)).toBe(10);
    await expect.poll(() => publisher.ackedSeq(), { timeout: 5000 }).toBe(12);
    expect(chainStart(db).base).toBe(10);
    await publisher.stop();
  });

  it('publishes at once when the link comes back, not after the backoff it built up while offline', async () => {
    const { resources } = setUp(true);
    await resources.stocks.put(SYSTEM_CALLER, 'A', {});
    let online = false;
    let attempts = 0;
    const publisher = publisherOf(resources, {
      publish: async () => {
        attempts++;
        if (!online) throw new Error('not connected to HQ yet');
      },
    });
    // The backoff's timers are the test's to move: the publish after retryNow() must come without any.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      publisher.start();
      // Waits of 0.5 s and 1 s after the first two failures; after the third, 2 s.
      while (attempts < 3) await vi.advanceTimersByTimeAsync(100);
      online = true;
      publisher.retryNow();
      for (let turns = 0; turns < 1000 && publisher.ackedSeq() !== 1; turns++) await new Promise((r) => setImmediate(r));
      expect(publisher.ackedSeq()).toBe(1);
      expect(attempts).toBe(4);
    } finally {
      vi.useRealTimers();
    }
    await publisher.stop();
  });
});
