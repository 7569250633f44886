/**
 * Sales lower stock (CONTRACT §7, §11): closing a ticket makes one numbered Sale transfer for its
 * StockItem plus and the StockItem parts of its recipes, in the close's transaction. Returned
 * (Negative) items bring stock back; Service and Container plus move nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expectProblem, items, ok, plu, post, qty, sell, stock, till, type SoldItem } from './fixture.js';

/** What a document moved, plu and quantity (the cost each item moved at is tested in stock-value.test.ts). */
const moved = (items: Array<{ plu: unknown; quantity: number }>) => items.map(({ plu, quantity }) => ({ plu, quantity }));

let hub: TestHub;
let token: string;
const PIVO = 1;
const MASO = 100;
const ZEMIAKY = 101;
const GULAS = 10;
const MENU = 11;
const OBSLUHA = 20;
const ZALOHA = 21;

beforeAll(async () => {
  hub = await startHub();
  await stock(hub, 'Store', 'Kitchen');
  await plu(hub, 'Store', PIVO, 'StockItem', { unitPrice: { amount: 2.2 } });
  await plu(hub, 'Kitchen', MASO, 'StockItem');
  await plu(hub, 'Kitchen', ZEMIAKY, 'StockItem');
  await plu(hub, 'Store', OBSLUHA, 'Service', { unitPrice: { amount: 1 } });
  await plu(hub, 'Store', ZALOHA, 'Container', { unitPrice: { amount: 0.15 } });
  await plu(hub, 'Store', GULAS, 'Recipe', {
    unitPrice: { amount: 6.9 },
    receipt: [
      { pluId: { code: MASO, stockName: 'Kitchen' }, quantity: 0.15 },
      { pluId: { code: ZEMIAKY, stockName: 'Kitchen' }, quantity: 0.2 },
      { pluId: { code: OBSLUHA, stockName: 'Store' }, quantity: 1 },
    ],
  });
  // A recipe of a recipe: Gulyás with a beer.
  await plu(hub, 'Store', MENU, 'Recipe', {
    unitPrice: { amount: 8 },
    receipt: [
      { pluId: { code: GULAS, stockName: 'Store' }, quantity: 1 },
      { pluId: { code: PIVO, stockName: 'Store' }, quantity: 1 },
    ],
  });
  await ok(post(hub, { type: 'Income', targetStockName: 'Store', items: items([PIVO, 50]) }));
  await ok(post(hub, { type: 'Income', targetStockName: 'Kitchen', items: items([MASO, 10], [ZEMIAKY, 20]) }));
  token = await till(hub);
});
afterAll(() => hub.close());

const s = (code: number, quantity: number, type: 'Positive' | 'Negative' = 'Positive'): SoldItem => ({
  code,
  stockName: code >= 100 ? 'Kitchen' : 'Store',
  quantity,
  type,
});
const salesOf = async (ticketId: string) => (await hub.call('GET', `/api/stocktransfers?ticketId=${ticketId}`)).body.items;
const levels = async () => [await qty(hub, 'Store', PIVO), await qty(hub, 'Kitchen', MASO), await qty(hub, 'Kitchen', ZEMIAKY)];

describe('closing a ticket', () => {
  it('makes one Sale transfer for its StockItem plus, numbered S-..., with the ticket id', async () => {
    const ticket = await sell(hub, token, [s(PIVO, 3)]);
    const sales = await salesOf(ticket.id);
    expect(sales).toHaveLength(1);
    expect(sales[0]).toMatchObject({
      type: 'Sale',
      documentNumber: 'S-202611000001',
      ticketId: ticket.id,
      stockTakingId: null,
      sourceStockName: null,
      targetStockName: null,
      createdAt: ticket.closeDate,
      createdBy: { userName: ticket.employee.userName },
      items: [{ plu: { code: PIVO, stockName: 'Store' }, quantity: 3 }],
    });
    expect(await qty(hub, 'Store', PIVO)).toBe(47);
    expect((await hub.call('GET', '/api/stocktransfernumberings/sale')).body.numberings[0].currentNumber).toBe(1);
  });

  it('moves nothing while the ticket is open, nor when a close is refused', async () => {
    const t = await ok(hub.call('POST', '/api/tickets', { items: [{ plu: { code: PIVO, stockName: 'Store' }, quantity: 2 }] }, { token }));
    expect(await qty(hub, 'Store', PIVO)).toBe(47);
    const short = await hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 1 }] }, { token });
    expect(short.status).toBe(400);
    expect(await salesOf(t.id)).toEqual([]);
    expect(await qty(hub, 'Store', PIVO)).toBe(47);
    // Closed, then closed again (a retry): one Sale, stock lowered once.
    const body = { payments: [{ paymentTypeNumber: 1, amount: 4.4 }] };
    expect((await hub.call('POST', `/api/tickets/${t.id}/close`, body, { token })).status).toBe(200);
    expect((await hub.call('POST', `/api/tickets/${t.id}/close`, body, { token })).status).toBe(200);
    const sales = await salesOf(t.id);
    expect(sales.map((d: any) => d.documentNumber)).toEqual(['S-202611000002']);
    expect(await qty(hub, 'Store', PIVO)).toBe(45);
  });

  it('sells stock it does not have: stock goes negative, the sale is never refused', async () => {
    const ticket = await sell(hub, token, [s(PIVO, 60)]);
    expect(await salesOf(ticket.id)).toHaveLength(1);
    expect(await qty(hub, 'Store', PIVO)).toBe(-15);
    await ok(post(hub, { type: 'Income', targetStockName: 'Store', items: items([PIVO, 65]) }));
    expect(await qty(hub, 'Store', PIVO)).toBe(50);
  });
});

describe('recipes', () => {
  it('decompose into their StockItem parts, quantity × part quantity (a Service part moves nothing)', async () => {
    const ticket = await sell(hub, token, [s(GULAS, 3)]);
    const [sale] = await salesOf(ticket.id);
    expect(moved(sale.items)).toEqual([
      { plu: { code: MASO, stockName: 'Kitchen' }, quantity: 0.45 },
      { plu: { code: ZEMIAKY, stockName: 'Kitchen' }, quantity: 0.6 },
    ]);
    expect(await levels()).toEqual([50, 9.55, 19.4]);
  });

  it('nested recipes are followed down to their StockItem parts', async () => {
    const ticket = await sell(hub, token, [s(MENU, 2)]);
    const [sale] = await salesOf(ticket.id);
    expect(moved(sale.items)).toEqual([
      { plu: { code: MASO, stockName: 'Kitchen' }, quantity: 0.3 },
      { plu: { code: ZEMIAKY, stockName: 'Kitchen' }, quantity: 0.4 },
      { plu: { code: PIVO, stockName: 'Store' }, quantity: 2 },
    ]);
    expect(await levels()).toEqual([48, 9.25, 19]);
  });

  it('nested recipes are followed at any depth: eight levels down still sell their StockItem', async () => {
    await plu(hub, 'Kitchen', 200, 'StockItem');
    for (let level = 1; level <= 8; level++) {
      await plu(hub, 'Kitchen', 200 + level, 'Recipe', { unitPrice: { amount: 1 }, receipt: [{ pluId: { code: 200 + level - 1, stockName: 'Kitchen' }, quantity: 2 }] });
    }
    const ticket = await sell(hub, token, [s(208, 1.5)]);
    expect(moved((await salesOf(ticket.id))[0].items)).toEqual([{ plu: { code: 200, stockName: 'Kitchen' }, quantity: 384 }]);
    expect(await qty(hub, 'Kitchen', 200)).toBe(-384);
  });

  it('a recipe may not contain itself through other recipes (400 naming the part), however the loop would close', async () => {
    await plu(hub, 'Kitchen', 310, 'StockItem');
    await plu(hub, 'Kitchen', 311, 'StockItem');
    const [a, b] = [await plu(hub, 'Kitchen', 300, 'Recipe'), await plu(hub, 'Kitchen', 301, 'Recipe')];
    const part = (code: number, quantity = 1) => ({ pluId: { code, stockName: 'Kitchen' }, quantity });
    // 300 holds 301, 301 holds 310 and 302, 302 holds 300: the loop closes at the last write.
    await ok(hub.call('PUT', `/api/plus/${a.id}`, { ...a, receipt: [part(301)] }));
    const c = await plu(hub, 'Kitchen', 302, 'Recipe', { receipt: [part(311, 0.1)] });
    await ok(hub.call('PUT', `/api/plus/${b.id}`, { ...b, receipt: [part(310, 0.1), part(302)] }));
    const loop = await hub.call('PUT', `/api/plus/${c.id}`, { ...c, receipt: [part(311, 0.1), part(300)] });
    expectProblem(loop, 400, 3, 'receipt[1].pluId', 'Invalid');
    // A StockItem that becomes a recipe holding what holds it: a loop too.
    const flour = await plu(hub, 'Kitchen', 303, 'StockItem');
    await ok(hub.call('PUT', `/api/plus/${c.id}`, { ...c, receipt: [part(303)] }));
    expectProblem(await hub.call('PUT', `/api/plus/${flour.id}`, { ...flour, type: 'Recipe', receipt: [part(300)] }), 400, 3, 'receipt[0].pluId', 'Invalid');
    // Sharing a part is no loop: 304 holds 301 twice over (directly and through 300).
    await ok(hub.call('POST', '/api/plus', { code: 304, stockName: 'Kitchen', name: 'Both', type: 'Recipe', unitPrice: { amount: 1 }, receipt: [part(300), part(301)] }));
    await sell(hub, token, [s(304, 1)]);
    expect(await qty(hub, 'Kitchen', 310)).toBe(-0.2);
  });

  it('one Sale per ticket sums a plu sold directly, twice and through recipes', async () => {
    const ticket = await sell(hub, token, [s(PIVO, 1), s(GULAS, 1), s(PIVO, 2), s(MENU, 1), s(OBSLUHA, 1)]);
    const sales = await salesOf(ticket.id);
    expect(sales).toHaveLength(1);
    expect(moved(sales[0].items)).toEqual([
      { plu: { code: PIVO, stockName: 'Store' }, quantity: 4 },
      { plu: { code: MASO, stockName: 'Kitchen' }, quantity: 0.3 },
      { plu: { code: ZEMIAKY, stockName: 'Kitchen' }, quantity: 0.4 },
    ]);
    expect(await levels()).toEqual([44, 8.95, 18.6]);
  });

  it('a part takes a quantity above 0 (else 400 naming it): selling a recipe never puts stock back', async () => {
    for (const quantity of [0, -0.5]) {
      const body = { code: 12, stockName: 'Store', name: 'Bad', type: 'Recipe', receipt: [{ pluId: { code: PIVO, stockName: 'Store' }, quantity: 1 }, { pluId: { code: MASO, stockName: 'Kitchen' }, quantity }] };
      const r = await hub.call('POST', '/api/plus', body);
      expectProblem(r, 400, 3, 'receipt[1].quantity', 'Invalid');
    }
    expect((await hub.call('GET', '/api/plus?stockName=Store&code=12')).body.items).toEqual([]);
    // The smallest part there is, 0.0001, is one.
    const made = await plu(hub, 'Store', 12, 'Recipe', { receipt: [{ pluId: { code: MASO, stockName: 'Kitchen' }, quantity: 0.0001 }] });
    const put = await hub.call('PUT', `/api/plus/${made.id}`, { ...made, receipt: [{ pluId: { code: MASO, stockName: 'Kitchen' }, quantity: -1 }] });
    expectProblem(put, 400, 3, 'receipt[0].quantity', 'Invalid');
    await ok(hub.call('DELETE', `/api/plus/${made.id}`));
  });

  it('refuses a close whose Sale would move more than ±1,000,000,000 of a part (CONTRACT §12), even when the stock stays within it', async () => {
    await plu(hub, 'Store', 40, 'StockItem');
    await plu(hub, 'Store', 41, 'Recipe', { unitPrice: { amount: 0.0001 }, receipt: [{ pluId: { code: 40, stockName: 'Store' }, quantity: 1000 }] });
    await ok(post(hub, { type: 'Income', targetStockName: 'Store', items: items([40, 600_000_000]) }));
    // 1,500,000 × 1,000 = 1,500,000,000 sold, from 600,000,000 to -900,000,000: the stock would be in range, the Sale's quantity not.
    const ticket = await ok(hub.call('POST', '/api/tickets', { items: [{ plu: { code: 41, stockName: 'Store' }, quantity: 1_500_000 }] }, { token }));
    const refused = await hub.call('POST', `/api/tickets/${ticket.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: ticket.totalPrice.amount }] }, { token });
    expectProblem(refused, 400, 3, 'items', 'OutOfRange');
    expect((await hub.call('GET', `/api/tickets/${ticket.id}`)).body).toMatchObject({ state: 'Opened', closeInfo: null });
    expect([await qty(hub, 'Store', 40), await salesOf(ticket.id)]).toEqual([600_000_000, []]);
    // Exactly 1,000,000,000 is within it.
    const sold = await sell(hub, token, [s(41, 1_000_000)]);
    expect(moved((await salesOf(sold.id))[0].items)).toEqual([{ plu: { code: 40, stockName: 'Store' }, quantity: 1_000_000_000 }]);
    expect(await qty(hub, 'Store', 40)).toBe(-400_000_000);
  });

  it('exact decimals: 0.1 of a plu three times is 0.3', async () => {
    const ticket = await sell(hub, token, [s(PIVO, 0.1), s(PIVO, 0.1), s(PIVO, 0.1)]);
    expect(moved((await salesOf(ticket.id))[0].items)).toEqual([{ plu: { code: PIVO, stockName: 'Store' }, quantity: 0.3 }]);
    expect(await qty(hub, 'Store', PIVO)).toBe(43.7);
  });
});

describe('returned items', () => {
  it('a Negative item raises the stock it came from, recipes through their parts', async () => {
    const ticket = await sell(hub, token, [s(PIVO, 4), s(GULAS, 1, 'Negative')]);
    const [sale] = await salesOf(ticket.id);
    expect(moved(sale.items)).toEqual([
      { plu: { code: PIVO, stockName: 'Store' }, quantity: 4 },
      { plu: { code: MASO, stockName: 'Kitchen' }, quantity: -0.15 },
      { plu: { code: ZEMIAKY, stockName: 'Kitchen' }, quantity: -0.2 },
    ]);
    expect(await levels()).toEqual([39.7, 9.1, 18.8]);
  });

  it('sold and returned in one ticket net out; a plu that nets to zero is left out', async () => {
    const ticket = await sell(hub, token, [s(PIVO, 5), s(PIVO, 2, 'Negative'), s(GULAS, 1), s(GULAS, 1, 'Negative')]);
    const [sale] = await salesOf(ticket.id);
    expect(moved(sale.items)).toEqual([{ plu: { code: PIVO, stockName: 'Store' }, quantity: 3 }]);
    expect(await levels()).toEqual([36.7, 9.1, 18.8]);
  });

  it('a ticket of returns only brings the stock back', async () => {
    const ticket = await sell(hub, token, [s(PIVO, 1.3, 'Negative')]);
    const [sale] = await salesOf(ticket.id);
    expect(moved(sale.items)).toEqual([{ plu: { code: PIVO, stockName: 'Store' }, quantity: -1.3 }]);
    expect(await qty(hub, 'Store', PIVO)).toBe(38);
  });
});

describe('plus that are not kept in stock', () => {
  it('Service and Container plus move no stock and make no Sale document', async () => {
    const before = (await hub.call('GET', '/api/stocktransfers?type=Sale&$count=true')).body.totalCount;
    const ticket = await sell(hub, token, [s(OBSLUHA, 2), s(ZALOHA, 4)]);
    expect(ticket.state).toBe('Closed');
    expect(await salesOf(ticket.id)).toEqual([]);
    expect((await hub.call('GET', '/api/stocktransfers?type=Sale&$count=true')).body.totalCount).toBe(before);
    expect(await qty(hub, 'Store', OBSLUHA)).toBe(0);
    expect(await qty(hub, 'Store', ZALOHA)).toBe(0);
  });

  it('beside a StockItem they leave the Sale with the StockItem only', async () => {
    const ticket = await sell(hub, token, [s(OBSLUHA, 1), s(PIVO, 1), s(ZALOHA, 1)]);
    expect(moved((await salesOf(ticket.id))[0].items)).toEqual([{ plu: { code: PIVO, stockName: 'Store' }, quantity: 1 }]);
    expect(await qty(hub, 'Store', PIVO)).toBe(37);
  });
});

describe('the Sale documents', () => {
  it('are numbered consecutively and listed by type and stock', async () => {
    const sales = (await hub.call('GET', '/api/stocktransfers?type=Sale&$sort=documentNumber')).body.items;
    expect(sales.map((d: any) => d.documentNumber)).toEqual(Array.from({ length: sales.length }, (_, i) => `S-2026110000${String(i + 1).padStart(2, '0')}`));
    expect(sales.every((d: any) => typeof d.ticketId === 'string')).toBe(true);
    const kitchen = (await hub.call('GET', '/api/stocktransfers?type=Sale&stockName=Kitchen')).body.items;
    expect(kitchen.length).toBe(6); // the recipe tests (the deep and the shared recipe too) and the return of a Gulyás; the net-zero one has no Kitchen item
  });

  it('cannot be changed or deleted', async () => {
    const [sale] = (await hub.call('GET', '/api/stocktransfers?type=Sale')).body.items;
    expect((await hub.call('PUT', `/api/stocktransfers/${sale.id}`, { ...sale, items: [] })).status).toBe(405);
    expect((await hub.call('DELETE', `/api/stocktransfers/${sale.id}`)).status).toBe(405);
  });
});
