/**
 * Head office's sales cards ("last 7 days", hub/web/hq/span.ts) against HQ's sales report on an
 * embedded PostgreSQL: the span is 7 whole days in HQ's zone, so "by day" has exactly 7 rows and
 * each holds the whole day — its 00:30 and its 23:30 sale — also across the start of summer time.
 * The days are HQ's (the zone its session answer names), not the browser's: the browser here is in
 * Los Angeles (process.env.TZ), where it is still the day before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate, openPool, startEmbedded, type Pool } from '../../hub/hq/db.js';
import { ingestBatch } from '../../hub/hq/repo.js';
import { salesReport } from '../../hub/hq/lists.js';
import { parseIsoDateTime } from '../../hub/core/time.js';
import { lastSevenDays } from '../../hub/web/hq/span.js';

const TZ = 'Europe/Bratislava';
const BROWSER_TZ = 'America/Los_Angeles';
let dir: string;
let pg: { url: string; stop(): Promise<void> };
let pool: Pool;
const tzBefore = process.env.TZ;

beforeAll(async () => {
  process.env.TZ = BROWSER_TZ;
  dir = mkdtempSync(join(tmpdir(), 'poshub-hq-span-'));
  pg = await startEmbedded(dir, pino({ level: 'silent' }));
  pool = openPool(pg.url, 2);
  await migrate(pool);
  // From March 20 to 31: a sale of 1.10 at 00:30 and one of 2.20 at 23:30 every local day.
  const at = (day: number, hour: number) => parseIsoDateTime(`2026-03-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:30:00`, TZ)!.toISOString();
  const times = Array.from({ length: 12 }, (_, i) => [at(20 + i, 0), at(20 + i, 23)]).flat();
  await ingestBatch(
    pool,
    times.map((t, i) => ({
      storeId: 's1', seq: i + 1, base: 0, resource: 'tickets', key: `t${i}`, op: 'upsert' as const, v: 1, at: t,
      doc: { id: `t${i}`, state: 'Closed', openDate: t, closeDate: t, totalPrice: { amount: i % 2 ? 2.2 : 1.1 }, items: [{ plu: { code: 1, stockName: 'Bar' }, type: 'Positive', quantity: 1, totalPrice: { amount: i % 2 ? 2.2 : 1.1 } }] },
    })),
  );
}, 120_000);

afterAll(async () => {
  if (tzBefore === undefined) delete process.env.TZ;
  else process.env.TZ = tzBefore;
  await pool?.end().catch(() => {});
  await pg?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

it('"last 7 days" are 7 whole days in HQ\'s zone, across the start of summer time', async () => {
  // 07:30 on the 31st in Bratislava, after its 00:30 sale and before its 23:30 one; 22:30 on the 30th in Los Angeles.
  const now = new Date('2026-03-31T05:30:00Z');
  const span = lastSevenDays(now, TZ);
  expect(span).toEqual({ from: '2026-03-25T00:00:00', to: now.toISOString() });
  const r = await salesReport(pool, parseIsoDateTime(span.from, TZ)!, parseIsoDateTime(span.to, TZ)!, 'day', TZ);
  expect(r.rows).toEqual([
    ...['25', '26', '27', '28', '29', '30'].map((d) => ({ day: `2026-03-${d}`, tickets: 2, quantity: 1 + 1, total: 3.3 })),
    { day: '2026-03-31', tickets: 1, quantity: 1, total: 1.1 },
  ]);
  expect(r.total).toBe(20.9);
});
