/**
 * From a closed ticket (issue 21, item 6): POST /api/tickets/{id}/print_receipt_copy and
 * POST /api/tickets/{id}/return. Both are allowed from the back office, on purpose, while every
 * ticket write keeps needing the Sale environment (CONTRACT §6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorFiscalDevice } from '../../drivers/fiscal/simulator/driver.js';
import { FakeEscPosPrinter } from '../support/fake-escpos-printer.js';
import { startHub, type TestHub } from '../support/hub.js';
import { FAST_PRINTING } from '../printing/setup.js';
import { expect2xx, item, register, restaurant } from './fixture.js';

let hub: TestHub;
let printer: FakeEscPosPrinter;
let fp1: SimulatorFiscalDevice;
type Cashier = Awaited<ReturnType<typeof register>>;
let cashier: Cashier;
/** A manager on the BackOffice device: may read every sale and start returns. */
let manager: string;

beforeAll(async () => {
  printer = await FakeEscPosPrinter.start(0);
  hub = await startHub({ printing: FAST_PRINTING });
  await restaurant(hub);
  // Only this printer is reachable: the fixture's Kitchen and Bar are switched off so no worker dials them.
  for (const name of ['Kitchen', 'Bar']) await expect2xx(hub.call('PUT', `/api/orderendpoints/${name}`, { type: 'TM88', address: 'tcp://127.0.0.1:9', isActive: false }));
  await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Bill', type: 'TM88', address: printer.address }));
  await expect2xx(hub.call('POST', '/api/customers', { id: 'c1', firstName: 'Eva', lastName: 'Nová', discountRate: 10 }));
  cashier = await register(hub);
  manager = await hub.userWith(['TicketReadAll', 'Storno', 'TicketCreate']);
  fp1 = hub.fiscal.get({ name: 'FP1', driver: 'simulator', address: 'sim:fp1', settings: {} }) as SimulatorFiscalDevice;
});
afterAll(async () => {
  await hub.close();
  await printer.close();
});

/** 2 × Gulyás 6.90 (item 1), 1 × Pivo 2.20 (item 2), 10 % off the ticket for customer c1: total 14.40, paid 20 in cash. */
async function sale(name = 'Stôl 7'): Promise<any> {
  const t = await expect2xx(hub.call('POST', '/api/tickets', { name, customer: { id: 'c1' }, discountRate: 10, items: [item(1, 2), item(3, 1)] }, { token: cashier.token }));
  return expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 20 }] }, { token: cashier.token }));
}
const startReturn = (id: string, body?: unknown, token = manager, headers?: Record<string, string>) => hub.call('POST', `/api/tickets/${id}/return`, body, { token, headers });
const copy = (id: string, body?: unknown, token = manager) => hub.call('POST', `/api/tickets/${id}/print_receipt_copy`, body, { token });
const memberOf = (r: { body: any }) => r.body.errors?.map((e: any) => e.memberName);

describe('POST /api/tickets/{id}/print_receipt_copy', () => {
  it('prints a COPY of the receipt with its fiscal numbers and payments, from the back office, changing nothing', async () => {
    const closed = await sale('Stôl 3');
    const receipts = fp1.journal.length;
    const printed = printer.cutTickets().length;
    const r = await copy(closed.id, { orderEndpointName: 'Bill' });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ ticketId: closed.id, orderEndpointName: 'Bill', kind: 'receiptCopy', state: 'Queued' });
    await printer.waitFor(() => printer.cutTickets().length === printed + 1);
    const lines = printer.cutTickets()[printed];
    expect(lines[0]).toBe(' ** COPY ** ');
    expect(lines.at(-1)).toBe(' ** COPY ** ');
    expect(lines).toContain('RECEIPT COPY');
    expect(lines).toContain('Not a fiscal receipt');
    expect(lines.find((l) => l.startsWith('Receipt no.'))).toMatch(new RegExp(` ${closed.closeInfo.number}$`));
    expect(lines.find((l) => l.startsWith('Daily report no.'))).toMatch(new RegExp(` ${closed.closeInfo.dailySalesReportNumber}$`));
    expect(lines.find((l) => l.startsWith('Fiscal device'))).toMatch(/ FP1$/);
    expect(lines.find((l) => l.startsWith('TOTAL'))).toMatch(/ 14\.40$/);
    expect(lines.find((l) => l.startsWith('Cash'))).toMatch(/ 20\.00$/);
    expect(lines.find((l) => l.startsWith('Change'))).toMatch(/ 5\.60$/);
    // No fiscal receipt, no change to the ticket.
    expect(fp1.journal.length).toBe(receipts);
    expect((await hub.call('GET', `/api/tickets/${closed.id}`)).body._v).toBe(closed._v);
  });

  it('names the payments as the issued receipt did, even after the payment type was renamed', async () => {
    const closed = await sale('Stôl 8');
    const type = (await hub.call('GET', '/api/paymenttypes/1')).body;
    await expect2xx(hub.call('PUT', '/api/paymenttypes/1', { ...type, name: 'Hotovosť' }));
    try {
      const printed = printer.cutTickets().length;
      expect((await copy(closed.id, { orderEndpointName: 'Bill' })).status).toBe(202);
      await printer.waitFor(() => printer.cutTickets().length === printed + 1);
      const lines = printer.cutTickets()[printed];
      expect(lines.find((l) => l.startsWith('Cash'))).toMatch(/ 20\.00$/);
      expect(lines.some((l) => l.startsWith('Hotovos'))).toBe(false);
    } finally {
      await expect2xx(hub.call('PUT', '/api/paymenttypes/1', { ...type, _v: undefined }));
    }
  });

  it('uses the device default printer; without one and without a body it is a 400 naming orderEndpointName', async () => {
    const closed = await sale();
    // The cashier's register has DefaultOrderEndpointName "Bar" (inactive here): its default is used, and refused as inactive.
    const own = await copy(closed.id, undefined, cashier.token);
    expect(own.status).toBe(403);
    expect(own.body.errorCode).toBe(8);
    expect(own.body.detail).toContain("'Bar'");
    const none = await copy(closed.id);
    expect(none.status).toBe(400);
    expect(memberOf(none)).toEqual(['orderEndpointName']);
  });

  it('refuses an open ticket (400 naming id) and an unknown one (404)', async () => {
    const open = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, { token: cashier.token }));
    const r = await copy(open.id, { orderEndpointName: 'Bill' });
    expect(r.status).toBe(400);
    expect(memberOf(r)).toEqual(['id']);
    expect(r.body.detail ?? r.body.errors[0].message).toMatch(/open/);
    expect((await copy('nope', { orderEndpointName: 'Bill' })).status).toBe(404);
  });

  it("reads as tickets are read: another device's sale needs TicketReadAll, one's own sale does not", async () => {
    const closed = await sale();
    const stranger = await hub.userWith([]);
    const r = await copy(closed.id, { orderEndpointName: 'Bill' }, stranger);
    expect(r.status).toBe(403);
    expect(r.body.detail).toContain('TicketReadAll');
    // The cashier (no TicketReadAll) copies a receipt of their own register.
    expect((await copy(closed.id, { orderEndpointName: 'Bill' }, cashier.token)).status).toBe(202);
  });
});

describe('POST /api/tickets/{id}/return', () => {
  it('creates an open return of every sold item from the back office: Negative copies, returnOf, the caller as employee', async () => {
    const closed = await sale('Stôl 9');
    const seqBefore = (await expect2xx(hub.call('GET', '/api/changes?since=0&$take=1000'))).lastSeq;
    const r = await startReturn(closed.id);
    expect(r.status).toBe(201);
    const ret = r.body;
    expect(r.headers.get('location')).toBe(`/api/tickets/${ret.id}`);
    expect(ret.id).not.toBe(closed.id);
    expect(ret).toMatchObject({
      state: 'Opened',
      returnOf: closed.id,
      name: 'Return of Stôl 9',
      originDeviceName: 'BackOffice',
      discountRate: 10,
      customer: { id: 'c1' },
      closeInfo: null,
      payments: [],
      _v: 1,
    });
    expect(ret.employee.userName).not.toBe(closed.employee.userName);
    expect(ret.items).toEqual(
      closed.items.map((i: any) => expect.objectContaining({ id: i.id, plu: i.plu, type: 'Negative', quantity: i.quantity, unitPrice: i.unitPrice, discountRate: i.discountRate, totalPrice: { amount: -i.totalPrice.amount } })),
    );
    expect(ret.totalPrice.amount).toBe(-14.4);
    // Logged like any ticket create; no kitchen order for what comes back over the counter.
    const changes = await expect2xx(hub.call('GET', `/api/changes?since=${seqBefore}`));
    expect(changes.items).toContainEqual(expect.objectContaining({ resource: 'tickets', key: ret.id, op: 'upsert', _v: 1 }));
    expect((await expect2xx(hub.call('GET', `/api/orders?ticketId=${ret.id}`))).items).toEqual([]);
    expect((await expect2xx(hub.call('GET', `/api/tickets?ReturnOf=${closed.id}`))).items.map((x: any) => x.id)).toEqual([ret.id]);
    // The original is untouched.
    expect((await hub.call('GET', `/api/tickets/${closed.id}`)).body._v).toBe(closed._v);
  });

  it('needs Storno and TicketCreate, each named when missing; TicketSetDiscount, TicketSetCustomer or TicketSetPrice are not needed', async () => {
    const closed = await sale();
    const noStorno = await startReturn(closed.id, undefined, await hub.userWith(['TicketReadAll', 'TicketCreate']));
    expect(noStorno.status).toBe(403);
    expect(noStorno.body.errorCode).toBe(2);
    expect(noStorno.body.detail).toContain('Storno');
    const noCreate = await startReturn(closed.id, undefined, await hub.userWith(['TicketReadAll', 'Storno']));
    expect(noCreate.status).toBe(403);
    expect(noCreate.body.detail).toContain('TicketCreate');
    const noRead = await startReturn(closed.id, undefined, await hub.userWith(['Storno', 'TicketCreate']));
    expect(noRead.status).toBe(403);
    expect(noRead.body.detail).toContain('TicketReadAll');
    // `manager` holds exactly TicketReadAll, Storno and TicketCreate, and the sale had a discount and a customer.
    expect((await startReturn(closed.id)).status).toBe(201);
  });

  it('is the only ticket create the back office gets: POST /api/tickets from BackOffice is still 403', async () => {
    const r = await hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, { token: manager });
    expect(r.status).toBe(403);
    expect(r.body.errorCode).toBe(2);
  });

  it('caps each item at what was sold minus earlier returns, across returns (400 naming items[i].quantity)', async () => {
    const closed = await sale();
    const first = await startReturn(closed.id, { items: [{ id: 1, quantity: 1 }] });
    expect(first.status).toBe(201);
    expect(first.body.items).toEqual([expect.objectContaining({ id: 1, quantity: 1, type: 'Negative', totalPrice: { amount: -6.9 } })]);
    const tooMany = await startReturn(closed.id, { items: [{ id: 2, quantity: 1 }, { id: 1, quantity: 2 }] });
    expect(tooMany.status).toBe(400);
    expect(memberOf(tooMany)).toEqual(['items[1].quantity']);
    const second = await startReturn(closed.id, { items: [{ id: 1, quantity: 1 }] });
    expect(second.status).toBe(201);
    // What is left by default: the beer only.
    const rest = await startReturn(closed.id);
    expect(rest.status).toBe(201);
    expect(rest.body.items).toEqual([expect.objectContaining({ id: 2, quantity: 1 })]);
    const nothing = await startReturn(closed.id);
    expect(nothing.status).toBe(400);
    expect(memberOf(nothing)).toEqual(['items']);
    const unknown = await startReturn(closed.id, { items: [{ id: 9, quantity: 1 }] });
    expect(memberOf(unknown)).toEqual(['items[0].id']);
  });

  it('refuses a return of a return, of an open ticket (400 naming id), of an unknown ticket (404)', async () => {
    const closed = await sale();
    const ret = await expect2xx(startReturn(closed.id));
    // Closed at a register, so only its being a return stands in the way.
    await expect2xx(hub.call('POST', `/api/tickets/${ret.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: ret.totalPrice.amount }] }, { token: cashier.token }));
    const again = await startReturn(ret.id);
    expect(again.status).toBe(400);
    expect(memberOf(again)).toEqual(['id']);
    expect(again.body.errors[0].message).toMatch(/itself a return/);
    const open = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, { token: cashier.token }));
    const r = await startReturn(open.id);
    expect(r.status).toBe(400);
    expect(memberOf(r)).toEqual(['id']);
    expect((await startReturn('nope')).status).toBe(404);
  });

  it('keeps returnOf server-owned: a register edit keeps it, a body cannot set it', async () => {
    const closed = await sale();
    const ret = await expect2xx(startReturn(closed.id, { items: [{ id: 1, quantity: 1 }] }));
    const forged = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 1)], returnOf: closed.id }, { token: cashier.token }));
    expect(forged.returnOf).toBeUndefined();
    const edited = await expect2xx(hub.call('PUT', `/api/tickets/${ret.id}`, { ...ret, note: 'receipt shown', returnOf: 'other' }, { token: cashier.token }));
    expect(edited.returnOf).toBe(closed.id);
  });

  it('answers a retry with the same Idempotency-Key with the same return, creating one', async () => {
    const closed = await sale();
    const headers = { 'Idempotency-Key': `return-${closed.id}` };
    const a = await startReturn(closed.id, undefined, manager, headers);
    const b = await startReturn(closed.id, undefined, manager, headers);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body.id).toBe(a.body.id);
    expect((await expect2xx(hub.call('GET', `/api/tickets?ReturnOf=${closed.id}`))).totalCount).toBe(1);
  });

  it('is closed at a register with Storno and payments ≤ 0: a fiscal refund of the negative total', async () => {
    const closed = await sale();
    const ret = await expect2xx(startReturn(closed.id, { items: [{ id: 1, quantity: 1 }, { id: 2, quantity: 1 }] }));
    // (6.90 + 2.20) × 0.9 = 8.19 back.
    expect(ret.totalPrice.amount).toBe(-8.19);
    expect(ret.vatBreakdown).toEqual([expect.objectContaining({ rate: 20, gross: -8.19 })]);
    const fromOffice = await hub.call('POST', `/api/tickets/${ret.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: -8.19 }] }, { token: manager });
    expect(fromOffice.status).toBe(403);
    const noStorno = await register(hub, ['TicketClose']);
    expect((await hub.call('POST', `/api/tickets/${ret.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: -8.19 }] }, { token: noStorno.token })).status).toBe(403);
    const positive = await hub.call('POST', `/api/tickets/${ret.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 8.19 }] }, { token: cashier.token });
    expect(positive.status).toBe(400);
    const receipts = fp1.journal.length;
    const done = await expect2xx(hub.call('POST', `/api/tickets/${ret.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: -8.19 }] }, { token: cashier.token }));
    expect(done).toMatchObject({ state: 'Closed', returnOf: closed.id, totalPrice: { amount: -8.19 }, payments: [{ paymentTypeNumber: 1, amount: -8.19 }] });
    expect(fp1.journal.length).toBe(receipts + 1);
    expect(fp1.journal.at(-1)!.receipt.total).toBe('-8.19');
    expect(fp1.journal.at(-1)!.receipt.lines.map((l) => l.total)).toEqual(['-6.90', '-2.20']);
  });
});
