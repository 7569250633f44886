/**
 * The manager's page in the shop's language and in each user's (issue 21), in Debian's Chromium:
 * a Slovak shop's login screen and menu are in Slovak; a user with English of their own gets an
 * English menu there; the picker switches this browser and keeps the choice across a reload.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, ADMIN_PASSWORD, type TestHub } from '../support/hub.js';
import { expect2xx } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';

const haveChromium = chromiumAvailable('test/web/language');

describe.skipIf(!haveChromium)('the page speaks the shop\'s language, or the user\'s', () => {
  let hub: TestHub;
  let browser: Browser;

  beforeAll(async () => {
    await ensureWebBuild();
    hub = await startHub({ locale: 'sk' });
    browser = await launchChromium();
    await expect2xx(hub.call('POST', '/api/users', { userName: 'anna', password: 'pw-anna', rights: ['TicketCreate'], language: 'en' }));
    await expect2xx(hub.call('POST', '/api/stocks', { name: 'Bar' }));
    await expect2xx(hub.call('POST', '/api/plus', { code: 101, name: 'Kofola', stockName: 'Bar', type: 'Service', unitPrice: { amount: 2 }, vatInfo: { category: 1, rate: 20 } }));
  });
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  async function tab(): Promise<Page> {
    // The browser's own language is English: the shop's setting, not the browser's, decides.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${hub.url}/`);
    return page;
  }

  async function logIn(page: Page, userName: string, password: string, labels: { user: string; password: string; button: string }): Promise<void> {
    await page.getByLabel(labels.user).fill(userName);
    await page.getByLabel(labels.password).fill(password);
    await page.getByRole('button', { name: labels.button }).click();
    await page.locator('.shell').waitFor();
  }

  const SK = { user: 'Používateľské meno', password: 'Heslo', button: 'Prihlásiť sa' };

  it('a Slovak shop: the login screen and the menu in Slovak', async () => {
    const page = await tab();
    expect(await page.locator('html').getAttribute('lang')).toBe('sk');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Prihlásenie do back office');
    await logIn(page, 'admin', ADMIN_PASSWORD, SK);
    const menu = page.getByRole('navigation');
    for (const label of ['Dnes', 'Účty', 'Katalóg a sklad', 'Nastavenia']) await expect.poll(() => menu.getByText(label, { exact: true }).count()).toBe(1);
    expect(await menu.getByText('Tickets', { exact: true }).count()).toBe(0);
    await page.context().close();
  });

  it('a user with English of their own gets the page in English in the Slovak shop', async () => {
    const page = await tab();
    await logIn(page, 'anna', 'pw-anna', SK);
    await expect.poll(() => page.getByRole('navigation').getByText('Tickets', { exact: true }).count()).toBe(1);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await page.context().close();
  });

  it('the picker switches this browser to English and keeps it after a reload', async () => {
    const page = await tab();
    await logIn(page, 'admin', ADMIN_PASSWORD, SK);
    await page.locator('.sidebar .language-picker select').selectOption('en');
    await expect.poll(() => page.getByRole('navigation').getByText('Settings', { exact: true }).count()).toBe(1);
    await page.reload();
    await page.locator('.shell').waitFor();
    await expect.poll(() => page.getByRole('navigation').getByText('Settings', { exact: true }).count()).toBe(1);
    await page.context().close();
  });

  it("the hub's own messages (a field's error) speak the page's language, not the browser's", async () => {
    const page = await tab();
    await logIn(page, 'admin', ADMIN_PASSWORD, SK);
    const addTakenCode = async (labels: { add: RegExp; name: RegExp; code: RegExp; stock: RegExp; create: string }) => {
      await page.evaluate(() => {
        history.pushState(null, '', '/catalog/products');
        dispatchEvent(new PopStateEvent('popstate'));
      });
      await page.getByRole('button', { name: labels.add }).click();
      const editor = page.getByRole('dialog');
      await editor.getByLabel(labels.name).fill('Pivo');
      await editor.getByLabel(labels.code).fill('101');
      await editor.getByLabel(labels.stock).selectOption({ label: 'Bar' });
      await editor.getByRole('button', { name: labels.create }).click();
      return editor;
    };
    // A Slovak page in an English browser: the taken code is named in Slovak.
    const sk = await addTakenCode({ add: /Nový produkt/, name: /^Názov/, code: /^Kód/, stock: /^Sklad/, create: 'Vytvoriť' });
    await expect.poll(() => sk.getByText('Tento kód sa v tomto sklade už používa.').count()).toBe(1);
    expect(await sk.getByText('This code is already used in this stock.').count()).toBe(0);
    await page.reload();
    await page.locator('.shell').waitFor();
    // Switched to English by the picker: the same error in English.
    await page.locator('.sidebar .language-picker select').selectOption('en');
    const en = await addTakenCode({ add: /New product/, name: /^Name/, code: /^Code/, stock: /^Stock/, create: 'Create' });
    await expect.poll(() => en.getByText('This code is already used in this stock.').count()).toBe(1);
    await page.context().close();
  });
});
