/**
 * Setting up a kitchen display from the manager's page, and using it in portrait (issue 21), in
 * Debian's Chromium against the real app: the manager adds a display on Devices (a Tablet order
 * endpoint with its amber and red minutes, no address) and gets a pairing code and the tablet's
 * link; a second browser (a tablet held upright, 800×1280) opens the link and pairs with the code;
 * an order made through the API shows up, is bumped to Served, and is recalled from the history
 * list, which the API sees (GET /api/orders/{id}). In a Slovak shop and in an English one; the
 * Log out button and the three columns stay within the viewport at 800×1280 and at 600×960.
 * Screenshots, with POS_TEST_SCREENSHOTS=1, go to test/web/screenshots/kds-setup (git-ignored).
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { qrPath } from '../../hub/web/shared/qr.js';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';
import { chromiumAvailable, launchChromium, screenshot } from '../support/chromium.js';
import { LOGIN, pairingCard } from '../support/manager-page.js';

import { SERVE_DELAY_MS } from '../support/kitchen-display.js';

const haveChromium = chromiumAvailable('test/web/kds-setup');
const SHOTS = fileURLToPath(new URL('./screenshots/kds-setup/', import.meta.url));

const LAPTOP = { width: 1366, height: 768 };
const TABLET = { width: 800, height: 1280 };
const PHONE = { width: 600, height: 960 };

interface Words {
  devices: string;
  addDisplay: string;
  columns: [string, string, string];
  logout: string;
  history: string;
  recall: string;
  pair: string;
  display: string;
  passView: string;
}

const WORDS: Record<'sk' | 'en', Words> = {
  sk: {
    devices: 'Zariadenia',
    addDisplay: 'Pridať kuchynský displej',
    columns: ['Nové', 'Pripravuje sa', 'Hotové'],
    logout: 'Odhlásiť',
    history: 'Vydané',
    recall: 'Vrátiť medzi hotové',
    pair: 'Spárovať displej',
    display: 'Kuchynský displej',
    passView: 'Výdaj',
  },
  en: {
    devices: 'Devices',
    addDisplay: 'Add a kitchen display',
    columns: ['New', 'In progress', 'Ready'],
    logout: 'Log out',
    history: 'Served',
    recall: 'Recall to Ready',
    pair: 'Pair a display',
    display: 'Kitchen display',
    passView: 'Pass view',
  },
};

const CASES = [
  { lang: 'sk' as const, manager: LAPTOP, managerSize: 'laptop', endpoint: 'Kuchyňa 2', amber: '3,5', amberStored: '3.5' },
  { lang: 'en' as const, manager: TABLET, managerSize: 'tablet', endpoint: 'Grill', amber: '4', amberStored: '4' },
];

describe.skipIf(!haveChromium)('a kitchen display set up from the manager\'s page, in portrait', () => {
  let browser: Browser;
  beforeAll(async () => {
    await ensureWebBuild();
    browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  describe.each(CASES)('in a shop speaking $lang (manager on a $managerSize)', ({ lang, manager, managerSize, endpoint, amber, amberStored }) => {
    const w = WORDS[lang];
    let hub: TestHub;
    let waiter: { token: string };
    const contexts: BrowserContext[] = [];
    const pageErrors: string[] = [];

    beforeAll(async () => {
      // The hub's clock is the browser's now: the display counts ages and its history on it.
      hub = await startHub({ locale: lang, clock: new FakeClock(new Date()) });
      await restaurant(hub);
      waiter = await register(hub);
    }, 60_000);
    afterAll(async () => {
      for (const c of contexts) await c.close().catch(() => undefined);
      await hub?.close();
    });

    async function open(viewport: { width: number; height: number }): Promise<Page> {
      // The browser's own language is the other one: the shop's, not the browser's, decides.
      const context = await browser.newContext({ viewport, locale: lang === 'sk' ? 'en-GB' : 'sk-SK', hasTouch: true, reducedMotion: 'reduce' });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      page.on('pageerror', (e) => pageErrors.push(e.message));
      return page;
    }

    const stateOf = async (id: string): Promise<string> => (await hub.call('GET', `/api/orders/${id}`)).body.state;
    async function apiReaches(id: string, state: string, ms = 10_000): Promise<void> {
      const deadline = Date.now() + ms;
      while ((await stateOf(id)) !== state) {
        if (Date.now() > deadline) throw new Error(`order ${id} is ${await stateOf(id)}, not ${state}, after ${ms} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    /** The Log out button and each column lie wholly within the viewport. */
    async function allWithin(page: Page, viewport: { width: number; height: number }): Promise<void> {
      const boxes = [await page.getByTestId('logout').boundingBox(), ...(await Promise.all(['New', 'InProgress', 'Ready'].map((s) => page.locator(`[data-column="${s}"]`).boundingBox())))];
      for (const box of boxes) {
        expect(box).not.toBeNull();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.y).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width + 0.5);
        expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height + 0.5);
        // Big enough to read a ticket in, not squeezed to a sliver.
        expect(box!.height).toBeGreaterThan(40);
      }
      const columns = boxes.slice(1);
      expect(Math.min(...columns.map((b) => b!.height))).toBeGreaterThan(viewport.height / 6);
    }

    it('the manager adds a display and gets its code and link; the tablet pairs, shows an order, serves it and recalls it from the history', async () => {
      // ---- the manager's page -----------------------------------------------------------------
      const mgr = await open(manager);
      await mgr.goto(`${hub.url}/`);
      await mgr.getByLabel(LOGIN[lang].user).fill('admin');
      await mgr.getByLabel(LOGIN[lang].password).fill(ADMIN_PASSWORD);
      await mgr.getByRole('button', { name: LOGIN[lang].button }).click();
      await mgr.locator('.shell').waitFor();
      await mgr.goto(`${hub.url}/devices`);
      await mgr.getByRole('heading', { name: w.devices, exact: true }).first().waitFor();
      await mgr.getByTestId('add-display').click();
      const form = mgr.getByTestId('add-display-form');
      await form.getByRole('heading', { name: w.addDisplay }).waitFor();
      // A display has no address and no printer options: a name, its two timers, its sound, and a printer whose orders it shows too.
      expect(await form.locator('input, select, textarea').count()).toBe(5);
      await form.getByTestId('display-name').fill(endpoint);
      await form.getByTestId('display-amber').fill(amber);
      await form.getByTestId('display-red').fill('8');
      await screenshot(mgr, { path: `${SHOTS}devices-add-${lang}-${managerSize}.png`, fullPage: true });
      await form.locator('button[type=submit]').click();

      const { pairing, code } = await pairingCard(mgr, lang, endpoint);
      // The link as a person reads it (the name as written), its target and the QR code the same address percent-encoded.
      const link = (await pairing.getByTestId('pairing-link').getAttribute('href'))!;
      expect(link).toBe(`${hub.url}/kds/${encodeURIComponent(endpoint)}`);
      expect(await pairing.getByTestId('pairing-link').textContent()).toBe(`${hub.url}/kds/${endpoint}`);
      expect(await pairing.getByTestId('pairing-qr').locator('path').getAttribute('d')).toBe(qrPath(link).d);
      await screenshot(mgr, { path: `${SHOTS}devices-code-${lang}-${managerSize}.png`, fullPage: true });

      // What reached the hub: a Tablet endpoint with its minutes ("3,5" read as 3.5), no address; one outstanding code.
      const stored = (await hub.call('GET', `/api/orderendpoints/${encodeURIComponent(endpoint)}`)).body;
      expect(stored).toMatchObject({ name: endpoint, type: 'Tablet', address: '', isActive: true });
      expect(stored.settings).toMatchObject({ AmberAfterMinutes: amberStored, RedAfterMinutes: '8' });
      const outstanding = (await hub.call('GET', '/api/kds/pairings')).body.items;
      expect(outstanding.map((p: any) => p.orderEndpointName)).toEqual([endpoint]);

      // ---- the tablet, held upright ---------------------------------------------------------
      const tablet = await open(TABLET);
      // The tablet's timers and Date on a clock that flows on its own from the hub's: the display's
      // undo window before Served goes out is fast-forwarded below, not waited out.
      await tablet.clock.install({ time: hub.clock.now() });
      await tablet.goto(link);
      expect(await tablet.locator('html').getAttribute('lang')).toBe(lang);
      await tablet.getByTestId('login-tabs').waitFor();
      expect(await tablet.getByRole('heading').first().textContent()).toBe(`${w.display} · ${endpoint}`);
      await screenshot(tablet, { path: `${SHOTS}login-${lang}-800x1280.png` });
      for (const digit of code) await tablet.getByRole('button', { name: digit, exact: true }).click();
      await tablet.getByTestId('kitchen').waitFor();
      await tablet.locator('[data-testid=conn][data-conn=live]').waitFor();
      for (const [i, state] of (['New', 'InProgress', 'Ready'] as const).entries()) {
        await expect.poll(() => tablet.locator(`[data-column="${state}"] h2`).textContent()).toMatch(new RegExp(`^${w.columns[i]}`));
      }
      await expect.poll(() => tablet.getByTestId('logout').textContent()).toBe(w.logout);
      await allWithin(tablet, TABLET);

      // An order made through the API shows up.
      await expect2xx(hub.call('POST', '/api/plus', { code: 20, stockName: 'Menu', name: 'Pstruh na masle', type: 'Service', unitPrice: { amount: 12 }, orderEndpointNames: [endpoint] }));
      const ticket = await expect2xx(hub.call('POST', '/api/tickets', { name: 'Stôl 9', location: { tableName: '9' }, items: [item(20, 2)] }, { token: waiter.token }));
      const order = (await hub.call('GET', `/api/orders?ticketId=${ticket.id}&orderEndpointName=${encodeURIComponent(endpoint)}`)).body.items[0];
      const card = tablet.locator(`[data-order-id="${order.id}"]`);
      await tablet.locator(`[data-column="New"] [data-order-id="${order.id}"]`).waitFor();
      expect(await card.textContent()).toMatch(/2×Pstruh na masle/);
      await screenshot(tablet, { path: `${SHOTS}kitchen-${lang}-800x1280.png` });

      // Bumped on to Served (sent after the undo delay).
      await card.click();
      await apiReaches(order.id, 'InProgress');
      await tablet.locator(`[data-column="InProgress"] [data-order-id="${order.id}"]`).waitFor();
      await card.click();
      await apiReaches(order.id, 'Ready');
      await tablet.locator(`[data-column="Ready"] [data-order-id="${order.id}"]`).waitFor();
      await card.click();
      await tablet.clock.fastForward(SERVE_DELAY_MS);
      await card.waitFor({ state: 'detached', timeout: 10_000 });
      await apiReaches(order.id, 'Served');

      // The history list has it; Recall brings it back to Ready, in the API and on the screen.
      await tablet.getByTestId('history-toggle').click();
      const history = tablet.getByTestId('history');
      const served = history.locator(`[data-served-id="${order.id}"]`);
      await served.waitFor();
      expect(await tablet.getByTestId('history-toggle').textContent()).toContain(w.history);
      expect(await served.textContent()).toMatch(/2× Pstruh na masle/);
      await screenshot(tablet, { path: `${SHOTS}history-${lang}-800x1280.png` });
      await served.getByRole('button', { name: w.recall }).click();
      await apiReaches(order.id, 'Ready', 3000);
      const after = (await hub.call('GET', `/api/orders/${order.id}`)).body;
      expect(after.stateHistory.map((h: any) => h.state)).toEqual(['InProgress', 'Ready', 'Served', 'Ready']);
      expect(after.stateHistory.at(-1).userName).toBe(`kds-${endpoint}`);
      await served.waitFor({ state: 'detached' });
      await history.getByRole('button').first().click();
      await history.waitFor({ state: 'detached' });
      await tablet.locator(`[data-column="Ready"] [data-order-id="${order.id}"]`).waitFor();

      // A phone-sized screen upright: still everything within reach.
      await tablet.setViewportSize(PHONE);
      await allWithin(tablet, PHONE);
      await screenshot(tablet, { path: `${SHOTS}kitchen-${lang}-600x960.png` });
      await tablet.setViewportSize(TABLET);
      await allWithin(tablet, TABLET);

      // The pass upright: the recalled order waits there, Log out still within reach.
      await tablet.getByRole('button', { name: w.passView }).click();
      await tablet.getByTestId('expo').locator(`[data-order-id="${order.id}"]`).waitFor();
      const logout = (await tablet.getByTestId('logout').boundingBox())!;
      expect(logout.x + logout.width).toBeLessThanOrEqual(TABLET.width);
      expect(logout.y + logout.height).toBeLessThanOrEqual(TABLET.height);
      await screenshot(tablet, { path: `${SHOTS}pass-${lang}-800x1280.png` });

      // The manager pairs the existing display again from its row: a fresh code.
      await mgr.getByTestId('pairing').getByRole('button').last().click();
      await mgr.getByTestId('pairing').waitFor({ state: 'detached' });
      await mgr.getByRole('button', { name: w.pair }).click();
      await mgr.getByTestId('pairing').getByTestId('pairing-code').waitFor();
      expect((await mgr.getByTestId('pairing-code').textContent())!.replace(/\s/g, '')).toMatch(/^\d{6}$/);
      expect(pageErrors).toEqual([]);
    }, 120_000);
  });
});
