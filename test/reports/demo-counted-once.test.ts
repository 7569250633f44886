/**
 * Issue 28, point 1, as the manager saw it: `npm run seed:demo`, then the hub starts on that data
 * directory (and counts what it takes for earlier tickets, as hub/main.ts does at every start). The
 * reports must show each closed ticket once — before the fix they showed 120 tickets and 2 813,00 €
 * where the hub held 60 closed tickets worth 1 406,50 €, and the fiscal day's cash twice over.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../hub/core/log.js';
import { ROOT } from '../support/process.js';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';

const TZ = 'Europe/Bratislava';
let dataDir: string;
let hub: TestHub;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'poshub-demo-'));
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/seed-demo.ts'], {
    cwd: ROOT,
    env: { ...process.env, POS_HUB_DATA_DIR: dataDir, POS_HUB_TIMEZONE: TZ, POS_HUB_LOCALE: 'sk', POS_HUB_PORT: '1', POS_HUB_ADMIN_PASSWORD: ADMIN_PASSWORD },
  });
  hub = await startHub({ dataDir, timeZone: TZ, locale: 'sk', clock: new (await import('../../hub/core/clock.js')).FakeClock(new Date()) });
  // What hub/main.ts does after every start.
  await hub.services.reports.backfill(createLogger('silent'));
}, 120_000);

afterAll(async () => {
  await hub?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const localDay = (iso: string) => new Intl.DateTimeFormat('sv-SE', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));

describe('after npm run seed:demo and a start of the hub', () => {
  it('the reports count every closed ticket once', async () => {
    const list = await hub.call('GET', '/api/tickets?IsClosed=true&$take=1000');
    const closed = list.body.items as Array<{ closeDate: string; totalPrice: { amount: number } }>;
    expect(closed.length).toBeGreaterThan(10);
    const days = closed.map((t) => localDay(t.closeDate)).sort();
    const report = await hub.call('GET', `/api/reports/sales?from=${days[0]}&to=${days[days.length - 1]}&groupBy=waiter`);
    expect(report.status).toBe(200);
    const sum = closed.reduce((s, t) => s.plus(t.totalPrice.amount), new Decimal(0));
    expect([report.body.totals.tickets, report.body.totals.net]).toEqual([closed.length, sum.toNumber()]);
    // Every grouping: the waiters' rows add up to the same.
    expect(report.body.rows.reduce((s: Decimal, r: { net: number }) => s.plus(r.net), new Decimal(0)).toNumber()).toBe(sum.toNumber());
  });

  it("the fiscal day's figures are the device's own X report", async () => {
    const x = await hub.call('POST', '/api/fiscaldevices/FP1/reports/x');
    expect(x.status).toBe(200);
    const day = await hub.call('GET', `/api/reports/fiscalday?fiscalName=FP1&number=${x.body.number}`);
    expect([day.body.tickets, day.body.total]).toEqual([x.body.receipts, Number(x.body.total)]);
  });
});
