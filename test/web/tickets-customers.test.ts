/**
 * Tickets, customers and today's page in Chromium (issue 21, items 4 and 6), in Slovak and in
 * English, on a laptop and a portrait tablet: a ticket's detail shows its modifiers with their
 * prices, the VAT per rate as the hub answers it, purchase types and states in words, and resends
 * an e-mail receipt; a customer's detail lists their tickets with the total; another day on the
 * Today page shows none of today's open tickets.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';
import { chromiumAvailable, launchChromium, screenshot } from '../support/chromium.js';
import { go, openManagerPage, type Lang } from '../support/manager-page.js';

const haveChromium = chromiumAvailable('test/web/tickets-customers');
const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

const VARIANTS: Array<{ lang: Lang; size: { name: string; width: number; height: number } }> = [
  { lang: 'sk', size: { name: 'laptop', width: 1366, height: 768 } },
  { lang: 'en', size: { name: 'tablet', width: 800, height: 1280 } },
];

/** Money as the page writes it (lib/format.ts): the amount in the language's digits, then the currency. */
const money = (lang: Lang, n: number) => `${new Intl.NumberFormat(lang === 'en' ? 'en-GB' : 'sk', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n)} €`;
const percent = (lang: Lang, n: number) => `${new Intl.NumberFormat(lang === 'en' ? 'en-GB' : 'sk', { maximumFractionDigits: 4 }).format(n)} %`;
/** Text with its no-break spaces as plain ones (Intl groups thousands with them). */
const plain = (s: string | null) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');

describe.skipIf(!haveChromium)('tickets, customers and today, in Slovak and English', () => {
  let hub: TestHub;
  let browser: Browser;
  let cashier: { token: string; device: string; userName: string };
  let modifierId: string;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  async function open(lang: Lang, size: { width: number; height: number }): Promise<Page> {
    const page = await openManagerPage(browser, hub.url, lang, size, { errors: pageErrors });
    contexts.push(page.context());
    expect(await page.locator('html').getAttribute('lang')).toBe(lang);
    return page;
  }

  const shot = (page: Page, name: string, lang: Lang, size: string) => screenshot(page, { path: `${SHOTS}${name}-${lang}-${size}.png`, fullPage: false });

  const ticket = async (body: Record<string, unknown>) => expect2xx(hub.call('POST', '/api/tickets', body, { token: cashier.token }));
  const close = async (id: string, amount: number, extra: Record<string, unknown> = {}) =>
    expect2xx(hub.call('POST', `/api/tickets/${id}/close`, { payments: [{ paymentTypeNumber: 1, amount }], ...extra }, { token: cashier.token }));

  beforeAll(async () => {
    await ensureWebBuild();
    hub = await startHub({ locale: 'sk', clock: new FakeClock(new Date()) });
    browser = await launchChromium();
    await restaurant(hub);
    cashier = await register(hub);
    // A second VAT rate, so the breakdown has two lines.
    await expect2xx(hub.call('POST', '/api/plus', { code: 6, name: 'Limonáda', stockName: 'Menu', type: 'Service', unitPrice: { amount: 3 }, vatInfo: { category: 2, rate: 10 } }));
    const modifier = await expect2xx(
      hub.call('POST', '/api/modifiers', {
        name: 'Príloha',
        minimumSelectedOptionsCount: 0,
        maximumSelectedOptionsCount: 2,
        options: [
          { id: 'hranolky', name: 'Hranolky', unitPrice: { amount: 1.5 } },
          { id: 'ryza', name: 'Ryža', unitPrice: { amount: 1.2 } },
        ],
      }),
    );
    modifierId = modifier.id;
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await hub?.close();
  });

  for (const { lang, size } of VARIANTS) {
    describe(`${lang}, ${size.name}`, () => {
      it('shows a ticket with its modifiers, VAT breakdown and words for its enums, and resends its e-mail receipt', async () => {
        const tk = await ticket({
          location: { tableName: `T-${lang}` },
          purchaseType: 'TakeAway',
          items: [item(1, 2, { modifiers: [{ modifierId, optionId: 'hranolky', quantity: 2 }] }), item(6, 1), item(3, 1, { modifiers: [{ modifierId, optionId: 'ryza', quantity: 1 }] })],
        });
        const closed = await close(tk.id, 100, { receipt: { print: true, email: `host-${lang}@example.sk` } });
        expect(closed.vatBreakdown.length).toBe(2);

        const page = await open(lang, size);
        const sent: string[] = [];
        page.on('request', (r) => r.method() === 'POST' && r.url().includes('/resend') && sent.push(r.url()));
        await go(page, `/tickets/${encodeURIComponent(tk.id)}`);
        const detail = page.getByTestId('ticket-detail');
        await detail.waitFor();

        // Purchase type in words, state badge translated.
        expect(await detail.getByTestId('purchase-type').textContent()).toBe(lang === 'sk' ? 'So sebou' : 'Take away');
        await page.locator('.drawer-sub').getByText(lang === 'sk' ? 'Uzavretý' : 'Closed', { exact: true }).waitFor();

        // Each modifier with its price as the hub stored it (unit price × quantity).
        const mods = await detail.getByTestId('item-modifiers').allTextContents();
        const stored = (await hub.call('GET', `/api/tickets/${tk.id}`)).body;
        const want = stored.items
          .filter((i: { modifiers: unknown[] }) => i.modifiers.length)
          .map((i: { modifiers: Array<{ name: string; quantity: number; unitPrice: number }> }) =>
            i.modifiers.map((m) => `${m.quantity > 1 ? `${m.quantity}× ` : ''}${m.name} +${money(lang, m.unitPrice * m.quantity)}`).join(''),
          );
        expect(mods.map(plain)).toEqual(want.map(plain));
        expect(plain(mods[0])).toContain(`Hranolky +${money(lang, 3)}`);

        // The VAT breakdown equals the hub's, line by line.
        const rows = await detail.getByTestId('vat-breakdown').locator('tbody tr').all();
        expect(rows.length).toBe(stored.vatBreakdown.length);
        for (const [k, r] of stored.vatBreakdown.entries()) {
          const cells = (await rows[k].locator('td').allTextContents()).map(plain);
          expect(cells).toEqual([percent(lang, r.rate), money(lang, r.base), money(lang, r.vat), money(lang, r.gross)].map(plain));
        }
        const heads = await detail.getByTestId('vat-breakdown').locator('thead th').allTextContents();
        expect(heads).toEqual(lang === 'sk' ? ['Sadzba', 'Základ', 'DPH', 'Spolu'] : ['Rate', 'Base', 'VAT', 'Total']);
        await shot(page, 'ticket-detail', lang, size.name);

        // The e-mail receipt, and its resend reaching the hub.
        const emails = detail.getByTestId('receipt-emails');
        await emails.getByText(`host-${lang}@example.sk`).waitFor();
        const before = (await hub.call('GET', `/api/receipts/emails?TicketId=${encodeURIComponent(tk.id)}`)).body.items;
        expect(before.length).toBe(1);
        const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/api/receipts/emails/${encodeURIComponent(before[0].id)}/resend`));
        await emails.getByRole('button', { name: lang === 'sk' ? 'Poslať e-mail znova' : 'Resend the e-mail' }).click();
        expect((await answer).status()).toBe(200);
        expect(sent.length).toBe(1);
        await page.locator('.toast', { hasText: `host-${lang}@example.sk` }).waitFor();
        await emails.evaluate((el) => el.scrollIntoView());
        await shot(page, 'ticket-emails', lang, size.name);
        expect(pageErrors).toEqual([]);
      });

      it("lists a customer's purchases, newest first, with the total paid", async () => {
        const id = `novak-${lang}`;
        await expect2xx(hub.call('POST', '/api/customers', { id, firstName: 'Peter', lastName: `Novák ${lang}`, cards: [{ serialNumber: `C-${lang}` }] }));
        const first = await ticket({ location: { tableName: '4' }, customer: { id }, items: [item(1, 1)] });
        await close(first.id, 6.9);
        // A minute between the tickets, so "newest first" has an order to show.
        hub.clock.advance(60_000);
        const second = await ticket({ location: { tableName: '5' }, customer: { cardSerialNumber: `C-${lang}` }, items: [item(2, 2), item(3, 1)] });
        await close(second.id, 20);
        hub.clock.advance(60_000);
        await ticket({ location: { tableName: '6' }, customer: { id }, items: [item(4, 1)] });
        // Someone else's ticket is not in the history.
        await close((await ticket({ location: { tableName: '7' }, items: [item(5, 1)] })).id, 1);

        const history = (await hub.call('GET', `/api/tickets?CustomerId=${id}&$sort=-openDate`)).body.items as Array<{ id: string; state: string; totalPrice: { amount: number } }>;
        expect(history.length).toBe(3);
        const paid = history.filter((t) => t.state === 'Closed').reduce((s, t) => s + t.totalPrice.amount, 0);

        const page = await open(lang, size);
        await go(page, `/customers?edit=${id}`);
        const purchases = page.getByTestId('purchases');
        await purchases.getByTestId('purchase-list').waitFor();
        await purchases.getByRole('heading', { name: lang === 'sk' ? 'História nákupov' : 'Purchase history' }).waitFor();
        const items = purchases.getByTestId('purchase-list').locator('li');
        expect(await items.count()).toBe(3);
        // Newest first: the still open one, then the second, then the first.
        for (const [k, t] of history.entries()) expect(plain(await items.nth(k).textContent())).toContain(money(lang, t.totalPrice.amount).replace(/[\u00a0\u202f]/g, ' '));
        expect(await items.nth(0).textContent()).toContain(lang === 'sk' ? 'Otvorený' : 'Open');
        expect(await items.nth(0).textContent()).toContain(lang === 'sk' ? 'Stôl 6' : 'Table 6');
        const total = plain(await purchases.getByTestId('purchases-total').textContent());
        expect(total).toContain(plain(money(lang, paid)));
        expect(total).toContain(lang === 'sk' ? 'Zaplatené účty: 2' : '2 paid tickets');
        await purchases.evaluate((el) => el.scrollIntoView());
        await shot(page, 'customer-purchases', lang, size.name);

        // A ticket of the history opens its detail.
        await items.nth(1).getByRole('link').click();
        await page.waitForURL(`**/tickets/${encodeURIComponent(history[1].id)}`);
        await page.getByTestId('ticket-detail').waitFor();
      });

      it("another day shows none of today's open tickets", async () => {
        const openNow = await ticket({ location: { tableName: `Open-${lang}` }, items: [item(3, 2)] });
        const page = await open(lang, size);
        await go(page, '/today');
        const openTickets = (await hub.call('GET', '/api/tickets?IsClosed=eq:false')).body.totalCount as number;
        await expect.poll(() => page.getByTestId('open-count').textContent()).toBe(String(openTickets));
        await page.getByTestId('open-tickets').getByText(lang === 'sk' ? `Stôl Open-${lang}` : `Table Open-${lang}`).waitFor();

        const yesterday = new Date(Date.now() - 86_400_000);
        const day = `${yesterday.getFullYear()}-${String(yesterday.getMonth() + 1).padStart(2, '0')}-${String(yesterday.getDate()).padStart(2, '0')}`;
        await page.getByTestId('day').fill(day);
        await page.waitForURL(`**/today?day=${day}`);
        await expect.poll(() => page.getByTestId('sales-count').textContent()).toBe('0');
        expect(await page.getByTestId('open-count').count()).toBe(0);
        expect(await page.getByTestId('open-tickets').count()).toBe(0);
        expect(await page.getByText(`Open-${lang}`).count()).toBe(0);
        await page.getByText(lang === 'sk' ? 'V ten deň žiadna tržba' : 'No sales that day').waitFor();
        await shot(page, 'today-past-day', lang, size.name);

        // Back to today: the open ticket is there again.
        await go(page, '/today');
        await page.getByTestId('open-tickets').getByText(`Open-${lang}`, { exact: false }).waitFor();
        expect(openNow.id).toBeTruthy();
      });
    });
  }
});
