/**
 * Money (CONTRACT §12, issue 17): payments > 0 on a sale and change only from changeable types; a
 * return pays out ≤ 0, exactly its total, and needs Storno; a price of one's own needs TicketSetPrice
 * (or a register selling at opened prices); every amount, price, quantity and total within ±1e9.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type Reply, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from './fixture.js';

let hub: TestHub;
type Register = Awaited<ReturnType<typeof register>>;
let cashier: Register; // sells and closes, no Storno, no TicketSetPrice
let manager: Register; // also Storno and TicketSetPrice
beforeAll(async () => {
  hub = await startHub();
  await restaurant(hub);
  cashier = await register(hub, ['TicketCreate', 'TicketUpdate', 'TicketClose']);
  manager = await register(hub, ['TicketCreate', 'TicketUpdate', 'TicketClose', 'Storno', 'TicketSetPrice']);
});
afterAll(() => hub.close());

function expectMember(r: Reply, status: number, member: string): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.errors?.[0]?.memberName ?? r.body.detail).toContain(member);
}
const open = (items: unknown[], who: Register = cashier) => expect2xx(hub.call('POST', '/api/tickets', { items }, { token: who.token }));
const close = (id: string, payments: unknown[], who: Register = cashier) => hub.call('POST', `/api/tickets/${id}/close`, { payments }, { token: who.token });

describe('payments', () => {
  it('a card overpaid and "negative cash" as the change is refused (change only from changeable types, amounts > 0)', async () => {
    const t = await open([item(1, 1)]); // 6.90
    const r = await close(t.id, [{ paymentTypeNumber: 2, amount: 100 }, { paymentTypeNumber: 1, amount: -93.1 }]);
    expectMember(r, 400, 'payments[1].amount');
    expect((await hub.call('GET', `/api/tickets/${t.id}`)).body.state).toBe('Opened');
    expectMember(await close(t.id, [{ paymentTypeNumber: 1, amount: 0 }, { paymentTypeNumber: 2, amount: 6.9 }]), 400, 'payments[0].amount');
    // Card overpaid without cash to give change from.
    expectMember(await close(t.id, [{ paymentTypeNumber: 2, amount: 10 }]), 400, 'payments');
    const ok = await close(t.id, [{ paymentTypeNumber: 2, amount: 5 }, { paymentTypeNumber: 1, amount: 5 }]);
    expect(ok.status).toBe(200);
  });

  it('a return is paid out with amounts ≤ 0 adding up to its total, and needs Storno', async () => {
    const t = await open([item(1, 1, { type: 'Negative' })]); // -6.90
    expect(t.totalPrice.amount).toBe(-6.9);
    const refused = await close(t.id, [{ paymentTypeNumber: 1, amount: -6.9 }]);
    expect([refused.status, refused.body.errorCode]).toEqual([403, 2]);
    expect(refused.body.detail).toContain('Storno');
    const owned = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 1, { type: 'Negative' })] }, { token: manager.token }));
    expectMember(await close(owned.id, [{ paymentTypeNumber: 1, amount: 6.9 }], manager), 400, 'payments[0].amount');
    expectMember(await close(owned.id, [{ paymentTypeNumber: 1, amount: -10 }], manager), 400, 'payments');
    expectMember(await close(owned.id, [{ paymentTypeNumber: 1, amount: -5 }], manager), 400, 'payments');
    const ok = await close(owned.id, [{ paymentTypeNumber: 1, amount: -4 }, { paymentTypeNumber: 2, amount: -2.9 }], manager);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.payments.map((p: any) => p.amount)).toEqual([-4, -2.9]);
  });
});

describe('prices of one\u2019s own', () => {
  it('a unit price other than the plu\u2019s needs TicketSetPrice: -500, 0.01, and a mere cent off', async () => {
    for (const amount of [-500, 0.01, 6.89]) {
      const r = await hub.call('POST', '/api/tickets', { items: [item(1, 1, { unitPrice: { amount } })] }, { token: cashier.token });
      expect([r.status, r.body.errorCode], String(amount)).toEqual([403, 2]);
      expect(r.body.detail).toContain('TicketSetPrice');
    }
    // The plu's own price needs nothing; the right allows any.
    expect((await hub.call('POST', '/api/tickets', { items: [item(1, 1, { unitPrice: { amount: 6.9 } })] }, { token: cashier.token })).status).toBe(201);
    const priced = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 1, { unitPrice: { amount: 5 } })] }, { token: manager.token }));
    expect(priced.items[0].unitPrice.amount).toBe(5);
  });

  it('a register selling at opened prices (device setting OpenedPrices) needs no right', async () => {
    await expect2xx(hub.call('POST', '/api/devices', { name: 'Stall', envName: 'CashRegister', settings: { OpenedPrices: 'true', DefaultFiscalName: 'FP1' } }));
    await expect2xx(hub.call('POST', '/api/users', { userName: 'stall', password: 'pw', rights: ['TicketCreate'] }));
    const token = await hub.login('stall', 'pw', 'Stall');
    const t = await hub.call('POST', '/api/tickets', { items: [item(4, 3, { unitPrice: { amount: 1.25 } })] }, { token });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    expect(t.body.totalPrice.amount).toBe(3.75);
  });

  it('switching OpenedPrices on is TicketSetPrice handed out: it needs that right (a device manager without it cannot raise their own)', async () => {
    const deviceManager = await hub.userWith(['DeviceCreate', 'DeviceUpdate']);
    const made = await hub.call('POST', '/api/devices', { name: 'Stall 2', envName: 'CashRegister', settings: { OpenedPrices: 'TRUE' } }, { token: deviceManager });
    expect([made.status, made.body.errorCode]).toEqual([403, 2]);
    expect(made.body.detail).toContain('TicketSetPrice');
    const plain = await expect2xx(hub.call('POST', '/api/devices', { name: 'Stall 2', envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1' } }, { token: deviceManager }));
    const on = await hub.call('PUT', '/api/devices/Stall 2', { ...plain, settings: { ...plain.settings, OpenedPrices: 'true' } }, { token: deviceManager });
    expect([on.status, on.body.errorCode]).toEqual([403, 2]);
    // A device already selling at opened prices stays editable by them; one who holds the right switches it on.
    const stall = await expect2xx(hub.call('PUT', '/api/devices/Stall 2', { ...plain, settings: { ...plain.settings, OpenedPrices: 'true' } }));
    expect((await hub.call('PUT', '/api/devices/Stall 2', { ...stall, description: 'by the door' }, { token: deviceManager })).status).toBe(200);
  });

  it('a price set earlier by someone who may stays when a waiter without the right adds an item', async () => {
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 1, { unitPrice: { amount: 5 } })] }, { token: manager.token }));
    const waiter = await register(hub, ['TicketCreate', 'TicketUpdate', 'TicketUpdateAny']);
    const r = await hub.call('PUT', `/api/tickets/${t.id}`, { ...t, items: [...t.items, item(3, 1)] }, { token: waiter.token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // But changing it again needs the right.
    const again = await hub.call('PUT', `/api/tickets/${t.id}`, { ...r.body, items: [{ ...r.body.items[0], unitPrice: { amount: 4 } }, r.body.items[1]] }, { token: waiter.token });
    expect(again.status).toBe(403);
  });
});

describe('bounds (±1,000,000,000)', () => {
  it('refuses amounts, prices and quantities out of range, naming the member, and stores nothing', async () => {
    const before = (await hub.call('GET', '/api/tickets?$count=true')).body.totalCount;
    expectMember(await hub.call('POST', '/api/tickets', { items: [item(1, 1, { unitPrice: { amount: 1e10 } })] }, { token: manager.token }), 400, 'items[0].unitPrice.amount');
    expectMember(await hub.call('POST', '/api/tickets', { items: [item(1, 1e12)] }, { token: manager.token }), 400, 'items[0].quantity');
    // Each within range, the total not: ~1e27 before, now a 400 naming where.
    expectMember(await hub.call('POST', '/api/tickets', { items: [item(1, 1e9, { unitPrice: { amount: 1e9 } })] }, { token: manager.token }), 400, 'items[0].totalPrice');
    expectMember(
      await hub.call('POST', '/api/tickets', { items: [item(1, 600_000_000, { unitPrice: { amount: 1 } }), item(1, 600_000_000, { unitPrice: { amount: 1 } })] }, { token: manager.token }),
      400,
      'totalPrice',
    );
    expect((await hub.call('GET', '/api/tickets?$count=true')).body.totalCount).toBe(before);
    expectMember(await hub.call('POST', '/api/plus', { code: 901, stockName: 'Menu', name: 'Gold', type: 'Service', unitPrice: { amount: 1.5e9 } }), 400, 'unitPrice.amount');
    expectMember(await hub.call('PUT', '/api/customers/rich', { firstName: 'Rich', credit: { amount: -2e9 } }), 400, 'credit.amount');
    // The bound itself is in range.
    expect((await hub.call('POST', '/api/plus', { code: 902, stockName: 'Menu', name: 'Max', type: 'Service', unitPrice: { amount: 1e9 } })).status).toBe(201);
  });
});
