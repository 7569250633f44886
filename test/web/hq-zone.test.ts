/**
 * Head office's page opened far from head office: HQ counts its days in Bratislava (POS_HQ_TIMEZONE),
 * the browser is in Los Angeles, where at 05:00 on 21 November in Bratislava it is still the 20th. The
 * sales "by day, last 7 days" are HQ's last seven days — the 15th to the 21st, each whole, its 00:30 and
 * its 23:30 sale — not the browser's (which would start a day early, on the 14th, and show eight rows).
 * Runs HQ's app in-process on an embedded PostgreSQL, as test/hq/api.test.ts does, with its built page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHqApp, ensureAdmin } from '../../hub/hq/api.js';
import { migrate, openPool, startEmbedded, type Pool } from '../../hub/hq/db.js';
import { ingestBatch } from '../../hub/hq/repo.js';
import { parseIsoDateTime } from '../../hub/core/time.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { plain } from '../support/manager-page.js';
import { ensureWebBuild } from './build.js';

const haveChromium = chromiumAvailable('test/web/hq-zone');
const HQ_ZONE = 'Europe/Bratislava';
const BROWSER = 'America/Los_Angeles';
const ADMIN_PASSWORD = 'hq-admin-password';
const NOW = new Date('2026-11-21T04:00:00Z'); // 05:00 on the 21st at HQ, 20:00 on the 20th in Los Angeles

describe.skipIf(!haveChromium)("head office's page opened from another zone counts HQ's days", () => {
  let dir: string;
  let pg: { url: string; stop(): Promise<void> };
  let pool: Pool;
  let server: Server;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    await ensureWebBuild();
    dir = mkdtempSync(join(tmpdir(), 'poshub-hq-zone-'));
    const log = pino({ level: 'silent' });
    pg = await startEmbedded(dir, log);
    pool = openPool(pg.url, 2);
    await migrate(pool);
    await ensureAdmin(pool, ADMIN_PASSWORD);
    // From the 10th to the 21st: a sale of 1.10 at 00:30 and one of 2.20 at 23:30 every day at HQ.
    const at = (day: number, hour: number) => parseIsoDateTime(`2026-11-${day}T${String(hour).padStart(2, '0')}:30:00`, HQ_ZONE)!.toISOString();
    const times = Array.from({ length: 12 }, (_, i) => [at(10 + i, 0), at(10 + i, 23)]).flat();
    await ingestBatch(
      pool,
      times.map((t, i) => ({
        storeId: 's1', seq: i + 1, base: 0, resource: 'tickets', key: `t${i}`, op: 'upsert' as const, v: 1, at: t,
        doc: { id: `t${i}`, state: 'Closed', openDate: t, closeDate: t, totalPrice: { amount: i % 2 ? 2.2 : 1.1 }, items: [{ plu: { code: 1, stockName: 'Bar' }, type: 'Positive', quantity: 1, totalPrice: { amount: i % 2 ? 2.2 : 1.1 } }] },
      })),
    );
    const app = createHqApp({
      pool,
      log,
      timeZone: HQ_ZONE,
      offlineAfterMs: 60_000,
      state: { health: () => ({}), databaseOk: async () => true, catalogPushed: () => undefined },
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await pool?.end().catch(() => {});
    await pg?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("shows the sales of HQ's last 7 days, each day whole, and says whose clock it shows", async () => {
    const context = await browser.newContext({ locale: 'en-US', timezoneId: BROWSER });
    const page = await context.newPage();
    await page.clock.install({ time: NOW });
    page.setDefaultTimeout(20_000);
    await page.goto(`${url}/hq/`);
    expect(await page.evaluate(() => [Intl.DateTimeFormat().resolvedOptions().timeZone, new Date().getDate()])).toEqual([BROWSER, 20]);
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Sales' }).click();
    const rows = page.locator('[data-testid=sales-by-day] tbody tr');
    await expect.poll(() => rows.count()).toBe(7);
    const shown = await Promise.all((await rows.all()).map(async (r) => (await r.locator('td').allTextContents()).map(plain)));
    expect(shown).toEqual([
      ...['15', '16', '17', '18', '19', '20'].map((d) => [`2026-11-${d}`, '2', '3.30']),
      // The 21st so far: its 00:30 sale; its 23:30 one is still to come.
      ['2026-11-21', '1', '1.10'],
    ]);
    expect(plain(await page.locator('[data-testid=sales-by-store] tbody tr td').nth(2).textContent())).toBe('20.90');
    expect(plain(await page.getByTestId('hq-zone').textContent())).toBe('Head office time: Europe/Bratislava');
    await context.close();
  });
});
