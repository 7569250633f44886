/**
 * The end of the day from the manager's page alone (issue 28, points 4, 5 and 7), in Debian's
 * Chromium, in Slovak, as a new manager (the Manager preset) does it: open the register's shift with
 * a float, take cash out with a reason, count the drawer by note and coin and close the shift (its
 * report printed), print the Z report, look at the closed day, download the day for POHODA and as a
 * CSV journal. Every figure on screen and in the files is held against sums this test makes from the
 * tickets it closed through the API. Yesterday's fiscal day is chosen by date.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { PRESETS } from '../../hub/http/presets.js';
import { FAST_PRINTING } from '../printing/setup.js';
import { FakeEscPosPrinter } from '../support/fake-escpos-printer.js';
import { startHub, type TestHub } from '../support/hub.js';
import { chromiumAvailable, launchChromium, screenshot } from '../support/chromium.js';
import { go, openManagerPage, plain, skMoney } from '../support/manager-page.js';
import { ALL_TICKET_RIGHTS, expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';

const haveChromium = chromiumAvailable('test/web/end-of-day');
const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const TZ = 'Europe/Bratislava';
const LAPTOP = { width: 1366, height: 768 };

/** Money as a Slovak reader sees it: 1 234,50 €. */
const money = (d: Decimal.Value) => skMoney(new Decimal(d).toNumber());
const localDay = (at: Date) => new Intl.DateTimeFormat('sv-SE', { timeZone: TZ }).format(at);

describe.skipIf(!haveChromium)('the end of the day, from the page alone', () => {
  let hub: TestHub;
  let browser: Browser;
  let printer: FakeEscPosPrinter;
  /** The page as the new manager opens it (each test's window is closed when it ends: test/support/setup.ts). */
  async function endOfDay(): Promise<Page> {
    const page = await openManagerPage(browser, hub.url, 'sk', LAPTOP, { timezoneId: TZ, user: { name: 'veduca', password: 'pw-veduca-1' } });
    await page.getByRole('navigation').getByRole('link', { name: 'Uzávierka dňa' }).click();
    await page.getByRole('heading', { level: 1, name: 'Uzávierka dňa' }).waitFor();
    return page;
  }
  let till: Awaited<ReturnType<typeof register>>;
  const today: any[] = [];
  const yesterday: any[] = [];

  async function sell(into: any[], body: Record<string, unknown>, payments: Array<{ paymentTypeNumber: number; amount: number }>) {
    const t = await expect2xx(hub.call('POST', '/api/tickets', body, { token: till.token }));
    into.push(await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments }, { token: till.token })));
  }
  /** What the drawer took: cash payments less the change, summed here. */
  const cashOf = (tickets: any[]) => tickets.reduce((s, t) => s.plus(t.payments.filter((p: any) => p.paymentTypeNumber === 1).reduce((x: Decimal, p: any) => x.plus(p.amount), new Decimal(0))).minus(t.change ?? 0), new Decimal(0));
  const totalOf = (tickets: any[]) => tickets.reduce((s, t) => s.plus(t.totalPrice.amount), new Decimal(0));

  /** A time on the shop's calendar day before `now`'s: 24 hours back, moved by the hour a DST change adds or takes. */
  function sameTimeYesterday(now: Date): Date {
    const day = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
    const hour = 3_600_000;
    let at = new Date(now.getTime() - 24 * hour);
    // After a 25-hour day, 24 hours back is still today: an hour more.
    if (day(at) === day(now)) at = new Date(at.getTime() - hour);
    // After a 23-hour day, it is the day before yesterday: an hour less.
    const later = new Date(at.getTime() + hour);
    if (day(later) !== day(at) && day(later) !== day(now)) at = later;
    return at;
  }

  beforeAll(async () => {
    await ensureWebBuild();
    printer = await FakeEscPosPrinter.start(0);
    const now = new Date();
    hub = await startHub({ locale: 'sk', timeZone: TZ, clock: new FakeClock(sameTimeYesterday(now)), printing: FAST_PRINTING });
    browser = await launchChromium();
    await restaurant(hub);
    for (const name of ['Kitchen', 'Bar']) await expect2xx(hub.call('PUT', `/api/orderendpoints/${name}`, { type: 'TM88', address: 'tcp://127.0.0.1:9', isActive: false }));
    await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Pokladňa', type: 'TM88', address: printer.address }));
    await expect2xx(hub.call('POST', '/api/plus', { code: 11, stockName: 'Menu', name: 'Kofola', type: 'Service', unitPrice: { amount: 1.9 }, vatInfo: { category: 2, rate: 10 } }));
    till = await register(hub, [...ALL_TICKET_RIGHTS, 'TicketReadAll']);
    const device = await expect2xx(hub.call('GET', `/api/devices/${till.device}`));
    await expect2xx(hub.call('PUT', `/api/devices/${till.device}`, { ...device, settings: { ...device.settings, DefaultOrderEndpointName: 'Pokladňa' } }));
    // Yesterday: a day of its own, closed by its Z.
    await sell(yesterday, { items: [item(1, 2), item(11, 1)] }, [{ paymentTypeNumber: 1, amount: 20 }]);
    await expect2xx(hub.call('POST', '/api/fiscaldevices/FP1/reports/z'));
    hub.clock.set(now);
    till.token = await hub.login(till.userName, 'pw', till.device);
    hub.adminToken = await hub.login('admin', 'admin-test-password', 'BackOffice');
    await expect2xx(hub.call('POST', '/api/users', { userName: 'veduca', name: 'Eva Vedúca', password: 'pw-veduca-1', rights: PRESETS.find((p) => p.name === 'Manager')!.rights }));
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await hub?.close();
    await printer?.close();
  });

  it('opens the shift with a float; the register sells; cash goes out with a reason', async () => {
    const page = await endOfDay();
    const row = page.getByTestId(`register-${till.device}`);
    await row.getByTestId('shift-float').fill('100');
    await row.getByTestId('shift-open').click();
    await row.getByText('Zmena otvorená').waitFor();
    // The register sells: cash with change, a card, a split, and a return paid out in cash.
    await sell(today, { items: [item(1, 2), item(3, 1)] }, [{ paymentTypeNumber: 1, amount: 20 }]);
    await sell(today, { items: [item(2, 1)] }, [{ paymentTypeNumber: 2, amount: 4.5 }]);
    await sell(today, { discountRate: 10, items: [item(1, 1), item(11, 2)] }, [{ paymentTypeNumber: 2, amount: 5 }, { paymentTypeNumber: 1, amount: 10 }]);
    const ret = await expect2xx(hub.call('POST', `/api/tickets/${today[0].id}/return`, { items: [{ id: 2, quantity: 1 }] }, { token: till.token }));
    today.push(await expect2xx(hub.call('POST', `/api/tickets/${ret.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: ret.totalPrice.amount }] }, { token: till.token })));
    await expect.poll(() => row.getByTestId('shift-cash').textContent().then(plain)).toBe(money(cashOf(today)));
    await row.getByTestId('shift-movement').click();
    await row.getByTestId('movement-kind').selectOption('Out');
    await row.getByTestId('movement-amount').fill('12,35');
    await row.getByTestId('movement-reason').fill('Dodávateľ – pečivo');
    await row.getByTestId('movement-save').click();
    await expect.poll(() => row.getByTestId('shift-expected').textContent().then(plain)).toBe(money(cashOf(today).plus(100).minus(12.35)));
  });

  it('counts the drawer by note and coin, closes the shift and prints its report', async () => {
    const page = await endOfDay();
    const row = page.getByTestId(`register-${till.device}`);
    await row.getByTestId('shift-close').click();
    const expected = cashOf(today).plus(100).minus(12.35);
    await expect.poll(() => row.getByTestId('close-expected').textContent().then(plain)).toBe(money(expected));
    // 15 cents short: notes and coins for expected − 0.15.
    let rest = expected.minus(0.15);
    for (const value of [50, 20, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01]) {
      const n = rest.div(value).floor();
      if (n.gt(0)) await row.getByTestId(`note-${value}`).fill(String(n));
      rest = rest.minus(n.times(value));
    }
    await expect.poll(() => row.getByTestId('close-difference').textContent().then(plain)).toBe(money(-0.15));
    const printed = printer.cutTickets().length;
    await row.getByTestId('close-save').click();
    await row.getByText('Žiadna otvorená zmena').waitFor();
    const shiftRow = page.locator('[data-testid=shifts-table] tbody tr').first();
    await expect.poll(() => shiftRow.locator('[data-col=difference]').textContent().then(plain)).toBe(money(-0.15));
    expect(plain(await shiftRow.locator('[data-col=counted]').textContent())).toBe(money(expected.minus(0.15)));
    // The report on the page: each movement with its reason, and what each payment type took.
    await shiftRow.click();
    const report = page.getByTestId('shift-report');
    await report.getByText('Dodávateľ – pečivo').waitFor();
    expect(plain(await report.locator('tfoot th').last().textContent())).toBe(money(totalOf(today)));
    await printer.waitFor(() => printer.cutTickets().length === printed + 1);
    const lines = printer.cutTickets()[printed];
    expect(lines[0]).toBe('PREHĽAD ZMENY');
    expect(lines.find((l) => l.startsWith('Rozdiel'))?.replace('Rozdiel', '').trim()).toBe('-0,15');
    await screenshot(page, { path: `${SHOTS}end-of-day-shift-sk-laptop.png`, fullPage: true });
  });

  it('prints the Z report; the page shows the day it closed, with the count', async () => {
    const page = await endOfDay();
    const fiscal = page.getByTestId('fiscal-FP1');
    await fiscal.getByTestId('z-report').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Vytlačiť uzávierku' }).click();
    await expect.poll(() => fiscal.getByTestId('fiscal-message').textContent().then(plain)).toBe(`Uzávierka č. 2 vytlačená: dokladov ${today.length}, ${money(totalOf(today))}.`);
    const day = page.getByTestId('day-FP1-2');
    await day.getByText('Uzavretý (uzávierka Z)').waitFor();
    expect(plain(await day.getByTestId('day-total').textContent())).toBe(money(totalOf(today)));
    expect(plain(await day.getByTestId('day-cash').textContent())).toBe(money(cashOf(today)));
    expect(await day.locator('[data-testid=day-reports] tbody tr[data-kind=Z]').count()).toBe(1);
    expect(plain(await day.locator('[data-testid=day-counts] tbody tr').first().locator('td').nth(4).textContent())).toBe(money(-0.15));
    // Nothing sold since: the open day is empty, and not what the date shows.
    await fiscal.getByText('Od poslednej uzávierky žiadne doklady.').waitFor();
    expect(await page.locator('[data-testid^="day-FP1-3"]').count()).toBe(0);
    await screenshot(page, { path: `${SHOTS}end-of-day-z-sk-laptop.png`, fullPage: true });
  });

  it('downloads the day for POHODA and as a CSV journal, VAT to the cent', async () => {
    const page = await endOfDay();
    await page.getByTestId('export-ico').fill('12345678');
    const [xml] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-pohoda-day').click()]);
    const text = readFileSync((await xml.path())!, 'utf8');
    const byRate = new Map<number, { vat: Decimal; gross: Decimal }>();
    for (const t of today) for (const v of t.vatBreakdown) {
      const s = byRate.get(v.rate) ?? { vat: new Decimal(0), gross: new Decimal(0) };
      byRate.set(v.rate, { vat: s.vat.plus(v.vat), gross: s.gross.plus(v.gross) });
    }
    const items = text.split('<int:intDocItem>').slice(1).map((l) => [Number(/<int:percentVAT>([^<]*)</.exec(l)![1]), /<typ:priceVAT>([^<]*)</.exec(l)![1], /<typ:priceSum>([^<]*)</.exec(l)![1]]);
    expect(items).toEqual([...byRate].sort((a, b) => a[0] - b[0]).map(([rate, s]) => [rate, s.vat.toFixed(2), s.gross.toFixed(2)]));
    expect(text).toContain(`<int:date>${localDay(new Date(today[0].closeDate))}</int:date>`);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv-day').click()]);
    const lines = readFileSync((await csv.path())!, 'utf8').replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0].split(';')[0]).toBe('Dátum');
    const totals = lines.filter((l) => l.startsWith('Spolu;')).map((l) => l.split(';'));
    expect(totals.map((c) => [Number(c[6]), c[8], c[9]])).toEqual([...byRate].sort((a, b) => a[0] - b[0]).map(([rate, s]) => [rate, s.vat.toFixed(2).replace('.', ','), s.gross.toFixed(2).replace('.', ',')]));
  });

  it("shows yesterday's fiscal day, chosen by date", async () => {
    const page = await endOfDay();
    await page.getByRole('button', { name: 'Včera', exact: true }).click();
    const day = page.getByTestId('day-FP1-1');
    await day.getByText('Uzavretý (uzávierka Z)').waitFor();
    expect(plain(await day.getByTestId('day-total').textContent())).toBe(money(totalOf(yesterday)));
    expect(plain(await day.getByTestId('day-tickets').textContent())).toBe(String(yesterday.length));
    expect(await page.locator('[data-testid^="day-FP1-2"]').count()).toBe(0);
  });

  it('fits a phone: the closed day\'s tables (VAT, reports, counts) scroll in their boxes, the page never sideways', async () => {
    const page = await openManagerPage(browser, hub.url, 'sk', { width: 360, height: 640 }, { timezoneId: TZ, user: { name: 'veduca', password: 'pw-veduca-1' } });
    await go(page, '/endofday');
    for (const day of ['Dnes', 'Včera']) {
      await page.getByRole('button', { name: day, exact: true }).click();
      await page.getByTestId('day-vat').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), day).toBe(0);
    }
  });
});
