/**
 * Month end against the real process (`npm start`): goods received, sold through tickets on a
 * CashRegister with a simulator fiscal device, the store counted and the count closed; the
 * Correction document carries this month's first number and brings every plu to the count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN_PASSWORD, startHubProcess, type HubProcess } from '../support/process.js';

let hub: HubProcess;

beforeAll(async () => {
  hub = await startHubProcess({ POS_HUB_TIMEZONE: 'UTC' });
}, 60_000);

afterAll(async () => {
  await hub?.stop(0);
});

async function ok(method: string, path: string, body: unknown, token: string): Promise<any> {
  const r = await hub.call(method, path, body, { token });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** `<yyyy><MM>` of an instant in UTC, the hub's zone here. */
const month = (d: Date) => `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;

describe('month end on the real hub', () => {
  it('receives, sells, counts and closes the count into this month’s first correction', async () => {
    const admin = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
    const startedIn = month(new Date());

    // The shop: one stock, two drinks, and fries made from potatoes.
    await ok('POST', '/api/stocks', { name: 'Store' }, admin);
    const plus = [
      { code: 1, name: 'Pivo 0,5 l', type: 'StockItem', unitPrice: { amount: 2.5 } },
      { code: 2, name: 'Kofola 0,3 l', type: 'StockItem', unitPrice: { amount: 1.8 } },
      { code: 3, name: 'Zemiaky (kg)', type: 'StockItem', unitPrice: { amount: 0 } },
      { code: 4, name: 'Hranolky', type: 'Recipe', unitPrice: { amount: 3.2 }, receipt: [{ pluId: { code: 3, stockName: 'Store' }, quantity: 0.25 }] },
    ];
    for (const p of plus) await ok('POST', '/api/plus', { ...p, stockName: 'Store', vatInfo: { category: 1, rate: 20 } }, admin);

    // Goods received.
    const income = await ok('POST', '/api/stocktransfers', { type: 'Income', targetStockName: 'Store', items: [
      { plu: { code: 1 }, quantity: 100 },
      { plu: { code: 2 }, quantity: 48 },
      { plu: { code: 3 }, quantity: 20 },
    ] }, admin);
    expect(income.documentNumber).toMatch(/^P-\d{6}0001$/);

    // Sales through tickets on a register with a simulator fiscal device.
    await ok('POST', '/api/fiscaldevices', { name: 'FP1', driver: 'simulator', address: 'sim:fp1' }, admin);
    await ok('POST', '/api/devices', { name: 'Kasa1', envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1' } }, admin);
    await ok('POST', '/api/users', { userName: 'jana', name: 'Jana', password: 'jana-pw', rights: ['TicketCreate', 'TicketUpdate', 'TicketClose'] }, admin);
    const cashier = await hub.login('jana', 'jana-pw', 'Kasa1');
    const tickets = [
      [{ code: 1, quantity: 3 }, { code: 4, quantity: 2 }],
      [{ code: 2, quantity: 2 }, { code: 1, quantity: 1 }],
      [{ code: 4, quantity: 1 }],
    ];
    const sales: string[] = [];
    for (const lines of tickets) {
      const t = await ok('POST', '/api/tickets', { items: lines.map((l) => ({ plu: { code: l.code, stockName: 'Store' }, quantity: l.quantity })) }, cashier);
      const closed = await ok('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: t.totalPrice.amount }] }, cashier);
      expect(closed.closeInfo).toMatchObject({ deviceName: 'Kasa1', fiscalName: 'FP1' });
      const sale = await ok('GET', `/api/stocktransfers?type=Sale&ticketId=${t.id}`, undefined, admin);
      expect(sale.items).toHaveLength(1);
      sales.push(sale.items[0].documentNumber);
    }
    expect(sales.map((n) => n.slice(-6))).toEqual(['000001', '000002', '000003']);
    const quantities = async () => {
      const list = await ok('GET', '/api/plus?stockName=Store&type=StockItem&$sort=code', undefined, admin);
      return list.items.map((p: any) => p.stockQuantity);
    };
    // Pivo 100 − 4; Kofola 48 − 2; Zemiaky 20 − 3 × 0.25.
    expect(await quantities()).toEqual([96, 46, 19.25]);

    // The count: open first, the numbers filled in later.
    const counted = { 1: 95, 2: 46, 3: 19.1 } as Record<number, number>;
    const taking = await ok('POST', '/api/stocktakings', { currencyLabel: 'EUR', note: 'month end', items: [1, 2, 3].map((code) => ({ plu: { code, stockName: 'Store' } })) }, admin);
    expect(taking.items.map((i: any) => i.expectedQuantity)).toEqual([96, 46, 19.25]);
    const filled = await ok('PUT', `/api/stocktakings/${taking.id}`, { ...taking, items: [1, 2, 3].map((code) => ({ plu: { code, stockName: 'Store' }, actualQuantity: counted[code] })) }, admin);
    expect(filled.closedAt).toBeNull();

    // Closing the count.
    const closed = await ok('PUT', `/api/stocktakings/${filled.id}`, { ...filled, closedAt: new Date().toISOString(), closedBy: { userName: 'admin' } }, admin);
    expect(closed.stockTransferId).toEqual(expect.any(String));
    const closedIn = month(new Date());

    const found = await ok('GET', `/api/stocktransfers?type=Correction&stockTakingId=${closed.id}`, undefined, admin);
    expect(found.totalCount).toBe(1);
    const correction = found.items[0];
    expect(correction.id).toBe(closed.stockTransferId);
    // The first correction of the real current month (the run could straddle a month's end).
    expect([`K-${startedIn}0001`, `K-${closedIn}0001`]).toContain(correction.documentNumber);
    expect(correction.documentNumber).toBe(`K-${month(new Date(correction.createdAt))}0001`);
    expect(correction.items.map((i: any) => [i.plu.code, i.quantity])).toEqual([
      [1, -1],
      [2, 0],
      [3, -0.15],
    ]);
    expect(await quantities()).toEqual([95, 46, 19.1]);

    // The count is final.
    expect((await hub.call('PUT', `/api/stocktakings/${closed.id}`, { ...closed, note: 'again' }, { token: admin })).status).toBe(403);

    // SIGTERM: exit 0 within 10 s (after that the hub's group is killed, and no exit code is 0).
    expect(await hub.stop(10_000), hub.output()).toEqual({ code: 0, signal: null });
  }, 60_000);
});
