/**
 * A cashier's day against the real process (`npm start`): the admin sets the shop up, a cashier
 * logs in on a register, serves table 5 (kitchen orders appear), gives a discount, takes a card
 * payment, closes on the simulator fiscal device and finds the ticket among the register's closed ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN_PASSWORD, freePort, startHubProcess, type HubProcess } from '../support/process.js';

let hub: HubProcess;

async function ok(method: string, path: string, body: unknown, token: string, status = 201): Promise<any> {
  const r = await hub.call(method, path, body, { token });
  if (r.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

beforeAll(async () => {
  hub = await startHubProcess();
}, 60_000);

afterAll(async () => {
  await hub?.stop(0);
});

describe("a cashier's day", () => {
  it('sets up, serves table 5, pays by card, closes and finds the ticket', async () => {
    const admin = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');

    // The back office sets the shop up.
    const kitchenPort = await freePort(); // nothing listens there: orders wait in the print queue
    await ok('POST', '/api/stocks', { name: 'Menu' }, admin);
    await ok('POST', '/api/orderendpoints', { name: 'Kitchen', type: 'TM88', address: `tcp://127.0.0.1:${kitchenPort}` }, admin);
    const plu = (code: number, name: string, amount: number, orderEndpointNames: string[]) =>
      ok('POST', '/api/plus', { code, stockName: 'Menu', name, type: 'Service', unitPrice: { amount }, vatInfo: { category: 1, rate: 20 }, orderEndpointNames }, admin);
    await plu(1, 'Gulyás', 6.9, ['Kitchen']);
    await plu(2, 'Palacinky', 3.5, ['Kitchen']);
    await plu(3, 'Pivo', 2.2, []);
    await ok('POST', '/api/fiscaldevices', { name: 'FP1', driver: 'simulator', address: 'sim:fp1' }, admin);
    await ok('POST', '/api/paymenttypes', { number: 2, name: 'Card', category: 'CreditCard', isChangeable: false }, admin);
    await ok('POST', '/api/devices', { name: 'Register1', envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1' } }, admin);
    await ok(
      'POST',
      '/api/users',
      {
        userName: 'jana',
        name: 'Jana Kováčová',
        password: 'jana-secret',
        rights: ['TicketCreate', 'TicketUpdate', 'TicketRename', 'TicketSetDiscount', 'TicketClose', 'TicketPrintPreliminary'],
      },
      admin,
    );

    // The cashier opens table 5.
    const jana = await hub.login('jana', 'jana-secret', 'Register1');
    let ticket = await ok('POST', '/api/tickets', { name: 'Table 5', location: { tableName: '5', zoneName: 'Hall' }, items: [{ plu: { code: 1, stockName: 'Menu' }, quantity: 2 }] }, jana);
    expect(ticket).toMatchObject({ state: 'Opened', originDeviceName: 'Register1', employee: { userName: 'jana' }, totalPrice: { amount: 13.8 } });

    // More dishes and drinks.
    ticket = await ok(
      'PUT',
      `/api/tickets/${ticket.id}`,
      { ...ticket, items: [...ticket.items, { plu: { code: 2, stockName: 'Menu' }, quantity: 1 }, { plu: { code: 3, stockName: 'Menu' }, quantity: 2 }] },
      jana,
      200,
    );
    expect(ticket.totalPrice.amount).toBe(21.7);
    const orders = await hub.call('GET', `/api/orders?ticketId=${ticket.id}&orderEndpointName=Kitchen`, undefined, { token: jana });
    expect(orders.status).toBe(200);
    const ordered = orders.body.items.flatMap((o: any) => o.items.map((i: any) => [o.kind, i.name, i.quantity]));
    expect(ordered).toEqual(expect.arrayContaining([['New', 'Gulyás', 2], ['New', 'Palacinky', 1]]));
    expect(ordered).toHaveLength(2);

    // A 10 % discount for a regular guest: 21.70 × 0.9 = 19.53.
    ticket = await ok('PUT', `/api/tickets/${ticket.id}`, { ...ticket, discountRate: 10 }, jana, 200);
    expect(ticket.totalPrice.amount).toBe(19.53);

    // The guest pays the exact amount by card.
    const close = await hub.call('POST', `/api/tickets/${ticket.id}/close`, { payments: [{ paymentTypeNumber: 2, amount: 19.53 }] }, {
      token: jana,
      headers: { 'idempotency-key': `close-${ticket.id}` },
    });
    expect(close.status).toBe(200);
    expect(close.body).toMatchObject({
      state: 'Closed',
      payments: [{ paymentTypeNumber: 2, amount: 19.53 }],
      closeInfo: { deviceName: 'Register1', fiscalName: 'FP1', number: 1, dailySalesReportNumber: 1 },
    });

    // The register lists its closed tickets.
    const closed = await hub.call('GET', '/api/tickets?IsClosed=true&DeviceName=Register1', undefined, { token: jana });
    expect(closed.status).toBe(200);
    expect(closed.body.items.map((t: any) => [t.id, t.name, t.totalPrice.amount])).toEqual([[ticket.id, 'Table 5', 19.53]]);
    const open = await hub.call('GET', '/api/tickets?IsClosed=false&DeviceName=Register1', undefined, { token: jana });
    expect(open.body.totalCount).toBe(0);

    // Closing time: exit 0 within 10 s (after that the hub's group is killed, and no exit code is 0).
    expect(await hub.stop(10_000), hub.output()).toEqual({ code: 0, signal: null });
  }, 60_000);
});
