/**
 * The floor's "minutes since the last order" (issue 29 point 2), in Debian's Chromium against the real
 * app: counted from each open ticket's lastOrderDate (when a write last added items: items without a
 * kitchen printer too), from its openDate for a ticket stored before the field existed or with nothing
 * ordered yet, on the hub's clock (every answer's Date header) however wrong the tablet's own clock
 * is, and live as another register orders more.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { addWaiter, openRegister, setUpWithPassword, SIZES } from '../support/register-page.js';

const haveChromium = chromiumAvailable('test/web/register-tables');
const MINUTE = 60_000;

describe.skipIf(!haveChromium)('the floor: minutes since the last order', () => {
  let hub: TestHub;
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    await ensureWebBuild();
    // The tickets' times and the Date header of every answer are on the hub's injected clock.
    hub = await startHub({ locale: 'sk', clock: new FakeClock('2026-11-21T18:00:00Z') });
    browser = await launchChromium();
    await restaurant(hub);
    await expect2xx(hub.call('POST', '/api/zones', { name: 'Sála', order: 1, isActive: true, tables: ['1', '2', '3'].map((name) => ({ name })) }));
    await expect2xx(hub.call('POST', '/api/devices', { name: 'Pokladňa 1', envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1' } }));
    await addWaiter(hub, 'jana', ['TicketCreate', 'TicketUpdate']);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('counts from lastOrderDate (openDate for a ticket stored without it), on the hub clock however wrong the tablet clock is, and live (sk)', async () => {
    const waiter = await register(hub);
    const at = (table: string) => ({ name: `Stôl ${table}`, location: { tableName: table, zoneName: 'Sála' } });
    const put = (id: string, body: Record<string, unknown>) => expect2xx(hub.call('PUT', `/api/tickets/${id}`, body, { token: waiter.token }));
    // Table 1: a goulash 40½ minutes ago; table 2 a beer 25½ minutes ago, stored before tickets kept lastOrderDate.
    const one = await put('floor-1', { ...at('1'), items: [item(1, 1)] });
    hub.clock.advance(15 * MINUTE);
    const two = await put('floor-2', { ...at('2'), items: [item(3, 1)] });
    hub.db.$client.prepare(`UPDATE tickets SET doc = json_remove(doc, '$.lastOrderDate') WHERE id = ?`).run(two.id);
    // 9½ minutes ago table 1 asked for water (no kitchen printer: no kitchen order, still an order), and
    // table 3 sat down with nothing ordered yet.
    hub.clock.advance(16 * MINUTE);
    const oneLater = await put('floor-1', { ...at('1'), items: [...one.items, item(4, 2, { id: 2 })] });
    expect(oneLater.lastOrderDate).toBe(hub.clock.now().toISOString());
    expect((await hub.call('GET', `/api/orders?ticketId=${one.id}`)).body.items).toHaveLength(1);
    await put('floor-3', at('3'));
    // Now: 40½, 25½ and 9½ minutes after the orders, on the hub's clock.
    hub.clock.advance(9.5 * MINUTE);

    // A tablet whose clock runs two hours ahead of the hub's.
    const tab = await openRegister(browser, hub.url, 'sk', SIZES.laptop, { errors, clock: hub.clock.now().getTime() + 120 * MINUTE });
    const { page } = tab;
    await setUpWithPassword(tab, 'Pokladňa 1', 'jana', 'pw-jana');
    const minutes = (table: string) => page.getByTestId(`table-${table}`).getByTestId('minutes');
    await minutes('1').filter({ hasText: '9 min' }).waitFor();
    expect(await minutes('2').textContent()).toBe('25 min');
    expect(await minutes('3').textContent()).toBe('9 min');

    // 9½ minutes on, another register orders at table 2: the floor follows at once, on the hub's clock.
    hub.clock.advance(9.5 * MINUTE);
    await put('floor-2', { ...at('2'), items: [...two.items, item(3, 1, { id: 2 })] });
    await minutes('2').filter({ hasText: /^0 min$/ }).waitFor();
    await minutes('1').filter({ hasText: /^19 min$/ }).waitFor();
    expect(errors).toEqual([]);
  });
});
