/**
 * Local days where the clocks skip midnight: in America/Santiago summer time begins on 2026-09-06 at
 * 00:00 (-04), which becomes 01:00 (-03). That day begins at 01:00 of the 6th — never at 23:00 of the
 * 5th — so a sale at 23:30 on the 5th belongs to the 5th in every figure: the sales report (which reads
 * the wall clock) and the reports that ask when a local day begins (the accounting journal, a date's
 * fiscal days; the stock value's days are counted by the same rule). Also the wall-clock rule itself (core/time.ts fromZoned) at both kinds
 * of change of time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { FakeClock } from '../../hub/core/clock.js';
import { fromZoned } from '../../hub/core/time.js';

describe('the instant a wall-clock time names (fromZoned)', () => {
  it('a day whose midnight is skipped begins at 01:00 of that day', () => {
    expect(fromZoned({ year: 2026, month: 9, day: 6 }, 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(fromZoned({ year: 2026, month: 3, day: 8 }, 'America/Havana').toISOString()).toBe('2026-03-08T05:00:00.000Z');
  });

  it('an hour shown twice names its first instant; a skipped one moves on by the gap', () => {
    // Bratislava, 2026-10-25: 02:30 summer time (00:30 UTC), then 02:30 winter time (01:30 UTC).
    expect(fromZoned({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, 'Europe/Bratislava').toISOString()).toBe('2026-10-25T00:30:00.000Z');
    // 2026-03-29: 02:00 becomes 03:00; 02:30 is 03:30 summer time.
    expect(fromZoned({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, 'Europe/Bratislava').toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(fromZoned({ year: 2026, month: 10, day: 25 }, 'Europe/Bratislava').toISOString()).toBe('2026-10-24T22:00:00.000Z');
  });
});

describe('a sale at 23:30 the evening before midnight is skipped (America/Santiago)', () => {
  let hub: TestHub;
  let a: Awaited<ReturnType<typeof register>>;
  let late: any;
  let next: any;

  async function sellAt(iso: string): Promise<any> {
    hub.clock.set(iso);
    hub.adminToken = await hub.login('admin', ADMIN_PASSWORD, 'BackOffice');
    a.token = await hub.login(a.userName, 'pw', a.device);
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, { token: a.token }));
    return expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 6.9 }] }, { token: a.token }));
  }

  beforeAll(async () => {
    hub = await startHub({ timeZone: 'America/Santiago', clock: new FakeClock('2026-09-05T12:00:00Z') });
    await restaurant(hub);
    a = await register(hub);
    late = await sellAt('2026-09-06T03:30:00Z'); // 23:30 on the 5th (-04)
    next = await sellAt('2026-09-06T15:00:00Z'); // 12:00 on the 6th (-03)
  });
  afterAll(() => hub.close());

  it('the sales report puts it on the 5th', async () => {
    const r = await expect2xx(hub.call('GET', '/api/reports/sales?from=2026-09-05&to=2026-09-06&groupBy=day'));
    expect(r.rows.map((x: any) => [x.key, x.tickets, x.net])).toEqual([['2026-09-05', 1, 6.9], ['2026-09-06', 1, 6.9]]);
  });

  it('the accounting journal of the 5th holds it, and that of the 6th does not', async () => {
    const day = async (d: string) => (await expect2xx(hub.call('GET', `/api/reports/export?from=${d}&to=${d}&format=csv`))) as string;
    const fifth = await day('2026-09-05');
    const sixth = await day('2026-09-06');
    expect(fifth).toContain(late.id);
    expect(fifth).not.toContain(next.id);
    expect(sixth).toContain(next.id);
    expect(sixth).not.toContain(late.id);
  });

  it("a date's fiscal days begin at the day's first instant: a shift opened at 23:40 on the 5th is one of the 5th's", async () => {
    hub.clock.set('2026-09-06T03:40:00Z');
    hub.adminToken = await hub.login('admin', ADMIN_PASSWORD, 'BackOffice');
    const shift = await expect2xx(hub.call('POST', '/api/shifts', { openingFloat: 50, deviceName: a.device }));
    const on = await expect2xx(hub.call('GET', '/api/reports/fiscaldays?date=2026-09-05'));
    expect(on.shifts.map((s: any) => s.id)).toContain(shift.id);
  });
});
