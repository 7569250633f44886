/**
 * Stock value in the manager's page (issue 28, point 8), in Slovak in Chromium: a product's unit set
 * in its editor shows on its stock figures; goods received from the page with their supplier and
 * purchase prices reach the hub, average into the cost price and show their value; the Stocks tab
 * shows each stock's value now and the cost of the goods a register sold — every figure held against
 * what this test computes from the quantities and prices it used. Screenshots (POS_TEST_SCREENSHOTS=1) at 1366×768 and 800×1280.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, register, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';
import { chromiumAvailable, launchChromium, screenshot } from '../support/chromium.js';
import { go, label, openManagerPage, plain, skMoney } from '../support/manager-page.js';

const haveChromium = chromiumAvailable('test/web/stock-value');
const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const LAPTOP = { width: 1366, height: 768 };
const TABLET = { width: 800, height: 1280 };

const money = (cents: number) => skMoney(cents / 100);
const qty = (n: number) => new Intl.NumberFormat('sk', { maximumFractionDigits: 4 }).format(n).replace(/[\u00a0\u202f]/g, ' ');

describe.skipIf(!haveChromium)('stock value in the page (Slovak)', () => {
  let hub: TestHub;
  let browser: Browser;
  const errors: string[] = [];
  let bryndza: { id: string };

  beforeAll(async () => {
    await ensureWebBuild();
    hub = await startHub({ locale: 'sk', clock: new FakeClock(new Date()) });
    browser = await launchChromium();
    await restaurant(hub);
    await expect2xx(hub.call('POST', '/api/stocks', { name: 'Sklad' }));
    bryndza = await expect2xx(hub.call('POST', '/api/plus', { code: 501, name: 'Bryndza', stockName: 'Sklad', type: 'StockItem', vatInfo: { category: 2, rate: 19 } }));
    // 4 kg already in stock at 8,00 € a kilogram.
    await expect2xx(hub.call('POST', '/api/stocktransfers', { type: 'Income', targetStockName: 'Sklad', items: [{ plu: { code: 501 }, quantity: 4, costPrice: { amount: 8 } }] }));
    // A dish whose recipe takes 0,15 kg of it.
    await expect2xx(
      hub.call('POST', '/api/plus', { code: 30, name: 'Bryndzové halušky', stockName: 'Menu', type: 'Recipe', unitPrice: { amount: 8.9 }, vatInfo: { category: 1, rate: 19 }, receipt: [{ pluId: { code: 501, stockName: 'Sklad' }, quantity: 0.15 }] }),
    );
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  const open = (size = LAPTOP): Promise<Page> => openManagerPage(browser, hub.url, 'sk', size, { errors, timezoneId: 'Europe/Bratislava' });
  const get = (url: string) => expect2xx(hub.call('GET', url));

  it('a unit on every stock figure, an income with its supplier and purchase prices, and what the stocks are worth', async () => {
    const page = await open();
    // The unit, set in the product's editor.
    await go(page, `/catalog/products?edit=${encodeURIComponent(bryndza.id)}`);
    const drawer = page.locator('.drawer');
    await drawer.getByTestId('plu-unit').fill('kg');
    await drawer.getByTestId('save').click();
    await drawer.waitFor({ state: 'detached' });
    expect((await get(`/api/plus/${bryndza.id}`)).unit).toBe('kg');
    await go(page, '/catalog/products?stock=Sklad');
    await expect.poll(() => page.getByTestId('qty-501').textContent().then(plain)).toBe(`${qty(4)} kg`);

    // Goods received from the page: 6 kg at 9,50 € from a supplier.
    await go(page, '/catalog/transfers');
    await page.getByRole('button', { name: 'Nový pohyb' }).click();
    await drawer.getByLabel(label('Do skladu')).selectOption('Sklad');
    await drawer.getByTestId('supplier-name').fill('Mliekareň Liptov s.r.o.');
    await drawer.getByTestId('supplier-company-id').fill('36123456');
    await drawer.getByTestId('supplier-document').fill('DL 2026/118');
    await drawer.getByRole('button', { name: 'Pridať položku' }).click();
    await drawer.getByLabel(label('Produkt')).selectOption('501');
    await drawer.getByLabel(label('Množstvo')).fill('6');
    await drawer.getByTestId('item-cost').fill('9,5');
    // The quantity shows its unit.
    expect(plain(await drawer.locator('.row-item .suffix').first().textContent())).toBe('kg');
    await screenshot(page, { path: `${SHOTS}income-supplier-sk-laptop.png` });
    await drawer.getByTestId('save').click();
    await drawer.waitFor({ state: 'detached' });

    const [income] = (await get('/api/stocktransfers?type=Income&supplierName=contains:Liptov')).items;
    expect(income.supplier).toEqual({ name: 'Mliekareň Liptov s.r.o.', companyId: '36123456', vatId: null, documentNumber: 'DL 2026/118' });
    expect(income.items).toEqual([{ plu: { code: 501, stockName: 'Sklad' }, quantity: 6, costPrice: { amount: 9.5 } }]);
    // The cost price averages: (4 × 8,00 + 6 × 9,50) / 10 = 8,90 € a kilogram.
    const averaged = (4 * 800 + 6 * 950) / 10;
    expect(Math.round((await get(`/api/plus/${bryndza.id}`)).costPrice.amount * 100)).toBe(averaged);
    // The document's value, in its detail.
    await page.locator('[data-testid=table-stocktransfers] tbody tr', { hasText: income.documentNumber }).click();
    await expect.poll(() => page.getByTestId('transfer-total-cost').textContent().then(plain)).toBe(money(6 * 950));
    expect(plain(await page.locator('.drawer').textContent())).toContain('Mliekareň Liptov s.r.o.');
    // The unit comes with the products' names, read after the document itself: wait for them.
    await expect.poll(() => page.locator('.drawer table').textContent().then(plain)).toContain(`${qty(6)} kg`);
    await screenshot(page, { path: `${SHOTS}income-detail-sk-laptop.png` });
    await page.keyboard.press('Escape');

    // A register sells 4 portions: 4 × 0,15 = 0,6 kg leave the stock at the average cost.
    const cashier = await register(hub);
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [{ plu: { code: 30, stockName: 'Menu' }, quantity: 4 }] }, { token: cashier.token }));
    await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 40 }] }, { token: cashier.token }));
    const cogs = Math.round(0.6 * averaged);
    const valueNow = Math.round((10 - 0.6) * averaged);

    await go(page, '/catalog/stocks');
    const cell = (key: string, col: string) => page.locator(`[data-testid=stock-value] tr[data-key="${key}"] [data-col="${col}"]`);
    await expect.poll(() => cell('Sklad', 'value').textContent().then(plain)).toBe(money(valueNow));
    expect(plain(await cell('Sklad', 'received').textContent())).toBe(money(4 * 800 + 6 * 950));
    expect(plain(await cell('Sklad', 'costOfGoodsSold').textContent())).toBe(money(cogs));
    expect(plain(await cell('totals', 'value').textContent())).toBe(money(valueNow));
    await screenshot(page, { path: `${SHOTS}stock-value-sk-laptop.png`, fullPage: true });
    await page.context().close();

    const tablet = await open(TABLET);
    await go(tablet, '/catalog/stocks');
    await expect.poll(() => tablet.locator('[data-testid=stock-value] tr[data-key="Sklad"] [data-col="value"]').textContent().then(plain)).toBe(money(valueNow));
    await screenshot(tablet, { path: `${SHOTS}stock-value-sk-tablet.png`, fullPage: true });
    await go(tablet, `/catalog/transfers?doc=${encodeURIComponent(income.id)}`);
    await tablet.getByTestId('transfer-total-cost').waitFor();
    await screenshot(tablet, { path: `${SHOTS}income-detail-sk-tablet.png` });
    await tablet.context().close();
    expect(errors).toEqual([]);
  });
});
