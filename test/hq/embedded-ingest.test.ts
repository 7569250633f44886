/**
 * HQ's embedded PostgreSQL and ingest's positions, on a real embedded server: a start on a port
 * another process took first is tried again on another port and ends in a running database; and a
 * store whose chain start moves past what HQ holds (its log no longer holds the entries between)
 * lets HQ's `ingestedSeq` pass them, said as a gap, where HQ would otherwise wait for them for ever.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../../hub/core/free-port.js';
import { migrate, openPool, startEmbedded, type Embedded, type Pool } from '../../hub/hq/db.js';
import { ingestBatch, ingestedSeqOf } from '../../hub/hq/repo.js';
import type { StoreEvent } from '../../hub/hq/protocol.js';

let dir: string;
let pg: Embedded;
let pool: Pool;
let taken: Server;
const ports: number[] = [];
const warnings: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'poshub-hq-embedded-'));
  // Another process binds the port first found free before PostgreSQL does.
  taken = createServer();
  const first = await new Promise<number>((resolve) => taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)));
  const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });
  pg = await startEmbedded(dir, log, {
    freePort: async () => {
      const port = ports.length === 0 ? first : await freePort();
      ports.push(port);
      return port;
    },
  });
  pool = openPool(pg.url, 2);
  await migrate(pool);
}, 120_000);

afterAll(async () => {
  await pool?.end().catch(() => {});
  await pg?.stop();
  await new Promise((r) => taken?.close(r));
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

it('a taken port at the first start is tried again on another: HQ\'s database runs', async () => {
  expect(ports.length).toBe(2);
  expect(new URL(pg.url).port).toBe(String(ports[1]));
  expect(warnings).toContain('the embedded PostgreSQL did not start; trying another port');
  expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0].one).toBe(1);
});

const event = (seq: number, base: number): StoreEvent => ({
  storeId: 'gap1', seq, base, resource: 'stocks', key: `k${seq}`, op: 'upsert', v: 1, at: '2026-11-01T10:00:00Z', doc: { name: `k${seq}` },
});

it("passes the entries a store's log no longer holds once its chain start moves past them, and says so", async () => {
  await ingestBatch(pool, [1, 2, 3, 4].map((s) => event(s, 0)));
  // 5–10 went with the store's replaced database; 11 and 12 come, HQ holds only to 4.
  expect((await ingestBatch(pool, [event(11, 0), event(12, 0)])).skipped).toBeUndefined();
  expect(await ingestedSeqOf(pool, 'gap1')).toBe(4);
  // Asked again from 5, the store answers with what it has, its chain now starting after 10.
  const r = await ingestBatch(pool, [event(11, 10), event(12, 10)]);
  expect(r).toMatchObject({ inserted: 0, duplicates: 2, skipped: [{ storeId: 'gap1', from: 5, to: 10 }] });
  expect(await ingestedSeqOf(pool, 'gap1')).toBe(12);
  // A new store joining with entries compacted before it joined is no gap.
  expect((await ingestBatch(pool, [{ ...event(31, 30), storeId: 'new1' }])).skipped).toBeUndefined();
  expect(await ingestedSeqOf(pool, 'new1')).toBe(31);
});
