/**
 * Stock takings (seed §3 and §4, CONTRACT §7): counted while open, closed by POST or PUT with
 * closedBy and closedAt together, every item counted and the right StockTakingClose; closing
 * makes a numbered Correction that brings each plu to its count. A closed one is read-only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expectProblem, ids, items, ok, plu, post, qty, sell, stock, till } from './fixture.js';

let hub: TestHub;
const F: Record<string, any> = {};
let counterUser: string;

const line = (code: number, stockName: string, actualQuantity?: number | null) => ({
  plu: { code, stockName },
  ...(actualQuantity === undefined ? {} : { actualQuantity }),
});
const CLOSE = { closedAt: '2026-11-21T12:00:00Z', closedBy: { userName: 'admin' } };
const takings = (body: unknown, token?: string) => hub.call('POST', '/api/stocktakings', body, token ? { token } : {});
const get = async (id: string) => (await hub.call('GET', `/api/stocktakings/${id}`)).body;
const correctionNumber = async () => (await hub.call('GET', '/api/stocktransfernumberings/correction')).body.numberings[0].currentNumber;
const countAll = async () => (await hub.call('GET', '/api/stocktakings?$count=true')).body.totalCount;
const corrections = async () => (await hub.call('GET', '/api/stocktransfers?type=Correction&$count=true')).body.totalCount;

beforeAll(async () => {
  hub = await startHub();
  await stock(hub, 'Store', 'Bar');
  for (const code of [1, 2, 3, 4]) await plu(hub, 'Store', code, 'StockItem', { unitPrice: { amount: 1 } });
  await plu(hub, 'Bar', 1);
  await plu(hub, 'Store', 5, 'Recipe', { receipt: [{ pluId: { code: 1, stockName: 'Store' }, quantity: 1 }] });
  await plu(hub, 'Store', 6, 'Service');
  await plu(hub, 'Store', 7, 'Container');
  await ok(post(hub, { type: 'Income', targetStockName: 'Store', items: items([1, 10], [2, 5.5], [4, 20]) }));

  // The documents the list filters are tested on.
  const u = await ok(hub.call('POST', '/api/users', { userName: 'counter', password: 'pw', rights: ['StockTakingCreate', 'StockTakingClose'] }));
  counterUser = u.userName;
  const counterToken = await hub.login('counter', 'pw', 'BackOffice');
  F.one = await ok(takings({ currencyLabel: 'EUR', items: [line(1, 'Store'), line(2, 'Store')] }));
  hub.clock.set('2026-11-21T10:10:00Z');
  F.two = await ok(takings({ currencyLabel: 'CZK', closedAt: '2026-11-21T11:00:00Z', closedBy: { userName: 'boss' }, items: [line(1, 'Bar', 0)] }, counterToken));
  hub.clock.set('2026-11-21T10:20:00Z');
  F.three = await ok(takings({ ...CLOSE, items: [line(3, 'Store', 4)] }));
  hub.clock.set('2026-11-21T10:30:00Z');
});
afterAll(() => hub.close());

describe('list filters (seed §4)', () => {
  const cases: Array<[string, string[]]> = [
    ['id=${one}', ['one']],
    ['id=nope', []],
    ['id=ne:${one}', ['two', 'three']],
    ['createdAt=2026-11-21T10:10:00Z', ['two']],
    ['createdAt=2026-11-21T10:05:00Z', []],
    ['createdAt=ge:2026-11-21T10:10:00Z', ['two', 'three']],
    ['createdAt=lt:2026-11-21T10:10:00Z', ['one']],
    ['createdByUserName=admin', ['one', 'three']],
    ['createdByUserName=counter', ['two']],
    ['createdByUserName=nobody', []],
    ['createdByUserName=ne:admin', ['two']],
    ['createdByUserName=startswith:COUN', ['two']],
    ['closedAt=2026-11-21T11:00:00Z', ['two']],
    ['closedAt=2026-11-21T11:30:00Z', []],
    ['closedAt=gt:2026-11-21T11:00:00Z', ['three']],
    ['closedAt=null', ['one']],
    ['closedAt=ne:null', ['two', 'three']],
    ['closedByUserName=boss', ['two']],
    ['closedByUserName=admin', ['three']],
    ['closedByUserName=nobody', []],
    ['closedByUserName=null', ['one']],
    ['closedByUserName=ne:boss', ['one', 'three']],
    ['currencyLabel=EUR', ['one']],
    ['currencyLabel=USD', []],
    ['currencyLabel=null', ['three']],
    ['currencyLabel=in:EUR,CZK', ['one', 'two']],
    ['currencyLabel=ne:EUR', ['two', 'three']],
    ['itemPluStockName=Store', ['one', 'three']],
    ['itemPluStockName=Bar', ['two']],
    ['itemPluStockName=Kitchen', []],
    ['itemPluStockName=ne:Store', ['two']],
    ['itemPluCode=1', ['one', 'two']],
    ['itemPluCode=3', ['three']],
    ['itemPluCode=4', []],
    ['itemPluCode=in:2,3', ['one', 'three']],
    ['itemPluCode=ne:1', ['three']],
    ['itemPluCode=1&itemPluStockName=Bar', ['two']],
    ['createdByUserName=admin&closedAt=null', ['one']],
  ];
  const fill = (q: string) => q.replace(/\$\{(\w+)\}/g, (_m, k: string) => F[k].id);
  it.each(cases)('%s', async (q, expected) => {
    expect(await ids(hub, `/api/stocktakings?${fill(q)}`)).toEqual(expected.map((k) => F[k].id).sort());
  });

  it.each([
    ['createdAt=yesterday', 'createdAt'],
    ['closedAt=gt:soon', 'closedAt'],
    ['itemPluCode=one', 'itemPluCode'],
    ['itemPluCode=gt:1.5', 'itemPluCode'],
    ['expectedQuantity=1', 'expectedQuantity'],
  ])('refuses %s with 400 naming %s', async (q, member) => {
    expectProblem(await hub.call('GET', `/api/stocktakings?${q}`), 400, 3, member);
  });

  it('were made with the caller, the time and no correction while open', () => {
    expect(F.one).toMatchObject({ createdAt: '2026-11-21T10:00:00.000Z', createdBy: { userName: 'admin' }, closedAt: null, closedBy: null, stockTransferId: null, _v: 1 });
    expect(F.two).toMatchObject({ createdBy: { userName: counterUser }, closedBy: { userName: 'boss' }, closedAt: '2026-11-21T11:00:00.000Z', stockTransferId: expect.any(String) });
  });
});

describe('an open stock taking', () => {
  it('is created with expectedQuantity filled by the server (a body value is ignored)', async () => {
    const r = await takings({
      items: [{ ...line(1, 'Store'), expectedQuantity: 999 }, line(2, 'Store', 5), line(3, 'Store', null)],
      stockTransferId: 'mine',
      createdAt: '2020-01-01T00:00:00Z',
      createdBy: { userName: 'someone' },
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`/api/stocktakings/${r.body.id}`);
    expect(r.body).toMatchObject({ closedAt: null, closedBy: null, stockTransferId: null, createdAt: '2026-11-21T10:30:00.000Z', createdBy: { userName: 'admin' }, _v: 1 });
    expect(r.body.items).toEqual([
      { plu: { code: 1, stockName: 'Store' }, expectedQuantity: 10, actualQuantity: null },
      { plu: { code: 2, stockName: 'Store' }, expectedQuantity: 5.5, actualQuantity: 5 },
      { plu: { code: 3, stockName: 'Store' }, expectedQuantity: 4, actualQuantity: null },
    ]);
    // Counting changes no stock.
    expect([await qty(hub, 'Store', 1), await qty(hub, 'Store', 2)]).toEqual([10, 5.5]);
  });

  it('takes its items adjusted with PUT, again and again; expectedQuantity follows the stock', async () => {
    const t = await ok(takings({ note: 'shelf A', items: [line(1, 'Store')] }));
    const first = await hub.call('PUT', `/api/stocktakings/${t.id}`, { ...t, items: [line(1, 'Store', 3), line(2, 'Store')] });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ _v: 2, note: 'shelf A', createdAt: t.createdAt, createdBy: t.createdBy, closedAt: null });
    expect(first.body.items.map((i: any) => [i.plu.code, i.expectedQuantity, i.actualQuantity])).toEqual([
      [1, 10, 3],
      [2, 5.5, null],
    ]);
    await ok(post(hub, { type: 'Income', targetStockName: 'Store', items: items([2, 0.5]) }));
    hub.clock.set('2026-11-21T10:40:00Z');
    const second = await ok(hub.call('PUT', `/api/stocktakings/${t.id}`, { ...first.body, items: [line(2, 'Store', 6.25)] }));
    expect(second).toMatchObject({ _v: 3, createdAt: '2026-11-21T10:30:00.000Z', stockTransferId: null });
    expect(second.items).toEqual([{ plu: { code: 2, stockName: 'Store' }, expectedQuantity: 6, actualQuantity: 6.25 }]);
    // A stale _v is refused.
    expectProblem(await hub.call('PUT', `/api/stocktakings/${t.id}`, { ...first.body }), 409, 6);
    expect(await qty(hub, 'Store', 2)).toBe(6);
  });

  it('PUT with a new id creates one (201)', async () => {
    const r = await hub.call('PUT', '/api/stocktakings/count-by-register', { items: [line(4, 'Store', 19)] });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ id: 'count-by-register', closedAt: null, items: [{ expectedQuantity: 20, actualQuantity: 19 }] });
    expect(await qty(hub, 'Store', 4)).toBe(20);
  });

  it.each([
    ['a Recipe', 5],
    ['a Service', 6],
    ['a Container', 7],
  ])('refuses %s plu: only StockItem plus are counted', async (_what, code) => {
    const r = await takings({ items: [line(1, 'Store', 1), line(code, 'Store', 1)] });
    expectProblem(r, 400, 3, 'items[1].plu');
    const t = await ok(takings({ items: [line(1, 'Store')] }));
    expectProblem(await hub.call('PUT', `/api/stocktakings/${t.id}`, { items: [line(code, 'Store')] }), 400, 3, 'items[0].plu');
  });

  it('refuses an unknown plu, a plu of another stock and an item without stockName', async () => {
    expectProblem(await takings({ items: [line(99, 'Store')] }), 400, 3, 'items[0].plu');
    expectProblem(await takings({ items: [line(2, 'Bar')] }), 400, 3, 'items[0].plu');
    expectProblem(await takings({ items: [{ plu: { code: 1 } }] }), 400, 3, 'items[0].plu.stockName', 'Required');
    expectProblem(await takings({ items: [line(1, 'Store', 0.00001)] }), 400, 3, 'items[0].actualQuantity');
  });

  it('refuses the same plu twice (400 Unique); the same code in two stocks is fine', async () => {
    expectProblem(await takings({ items: [line(1, 'Store'), line(2, 'Store'), line(1, 'Store', 2)] }), 400, 3, 'items[2].plu', 'Unique');
    const t = await ok(takings({ items: [line(1, 'Store')] }));
    expectProblem(await hub.call('PUT', `/api/stocktakings/${t.id}`, { items: [line(1, 'Store'), line(1, 'Store')] }), 400, 3, 'items[1].plu', 'Unique');
    expect((await takings({ items: [line(1, 'Store'), line(1, 'Bar')] })).status).toBe(201);
  });

  it('needs StockTakingCreate to POST and StockTakingCreate or StockTakingUpdate to PUT', async () => {
    const none = await hub.userWith(['StockTakingDelete', 'StockTakingClose']);
    expectProblem(await takings({ items: [line(1, 'Store')] }, none), 403, 2);
    const updater = await hub.userWith(['StockTakingUpdate']);
    expectProblem(await takings({ items: [line(1, 'Store')] }, updater), 403, 2);
    const t = await ok(takings({ items: [line(1, 'Store')] }));
    expectProblem(await hub.call('PUT', `/api/stocktakings/${t.id}`, { items: [line(1, 'Store', 1)] }, { token: none }), 403, 2);
    const r = await hub.call('PUT', `/api/stocktakings/${t.id}`, { items: [line(1, 'Store', 1)] }, { token: updater });
    expect(r.status).toBe(200);
    expect(r.body.createdBy.userName).toBe('admin');
  });

  it('DELETE needs StockTakingDelete and answers the deleted stock taking', async () => {
    const t = await ok(takings({ items: [line(1, 'Store', 2)] }));
    const creator = await hub.userWith(['StockTakingCreate', 'StockTakingUpdate', 'StockTakingClose']);
    const refused = await hub.call('DELETE', `/api/stocktakings/${t.id}`, undefined, { token: creator });
    expectProblem(refused, 403, 2);
    expect(refused.body.detail).toContain('StockTakingDelete');
    expect((await hub.call('GET', `/api/stocktakings/${t.id}`)).status).toBe(200);
    const deleter = await hub.userWith(['StockTakingDelete']);
    const r = await hub.call('DELETE', `/api/stocktakings/${t.id}`, undefined, { token: deleter });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: t.id, _v: 1, items: t.items });
    expectProblem(await hub.call('GET', `/api/stocktakings/${t.id}`), 404, 7);
    expect(await qty(hub, 'Store', 1)).toBe(10);
  });
});

describe('closing', () => {
  it('by POST: directly closed, with a numbered Correction bringing each plu to its count', async () => {
    const before = await correctionNumber();
    const r = await takings({ ...CLOSE, items: [line(1, 'Store', 8), line(2, 'Store', 6.1), line(4, 'Store', 20)] });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ closedAt: '2026-11-21T12:00:00.000Z', closedBy: { userName: 'admin' }, stockTransferId: expect.any(String) });
    expect(r.body.items.map((i: any) => [i.plu.code, i.expectedQuantity, i.actualQuantity])).toEqual([
      [1, 10, 8],
      [2, 6, 6.1],
      [4, 20, 20],
    ]);
    const k = (await hub.call('GET', `/api/stocktransfers/${r.body.stockTransferId}`)).body;
    expect(k).toMatchObject({
      type: 'Correction',
      documentNumber: `K-202611${String(before + 1).padStart(4, '0')}`,
      stockTakingId: r.body.id,
      createdBy: { userName: 'admin' },
      createdAt: '2026-11-21T10:40:00.000Z',
      ticketId: null,
    });
    expect(k.items.map((i: any) => [i.plu.code, i.plu.stockName, i.quantity])).toEqual([
      [1, 'Store', -2],
      [2, 'Store', 0.1],
      [4, 'Store', 0],
    ]);
    expect([await qty(hub, 'Store', 1), await qty(hub, 'Store', 2), await qty(hub, 'Store', 4)]).toEqual([8, 6.1, 20]);
    expect(await correctionNumber()).toBe(before + 1);
    const found = await hub.call('GET', `/api/stocktransfers?type=Correction&stockTakingId=${r.body.id}`);
    expect(found.body.items.map((d: any) => d.id)).toEqual([r.body.stockTransferId]);
  });

  it('by PUT on an open one, with the closing caller as the correction creator', async () => {
    const t = await ok(takings({ items: [line(1, 'Store', 7)] }));
    const closer = await hub.userWith(['StockTakingUpdate', 'StockTakingClose']);
    const r = await hub.call('PUT', `/api/stocktakings/${t.id}`, { ...t, items: [line(1, 'Store', 7.5)], closedAt: '2026-11-21T12:30:00+01:00', closedBy: { userName: 'manager' } }, { token: closer });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ _v: 2, closedAt: '2026-11-21T11:30:00.000Z', closedBy: { userName: 'manager' }, createdBy: { userName: 'admin' } });
    const k = (await hub.call('GET', `/api/stocktransfers/${r.body.stockTransferId}`)).body;
    expect(k.type).toBe('Correction');
    expect(k.createdBy.userName).toMatch(/^user\d+$/);
    expect(k.items.map((i: any) => i.quantity)).toEqual([-0.5]);
    expect(await qty(hub, 'Store', 1)).toBe(7.5);
  });

  it('PUT with a new id may create it closed', async () => {
    const r = await hub.call('PUT', '/api/stocktakings/closed-at-once', { ...CLOSE, items: [line(1, 'Bar', -1)] });
    expect(r.status).toBe(201);
    expect(r.body.stockTransferId).toEqual(expect.any(String));
    expect(await qty(hub, 'Bar', 1)).toBe(-1);
  });

  it.each([
    ['closedAt alone', { closedAt: CLOSE.closedAt }, 'closedBy'],
    ['closedBy alone', { closedBy: CLOSE.closedBy }, 'closedAt'],
    ['closedAt with closedBy null', { closedAt: CLOSE.closedAt, closedBy: null }, 'closedBy'],
  ])('refuses %s (400), by POST and by PUT, storing nothing', async (_what, partial, member) => {
    const [n, k, q] = [await countAll(), await corrections(), await qty(hub, 'Store', 1)];
    expectProblem(await takings({ ...partial, items: [line(1, 'Store', 1)] }), 400, 3, member, 'Required');
    expect(await countAll()).toBe(n);
    const t = await ok(takings({ items: [line(1, 'Store', 1)] }));
    expectProblem(await hub.call('PUT', `/api/stocktakings/${t.id}`, { ...partial, items: [line(1, 'Store', 1)] }), 400, 3, member, 'Required');
    expect(await get(t.id)).toMatchObject({ _v: 1, closedAt: null, closedBy: null });
    expect([await corrections(), await qty(hub, 'Store', 1)]).toEqual([k, q]);
  });

  it('refuses a closedBy without userName', async () => {
    expectProblem(await takings({ closedAt: CLOSE.closedAt, closedBy: {}, items: [line(1, 'Store', 1)] }), 400, 3, 'closedBy.userName', 'Required');
  });

  it('needs actualQuantity on every item (400 naming items[i].actualQuantity)', async () => {
    const [n, k, num] = [await countAll(), await corrections(), await correctionNumber()];
    const r = await takings({ ...CLOSE, items: [line(1, 'Store', 1), line(2, 'Store'), line(4, 'Store', null)] });
    expectProblem(r, 400, 3, 'items[1].actualQuantity', 'Required');
    const t = await ok(takings({ items: [line(1, 'Store', 1), line(2, 'Store', 2), line(4, 'Store')] }));
    const put = await hub.call('PUT', `/api/stocktakings/${t.id}`, { ...t, ...CLOSE });
    expectProblem(put, 400, 3, 'items[2].actualQuantity', 'Required');
    expect(await countAll()).toBe(n + 1);
    expect(await get(t.id)).toMatchObject({ _v: 1, closedAt: null });
    expect([await corrections(), await correctionNumber(), await qty(hub, 'Store', 1)]).toEqual([k, num, 7.5]);
  });

  it('refuses a count whose Correction would move more than ±1,000,000,000 (CONTRACT §12), naming the item; nothing is stored', async () => {
    await plu(hub, 'Store', 9);
    await ok(post(hub, { type: 'Outcome', sourceStockName: 'Store', items: items([9, 999_999_999]) }));
    const [n, k, num] = [await countAll(), await corrections(), await correctionNumber()];
    // Both the stock before (-999,999,999) and the count (1,000,000,000) are in range; the correction (1,999,999,999) is not.
    const r = await takings({ ...CLOSE, items: [line(1, 'Bar', 0), line(9, 'Store', 1_000_000_000)] });
    expectProblem(r, 400, 3, 'items[1].actualQuantity', 'OutOfRange');
    expect([await countAll(), await corrections(), await correctionNumber(), await qty(hub, 'Store', 9)]).toEqual([n, k, num, -999_999_999]);
    // An open count may hold it; closing it is what is refused.
    const t = await ok(takings({ items: [line(9, 'Store', 1_000_000_000)] }));
    expectProblem(await hub.call('PUT', `/api/stocktakings/${t.id}`, { ...t, ...CLOSE }), 400, 3, 'items[0].actualQuantity', 'OutOfRange');
    // A correction of exactly 1,000,000,000 is within the limit.
    const closed = await ok(hub.call('PUT', `/api/stocktakings/${t.id}`, { ...t, ...CLOSE, items: [line(9, 'Store', 1)] }));
    expect((await hub.call('GET', `/api/stocktransfers/${closed.stockTransferId}`)).body.items.map((i: any) => i.quantity)).toEqual([1_000_000_000]);
    expect(await qty(hub, 'Store', 9)).toBe(1);
  });

  it('needs StockTakingClose: 403 without, and nothing is stored (no taking, no correction, no number, no stock)', async () => {
    const clerk = await hub.userWith(['StockTakingCreate', 'StockTakingUpdate']);
    const [n, k, num] = [await countAll(), await corrections(), await correctionNumber()];
    const post403 = await takings({ id: 'no-right', ...CLOSE, items: [line(1, 'Store', 100)] }, clerk);
    expectProblem(post403, 403, 2);
    expect(post403.body.detail).toContain('StockTakingClose');
    expectProblem(await hub.call('GET', '/api/stocktakings/no-right'), 404, 7);
    const t = await ok(takings({ items: [line(1, 'Store', 100)] }, clerk));
    const put403 = await hub.call('PUT', `/api/stocktakings/${t.id}`, { ...t, ...CLOSE }, { token: clerk });
    expectProblem(put403, 403, 2);
    expect(await get(t.id)).toMatchObject({ _v: 1, closedAt: null, closedBy: null, stockTransferId: null });
    expect([await countAll(), await corrections(), await correctionNumber(), await qty(hub, 'Store', 1)]).toEqual([n + 1, k, num, 7.5]);
    // With the right the same count closes.
    const closer = await hub.userWith(['StockTakingUpdate', 'StockTakingClose']);
    expect((await hub.call('PUT', `/api/stocktakings/${t.id}`, { ...t, ...CLOSE }, { token: closer })).status).toBe(200);
    expect(await qty(hub, 'Store', 1)).toBe(100);
  });
});

describe('a closed stock taking', () => {
  it('answers PUT and DELETE with 403 errorCode 8 and stays as it was', async () => {
    const t = await ok(takings({ ...CLOSE, items: [line(3, 'Store', 4)] }));
    const tries = [
      hub.call('PUT', `/api/stocktakings/${t.id}`, { ...t, items: [line(3, 'Store', 1)] }),
      hub.call('PUT', `/api/stocktakings/${t.id}`, { ...t, closedAt: null, closedBy: null }),
      hub.call('PUT', `/api/stocktakings/${t.id}`, { items: [] }),
      hub.call('DELETE', `/api/stocktakings/${t.id}`),
    ];
    for (const r of await Promise.all(tries)) {
      expectProblem(r, 403, 8);
      expect(r.body.detail).toContain('closed');
    }
    expect(await get(t.id)).toEqual(t);
    expect(await qty(hub, 'Store', 3)).toBe(4);
    expect((await hub.call('GET', `/api/stocktransfers?stockTakingId=${t.id}`)).body.totalCount).toBe(1);
  });

  it('an open one is still deletable by the same caller (the 403 is about the state)', async () => {
    const t = await ok(takings({ items: [line(3, 'Store', 4)] }));
    expect((await hub.call('DELETE', `/api/stocktakings/${t.id}`)).status).toBe(200);
  });
});

describe('counting while sales go on', () => {
  it('sell after counting, then close: the final quantity equals the count', async () => {
    await ok(post(hub, { type: 'Income', targetStockName: 'Store', items: items([4, 5]) })); // Store 4: 25
    const t = await ok(takings({ items: [line(4, 'Store', 24)] }));
    expect(t.items[0].expectedQuantity).toBe(25);
    const token = await till(hub);
    await sell(hub, token, [{ code: 4, stockName: 'Store', quantity: 3 }]);
    expect(await qty(hub, 'Store', 4)).toBe(22);
    const closed = await ok(hub.call('PUT', `/api/stocktakings/${t.id}`, { ...t, ...CLOSE }));
    expect(closed.items[0]).toMatchObject({ expectedQuantity: 22, actualQuantity: 24 });
    const k = (await hub.call('GET', `/api/stocktransfers/${closed.stockTransferId}`)).body;
    expect(k.items.map((i: any) => i.quantity)).toEqual([2]);
    expect(await qty(hub, 'Store', 4)).toBe(24);
    // Sales after closing move stock from the count on.
    await sell(hub, token, [{ code: 4, stockName: 'Store', quantity: 1 }]);
    expect(await qty(hub, 'Store', 4)).toBe(23);
  });
});
