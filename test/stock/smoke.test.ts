import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub();
  for (const name of ['Store', 'Bar']) expect((await hub.call('POST', '/api/stocks', { name })).status).toBe(201);
  for (const stockName of ['Store', 'Bar']) {
    const r = await hub.call('POST', '/api/plus', { code: 10, stockName, name: 'Pivo 0.5', type: 'StockItem' });
    expect(r.status).toBe(201);
  }
});
afterAll(() => hub.close());

const qty = async (stockName: string, code = 10) =>
  (await hub.call('GET', `/api/plus?stockName=${stockName}&code=${code}`)).body.items[0].stockQuantity;

describe('stock transfers', () => {
  it('receives, moves and counts stock with numbered documents', async () => {
    const income = await hub.call('POST', '/api/stocktransfers', { type: 'Income', targetStockName: 'Store', items: [{ plu: { code: 10 }, quantity: 100.5 }] });
    expect(income.status).toBe(201);
    expect(income.body.documentNumber).toBe('P-2026110001');
    expect(await qty('Store')).toBe(100.5);
    const move = await hub.call('POST', '/api/stocktransfers', { type: 'Transfer', sourceStockName: 'Store', targetStockName: 'Bar', items: [{ plu: { code: 10 }, quantity: 20.25 }] });
    expect(move.status).toBe(201);
    expect(move.body.documentNumber).toBe('T-2026110001');
    expect([await qty('Store'), await qty('Bar')]).toEqual([80.25, 20.25]);
    const take = await hub.call('POST', '/api/stocktakings', { items: [{ plu: { code: 10, stockName: 'Bar' }, actualQuantity: 18 }] });
    expect(take.status).toBe(201);
    expect(take.body.items[0].expectedQuantity).toBe(20.25);
    const close = await hub.call('PUT', `/api/stocktakings/${take.body.id}`, { ...take.body, closedAt: '2026-11-21T11:00:00Z', closedBy: { userName: 'admin' } });
    expect(close.status).toBe(200);
    const correction = await hub.call('GET', `/api/stocktransfers/${close.body.stockTransferId}`);
    expect(correction.body).toMatchObject({ type: 'Correction', documentNumber: 'K-2026110001', stockTakingId: take.body.id });
    expect(correction.body.items[0].quantity).toBe(-2.25);
    expect(await qty('Bar')).toBe(18);
    expect((await hub.call('PUT', `/api/stocktakings/${take.body.id}`, { items: [] })).status).toBe(403);
    expect((await hub.call('DELETE', `/api/stocktakings/${take.body.id}`)).status).toBe(403);
  });

  it('refuses Sale and Correction on POST and has no PUT or DELETE', async () => {
    const sale = await hub.call('POST', '/api/stocktransfers', { type: 'Sale', sourceStockName: 'Store', items: [{ plu: { code: 10 }, quantity: 1 }] });
    expect(sale.status).toBe(400);
    expect(sale.body.errors[0].memberName).toBe('type');
    const list = await hub.call('GET', '/api/stocktransfers?type=Income');
    const put = await hub.call('PUT', `/api/stocktransfers/${list.body.items[0].id}`, {});
    expect(put.status).toBe(405);
    expect(put.headers.get('content-type')).toMatch(/problem\+json/);
  });

  it('issues 50 distinct consecutive numbers to 50 parallel POSTs', async () => {
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => hub.call('POST', '/api/stocktransfers', { type: 'Outcome', sourceStockName: 'Store', items: [{ plu: { code: 10 }, quantity: 1 }] })),
    );
    expect(replies.every((r) => r.status === 201)).toBe(true);
    const numbers = replies.map((r) => r.body.documentNumber).sort();
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `V-202611${String(i + 1).padStart(4, '0')}`));
    expect(await qty('Store')).toBe(30.25);
  });
});
