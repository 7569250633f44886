/**
 * The Reports page (issue 21) in Debian's Chromium, in a Slovak shop: tickets are made and closed
 * through the API, then the sales on screen (totals, by product, by payment type) are held against
 * sums this test computes from the tickets it made — not from the report API — in Slovak on a
 * laptop and in English on a portrait tablet. The CSV export downloads a file with those rows; the
 * fiscal day's cash count shows the drawer's difference. Screenshots, with POS_TEST_SCREENSHOTS=1, go to test/web/screenshots/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';
import { chromiumAvailable, launchChromium, screenshot } from '../support/chromium.js';
import { go, openManagerPage, plain, VARIANTS, type Lang } from '../support/manager-page.js';

const haveChromium = chromiumAvailable('test/web/reports');
const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const TZ = 'Europe/Bratislava';

const WORDS = {
  sk: { menu: 'Prehľady', today: 'Dnes', record: 'Zaznamenať počítanie', groupPayment: 'payment', separator: ';' },
  en: { menu: 'Reports', today: 'Today', record: 'Record the count', groupPayment: 'payment', separator: ',' },
};

/** Prices of the fixture's products (test/tickets/fixture.ts). */
const PRICE: Record<number, number> = { 1: 6.9, 2: 4.5, 3: 2.2, 4: 0.1, 5: 0.2 };
const NAME: Record<number, string> = { 1: 'Gulyás', 2: 'Šopský šalát', 3: 'Pivo' };

const cents = (n: number) => Math.round(n * 100);
/** Money as a person reads it in that language: 1 234,50 € / 1,234.50 €. */
const money = (c: number, lang: Lang) => `${new Intl.NumberFormat(lang === 'en' ? 'en-GB' : 'sk', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(c / 100)} €`.replace(/[\u00a0\u202f]/g, ' ');
const qty = (n: number, lang: Lang) => new Intl.NumberFormat(lang === 'en' ? 'en-GB' : 'sk', { maximumFractionDigits: 4 }).format(n);

interface Expected {
  byProduct: Map<number, { quantity: number; gross: number; discounts: number }>;
  gross: number;
  discounts: number;
  net: number;
  vat: number;
  cash: number;
  card: number;
}

describe.skipIf(!haveChromium)('the Reports page shows the sales of the tickets closed, and counts the drawer', () => {
  let hub: TestHub;
  let browser: Browser;
  const want: Expected = { byProduct: new Map(), gross: 0, discounts: 0, net: 0, vat: 0, cash: 0, card: 0 };

  /** Sells a ticket and adds it to the expected sums: item lines at their prices, discounts to the cent. */
  async function sell(who: { token: string }, body: { discountRate?: number; items: Array<ReturnType<typeof item>> }, payments: Array<{ paymentTypeNumber: number; amount: number }>) {
    const t = await expect2xx(hub.call('POST', '/api/tickets', body, { token: who.token }));
    const c = await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments }, { token: who.token }));
    for (const it of body.items) {
      const code = (it.plu as { code: number }).code;
      const line = cents(PRICE[code] * it.quantity);
      const itemRate = (it as { discountRate?: number }).discountRate ?? 0;
      const afterItem = line - Math.round((line * itemRate) / 100);
      // Only one-item tickets carry a ticket discount here, so its share is the whole of it.
      const ticketShare = Math.round((afterItem * (body.discountRate ?? 0)) / 100);
      const row = want.byProduct.get(code) ?? { quantity: 0, gross: 0, discounts: 0 };
      row.quantity += it.quantity;
      row.gross += line;
      row.discounts += line - afterItem + ticketShare;
      want.byProduct.set(code, row);
      want.gross += line;
      want.discounts += line - afterItem + ticketShare;
    }
    want.net += cents(c.totalPrice.amount);
    for (const v of c.vatBreakdown) want.vat += cents(v.vat);
    for (const p of c.payments) {
      if (p.paymentTypeNumber === 1) want.cash += cents(p.amount);
      else want.card += cents(p.amount);
    }
    want.cash -= cents(c.change ?? 0);
    return c;
  }

  beforeAll(async () => {
    await ensureWebBuild();
    hub = await startHub({ locale: 'sk', clock: new FakeClock(new Date()) });
    browser = await launchChromium();
    await restaurant(hub);
    const a = await register(hub);
    const b = await register(hub);
    await sell(a, { items: [item(1, 2), item(3, 3)] }, [{ paymentTypeNumber: 1, amount: 25 }]);
    await sell(b, { items: [item(2, 1), item(3, 1, { discountRate: 10 })] }, [{ paymentTypeNumber: 2, amount: 6.48 }]);
    await sell(a, { discountRate: 10, items: [item(1, 1)] }, [{ paymentTypeNumber: 1, amount: 6.21 }]);
    // The sums agree with themselves before the page is asked anything.
    expect(want.gross - want.discounts).toBe(want.net);
    expect(want.cash + want.card).toBe(want.net);
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  const open = (lang: Lang, size: { width: number; height: number }): Promise<Page> => openManagerPage(browser, hub.url, lang, size, { timezoneId: TZ });

  const cell = (page: Page, key: string, col: string) => page.locator(`[data-testid=sales-table] tr[data-key="${key}"] [data-col="${col}"]`);

  for (const { lang, size } of VARIANTS) {
    it(`shows the figures of the tickets closed today (${lang}, ${size.name})`, async () => {
      const page = await open(lang, size);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.getByRole('navigation').getByRole('link', { name: WORDS[lang].menu }).click();
      await page.getByRole('heading', { level: 1, name: WORDS[lang].menu }).waitFor();
      await page.getByRole('button', { name: WORDS[lang].today, exact: true }).click();
      await expect.poll(() => page.getByTestId('total-net').textContent().then(plain)).toBe(money(want.net, lang));
      expect(plain(await page.getByTestId('total-gross').textContent())).toBe(money(want.gross, lang));
      expect(plain(await page.getByTestId('total-discounts').textContent())).toBe(money(want.discounts, lang));
      expect(plain(await page.getByTestId('total-vat').textContent())).toBe(money(want.vat, lang));
      expect(plain(await page.getByTestId('total-returns').textContent())).toBe(money(0, lang));

      // By product (the default): a row per product sold, with the totals line under them.
      expect(await page.locator('[data-testid=sales-table] tbody tr').count()).toBe(want.byProduct.size);
      for (const [code, row] of want.byProduct) {
        expect(plain(await cell(page, `Menu/${code}`, 'label').textContent())).toBe(NAME[code]);
        expect(plain(await cell(page, `Menu/${code}`, 'quantity').textContent())).toBe(qty(row.quantity, lang));
        expect(plain(await cell(page, `Menu/${code}`, 'gross').textContent())).toBe(money(row.gross, lang));
        expect(plain(await cell(page, `Menu/${code}`, 'discounts').textContent())).toBe(money(row.discounts, lang));
        expect(plain(await cell(page, `Menu/${code}`, 'net').textContent())).toBe(money(row.gross - row.discounts, lang));
      }
      expect(plain(await cell(page, 'totals', 'net').textContent())).toBe(money(want.net, lang));
      await screenshot(page, { path: `${SHOTS}reports-${lang}-${size.name}.png`, fullPage: true });

      // The CSV of the same report: a line per product and the totals, in the page's language.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
      expect(download.suggestedFilename()).toMatch(/^sales-product-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
      const lines = csv.trim().split('\r\n').map((l) => l.split(WORDS[lang].separator));
      expect(lines).toHaveLength(1 + want.byProduct.size + 1);
      const decimal = (c: number) => (lang === 'en' ? (c / 100).toFixed(2) : (c / 100).toFixed(2).replace('.', ','));
      for (const [code, row] of want.byProduct) {
        const line = lines.find((l) => l[0] === `Menu/${code}`);
        expect(line, `CSV line of Menu/${code}`).toBeDefined();
        expect(line![1]).toBe(NAME[code]);
        expect(line![4]).toBe(decimal(row.gross));
        expect(line![8]).toBe(decimal(row.gross - row.discounts));
      }
      expect(lines[lines.length - 1][8]).toBe(decimal(want.net));

      // By payment type: cash (change deducted) and card.
      await page.getByTestId('report-group').selectOption('payment');
      await expect.poll(() => cell(page, '1', 'net').textContent().then(plain)).toBe(money(want.cash, lang));
      expect(plain(await cell(page, '2', 'net').textContent())).toBe(money(want.card, lang));
      // A payment type's row holds what was paid: no sales columns of zeros beside it.
      expect(await cell(page, '1', 'gross').count()).toBe(0);
      expect(await cell(page, '1', 'quantity').count()).toBe(0);
      await screenshot(page, { path: `${SHOTS}reports-payment-${lang}-${size.name}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await page.context().close();
    });

    it(`counts the drawer of the fiscal day on the End of day page and shows the difference (${lang}, ${size.name})`, async () => {
      const page = await open(lang, size);
      await page.goto(`${hub.url}/endofday`);
      // The day's fiscal day, from the tickets closed today.
      const day = page.locator('[data-testid^="day-FP1-"]').first();
      await expect.poll(() => day.getByTestId('day-cash').textContent().then(plain)).toBe(money(want.cash, lang));
      expect(plain(await day.getByTestId('day-total').textContent())).toBe(money(want.net, lang));
      // Without shifts, the fiscal day's drawer is counted as a whole.
      const fiscal = page.getByTestId('fiscal-FP1');
      await fiscal.getByTestId('day-count').click();
      const counted = lang === 'sk' ? { typed: '120,5', cents: 12050 } : { typed: '130.61', cents: 13061 };
      await fiscal.getByTestId('count-float').fill(lang === 'sk' ? '100' : '100.00');
      await fiscal.getByTestId('count-counted').fill(counted.typed);
      expect(plain(await fiscal.getByTestId('count-expected').textContent())).toBe(money(10000 + want.cash, lang));
      await fiscal.getByRole('button', { name: WORDS[lang].record }).click();
      const difference = counted.cents - (10000 + want.cash);
      await expect.poll(() => fiscal.getByTestId('count-difference').textContent().then(plain)).toBe(money(difference, lang));
      // It reached the hub, and the day's counts show it.
      const stored = (await hub.call('GET', '/api/cashcounts')).body.items.find((c: { counted: number }) => cents(c.counted) === counted.cents);
      expect([cents(stored.counted), cents(stored.difference), stored.fiscalName]).toEqual([counted.cents, difference, 'FP1']);
      const row = day.locator('[data-testid=day-counts] tbody tr', { hasText: money(counted.cents, lang) });
      await expect.poll(() => row.count()).toBe(1);
      expect(plain(await row.locator('td').nth(4).textContent())).toBe(money(difference, lang));
      await screenshot(page, { path: `${SHOTS}reports-cashcount-${lang}-${size.name}.png`, fullPage: true });
      await page.context().close();
    });
  }

  it('shows every figure of its cards whole on a phone, as the Today page does', async () => {
    const page = await open('sk', { width: 360, height: 640 });
    /** The figures of the cards drawn narrower than their text (cut off at the card's edge). */
    const cut = () => page.evaluate(() => [...document.querySelectorAll('.stat-value')].filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent));
    await go(page, '/reports');
    await page.getByRole('button', { name: WORDS.sk.today, exact: true }).click();
    await expect.poll(() => page.getByTestId('total-net').textContent().then(plain)).toBe(money(want.net, 'sk'));
    expect(await cut()).toEqual([]);
    await go(page, '/today');
    await expect.poll(() => page.locator('.stat-value').first().textContent().then(plain)).toBe(money(want.net, 'sk'));
    expect(await cut()).toEqual([]);
    await page.context().close();
  });

  it('is not offered to a user without ReportRead, and asks the hub nothing', async () => {
    await expect2xx(hub.call('POST', '/api/users', { userName: 'jozo', password: 'pw-jozo', rights: ['TicketCreate', 'SettingsRead'] }));
    const page = await openManagerPage(browser, hub.url, 'sk', { width: 1366, height: 768 }, { user: { name: 'jozo', password: 'pw-jozo' } });
    const context = page.context();
    const asked: string[] = [];
    page.on('request', (r) => asked.push(r.url()));
    expect(await page.getByRole('navigation').getByText(WORDS.sk.menu, { exact: true }).count()).toBe(0);
    await page.goto(`${hub.url}/reports`);
    await page.getByText('Táto stránka nie je súčasťou vašej práce').waitFor();
    expect(asked.filter((u) => /\/api\/(reports|cashcounts|shifts|auditevents|fiscalreports)/.test(u))).toEqual([]);
    await context.close();
  });
});
