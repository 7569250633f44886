/**
 * Handing a ticket over to another waiter, and taking a colleague's over, on the register (Debian's
 * Chromium against the real app). Registers set up with a password (no pairing key) read whom to hand
 * over to from GET /api/registers/colleagues; the ticket's More offers each only to a waiter holding
 * the rights (CONTRACT §6, §11): a Waiter hands over their own tickets and takes over nobody's (it
 * needs TicketUpdateAny), a Cashier takes a colleague's ticket over from the floor and hands any over.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { openRegister, openTable, setUpWithPassword, SIZES, WAITERS } from '../support/register-page.js';
import { PRESETS } from '../../hub/http/presets.js';
import { until } from '../support/wait.js';

const haveChromium = chromiumAvailable('test/web/register-handover');
const preset = (name: string) => [...PRESETS.find((p) => p.name === name)!.rights];

describe.skipIf(!haveChromium)('the register: handing a ticket over and taking one over', () => {
  let hub: TestHub;
  let browser: Browser;
  const errors: string[] = [];
  const owner = async (id: string) => (await hub.call('GET', `/api/tickets/${id}`)).body.employee;

  beforeAll(async () => {
    await ensureWebBuild();
    hub = await startHub({ locale: 'sk' });
    browser = await launchChromium();
    await restaurant(hub);
    for (const name of ['Pokladňa 1', 'Pokladňa 2', 'PDA Jana']) {
      await expect2xx(hub.call('POST', '/api/devices', { name, envName: name.startsWith('PDA') ? 'PDA' : 'CashRegister', settings: { DefaultFiscalName: 'FP1' } }));
    }
    await expect2xx(hub.call('POST', '/api/users', { ...WAITERS.jana, rights: preset('Waiter') }));
    await expect2xx(hub.call('POST', '/api/users', { ...WAITERS.peter, rights: preset('Cashier') }));
    await expect2xx(hub.call('POST', '/api/users', { userName: 'kuchar', name: 'Kuchár', password: 'pw-kuchar', rights: ['OrderProcess'] }));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('a waiter hands her ticket over to a colleague she picks from the list (phone, sk)', async () => {
    const tab = await openRegister(browser, hub.url, 'sk', SIZES.phone, { errors });
    const { page } = tab;
    await setUpWithPassword(tab, 'Pokladňa 1', 'jana', 'pw-jana');
    await openTable(tab, '5');
    await page.getByTestId('plu-1').click();
    // On a phone the ticket's lines (and Send, More) are a tap away from the menu.
    await page.getByTestId('lines-toggle').click();
    await page.getByTestId('send').click();
    await page.getByTestId('tables').waitFor();
    const atFive = async () => (await hub.call('GET', '/api/tickets?IsClosed=false')).body.items.find((x: any) => x.location?.tableName === '5');
    const { id } = await until(atFive, (x) => !!x);
    expect((await owner(id)).userName).toBe('jana');

    await page.getByText('Stôl 5').first().click();
    await page.getByTestId('lines-toggle').click();
    await page.getByRole('button', { name: 'Viac' }).click();
    // Her own ticket: she may hand it over; taking over is for others' tickets.
    expect(await page.getByTestId('takeover').count()).toBe(0);
    await page.getByRole('button', { name: 'Odovzdať kolegovi' }).click();
    const dialog = page.getByTestId('handover');
    await dialog.getByTestId('colleague-peter').waitFor();
    // Those who may sell, without herself (the ticket's waiter) and without the cook.
    expect(await dialog.locator('[data-testid^=colleague-]').allTextContents()).toEqual(['Administrator', 'Peter Horváth']);
    expect(await dialog.textContent()).toContain('Teraz obsluhuje: Jana Kováčová');
    await dialog.getByTestId('colleague-peter').click();
    await page.getByText('Odovzdané: Peter Horváth.').waitFor();
    await page.getByTestId('tables').waitFor();
    expect(await owner(id)).toEqual({ userName: 'peter', name: 'Peter Horváth' });

    // Now Peter's: a Waiter (no TicketUpdateAny) is told so before she adds anything, and can neither hand it on nor take it back.
    await page.getByText('Stôl 5').first().click();
    await page.getByTestId('lines-toggle').click();
    expect(await page.getByTestId('not-yours').textContent()).toContain('Tento účet obsluhuje Peter Horváth');
    await page.getByRole('button', { name: 'Viac' }).click();
    await page.getByTestId('more').waitFor();
    expect(await page.getByRole('button', { name: 'Odovzdať kolegovi' }).count()).toBe(0);
    expect(await page.getByTestId('takeover').count()).toBe(0);
    expect(errors).toEqual([]);
    await tab.context.close();
  });

  it('a cashier takes a colleague’s ticket over from the floor, and hands another’s on (tablet, en)', async () => {
    // Jana opens table 7 on her PDA.
    const jana = await hub.login('jana', 'pw-jana', 'PDA Jana');
    await expect2xx(hub.call('PUT', '/api/tickets/t7', { name: 'Table 7', location: { tableName: '7', zoneName: null }, items: [item(3, 2)] }, { token: jana }));
    await expect2xx(hub.call('PUT', '/api/tickets/t8', { name: 'Table 8', location: { tableName: '8', zoneName: null }, items: [item(3, 1)] }, { token: jana }));

    const tab = await openRegister(browser, hub.url, 'en', SIZES.tablet, { errors });
    const { page } = tab;
    await setUpWithPassword(tab, 'Pokladňa 2', 'peter', 'pw-peter');
    await page.getByText('Table 7').first().click();
    await page.getByTestId('order').waitFor();
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByTestId('takeover').filter({ hasText: 'Take over from Jana Kováčová' }).click();
    await page.getByText('The ticket is yours now.').waitFor();
    expect(await owner('t7')).toEqual({ userName: 'peter', name: 'Peter Horváth' });
    // Taken over: it is his own now, nothing to take over.
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByTestId('more').waitFor();
    expect(await page.getByTestId('takeover').count()).toBe(0);
    await page.getByTestId('more').getByRole('button', { name: 'Close' }).click();

    // Jana's table 8, handed on by the cashier (TicketUpdateAny) to admin: Jana, its waiter, is not offered.
    await page.getByRole('button', { name: '← Tables' }).click();
    await page.getByText('Table 8').first().click();
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('button', { name: 'Hand over to a colleague' }).click();
    const dialog = page.getByTestId('handover');
    await dialog.getByTestId('colleague-admin').waitFor();
    expect(await dialog.locator('[data-testid^=colleague-]').allTextContents()).toEqual(['Administrator', 'Peter Horváth']);
    await dialog.getByTestId('colleague-admin').click();
    await page.getByText('Handed over to Administrator.').waitFor();
    expect((await owner('t8')).userName).toBe('admin');
    expect(errors).toEqual([]);
    await tab.context.close();
  });
});
