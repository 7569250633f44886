/**
 * The register's part of `npm run screenshots` (scripts/screenshots.ts): every screen of the register
 * (hub/web/register) on a phone (360×640), a tablet held upright (800×1280) and a laptop (1366×768), in
 * Slovak, into <out>/register/<size>/, for a person to look at: paired with a code, a waiter's PIN, the
 * floor offering the first cashier the shift, ordering, the fiscal printer out of paper and Try again,
 * the shift's drawer with cash taken out and its close counted note by note, offline, and the lock
 * with the waiters to tap. The floor plan shows zones where the hub has them (/api/zones); on a hub
 * without, the register's own list of open tickets.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { TestHub } from '../test/support/hub.js';
import { expect2xx, item } from '../test/tickets/fixture.js';
import type { SimulatorFiscalDevice } from '../drivers/fiscal/simulator/driver.js';
import { openRegister, openTable } from '../test/support/register-page.js';

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
  const rights = ['TicketCreate', 'TicketUpdate', 'TicketUpdateAny', 'TicketRename', 'TicketSetDiscount', 'TicketSetCustomer', 'TicketDelete', 'TicketClose', 'TicketPrintPreliminary', 'Storno'];
  // Jana runs the till (the shift and the reports); Peter waits tables. Both log in with a PIN.
  await expect2xx(hub.call('POST', '/api/users', { userName: 'jana', name: 'Jana Kováčová', password: 'pw-jana', pin: '1234', rights: [...rights, 'FiscalReport', 'CashCount', 'CashMovement'] }));
  await expect2xx(hub.call('POST', '/api/users', { userName: 'peter', name: 'Peter Horváth', password: 'pw-peter', pin: '5678', rights }));
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
  // The simulator behind fiscal printer FP1 (restaurant()'s), to run out of paper.
  const fp1 = hub.fiscal.get({ name: 'FP1', driver: 'simulator', address: 'sim:fp1', settings: {} }) as SimulatorFiscalDevice;
  let registers = 0;
  for (const size of SIZES) {
    const dir = `${out}register/${size.name}/`;
    mkdirSync(dir, { recursive: true });
    const deviceName = `Pokladňa ${++registers}`;
    await expect2xx(hub.call('POST', '/api/devices', { name: deviceName, envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1', DefaultOrderEndpointName: 'Kitchen' } }));
    // Someone else's table, open for a while.
    const other = await hub.login('peter', 'pw-peter', deviceName);
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
    const pin = async (digits: string) => {
      for (const d of digits) await page.getByTestId('pin-pad').getByRole('button', { name: d, exact: true }).click();
    };
    await shot('setup');
    // Paired with the manager's code; the waiters tap their name and type their PIN.
    const { code } = await expect2xx(hub.call('POST', '/api/registers/pairings', { deviceName }));
    await page.getByLabel('Párovací kód').fill(code);
    await page.getByRole('button', { name: 'Spárovať', exact: true }).click();
    await page.getByRole('heading', { name: 'Kto pracuje?' }).waitFor();
    await shot('who');
    await page.getByTestId('user-jana').click();
    await pin('12');
    await shot('pin');
    await pin('34');
    await page.getByRole('button', { name: 'OK', exact: true }).click();
    await page.getByTestId('tables').waitFor();
    await page.locator('[data-testid=conn]', { hasText: 'Online' }).waitFor();
    await page.getByTestId('shift-offer').waitFor();
    await shot('floor');
    // The first cashier opens the shift with the float in the drawer.
    await page.getByTestId('offer-open-shift').click();
    await page.getByTestId('opening-float').fill('150');
    await shot('open-shift');
    await page.getByTestId('open-shift').click();
    await page.getByTestId('shift-offer').waitFor({ state: 'detached' });
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
    // The fiscal printer out of paper: what to do, then Try again.
    fp1.paper = 'out';
    await page.getByTestId('close').click();
    await page.getByTestId('fiscal-failure').waitFor();
    await shot('fiscal-refusal');
    fp1.paper = 'ok';
    await page.getByTestId('retry').click();
    await page.getByTestId('paid').waitFor();
    await shot('paid');
    await page.getByTestId('done').click();
    await page.getByRole('button', { name: 'Vrátenie' }).click();
    await page.getByTestId('returns').waitFor();
    await shot('returns');
    await page.getByRole('button', { name: /Stoly/ }).click();
    // The shift: its drawer, cash taken out with a reason, the close counted note by note.
    await page.getByRole('button', { name: 'Zmena a uzávierka' }).click();
    await page.locator('[data-testid=drawer][aria-busy=false]').waitFor();
    await shot('end-of-day');
    await page.getByTestId('cash-out').click();
    await page.getByTestId('movement-amount').fill('12,35');
    await page.getByTestId('movement').getByRole('button', { name: 'Platba dodávateľovi' }).click();
    await shot('cash-out');
    await page.getByTestId('movement-save').click();
    await page.getByTestId('movement').waitFor({ state: 'detached' });
    await page.getByTestId('close-shift-start').click();
    await page.getByTestId('by-notes').check();
    for (const [value, count] of [
      [100, 1],
      [50, 1],
      [2, 1],
      [0.5, 1],
      [0.1, 1],
    ] as const) {
      await page.getByTestId(`pieces-${value}`).fill(String(count));
    }
    await shot('close-shift');
    await page.getByTestId('close-shift-save').click();
    await page.getByTestId('shift-result').waitFor();
    await shot('shift-closed');
    await page.getByRole('button', { name: /Stoly/ }).click();
    // The link gone: the register says so and keeps taking orders.
    await tab.context.route(`${hub.url}/api/**`, (route) => route.abort('internetdisconnected'));
    await page.getByTestId('conn').filter({ hasText: 'Offline' }).waitFor({ timeout: 15_000 });
    await shot('offline');
    await tab.context.unrouteAll({ behavior: 'ignoreErrors' });
    await page.getByTestId('conn').filter({ hasText: 'Online' }).waitFor({ timeout: 15_000 });
    // Another waiter: a tap on the name at the top locks the register (as the idle lock does), a tap on theirs.
    await page.getByTestId('user').click();
    await page.getByRole('heading', { name: 'Zamknuté — ťuknite na svoje meno' }).waitFor();
    await shot('locked');
    await tab.context.close();
    say(`${dir}: ${n} screenshots`);
  }
}
