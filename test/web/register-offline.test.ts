/**
 * The register when the link to the hub drops (issue 29, point 6), and when the fiscal device refuses
 * (point 4), in Debian's Chromium against the real app on 127.0.0.1:
 * - the hub's address blocked in the page (Playwright routing) and the hub restarted meanwhile: the
 *   waiter keeps adding items and opening tables, the register says what waits, paying says it needs
 *   the hub; the tab is closed and opened again (IndexedDB) and loses nothing; when the hub is back
 *   every typed item arrives once, with one kitchen order each — also when a reply was lost on the way
 *   (the retry carries the same Idempotency-Key);
 * - another register changes the same ticket meanwhile: the 409 is shown, nothing is overwritten, and
 *   the waiter's lines are added on top of theirs when asked;
 * - the Datecs printer out of paper: the screen says to put in a roll, Try again issues one receipt;
 *   a close whose reply is lost: Try again answers the closed ticket, still one receipt.
 * Timers (the link probe, reconnects) run on the page's clock, not waited out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { FakeDatecsDevice } from '../support/fake-datecs-device.js';
import { startHub, type TestHub } from '../support/hub.js';
import { FAST_SETTINGS } from '../fiscal/fixture.js';
import { expect2xx, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { addWaiter, openRegister, openTable, setUpWithPassword, shownLines, SIZES, type RegisterTab } from '../support/register-page.js';
import { untilTrue } from '../support/wait.js';

const haveChromium = chromiumAvailable('test/web/register-offline');

const RIGHTS = ['TicketCreate', 'TicketUpdate', 'TicketUpdateAny', 'TicketClose', 'TicketPrintPreliminary', 'Storno'];

describe.skipIf(!haveChromium)('the register offline, in conflict, and refused by the fiscal device', () => {
  let hub: TestHub;
  let browser: Browser;
  let datecs: FakeDatecsDevice;
  let dataDir: string;
  let port: number;
  const errors: string[] = [];

  const orders = async (ticketId: string) =>
    (await hub.call('GET', `/api/orders?ticketId=${ticketId}&kind=New&$sort=createdAt`)).body.items.map((o: any) => o.items.map((i: any) => `${i.quantity}× ${i.name}`).join(', '));
  const openAt = async (table: string) => (await hub.call('GET', `/api/tickets?IsClosed=false&LocationTableName=${table}`)).body.items;

  async function start(): Promise<TestHub> {
    const h = await startHub({ locale: 'sk', clock: new FakeClock(new Date()), dataDir, port });
    port = Number(new URL(h.url).port);
    return h;
  }

  async function open(lang: 'sk' | 'en', device: string, user: string, size = SIZES.laptop): Promise<RegisterTab> {
    const tab = await openRegister(browser, hub.url, lang, size, { errors, clock: Date.now() });
    await setUpWithPassword(tab, device, user, `pw-${user}`);
    return tab;
  }

  /**
   * Cuts the page off the hub: every call to its API fails as a dropped Wi-Fi would. (The page itself
   * still loads from the hub: these tests keep the service worker out; the start test runs it.)
   */
  async function cut(tab: RegisterTab): Promise<void> {
    await tab.context.route(`${hub.url}/api/**`, (route) => route.abort('internetdisconnected'));
  }
  async function restore(tab: RegisterTab): Promise<void> {
    await tab.context.unrouteAll({ behavior: 'ignoreErrors' });
  }
  /** Lets the register's probe and reconnect timers run (its clock moves on; the test does not wait). */
  async function tick(page: Page, ms = 6000): Promise<void> {
    await page.clock.runFor(ms);
  }
  const pill = (page: Page) => page.getByTestId('conn');

  beforeAll(async () => {
    await ensureWebBuild();
    dataDir = mkdtempSync(join(tmpdir(), 'poshub-register-offline-'));
    port = 0;
    datecs = new FakeDatecsDevice({ variant: 'C' });
    await datecs.listen();
    hub = await start();
    browser = await launchChromium();
    await restaurant(hub);
    await expect2xx(hub.call('POST', '/api/fiscaldevices', { name: 'DT1', driver: 'datecs', address: datecs.address, settings: FAST_SETTINGS }));
    for (const name of ['Pokladňa 1', 'Pokladňa 2']) {
      await expect2xx(hub.call('POST', '/api/devices', { name, envName: 'CashRegister', settings: { DefaultFiscalName: 'DT1', DefaultOrderEndpointName: 'Kitchen' } }));
    }
    await addWaiter(hub, 'jana', RIGHTS);
    await addWaiter(hub, 'peter', RIGHTS);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await hub?.fiscal.closeAll();
    await hub?.close();
    await datecs?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps taking orders with the hub cut off and restarted, survives the tab being closed, and sends every item once when the hub is back (in Slovak)', async () => {
    const tab = await open('sk', 'Pokladňa 1', 'jana', SIZES.laptop);
    const { page, words } = tab;
    await openTable(tab, '7');
    await page.getByTestId('plu-1').click();
    await page.getByTestId('send').click();
    await page.getByTestId('tables').waitFor();
    await untilTrue(async () => (await openAt('7')).length === 1);
    const [seven] = await openAt('7');

    // The Wi-Fi drops and the hub restarts meanwhile.
    await cut(tab);
    await hub.fiscal.closeAll();
    await hub.close();
    // This process's own HTTP client keeps idle sockets to the old hub: let it see them closed before the next call.
    await new Promise((r) => setTimeout(r, 100));
    hub = await start();
    await tick(page);
    await pill(page).filter({ hasText: words.offline }).waitFor();
    expect(await page.getByTestId('offline-banner').isVisible()).toBe(true);

    // The waiter goes on: one more at table 7, a new table 8, each sent (they wait).
    await page.getByTestId('other-tickets').locator('button', { hasText: 'Stôl 7' }).click();
    await page.getByTestId('plu-3').click();
    await page.getByTestId('plu-3').click();
    await page.getByTestId('send').click();
    await page.getByTestId('tables').waitFor();
    await openTable(tab, '8');
    await page.getByTestId('plu-2').click();
    await page.getByTestId('send').click();
    await page.getByTestId('tables').waitFor();
    await pill(page).filter({ hasText: `${words.waiting} 2` }).waitFor();
    // Paying needs the hub, and says so.
    await page.getByTestId('other-tickets').locator('button', { hasText: 'Stôl 8' }).click();
    await page.getByTestId('pay').click();
    await page.locator('.note.error', { hasText: words.payNeedsHub }).waitFor();
    expect(await shownLines(page)).toEqual([['1×', 'Šopský šalát', 'new']]);
    await page.getByTestId('waiting').waitFor();

    // The tab is closed and opened again, still offline: nothing is lost.
    await page.close();
    const again = await tab.context.newPage();
    await again.clock.install({ time: Date.now() });
    await again.goto(`${hub.url}/pos/`);
    await again.getByTestId('tables').waitFor();
    await tick(again);
    await pill(again).filter({ hasText: `${words.waiting} 2` }).waitFor();
    expect(await again.getByTestId('other-tickets').locator('button').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/Stôl 8/), expect.stringMatching(/Stôl 7/)]));
    expect(await openAt('8')).toEqual([]);

    // The link is back: every item once, each with one kitchen order.
    await restore(tab);
    await tick(again);
    await pill(again).filter({ hasText: words.online }).waitFor();
    await untilTrue(async () => (await openAt('8')).length === 1 && (await openAt('7'))[0]?.items.length === 2);
    expect((await openAt('7'))[0].items.map((i: any) => [i.plu.name, i.quantity])).toEqual([
      ['Gulyás', 1],
      ['Pivo', 2],
    ]);
    expect((await openAt('8'))[0].items.map((i: any) => [i.plu.name, i.quantity])).toEqual([['Šopský šalát', 1]]);
    expect(await orders(seven.id)).toEqual(['1× Gulyás', '2× Pivo']);
    expect(await orders((await openAt('8'))[0].id)).toEqual(['1× Šopský šalát']);
    // The pill counts the tickets the register still holds unsent (till.waiting()): it drops when the
    // register has the hub's answers, which can come after the hub holds every item.
    await untilTrue(async () => (await pill(again).textContent())?.includes(words.waiting) === false);
    expect(errors).toEqual([]);
  });

  it('a reply lost on the way: the send is retried with the same key and the item arrives once (in English)', async () => {
    const tab = await open('en', 'Pokladňa 2', 'peter', SIZES.phone);
    const { page } = tab;
    await openTable(tab, '11');
    await page.getByTestId('plu-1').click();
    // The hub takes the write, but its answer never reaches the register.
    let lost = 0;
    await tab.context.route(`${hub.url}/api/tickets/*`, async (route) => {
      if (route.request().method() === 'PUT' && lost === 0) {
        lost += 1;
        await route.fetch();
        return route.abort('connectionreset');
      }
      return route.fallback();
    });
    await page.getByTestId('lines-toggle').click();
    await page.getByTestId('send').click();
    await tick(page);
    await untilTrue(async () => (await pill(page).textContent())?.includes('waiting') === false && lost === 1);
    const [eleven] = await openAt('11');
    expect(eleven.items.map((i: any) => [i.plu.name, i.quantity])).toEqual([['Gulyás', 1]]);
    expect(eleven._v).toBe(1);
    expect(await orders(eleven.id)).toEqual(['1× Gulyás']);
  });

  it('another register changed the ticket meanwhile: the conflict is shown, nothing overwritten, mine added on top when asked (in English)', async () => {
    const mine = await open('en', 'Pokladňa 1', 'jana', SIZES.tablet);
    const theirs = await open('sk', 'Pokladňa 2', 'peter', SIZES.laptop);
    await openTable(mine, '9');
    await mine.page.getByTestId('plu-1').click();
    await mine.page.getByTestId('send').click();
    await untilTrue(async () => (await openAt('9')).length === 1);
    const [nine] = await openAt('9');

    // Mine loses the link and adds a beer; theirs adds a salad meanwhile.
    await cut(mine);
    await tick(mine.page);
    await pill(mine.page).filter({ hasText: 'Offline' }).waitFor();
    await mine.page.getByTestId('other-tickets').locator('button', { hasText: 'Table 9' }).click();
    await mine.page.getByTestId('plu-3').click();
    await mine.page.getByTestId('send').click();
    await theirs.page.getByTestId('other-tickets').locator('button', { hasText: 'Stôl 9' }).click();
    await theirs.page.getByTestId('plu-2').click();
    await theirs.page.getByTestId('send').click();
    await untilTrue(async () => (await openAt('9'))[0].items.length === 2);

    await restore(mine);
    await tick(mine.page);
    await mine.page.getByTestId('other-tickets').locator('button', { hasText: 'Table 9' }).click();
    await mine.page.getByTestId('conflict').waitFor();
    expect(await mine.page.getByTestId('conflict').textContent()).toContain(mine.words.conflict);
    // Nothing of theirs was overwritten.
    expect((await openAt('9'))[0].items.map((i: any) => i.plu.name)).toEqual(['Gulyás', 'Šopský šalát']);
    await mine.page.getByRole('button', { name: mine.words.addToTheirs }).click();
    expect(await shownLines(mine.page)).toEqual([
      ['1×', 'Gulyás', 'sent'],
      ['1×', 'Šopský šalát', 'sent'],
      ['1×', 'Pivo', 'new'],
    ]);
    await mine.page.getByTestId('send').click();
    await untilTrue(async () => (await openAt('9'))[0].items.length === 3);
    expect((await openAt('9'))[0].items.map((i: any) => [i.id, i.plu.name, i.quantity])).toEqual([
      [1, 'Gulyás', 1],
      [2, 'Šopský šalát', 1],
      [3, 'Pivo', 1],
    ]);
    expect(await orders(nine.id)).toEqual(['1× Gulyás', '1× Šopský šalát', '1× Pivo']);
  });

  it('the fiscal printer out of paper: the screen says what to do, Try again issues one receipt; a close whose reply is lost is finished by Try again, still one receipt (in Slovak)', async () => {
    const tab = await open('sk', 'Pokladňa 1', 'jana', SIZES.laptop);
    const { page, words } = tab;
    const receiptsOf = (id: string) => datecs.memory.receipts.filter((r) => r.texts.join('').includes(`Ticket ${id}`));

    await openTable(tab, '12');
    await page.getByTestId('plu-1').click();
    await page.getByTestId('send').click();
    await untilTrue(async () => (await openAt('12')).length === 1);
    const [twelve] = await openAt('12');
    datecs.paper = 'out';
    await page.getByTestId('other-tickets').locator('button', { hasText: 'Stôl 12' }).click();
    await page.getByTestId('pay').click();
    await page.getByTestId('pay-1').click();
    await page.getByTestId('close').click();
    await page.getByTestId('fiscal-failure').waitFor();
    expect(await page.getByTestId('what-to-do').textContent()).toContain(words.paperOut);
    expect(receiptsOf(twelve.id)).toHaveLength(0);
    datecs.paper = 'ok';
    await page.getByTestId('retry').click();
    await page.getByTestId('paid').waitFor();
    expect(receiptsOf(twelve.id)).toHaveLength(1);
    await page.getByTestId('done').click();

    // The close goes through but its answer is lost: the register cannot know, and says so; Try again is the same request.
    await openTable(tab, '13');
    await page.getByTestId('plu-3').click();
    await page.getByTestId('send').click();
    await untilTrue(async () => (await openAt('13')).length === 1);
    const [thirteen] = await openAt('13');
    let closes = 0;
    await tab.context.route(`${hub.url}/api/tickets/*/close`, async (route) => {
      closes += 1;
      await route.fetch();
      if (closes === 1) return route.abort('connectionreset');
      return route.fallback();
    });
    await page.getByTestId('other-tickets').locator('button', { hasText: 'Stôl 13' }).click();
    await page.getByTestId('pay').click();
    await page.getByTestId('pay-1').click();
    await page.getByTestId('close').click();
    await page.getByTestId('fiscal-failure').waitFor();
    expect(receiptsOf(thirteen.id)).toHaveLength(1);
    await page.getByTestId('retry').click();
    await page.getByTestId('paid').waitFor();
    expect(closes).toBe(2);
    expect(receiptsOf(thirteen.id)).toHaveLength(1);
    expect((await hub.call('GET', `/api/tickets/${thirteen.id}`)).body.state).toBe('Closed');
  });
});
