/**
 * The audit on the Reports page (issue 28, point 6) in Debian's Chromium, in Slovak: a waiter's
 * storno, a deleted ticket, a discount, an own price and a return, each made here through the API;
 * the page shows them per day and waiter with amounts this test computes from the tickets, and a row
 * opens its events — who, when, which ticket, how much.
 */
import type { Browser } from 'playwright-core';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { startHub, type TestHub } from '../support/hub.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { openManagerPage, plain, skMoney } from '../support/manager-page.js';
import { ALL_TICKET_RIGHTS, expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';

const haveChromium = chromiumAvailable('test/web/audit');
const TZ = 'Europe/Bratislava';
const money = (d: Decimal.Value) => skMoney(new Decimal(d).toNumber());

describe.skipIf(!haveChromium)('the audit on the Reports page', () => {
  let hub: TestHub;
  let browser: Browser;
  let jana: Awaited<ReturnType<typeof register>>;
  const want = { voids: new Decimal(0), deletes: new Decimal(0), returns: new Decimal(0), discounts: new Decimal(0), overrides: new Decimal(0) };
  let sale: any;

  beforeAll(async () => {
    await ensureWebBuild();
    hub = await startHub({ locale: 'sk', timeZone: TZ, clock: new FakeClock(new Date()) });
    browser = await launchChromium();
    await restaurant(hub);
    jana = await register(hub, [...ALL_TICKET_RIGHTS, 'TicketReadAll']);
    // A storno of one beer, an own price for the Gulyás (6.00 instead of 6.90), 10 % off the ticket.
    const t = await expect2xx(hub.call('POST', '/api/tickets', { name: 'Stôl 4', items: [item(3, 3), item(1, 2, { unitPrice: { amount: 6 } })] }, { token: jana.token }));
    const lowered = await expect2xx(hub.call('PUT', `/api/tickets/${t.id}`, { ...t, discountRate: 10, items: [{ ...t.items[0], quantity: 2 }, t.items[1]] }, { token: jana.token }));
    want.voids = want.voids.plus(t.items[0].totalPrice.amount / 3);
    sale = await expect2xx(hub.call('POST', `/api/tickets/${lowered.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 20 }] }, { token: jana.token }));
    const gross = sale.items.reduce((s: Decimal, i: any) => s.plus(i.totalPrice.amount), new Decimal(0));
    want.discounts = gross.minus(sale.totalPrice.amount);
    want.overrides = new Decimal(6.9).minus(6).times(2);
    // A ticket deleted while open.
    const gone = await expect2xx(hub.call('POST', '/api/tickets', { name: 'Stôl 9', items: [item(2, 2)] }, { token: jana.token }));
    await expect2xx(hub.call('DELETE', `/api/tickets/${gone.id}`, undefined, { token: jana.token }));
    want.deletes = new Decimal(gone.totalPrice.amount);
    // A beer given back.
    const ret = await expect2xx(hub.call('POST', `/api/tickets/${sale.id}/return`, { items: [{ id: 1, quantity: 1 }] }, { token: jana.token }));
    const refunded = await expect2xx(hub.call('POST', `/api/tickets/${ret.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: ret.totalPrice.amount }] }, { token: jana.token }));
    want.returns = new Decimal(refunded.totalPrice.amount).negated();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('shows each kind per day and waiter, and a row opens its events', async () => {
    const page = await openManagerPage(browser, hub.url, 'sk', { width: 1366, height: 768 }, { timezoneId: TZ });
    await page.getByRole('navigation').getByRole('link', { name: 'Prehľady' }).click();
    await page.getByRole('button', { name: 'Dnes', exact: true }).click();
    const day = new Intl.DateTimeFormat('sv-SE', { timeZone: TZ }).format(new Date(sale.closeDate));
    const row = page.locator(`[data-testid=audit-table] tbody tr[data-key="${day}/${jana.userName}"]`);
    const cell = async (col: string) => plain(await row.locator(`[data-col=${col}]`).textContent());
    await expect.poll(() => cell('voids')).toBe(`${money(want.voids)} 1×`);
    expect(await cell('deletes')).toBe(`${money(want.deletes)} 1×`);
    expect(await cell('returns')).toBe(`${money(want.returns)} 1×`);
    expect(await cell('discounts')).toBe(`${money(want.discounts)} 1×`);
    expect(await cell('priceOverrides')).toBe(`${money(want.overrides)} 1×`);
    const total = want.voids.plus(want.deletes).plus(want.returns).plus(want.discounts).plus(want.overrides);
    expect(await cell('total')).toBe(money(total));
    await row.click();
    const events = page.getByTestId('audit-events');
    await events.waitFor();
    const kinds = await events.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-kind'), r.querySelectorAll('td')[2].textContent, r.querySelectorAll('td')[5].textContent]));
    expect(kinds.map(([k, ticket, amount]) => [k, ticket, plain(amount)]).sort()).toEqual(
      [
        ['Void', 'Stôl 4', money(want.voids)],
        ['PriceOverride', 'Stôl 4', money(want.overrides)],
        ['Discount', 'Stôl 4', money(want.discounts)],
        ['Delete', 'Stôl 9', money(want.deletes)],
        ['Return', 'Vrátenie – Stôl 4', money(want.returns)],
      ].sort(),
    );
  });
});
