/**
 * A closed ticket on the manager's page (issue 21, item 6), in Chromium, in Slovak on a laptop and
 * in English on a tablet: "Print a receipt copy" sends a COPY of the receipt to the chosen printer
 * (the back office device's default preselected), "Start a return" prepares a return of the chosen
 * quantities and links to it, saying a register closes it. A user without Storno sees no return
 * button. Screenshots, with POS_TEST_SCREENSHOTS=1, go to test/web/screenshots/returns-*.png.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { FakeEscPosPrinter } from '../support/fake-escpos-printer.js';
import { startHub, type TestHub } from '../support/hub.js';
import { FAST_PRINTING } from '../printing/setup.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';
import { chromiumAvailable, launchChromium, screenshot } from '../support/chromium.js';
import { go, openManagerPage, VARIANTS, type Lang } from '../support/manager-page.js';

const haveChromium = chromiumAvailable('test/web/ticket-returns');

const WORDS = {
  sk: { copy: 'Vytlačiť kópiu dokladu', print: 'Vytlačiť kópiu', start: 'Začať vrátenie', create: 'Pripraviť vrátenie', open: 'Otvoriť vrátenie', atRegister: 'pokladni', returnOf: 'Vrátenie z účtu' },
  en: { copy: 'Print a receipt copy', print: 'Print the copy', start: 'Start a return', create: 'Prepare the return', open: 'Open the return', atRegister: 'register', returnOf: 'Return of' },
} satisfies Record<Lang, Record<string, string>>;

describe.skipIf(!haveChromium)('a closed ticket: receipt copy and return, in Slovak and English', () => {
  let hub: TestHub;
  let browser: Browser;
  let counter: FakeEscPosPrinter;
  let terrace: FakeEscPosPrinter;
  let cashier: Awaited<ReturnType<typeof register>>;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  async function open(lang: Lang, size: { width: number; height: number }, user?: { name: string; password: string }): Promise<Page> {
    const page = await openManagerPage(browser, hub.url, lang, size, { errors: pageErrors, user });
    contexts.push(page.context());
    return page;
  }
  // The screenshots join the reviewers' tour of the manager's page (test/web/screenshots/).
  const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
  mkdirSync(SHOTS, { recursive: true });
  const shot = async (page: Page, name: string, lang: Lang, size: string) => screenshot(page, { path: `${SHOTS}returns-${name}-${lang}-${size}.png` });

  /** 2 × Gulyás (item 1) and 1 × Pivo (item 2), closed at the cashier's register. */
  async function closedSale(name: string): Promise<any> {
    const tk = await expect2xx(hub.call('POST', '/api/tickets', { name, items: [item(1, 2), item(3, 1)] }, { token: cashier.token }));
    return expect2xx(hub.call('POST', `/api/tickets/${tk.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 20 }] }, { token: cashier.token }));
  }

  beforeAll(async () => {
    await ensureWebBuild();
    counter = await FakeEscPosPrinter.start(0);
    terrace = await FakeEscPosPrinter.start(0);
    hub = await startHub({ locale: 'sk', clock: new FakeClock(new Date()), printing: FAST_PRINTING });
    browser = await launchChromium();
    await restaurant(hub);
    // Only the fake printers are reachable: the fixture's own are switched off so no worker dials them.
    for (const name of ['Kitchen', 'Bar']) await expect2xx(hub.call('PUT', `/api/orderendpoints/${name}`, { type: 'TM88', address: 'tcp://127.0.0.1:9', isActive: false }));
    await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Pult', type: 'TM88', address: counter.address }));
    await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Terasa', type: 'TM88', address: terrace.address }));
    // The back office's default printer: the copy form preselects it.
    await expect2xx(hub.call('PUT', '/api/devices/BackOffice', { envName: 'BackOffice', settings: { DefaultOrderEndpointName: 'Terasa' } }));
    cashier = await register(hub);
    await expect2xx(hub.call('POST', '/api/users', { userName: 'reader', name: 'Reader', password: 'pw-reader', rights: ['TicketReadAll'] }));
  }, 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await hub?.close();
    await counter?.close();
    await terrace?.close();
  });

  for (const { lang, size } of VARIANTS) {
    describe(`${lang}, ${size.name}`, () => {
      it('prints a receipt copy on the chosen printer and starts a return of chosen quantities', async () => {
        const closed = await closedSale(`Stôl ${lang}`);
        const page = await open(lang, size);
        await go(page, `/tickets/${encodeURIComponent(closed.id)}`);
        const detail = page.getByTestId('ticket-detail');
        await detail.waitFor();
        const w = WORDS[lang];

        // The receipt copy: the device's default printer preselected, another one chosen.
        await detail.getByRole('button', { name: w.copy }).click();
        const copyPanel = detail.getByTestId('receipt-copy-panel');
        await copyPanel.waitFor();
        const select = copyPanel.getByTestId('copy-printer');
        expect(await select.inputValue()).toBe('Terasa');
        await copyPanel.scrollIntoViewIfNeeded();
        await shot(page, 'copy', lang, size.name);
        // Slovak prints on the default, English picks the other printer.
        const printer = lang === 'sk' ? terrace : counter;
        if (lang === 'en') await select.selectOption('Pult');
        const before = printer.cutTickets().length;
        const queued = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/print_receipt_copy'));
        await copyPanel.getByRole('button', { name: w.print }).click();
        expect((await queued).status()).toBe(202);
        await printer.waitFor(() => printer.cutTickets().length === before + 1);
        // The shop is Slovak: the copy is printed in Slovak whatever the manager reads.
        const paper = printer.cutTickets()[before];
        expect(paper[0]).toBe(' ** KÓPIA ** ');
        expect(paper.find((l) => l.startsWith('Doklad č.'))).toMatch(new RegExp(` ${closed.closeInfo.number}$`));
        await copyPanel.waitFor({ state: 'detached' });

        // The return: one Gulyás of two, and the beer.
        await detail.getByRole('button', { name: w.start }).click();
        const returnPanel = detail.getByTestId('return-panel');
        await returnPanel.waitFor();
        expect(await returnPanel.getByTestId('return-qty-1').inputValue()).toBe('2');
        await returnPanel.getByTestId('return-qty-1').fill('1');
        await returnPanel.scrollIntoViewIfNeeded();
        await shot(page, 'return-form', lang, size.name);
        const started = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/return'));
        await returnPanel.getByRole('button', { name: w.create }).click();
        expect((await started).status()).toBe(201);
        const notice = detail.getByTestId('return-created');
        await notice.waitFor();
        expect(await notice.textContent()).toContain(w.atRegister);
        await notice.scrollIntoViewIfNeeded();
        await shot(page, 'return-created', lang, size.name);

        const returns = (await hub.call('GET', `/api/tickets?ReturnOf=${closed.id}`)).body.items;
        expect(returns).toHaveLength(1);
        // Named in the shop's language (Slovak), as a register shows it.
        expect(returns[0]).toMatchObject({ state: 'Opened', originDeviceName: 'BackOffice', name: `Vrátenie – Stôl ${lang}` });
        expect(returns[0].items.map((i: any) => [i.id, i.type, i.quantity])).toEqual([
          [1, 'Negative', 1],
          [2, 'Negative', 1],
        ]);

        // The new return's detail: where it came from, and that a register closes it.
        await page.getByRole('link', { name: w.open }).click();
        await page.getByTestId('return-of').waitFor();
        expect(await page.getByTestId('return-of').textContent()).toBe(closed.id);
        await detail.getByText(w.returnOf, { exact: true }).waitFor();
        await shot(page, 'return-detail', lang, size.name);
        expect(pageErrors).toEqual([]);
      });
    });
  }

  it('shows the copy but not the return to a user without Storno and TicketCreate', async () => {
    const closed = await closedSale('Stôl 12');
    const page = await open('en', VARIANTS[1].size, { name: 'reader', password: 'pw-reader' });
    await go(page, `/tickets/${encodeURIComponent(closed.id)}`);
    const actions = page.getByTestId('closed-ticket-actions');
    await actions.waitFor();
    await actions.getByRole('button', { name: WORDS.en.copy }).waitFor();
    expect(await actions.getByRole('button', { name: WORDS.en.start }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
