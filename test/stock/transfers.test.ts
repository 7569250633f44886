/**
 * /api/stocktransfers (CONTRACT §7, §11): GET list with every filter, GET one, POST of Income,
 * Outcome, Transfer and Invoice with their stock rules, Sale and Correction refused on POST, no PUT
 * or DELETE, right StockTransferCreate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expectProblem, ids, items, ok, plu, post, qty, sell, stock, till } from './fixture.js';

/** What a document moved, plu and quantity (the cost each item moved at is tested in stock-value.test.ts). */
const moved = (items: Array<{ plu: unknown; quantity: number }>) => items.map(({ plu, quantity }) => ({ plu, quantity }));

let hub: TestHub;
/** Documents made in beforeAll, by letter. */
const doc: Record<string, any> = {};
let all: string[];

beforeAll(async () => {
  hub = await startHub();
  await stock(hub, 'Store', 'Bar', 'Cellar');
  await plu(hub, 'Store', 10);
  await plu(hub, 'Bar', 10, 'StockItem', { unitPrice: { amount: 2 } });
  await plu(hub, 'Store', 11);
  await plu(hub, 'Cellar', 12);
  await plu(hub, 'Store', 20, 'Recipe', { receipt: [{ pluId: { code: 10, stockName: 'Store' }, quantity: 1 }] });
  await plu(hub, 'Store', 30, 'Service');
  await plu(hub, 'Store', 13);
  await plu(hub, 'Bar', 13, 'Service');
  const at = (minute: number) => hub.clock.set(`2026-11-21T10:${String(minute).padStart(2, '0')}:00Z`);
  at(1);
  doc.A = await ok(post(hub, { type: 'Income', targetStockName: 'Store', items: items([10, 50], [11, 5]), note: 'delivery 1' }));
  at(2);
  doc.B = await ok(post(hub, { type: 'Income', targetStockName: 'Cellar', items: items([12, 3]) }));
  at(3);
  doc.C = await ok(post(hub, { type: 'Transfer', sourceStockName: 'Store', targetStockName: 'Bar', items: items([10, 20]) }));
  at(4);
  doc.D = await ok(post(hub, { type: 'Outcome', sourceStockName: 'Bar', items: items([10, 2]) }));
  at(5);
  doc.E = await ok(post(hub, { type: 'Invoice', sourceStockName: 'Store', items: items([11, 1]) }));
  at(6);
  const taking = await ok(
    hub.call('POST', '/api/stocktakings', { closedAt: '2026-11-21T10:06:00Z', closedBy: { userName: 'admin' }, items: [{ plu: { code: 10, stockName: 'Bar' }, actualQuantity: 17 }] }),
  );
  doc.K = await ok(hub.call('GET', `/api/stocktransfers/${taking.stockTransferId}`));
  at(7);
  const token = await till(hub);
  const ticket = await sell(hub, token, [{ code: 10, stockName: 'Bar', quantity: 3 }]);
  doc.S = (await hub.call('GET', `/api/stocktransfers?ticketId=${ticket.id}`)).body.items[0];
  hub.clock.set('2026-11-21T11:00:00Z');
  all = Object.values(doc)
    .map((d) => String(d.id))
    .sort();
});
afterAll(() => hub.close());

/** The ids of these documents, sorted. */
const of = (...letters: string[]) => letters.map((l) => String(doc[l].id)).sort();
const except = (...letters: string[]) => all.filter((id) => !of(...letters).includes(id));

describe('the documents made', () => {
  it('moved stock as each type says', async () => {
    expect(doc.A).toMatchObject({ type: 'Income', documentNumber: 'P-2026110001', sourceStockName: null, targetStockName: 'Store', note: 'delivery 1' });
    expect(doc.B.documentNumber).toBe('P-2026110002');
    expect(doc.C).toMatchObject({ type: 'Transfer', documentNumber: 'T-2026110001', sourceStockName: 'Store', targetStockName: 'Bar' });
    expect(doc.D).toMatchObject({ type: 'Outcome', documentNumber: 'V-2026110001', sourceStockName: 'Bar', targetStockName: null });
    expect(doc.E).toMatchObject({ type: 'Invoice', documentNumber: 'FA-20260001', sourceStockName: 'Store', targetStockName: null });
    expect(doc.K).toMatchObject({ type: 'Correction', documentNumber: 'K-2026110001' });
    expect(doc.S).toMatchObject({ type: 'Sale', documentNumber: 'S-202611000001' });
    // Store 10: +50 −20; Bar 10: +20 −2, counted 17, sold 3; Store 11: +5 −1; Cellar 12: +3.
    expect(await qty(hub, 'Store', 10)).toBe(30);
    expect(await qty(hub, 'Bar', 10)).toBe(14);
    expect(await qty(hub, 'Store', 11)).toBe(4);
    expect(await qty(hub, 'Cellar', 12)).toBe(3);
  });

  it('store the caller, the time and the items with the plu in its stock', async () => {
    expect(doc.A).toMatchObject({
      createdAt: '2026-11-21T10:01:00.000Z',
      createdBy: { userName: 'admin' },
      ticketId: null,
      stockTakingId: null,
      items: [
        { plu: { code: 10, stockName: 'Store' }, quantity: 50 },
        { plu: { code: 11, stockName: 'Store' }, quantity: 5 },
      ],
    });
    expect(moved(doc.C.items)).toEqual([{ plu: { code: 10, stockName: 'Store' }, quantity: 20 }]);
  });
});

describe('GET', () => {
  it('lists every document, sorted by the key, and reads one with its ETag', async () => {
    const list = await hub.call('GET', '/api/stocktransfers');
    expect(list.body.totalCount).toBe(7);
    expect(list.body.items.map((d: any) => d.id)).toEqual([...all]);
    const one = await hub.call('GET', `/api/stocktransfers/${doc.C.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(doc.C);
    expect(one.headers.get('etag')).toBe('"1"');
  });

  it('answers 404 for an unknown id', async () => {
    expectProblem(await hub.call('GET', '/api/stocktransfers/nope'), 404, 7);
  });

  it('sorts by documentNumber and createdAt', async () => {
    const r = await hub.call('GET', '/api/stocktransfers?$sort=createdAt:desc');
    expect(r.body.items.map((d: any) => d.id)).toEqual(['S', 'K', 'E', 'D', 'C', 'B', 'A'].map((l) => doc[l].id));
    const n = await hub.call('GET', '/api/stocktransfers?$sort=documentNumber');
    expect(n.body.items.map((d: any) => d.documentNumber)).toEqual([
      'FA-20260001', 'K-2026110001', 'P-2026110001', 'P-2026110002', 'S-202611000001', 'T-2026110001', 'V-2026110001',
    ]);
  });

  it('sorts by stockName, a filter member: the stock left, else the one entered, else the items\' stock', async () => {
    const r = await hub.call('GET', '/api/stocktransfers?$sort=stockName,createdAt');
    expect(r.status).toBe(200);
    expect(r.body.items.map((d: any) => d.id)).toEqual(['D', 'K', 'S', 'B', 'A', 'C', 'E'].map((l) => doc[l].id));
    const desc = await hub.call('GET', '/api/stocktransfers?$sort=-stockName,createdAt');
    expect(desc.body.items.map((d: any) => d.id)).toEqual(['A', 'C', 'E', 'B', 'D', 'K', 'S'].map((l) => doc[l].id));
  });
});

describe('list filters', () => {
  const cases: Array<[string, () => string[]]> = [
    ['id=${A}', () => of('A')],
    ['id=nope', () => []],
    ['id=ne:${A}', () => except('A')],
    ['id=in:${A},${B}', () => of('A', 'B')],
    ['documentNumber=P-2026110002', () => of('B')],
    ['documentNumber=P-2026119999', () => []],
    ['documentNumber=startswith:p-', () => of('A', 'B')],
    ['documentNumber=ne:P-2026110002', () => except('B')],
    ['type=Income', () => of('A', 'B')],
    ['type=income', () => of('A', 'B')],
    ['type=in:Outcome,Invoice', () => of('D', 'E')],
    ['type=Transfer', () => of('C')],
    ['type=Sale', () => of('S')],
    ['type=Correction', () => of('K')],
    ['type=ne:Income', () => except('A', 'B')],
    ['createdAt=2026-11-21T10:03:00Z', () => of('C')],
    ['createdAt=2026-11-21T10:03:01Z', () => []],
    ['createdAt=ge:2026-11-21T10:05:00Z', () => of('E', 'K', 'S')],
    ['createdAt=lt:2026-11-21T10:02:00Z', () => of('A')],
    ['createdAt=gt:2026-11-21T10:01:00Z;lt:2026-11-21T10:04:00Z', () => of('B', 'C')],
    // A transfer concerns a stock it leaves (source), enters (target) or whose plus it moves (items).
    ['stockName=Bar', () => of('C', 'D', 'K', 'S')],
    ['stockName=Store', () => of('A', 'C', 'E')],
    ['stockName=Cellar', () => of('B')],
    ['stockName=Kitchen', () => []],
    ['stockName=in:Cellar,Bar', () => of('B', 'C', 'D', 'K', 'S')],
    ['stockName=ne:Bar', () => of('A', 'B', 'E')],
    ['stockName=nin:Bar,Store', () => of('B')],
    ['stockName=startswith:ce', () => of('B')],
    // Every transfer concerns some stock: none misses stockName (an Income has no source, yet its target counts).
    ['stockName=null', () => []],
    ['stockName=ne:null', () => all],
    ['ticketId=${S.ticketId}', () => of('S')],
    ['ticketId=other-ticket', () => []],
    ['ticketId=null', () => except('S')],
    ['ticketId=ne:null', () => of('S')],
    ['stockTakingId=${K.stockTakingId}', () => of('K')],
    ['stockTakingId=other-taking', () => []],
    ['stockTakingId=ne:${K.stockTakingId}', () => except('K')],
    ['itemPluCode=10', () => of('A', 'C', 'D', 'K', 'S')],
    ['itemPluCode=11', () => of('A', 'E')],
    ['itemPluCode=12', () => of('B')],
    ['itemPluCode=13', () => []],
    ['itemPluCode=ne:10', () => of('B', 'E')],
    ['itemPluCode=ge:11', () => of('A', 'B', 'E')],
    ['itemPluStockName=Store', () => of('A', 'C', 'E')],
    ['itemPluStockName=Bar', () => of('D', 'K', 'S')],
    ['itemPluStockName=Kitchen', () => []],
    ['itemPluStockName=ne:Store', () => of('B', 'D', 'K', 'S')],
    ['itemPluCode=10&itemPluStockName=Store', () => of('A', 'C')],
    ['type=Income&stockName=Store', () => of('A')],
  ];
  const fill = (q: string) => q.replace(/\$\{(\w)(?:\.(\w+))?\}/g, (_m, l: string, f?: string) => String(doc[l][f ?? 'id']));
  it.each(cases)('%s', async (q, expected) => {
    expect(await ids(hub, `/api/stocktransfers?${fill(q)}`)).toEqual(expected());
  });

  it('matches filter names case-insensitively and counts with $count', async () => {
    expect(await ids(hub, '/api/stocktransfers?ITEMPLUCODE=11&StockName=Store')).toEqual(of('A', 'E'));
    const c = await hub.call('GET', '/api/stocktransfers?type=Income&$count=true');
    expect(c.body).toEqual({ count: 2, totalCount: 2 });
  });

  it.each([
    ['type=Gift', 'type'],
    ['createdAt=yesterday', 'createdAt'],
    ['itemPluCode=abc', 'itemPluCode'],
    ['itemPluCode=1.5', 'itemPluCode'],
    ['stockname=zz:Bar', undefined],
    ['quantity=1', 'quantity'],
    ['$sort=nope', '$sort'],
  ])('refuses %s with 400', async (q, member) => {
    const r = await hub.call('GET', `/api/stocktransfers?${q}`);
    if (member === undefined) {
      // An unknown operator makes the whole text a plain value: a stock name that matches nothing.
      expect(r.status).toBe(200);
      expect(r.body.items).toEqual([]);
    } else expectProblem(r, 400, 3, member);
  });
});

describe('POST', () => {
  it('Income raises the target stock', async () => {
    const r = await post(hub, { type: 'Income', targetStockName: 'Cellar', items: items([12, 2.5]) });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`/api/stocktransfers/${r.body.id}`);
    expect(r.body).toMatchObject({ _v: 1, createdAt: '2026-11-21T11:00:00.000Z', documentNumber: 'P-2026110003' });
    expect(await qty(hub, 'Cellar', 12)).toBe(5.5);
  });

  it('Outcome and Invoice lower the source stock', async () => {
    await ok(post(hub, { type: 'Outcome', sourceStockName: 'Cellar', items: items([12, 0.5]) }));
    expect(await qty(hub, 'Cellar', 12)).toBe(5);
    await ok(post(hub, { type: 'Invoice', sourceStockName: 'Cellar', items: items([12, 1]) }));
    expect(await qty(hub, 'Cellar', 12)).toBe(4);
  });

  it('Transfer moves from the plu in the source stock to the one with the same code in the target', async () => {
    const r = await post(hub, { type: 'Transfer', sourceStockName: 'Bar', targetStockName: 'Store', items: items([10, 4]) });
    expect(r.status).toBe(201);
    expect(moved(r.body.items)).toEqual([{ plu: { code: 10, stockName: 'Bar' }, quantity: 4 }]);
    expect([await qty(hub, 'Bar', 10), await qty(hub, 'Store', 10)]).toEqual([10, 34]);
  });

  it('accepts the item stock when it names the stock the document takes the plus from', async () => {
    const r = await post(hub, { type: 'Outcome', sourceStockName: 'Store', items: [{ plu: { code: 11, stockName: 'Store' }, quantity: 1 }] });
    expect(r.status).toBe(201);
    expect(await qty(hub, 'Store', 11)).toBe(3);
    const wrong = await post(hub, { type: 'Outcome', sourceStockName: 'Store', items: [{ plu: { code: 10, stockName: 'Bar' }, quantity: 1 }] });
    expectProblem(wrong, 400, 3, 'items[0].plu.stockName');
    const intoTarget = await post(hub, { type: 'Transfer', sourceStockName: 'Store', targetStockName: 'Bar', items: [{ plu: { code: 10, stockName: 'Bar' }, quantity: 1 }] });
    expectProblem(intoTarget, 400, 3, 'items[0].plu.stockName');
  });

  it('Transfer refuses a plu missing in the target stock or not a StockItem there, and equal stocks', async () => {
    const missing = await post(hub, { type: 'Transfer', sourceStockName: 'Store', targetStockName: 'Bar', items: items([10, 1], [11, 1]) });
    expectProblem(missing, 400, 3, 'items[1].plu');
    expect(missing.body.detail).toContain('target');
    // The plu with that code in the target must be kept in stock too.
    const service = await post(hub, { type: 'Transfer', sourceStockName: 'Store', targetStockName: 'Bar', items: items([13, 1]) });
    expectProblem(service, 400, 3, 'items[0].plu');
    expect(service.body.detail).toContain('Service');
    const same = await post(hub, { type: 'Transfer', sourceStockName: 'Store', targetStockName: 'Store', items: items([10, 1]) });
    expectProblem(same, 400, 3, 'targetStockName');
    expect([await qty(hub, 'Store', 10), await qty(hub, 'Bar', 10), await qty(hub, 'Store', 13), await qty(hub, 'Bar', 13)]).toEqual([34, 10, 0, 0]);
  });

  it.each([
    ['Income', {}, 'targetStockName'],
    ['Income', { sourceStockName: 'Store' }, 'targetStockName'],
    ['Outcome', { targetStockName: 'Store' }, 'sourceStockName'],
    ['Invoice', {}, 'sourceStockName'],
    ['Transfer', { targetStockName: 'Bar' }, 'sourceStockName'],
    ['Transfer', { sourceStockName: 'Store' }, 'targetStockName'],
  ])('%s without its stock %j: 400 naming %s', async (type, stocks, member) => {
    expectProblem(await post(hub, { type, ...stocks, items: items([10, 1]) }), 400, 3, member, 'Required');
  });

  it('keeps only the stocks its type uses (Income has no source, Outcome no target)', async () => {
    const inc = await ok(post(hub, { type: 'Income', sourceStockName: 'Bar', targetStockName: 'Cellar', items: items([12, 1]) }));
    expect([inc.sourceStockName, inc.targetStockName]).toEqual([null, 'Cellar']);
    const out = await ok(post(hub, { type: 'Outcome', sourceStockName: 'Cellar', targetStockName: 'Bar', items: items([12, 1]) }));
    expect([out.sourceStockName, out.targetStockName]).toEqual(['Cellar', null]);
    expect(await qty(hub, 'Cellar', 12)).toBe(4);
    expect(await qty(hub, 'Bar', 10)).toBe(10);
  });

  it('refuses plus that are not StockItem', async () => {
    const recipe = await post(hub, { type: 'Income', targetStockName: 'Store', items: items([20, 1]) });
    expectProblem(recipe, 400, 3, 'items[0].plu');
    expect(recipe.body.detail).toContain('Recipe');
    expectProblem(await post(hub, { type: 'Outcome', sourceStockName: 'Store', items: items([10, 1], [30, 1]) }), 400, 3, 'items[1].plu');
    expect(await qty(hub, 'Store', 10)).toBe(34);
  });

  it('refuses an unknown stock or plu', async () => {
    expectProblem(await post(hub, { type: 'Income', targetStockName: 'Nowhere', items: items([10, 1]) }), 400, 3, 'targetStockName');
    expectProblem(await post(hub, { type: 'Outcome', sourceStockName: 'Nowhere', items: items([10, 1]) }), 400, 3, 'sourceStockName');
    expectProblem(await post(hub, { type: 'Transfer', sourceStockName: 'Store', targetStockName: 'Nowhere', items: items([10, 1]) }), 400, 3, 'targetStockName');
    expectProblem(await post(hub, { type: 'Income', targetStockName: 'Store', items: items([999, 1]) }), 400, 3, 'items[0].plu');
    expectProblem(await post(hub, { type: 'Income', targetStockName: 'Cellar', items: items([10, 1]) }), 400, 3, 'items[0].plu');
  });

  it('refuses a total cost beyond ±1,000,000,000 (CONTRACT §12), naming it, and moves nothing (each cost and quantity within it)', async () => {
    const before = await qty(hub, 'Store', 11);
    const costly = (quantity: number) => [{ plu: { code: 11 }, quantity, costPrice: { amount: 1_000_000_000 } }];
    expectProblem(await post(hub, { type: 'Income', targetStockName: 'Store', items: costly(2) }), 400, 3, 'totalCost', 'OutOfRange');
    expect(await qty(hub, 'Store', 11)).toBe(before);
  });

  it('refuses a body without items, an unknown type or a missing type', async () => {
    expectProblem(await post(hub, { type: 'Income', targetStockName: 'Store', items: [] }), 400, 3, 'items');
    expectProblem(await post(hub, { type: 'Income', targetStockName: 'Store' }), 400, 3, 'items', 'Required');
    expectProblem(await post(hub, { type: 'Gift', targetStockName: 'Store', items: items([10, 1]) }), 400, 3, 'type');
    expectProblem(await post(hub, { targetStockName: 'Store', items: items([10, 1]) }), 400, 3, 'type', 'Required');
  });

  it.each(['Sale', 'Correction', 'sale'])('refuses %s: only the hub makes those', async (type) => {
    const before = await qty(hub, 'Store', 10);
    const r = await post(hub, { type, sourceStockName: 'Store', targetStockName: 'Bar', items: items([10, 1]) });
    expectProblem(r, 400, 3, 'type');
    expect(await qty(hub, 'Store', 10)).toBe(before);
  });

  it('ignores server-owned fields in the body', async () => {
    const r = await ok(
      post(hub, {
        type: 'Income',
        targetStockName: 'Cellar',
        items: items([12, 1]),
        documentNumber: 'MINE-1',
        createdAt: '2020-01-01T00:00:00Z',
        createdBy: { userName: 'someone' },
        ticketId: 'x',
        stockTakingId: 'y',
      }),
    );
    expect(r).toMatchObject({ documentNumber: 'P-2026110005', createdAt: '2026-11-21T11:00:00.000Z', createdBy: { userName: 'admin' }, ticketId: null, stockTakingId: null });
  });

  it('refuses a POST of an id that exists (Unique), and keeps a client id', async () => {
    const mine = await ok(post(hub, { id: 'delivery-77', type: 'Income', targetStockName: 'Cellar', items: items([12, 1]) }));
    expect(mine.id).toBe('delivery-77');
    expectProblem(await post(hub, { id: 'delivery-77', type: 'Income', targetStockName: 'Cellar', items: items([12, 1]) }), 400, 3, 'id', 'Unique');
    expect(await qty(hub, 'Cellar', 12)).toBe(6);
  });
});

describe('immutability and rights', () => {
  it.each(['PUT', 'DELETE', 'PATCH'])('%s of a transfer answers 405 with a problem body', async (method) => {
    const r = await hub.call(method, `/api/stocktransfers/${doc.A.id}`, method === 'DELETE' ? undefined : { ...doc.A, note: 'changed' });
    expect(r.status).toBe(405);
    expect(r.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(r.body).toMatchObject({ status: 405, title: expect.any(String), detail: expect.any(String), traceId: r.headers.get('x-request-id') });
    expect(r.headers.get('allow')).toBe('GET');
    expect((await hub.call('GET', `/api/stocktransfers/${doc.A.id}`)).body).toEqual(doc.A);
  });

  it('PUT on the collection is 405 too', async () => {
    const r = await hub.call('PUT', '/api/stocktransfers', {});
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, POST');
  });

  it('POST needs StockTransferCreate: 403 without, and nothing is stored', async () => {
    const reader = await hub.userWith([]);
    const before = (await hub.call('GET', '/api/stocktransfers?$count=true')).body.totalCount;
    const numbering = (await hub.call('GET', '/api/stocktransfernumberings/income')).body;
    const refused = await post(hub, { type: 'Income', targetStockName: 'Store', items: items([10, 1]) }, reader);
    expectProblem(refused, 403, 2);
    expect(refused.body.detail).toContain('StockTransferCreate');
    expect((await hub.call('GET', '/api/stocktransfers?$count=true')).body.totalCount).toBe(before);
    expect((await hub.call('GET', '/api/stocktransfernumberings/income')).body).toEqual(numbering);
    expect(await qty(hub, 'Store', 10)).toBe(34);
    // Reading needs StockRead (CONTRACT §12).
    expect((await hub.call('GET', '/api/stocktransfers', undefined, { token: reader })).status).toBe(403);
    expect((await hub.call('GET', '/api/stocktransfers', undefined, { token: await hub.userWith(['StockRead']) })).status).toBe(200);
  });

  it('with StockTransferCreate alone a user receives goods, as the creator', async () => {
    const storekeeper = await hub.userWith(['StockTransferCreate']);
    const r = await post(hub, { type: 'Income', targetStockName: 'Store', items: items([10, 1]) }, storekeeper);
    expect(r.status).toBe(201);
    expect(r.body.createdBy.userName).toMatch(/^user\d+$/);
    expect(await qty(hub, 'Store', 10)).toBe(35);
  });

  it('without a token: 401', async () => {
    expect((await post(hub, { type: 'Income', targetStockName: 'Store', items: items([10, 1]) }, null)).status).toBe(401);
    expect((await hub.call('GET', '/api/stocktransfers', undefined, { token: null })).status).toBe(401);
  });

  it('refuses a move that takes a stock past ±1,000,000,000 (CONTRACT §12: every quantity stays within it), naming the item, before any receipt', async () => {
    await plu(hub, 'Bar', 14, 'StockItem', { unitPrice: { amount: 1 } });
    const one = (quantity: number) => [{ plu: { code: 14 }, quantity }];
    await ok(post(hub, { type: 'Outcome', sourceStockName: 'Bar', items: one(1_000_000_000) }));
    expect(await qty(hub, 'Bar', 14)).toBe(-1_000_000_000);
    const beer = await qty(hub, 'Bar', 10);
    expectProblem(await post(hub, { type: 'Outcome', sourceStockName: 'Bar', items: [{ plu: { code: 10 }, quantity: 1 }, ...one(0.5)] }), 400, 3, 'items[1].quantity', 'OutOfRange');
    // Nothing moved, the first item's stock either.
    expect([await qty(hub, 'Bar', 14), await qty(hub, 'Bar', 10)]).toEqual([-1_000_000_000, beer]);
    // A sale that would: refused at the close, before the fiscal device is asked; the ticket stays open.
    const token = await till(hub);
    const ticket = await ok(hub.call('POST', '/api/tickets', { items: [{ plu: { code: 14, stockName: 'Bar' }, quantity: 1 }] }, { token }));
    const refused = await hub.call('POST', `/api/tickets/${ticket.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 1 }] }, { token });
    expectProblem(refused, 400, 3, 'items', 'OutOfRange');
    expect((await hub.call('GET', `/api/tickets/${ticket.id}`)).body).toMatchObject({ state: 'Opened', closeInfo: null });
    await ok(post(hub, { type: 'Income', targetStockName: 'Bar', items: one(1_000_000_000) }));
    await ok(post(hub, { type: 'Income', targetStockName: 'Bar', items: one(1_000_000_000) }));
    expectProblem(await post(hub, { type: 'Income', targetStockName: 'Bar', items: one(0.0001) }), 400, 3, 'items[0].quantity', 'OutOfRange');
    expect(await qty(hub, 'Bar', 14)).toBe(1_000_000_000);
  });
});
