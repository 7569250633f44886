/**
 * The register's part of `npm run screenshots` (scripts/screenshots.ts): every screen of the register
 * (hub/web/register) on a phone (360×640), a tablet held upright (800×1280) and a laptop (1366×768), in
 * Slovak, into <out>/register/<size>/, for a person to look at. The floor plan shows zones where the
 * hub has them (/api/zones); on a hub without, the register's own list of open tickets.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { TestHub } from '../test/support/hub.js';
import { expect2xx, item } from '../test/tickets/fixture.js';
import { openRegister, openTable, setUpWithPassword } from '../test/support/register-page.js';

const SIZES = [
  { name: 'phone-360x640', width: 360, height: 640 },
  { name: 'tablet-portrait-800x1280', width: 800, height: 1280 },
  { name: 'laptop-1366x768', width: 1366, height: 768 },
];

/** What a register sells from, beside the restaurant the manager's tour made (stock Menu, plus 1–5, FP1). */
async function setUp(hub: TestHub): Promise<{ withZones: boolean }> {
  for (const [name, color, order] of [
    ['Jedlo', '#b5542f', 1],
    ['Nápoje', '#2c8a9c', 2],
  ] as const) {
    await expect2xx(hub.call('POST', '/api/categories', { name, color, order }));
  }
  await expect2xx(
    hub.call('POST', '/api/modifiers', {
      id: 'priloha',
      name: 'Príloha',
      minimumSelectedOptionsCount: 1,
      maximumSelectedOptionsCount: 1,
      options: [
        { id: 'hranolky', name: 'Hranolky', unitPrice: { amount: 2.2 } },
        { id: 'ryza', name: 'Ryža', unitPrice: { amount: 1.8 } },
      ],
    }),
  );
  const plus = (await hub.call('GET', '/api/plus?stockName=Menu')).body.items;
  for (const p of plus) {
    const category = p.code <= 2 ? 'Jedlo' : 'Nápoje';
    await expect2xx(hub.call('PUT', `/api/plus/${p.id}`, { ...p, category, modifierIds: p.code === 1 ? ['priloha'] : [] }));
  }
  for (const [code, name, price] of [
    [20, 'Káva espresso', 1.9],
    [21, 'Čaj s citrónom', 1.6],
    [22, 'Kofola 0,3 l', 1.8],
    [23, 'Bryndzové halušky', 8.9],
  ] as const) {
    await expect2xx(hub.call('POST', '/api/plus', { code, name, stockName: 'Menu', type: 'Service', unitPrice: { amount: price }, vatInfo: { category: 1, rate: 20 }, category: code === 23 ? 'Jedlo' : 'Nápoje' }));
  }
  await expect2xx(hub.call('POST', '/api/paymenttypes', { number: 3, name: 'Stravenky', category: 'Voucher' }));
  await expect2xx(
    hub.call('POST', '/api/users', {
      userName: 'jana',
      name: 'Jana Kováčová',
      password: 'pw-jana',
      rights: ['TicketCreate', 'TicketUpdate', 'TicketUpdateAny', 'TicketRename', 'TicketSetDiscount', 'TicketSetCustomer', 'TicketDelete', 'TicketClose', 'TicketPrintPreliminary', 'Storno', 'FiscalReport', 'CashCount'],
    }),
  );
  // The floor plan, where the hub keeps one.
  const zone = await hub.call('POST', '/api/zones', {
    name: 'Sála',
    order: 1,
    isActive: true,
    tables: [1, 2, 3, 4, 5, 6].map((n, i) => ({ name: String(n), x: (i % 3) * 3, y: Math.floor(i / 3) * 2, width: 2, height: 2, shape: n % 2 ? 'Rect' : 'Round', seats: 4 })),
  });
  if (zone.status === 201) await expect2xx(hub.call('POST', '/api/zones', { name: 'Terasa', order: 2, isActive: true, tables: ['T1', 'T2', 'T3'].map((name) => ({ name })) }));
  return { withZones: zone.status === 201 };
}

export async function registerTour(hub: TestHub, browser: Browser, out: string, errors: string[], say: (s: string) => void): Promise<void> {
  const { withZones } = await setUp(hub);
  if (!withZones) say('register: this hub has no /api/zones; the floor shows the open tickets without a plan');
  let registers = 0;
  for (const size of SIZES) {
    const dir = `${out}register/${size.name}/`;
    mkdirSync(dir, { recursive: true });
    const deviceName = `Pokladňa ${++registers}`;
    await expect2xx(hub.call('POST', '/api/devices', { name: deviceName, envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1', DefaultOrderEndpointName: 'Kitchen' } }));
    // Someone else's table, open for a while.
    const other = await hub.login('jana', 'pw-jana', deviceName);
    await expect2xx(hub.call('POST', '/api/tickets', { name: 'Stôl 2', location: { tableName: '2', zoneName: withZones ? 'Sála' : null }, items: [item(1, 2), item(3, 3)] }, { token: other }));
    // The tour's hub speaks English; this register is read in Slovak, as the picker would keep it.
    const context = await browser.newContext({ viewport: size, locale: 'sk-SK', hasTouch: true, reducedMotion: 'reduce', serviceWorkers: 'block' });
    await context.addInitScript(() => localStorage.setItem('poshub.language', 'sk'));
    const tab = await openRegister(browser, hub.url, 'sk', size, { errors, context });
    const { page } = tab;
    let n = 0;
    const shot = async (name: string, p: Page = page) => {
      await p.waitForTimeout(150);
      await p.screenshot({ path: `${dir}${String(++n).padStart(2, '0')}-${name}.png` });
    };
    await shot('setup');
    await setUpWithPassword(tab, deviceName, 'jana', 'pw-jana');
    await shot('floor');
    await openTable(tab, '4');
    await page.getByTestId('plu-1').click();
    await shot('modifiers');
    await page.getByTestId('modifiers').getByRole('button', { name: /Hranolky/ }).click();
    await page.getByTestId('modifiers').getByRole('button', { name: 'Pridať' }).click();
    await page.getByRole('button', { name: 'Nápoje' }).click();
    await page.getByTestId('plu-20').click();
    await page.getByTestId('plu-20').click();
    await page.getByTestId('plu-22').click();
    await shot('order-new');
    if (size.width < 600) {
      await page.getByTestId('lines-toggle').click();
      await shot('order-ticket-sheet');
    }
    await page.getByTestId('send').click();
    await page.getByTestId('tables').waitFor();
    await shot('floor-after-send');
    const at4 = withZones ? page.getByTestId('table-4') : page.getByTestId('other-tickets').locator('button', { hasText: 'Stôl 4' });
    await at4.click();
    await page.getByTestId('order').waitFor();
    await page.getByTestId('search').fill('kava');
    await shot('search');
    await page.getByTestId('search').fill('');
    // On a phone the ticket is a sheet over the menu.
    if (size.width < 600) await page.getByTestId('lines-toggle').click();
    await page.locator('[data-line-id="2"]').click();
    await shot('line');
    await page.getByRole('button', { name: 'Hotovo' }).click();
    await page.getByRole('button', { name: 'Viac', exact: true }).click();
    await shot('more');
    await page.getByRole('button', { name: 'Rozdeliť alebo presunúť položky' }).click();
    await page.getByTestId('split-line-2').click();
    await shot('split');
    await page.getByRole('button', { name: /Späť/ }).click();
    if (size.width < 600) await page.getByTestId('lines-toggle').click();
    await page.getByTestId('pay').click();
    await page.getByTestId('pay').waitFor();
    await page.getByTestId('tendered').fill('20');
    await page.getByTestId('pay-1').click();
    await shot('pay');
    await page.getByTestId('close').click();
    await page.getByTestId('paid').waitFor();
    await shot('paid');
    await page.getByTestId('done').click();
    await page.getByRole('button', { name: 'Vrátenie' }).click();
    await page.getByTestId('returns').waitFor();
    await shot('returns');
    await page.getByRole('button', { name: /Stoly/ }).click();
    await page.getByRole('button', { name: 'Koniec dňa' }).click();
    await page.getByTestId('day').waitFor();
    await shot('end-of-day');
    await page.getByRole('button', { name: /Stoly/ }).click();
    // The link gone: the register says so and keeps taking orders.
    await tab.context.route(`${hub.url}/api/**`, (route) => route.abort('internetdisconnected'));
    await page.getByTestId('conn').filter({ hasText: 'Offline' }).waitFor({ timeout: 15_000 });
    await shot('offline');
    await tab.context.unrouteAll({ behavior: 'ignoreErrors' });
    await page.getByTestId('user').click();
    await shot('locked');
    await tab.context.close();
    say(`${dir}: ${n} screenshots`);
  }
}
