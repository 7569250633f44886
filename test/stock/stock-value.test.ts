/**
 * Stock value (issue 28, point 8): units on plus, purchase prices on Income items averaging into a
 * StockItem's costPrice (weighted by quantity), every document recording the cost each item moved at,
 * suppliers on Income documents, and GET /api/stockvalue adding it up — each figure held against what
 * this test computes from the documents it posted, in cents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';
import { expectProblem, ok, plu, post, qty, sell, stock, till } from './fixture.js';

let hub: TestHub;
let token: string;
const clock = new FakeClock(new Date('2026-11-10T09:00:00Z'));
const BRYNDZA = 501;
const PIVO = 101;

beforeAll(async () => {
  hub = await startHub({ clock, timeZone: 'Europe/Bratislava' });
  await stock(hub, 'Sklad', 'Bar');
  await plu(hub, 'Sklad', BRYNDZA, 'StockItem', { unit: 'kg', unitPrice: { amount: 0 } });
  await plu(hub, 'Sklad', PIVO, 'StockItem', { unit: 'fľ.' });
  await plu(hub, 'Bar', PIVO, 'StockItem', { unit: 'fľ.', unitPrice: { amount: 2.4 }, vatInfo: { category: 1, rate: 23 } });
  token = await till(hub);
});
afterAll(() => hub.close());

const cents = (n: number) => Math.round(n * 100);
const get = async (url: string) => ok(hub.call('GET', url));
const pluOf = async (stockName: string, code: number) => (await get(`/api/plus?stockName=${encodeURIComponent(stockName)}&code=${code}`)).items[0];
const income = (items: Array<[number, number, number | null]>, extra: Record<string, unknown> = {}) =>
  ok(post(hub, { type: 'Income', targetStockName: 'Sklad', items: items.map(([code, quantity, cost]) => ({ plu: { code }, quantity, costPrice: cost === null ? null : { amount: cost } })), ...extra }));

describe('units and purchase prices', () => {
  it('a plu carries its unit (short text, else a 400 naming unit)', async () => {
    expect((await pluOf('Sklad', BRYNDZA)).unit).toBe('kg');
    expect((await plu(hub, 'Sklad', 900, 'StockItem')).unit).toBeNull();
    for (const unit of ['', ' kg', 'a'.repeat(17), 'k\u0001g', 5]) {
      expectProblem(await hub.call('POST', '/api/plus', { code: 901, stockName: 'Sklad', name: 'X', type: 'StockItem', unit }), 400, 3, 'unit');
    }
  });

  it('each Income price averages into costPrice, weighted by quantity; with nothing in stock the price is the cost', async () => {
    const first = await income([[BRYNDZA, 10, 4]]);
    expect(first.items[0].costPrice).toEqual({ amount: 4 });
    expect(first.totalCost).toEqual({ amount: 40 });
    expect((await pluOf('Sklad', BRYNDZA)).costPrice).toEqual({ amount: 4 });
    // (10 × 4 + 30 × 5,20) / 40 = 4,90
    await income([[BRYNDZA, 30, 5.2]]);
    const p = await pluOf('Sklad', BRYNDZA);
    expect([p.stockQuantity, p.costPrice]).toEqual([40, { amount: 4.9 }]);
    // An Income without a price records the cost it came in at and leaves the average alone.
    const unpriced = await income([[BRYNDZA, 2, null]]);
    expect(unpriced.items[0].costPrice).toEqual({ amount: 4.9 });
    expect((await pluOf('Sklad', BRYNDZA)).costPrice).toEqual({ amount: 4.9 });
    // Three decimals of a kilogram at an odd price: the average keeps 4 places. (42 × 4,90 + 0,125 × 7,77) / 42,125 = 4,9085…
    await income([[BRYNDZA, 0.125, 7.77]]);
    expect((await pluOf('Sklad', BRYNDZA)).costPrice).toEqual({ amount: 4.9085 });
    const bad = await post(hub, { type: 'Income', targetStockName: 'Sklad', items: [{ plu: { code: BRYNDZA }, quantity: 1, costPrice: { amount: -1 } }] });
    expectProblem(bad, 400, 3, 'items[0].costPrice.amount');
  });

  it('the margin follows the averaged cost', async () => {
    await income([[PIVO, 24, 0.9]]);
    await ok(post(hub, { type: 'Transfer', sourceStockName: 'Sklad', targetStockName: 'Bar', items: [{ plu: { code: PIVO }, quantity: 12 }] }));
    const bar = await pluOf('Bar', PIVO);
    // 2,40 / 1,23 = 1,9512…; − 0,90 = 1,05; 1,0512 / 1,9512 = 53,88 %
    expect(bar.costPrice).toEqual({ amount: 0.9 });
    expect(bar.margin).toEqual({ amount: 1.05, rate: 53.88 });
  });
});

describe('suppliers on income documents', () => {
  it('an Income names its supplier, listed by SupplierName; another type with one is a 400', async () => {
    const doc = await income([[PIVO, 6, 1.1]], { supplier: { name: 'Heineken Slovensko', companyId: '36272108', vatId: 'SK2020178820', documentNumber: 'DL-2026/4411' } });
    expect(doc.supplier).toEqual({ name: 'Heineken Slovensko', companyId: '36272108', vatId: 'SK2020178820', documentNumber: 'DL-2026/4411' });
    expect((await income([[PIVO, 1, 1]])).supplier).toBeNull();
    const found = (await get('/api/stocktransfers?supplierName=contains:heineken')).items;
    expect(found.map((d: any) => d.id)).toEqual([doc.id]);
    const outcome = await post(hub, { type: 'Outcome', sourceStockName: 'Sklad', items: [{ plu: { code: PIVO }, quantity: 1 }], supplier: { name: 'X' } });
    expectProblem(outcome, 400, 3, 'supplier');
    expectProblem(await post(hub, { type: 'Income', targetStockName: 'Sklad', items: [{ plu: { code: PIVO }, quantity: 1 }], supplier: { name: '' } }), 400, 3, 'supplier.name');
  });
});

describe('GET /api/stockvalue', () => {
  it('values each stock now and prices what moved in the period at the costs the documents recorded', async () => {
    const fresh = await startHub({ clock: new FakeClock(new Date('2026-10-31T10:00:00Z')), timeZone: 'Europe/Bratislava' });
    try {
      const c = fresh.clock;
      // Days pass: the admin logs in again (a session lasts 12 hours).
      const later = async (iso: string) => {
        c.set(new Date(iso));
        fresh.adminToken = await fresh.login('admin', ADMIN_PASSWORD, 'BackOffice');
      };
      const call = (body: Record<string, unknown>) => ok(fresh.call('POST', '/api/stocktransfers', body));
      for (const name of ['Sklad', 'Bar']) await ok(fresh.call('POST', '/api/stocks', { name }));
      for (const [stockName, code, price] of [['Sklad', 1, 0], ['Sklad', 2, 0], ['Bar', 1, 3], ['Sklad', 3, 0]] as const) {
        await ok(fresh.call('POST', '/api/plus', { code, stockName, name: `P${code}`, type: 'StockItem', unitPrice: { amount: price } }));
      }
      // Before the period (31 October): 10 of plu 1 at 2,00.
      await call({ type: 'Income', targetStockName: 'Sklad', items: [{ plu: { code: 1 }, quantity: 10, costPrice: { amount: 2 } }] });
      // In the period (November).
      await later('2026-11-02T10:00:00Z');
      await call({ type: 'Income', targetStockName: 'Sklad', items: [{ plu: { code: 1 }, quantity: 30, costPrice: { amount: 3 } }, { plu: { code: 2 }, quantity: 5, costPrice: { amount: 1.5 } }] });
      // plu 1 now costs (10 × 2 + 30 × 3) / 40 = 2,75.
      await call({ type: 'Transfer', sourceStockName: 'Sklad', targetStockName: 'Bar', items: [{ plu: { code: 1 }, quantity: 8 }] });
      await call({ type: 'Outcome', sourceStockName: 'Sklad', items: [{ plu: { code: 2 }, quantity: 1 }] });
      await call({ type: 'Income', targetStockName: 'Sklad', items: [{ plu: { code: 3 }, quantity: 4 }] });
      await ok(fresh.call('POST', '/api/fiscaldevices', { name: 'SIM', driver: 'simulator', address: 'sim:x' }));
      await ok(fresh.call('POST', '/api/devices', { name: 'Till', envName: 'CashRegister', settings: { DefaultFiscalName: 'SIM' } }));
      await ok(fresh.call('POST', '/api/users', { userName: 'c', password: 'pw', rights: ['TicketCreate', 'TicketClose', 'Storno'] }));
      const cashier = await fresh.login('c', 'pw', 'Till');
      await sell(fresh, cashier, [{ code: 1, stockName: 'Bar', quantity: 3 }]);
      await sell(fresh, cashier, [{ code: 1, stockName: 'Bar', quantity: 1, type: 'Negative' }]);
      const taking = await ok(fresh.call('POST', '/api/stocktakings', { items: [{ plu: { code: 2, stockName: 'Sklad' }, actualQuantity: 3 }] }));
      await ok(fresh.call('PUT', `/api/stocktakings/${taking.id}`, { ...taking, closedBy: { userName: 'admin' }, closedAt: c.now().toISOString() }));
      // After the period (1 December): not in November's figures, but in today's value.
      await later('2026-12-01T10:00:00Z');
      await call({ type: 'Income', targetStockName: 'Sklad', items: [{ plu: { code: 2 }, quantity: 2, costPrice: { amount: 1.5 } }] });

      // The figures, from the documents above, in cents.
      const cost1 = (10 * 200 + 30 * 300) / 40; // 275
      const want = {
        Sklad: {
          received: 30 * 300 + 5 * 150,
          transferredIn: 0,
          transferredOut: 8 * cost1,
          costOfGoodsSold: 0,
          writtenOff: 1 * 150,
          corrections: -1 * 150, // 4 expected, 3 counted
          value: (40 - 8) * cost1 + (5 - 1 - 1 + 2) * 150, // plu 3 has no cost: not valued
        },
        Bar: { received: 0, transferredIn: 8 * cost1, transferredOut: 0, costOfGoodsSold: (3 - 1) * cost1, writtenOff: 0, corrections: 0, value: (8 - 3 + 1) * cost1 },
      };
      const r = await ok(fresh.call('GET', '/api/stockvalue?from=2026-11-01&to=2026-11-30'));
      expect([r.from, r.to]).toEqual(['2026-11-01', '2026-11-30']);
      for (const [name, figures] of Object.entries(want)) {
        const row = r.stocks.find((s: any) => s.stockName === name);
        for (const [k, v] of Object.entries(figures)) expect(cents(row[k]), `${name} ${k}`).toBe(v);
      }
      const sklad = r.stocks.find((s: any) => s.stockName === 'Sklad');
      expect([sklad.products, sklad.productsWithoutCost, sklad.movesWithoutCost]).toEqual([3, 1, 1]);
      for (const k of Object.keys(want.Sklad)) expect(cents(r.totals[k]), `total ${k}`).toBe(want.Sklad[k as keyof typeof want.Sklad] + want.Bar[k as keyof typeof want.Bar]);
      // The Sale recorded the cost of the goods it sold.
      const sales = (await ok(fresh.call('GET', '/api/stocktransfers?type=Sale&$sort=createdAt'))).items;
      expect(sales.map((d: any) => cents(d.totalCost.amount))).toEqual([3 * cost1, -1 * cost1]);

      // A day with nothing: only today's values.
      const quiet = await ok(fresh.call('GET', '/api/stockvalue?from=2026-10-01&to=2026-10-30'));
      expect(cents(quiet.totals.received)).toBe(0);
      expect(cents(quiet.totals.value)).toBe(want.Sklad.value + want.Bar.value);
      // The local day counts: 31 October 10:00 UTC is still 31 October in Bratislava.
      expect(cents((await ok(fresh.call('GET', '/api/stockvalue?from=2026-10-31&to=2026-10-31'))).totals.received)).toBe(10 * 200);
    } finally {
      await fresh.close();
    }
  });

  it('asks for both days and StockRead', async () => {
    expectProblem(await hub.call('GET', '/api/stockvalue?to=2026-11-30'), 400, 3, 'from', 'Required');
    expectProblem(await hub.call('GET', '/api/stockvalue?from=2026-11-31&to=2026-12-01'), 400, 3, 'from', 'Invalid');
    expectProblem(await hub.call('GET', '/api/stockvalue?from=2026-11-02&to=2026-11-01'), 400, 3, 'to', 'OutOfRange');
    const reader = await hub.userWith(['PluUpdate']);
    const denied = await hub.call('GET', '/api/stockvalue?from=2026-11-01&to=2026-11-30', undefined, { token: reader });
    expect([denied.status, denied.body.detail]).toEqual([403, expect.stringContaining('StockRead')]);
  });
});

describe('stock quantities still move as before', () => {
  it('a sale lowers the Bar and records its cost', async () => {
    const before = await qty(hub, 'Bar', PIVO);
    await sell(hub, token, [{ code: PIVO, stockName: 'Bar', quantity: 2 }]);
    expect(await qty(hub, 'Bar', PIVO)).toBe(before - 2);
  });
});
