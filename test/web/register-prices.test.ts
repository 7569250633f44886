/**
 * Prices typed at the till (CONTRACT §12), in Debian's Chromium against the real app: on a register
 * whose device sells at opened prices (setting OpenedPrices "true") a waiter without TicketSetPrice
 * types a line's unit price on the number pad (Slovak decimal comma), the products priced 0 are on the
 * menu and ask for their price when tapped, and the hub stores the prices typed. On an ordinary
 * register the same waiter sees neither.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { openRegister, openTable, setUpWithPassword, SIZES, WAITERS } from '../support/register-page.js';
import { PRESETS } from '../../hub/http/presets.js';
import { until } from '../support/wait.js';

const haveChromium = chromiumAvailable('test/web/register-prices');

/** Taps `keys` on the price dialog's number pad. */
async function typePrice(page: Page, keys: string[]): Promise<void> {
  const pad = page.getByTestId('price-pad');
  for (const k of keys) await pad.getByRole('button', { name: k, exact: true }).click();
}

describe.skipIf(!haveChromium)('the register: prices typed at the till', () => {
  let hub: TestHub;
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    await ensureWebBuild();
    hub = await startHub({ locale: 'sk' });
    browser = await launchChromium();
    await restaurant(hub);
    // Apples by the kilo: a stock item priced 0, priced at the till.
    await expect2xx(hub.call('POST', '/api/plus', { code: 601, name: 'Jablká', stockName: 'Menu', type: 'StockItem', unit: 'kg', vatInfo: { category: 1, rate: 20 } }));
    await expect2xx(hub.call('POST', '/api/devices', { name: 'Stánok', envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1', OpenedPrices: 'true' } }));
    await expect2xx(hub.call('POST', '/api/devices', { name: 'Pokladňa 1', envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1' } }));
    const waiter = PRESETS.find((p) => p.name === 'Waiter')!.rights;
    expect(waiter).not.toContain('TicketSetPrice');
    await expect2xx(hub.call('POST', '/api/users', { ...WAITERS.jana, rights: [...waiter] }));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('on an OpenedPrices register a waiter prices a product priced 0 and changes a line’s price (phone, sk)', async () => {
    const tab = await openRegister(browser, hub.url, 'sk', SIZES.phone, { errors });
    const { page } = tab;
    await setUpWithPassword(tab, 'Stánok', 'jana', 'pw-jana');
    await openTable(tab, '1');

    // The product priced 0 is offered, and asks for its price (1,25 € a kilo) before it is added.
    await page.getByTestId('plu-601').click();
    await typePrice(page, ['1', ',', '2', '5', '9']);
    // A price is to the cent: the third decimal is not taken.
    expect(await page.getByTestId('price-value').textContent()).toBe('1,25 €');
    await page.getByTestId('price-set').click();
    await page.getByTestId('plu-1').click();

    // Goulash at 5,50 € instead of its 6,90 €.
    await page.getByTestId('lines-toggle').click();
    await page.locator('[data-testid=lines] li', { hasText: 'Gulyás' }).getByRole('button').click();
    expect(await page.getByTestId('line-price').textContent()).toBe('6,90 €');
    await page.getByRole('button', { name: 'Zmeniť cenu' }).click();
    expect(await page.getByTestId('price-value').textContent()).toBe('6,9 €');
    await typePrice(page, ['Zmazať poslednú číslicu', 'Zmazať poslednú číslicu', 'Zmazať poslednú číslicu', '5', ',', '5']);
    await page.getByTestId('price-set').click();
    expect(await page.getByTestId('line-price').textContent()).toBe('5,50 €');
    await page.getByTestId('line').getByRole('button', { name: 'Hotovo' }).click();
    expect(await page.locator('[data-testid=lines] li .line-amount').allTextContents()).toEqual(['1,25 €', '5,50 €']);
    expect(await page.getByTestId('total').textContent()).toBe('6,75 €');

    await page.getByTestId('send').click();
    await page.getByTestId('tables').waitFor();
    const stored = await until(
      async () => (await hub.call('GET', '/api/tickets?IsClosed=false')).body.items.find((x: any) => x.location?.tableName === '1'),
      (x) => !!x,
    );
    expect(stored.items.map((i: any) => [i.plu.code, i.unitPrice.amount, i.totalPrice.amount])).toEqual([
      [601, 1.25, 1.25],
      [1, 5.5, 5.5],
    ]);
    expect(stored.totalPrice.amount).toBe(6.75);
    expect(stored.employee.userName).toBe('jana');
    expect(errors).toEqual([]);
    await tab.context.close();
  });

  it('on an ordinary register the same waiter neither sees the product priced 0 nor types a price (tablet, sk)', async () => {
    const tab = await openRegister(browser, hub.url, 'sk', SIZES.tablet, { errors });
    const { page } = tab;
    await setUpWithPassword(tab, 'Pokladňa 1', 'jana', 'pw-jana');
    await openTable(tab, '2');
    await page.getByTestId('plu-1').waitFor();
    expect(await page.getByTestId('plu-601').count()).toBe(0);
    await page.getByTestId('plu-1').click();
    await page.locator('[data-testid=lines] li', { hasText: 'Gulyás' }).getByRole('button').click();
    await page.getByTestId('line').waitFor();
    expect(await page.getByRole('button', { name: 'Zmeniť cenu' }).count()).toBe(0);
    expect(await page.getByTestId('line-price').count()).toBe(0);
    expect(errors).toEqual([]);
    await tab.context.close();
  });
});
