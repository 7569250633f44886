/**
 * A register whose tablet is set to another zone than the shop's (a kiosk tablet left on its factory
 * zone): the shop is in Bratislava (POS_HUB_TIMEZONE), the tablet on Los Angeles, nine hours behind.
 * At 05:00 on Saturday 21 November in the shop it is 20:00 on Friday on the tablet. The register takes
 * the shop's zone from its session, as the manager's page does: "today's" receipts to return from are
 * the shop's Saturday — the sale at 00:30 — not the tablet's Friday, which would also offer the sale
 * at 10:00 on the shop's Friday (01:00 in Los Angeles).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { openRegister, setUpWithPassword, SIZES } from '../support/register-page.js';
import { ALL_TICKET_RIGHTS, expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';

const haveChromium = chromiumAvailable('test/web/register-zone');
const FRIDAY_MORNING = new Date('2026-11-20T09:00:00Z'); // 10:00 in the shop, 01:00 on Friday in Los Angeles
const SATURDAY_NIGHT = new Date('2026-11-20T23:30:00Z'); // 00:30 on Saturday in the shop, 15:30 on Friday in Los Angeles
const NOW = new Date('2026-11-21T04:00:00Z');

describe.skipIf(!haveChromium)('a register on a tablet set to another zone', () => {
  let hub: TestHub;
  let browser: Browser;

  beforeAll(async () => {
    await ensureWebBuild();
    hub = await startHub({ locale: 'en', timeZone: 'Europe/Bratislava', clock: new FakeClock(FRIDAY_MORNING) });
    browser = await launchChromium();
    await restaurant(hub);
    const till = await register(hub, [...ALL_TICKET_RIGHTS, 'TicketReadAll']);
    for (const [at, table] of [[FRIDAY_MORNING, '31'], [SATURDAY_NIGHT, '32']] as const) {
      hub.clock.set(at);
      const token = await hub.login(till.userName, 'pw', till.device);
      const t = await expect2xx(hub.call('POST', '/api/tickets', { name: `Table ${table}`, location: { tableName: table }, items: [item(1, 1)] }, { token }));
      await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: t.totalPrice.amount }] }, { token }));
    }
    hub.clock.set(NOW);
    hub.adminToken = await hub.login('admin', ADMIN_PASSWORD, 'BackOffice');
    // The tablet sets its clock by the hub's answers, whose Date is the hub's (injected) clock.
    expect((await hub.call('GET', '/api/health')).headers.get('date')).toBe(NOW.toUTCString());
    await expect2xx(hub.call('POST', '/api/users', { userName: 'peter', name: 'Peter Horváth', password: 'pw-peter', rights: [...ALL_TICKET_RIGHTS, 'TicketReadAll'] }));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it("offers the shop's today's receipts to return from, not the tablet's", async () => {
    const context = await browser.newContext({ viewport: SIZES.tablet, locale: 'en-GB', timezoneId: 'America/Los_Angeles', hasTouch: true, reducedMotion: 'reduce', serviceWorkers: 'block' });
    await context.addInitScript(() => localStorage.setItem('poshub.language', 'en'));
    const tab = await openRegister(browser, hub.url, 'en', SIZES.tablet, { context, clock: NOW.getTime() });
    await setUpWithPassword(tab, 'Register1', 'peter', 'pw-peter');
    const { page, words } = tab;
    await page.getByRole('button', { name: words.returns }).click();
    await page.getByTestId('return-search').press('Enter');
    const shown = page.locator('[data-testid^=closed-]');
    await shown.first().waitFor();
    // Both tickets closed within the tablet's Friday; only the second within the shop's Saturday.
    await expect.poll(async () => (await shown.allTextContents()).join(' | ')).toMatch(/32/);
    expect(await shown.count()).toBe(1);
    await context.close();
  });
});
