/**
 * The manager's page opened far from the shop: the shop is in Bratislava (POS_HUB_TIMEZONE), the
 * owner's laptop in Los Angeles, nine hours behind. At 05:00 on Saturday 21 November in the shop it is
 * 20:00 on Friday the 20th on the laptop. The page must show the shop's days, as the hub counts them:
 * Today is the 21st, Yesterday the 20th — on Today, on a report's presets, at the end of the day and in
 * the tickets' date filter — each with its figures to the cent, and every time on the shop's clock. The
 * sales sit either side of the shop's midnight (23:30 and 00:30), and of the laptop's day (08:30 in the
 * shop is 23:30 the day before in Los Angeles), so a page reckoning in the browser's zone gets each wrong.
 */
import type { Browser, Page } from 'playwright-core';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { go, openManagerPage, plain } from '../support/manager-page.js';
import { ALL_TICKET_RIGHTS, expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';

const haveChromium = chromiumAvailable('test/web/shop-zone');
const SHOP = 'Europe/Bratislava';
const BROWSER = 'America/Los_Angeles';
const LAPTOP = { width: 1366, height: 768 };

// Friday 20 November 2026: 08:30 and 23:30 in the shop (CET, UTC+1); its fiscal day closed by a Z at 23:45.
const FRIDAY_MORNING = new Date('2026-11-20T07:30:00Z'); // 23:30 on Thursday the 19th in Los Angeles
const FRIDAY_NIGHT = new Date('2026-11-20T22:30:00Z');
const Z_AT = new Date('2026-11-20T22:45:00Z');
// Saturday 21 November: 00:30 and 04:30 in the shop — still Friday afternoon and evening in Los Angeles.
const SATURDAY_NIGHT = new Date('2026-11-20T23:30:00Z');
const SATURDAY_EARLY = new Date('2026-11-21T03:30:00Z');
const NOW = new Date('2026-11-21T04:00:00Z'); // 05:00 on the 21st in the shop, 20:00 on the 20th in Los Angeles

/** Money as the English page writes it: 1,234.50 €. */
const money = (d: Decimal) => `${new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(d.toNumber())} €`;
const sum = (tickets: any[]) => tickets.reduce((s: Decimal, t) => s.plus(t.totalPrice.amount), new Decimal(0));

describe.skipIf(!haveChromium)("the manager's page opened from another zone shows the shop's days", () => {
  let hub: TestHub;
  let browser: Browser;
  let till: Awaited<ReturnType<typeof register>>;
  const friday: any[] = [];
  const saturday: any[] = [];

  /** A ticket of `items` sold and paid in cash at `at` (the hub's clock), kept in `day`. */
  async function sell(day: any[], at: Date, items: Array<ReturnType<typeof item>>) {
    hub.clock.set(at);
    till.token = await hub.login(till.userName, 'pw', till.device);
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items }, { token: till.token }));
    day.push(await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: t.totalPrice.amount }] }, { token: till.token })));
  }

  const open = (): Promise<Page> => openManagerPage(browser, hub.url, 'en', LAPTOP, { timezoneId: BROWSER, clock: NOW });

  beforeAll(async () => {
    await ensureWebBuild();
    hub = await startHub({ locale: 'en', timeZone: SHOP, clock: new FakeClock(FRIDAY_MORNING) });
    browser = await launchChromium();
    await restaurant(hub);
    till = await register(hub, [...ALL_TICKET_RIGHTS, 'TicketReadAll']);
    await sell(friday, FRIDAY_MORNING, [item(1, 1)]);
    await sell(friday, FRIDAY_NIGHT, [item(2, 1), item(5, 1)]);
    hub.clock.set(Z_AT);
    hub.adminToken = await hub.login('admin', ADMIN_PASSWORD, 'BackOffice');
    await expect2xx(hub.call('POST', '/api/fiscaldevices/FP1/reports/z'));
    await sell(saturday, SATURDAY_NIGHT, [item(1, 2)]);
    await sell(saturday, SATURDAY_EARLY, [item(3, 1), item(4, 3)]);
    hub.clock.set(NOW);
    hub.adminToken = await hub.login('admin', ADMIN_PASSWORD, 'BackOffice');
    // The days differ to the cent, and from what a day in Los Angeles would hold.
    expect([sum(friday).toFixed(2), sum(saturday).toFixed(2)]).toEqual(['11.60', '16.30']);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it("Today is the shop's Saturday with Saturday's sales, and the page says whose clock it shows", async () => {
    const page = await open();
    expect(await page.evaluate(() => [Intl.DateTimeFormat().resolvedOptions().timeZone, new Date().getDate()])).toEqual([BROWSER, 20]);
    await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
    await expect.poll(() => page.getByTestId('sales-total').textContent().then(plain)).toBe(money(sum(saturday)));
    expect(plain(await page.getByTestId('sales-count').textContent())).toBe('2');
    expect(plain(await page.locator('.page-sub').textContent())).toBe('Saturday 21 November');
    expect(plain(await page.getByTestId('shop-zone').textContent())).toBe('Shop time: Europe/Bratislava');
    // Friday, chosen by date: from the shop's midnight to the next, its 08:30 sale included.
    await go(page, '/today?day=2026-11-20');
    await expect.poll(() => page.getByTestId('sales-total').textContent().then(plain)).toBe(money(sum(friday)));
    expect(plain(await page.getByTestId('sales-count').textContent())).toBe('2');
  });

  it("a report's Today and Yesterday are the shop's Saturday and Friday, to the cent", async () => {
    const page = await open();
    await page.getByRole('navigation').getByRole('link', { name: 'Reports' }).click();
    const period = page.getByRole('group', { name: 'Period' });
    await period.getByRole('button', { name: 'Yesterday', exact: true }).click();
    await expect.poll(() => [...new URL(page.url()).searchParams].filter(([k]) => k === 'from' || k === 'to')).toEqual([['from', '2026-11-20'], ['to', '2026-11-20']]);
    await expect.poll(() => page.getByTestId('total-net').textContent().then(plain)).toBe(money(sum(friday)));
    await period.getByRole('button', { name: 'Today', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBe('2026-11-21');
    await expect.poll(() => page.getByTestId('total-net').textContent().then(plain)).toBe(money(sum(saturday)));
    // The week is the shop's too: Monday 16 to Sunday 22 November.
    await period.getByRole('button', { name: 'This week', exact: true }).click();
    await expect.poll(() => [new URL(page.url()).searchParams.get('from'), new URL(page.url()).searchParams.get('to')]).toEqual(['2026-11-16', '2026-11-22']);
    await expect.poll(() => page.getByTestId('total-net').textContent().then(plain)).toBe(money(sum(friday).plus(sum(saturday))));
  });

  it("the end of the day shows the shop's today and yesterday, each with its own fiscal day's figures", async () => {
    const page = await open();
    await page.getByRole('navigation').getByRole('link', { name: 'End of day' }).click();
    await page.getByRole('heading', { level: 1, name: 'End of day' }).waitFor();
    const days = page.locator('[data-testid^="day-FP1-"]');
    // Today: Saturday's fiscal day, open since Friday's Z.
    await expect.poll(() => days.count()).toBe(1);
    await expect.poll(() => days.getByTestId('day-total').textContent().then(plain)).toBe(money(sum(saturday)));
    await page.getByRole('group', { name: 'Date' }).getByRole('button', { name: 'Yesterday', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('date')).toBe('2026-11-20');
    await expect.poll(() => days.getByTestId('day-total').textContent().then(plain)).toBe(money(sum(friday)));
    expect(await days.count()).toBe(1);
  });

  it("a day's tickets are the shop's, opened and closed at the shop's times", async () => {
    const page = await open();
    await go(page, '/tickets?from=2026-11-20&to=2026-11-20');
    const rows = page.locator('[data-testid=table-tickets] tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const opened = await page.locator('[data-testid=table-tickets] tbody td[data-label="Opened"]').allTextContents();
    expect(opened.map(plain).sort()).toEqual(['20 Nov, 08:30', '20 Nov, 23:30']);
    const closed = await page.locator('[data-testid=table-tickets] tbody td[data-label="Closed"]').allTextContents();
    expect(closed.map(plain).sort()).toEqual(['08:30', '23:30']);
  });
});
