/**
 * Stored values no page can be broken by (CONTRACT §12 "Pages", "Text"): names of 4,000 characters
 * without a space, markup (`<img src=x onerror=…>`, `"><svg onload=…>`), right-to-left marks, zero-width
 * characters and emoji, stored through the API in a product, a stock, a user, a register, a kitchen
 * display's endpoint, a zone's table, a customer and an open ticket — then the manager's page, the
 * register and the kitchen display in Debian's Chromium: nothing runs (no dialog, no element made of
 * the markup), nothing fails, and the page keeps its shape — no table tens of thousands of pixels wide,
 * no page that scrolls sideways, no button pushed out of its bar or drawer.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { go, openManagerPage } from '../support/manager-page.js';
import { openRegister, setUpWithPassword, SIZES } from '../support/register-page.js';
import { ALL_TICKET_RIGHTS, expect2xx } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';

const haveChromium = chromiumAvailable('test/web/hostile-values');

const MARKUP = `<img src=x onerror=alert(1)>"><svg onload=alert(2)>\u202Eevil\u202C\u200F👩‍👩‍👧‍👦a\u200Bb\uFEFF`;
/** A name at the API's limit of 4,000 characters: the markup, then one word of 3,900 letters. */
const long = (tag: string) => `${MARKUP}${tag}${'W'.repeat(3900)}`.slice(0, 4000);
const STOCK = long('stock');
const DEVICE = long('register');
const ENDPOINT = long('kitchen');
const ZONE = long('zone');
const TABLE = `${MARKUP}T1`.slice(0, 100);
const WAITER = { userName: 'waiter', password: 'pw-waiter', name: long('waiter') };

/** What the page made of the markup, or an element it could not contain. */
async function shapeOf(page: Page): Promise<{ injected: string[]; sideways: number; widest: number }> {
  return page.evaluate(() => ({
    injected: [...document.querySelectorAll('img[src="x"], svg[onload], [onerror], [onload], script:not([src])')].map((e) => e.outerHTML.slice(0, 80)),
    sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    widest: Math.max(0, ...[...document.querySelectorAll('body *')].map((e) => Math.max(e.scrollWidth, e.getBoundingClientRect().width))),
  }));
}

/** Whether `inner` lies inside `outer` (and so inside the window when `outer` is), to the pixel. */
async function inside(inner: Locator, outer: Locator): Promise<boolean> {
  const [a, b] = await Promise.all([inner.first().boundingBox(), outer.first().boundingBox()]);
  if (!a || !b) throw new Error(`${String(inner)} or ${String(outer)} is not shown`);
  return a.x >= b.x - 1 && a.y >= b.y - 1 && a.x + a.width <= b.x + b.width + 1 && a.y + a.height <= b.y + b.height + 1;
}

/** Whether `element` is all within the window, as the page opened it (no scrolling needed to reach it). */
async function onScreen(page: Page, element: Locator): Promise<boolean> {
  const box = await element.first().boundingBox();
  const view = page.viewportSize()!;
  if (!box) throw new Error(`${String(element)} is not shown`);
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= view.width + 1 && box.y + box.height <= view.height + 1;
}

describe.skipIf(!haveChromium)('hostile stored values on the pages', () => {
  let hub: TestHub;
  let browser: Browser;
  const errors: string[] = [];
  const dialogs: string[] = [];
  const watch = (page: Page) => {
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  };

  beforeAll(async () => {
    await ensureWebBuild();
    hub = await startHub();
    browser = await launchChromium();
    await expect2xx(hub.call('POST', '/api/stocks', { name: STOCK, description: long('description') }));
    await expect2xx(hub.call('POST', '/api/orderendpoints', { name: ENDPOINT, type: 'Tablet' }));
    await expect2xx(hub.call('POST', '/api/fiscaldevices', { name: 'FP1', driver: 'simulator', address: 'sim:fp1' }));
    await expect2xx(
      hub.call('POST', '/api/plus', { code: 1, stockName: STOCK, name: long('plu'), type: 'Service', unitPrice: { amount: 2.5 }, vatInfo: { category: 1, rate: 20 }, orderEndpointNames: [ENDPOINT] }),
    );
    await expect2xx(hub.call('POST', '/api/zones', { name: ZONE, tables: [{ name: TABLE, x: 0, y: 0, width: 2, height: 2, shape: 'Round', seats: 4 }] }));
    await expect2xx(hub.call('POST', '/api/devices', { name: DEVICE, envName: 'CashRegister', description: long('about'), settings: { DefaultFiscalName: 'FP1', DefaultStockName: STOCK } }));
    await expect2xx(hub.call('POST', '/api/users', { ...WAITER, rights: [...ALL_TICKET_RIGHTS] }));
    await expect2xx(hub.call('POST', '/api/customers', { firstName: long('first'), lastName: long('last'), email: 'a"><img src=x onerror=alert(7)>@example.com' }));
    const token = await hub.login(WAITER.userName, WAITER.password, DEVICE);
    await expect2xx(
      hub.call('POST', '/api/tickets', { name: long('ticket'), note: long('note'), location: { tableName: TABLE, zoneName: ZONE }, items: [{ plu: { code: 1, stockName: STOCK }, quantity: 2, comment: long('comment') }] }, { token }),
    );
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it("the manager's page: every view keeps its shape and runs nothing; a drawer keeps its close button", async () => {
    const page = await openManagerPage(browser, hub.url, 'en', SIZES.laptop, { errors });
    watch(page);
    for (const view of ['/today', '/tickets', '/devices', '/catalog/products', '/catalog/stocks', '/customers', '/settings/users', '/settings/devices', '/settings/registers']) {
      await go(page, view);
      await page.locator('.main h1').first().waitFor();
      // The list has come: a row, a card or a device that shows a stored name.
      await page.locator('.main :is(td, .table-card, .device, li)', { hasText: 'WWWWWWWWWW' }).first().waitFor();
      const shape = await shapeOf(page);
      expect(shape.injected, view).toEqual([]);
      expect(shape.sideways, view).toBeLessThanOrEqual(0);
      // A table may scroll within its card, but by a few columns' width, not by the 4,000 letters.
      expect(shape.widest, view).toBeLessThan(5000);
    }
    await go(page, '/customers');
    await page.locator('.main tr.clickable').first().click();
    await page.locator('.drawer-head h2').waitFor();
    expect(await inside(page.locator('.drawer-head .icon-btn'), page.locator('.drawer'))).toBe(true);
    expect(await onScreen(page, page.locator('.drawer-head .icon-btn'))).toBe(true);
    expect([errors, dialogs]).toEqual([[], []]);
  });

  it('the register: the table tile holds its waiter, and the connection stays readable beside a long register name', async () => {
    const tab = await openRegister(browser, hub.url, 'en', SIZES.laptop, { errors });
    watch(tab.page);
    await setUpWithPassword(tab, DEVICE, WAITER.userName, WAITER.password);
    const tile = tab.page.getByTestId(`table-${TABLE}`);
    await tile.locator('.table-waiter').waitFor();
    expect(await inside(tile.locator('.table-waiter'), tile)).toBe(true);
    // "Online" in full, not "O…".
    const conn = tab.page.locator('.conn');
    await expect.poll(() => conn.textContent()).toBe('Online');
    expect(await conn.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    const shape = await shapeOf(tab.page);
    expect([shape.injected, shape.sideways]).toEqual([[], 0]);
    expect([errors, dialogs]).toEqual([[], []]);
    await tab.context.close();
  });

  it("the kitchen display: Recall and Log out stay in the bar beside the endpoint's long name", async () => {
    const context = await browser.newContext({ viewport: SIZES.laptop, locale: 'en-GB', reducedMotion: 'reduce' });
    await context.addInitScript(() => localStorage.setItem('poshub.language', 'en'));
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    watch(page);
    await page.goto(`${hub.url}/kds/${encodeURIComponent(ENDPOINT)}`);
    // The pairing screen names the endpoint and keeps its keypad and button on the screen.
    expect(await page.locator('.login-card h1').evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    expect(await onScreen(page, page.getByRole('button', { name: 'Pair', exact: true }))).toBe(true);
    const { code } = await expect2xx(hub.call('POST', '/api/kds/pairings', { orderEndpointName: ENDPOINT }));
    for (const digit of code as string) await page.getByRole('button', { name: digit, exact: true }).click();
    await page.locator('[data-testid=conn]', { hasText: 'Live' }).waitFor();
    await page.locator('[data-order-id]').first().waitFor();
    for (const button of ['[data-testid=recall]', '[data-testid=logout]', '[data-testid=history-toggle]']) {
      expect(await inside(page.locator(button), page.locator('header.top')), button).toBe(true);
      expect(await onScreen(page, page.locator(button)), button).toBe(true);
    }
    const shape = await shapeOf(page);
    expect([shape.injected, shape.sideways]).toEqual([[], 0]);
    expect([errors, dialogs]).toEqual([[], []]);
    await context.close();
  });
});
