/**
 * The catalog stall's cure on HQ's PostgreSQL (hub/hq/repo.ts resendCatalog): the versions a store
 * has not applied go again only when it is online and has not moved for POS_HQ_CATALOG_RESEND since
 * they were published — not while it is away, not while it catches up, not again at once. Times are
 * set in the database (an hour back), never waited for.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate, openPool, startEmbedded, type Pool } from '../../hub/hq/db.js';
import { pushCatalog, recordHeartbeat, relayCatalog, resendCatalog } from '../../hub/hq/repo.js';
import type { CatalogChange, Heartbeat } from '../../hub/hq/protocol.js';

let dir: string;
let pg: { url: string; stop(): Promise<void> };
let pool: Pool;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'poshub-hq-resend-'));
  pg = await startEmbedded(dir, pino({ level: 'silent' }));
  pool = openPool(pg.url, 2);
  await migrate(pool);
}, 120_000);

afterAll(async () => {
  await pool?.end().catch(() => {});
  await pg?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

const timing = { resendAfterMs: 60_000, offlineAfterMs: 90_000 };
const beat = (applied: number): Heartbeat => ({
  storeId: 's1', name: 'Store s1', at: new Date().toISOString(), lastSeq: 0, ackedSeq: 0, appliedCatalogVersion: applied, catalogError: null, printers: [], fiscalDevices: [],
});
/** What the relay would publish again now, published as it asks. */
const resent = async () => (await resendCatalog(pool, timing, 100, async (c: CatalogChange[]) => c)).map((c) => `${c.storeId}:${c.version}`);
/** An hour ago, as far as PostgreSQL's clock is concerned. */
const age = (sql: string) => pool.query(sql.replaceAll('$AGO', "now() - interval '1 hour'"));

it('publishes again, in order, the versions an online store stalls on; not while it is away or catching up, nor twice at once', async () => {
  await recordHeartbeat(pool, beat(0), timing.offlineAfterMs);
  for (const amount of [1, 2, 3]) {
    await pushCatalog(pool, { resource: 'stocks', key: 'Bar', op: 'put', doc: { name: 'Bar', description: String(amount) }, stores: ['s1'], by: 'admin' });
  }
  expect(await relayCatalog(pool, 100, async (c) => c)).toBe(3);
  await recordHeartbeat(pool, beat(1), timing.offlineAfterMs);
  // Just published, just applied one: nothing is owed yet.
  expect(await resent()).toEqual([]);

  // Published an hour ago, the store online and still at 1 since: 2 and 3 go again, once.
  await age("UPDATE catalog_outbox SET published_at = $AGO");
  await age("UPDATE stores SET catalog_progress_at = $AGO");
  await recordHeartbeat(pool, beat(1), timing.offlineAfterMs);
  expect(await resent()).toEqual(['s1:2', 's1:3']);
  expect(await resent()).toEqual([]);

  // Away for an hour (its last heartbeat then): nothing goes to a store that cannot take it…
  await age("UPDATE catalog_outbox SET published_at = $AGO");
  await age("UPDATE stores SET catalog_progress_at = $AGO, last_seen_at = $AGO");
  expect(await resent()).toEqual([]);
  // …and back, it first gets its time to take them from the stream.
  await recordHeartbeat(pool, beat(1), timing.offlineAfterMs);
  expect(await resent()).toEqual([]);

  // Catching up moves its version: it is not stalled.
  await age("UPDATE stores SET catalog_progress_at = $AGO");
  await recordHeartbeat(pool, beat(2), timing.offlineAfterMs);
  expect(await resent()).toEqual([]);
  await recordHeartbeat(pool, beat(3), timing.offlineAfterMs);
  await age("UPDATE stores SET catalog_progress_at = $AGO");
  expect(await resent()).toEqual([]); // every version applied
});
