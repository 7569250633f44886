/**
 * Categories in the manager's page (issue 28, point 3), in Slovak in Chromium: made, coloured,
 * ordered, routed to a printer and renamed from the page alone, each step held against what the hub
 * then stores; a product put in a category from its editor; and what follows for a register's sale —
 * its kitchen orders go where the category is routed, and the Reports page sums its sales by category
 * to the figures this test computes from the items it sold. Screenshots (POS_TEST_SCREENSHOTS=1) at 1366×768 and 800×1280.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';
import { chromiumAvailable, launchChromium, screenshot } from '../support/chromium.js';
import { go, label, openManagerPage, plain, skMoney } from '../support/manager-page.js';

const haveChromium = chromiumAvailable('test/web/categories');
const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const LAPTOP = { width: 1366, height: 768 };
const TABLET = { width: 800, height: 1280 };

const money = (cents: number) => skMoney(cents / 100);

describe.skipIf(!haveChromium)('categories made, ordered, coloured, routed and renamed in the page (Slovak)', () => {
  let hub: TestHub;
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    await ensureWebBuild();
    hub = await startHub({ locale: 'sk', clock: new FakeClock(new Date()) });
    browser = await launchChromium();
    await restaurant(hub);
    // Products with no printer of their own: what they get is their category's routing.
    await expect2xx(hub.call('POST', '/api/plus', { code: 6, name: 'Kapustnica', stockName: 'Menu', type: 'Service', unitPrice: { amount: 3.5 }, vatInfo: { category: 1, rate: 20 } }));
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  const open = (size = LAPTOP): Promise<Page> => openManagerPage(browser, hub.url, 'sk', size, { errors, timezoneId: 'Europe/Bratislava' });
  const get = (url: string) => expect2xx(hub.call('GET', url));
  const rowNames = (page: Page) => page.locator('[data-testid=table-categories] tbody tr td:nth-child(2) b').allTextContents();

  async function newCategory(page: Page, c: { name: string; order: number; color: string; routeTo: string }) {
    await page.getByRole('button', { name: 'Nová kategória' }).click();
    const drawer = page.locator('.drawer');
    await drawer.getByLabel(label('Názov')).fill(c.name);
    await drawer.getByLabel(label('Poradie')).fill(String(c.order));
    await drawer.getByTestId('category-color').fill(c.color);
    await drawer.getByLabel(c.routeTo, { exact: true }).check();
    await drawer.getByTestId('save').click();
    await drawer.waitFor({ state: 'detached' });
  }

  it('makes, colours, orders and routes categories, puts a product in one and renames it keeping its products and printers', async () => {
    const page = await open();
    await go(page, '/catalog/categories');
    await page.getByText('Zatiaľ žiadne kategórie').waitFor();

    await newCategory(page, { name: 'Polievky', order: 2, color: '#FB8C00', routeTo: 'Kitchen' });
    await newCategory(page, { name: 'Nápoje', order: 1, color: '#1e88e5', routeTo: 'Bar' });
    const stored = (await get('/api/categories?$sort=order,name')).items.map((c: any) => [c.name, c.order, c.color]);
    expect(stored).toEqual([
      ['Nápoje', 1, '#1e88e5'],
      ['Polievky', 2, '#fb8c00'],
    ]);
    expect((await get('/api/orderendpoints/Kitchen')).categoryNames).toEqual(['Polievky']);
    expect((await get('/api/orderendpoints/Bar')).categoryNames).toEqual(['Nápoje']);
    await expect.poll(() => rowNames(page)).toEqual(['Nápoje', 'Polievky']);

    // Ordered with the arrows: the list is numbered again in its new order.
    await page.getByRole('button', { name: 'Posunúť Nápoje nižšie' }).click();
    await expect.poll(async () => (await get('/api/categories?$sort=order,name')).items.map((c: any) => [c.name, c.order])).toEqual([
      ['Polievky', 1],
      ['Nápoje', 2],
    ]);
    await expect.poll(() => rowNames(page)).toEqual(['Polievky', 'Nápoje']);

    // A product put in a category from its editor.
    const kapustnica = (await get('/api/plus?code=6')).items[0];
    const voda = (await get('/api/plus?code=4')).items[0];
    await go(page, `/catalog/products?edit=${encodeURIComponent(kapustnica.id)}`);
    await page.getByTestId('plu-edit-category').selectOption('Polievky');
    await page.locator('.drawer').getByTestId('save').click();
    await page.locator('.drawer').waitFor({ state: 'detached' });
    await go(page, `/catalog/products?edit=${encodeURIComponent(voda.id)}`);
    await page.getByTestId('plu-edit-category').selectOption('Nápoje');
    await page.locator('.drawer').getByTestId('save').click();
    await page.locator('.drawer').waitFor({ state: 'detached' });
    expect((await get(`/api/plus/${kapustnica.id}`)).category).toBe('Polievky');
    expect((await get(`/api/plus/${voda.id}`)).category).toBe('Nápoje');

    // Renamed: the product and the printer follow the new name.
    await go(page, '/catalog/categories');
    await page.getByTestId('category-Polievky').click();
    const drawer = page.locator('.drawer');
    await drawer.getByLabel(label('Názov')).fill('Polievky dňa');
    await screenshot(page, { path: `${SHOTS}category-edit-sk-laptop.png` });
    await drawer.getByTestId('save').click();
    await drawer.waitFor({ state: 'detached' });
    expect((await hub.call('GET', `/api/categories/${encodeURIComponent('Polievky')}`)).status).toBe(404);
    expect(await get(`/api/categories/${encodeURIComponent('Polievky dňa')}`)).toMatchObject({ order: 1, color: '#fb8c00' });
    expect((await get(`/api/plus/${kapustnica.id}`)).category).toBe('Polievky dňa');
    expect((await get('/api/orderendpoints/Kitchen')).categoryNames).toEqual(['Polievky dňa']);
    await expect.poll(() => rowNames(page)).toEqual(['Polievky dňa', 'Nápoje']);
    // The products column counts what the hub holds in each.
    const counted = plain(await page.getByTestId('category-Polievky dňa').locator('td').nth(2).textContent());
    expect(counted).toBe(`${(await get(`/api/plus?category=${encodeURIComponent('Polievky dňa')}&$count=true`)).totalCount} produkt`);
    await screenshot(page, { path: `${SHOTS}categories-sk-laptop.png`, fullPage: true });
    await page.context().close();

    const tablet = await open(TABLET);
    await go(tablet, '/catalog/categories');
    await expect.poll(() => rowNames(tablet)).toEqual(['Polievky dňa', 'Nápoje']);
    await screenshot(tablet, { path: `${SHOTS}categories-sk-tablet.png`, fullPage: true });
    await tablet.getByTestId('category-Nápoje').click();
    await tablet.locator('.drawer').getByTestId('category-color').waitFor();
    await screenshot(tablet, { path: `${SHOTS}category-edit-sk-tablet.png` });
    await tablet.context().close();
    expect(errors).toEqual([]);
  });

  it('a sale then prints where its categories go, and the Reports page sums it by category', async () => {
    const cashier = await register(hub);
    const sold = [item(6, 2), item(4, 3), item(1, 1)];
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: sold }, { token: cashier.token }));
    const orders = (await get(`/api/orders?ticketId=${t.id}&$sort=orderEndpointName`)).items;
    expect(orders.map((o: any) => [o.orderEndpointName, o.items.map((i: any) => i.name)])).toEqual([
      ['Bar', ['Voda']],
      ['Kitchen', ['Kapustnica', 'Gulyás']],
    ]);
    await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 20 }] }, { token: cashier.token }));

    // What each category sold, from the prices and quantities this test sold at.
    const price: Record<number, number> = { 6: 350, 4: 10, 1: 690 };
    const category: Record<number, string> = { 6: 'Polievky dňa', 4: 'Nápoje', 1: '' };
    const want = new Map<string, number>();
    for (const it of sold) want.set(category[it.plu.code], (want.get(category[it.plu.code]) ?? 0) + price[it.plu.code] * it.quantity);

    const page = await open();
    await go(page, '/reports');
    await page.getByRole('button', { name: 'Dnes', exact: true }).click();
    await page.getByTestId('report-group').selectOption('category');
    const net = (key: string) => page.locator(`[data-testid=sales-table] tr[data-key="${key}"] [data-col="net"]`);
    for (const name of ['Polievky dňa', 'Nápoje']) await expect.poll(() => net(name).textContent().then(plain)).toBe(money(want.get(name)!));
    expect(plain(await page.locator('[data-testid=sales-table] tr[data-key="Polievky dňa"] [data-col="label"]').textContent())).toBe('Polievky dňa');
    await screenshot(page, { path: `${SHOTS}reports-category-sk-laptop.png`, fullPage: true });
    await page.context().close();
    expect(errors).toEqual([]);
  });
});
