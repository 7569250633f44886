/**
 * stockQuantity (CONTRACT §3, §7, §11): on every plu, 0 for a new one, read-only (a body value is
 * ignored), moved only by stock transfers, exact decimals, may go negative.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expectProblem, items, ok, plu, post, qty, stock } from './fixture.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub();
  await stock(hub, 'Store');
  await plu(hub, 'Store', 1);
});
afterAll(() => hub.close());

describe('stockQuantity', () => {
  it('is on every plu, 0 for a new one, whatever the type', async () => {
    for (const [code, type] of [[2, 'StockItem'], [3, 'Service'], [4, 'Container']] as const) {
      const p = await plu(hub, 'Store', code, type);
      expect(p.stockQuantity).toBe(0);
    }
    const recipe = await plu(hub, 'Store', 5, 'Recipe', { receipt: [{ pluId: { code: 2, stockName: 'Store' }, quantity: 2 }] });
    expect(recipe.stockQuantity).toBe(0);
    const list = await hub.call('GET', '/api/plus?stockName=Store');
    for (const p of list.body.items) expect(p.stockQuantity).toBe(0);
  });

  it('ignores a value in a POST body', async () => {
    const p = await ok(hub.call('POST', '/api/plus', { code: 6, stockName: 'Store', name: 'Cola', type: 'StockItem', stockQuantity: 99 }));
    expect(p.stockQuantity).toBe(0);
    expect((await hub.call('GET', `/api/plus/${p.id}`)).body.stockQuantity).toBe(0);
    // The same with PUT creating a plu.
    const created = await hub.call('PUT', '/api/plus/put-made', { code: 7, stockName: 'Store', name: 'Fanta', type: 'StockItem', stockQuantity: 12.5 });
    expect(created.status).toBe(201);
    expect(created.body.stockQuantity).toBe(0);
  });

  it('ignores a value in a PUT body: an update keeps the stored quantity', async () => {
    await ok(post(hub, { type: 'Income', targetStockName: 'Store', items: items([6, 4]) }));
    const p = (await hub.call('GET', '/api/plus?stockName=Store&code=6')).body.items[0];
    expect(p.stockQuantity).toBe(4);
    const put = await hub.call('PUT', `/api/plus/${p.id}`, { ...p, name: 'Coca-Cola', stockQuantity: 1000 });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'Coca-Cola', stockQuantity: 4 });
    const without = await hub.call('PUT', `/api/plus/${p.id}`, { code: 6, stockName: 'Store', name: 'Coca-Cola', type: 'StockItem' });
    expect(without.body.stockQuantity).toBe(4);
    expect(await qty(hub, 'Store', 6)).toBe(4);
  });

  it('changes only through transfers, each one a stored change of the plu (_v grows)', async () => {
    const before = (await hub.call('GET', '/api/plus?stockName=Store&code=1')).body.items[0];
    expect(before.stockQuantity).toBe(0);
    await ok(post(hub, { type: 'Income', targetStockName: 'Store', items: items([1, 10]) }));
    const after = (await hub.call('GET', `/api/plus/${before.id}`)).body;
    expect(after.stockQuantity).toBe(10);
    expect(after._v).toBe(before._v + 1);
    await ok(post(hub, { type: 'Outcome', sourceStockName: 'Store', items: items([1, 3]) }));
    expect(await qty(hub, 'Store', 1)).toBe(7);
    // A refused transfer changes nothing.
    expectProblem(await post(hub, { type: 'Outcome', sourceStockName: 'Store', items: items([1, 1], [999, 1]) }), 400, 3, 'items[1].plu');
    expect(await qty(hub, 'Store', 1)).toBe(7);
    expect((await hub.call('GET', `/api/plus/${before.id}`)).body._v).toBe(before._v + 2);
  });

  it('adds exactly: 0.1 + 0.2 is 0.3, and back to exactly 0', async () => {
    await plu(hub, 'Store', 8);
    await ok(post(hub, { type: 'Income', targetStockName: 'Store', items: items([8, 0.1]) }));
    await ok(post(hub, { type: 'Income', targetStockName: 'Store', items: items([8, 0.2]) }));
    expect(await qty(hub, 'Store', 8)).toBe(0.3);
    for (let i = 0; i < 10; i++) await ok(post(hub, { type: 'Income', targetStockName: 'Store', items: items([8, 0.0001]) }));
    expect(await qty(hub, 'Store', 8)).toBe(0.301);
    await ok(post(hub, { type: 'Outcome', sourceStockName: 'Store', items: items([8, 0.3], [8, 0.001]) }));
    expect(await qty(hub, 'Store', 8)).toBe(0);
  });

  it('refuses quantities with more than 4 decimal places, zero or below zero', async () => {
    await plu(hub, 'Store', 9);
    expectProblem(await post(hub, { type: 'Income', targetStockName: 'Store', items: items([9, 0.00001]) }), 400, 3, 'items[0].quantity');
    expectProblem(await post(hub, { type: 'Income', targetStockName: 'Store', items: items([9, 0]) }), 400, 3, 'items[0].quantity');
    expectProblem(await post(hub, { type: 'Income', targetStockName: 'Store', items: items([9, -1]) }), 400, 3, 'items[0].quantity');
    expect(await qty(hub, 'Store', 9)).toBe(0);
  });

  it('may go negative (stock is never a reason to refuse), and exactly so', async () => {
    await plu(hub, 'Store', 11);
    const out = await post(hub, { type: 'Outcome', sourceStockName: 'Store', items: items([11, 2.5]) });
    expect(out.status).toBe(201);
    expect(await qty(hub, 'Store', 11)).toBe(-2.5);
    await ok(post(hub, { type: 'Income', targetStockName: 'Store', items: items([11, 2.4999]) }));
    expect(await qty(hub, 'Store', 11)).toBe(-0.0001);
  });
});
