/**
 * A fiscal day's history (issue 28, point 5): GET /api/reports/fiscaldays?date= answers, for a local
 * date, every fiscal day that had a receipt, a report or a count that date — its figures, every X and
 * Z report the device printed of it (GET /api/fiscalreports), its cash counts — and the shifts open
 * that date. Figures are held against sums made here from the tickets closed; after a Z the date
 * shows the day the Z closed, never the empty one after it.
 */
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';
import { ALL_TICKET_RIGHTS, expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { paidByType } from './sums.js';

let hub: TestHub;
let reg: Awaited<ReturnType<typeof register>>;
const byDay = new Map<number, any[]>();

async function at(iso: string): Promise<void> {
  hub.clock.set(iso);
  hub.adminToken = await hub.login('admin', ADMIN_PASSWORD, 'BackOffice');
  reg.token = await hub.login(reg.userName, 'pw', reg.device);
}

async function sell(items: ReturnType<typeof item>[], payments: Array<{ paymentTypeNumber: number; amount: number }>): Promise<any> {
  const t = await expect2xx(hub.call('POST', '/api/tickets', { items }, { token: reg.token }));
  const c = await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments }, { token: reg.token }));
  byDay.set(c.closeInfo.dailySalesReportNumber, [...(byDay.get(c.closeInfo.dailySalesReportNumber) ?? []), c]);
  return c;
}

const sum = (tickets: any[]) => tickets.reduce((s, t) => s.plus(t.totalPrice.amount), new Decimal(0)).toNumber();
const cashOf = (tickets: any[]) => paidByType(tickets, (n) => n === 1).get(1)?.amount.toNumber() ?? 0;

beforeAll(async () => {
  hub = await startHub({ clock: new FakeClock('2026-11-20T08:00:00Z') });
  await restaurant(hub);
  reg = await register(hub, [...ALL_TICKET_RIGHTS, 'CashCount', 'CashMovement', 'FiscalReport']);
  // Friday the 20th: a shift, sales, an X at noon, the count, then the Z.
  const shift = await expect2xx(hub.call('POST', '/api/shifts', { openingFloat: 100 }, { token: reg.token }));
  await sell([item(1, 2)], [{ paymentTypeNumber: 1, amount: 20 }]);
  await sell([item(3, 3)], [{ paymentTypeNumber: 2, amount: 6.6 }]);
  await at('2026-11-20T11:00:00Z');
  await expect2xx(hub.call('POST', '/api/fiscaldevices/FP1/reports/x', undefined, { token: reg.token }));
  await sell([item(2, 1), item(3, 1)], [{ paymentTypeNumber: 1, amount: 10 }]);
  await at('2026-11-20T21:00:00Z');
  await expect2xx(hub.call('POST', `/api/shifts/${shift.id}/close`, { counted: 100 + cashOf(byDay.get(1)!) }, { token: reg.token }));
  await expect2xx(hub.call('POST', '/api/fiscaldevices/FP1/reports/z', undefined, { token: reg.token }));
  // Saturday the 21st: sales, and a Z at night after the last sale.
  await at('2026-11-21T09:00:00Z');
  await sell([item(1, 1)], [{ paymentTypeNumber: 1, amount: 6.9 }]);
  await at('2026-11-21T22:00:00Z');
  await expect2xx(hub.call('POST', '/api/fiscaldevices/FP1/reports/z', undefined, { token: reg.token }));
});
afterAll(() => hub.close());

describe('GET /api/reports/fiscaldays', () => {
  it("a date's fiscal day: its figures from the tickets, the X and the Z it printed, the count and the shift", async () => {
    const r = await expect2xx(hub.call('GET', '/api/reports/fiscaldays?date=2026-11-20'));
    expect(r.days).toHaveLength(1);
    const [day] = r.days;
    const tickets = byDay.get(1)!;
    expect(day.figures).toMatchObject({ fiscalName: 'FP1', dailySalesReportNumber: 1, isOpen: false, tickets: tickets.length, total: sum(tickets), cashSales: cashOf(tickets) });
    expect(day.reports.map((x: any) => [x.kind, x.number, x.receipts, x.total, x.takenBy.userName])).toEqual([
      ['X', 1, 2, sum(tickets.slice(0, 2)), reg.userName],
      ['Z', 1, 3, sum(tickets), reg.userName],
    ]);
    // The Z's own record keeps the hub's figures of the day as they were then.
    expect(day.reports[1].figures).toMatchObject({ tickets: 3, total: sum(tickets), isOpen: false });
    expect(day.cashCounts).toHaveLength(1);
    expect(day.cashCounts[0]).toMatchObject({ closesShift: true, expected: 100 + cashOf(tickets), difference: 0, dailySalesReportNumber: 1 });
    expect(r.shifts).toHaveLength(1);
    expect(r.shifts[0]).toMatchObject({ state: 'Closed', countId: day.cashCounts[0].id, sales: { tickets: 3, total: sum(tickets), cash: cashOf(tickets) } });
  });

  it('after a Z the date shows the day it closed, not the empty day after it', async () => {
    const r = await expect2xx(hub.call('GET', '/api/reports/fiscaldays?date=2026-11-21'));
    expect(r.days.map((d: any) => [d.figures.dailySalesReportNumber, d.figures.isOpen, d.figures.tickets, d.figures.total])).toEqual([[2, false, 1, sum(byDay.get(2)!)]]);
    expect(r.shifts).toEqual([]);
    // The open day is the next one, and empty.
    expect(await expect2xx(hub.call('GET', '/api/reports/fiscalday?fiscalName=FP1'))).toMatchObject({ dailySalesReportNumber: 3, isOpen: true, tickets: 0 });
    expect((await expect2xx(hub.call('GET', '/api/reports/fiscaldays?date=2026-11-22'))).days).toEqual([]);
  });

  it('every report printed is listed at /api/fiscalreports, with ReportRead', async () => {
    const z = await expect2xx(hub.call('GET', '/api/fiscalreports?fiscalName=FP1&kind=Z&$sort=takenAt'));
    expect(z.items.map((x: any) => [x.number, x.receipts, x.takenAt])).toEqual([
      [1, 3, '2026-11-20T21:00:00.000Z'],
      [2, 1, '2026-11-21T22:00:00.000Z'],
    ]);
    const nobody = await hub.userWith([]);
    expect((await hub.call('GET', '/api/fiscalreports', undefined, { token: nobody })).status).toBe(403);
    expect((await hub.call('GET', '/api/reports/fiscaldays?date=2026-11-20', undefined, { token: nobody })).status).toBe(403);
  });

  it('400 naming date', async () => {
    for (const q of ['', 'date=2026-13-01', 'date=yesterday']) {
      const r = await hub.call('GET', `/api/reports/fiscaldays?${q}`);
      expect([r.status, r.body.errors?.[0]?.memberName], q).toEqual([400, 'date']);
    }
  });
});
