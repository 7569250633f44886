/**
 * Shifts (issue 28, point 4): a register's drawer from its float to its count, over the API a
 * register uses. Every figure is held against sums this test makes from the tickets it closed: the
 * cash of the register's closes while the shift was open (change deducted, a return paid out), the
 * movements, the count by note and coin; tickets of another register, or closed before the shift
 * opened or after it closed, count in it not at all. The close is a cash count; the report prints.
 */
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { FakeEscPosPrinter } from '../support/fake-escpos-printer.js';
import { FAST_PRINTING } from '../printing/setup.js';
import { ALL_TICKET_RIGHTS, expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { paidByType } from './sums.js';

let hub: TestHub;
let printer: FakeEscPosPrinter;
type Register = Awaited<ReturnType<typeof register>>;
let a: Register;
let b: Register;
const D = Decimal;

beforeAll(async () => {
  printer = await FakeEscPosPrinter.start(0);
  hub = await startHub({ printing: FAST_PRINTING });
  await restaurant(hub);
  // The registers' receipt printer: the only one that answers (Kitchen and Bar are switched off).
  for (const name of ['Kitchen', 'Bar']) await expect2xx(hub.call('PUT', `/api/orderendpoints/${name}`, { type: 'TM88', address: 'tcp://127.0.0.1:9', isActive: false }));
  await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Pokladňa', type: 'TM88', address: printer.address }));
  const rights = [...ALL_TICKET_RIGHTS, 'CashCount', 'CashMovement'];
  a = await register(hub, rights);
  b = await register(hub, rights);
  for (const r of [a, b]) {
    const device = await expect2xx(hub.call('GET', `/api/devices/${r.device}`));
    await expect2xx(hub.call('PUT', `/api/devices/${r.device}`, { ...device, settings: { ...device.settings, DefaultOrderEndpointName: 'Pokladňa' } }));
  }
});
afterAll(async () => {
  await hub.close();
  await printer.close();
});

async function sell(who: Register, items: ReturnType<typeof item>[], payments: Array<{ paymentTypeNumber: number; amount: number }>, discountRate = 0): Promise<any> {
  const t = await expect2xx(hub.call('POST', '/api/tickets', { items, discountRate }, { token: who.token }));
  return expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments }, { token: who.token }));
}

/** Cash the tickets brought into the drawer, and each payment type's take: summed here from the tickets. */
function takings(tickets: any[]): { cash: number; total: number; byType: Record<number, number> } {
  const paid = paidByType(tickets, (n) => n === 1);
  return {
    cash: paid.get(1)?.amount.toNumber() ?? 0,
    total: tickets.reduce((s, t) => s.plus(t.totalPrice.amount), new D(0)).toNumber(),
    byType: Object.fromEntries([...paid].map(([n, p]) => [n, p.amount.toNumber()])),
  };
}

describe('a shift, from the float to the count', () => {
  let shift: any;
  const inShift: any[] = [];

  it('a register opens its own shift with a float; a second one, or one for another register, is refused', async () => {
    // Sold before the shift opens: no part of it.
    await sell(a, [item(1, 1)], [{ paymentTypeNumber: 1, amount: 6.9 }]);
    const r = await hub.call('POST', '/api/shifts', { openingFloat: 100 }, { token: a.token });
    expect(r.status).toBe(201);
    shift = r.body;
    expect(shift).toMatchObject({ deviceName: a.device, fiscalName: 'FP1', state: 'Open', openingFloat: 100, movements: [], openedBy: { userName: a.userName }, expected: 100, counted: null, closedAt: null });
    expect(r.headers.get('location')).toBe(`/api/shifts/${shift.id}`);
    const again = await hub.call('POST', '/api/shifts', { openingFloat: 50 }, { token: a.token });
    expect([again.status, again.body.errors?.[0]]).toEqual([400, expect.objectContaining({ memberName: 'deviceName', code: 'Unique' })]);
    const other = await hub.call('POST', '/api/shifts', { deviceName: b.device, openingFloat: 50 }, { token: a.token });
    expect([other.status, other.body.errors?.[0]?.memberName]).toEqual([400, 'deviceName']);
    const notRegister = await hub.call('POST', '/api/shifts', { deviceName: 'BackOffice' });
    expect([notRegister.status, notRegister.body.errors?.[0]?.memberName]).toEqual([400, 'deviceName']);
    const noRight = await hub.call('POST', '/api/shifts', {}, { token: (await register(hub)).token });
    expect([noRight.status, noRight.body.errors?.length, noRight.body.detail]).toEqual([403, undefined, expect.stringContaining('CashCount')]);
  });

  it("takes the cash of its register's closes while it is open: change deducted, card apart, a return paid out", async () => {
    inShift.push(await sell(a, [item(1, 2), item(3, 1)], [{ paymentTypeNumber: 1, amount: 20 }]));
    inShift.push(await sell(a, [item(2, 1)], [{ paymentTypeNumber: 2, amount: 4.5 }]));
    inShift.push(await sell(a, [item(1, 1), item(3, 2)], [{ paymentTypeNumber: 2, amount: 5 }, { paymentTypeNumber: 1, amount: 10 }], 10));
    const ret = await expect2xx(hub.call('POST', `/api/tickets/${inShift[0].id}/return`, { items: [{ id: 2, quantity: 1 }] }, { token: a.token }));
    inShift.push(await expect2xx(hub.call('POST', `/api/tickets/${ret.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: ret.totalPrice.amount }] }, { token: a.token })));
    // Another register's sale is its own drawer's.
    await sell(b, [item(1, 3)], [{ paymentTypeNumber: 1, amount: 50 }]);
    const want = takings(inShift);
    const now = await expect2xx(hub.call('GET', `/api/shifts/${shift.id}`, undefined, { token: a.token }));
    expect(now.sales).toMatchObject({ tickets: inShift.length, total: want.total, cash: want.cash });
    expect(Object.fromEntries(now.sales.payments.map((p: any) => [p.paymentTypeNumber, p.amount]))).toEqual(want.byType);
    expect(now.expected).toBe(new D(100).plus(want.cash).toNumber());
  });

  it('records cash put in and taken out with a reason (CashMovement), and counts them in what the drawer should hold', async () => {
    const put = await hub.call('POST', `/api/shifts/${shift.id}/movements`, { kind: 'In', amount: 50, reason: 'Drobné z banky' }, { token: a.token });
    expect(put.status).toBe(200);
    const out = await expect2xx(hub.call('POST', `/api/shifts/${shift.id}/movements`, { kind: 'Out', amount: 12.35, reason: 'Dodávateľ – pečivo' }, { token: a.token }));
    expect(out.movements).toEqual([
      { id: 1, at: expect.any(String), by: { userName: a.userName, name: expect.any(String) }, kind: 'In', amount: 50, reason: 'Drobné z banky' },
      { id: 2, at: expect.any(String), by: { userName: a.userName, name: expect.any(String) }, kind: 'Out', amount: 12.35, reason: 'Dodávateľ – pečivo' },
    ]);
    expect([out.cashIn, out.cashOut, out.expected]).toEqual([50, 12.35, new D(100).plus(takings(inShift).cash).plus(50).minus(12.35).toNumber()]);
    for (const [body, member] of [
      [{ kind: 'Out', amount: 0, reason: 'x' }, 'amount'],
      [{ kind: 'Out', amount: 5 }, 'reason'],
      [{ kind: 'Out', amount: 5, reason: '   ' }, 'reason'],
      [{ kind: 'Sideways', amount: 5, reason: 'x' }, 'kind'],
    ] as const) {
      const r = await hub.call('POST', `/api/shifts/${shift.id}/movements`, body, { token: a.token });
      expect([r.status, r.body.errors?.[0]?.memberName], JSON.stringify(body)).toEqual([400, member]);
    }
    const cashier = await register(hub, [...ALL_TICKET_RIGHTS, 'CashCount']);
    const noRight = await hub.call('POST', `/api/shifts/${shift.id}/movements`, { kind: 'In', amount: 1, reason: 'x' }, { token: cashier.token });
    expect([noRight.status, noRight.body.detail]).toEqual([403, expect.stringContaining('CashMovement')]);
    const otherRegister = await hub.call('POST', `/api/shifts/${shift.id}/movements`, { kind: 'In', amount: 1, reason: 'x' }, { token: b.token });
    expect([otherRegister.status, otherRegister.body.errors?.[0]?.memberName]).toEqual([400, 'id']);
  });

  it('a count in between (POST /api/cashcounts with shiftId) leaves the shift open', async () => {
    const expected = new D(100).plus(takings(inShift).cash).plus(50).minus(12.35);
    const c = await expect2xx(hub.call('POST', '/api/cashcounts', { shiftId: shift.id, counted: expected.minus(1).toNumber() }, { token: a.token }));
    expect(c).toMatchObject({ shiftId: shift.id, deviceName: a.device, closesShift: false, openingFloat: 100, cashIn: 50, cashOut: 12.35, expected: expected.toNumber(), difference: -1, fiscalName: 'FP1' });
    expect((await expect2xx(hub.call('GET', `/api/shifts/${shift.id}`))).state).toBe('Open');
    const both = await hub.call('POST', '/api/cashcounts', { shiftId: shift.id, fiscalName: 'FP1', counted: 1 });
    expect([both.status, both.body.errors?.[0]?.memberName]).toEqual([400, 'fiscalName']);
    const float = await hub.call('POST', '/api/cashcounts', { shiftId: shift.id, openingFloat: 5, counted: 1 });
    expect([float.status, float.body.errors?.[0]?.memberName]).toEqual([400, 'openingFloat']);
  });

  it('closes with a count by note and coin: expected against counted, stored as its cash count, the report printed', async () => {
    const expected = new D(100).plus(takings(inShift).cash).plus(50).minus(12.35);
    // Notes and coins that miss 0.15 € of what the drawer should hold.
    const short = expected.minus(0.15);
    const fifties = short.div(50).floor();
    let rest = short.minus(fifties.times(50));
    const denominations = [{ value: 50, count: fifties.toNumber() }];
    for (const value of [20, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01]) {
      const n = rest.div(value).floor();
      if (n.gt(0)) denominations.push({ value, count: n.toNumber() });
      rest = rest.minus(n.times(value));
    }
    const disagree = await hub.call('POST', `/api/shifts/${shift.id}/close`, { counted: expected.toNumber(), denominations }, { token: a.token });
    expect([disagree.status, disagree.body.errors?.[0]?.memberName]).toEqual([400, 'counted']);
    const noCount = await hub.call('POST', `/api/shifts/${shift.id}/close`, {}, { token: a.token });
    expect([noCount.status, noCount.body.errors?.[0]?.memberName]).toEqual([400, 'counted']);

    const printed = printer.cutTickets().length;
    const closed = await expect2xx(hub.call('POST', `/api/shifts/${shift.id}/close`, { denominations, print: {} }, { token: a.token }));
    expect(closed).toMatchObject({ state: 'Closed', counted: short.toNumber(), expected: expected.toNumber(), difference: -0.15, denominations, closedBy: { userName: a.userName }, closedAt: hub.clock.now().toISOString() });
    expect(closed.reportPrints).toEqual([expect.objectContaining({ orderEndpointName: 'Pokladňa' })]);
    const count = await expect2xx(hub.call('GET', `/api/cashcounts/${closed.countId}`));
    expect(count).toMatchObject({ shiftId: shift.id, closesShift: true, counted: short.toNumber(), expected: expected.toNumber(), difference: -0.15, denominations });

    await printer.waitFor(() => printer.cutTickets().length === printed + 1);
    const lines = printer.cutTickets()[printed];
    expect(lines[0]).toBe('SHIFT REPORT');
    const row = (label: string) => lines.find((l) => l.startsWith(label))?.slice(label.length).trim();
    expect(row('Opening float')).toBe('100.00');
    expect(row('Cash taken')).toBe(new D(takings(inShift).cash).toFixed(2));
    expect(row('Cash in')).toBe('+50.00');
    expect(row('Cash out')).toBe('-12.35');
    expect(row('Expected in drawer')).toBe(expected.toFixed(2));
    expect(row('Counted')).toBe(short.toFixed(2));
    expect(row('Difference')).toBe('-0.15');
    expect(lines).toContain('  Drobné z banky');
  });

  it('once closed it takes nothing more: no movement, no count, no second close; later closes of its register count in no shift', async () => {
    for (const [path, body] of [
      ['movements', { kind: 'In', amount: 1, reason: 'x' }],
      ['close', { counted: 1 }],
    ] as const) {
      const r = await hub.call('POST', `/api/shifts/${shift.id}/${path}`, body, { token: a.token });
      expect([r.status, r.body.errorCode], path).toEqual([403, 8]);
    }
    expect((await hub.call('POST', '/api/cashcounts', { shiftId: shift.id, counted: 1 })).status).toBe(403);
    await sell(a, [item(3, 1)], [{ paymentTypeNumber: 1, amount: 2.2 }]);
    const after = await expect2xx(hub.call('GET', `/api/shifts/${shift.id}`));
    expect(after.sales.tickets).toBe(inShift.length);
    // The next shift of the register starts from nothing.
    const next = await expect2xx(hub.call('POST', '/api/shifts', { openingFloat: 80 }, { token: a.token }));
    const sold = await sell(a, [item(2, 1)], [{ paymentTypeNumber: 1, amount: 10 }]);
    expect((await expect2xx(hub.call('GET', `/api/shifts/${next.id}`))).sales).toMatchObject({ tickets: 1, cash: sold.totalPrice.amount });
    await expect2xx(hub.call('POST', `/api/shifts/${next.id}/close`, { counted: 80 + sold.totalPrice.amount }, { token: a.token }));
  });

  it('a register reads its own shifts; the back office with ReportRead every shift, without it none', async () => {
    const bShift = await expect2xx(hub.call('POST', '/api/shifts', { openingFloat: 20 }, { token: b.token }));
    const own = await expect2xx(hub.call('GET', '/api/shifts?$sort=openedAt', undefined, { token: a.token }));
    expect(own.items.every((s: any) => s.deviceName === a.device)).toBe(true);
    expect((await hub.call('GET', `/api/shifts/${bShift.id}`, undefined, { token: a.token })).status).toBe(403);
    const all = await expect2xx(hub.call('GET', '/api/shifts?State=Open'));
    expect(all.items.map((s: any) => s.id)).toEqual([bShift.id]);
    // Without ReportRead the back office's own device has no shifts to read.
    const nobody = await hub.userWith(['CashCount']);
    expect((await expect2xx(hub.call('GET', '/api/shifts', undefined, { token: nobody }))).totalCount).toBe(0);
    // The back office may close a register's shift (the manager at the end of the day).
    expect((await expect2xx(hub.call('POST', `/api/shifts/${bShift.id}/close`, { counted: 20 }))).difference).toBe(0);
  });
});
