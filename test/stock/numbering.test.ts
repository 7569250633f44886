/**
 * Document numbers of stock transfers (CONTRACT §7, §11), driven by a FakeClock in the store's
 * zone Europe/Bratislava (UTC+1 in winter): tokens, period units and amounts, repeat across
 * month and year boundaries, several entries, currentNumber, missing numberings and fallbacks,
 * format validation, one active numbering per type, parallel writers.
 *
 * Every test makes its own numbering (with its own format) so that tests do not share counters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';
import { expectProblem, ok, plu, post, qty, sell, stock, till } from './fixture.js';

let hub: TestHub;
const START = '2026-11-21T10:00:00Z';
beforeAll(async () => {
  hub = await startHub();
  await stock(hub, 'Store', 'Bar');
  await plu(hub, 'Store', 10, 'StockItem', { unitPrice: { amount: 1.5 } });
  await plu(hub, 'Bar', 10);
});
afterAll(() => hub.close());

type Type = 'Income' | 'Outcome' | 'Transfer' | 'Invoice';
const ROUTE: Record<Type, Record<string, string>> = {
  Income: { targetStockName: 'Store' },
  Outcome: { sourceStockName: 'Store' },
  Invoice: { sourceStockName: 'Store' },
  Transfer: { sourceStockName: 'Store', targetStockName: 'Bar' },
};

/** Moves the clock; the admin logs in again when the move could outlast or precede the token. */
let loggedInAt = Date.parse(START);
async function at(iso: string): Promise<void> {
  hub.clock.set(iso);
  if (Math.abs(Date.parse(iso) - loggedInAt) > 3600_000) {
    hub.adminToken = await hub.login('admin', ADMIN_PASSWORD, 'BackOffice');
    loggedInAt = Date.parse(iso);
  }
}

/** POSTs one transfer of `type` (at `when`, when given) and returns its document number. */
async function issue(type: Type, when?: string): Promise<string> {
  if (when) await at(when);
  const r = await post(hub, { type, ...ROUTE[type], items: [{ plu: { code: 10 }, quantity: 1 }] });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.documentNumber;
}

const entry = (startAt: string, unit: string, amount = 1, extra: Record<string, unknown> = {}) => ({ startAt, period: { unit, amount }, ...extra });

/** Deactivates every active numbering of `type`, then makes this one, the only active one. */
async function numbering(id: string, type: string, format: string, entries: unknown[], repeat = true): Promise<any> {
  const active = await hub.call('GET', `/api/stocktransfernumberings?type=${type}&isActive=true`);
  for (const n of active.body.items) await ok(hub.call('PUT', `/api/stocktransfernumberings/${n.id}`, { ...n, isActive: false }));
  return ok(hub.call('POST', '/api/stocktransfernumberings', { id, type, format, repeat, isActive: true, numberings: entries }));
}

const get = async (id: string) => (await hub.call('GET', `/api/stocktransfernumberings/${id}`)).body;

describe('the defaults made on first start', () => {
  it('are active, repeating, with one entry from the start of the year (local time)', async () => {
    const r = await hub.call('GET', '/api/stocktransfernumberings?$sort=id');
    expect(r.body.items.map((n: any) => [n.id, n.type, n.format, n.repeat, n.isActive])).toEqual([
      ['correction', 'Correction', 'K-{yyyy}{MM}{i4}', true, true],
      ['income', 'Income', 'P-{yyyy}{MM}{i4}', true, true],
      ['invoice', 'Invoice', 'FA-{yyyy}{i4}', true, true],
      ['outcome', 'Outcome', 'V-{yyyy}{MM}{i4}', true, true],
      ['sale', 'Sale', 'S-{yyyy}{MM}{i6}', true, true],
      ['transfer', 'Transfer', 'T-{yyyy}{MM}{i4}', true, true],
    ]);
    for (const n of r.body.items) {
      expect(n.numberings).toHaveLength(1);
      // 2026-01-01T00:00 in Bratislava.
      expect(n.numberings[0]).toMatchObject({ isActive: true, startAt: '2025-12-31T23:00:00.000Z', currentNumber: 0 });
      expect(n.numberings[0].period).toEqual({ unit: n.type === 'Invoice' ? 'Year' : 'Month', amount: 1 });
    }
  });
});

describe('format tokens', () => {
  it('{yyyy} {yy} {MM} {dd} in the store zone and {iN} zero-padded, other text literal', async () => {
    await numbering('tokens', 'Outcome', 'OUT/{yyyy}/{yy}-{MM}-{dd}/#{i3}', [entry('2026-01-01T00:00:00+01:00', 'Year')], false);
    expect(await issue('Outcome', START)).toBe('OUT/2026/26-11-21/#001');
    // 23:30 UTC is already the 22nd in Bratislava.
    expect(await issue('Outcome', '2026-11-21T23:30:00Z')).toBe('OUT/2026/26-11-22/#002');
    expect(await issue('Outcome', '2026-03-05T12:00:00Z')).toBe('OUT/2026/26-03-05/#003');
  });

  it('{i1} pads to one digit and grows past it rather than cutting digits', async () => {
    await numbering('one-digit', 'Outcome', 'ONE-{i1}', [entry('2026-01-01T00:00:00+01:00', 'Year', 1, { currentNumber: 8 })], false);
    expect(await issue('Outcome', START)).toBe('ONE-9');
    expect(await issue('Outcome')).toBe('ONE-10');
  });
});

describe('repeat across boundaries', () => {
  it('a monthly repeating numbering restarts at 1 in the new month (local midnight), and a yearly one in the new year', async () => {
    // The default Income numbering: P-{yyyy}{MM}{i4}, Month windows from 2026-01-01 local.
    expect(await issue('Income', '2026-11-30T22:30:00Z')).toBe('P-2026110001'); // 23:30 on Nov 30 local
    expect(await issue('Income', '2026-11-30T22:59:59Z')).toBe('P-2026110002');
    expect(await issue('Income', '2026-11-30T23:00:00Z')).toBe('P-2026120001'); // 00:00 on Dec 1 local
    expect(await issue('Income')).toBe('P-2026120002');
    expect((await get('income')).numberings[0].currentNumber).toBe(2);
    expect(await issue('Income', '2026-12-31T22:59:00Z')).toBe('P-2026120003');
    expect(await issue('Income', '2026-12-31T23:00:00Z')).toBe('P-2027010001'); // 00:00 on Jan 1 2027 local
    expect((await get('income')).numberings[0].currentNumber).toBe(1);
    // The default Invoice numbering: FA-{yyyy}{i4}, Year windows.
    expect(await issue('Invoice', '2026-05-01T10:00:00Z')).toBe('FA-20260001');
    expect(await issue('Invoice', '2026-12-31T22:00:00Z')).toBe('FA-20260002');
    expect(await issue('Invoice', '2027-01-02T10:00:00Z')).toBe('FA-20270001');
  });

  it('currentNumber is what the current window issued: 0 in a new window until its first number (CONTRACT §11)', async () => {
    await numbering('window-now', 'Transfer', 'WN-{yyyy}{MM}-{i4}', [entry('2026-01-01T00:00:00+01:00', 'Month')]);
    expect(await issue('Transfer', '2026-11-30T10:00:00Z')).toBe('WN-202611-0001');
    expect(await issue('Transfer')).toBe('WN-202611-0002');
    expect((await get('window-now')).numberings[0]).toMatchObject({ currentNumber: 2, currentPeriodStart: '2026-10-31T23:00:00.000Z' });
    await at('2026-12-01T10:00:00Z');
    // Nothing issued in December yet: the last number of the current window is none.
    expect((await get('window-now')).numberings[0]).toMatchObject({ currentNumber: 0, currentPeriodStart: '2026-11-30T23:00:00.000Z' });
    const listed = (await hub.call('GET', '/api/stocktransfernumberings?id=window-now')).body.items[0];
    expect(listed.numberings[0].currentNumber).toBe(0);
    expect(await issue('Transfer')).toBe('WN-202612-0001');
    expect((await get('window-now')).numberings[0].currentNumber).toBe(1);
    // A PUT of what was read in a new window (0) restarts nothing twice: the next number is still the next one.
    await at('2027-01-05T10:00:00Z');
    const read = await get('window-now');
    expect(read.numberings[0].currentNumber).toBe(0);
    await ok(hub.call('PUT', '/api/stocktransfernumberings/window-now', read));
    expect(await issue('Transfer')).toBe('WN-202701-0001');
  });

  it('without repeat the counter continues across months and years', async () => {
    await numbering('no-repeat', 'Transfer', 'NR-{yyyy}{MM}-{i4}', [entry('2026-01-01T00:00:00+01:00', 'Month')], false);
    expect(await issue('Transfer', '2026-11-30T22:00:00Z')).toBe('NR-202611-0001');
    expect(await issue('Transfer', '2026-12-01T10:00:00Z')).toBe('NR-202612-0002');
    expect(await issue('Transfer', '2027-01-01T10:00:00Z')).toBe('NR-202701-0003');
    expect((await get('no-repeat')).numberings[0].currentNumber).toBe(3);
  });
});

describe('period units and amounts', () => {
  it('Day: a new window every local midnight', async () => {
    await numbering('day', 'Outcome', 'D{MM}{dd}-{i2}', [entry('2026-11-20T00:00:00+01:00', 'Day')]);
    expect(await issue('Outcome', START)).toBe('D1121-01');
    expect(await issue('Outcome', '2026-11-21T22:59:00Z')).toBe('D1121-02');
    expect(await issue('Outcome', '2026-11-21T23:00:00Z')).toBe('D1122-01');
  });

  it('Day with amount 3: windows of three days counted from startAt', async () => {
    await numbering('day3', 'Outcome', 'D3-{MM}{dd}-{i2}', [entry('2026-11-20T00:00:00+01:00', 'Day', 3)]);
    expect(await issue('Outcome', '2026-11-20T08:00:00Z')).toBe('D3-1120-01');
    expect(await issue('Outcome', '2026-11-22T20:00:00Z')).toBe('D3-1122-02');
    expect(await issue('Outcome', '2026-11-22T23:00:00Z')).toBe('D3-1123-01'); // Nov 23 local: the second window
    expect(await issue('Outcome', '2026-11-25T22:00:00Z')).toBe('D3-1125-02');
    expect(await issue('Outcome', '2026-11-25T23:00:00Z')).toBe('D3-1126-01');
  });

  it('Week: windows of seven days from startAt (a Monday here)', async () => {
    await numbering('week', 'Outcome', 'W{MM}{dd}-{i2}', [entry('2026-11-16T00:00:00+01:00', 'Week')]);
    expect(await issue('Outcome', START)).toBe('W1121-01'); // Saturday
    expect(await issue('Outcome', '2026-11-22T22:59:00Z')).toBe('W1122-02'); // Sunday 23:59 local
    expect(await issue('Outcome', '2026-11-22T23:00:00Z')).toBe('W1123-01'); // Monday 00:00 local
  });

  it('Week with amount 2', async () => {
    await numbering('week2', 'Outcome', 'W2{MM}{dd}-{i2}', [entry('2026-11-16T00:00:00+01:00', 'Week', 2)]);
    expect(await issue('Outcome', START)).toBe('W21121-01');
    expect(await issue('Outcome', '2026-11-23T10:00:00Z')).toBe('W21123-02');
    expect(await issue('Outcome', '2026-11-29T22:59:00Z')).toBe('W21129-03');
    expect(await issue('Outcome', '2026-11-29T23:00:00Z')).toBe('W21130-01');
  });

  it('Month with amount 2: two-month windows (Nov–Dec, then Jan–Feb)', async () => {
    await numbering('month2', 'Outcome', 'M2-{yyyy}{MM}-{i2}', [entry('2026-01-01T00:00:00+01:00', 'Month', 2)]);
    expect(await issue('Outcome', '2026-10-31T10:00:00Z')).toBe('M2-202610-01'); // Sep–Oct
    expect(await issue('Outcome', '2026-11-01T10:00:00Z')).toBe('M2-202611-01');
    expect(await issue('Outcome', '2026-12-31T22:00:00Z')).toBe('M2-202612-02');
    expect(await issue('Outcome', '2026-12-31T23:00:00Z')).toBe('M2-202701-01');
    expect(await issue('Outcome', '2027-02-28T10:00:00Z')).toBe('M2-202702-02');
    expect(await issue('Outcome', '2027-03-01T10:00:00Z')).toBe('M2-202703-01');
  });

  it('Month windows counted from the 31st end on the last day of shorter months', async () => {
    await numbering('month31', 'Outcome', 'M31-{MM}{dd}-{i2}', [entry('2026-01-31T00:00:00+01:00', 'Month')]);
    expect(await issue('Outcome', '2026-02-27T10:00:00Z')).toBe('M31-0227-01'); // Jan 31 – Feb 28
    expect(await issue('Outcome', '2026-02-28T10:00:00Z')).toBe('M31-0228-01'); // Feb 28 – Mar 31
    expect(await issue('Outcome', '2026-03-30T10:00:00Z')).toBe('M31-0330-02');
    expect(await issue('Outcome', '2026-03-31T10:00:00Z')).toBe('M31-0331-01'); // Mar 31 – Apr 30
  });

  it('Year with amount 2', async () => {
    await numbering('year2', 'Outcome', 'Y2-{yyyy}-{i2}', [entry('2026-01-01T00:00:00+01:00', 'Year', 2)]);
    expect(await issue('Outcome', '2026-06-01T10:00:00Z')).toBe('Y2-2026-01');
    expect(await issue('Outcome', '2027-12-31T22:00:00Z')).toBe('Y2-2027-02');
    expect(await issue('Outcome', '2027-12-31T23:00:00Z')).toBe('Y2-2028-01');
  });

  it('windows follow local time across a daylight saving change', async () => {
    // Summer time ends on 2026-10-25 in Bratislava: Oct 26 00:00 local is 23:00 UTC on the 25th.
    await numbering('dst', 'Outcome', 'DST-{MM}{dd}-{i2}', [entry('2026-10-20T00:00:00+02:00', 'Day')]);
    expect(await issue('Outcome', '2026-10-25T22:30:00Z')).toBe('DST-1025-01'); // 23:30 local, winter time
    expect(await issue('Outcome', '2026-10-25T23:00:00Z')).toBe('DST-1026-01');
  });

  it('a window whose local start time is shown twice begins at its first showing', async () => {
    // Daily at 02:30 from Oct 24. On Oct 25 the clock shows 02:30 twice: 00:30 UTC (summer time) and
    // 01:30 UTC (winter time). The 25th's window begins at the first, so 02:45 summer time is its first number.
    await at('2026-10-24T10:00:00Z');
    await numbering('dst2', 'Outcome', 'DS2-{MM}{dd}-{i2}', [entry('2026-10-24T02:30:00+02:00', 'Day')]);
    expect(await issue('Outcome')).toBe('DS2-1024-01');
    expect(await issue('Outcome', '2026-10-25T00:45:00Z')).toBe('DS2-1025-01');
    expect(await issue('Outcome', '2026-10-25T01:45:00Z')).toBe('DS2-1025-02');
  });

  it('an entry starting at the second showing of a time counts its window from its own start', async () => {
    await at('2026-10-25T01:40:00Z');
    await numbering('dst3', 'Outcome', 'DS3-{i2}', [entry('2026-10-25T02:30:00+01:00', 'Day')]);
    expect((await get('dst3')).numberings[0].currentPeriodStart).toBe('2026-10-25T01:30:00.000Z');
  });

  it('refuses an unknown unit or an amount below 1', async () => {
    const bad = (period: unknown) => hub.call('POST', '/api/stocktransfernumberings', { type: 'Outcome', format: 'X{i2}', isActive: false, numberings: [{ startAt: START, period }] });
    expectProblem(await bad({ unit: 'Fortnight', amount: 1 }), 400, 3, 'numberings[0].period.unit');
    expectProblem(await bad({ unit: 'Day', amount: 0 }), 400, 3, 'numberings[0].period.amount');
    expectProblem(await bad({ unit: 'Day', amount: 1.5 }), 400, 3, 'numberings[0].period.amount');
    expect((await bad({ unit: 'week', amount: 3 })).status).toBe(201);
  });
});

describe('several entries', () => {
  it('uses the active entry with the latest startAt not after the transfer; a future one waits', async () => {
    // Listed latest first, so the choice cannot be by position.
    await numbering('entries', 'Transfer', 'E-{yyyy}{MM}-{i3}', [
      entry('2026-12-01T00:00:00+01:00', 'Year', 1, { currentNumber: 100 }),
      entry('2026-01-01T00:00:00+01:00', 'Month'),
      entry('2026-11-15T00:00:00+01:00', 'Month', 1, { isActive: false, currentNumber: 500 }),
    ]);
    expect(await issue('Transfer', START)).toBe('E-202611-001');
    expect(await issue('Transfer')).toBe('E-202611-002');
    let n = await get('entries');
    expect(n.numberings.map((e: any) => e.currentNumber)).toEqual([100, 2, 500]);
    expect(await issue('Transfer', '2026-11-30T23:00:00Z')).toBe('E-202612-101');
    // The December entry counts in Year windows from Dec 1: January is in the same window.
    expect(await issue('Transfer', '2027-01-10T10:00:00Z')).toBe('E-202701-102');
    expect(await issue('Transfer', '2027-11-30T23:00:00Z')).toBe('E-202712-001');
    n = await get('entries');
    expect(n.numberings.map((e: any) => e.currentNumber)).toEqual([1, 2, 500]);
  });

  it('with only a future entry, a POST is refused with a clear 400 until its start', async () => {
    await numbering('future', 'Transfer', 'F-{i3}', [entry('2026-12-01T00:00:00+01:00', 'Month')]);
    await at(START);
    const r = await post(hub, { type: 'Transfer', ...ROUTE.Transfer, items: [{ plu: { code: 10 }, quantity: 1 }] });
    expectProblem(r, 400, 3, 'type');
    expect(r.body.detail).toMatch(/numbering/i);
    expect(await issue('Transfer', '2026-11-30T23:00:00Z')).toBe('F-001');
  });
});

describe('currentNumber', () => {
  it('is the last number issued, kept in the numbering (GET it after)', async () => {
    const n = await numbering('current', 'Outcome', 'C-{yyyy}{MM}-{i4}', [entry('2026-01-01T00:00:00+01:00', 'Month')]);
    expect(n.numberings[0].currentNumber).toBe(0);
    await issue('Outcome', START);
    await issue('Outcome');
    await issue('Outcome');
    const after = await get('current');
    expect(after.numberings[0].currentNumber).toBe(3);
    expect(after._v).toBe(n._v + 3);
  });

  it('a manager-set currentNumber continues from there, also on an entry that has issued nothing yet', async () => {
    const n = await numbering('manager', 'Outcome', 'MG-{yyyy}{MM}-{i4}', [entry('2026-01-01T00:00:00+01:00', 'Month', 1, { currentNumber: 41 })]);
    expect(n.numberings[0].currentNumber).toBe(41);
    expect(await issue('Outcome', START)).toBe('MG-202611-0042');
    // Set again through PUT, after issuing.
    const stored = await get('manager');
    stored.numberings[0].currentNumber = 99;
    await ok(hub.call('PUT', '/api/stocktransfernumberings/manager', stored));
    expect(await issue('Outcome')).toBe('MG-202611-0100');
    expect((await get('manager')).numberings[0].currentNumber).toBe(100);
  });

  it('a manager-set currentNumber counts in the current window even when the last number was issued in an earlier one', async () => {
    await numbering('manager2', 'Outcome', 'MH-{yyyy}{MM}-{i4}', [entry('2026-01-01T00:00:00+01:00', 'Month')]);
    expect(await issue('Outcome', '2026-10-10T10:00:00Z')).toBe('MH-202610-0001');
    await at(START);
    const stored = await get('manager2');
    stored.numberings[0].currentNumber = 7;
    await ok(hub.call('PUT', '/api/stocktransfernumberings/manager2', stored));
    expect(await issue('Outcome')).toBe('MH-202611-0008');
  });

  it('a PUT that leaves currentNumber alone keeps counting in the window', async () => {
    await numbering('keep', 'Outcome', 'KP-{yyyy}{MM}-{i4}', [entry('2026-01-01T00:00:00+01:00', 'Month')]);
    expect(await issue('Outcome', START)).toBe('KP-202611-0001');
    const stored = await get('keep');
    await ok(hub.call('PUT', '/api/stocktransfernumberings/keep', { ...stored, format: 'KQ-{yyyy}{MM}-{i4}' }));
    expect(await issue('Outcome')).toBe('KQ-202611-0002');
  });

  it('never issues a number twice, even when a manager sets the counter back', async () => {
    await numbering('back', 'Outcome', 'BK-{i4}', [entry('2026-01-01T00:00:00+01:00', 'Month', 1, { currentNumber: 1 })]);
    expect(await issue('Outcome', START)).toBe('BK-0002');
    expect(await issue('Outcome')).toBe('BK-0003');
    const stored = await get('back');
    stored.numberings[0].currentNumber = 0;
    await ok(hub.call('PUT', '/api/stocktransfernumberings/back', stored));
    expect(await issue('Outcome')).toBe('BK-0001');
    expect(await issue('Outcome')).toBe('BK-0004');
    // A format without period tokens used again in the next month skips the numbers taken.
    expect(await issue('Outcome', '2026-12-05T10:00:00Z')).toBe('BK-0005');
  });

  it('refuses a negative or fractional currentNumber', async () => {
    const bad = (currentNumber: unknown) =>
      hub.call('POST', '/api/stocktransfernumberings', { type: 'Outcome', format: 'X{i2}', isActive: false, numberings: [{ ...entry(START, 'Day'), currentNumber }] });
    expectProblem(await bad(-1), 400, 3, 'numberings[0].currentNumber');
    expectProblem(await bad(1.5), 400, 3, 'numberings[0].currentNumber');
  });
});

describe('without an active numbering', () => {
  it('a POST of that type is a clear 400 naming type; nothing moves', async () => {
    await at(START);
    const invoice = await get('invoice');
    await ok(hub.call('PUT', '/api/stocktransfernumberings/invoice', { ...invoice, isActive: false }));
    const before = await qty(hub, 'Store', 10);
    const r = await post(hub, { type: 'Invoice', sourceStockName: 'Store', items: [{ plu: { code: 10 }, quantity: 1 }] });
    expectProblem(r, 400, 3, 'type');
    expect(r.body.detail).toContain('No active stock transfer numbering');
    expect(r.body.detail).toContain('Invoice');
    expect(await qty(hub, 'Store', 10)).toBe(before);
    // An active numbering without an active entry is the same.
    const off = await get('invoice');
    await ok(hub.call('PUT', '/api/stocktransfernumberings/invoice', { ...off, isActive: true, numberings: [{ ...off.numberings[0], isActive: false }] }));
    expectProblem(await post(hub, { type: 'Invoice', sourceStockName: 'Store', items: [{ plu: { code: 10 }, quantity: 1 }] }), 400, 3, 'type');
    // Back on, numbering goes on.
    const now = await get('invoice');
    await ok(hub.call('PUT', '/api/stocktransfernumberings/invoice', { ...now, numberings: [{ ...now.numberings[0], isActive: true }] }));
    expect(await issue('Invoice', '2027-03-01T10:00:00Z')).toBe('FA-20270002');
  });

  it('server-made Sale and Correction documents fall back to the default formats', async () => {
    await at(START);
    const token = await till(hub);
    // Sale: deactivated; Correction: deleted.
    const sale = await get('sale');
    await ok(hub.call('PUT', '/api/stocktransfernumberings/sale', { ...sale, isActive: false }));
    await ok(hub.call('DELETE', '/api/stocktransfernumberings/correction'));
    const ticket = await sell(hub, token, [{ code: 10, stockName: 'Store', quantity: 2 }]);
    const s = (await hub.call('GET', `/api/stocktransfers?ticketId=${ticket.id}`)).body.items[0];
    expect(s).toMatchObject({ type: 'Sale', documentNumber: 'S-202611000001' });
    const ticket2 = await sell(hub, token, [{ code: 10, stockName: 'Store', quantity: 1 }]);
    expect((await hub.call('GET', `/api/stocktransfers?ticketId=${ticket2.id}`)).body.items[0].documentNumber).toBe('S-202611000002');
    const taking = await ok(
      hub.call('POST', '/api/stocktakings', { closedAt: START, closedBy: { userName: 'admin' }, items: [{ plu: { code: 10, stockName: 'Bar' }, actualQuantity: 0 }] }),
    );
    const k = (await hub.call('GET', `/api/stocktransfers/${taking.stockTransferId}`)).body;
    expect(k).toMatchObject({ type: 'Correction', documentNumber: 'K-2026110001', stockTakingId: taking.id });
    // Back to the configured numbering: it skips the numbers the fallback used.
    await ok(hub.call('PUT', '/api/stocktransfernumberings/sale', { ...(await get('sale')), isActive: true }));
    const ticket3 = await sell(hub, token, [{ code: 10, stockName: 'Store', quantity: 1 }]);
    expect((await hub.call('GET', `/api/stocktransfers?ticketId=${ticket3.id}`)).body.items[0].documentNumber).toBe('S-202611000003');
  });
});

describe('format validation', () => {
  const create = (format: unknown, method = 'POST', id = '') =>
    hub.call(method, `/api/stocktransfernumberings${id ? `/${id}` : ''}`, { type: 'Outcome', format, isActive: false, numberings: [entry(START, 'Month')] });
  it.each([
    ['an unknown token', 'X-{yyyy}{MMM}{i4}'],
    ['a token in the wrong case', 'X-{YYYY}{i4}'],
    ['no {iN}', 'X-{yyyy}{MM}'],
    ['two {iN}', 'X-{i2}-{i4}'],
    ['{i0}', 'X-{i0}'],
    ['an unbalanced brace', 'X-{i4'],
    ['an empty format', ''],
    ['a format that is not a string', 12],
  ])('refuses %s', async (_what, format) => {
    expectProblem(await create(format), 400, 3, 'format');
    expectProblem(await create(format, 'PUT', 'bad-format'), 400, 3, 'format');
  });

  it('accepts literal text around the tokens, and only {iN}', async () => {
    expect((await create('Dodací list č. {i5} / {dd}.{MM}.{yy}')).status).toBe(201);
    expect((await create('{i4}')).status).toBe(201);
  });

  it('a format is required', async () => {
    expectProblem(await hub.call('POST', '/api/stocktransfernumberings', { type: 'Outcome', isActive: false }), 400, 3, 'format', 'Required');
  });
});

describe('one active numbering per type', () => {
  it('refuses a second active one with 400 Unique; an inactive one is fine and may take over', async () => {
    const second = await hub.call('POST', '/api/stocktransfernumberings', { id: 'income-2', type: 'Income', format: 'PI-{i4}', numberings: [entry(START, 'Year')] });
    expectProblem(second, 400, 3, 'isActive', 'Unique');
    expect((await hub.call('GET', '/api/stocktransfernumberings/income-2')).status).toBe(404);
    const inactive = await ok(hub.call('POST', '/api/stocktransfernumberings', { id: 'income-2', type: 'Income', format: 'PI-{i4}', isActive: false, numberings: [entry(START, 'Year')] }));
    // Switching it on while the default is active: still 400.
    expectProblem(await hub.call('PUT', '/api/stocktransfernumberings/income-2', { ...inactive, isActive: true }), 400, 3, 'isActive', 'Unique');
    // Another type is not a clash.
    const other = await hub.call('PUT', '/api/stocktransfernumberings/income-2', { ...inactive, type: 'Outcome', isActive: false });
    expect(other.status).toBe(200);
    // After the default is switched off, it may take over.
    const income = await get('income');
    await ok(hub.call('PUT', '/api/stocktransfernumberings/income', { ...income, isActive: false }));
    const on = await hub.call('PUT', '/api/stocktransfernumberings/income-2', { ...(await get('income-2')), type: 'Income', isActive: true });
    expect(on.status).toBe(200);
    expect(await issue('Income', START)).toBe('PI-0001');
    expect((await hub.call('GET', '/api/stocktransfernumberings?type=Income&isActive=true')).body.items.map((n: any) => n.id)).toEqual(['income-2']);
  });
});

describe('parallel writers', () => {
  it('50 parallel POSTs of each of two types get 50 distinct consecutive numbers per type', async () => {
    await numbering('par-a', 'Outcome', 'PA-{yyyy}{MM}-{i3}', [entry('2026-01-01T00:00:00+01:00', 'Month')]);
    await numbering('par-b', 'Transfer', 'PB-{yyyy}{MM}-{i3}', [entry('2026-01-01T00:00:00+01:00', 'Month')]);
    await at(START);
    const before = [await qty(hub, 'Store', 10), await qty(hub, 'Bar', 10)];
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) => {
        const type: Type = i % 2 ? 'Transfer' : 'Outcome';
        return post(hub, { type, ...ROUTE[type], items: [{ plu: { code: 10 }, quantity: 0.5 }] });
      }),
    );
    expect(replies.filter((r) => r.status !== 201)).toEqual([]);
    const numbers = (prefix: string) => replies.map((r) => r.body.documentNumber as string).filter((d) => d.startsWith(prefix)).sort();
    const expected = (prefix: string) => Array.from({ length: 50 }, (_, i) => `${prefix}-202611-${String(i + 1).padStart(3, '0')}`);
    expect(numbers('PA')).toEqual(expected('PA'));
    expect(numbers('PB')).toEqual(expected('PB'));
    expect((await get('par-a')).numberings[0].currentNumber).toBe(50);
    expect((await get('par-b')).numberings[0].currentNumber).toBe(50);
    // 50 × 0.5 out, 50 × 0.5 over to the Bar.
    expect(await qty(hub, 'Store', 10)).toBe(before[0] - 50);
    expect(await qty(hub, 'Bar', 10)).toBe(before[1] + 25);
  });
});
