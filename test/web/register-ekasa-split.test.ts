/**
 * Split evenly on an eKasa register (Slovak 5-cent cash rounding, README "Cash rounding"), in Debian's
 * Chromium against the real app and the fake eKasa service on 127.0.0.1: 8,98 € in two parts of
 * 4,49 €, one by card and one in cash, in either order, or the cash part typed by hand — the cashier
 * always finishes the payment, the cash part is rounded (the guest pays 4,50 € in cash), and the hub
 * issues the receipt with the rounding. Also a card paying all but 1 cent: the cash part of 0,01 € is
 * 0,05 € by the law's own sentence, as the hub's eKasa driver rounds it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeEkasaService } from '../support/fake-ekasa-service.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, restaurant } from '../tickets/fixture.js';
import { EKASA_SETTINGS } from '../fiscal/ekasa-fixture.js';
import { ensureWebBuild } from './build.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { openRegister, setUpWithPassword, SIZES, WAITERS, type RegisterTab } from '../support/register-page.js';
import { PRESETS } from '../../hub/http/presets.js';

const haveChromium = chromiumAvailable('test/web/register-ekasa-split');

describe.skipIf(!haveChromium)('split evenly on an eKasa register', () => {
  let hub: TestHub;
  let svc: FakeEkasaService;
  let browser: Browser;
  let tab: RegisterTab;
  const errors: string[] = [];

  beforeAll(async () => {
    await ensureWebBuild();
    hub = await startHub({ locale: 'sk' });
    svc = new FakeEkasaService(() => hub.clock.now());
    await svc.listen();
    browser = await launchChromium();
    await restaurant(hub);
    await expect2xx(hub.call('POST', '/api/plus', { code: 7, name: 'Menu dňa', stockName: 'Menu', type: 'Service', unitPrice: { amount: 8.98 }, vatInfo: { category: 1, rate: 20 } }));
    await expect2xx(hub.call('POST', '/api/plus', { code: 8, name: 'Degustácia', stockName: 'Menu', type: 'Service', unitPrice: { amount: 10 }, vatInfo: { category: 1, rate: 20 } }));
    await expect2xx(hub.call('POST', '/api/fiscaldevices', { name: 'EK1', driver: 'ekasa', address: svc.address, settings: EKASA_SETTINGS }));
    await expect2xx(hub.call('POST', '/api/devices', { name: 'Pokladňa 1', envName: 'CashRegister', settings: { DefaultFiscalName: 'EK1' } }));
    await expect2xx(hub.call('POST', '/api/users', { ...WAITERS.jana, rights: [...PRESETS.find((p) => p.name === 'Cashier')!.rights] }));
  }, 60_000);

  // Each test's window is closed after it (test/support/setup.ts): a register set up anew for each.
  beforeEach(async () => {
    tab = await openRegister(browser, hub.url, 'sk', SIZES.tablet, { errors });
    await setUpWithPassword(tab, 'Pokladňa 1', 'jana', 'pw-jana');
  });

  afterAll(async () => {
    await browser?.close();
    await hub?.fiscal.closeAll();
    await svc?.close();
    await hub?.close();
  });

  /** A quick sale of the 8,98 € menu, on the pay screen, split in two. */
  async function payScreenInTwo(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Rýchly predaj' }).click();
    await page.getByTestId('plu-7').click();
    await page.getByTestId('pay').click();
    await page.getByTestId('pay').waitFor();
    // The hub's ticket is on the screen (its total), and the register knows its fiscal device is an eKasa one.
    await page.getByTestId('cash-rounded').waitFor();
    await page.getByTestId('parts-2').click();
    expect(await page.getByTestId('part-amounts').getByRole('button').allTextContents()).toEqual(['Časť 1: 4,49 €', 'Časť 2: 4,49 €']);
  }

  const part = (page: Page, n: number) => page.getByTestId('part-amounts').getByRole('button').nth(n - 1);
  const paymentRows = (page: Page) =>
    page.locator('[data-testid=payments] li').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('span')].map((s) => (s.textContent ?? '').trim()).join(' ')));

  /** Closes on the screen and answers the ticket as the hub stored it. */
  async function closeIt(page: Page): Promise<any> {
    // The hub's clock stands still: a minute on, so this close is the latest.
    hub.clock.advance(60_000);
    await page.getByTestId('close').click();
    await page.getByTestId('paid').waitFor();
    const closed = (await hub.call('GET', `/api/tickets?IsClosed=true&$sort=-closeDate&$take=1`)).body.items[0];
    await page.getByTestId('done').click();
    await page.getByTestId('tables').waitFor();
    return closed;
  }

  const paid = (t: any) => t.payments.map((p: any) => [p.paymentTypeNumber, p.amount]);

  it('card pays part 1, cash part 2: the guest pays 4,50 € in cash and the receipt is issued', async () => {
    const { page } = tab;
    await payScreenInTwo(page);
    await part(page, 1).click();
    await page.getByTestId('pay-2').click();
    await part(page, 2).click();
    await page.getByTestId('pay-1').click();
    expect(await paymentRows(page)).toEqual(['Card 4,49 €', 'Cash 4,50 €']);
    expect(await page.getByTestId('remaining').count()).toBe(0);
    expect(await page.getByTestId('close').isEnabled()).toBe(true);
    const t = await closeIt(page);
    expect(paid(t)).toEqual([
      [2, 4.49],
      [1, 4.5],
    ]);
    expect(t.closeInfo.rounding).toEqual({ amount: 0.01 });
    expect(t.change ?? 0).toBe(0);
  });

  it('cash pays part 1 (4,50 €), the card the rest (4,48 €)', async () => {
    const { page } = tab;
    await payScreenInTwo(page);
    await part(page, 1).click();
    await page.getByTestId('pay-1').click();
    await part(page, 2).click();
    await page.getByTestId('pay-2').click();
    expect(await paymentRows(page)).toEqual(['Cash 4,50 €', 'Card 4,48 €']);
    const t = await closeIt(page);
    expect(paid(t)).toEqual([
      [1, 4.5],
      [2, 4.48],
    ]);
    expect(t.closeInfo.rounding).toBeUndefined();
  });

  it('the cash part typed by hand short of the rounded amount: Cash takes the cent still due, and the payment finishes', async () => {
    const { page } = tab;
    await payScreenInTwo(page);
    await part(page, 1).click();
    await page.getByTestId('pay-2').click();
    await page.getByTestId('tendered').fill('4,49');
    await page.getByTestId('pay-1').click();
    expect(await page.getByTestId('remaining').textContent()).toBe('0,01 €');
    await page.getByTestId('pay-1').click();
    expect(await paymentRows(page)).toEqual(['Card 4,49 €', 'Cash 4,49 €', 'Cash 0,01 €']);
    const t = await closeIt(page);
    expect(paid(t)).toEqual([
      [2, 4.49],
      [1, 4.49],
      [1, 0.01],
    ]);
    expect(t.closeInfo.rounding).toEqual({ amount: 0.01 });
  });

  it('three parts of 10,00 € all in cash: 3,35 + 3,35 + 3,30, no change, nothing rounded', async () => {
    const { page } = tab;
    await page.getByRole('button', { name: 'Rýchly predaj' }).click();
    await page.getByTestId('plu-8').click();
    await page.getByTestId('pay').click();
    await page.getByTestId('cash-rounded').waitFor();
    await page.getByTestId('parts-3').click();
    for (const n of [1, 2, 3]) {
      await part(page, n).click();
      await page.getByTestId('pay-1').click();
    }
    expect(await paymentRows(page)).toEqual(['Cash 3,35 €', 'Cash 3,35 €', 'Cash 3,30 €']);
    expect(await page.getByTestId('change').count()).toBe(0);
    const t = await closeIt(page);
    expect(paid(t)).toEqual([
      [1, 3.35],
      [1, 3.35],
      [1, 3.3],
    ]);
    expect(t.closeInfo.rounding).toBeUndefined();
    expect(t.change ?? 0).toBe(0);
  });

  it('a card paying all but a cent: the cash part of 0,01 € is 0,05 €, as the hub rounds it', async () => {
    const { page } = tab;
    await page.getByRole('button', { name: 'Rýchly predaj' }).click();
    await page.getByTestId('plu-7').click();
    await page.getByTestId('pay').click();
    await page.getByTestId('cash-rounded').waitFor();
    await page.getByTestId('tendered').fill('8,97');
    await page.getByTestId('pay-2').click();
    await page.getByTestId('pay-1').click();
    expect(await paymentRows(page)).toEqual(['Card 8,97 €', 'Cash 0,05 €']);
    const t = await closeIt(page);
    expect(paid(t)).toEqual([
      [2, 8.97],
      [1, 0.05],
    ]);
    expect(t.closeInfo.rounding).toEqual({ amount: 0.04 });
    expect(errors).toEqual([]);
  });
});
