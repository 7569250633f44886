/**
 * The end of the day's "Yesterday" on the morning after summer time began: on 2026-03-30 at 00:30 in
 * Bratislava (22:30 UTC on the 29th) 24 hours ago was 23:30 on the 28th, as the 29th had 23 hours;
 * yesterday is the 29th all the same.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { startHub, type TestHub } from '../support/hub.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { openManagerPage } from '../support/manager-page.js';
import { ensureWebBuild } from './build.js';

const haveChromium = chromiumAvailable('test/web/end-of-day-dst');
const TZ = 'Europe/Bratislava';
const AT = new Date('2026-03-29T22:30:00Z');

describe.skipIf(!haveChromium)('the end of the day the morning after summer time began', () => {
  let hub: TestHub;
  let browser: Browser;

  beforeAll(async () => {
    await ensureWebBuild();
    hub = await startHub({ locale: 'sk', timeZone: TZ, clock: new FakeClock(AT) });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('Yesterday is the 29th, not the 28th', async () => {
    const page = await openManagerPage(browser, hub.url, 'sk', { width: 1366, height: 768 }, { timezoneId: TZ, clock: AT });
    await page.getByRole('navigation').getByRole('link', { name: 'Uzávierka dňa' }).click();
    await page.getByRole('heading', { level: 1, name: 'Uzávierka dňa' }).waitFor();
    await page.getByRole('button', { name: 'Včera', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('date')).toBe('2026-03-29');
  });
});
