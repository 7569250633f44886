/**
 * Products and stock in Chromium (issue 21, item 8), in Slovak and in English, on a laptop and a
 * portrait tablet: the low-stock list, the category filter, the barcode lookup, a recipe made with
 * a category, cost price, barcode and parts chosen by name (what is saved reaches the hub, the
 * margin shown is the hub's); a new stock transfer with no blank row; a stock taking closed with
 * part of its products counted, after a warning that says what the shortages are worth.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';
import { chromiumAvailable, launchChromium, screenshot } from '../support/chromium.js';
import { go, label, openManagerPage, type Lang } from '../support/manager-page.js';

const haveChromium = chromiumAvailable('test/web/catalog-stock');
const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

const VARIANTS: Array<{ lang: Lang; size: { name: string; width: number; height: number } }> = [
  { lang: 'sk', size: { name: 'laptop', width: 1366, height: 768 } },
  { lang: 'en', size: { name: 'tablet', width: 800, height: 1280 } },
];

const locale = (lang: Lang) => (lang === 'en' ? 'en-GB' : 'sk');
const money = (lang: Lang, n: number) => `${new Intl.NumberFormat(locale(lang), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n)} €`;
const percent = (lang: Lang, n: number) => `${new Intl.NumberFormat(locale(lang), { maximumFractionDigits: 4 }).format(n)} %`;
/** A number as a person types it in that language ("0,35" in Slovak). */
const typed = (lang: Lang, n: number) => (lang === 'sk' ? String(n).replace('.', ',') : String(n));
const plain = (s: string | null) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');

/** `body` (7 or 12 digits) with its EAN check digit. */
function ean(body: string): string {
  const sum = [...body].reverse().reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return body + String((10 - (sum % 10)) % 10);
}

const W = {
  sk: { newProduct: 'Nový produkt', name: 'Názov', code: 'Kód', stock: 'Sklad', type: 'Typ', price: 'Cena', addPart: 'Pridať surovinu', qty: 'Množstvo', low: 'Dochádza na sklade', newTransfer: 'Nový pohyb', toStock: 'Do skladu', needItems: 'Pridajte aspoň jednu položku.', addItem: 'Pridať položku', product: 'Produkt', note: 'Poznámka', close: 'Uzavrieť a opraviť sklad', partial: 'Spočítané produkty: 2 z 3', below: '1 produkt pod očakávaným množstvom' },
  en: { newProduct: 'New product', name: 'Name', code: 'Code', stock: 'Stock', type: 'Type', price: 'Price', addPart: 'Add part', qty: 'Quantity', low: 'Low on stock', newTransfer: 'New transfer', toStock: 'To stock', needItems: 'Add at least one item.', addItem: 'Add item', product: 'Product', note: 'Note', close: 'Close and correct stock', partial: '2 of 3 products are counted', below: '1 product below the expected quantity' },
};

describe.skipIf(!haveChromium)('products and stock, in Slovak and English', () => {
  let hub: TestHub;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];
  const potatoes = ean('858600000123');

  async function open(lang: Lang, size: { width: number; height: number }): Promise<Page> {
    const page = await openManagerPage(browser, hub.url, lang, size, { errors: pageErrors });
    contexts.push(page.context());
    expect(await page.locator('html').getAttribute('lang')).toBe(lang);
    return page;
  }

  const shot = (page: Page, name: string, lang: Lang, size: string) => screenshot(page, { path: `${SHOTS}${name}-${lang}-${size}.png` });
  const get = async (url: string) => expect2xx(hub.call('GET', url));
  const names = (items: Array<{ name: string }>) => items.map((p) => p.name).sort();

  beforeAll(async () => {
    await ensureWebBuild();
    hub = await startHub({ locale: 'sk' });
    browser = await launchChromium();
    await restaurant(hub);
    await expect2xx(hub.call('POST', '/api/stocks', { name: 'Sklad' }));
    for (const name of ['Jedlo', 'Nápoje']) await expect2xx(hub.call('POST', '/api/categories', { name }));
    await expect2xx(hub.call('POST', '/api/plus', { code: 10, name: 'Pstruh', stockName: 'Menu', type: 'Service', category: 'Jedlo', unitPrice: { amount: 12 }, vatInfo: { category: 1, rate: 20 } }));
    await expect2xx(hub.call('POST', '/api/plus', { code: 11, name: 'Kofola', stockName: 'Menu', type: 'Service', category: 'Nápoje', unitPrice: { amount: 2 }, vatInfo: { category: 1, rate: 20 } }));
    await expect2xx(hub.call('POST', '/api/plus', { code: 501, name: 'Bryndza', stockName: 'Sklad', type: 'StockItem', costPrice: { amount: 4 }, minimumQuantity: 20 }));
    await expect2xx(hub.call('POST', '/api/plus', { code: 502, name: 'Zemiaky', stockName: 'Sklad', type: 'StockItem', costPrice: { amount: 0.5 }, barcode: potatoes }));
    await expect2xx(hub.call('POST', '/api/plus', { code: 503, name: 'Kyslá kapusta', stockName: 'Sklad', type: 'StockItem', unitPrice: { amount: 2 } }));
    await expect2xx(
      hub.call('POST', '/api/stocktransfers', {
        type: 'Income',
        targetStockName: 'Sklad',
        items: [
          { plu: { code: 501 }, quantity: 10 },
          { plu: { code: 502 }, quantity: 50 },
          { plu: { code: 503 }, quantity: 8 },
        ],
      }),
    );
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await hub?.close();
  });

  for (const { lang, size } of VARIANTS) {
    const w = W[lang];
    describe(`${lang}, ${size.name}`, () => {
      it('lists low stock, filters by category and barcode, and saves a recipe with its parts chosen by name', async () => {
        const page = await open(lang, size);
        await go(page, '/catalog/products');
        const table = page.getByTestId('table-plus');
        const rows = table.locator('tbody tr');

        // Low stock: what the hub lists with IsBelowMinimum=true.
        const low = (await get('/api/plus?isBelowMinimum=eq:true')).items;
        expect(names(low)).toEqual(['Bryndza']);
        const lowBox = page.getByTestId('low-stock');
        await lowBox.getByText(w.low, { exact: false }).waitFor();
        expect((await lowBox.locator('li').allTextContents()).map((t) => t.split(' (')[0]).sort()).toEqual(names(low));
        await shot(page, 'products-low-stock', lang, size.name);

        // The category filter shows the hub's answer for that category.
        await rows.first().waitFor();
        const food = (await get('/api/plus?category=eq:Jedlo')).items;
        await page.getByTestId('plu-category').selectOption('Jedlo');
        await page.waitForFunction((n) => document.querySelectorAll('[data-testid=table-plus] tbody tr').length === n && !document.querySelector('[data-testid=table-plus] table[aria-busy=true]'), food.length);
        const shown = await table.locator('tbody tr td:nth-child(2)').allTextContents();
        expect(shown.sort()).toEqual(names(food));
        await page.getByTestId('plu-category').selectOption('');

        // A scanned barcode finds its product.
        await page.getByTestId('plu-barcode').fill(potatoes);
        // One row, and it is the scanned one: a count alone could pass on an answer to an earlier filter.
        await page.waitForFunction(() => {
          const trs = document.querySelectorAll('[data-testid=table-plus] tbody tr');
          return trs.length === 1 && (trs[0]!.textContent ?? '').includes('Zemiaky');
        });
        await page.getByTestId('plu-barcode').fill('');

        // A new recipe: category, cost price, barcode, parts by name.
        const name = `Bryndzové halušky ${lang}`;
        const code = lang === 'sk' ? 20 : 21;
        const barcode = ean(lang === 'sk' ? '4006381' : '4006382');
        await page.getByRole('button', { name: w.newProduct }).click();
        const drawer = page.locator('.drawer');
        await drawer.getByLabel(label(w.name)).fill(name);
        await drawer.getByLabel(label(w.code)).fill(String(code));
        await drawer.getByLabel(label(w.stock)).selectOption('Menu');
        await drawer.getByTestId('plu-edit-category').selectOption('Jedlo');
        await drawer.getByLabel(label(w.type)).selectOption('Recipe');
        await drawer.getByLabel(label(w.price)).fill(typed(lang, 8.9));
        await drawer.getByTestId('plu-cost').fill(typed(lang, 3.1));
        await drawer.getByTestId('plu-edit-barcode').fill(barcode);
        // No words of the API on the form.
        expect(await drawer.textContent()).not.toMatch(/StockItem|\bplu\b/);
        await drawer.getByRole('button', { name: w.addPart }).click();
        await drawer.getByTestId('part-picker').nth(0).fill('Bryndza · Sklad');
        await drawer.getByLabel(label(w.qty)).nth(0).fill(typed(lang, 0.2));
        await drawer.getByRole('button', { name: w.addPart }).click();
        await drawer.getByTestId('part-picker').nth(1).fill('Zemiaky');
        await drawer.getByLabel(label(w.qty)).nth(1).fill(typed(lang, 0.35));
        await shot(page, 'recipe-new', lang, size.name);
        await drawer.getByTestId('save').click();
        await drawer.waitFor({ state: 'detached' });

        const [saved] = (await get(`/api/plus?name=eq:${encodeURIComponent(name)}`)).items;
        expect(saved).toMatchObject({ code, stockName: 'Menu', type: 'Recipe', category: 'Jedlo', costPrice: { amount: 3.1 }, barcode, unitPrice: { amount: 8.9 } });
        expect(saved.receipt.map((r: { pluId: { code: number; stockName: string }; quantity: number }) => [r.pluId.code, r.pluId.stockName, r.quantity])).toEqual([
          [501, 'Sklad', 0.2],
          [502, 'Sklad', 0.35],
        ]);
        expect(saved.margin.amount).toBeGreaterThan(0);

        // Opened again: the hub's margin, and the parts by name.
        await go(page, `/catalog/products?edit=${encodeURIComponent(saved.id)}`);
        const margin = page.getByTestId('plu-margin');
        await margin.getByText(money(lang, saved.margin.amount), { exact: false }).waitFor();
        expect(plain(await margin.textContent())).toContain(plain(percent(lang, saved.margin.rate)));
        await expect.poll(() => page.getByTestId('part-picker').nth(0).inputValue()).toBe('Bryndza · Sklad');
        expect(await page.getByTestId('part-picker').nth(1).inputValue()).toBe('Zemiaky · Sklad');
        await shot(page, 'recipe-saved', lang, size.name);
        expect(pageErrors).toEqual([]);
      });

      it('posts a new transfer that starts without a blank row', async () => {
        const before = (await get('/api/stocktransfers?type=eq:Income')).totalCount as number;
        const page = await open(lang, size);
        await go(page, '/catalog/transfers');
        await page.getByRole('button', { name: w.newTransfer }).click();
        const drawer = page.locator('.drawer');
        await drawer.getByLabel(label(w.toStock)).selectOption('Sklad');
        expect(await drawer.locator('.row-item').count()).toBe(0);
        await drawer.getByTestId('save').click();
        await drawer.getByText(w.needItems).waitFor();
        await drawer.getByRole('button', { name: w.addItem }).click();
        await drawer.getByLabel(label(w.product)).selectOption('502');
        await drawer.getByLabel(label(w.qty)).fill(typed(lang, 2.5));
        await drawer.getByLabel(label(w.note)).fill(`delivery ${lang}`);
        await shot(page, 'transfer-new', lang, size.name);
        await drawer.getByTestId('save').click();
        await drawer.waitFor({ state: 'detached' });
        const after = await get('/api/stocktransfers?type=eq:Income');
        expect(after.totalCount).toBe(before + 1);
        const posted = after.items.filter((d: { note: string | null }) => d.note === `delivery ${lang}`);
        expect(posted.length).toBe(1);
        expect(posted[0].items.map((i: { plu: { code: number }; quantity: number }) => [i.plu.code, i.quantity])).toEqual([[502, 2.5]]);
      });

      it('closes a stock taking with part of it counted, after showing what the shortage is worth', async () => {
        const qty = async () => Object.fromEntries(((await get('/api/plus?stockName=eq:Sklad')).items as Array<{ code: number; stockQuantity: number }>).map((p) => [p.code, p.stockQuantity]));
        const start = await qty();
        const taking = await expect2xx(
          hub.call('POST', '/api/stocktakings', { note: `count ${lang}`, items: [501, 502, 503].map((code) => ({ plu: { code, stockName: 'Sklad' }, actualQuantity: null })) }),
        );
        const page = await open(lang, size);
        await go(page, `/catalog/stocktakings/${encodeURIComponent(taking.id)}`);
        const input = (code: number) => page.getByTestId(`count-${code}`).locator('input');
        await input(501).fill(typed(lang, start[501] - 2));
        await input(502).fill(typed(lang, start[502] + 1));
        await page.getByTestId('close-count').click();

        // The warning: what is counted, and the shortage at cost price (2 × 4,00 €).
        const dialog = page.getByRole('alertdialog');
        await dialog.getByTestId('close-summary').waitFor();
        expect(await dialog.getByTestId('close-partial').textContent()).toContain(w.partial);
        const loss = plain(await dialog.getByTestId('close-loss').textContent());
        // A shortage is said as what it is worth, not as a negative amount ("Manko: -8,00 €" said it twice).
        expect(loss).toContain(plain(money(lang, 8)));
        expect(loss).not.toMatch(/[-−]\s?8/);
        expect(loss).toContain(w.below);
        await shot(page, 'stocktaking-close', lang, size.name);
        await dialog.getByRole('button', { name: w.close }).click();
        await page.getByTestId('correction-number').waitFor();

        const closed = await get(`/api/stocktakings/${encodeURIComponent(taking.id)}`);
        expect(closed.closedAt).toBeTruthy();
        expect(closed.items.map((i: { plu: { code: number } }) => i.plu.code)).toEqual([501, 502]);
        const end = await qty();
        expect(end).toEqual({ 501: start[501] - 2, 502: start[502] + 1, 503: start[503] });
        await shot(page, 'stocktaking-closed', lang, size.name);
      });
    });
  }

  it("shows the hub's refusal of a transfer's product under that product, in the page's language", async () => {
    const page = await open('sk', VARIANTS[0].size);
    await go(page, '/catalog/transfers');
    await page.getByRole('button', { name: W.sk.newTransfer }).click();
    const drawer = page.locator('.drawer');
    await drawer.getByLabel(label(W.sk.type)).selectOption('Transfer');
    await drawer.getByLabel(label('Zo skladu')).selectOption('Sklad');
    await drawer.getByLabel(label(W.sk.toStock)).selectOption('Menu');
    await drawer.getByRole('button', { name: W.sk.addItem }).click();
    // Bryndza is not kept in the Menu stock: the hub names the item's plu.
    await drawer.getByLabel(label(W.sk.product)).selectOption('501');
    await drawer.getByLabel(label(W.sk.qty)).fill('1');
    await drawer.getByTestId('save').click();
    const product = drawer.locator('.field', { has: page.getByLabel(label(W.sk.product)) });
    await expect.poll(() => product.locator('.field-error').textContent()).toBe("Plu 501 neexistuje v cieľovom sklade 'Menu'.");
    // Not a path of the hub's in English words above the form.
    expect(await drawer.getByText(/Items 1/).count()).toBe(0);
  });

  it("keeps a product's edits through a delivery of it, and says so only when someone changed the same field", async () => {
    const sauerkraut = (await get('/api/plus?code=eq:503&stockName=eq:Sklad')).items[0];
    await expect2xx(hub.call('PUT', `/api/plus/${encodeURIComponent(sauerkraut.id)}`, { ...sauerkraut, vatInfo: { category: 1, rate: 20 } }));
    const page = await open('sk', VARIANTS[0].size);
    await go(page, '/catalog/products');
    await page.getByRole('cell', { name: 'Kyslá kapusta', exact: true }).click();
    const drawer = page.locator('.drawer');
    await drawer.getByLabel(label(W.sk.price)).fill('2,40');
    // A delivery while the price is being typed changes the product's stockQuantity (and its _v).
    const before = (await get('/api/plus?code=eq:503&stockName=eq:Sklad')).items[0];
    await expect2xx(hub.call('POST', '/api/stocktransfers', { type: 'Income', targetStockName: 'Sklad', items: [{ plu: { code: 503 }, quantity: 12 }] }));
    await expect.poll(() => drawer.textContent().then(plain)).toContain(`Na sklade: ${before.stockQuantity + 12}`);
    expect(await drawer.getByLabel(label(W.sk.price)).inputValue()).toBe('2,40');
    await drawer.getByTestId('save').click();
    await drawer.waitFor({ state: 'detached' });
    const saved = (await get('/api/plus?code=eq:503&stockName=eq:Sklad')).items[0];
    expect([saved.unitPrice.amount, saved.stockQuantity]).toEqual([2.4, before.stockQuantity + 12]);

    // Someone else's new price while this one is typed: said, and the save is refused, not merged.
    await page.getByRole('cell', { name: 'Kyslá kapusta', exact: true }).click();
    await drawer.getByLabel(label(W.sk.price)).fill('2,60');
    await expect2xx(hub.call('PUT', `/api/plus/${encodeURIComponent(saved.id)}`, { ...saved, unitPrice: { amount: 2.5 } }));
    await drawer.getByText('Kým ste upravovali, niekto iný zmenil tento záznam').waitFor();
    expect(await drawer.getByLabel(label(W.sk.price)).inputValue()).toBe('2,60');
  });
});
