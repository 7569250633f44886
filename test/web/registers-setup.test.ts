/**
 * Setting up registers from the manager's page (issue 29), in Debian's Chromium against the real
 * app, in a Slovak shop: Devices → "Add a register" makes a CashRegister or PDA device and shows its
 * pairing code with a QR code of the link the tablet opens; the tablet's exchange (through the API)
 * shows on the page live as paired. The floor plan: a zone with its colour and order and four tables
 * added, renamed, moved (buttons and a drag), resized (buttons and the corner handle) and made round,
 * saved to the hub. A user's PIN set on the users form logs in on the paired register; the register's
 * idle lock is set on its settings. In Slovak on a laptop and in English on a tablet held upright.
 * Screenshots, with POS_TEST_SCREENSHOTS=1, go to test/web/screenshots/registers (git-ignored).
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { qrPath } from '../../hub/web/shared/qr.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';
import { chromiumAvailable, launchChromium, screenshot } from '../support/chromium.js';
import { go, openManagerPage, pairingCard, VARIANTS, type Lang } from '../support/manager-page.js';

const haveChromium = chromiumAvailable('test/web/registers-setup');
const SHOTS = fileURLToPath(new URL('./screenshots/registers/', import.meta.url));

const WORDS = {
  sk: {
    devices: 'Zariadenia',
    pairedNow: 'je spárovaná',
    paired: /^Spárovaná /,
    notPaired: 'Nespárovaná',
    floorPlan: 'Plán stolov',
    saved: 'Zóna Terasa je uložená.',
    users: 'Používatelia a práva',
    save: 'Uložiť zmeny',
    pinDigits: 'PIN má 4 až 8 číslic.',
    devicesTab: 'Zariadenia',
    enterSeconds: 'Zadajte celé sekundy, 0 až 86400.',
  },
  en: {
    devices: 'Devices',
    pairedNow: 'is paired',
    paired: /^Paired /,
    notPaired: 'Not paired',
    floorPlan: 'Floor plan',
    saved: 'Zone Terasa saved.',
    users: 'Users & rights',
    save: 'Save changes',
    pinDigits: 'A PIN is 4 to 8 digits.',
    devicesTab: 'Devices',
    enterSeconds: 'Enter whole seconds, 0 to 86400.',
  },
};

describe.skipIf(!haveChromium)("registers, the floor plan and PINs on the manager's page", () => {
  let browser: Browser;
  beforeAll(async () => {
    await ensureWebBuild();
    browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  const CASES: Array<{ lang: Lang; size: { name: string; width: number; height: number }; device: string; envName: 'CashRegister' | 'PDA'; waiter: string }> = [
    { ...VARIANTS[0], device: 'Pokladňa 3', envName: 'CashRegister', waiter: 'jana' },
    { ...VARIANTS[1], device: 'Terrace PDA', envName: 'PDA', waiter: 'john' },
  ];

  describe.each(CASES)('$lang on a $size.name', ({ lang, size, device, envName, waiter }) => {
    const w = WORDS[lang];
    let hub: TestHub;
    let page: Page;
    const errors: string[] = [];
    let deviceKey = '';

    beforeAll(async () => {
      hub = await startHub({ locale: 'sk' });
      await expect2xx(hub.call('POST', '/api/users', { id: waiter, userName: waiter, name: waiter.toUpperCase(), password: `${waiter}-pw`, rights: ['TicketCreate', 'TicketUpdate'] }));
    }, 60_000);
    afterAll(async () => {
      await hub?.close();
    });
    // Each test has its own window: the suite closes a test's windows after it (test/support/setup.ts).
    beforeEach(async () => {
      page = await openManagerPage(browser, hub.url, lang, size, { errors });
    });

    it('adds a register and shows its code and the QR code of its link; the tablet pairing shows live', async () => {
      await go(page, '/devices');
      await page.getByRole('heading', { name: w.devices, exact: true }).first().waitFor();
      await page.getByTestId('add-register').click();
      const form = page.getByTestId('add-register-form');
      await form.getByTestId('register-name').fill(device);
      await form.getByTestId('register-kind').selectOption(envName);
      await form.locator('button[type=submit]').click();

      const { pairing, code } = await pairingCard(page, lang, device);
      const link = (await pairing.getByTestId('pairing-link').textContent())!;
      expect(link).toBe(`${hub.url}/pos/#pair=${code}`);
      // The QR code holds exactly the link: the same modules as encoding the link here.
      const qr = pairing.getByTestId('pairing-qr');
      expect(await qr.getAttribute('data-text')).toBe(link);
      expect(await qr.locator('path').getAttribute('d')).toBe(qrPath(link).d);
      const box = (await qr.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(150);
      expect(box.x + box.width).toBeLessThanOrEqual(size.width);
      await screenshot(page, { path: `${SHOTS}pairing-${lang}-${size.name}.png`, fullPage: true });

      // What reached the hub: the device, not paired yet, with one outstanding code.
      const stored = (await hub.call('GET', `/api/devices/${encodeURIComponent(device)}`)).body;
      expect(stored).toMatchObject({ name: device, envName, isActive: true, pairedAt: null });
      expect((await hub.call('GET', '/api/registers/pairings')).body.items.map((p: any) => p.deviceName)).toEqual([device]);
      const row = page.getByTestId(`device-${device}`);
      expect(await row.getByTestId('not-paired').textContent()).toBe(w.notPaired);

      // The tablet trades the code; the page sees the device change and says so.
      const paired = await hub.call('POST', '/api/registers/pair', { code }, { token: null });
      expect(paired.status).toBe(200);
      deviceKey = paired.body.deviceKey;
      await pairing.getByTestId('pairing-used').waitFor();
      expect(await pairing.getByTestId('pairing-used').textContent()).toContain(w.pairedNow);
      await expect.poll(() => row.getByTestId('paired').textContent()).toMatch(w.paired);
      await pairing.getByTestId('pairing-done').click();
      await pairing.waitFor({ state: 'detached' });
      await screenshot(page, { path: `${SHOTS}paired-${lang}-${size.name}.png`, fullPage: true });
    }, 60_000);

    it('lays out a zone with four tables, renamed, moved, resized and made round, and saves it', async () => {
      await go(page, '/floorplan');
      await page.getByRole('heading', { name: w.floorPlan, exact: true }).waitFor();
      await page.getByTestId('add-zone').click();
      await page.getByTestId('zone-name').fill('Terasa');
      await page.getByTestId('zone-order').fill('2');
      await page.getByTestId('zone-color').fill('#1565c0');
      for (let i = 0; i < 4; i++) await page.getByTestId('add-table').click();
      const board = page.getByTestId('board');
      for (const name of ['1', '2', '3', '4']) await board.getByTestId(`table-${name}`).waitFor();

      // Table 2: renamed, made round, two cells to the right and one down with the buttons.
      await board.getByTestId('table-2').click();
      const inspector = page.getByTestId('table-inspector');
      await inspector.getByTestId('table-name').fill('T2');
      await inspector.getByTestId('shape-round').click();
      const before2 = { x: Number(await board.getByTestId('table-T2').getAttribute('data-x')), y: Number(await board.getByTestId('table-T2').getAttribute('data-y')) };
      await inspector.getByTestId('move-right').click();
      await inspector.getByTestId('move-right').click();
      await inspector.getByTestId('move-down').click();
      // Table 4: a cell wider and a cell longer with the buttons, 6 seats.
      await board.getByTestId('table-4').click();
      await inspector.getByTestId('wider').click();
      await inspector.getByTestId('taller').click();
      await inspector.getByTestId('table-seats').fill('6');
      expect(await inspector.getByTestId('table-size').textContent()).toMatch(/^3 × 3/);
      // Table 3: dragged three cells down, as a finger or a mouse would, then its corner handle dragged one cell wider.
      const t3 = board.getByTestId('table-3');
      await t3.scrollIntoViewIfNeeded();
      const cell = (await board.boundingBox())!.width / Number(await board.getAttribute('data-cols'));
      const b3 = (await t3.boundingBox())!;
      const before3 = { x: Number(await t3.getAttribute('data-x')), y: Number(await t3.getAttribute('data-y')) };
      await page.mouse.move(b3.x + b3.width / 2, b3.y + b3.height / 2);
      await page.mouse.down();
      await page.mouse.move(b3.x + b3.width / 2, b3.y + b3.height / 2 + cell * 1.5, { steps: 4 });
      await page.mouse.move(b3.x + b3.width / 2, b3.y + b3.height / 2 + cell * 3, { steps: 4 });
      await page.mouse.up();
      await expect.poll(async () => Number(await t3.getAttribute('data-y'))).toBe(before3.y + 3);
      await board.getByTestId('resize-3').scrollIntoViewIfNeeded();
      const handle = (await board.getByTestId('resize-3').boundingBox())!;
      await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
      await page.mouse.down();
      await page.mouse.move(handle.x + handle.width / 2 + cell, handle.y + handle.height / 2, { steps: 4 });
      await page.mouse.up();
      await expect.poll(() => inspector.getByTestId('table-size').textContent()).toMatch(/^3 × 2/);
      // Two tables of one name are refused before anything is sent.
      await board.getByTestId('table-1').click();
      await inspector.getByTestId('table-name').fill('t2');
      await expect.poll(() => inspector.textContent()).toMatch(lang === 'sk' ? /Iný stôl v tejto zóne má rovnaký názov/ : /Another table in this zone has this name/);
      await inspector.getByTestId('table-name').fill('1');
      // The plan stays within a tablet's width.
      const plan = (await board.boundingBox())!;
      expect(plan.x + plan.width).toBeLessThanOrEqual(size.width);
      await screenshot(page, { path: `${SHOTS}floorplan-${lang}-${size.name}.png`, fullPage: true });
      await page.getByTestId('save-zone').click();
      await page.getByText(w.saved).waitFor();

      const zone = (await hub.call('GET', '/api/zones/Terasa')).body;
      expect(zone).toMatchObject({ name: 'Terasa', order: 2, color: '#1565c0', isActive: true, _v: 1 });
      expect(zone.tables.map((tb: any) => tb.name)).toEqual(['1', 'T2', '3', '4']);
      const [, t2, t3s, t4] = zone.tables;
      expect(t2).toMatchObject({ shape: 'Round', x: before2.x + 2, y: before2.y + 1, width: 2, height: 2 });
      expect(t3s).toMatchObject({ shape: 'Rect', x: before3.x, y: before3.y + 3, width: 3, height: 2 });
      expect(t4).toMatchObject({ width: 3, height: 3, seats: 6 });
      // A second save of the same zone goes with its _v.
      await board.getByTestId('table-1').click();
      await inspector.getByTestId('move-left').click();
      await inspector.getByTestId('move-right').click();
      await inspector.getByTestId('move-down').click();
      await page.getByTestId('save-zone').click();
      await expect.poll(async () => (await hub.call('GET', '/api/zones/Terasa')).body._v).toBe(2);
      expect(errors).toEqual([]);
    }, 90_000);

    it("sets a waiter's PIN on the users form, which then logs in on the paired register; sets the register's idle lock", async () => {
      await go(page, `/settings/users?edit=${waiter}`);
      const pin = page.locator('.drawer').getByLabel(/^PIN|^New PIN|^Nový PIN/).first();
      await pin.waitFor();
      await pin.fill('12a');
      await page.locator('.drawer').getByRole('button', { name: w.save }).click();
      await page.locator('.drawer').getByText(w.pinDigits).waitFor();
      await pin.fill('4321');
      await page.locator('.drawer').getByRole('button', { name: w.save }).click();
      await page.locator('.drawer').waitFor({ state: 'detached' });
      expect((await hub.call('GET', `/api/users/${waiter}`)).body.hasPin).toBe(true);
      const login = await hub.call('POST', '/api/auth', { userName: waiter, pin: '4321', deviceName: device }, { token: null, headers: { 'X-Register-Key': deviceKey } });
      expect(login.status).toBe(200);
      expect(login.body.user.device.name).toBe(device);

      await go(page, `/settings/devices?edit=${encodeURIComponent(device)}`);
      const lock = page.locator('.drawer').getByLabel(lang === 'sk' ? 'Zamknúť po nečinnosti (sekundy)' : 'Lock after idle (seconds)');
      await lock.waitFor();
      await lock.fill('abc');
      await page.locator('.drawer').getByRole('button', { name: w.save }).click();
      await page.locator('.drawer').getByText(w.enterSeconds).waitFor();
      await lock.fill('90');
      await page.locator('.drawer').getByRole('button', { name: w.save }).click();
      await page.locator('.drawer').waitFor({ state: 'detached' });
      const stored = (await hub.call('GET', `/api/devices/${encodeURIComponent(device)}`)).body;
      expect(stored.settings.LockAfterSeconds).toBe('90');
      // The manager's save kept the pairing.
      expect(stored.pairedAt).not.toBeNull();
      expect((await hub.call('GET', '/api/registers/users', undefined, { token: null, headers: { 'X-Register-Key': deviceKey } })).status).toBe(200);
      expect(errors).toEqual([]);
    }, 60_000);
  });
});
