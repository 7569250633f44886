/**
 * The kitchen display in Debian's Chromium (playwright-core) against the real app on 127.0.0.1
 * (issue 10): pairing, orders appearing live, bump and recall reaching the API, cancel orders
 * struck through, the pass, and a display that loses its connection for 30 s catching up with
 * every order exactly once (the 30 s pass on the page's and the hub's fake clocks, not waited
 * out). Screenshots at 1280×800 (a 10-inch tablet in landscape), with POS_TEST_SCREENSHOTS=1
 * (test/support/chromium.ts screenshot), go to test/web/screenshots/kds
 * (git-ignored) for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';
import { chromiumAvailable, launchChromium, screenshot } from '../support/chromium.js';

import { SERVE_DELAY_MS } from '../support/kitchen-display.js';

const haveChromium = chromiumAvailable('test/web/kds');

const SHOTS = fileURLToPath(new URL('./screenshots/kds/', import.meta.url));
const TABLET = { width: 1280, height: 800 };
const ENDPOINT = 'Kuchyňa';
const PATH = `/kds/${encodeURIComponent(ENDPOINT)}`;
/**
 * How long the display is cut off in the catch-up test (the 30 s): run on the page's clock
 * (Playwright's page.clock, every timer it holds fired in order: the 15 s poll twice, the 2 s
 * reconnects) and the hub's FakeClock, not waited out.
 */
const OUTAGE_MS = 30_000;

describe.skipIf(!haveChromium)('the kitchen display in Chromium', () => {
  let hub: TestHub;
  let browser: Browser;
  let waiter: { token: string; device: string; userName: string };
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  const code = async () => (await expect2xx(hub.call('POST', '/api/kds/pairings', { orderEndpointName: ENDPOINT }))).code as string;

  /**
   * A tablet-sized tab. Reduced motion by default (steady screenshots, an idle Chromium while other
   * files run); the cancel test asks for motion to see the flashing.
   */
  async function newPage(motion: 'reduce' | 'no-preference' = 'reduce', fakeClock = false): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: TABLET, locale: 'en-GB', hasTouch: true, reducedMotion: motion });
    contexts.push(context);
    const page = await context.newPage();
    // The page's timers and Date on a clock the test can move (it flows on its own meanwhile), set
    // to the hub's: installed before the page loads, so every timer the display makes is on it.
    if (fakeClock) await page.clock.install({ time: hub.clock.now() });
    // Generous: CI runs these beside the heaviest e2e files on two cores; timing claims are asserted explicitly.
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
    return { context, page };
  }

  /** A display paired by typing the code on its keypad, as a cook would. */
  async function pairedDisplay(path = PATH, motion: 'reduce' | 'no-preference' = 'reduce', fakeClock = false): Promise<{ context: BrowserContext; page: Page }> {
    const opened = await newPage(motion, fakeClock);
    await opened.page.goto(hub.url + path);
    for (const digit of await code()) await opened.page.getByRole('button', { name: digit, exact: true }).click();
    await opened.page.locator('[data-testid=conn]', { hasText: 'Live' }).waitFor();
    return opened;
  }

  const ticket = (body: Record<string, unknown>) => expect2xx(hub.call('POST', '/api/tickets', body, { token: waiter.token }));
  const ordersOf = async (ticketId: string): Promise<any[]> =>
    (await hub.call('GET', `/api/orders?ticketId=${ticketId}&orderEndpointName=${encodeURIComponent(ENDPOINT)}&$sort=createdAt`)).body.items;
  const card = (page: Page, id: string) => page.locator(`[data-order-id="${id}"]`);
  const column = (page: Page, state: string) => page.locator(`[data-column="${state}"]`);

  async function stateOf(id: string): Promise<string> {
    return (await hub.call('GET', `/api/orders/${id}`)).body.state;
  }
  /** The API reaches `state` within `ms` (the display sends its bump right away). */
  async function apiReaches(id: string, state: string, ms = 2000): Promise<void> {
    const deadline = Date.now() + ms;
    while ((await stateOf(id)) !== state) {
      if (Date.now() > deadline) throw new Error(`order ${id} is ${await stateOf(id)}, not ${state}, after ${ms} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * A display showing a new order for `table`; then the tablet loses the Wi-Fi (no requests get
   * through, the open event stream is cut too) and the cook taps the order: shown at once, sent later.
   */
  /**
   * Stops the display's clock a moment from now. Its clock runs on meanwhile, so the moment may have
   * passed by the time the browser is asked (Playwright then refuses to go back): ask again. Timers due
   * before it fire first, all while the display is still offline.
   */
  async function pauseClock(page: Page): Promise<void> {
    for (;;) {
      try {
        return await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 200);
      } catch (e) {
        if (!/fast-forward to the past/.test(String(e))) throw e;
      }
    }
  }

  async function tappedOffline(table: string, plu: number, fakeClock = false): Promise<{ context: BrowserContext; page: Page; order: any }> {
    const { context, page } = await pairedDisplay(PATH, 'reduce', fakeClock);
    const t = await ticket({ name: `Stôl ${table}`, location: { tableName: table }, items: [item(plu, 1)] });
    const [order] = await ordersOf(t.id);
    await card(page, order.id).waitFor();
    await context.setOffline(true);
    hub.services.events.endStreams();
    await page.locator('[data-testid=conn]', { hasText: 'Offline' }).waitFor();
    await card(page, order.id).click();
    return { context, page, order };
  }

  beforeAll(async () => {
    await ensureWebBuild();
    // The hub's clock is the browser's now; tests set it back to make orders that are already old.
    hub = await startHub({ clock: new FakeClock(new Date()) });
    browser = await launchChromium();
    await restaurant(hub);
    await expect2xx(
      hub.call('POST', '/api/orderendpoints', {
        name: ENDPOINT,
        type: 'Tablet',
        address: 'tablet by the pass',
        settings: { IsBeepEnabled: 'true', AmberAfterMinutes: '5', RedAfterMinutes: '10' },
      }),
    );
    await expect2xx(hub.call('POST', '/api/modifiers', { id: 'portion', options: [{ id: 'big', name: 'Veľká porcia' }] }));
    await expect2xx(hub.call('POST', '/api/modifiers', { id: 'side', options: [{ id: 'fries', name: 'Hranolky' }, { id: 'rice', name: 'Ryža' }] }));
    const plu = (code: number, name: string) =>
      expect2xx(hub.call('POST', '/api/plus', { code, stockName: 'Menu', name, type: 'Service', unitPrice: { amount: 8 }, orderEndpointNames: [ENDPOINT] }));
    await plu(10, 'Bryndzové halušky');
    await plu(11, 'Vyprážaný syr');
    await plu(12, 'Kapustnica');
    await plu(13, 'Kuracie prsia');
    waiter = await register(hub);
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  // Each test's tabs close after it: a display animates (flashing cancels, timers), and idle tabs
  // left open would keep Chromium busy while other test files run.
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await hub?.close();
  });

  it('says so when a pairing code is wrong, then pairs with the right one and stays paired across a reload', async () => {
    const { page } = await newPage();
    await page.goto(hub.url + PATH);
    await page.getByRole('heading', { name: `Kitchen display · ${ENDPOINT}` }).waitFor();
    await screenshot(page, { path: `${SHOTS}login.png` });
    await page.getByLabel('Pairing code').fill('000000');
    await page.getByRole('button', { name: 'Pair', exact: true }).click();
    await expect(page.getByTestId('login-error').textContent()).resolves.toMatch(/wrong, expired or already used/);
    await page.getByLabel('Pairing code').fill(await code());
    await page.getByRole('button', { name: 'Pair', exact: true }).click();
    await page.getByTestId('kitchen').waitFor();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('poshub.kds.session') ?? 'null'));
    expect(stored.user).toMatchObject({ userName: `kds-${ENDPOINT}`, device: { name: `KDS ${ENDPOINT}`, envName: 'Tool' } });
    await page.reload();
    await page.locator('[data-testid=conn]', { hasText: 'Live' }).waitFor();
    expect(await page.getByTestId('kitchen').isVisible()).toBe(true);
  });

  it('shows a new order as it comes, with a sound, and bump, bump, recall move it in the API too', async () => {
    // On the page's clock (flowing on its own): the served delay is fast-forwarded, not waited out.
    const { page } = await pairedDisplay(PATH, 'reduce', true);
    const beepsBefore = await page.evaluate(() => (window as unknown as { __kdsBeeps: number }).__kdsBeeps);
    // How fast it comes is the bench's to measure (`npm run bench`): a test that timed it would flake under load.
    const t = await ticket({ name: 'Stôl 7', location: { tableName: '7', zoneName: 'Terasa' }, items: [item(10, 2), item(11, 1)] });
    const [order] = await ordersOf(t.id);
    await column(page, 'New').locator(`[data-order-id="${order.id}"]`).waitFor();
    await expect(card(page, order.id).textContent()).resolves.toMatch(/Table 7.*Terasa.*2×Bryndzové halušky.*1×Vyprážaný syr/);
    await page.waitForFunction((n) => (window as unknown as { __kdsBeeps: number }).__kdsBeeps > n, beepsBefore, { timeout: 20_000 });

    await card(page, order.id).click();
    await column(page, 'InProgress').locator(`[data-order-id="${order.id}"]`).waitFor();
    await apiReaches(order.id, 'InProgress');
    await card(page, order.id).click();
    await column(page, 'Ready').locator(`[data-order-id="${order.id}"]`).waitFor();
    await apiReaches(order.id, 'Ready');

    // The cook tapped one too many: recall takes the last bump back one step.
    await page.getByTestId('recall').click();
    await column(page, 'InProgress').locator(`[data-order-id="${order.id}"]`).waitFor();
    await apiReaches(order.id, 'InProgress');
    const history = (await hub.call('GET', `/api/orders/${order.id}`)).body.stateHistory.map((h: any) => [h.state, h.userName]);
    expect(history).toEqual([
      ['InProgress', `kds-${ENDPOINT}`],
      ['Ready', `kds-${ENDPOINT}`],
      ['InProgress', `kds-${ENDPOINT}`],
    ]);

    // Served goes out after a few seconds, so a mis-tap can still be kept; recall keeps it.
    await card(page, order.id).click();
    await apiReaches(order.id, 'Ready');
    await card(page, order.id).click();
    await card(page, order.id).locator('.action', { hasText: 'Served in' }).waitFor();
    await page.getByTestId('recall').click();
    await card(page, order.id).locator('.action', { hasText: 'Tap when served' }).waitFor();
    await card(page, order.id).click();
    await card(page, order.id).locator('.action', { hasText: 'Served in' }).waitFor();
    await page.clock.fastForward(SERVE_DELAY_MS);
    await card(page, order.id).waitFor({ state: 'detached', timeout: 8000 });
    await apiReaches(order.id, 'Served');
    expect(pageErrors).toEqual([]);
  });

  it('shows a cancel order struck through and flashing until a cook taps it away', async () => {
    // ?beep=false overrides the endpoint's IsBeepEnabled: this display stays silent.
    const { page } = await pairedDisplay(`${PATH}?beep=false`, 'no-preference');
    const t = await ticket({ name: 'Stôl 3', location: { tableName: '3' }, items: [item(12, 3, { comment: 'bez smotany' })] });
    hub.clock.advance(1000);
    await expect2xx(hub.call('PUT', `/api/tickets/${t.id}`, { ...t, items: [{ ...t.items[0], quantity: 1 }] }, { token: waiter.token }));
    const cancel = (await ordersOf(t.id)).find((o) => o.kind === 'Cancel');
    expect(cancel.state).toBe('Cancelled');
    const shown = column(page, 'New').locator(`[data-order-id="${cancel.id}"]`);
    await shown.waitFor();
    await expect(shown.textContent()).resolves.toMatch(/CANCEL.*Table 3.*−2×Kapustnica.*bez smotany/);
    const look = await shown.locator('.name').evaluate((el) => ({
      line: getComputedStyle(el).textDecorationLine,
      flash: getComputedStyle(el.closest('.ticket')!).animationName,
    }));
    expect(look).toEqual({ line: 'line-through', flash: 'flash' });
    // Without motion it does not flash, but keeps a thick red frame.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const still = await shown.evaluate((el) => ({ flash: getComputedStyle(el).animationName, frame: getComputedStyle(el).boxShadow }));
    expect(still.flash).toBe('none');
    expect(still.frame).toMatch(/4px/);
    // Cancel orders come first in New, before older new orders.
    expect(await column(page, 'New').locator('.ticket').first().getAttribute('data-order-id')).toBe(cancel.id);
    expect(await page.evaluate(() => (window as unknown as { __kdsBeeps: number }).__kdsBeeps)).toBe(0);
    // The order it changes says so, also after the cancel is tapped away.
    const original = (await ordersOf(t.id)).find((o) => o.kind === 'New');
    await expect(card(page, original.id).locator('.changed').textContent()).resolves.toBe('Cancelled later: −2× Kapustnica');
    await shown.click();
    await shown.waitFor({ state: 'detached' });
    expect(await card(page, original.id).locator('.changed').count()).toBe(1);
    await page.reload();
    await page.locator('[data-testid=conn]', { hasText: 'Live' }).waitFor();
    expect(await card(page, cancel.id).count()).toBe(0);
  });

  it('catches up after 30 s without a connection: every order made meanwhile exactly once, and the tap made offline sent once', async () => {
    const { context, page, order: tapped } = await tappedOffline('9', 13, true);
    await column(page, 'InProgress').locator(`[data-order-id="${tapped.id}"]`).waitFor();

    const made: string[] = [];
    const outageStart = await page.evaluate(() => Date.now());
    for (let i = 0; i < 6; i++) {
      const t = await ticket({ name: `Stôl ${20 + i}`, location: { tableName: String(20 + i) }, items: [item(10 + (i % 4), 1 + i)] });
      made.push(...(await ordersOf(t.id)).map((o) => o.id));
      // A sixth of the outage passes, for the hub and for the display.
      hub.clock.advance(OUTAGE_MS / 6);
      await page.clock.runFor(OUTAGE_MS / 6);
    }
    // The display did live through the whole outage on its clock.
    expect((await page.evaluate(() => Date.now())) - outageStart).toBeGreaterThanOrEqual(OUTAGE_MS);
    await page.locator('[data-testid=conn]', { hasText: 'Offline' }).waitFor();
    // Moved on elsewhere meanwhile (the pass served one): it must leave the screen.
    await expect2xx(hub.call('POST', `/api/orders/${made[0]}/state`, { state: 'Served' }));
    await screenshot(page, { path: `${SHOTS}kitchen-offline.png` });
    expect(await card(page, made[1]).count()).toBe(0);

    await context.setOffline(false);
    await page.locator('[data-testid=conn]', { hasText: 'Live' }).waitFor({ timeout: 10_000 });
    for (const id of made.slice(1)) await card(page, id).waitFor();
    await card(page, made[0]).waitFor({ state: 'detached' });
    for (const id of made.slice(1)) expect(await card(page, id).count(), id).toBe(1);
    // The screen holds exactly what the hub holds, nothing twice.
    const active = (await hub.call('GET', `/api/orders?orderEndpointName=${encodeURIComponent(ENDPOINT)}&state=in:New,InProgress,Ready&$take=1000`)).body.items.map((o: any) => o.id);
    const onScreen = await page.locator('.ticket:not(.cancel)').evaluateAll((els) => els.map((e) => e.getAttribute('data-order-id')));
    expect([...onScreen].sort()).toEqual([...active].sort());
    await apiReaches(tapped.id, 'InProgress', 5000);
    const history = (await hub.call('GET', `/api/orders/${tapped.id}`)).body.stateHistory;
    expect(history.filter((h: any) => h.state === 'InProgress')).toHaveLength(1);
  }, 40_000);

  it('a tap made offline on an order moved meanwhile elsewhere is refused, not sent over that move, and the display says so', async () => {
    const { context, page, order } = await tappedOffline('4', 11, true); // New → In progress, held while offline
    // Meanwhile the pass takes it on to Ready. Without the _v the display saw, the held tap would
    // land as a step back (Ready → In progress) that nobody meant.
    await expect2xx(hub.call('POST', `/api/orders/${order.id}/state`, { state: 'InProgress' }));
    await expect2xx(hub.call('POST', `/api/orders/${order.id}/state`, { state: 'Ready' }));

    // The network comes back with the display's clock stopped: no retry timer can fire, so the held
    // tap goes out because the browser said it is online again, not seconds later at the next try.
    await pauseClock(page);
    await context.setOffline(false);
    await page.getByRole('alert').filter({ hasText: 'moved on another screen' }).waitFor({ timeout: 10_000 });
    await page.clock.resume();
    await column(page, 'Ready').locator(`[data-order-id="${order.id}"]`).waitFor();
    const after = (await hub.call('GET', `/api/orders/${order.id}`)).body;
    expect(after.state).toBe('Ready');
    expect(after.stateHistory.map((h: any) => h.state)).toEqual(['InProgress', 'Ready']);
    expect(pageErrors).toEqual([]);
  }, 40_000);

  it('lets a Tool device log in with a user who holds OrderProcess, and shows the pass per table', async () => {
    await expect2xx(hub.call('POST', '/api/devices', { name: 'Pass tablet', envName: 'Tool' }));
    await expect2xx(hub.call('POST', '/api/users', { userName: 'expo', name: 'Expo', password: 'pass-pw', rights: ['OrderProcess'] }));
    // Last night's order at the same table, never bumped: not this party's, not on the pass.
    const real = hub.clock.now().getTime();
    hub.clock.set(new Date(real - 13 * 3600_000));
    const [stale] = await ordersOf((await ticket({ name: 'Stôl 12', location: { tableName: '12', zoneName: 'Sála' }, items: [item(13, 1)] })).id);
    hub.clock.set(new Date(real));
    const a = await ticket({ name: 'Stôl 12', location: { tableName: '12', zoneName: 'Sála' }, items: [item(10, 1), item(11, 2)] });
    const b = await ticket({ name: 'Stôl 12', location: { tableName: '12', zoneName: 'Sála' }, items: [item(12, 1)] });
    const [first] = await ordersOf(a.id);
    const [second] = await ordersOf(b.id);
    await expect2xx(hub.call('POST', `/api/orders/${first.id}/state`, { state: 'Ready' }));

    const { page } = await newPage('reduce', true); // the served delay fast-forwarded on the page's clock
    await page.goto(`${hub.url}${PATH}/expo`);
    await page.getByRole('tab', { name: 'User login' }).click();
    await page.getByLabel('User name').fill('expo');
    await page.getByLabel('Password').fill('pass-pw');
    await page.getByLabel('Device').fill('Pass tablet');
    await page.getByRole('button', { name: 'Log in' }).click();
    const table = page.locator('[data-table="Table 12"]');
    await table.waitFor();
    await expect(table.textContent()).resolves.toMatch(/1×Bryndzové halušky.*2×Vyprážaný syr/);
    const waiting = await table.getByTestId('still-cooking').textContent();
    expect(waiting).toContain(`#${second.id.slice(-6).toUpperCase()}`);
    expect(waiting).not.toContain(`#${stale.id.slice(-6).toUpperCase()}`);
    // The kitchen finishes the second order: the pass sees it join the table at once.
    await expect2xx(hub.call('POST', `/api/orders/${second.id}/state`, { state: 'Ready' }));
    await table.locator(`[data-order-id="${second.id}"]`).waitFor({ timeout: 1000 });
    await table.getByTestId('still-cooking').waitFor({ state: 'detached' });
    await screenshot(page, { path: `${SHOTS}expo.png` });
    await table.getByRole('button', { name: /Served/ }).click();
    await page.clock.fastForward(SERVE_DELAY_MS);
    await table.waitFor({ state: 'detached', timeout: 8000 });
    await apiReaches(first.id, 'Served');
    await apiReaches(second.id, 'Served');
  });

  it('lets a manager pair the screen on the spot, keeping only the display session; /kds then opens its endpoint', async () => {
    const adminSessions = () => hub.db.$client.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = 'admin' AND revoked_at IS NULL").get() as { n: number };
    const before = adminSessions().n;
    const { page } = await newPage();
    await page.goto(`${hub.url}${PATH}`);
    await page.getByRole('tab', { name: 'Manager pairs' }).click();
    await page.getByLabel('Manager’s user name').fill('admin');
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Pair this screen' }).click();
    await expect(page.getByTestId('login-error').textContent()).resolves.toMatch(/not right/);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await screenshot(page, { path: `${SHOTS}login-manager.png` });
    await page.getByRole('button', { name: 'Pair this screen' }).click();
    await page.locator('[data-testid=conn]', { hasText: 'Live' }).waitFor();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('poshub.kds.session') ?? 'null'));
    expect(stored.user.userName).toBe(`kds-${ENDPOINT}`);
    expect(stored.user.rights).toEqual(['OrderProcess']);
    // The manager's login on the tablet was ended again.
    expect(adminSessions().n).toBe(before);
    await page.goto(`${hub.url}/kds`);
    await page.waitForURL(`${hub.url}${PATH}`);
    await page.getByTestId('kitchen').waitFor();
  });

  it('shows a busy kitchen at 1280×800 by the age of its orders, the address overriding the age limits, and the pass (screenshots when asked)', async () => {
    const real = hub.clock.now().getTime();
    const at = (minutesAgo: number) => hub.clock.set(new Date(real - minutesAgo * 60_000));
    at(14);
    await ticket({ name: 'Stôl 1', location: { tableName: '1', zoneName: 'Sála' }, items: [item(10, 2, { modifiers: [{ modifierId: 'portion', optionId: 'big' }] }), item(12, 1)] });
    at(11);
    const late = await ticket({ name: 'Stôl 4', location: { tableName: '4', zoneName: 'Terasa' }, items: [item(13, 1, { modifiers: [{ modifierId: 'side', optionId: 'rice' }], comment: 'alergia na orechy' })] });
    at(7);
    await ticket({ name: 'Stôl 6', location: { tableName: '6', zoneName: 'Sála' }, items: [item(11, 3, { modifiers: [{ modifierId: 'side', optionId: 'fries' }] }), item(10, 1)] });
    at(6);
    const started = await ticket({ name: 'Stôl 8', location: { tableName: '8' }, items: [item(12, 2), item(13, 1, { comment: 'dobre prepečené' })] });
    at(3);
    await ticket({ name: 'Jedlo so sebou', items: [item(10, 1), item(11, 1)] });
    const wrong = await ticket({ name: 'Stôl 2', location: { tableName: '2' }, items: [item(11, 2)] });
    hub.clock.advance(60_000);
    await expect2xx(hub.call('PUT', `/api/tickets/${wrong.id}`, { ...wrong, items: [] }, { token: waiter.token }));
    hub.clock.set(new Date(real));
    await ticket({ name: 'Stôl 10', location: { tableName: '10', zoneName: 'Bar' }, items: [item(12, 1)] });
    for (const o of await ordersOf(started.id)) await expect2xx(hub.call('POST', `/api/orders/${o.id}/state`, { state: 'InProgress' }));
    for (const o of await ordersOf(late.id)) await expect2xx(hub.call('POST', `/api/orders/${o.id}/state`, { state: 'Ready' }));
    // The bar (a printer) serves the same tables: the pass shows both, and what is still missing.
    const drinks = await ticket({ name: 'Stôl 4', location: { tableName: '4', zoneName: 'Terasa' }, items: [item(3, 2)] });
    const beer = (await hub.call('GET', `/api/orders?ticketId=${drinks.id}`)).body.items[0];
    await expect2xx(hub.call('POST', `/api/orders/${beer.id}/state`, { state: 'Ready' }));
    const six = await ticket({ name: 'Stôl 6', location: { tableName: '6', zoneName: 'Sála' }, items: [item(3, 3)] });
    const sixBeer = (await hub.call('GET', `/api/orders?ticketId=${six.id}`)).body.items[0];
    await expect2xx(hub.call('POST', `/api/orders/${sixBeer.id}/state`, { state: 'Ready' }));

    // The page's clock from the hub's, which earlier tests moved ahead of the real one: ages as the hub made them.
    const { page } = await pairedDisplay(PATH, 'reduce', true);
    await page.locator('.age-red').first().waitFor();
    await page.locator('.age-amber').first().waitFor();
    await screenshot(page, { path: `${SHOTS}kitchen.png` });
    // Landscape is the target; a tablet turned to portrait still works, columns stacked.
    await page.setViewportSize({ width: 800, height: 1280 });
    await screenshot(page, { path: `${SHOTS}kitchen-portrait.png` });
    await page.setViewportSize(TABLET);
    // The address overrides the endpoint's AmberAfterMinutes / RedAfterMinutes.
    await page.goto(`${hub.url}${PATH}?amber=1000&red=2000`);
    await page.locator('[data-testid=conn]', { hasText: 'Live' }).waitFor();
    await page.locator('.ticket').first().waitFor();
    expect(await page.locator('.age-amber, .age-red').count()).toBe(0);
    await page.goto(`${hub.url}${PATH}?amber=0&red=100000`);
    await page.locator('.ticket:not(.cancel)').first().waitFor();
    // Orders keep arriving for a moment after the first one shows: polled until every order is in,
    // and with amber at 0 minutes every one of them is amber. The display's clock a minute on first:
    // orders the earlier tests made on the hub's clock, moved ahead of this page's, are not younger
    // than 0 minutes on it then (else the test waits for real time to catch up with them).
    await page.clock.fastForward(60_000);
    await expect
      .poll(async () => {
        const shown = await page.locator('.ticket:not(.cancel)').count();
        return shown > 5 && shown === (await page.locator('.age-amber').count());
      }, { timeout: 20_000 })
      .toBe(true);
    const { page: pass } = await newPage();
    await pass.goto(`${hub.url}/expo`);
    await pass.getByLabel('Pairing code').fill(await code());
    await pass.getByRole('button', { name: 'Pair', exact: true }).click();
    await pass.locator('[data-table]').first().waitFor();
    await screenshot(pass, { path: `${SHOTS}expo-all.png` });
    expect(pageErrors).toEqual([]);
  });

  // Last: it moves the hub's clock past every token's lifetime.
  it('keeps showing new orders after its access token has expired (refresh), without a new pairing', async () => {
    const { page } = await pairedDisplay();
    const first = (await page.evaluate(() => JSON.parse(localStorage.getItem('poshub.kds.session') ?? 'null'))).tokenId;
    hub.clock.advance(13 * 3600_000);
    hub.adminToken = await hub.login('admin', ADMIN_PASSWORD, 'BackOffice');
    waiter = { ...waiter, token: await hub.login(waiter.userName, 'pw', waiter.device) };
    const t = await ticket({ name: 'Ráno', location: { tableName: '30' }, items: [item(12, 1)] });
    const [order] = await ordersOf(t.id);
    await card(page, order.id).waitFor();
    const now = (await page.evaluate(() => JSON.parse(localStorage.getItem('poshub.kds.session') ?? 'null'))).tokenId;
    expect(now).not.toBe(first);
    await card(page, order.id).click();
    await apiReaches(order.id, 'InProgress');
    expect(pageErrors).toEqual([]);
  });

  it('left on for hours without a reload, lets a cancel order nobody tapped away go after two hours, and the order it changed still says so', async () => {
    const { page } = await pairedDisplay(PATH, 'reduce', true);
    // The display counts ages on the hub's Date header, the real time: the order and its cancel are
    // made (on the hub's clock) a minute short of the display's two hours (CANCEL_SHOWN_MS) ago.
    const real = Date.now();
    hub.clock.set(new Date(real - 2 * 3600_000 + 60_000));
    const t = await ticket({ name: 'Stôl 31', location: { tableName: '31' }, items: [item(12, 3)] });
    hub.clock.advance(1000);
    await expect2xx(hub.call('PUT', `/api/tickets/${t.id}`, { ...t, items: [{ ...t.items[0], quantity: 1 }] }, { token: waiter.token }));
    hub.clock.set(new Date(real));
    const orders = await ordersOf(t.id);
    const cancel = orders.find((o) => o.kind === 'Cancel');
    const original = orders.find((o) => o.kind === 'New');
    await card(page, cancel.id).waitFor();
    // Two minutes pass on the display, which stays connected all along: no reload takes the cancel away.
    await page.clock.fastForward(2 * 60_000);
    await card(page, cancel.id).waitFor({ state: 'detached' });
    await expect(card(page, original.id).locator('.changed').textContent()).resolves.toBe('Cancelled later: −2× Kapustnica');
    expect(await page.locator('[data-testid=conn]').getAttribute('data-conn')).toBe('live');
    expect(pageErrors).toEqual([]);
  });

  it('shows at the pass that a ready order was cancelled in part after it was cooked, before the plate leaves', async () => {
    const { page } = await pairedDisplay(`${PATH}/expo`);
    const t = await ticket({ name: 'Stôl 32', location: { tableName: '32' }, items: [item(12, 2)] });
    const [order] = await ordersOf(t.id);
    await expect2xx(hub.call('POST', `/api/orders/${order.id}/state`, { state: 'Ready' }));
    const shown = page.locator(`.ready-order[data-order-id="${order.id}"]`);
    await shown.waitFor();
    hub.clock.advance(1000);
    await expect2xx(hub.call('PUT', `/api/tickets/${t.id}`, { ...t, items: [{ ...t.items[0], quantity: 1 }] }, { token: waiter.token }));
    await expect(shown.locator('.changed').textContent()).resolves.toBe('Cancelled later: −1× Kapustnica');
    expect(pageErrors).toEqual([]);
  });
});
