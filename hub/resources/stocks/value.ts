/**
 * Stock value (issue 28, point 8): `GET /api/stockvalue?from=&to=` (right StockRead). What each stock
 * is worth now — Σ stockQuantity × costPrice of its StockItems, the costPrice being the weighted
 * average of their purchase prices (stocktransfers/stock.ts) — and what moved through it between two
 * local days: goods received (Income, at purchase price), transferred in and out, sold (Sale and
 * Invoice: the cost of goods sold, at the cost each item moved at), written off (Outcome) and the
 * stock takings' corrections (signed). Every figure comes from the documents' own recorded costs, so
 * a later change of a price does not rewrite the past. Exact decimals, rounded to the cent at the end.
 */
import { z } from 'zod';
import { D, dec, roundMoney, toJsonNumber, type Dec } from '../../core/money.js';
import { fromZoned } from '../../core/time.js';
import { ERR } from '../../http/api-docs.js';
import { requireRight } from '../../http/caller.js';
import { DAY_MS, daySpan, isoDay, localDay } from '../../http/members.js';
import { named, routes } from '../../http/route.js';
import type { EngineContext } from '../../engine/define.js';
import { stockItemCosts, stockNames, transfersBetween } from './store.js';

/** A document's item as stored: its plu, quantity and the cost it moved at (null or absent: unknown). */
interface MovedItem {
  plu: { code: number; stockName: string };
  quantity: number;
  costPrice?: { amount: number } | null;
}

const FIGURES = ['value', 'received', 'transferredIn', 'transferredOut', 'costOfGoodsSold', 'writtenOff', 'corrections'] as const;
type Figure = (typeof FIGURES)[number];

const money = (what: string) => z.number().describe(`${what} Exact to the cent.`);
const stockFigures = {
  value: money('What its StockItems are worth now: Σ stockQuantity × costPrice (negative stock counts negative).'),
  received: money('Income in the period, at purchase prices.'),
  transferredIn: money('Transfers into it in the period, at the cost they left their stock with.'),
  transferredOut: money('Transfers out of it in the period, at its cost then.'),
  costOfGoodsSold: money('Sale and Invoice documents in the period, at the cost each item left at; returns deducted.'),
  writtenOff: money('Outcome documents (write-offs) in the period, at cost.'),
  corrections: money('Stock takings’ corrections in the period, at cost: a surplus adds, a shortage subtracts.'),
};

export const stockValueSchema = z.object({
  from: z.string().describe('First day of the period, `YYYY-MM-DD` (local).'),
  to: z.string().describe('Last day of the period, `YYYY-MM-DD` (local), included.'),
  stocks: z.array(
    z.object({
      stockName: z.string(),
      ...stockFigures,
      products: z.number().int().describe('Its StockItems.'),
      productsWithoutCost: z.number().int().describe('StockItems with stock but no costPrice: not in `value`.'),
      movesWithoutCost: z.number().int().describe('Document items of the period that moved without a cost: not in the period’s figures.'),
    }),
  ),
  totals: z.object({ ...stockFigures, productsWithoutCost: z.number().int(), movesWithoutCost: z.number().int() }),
});
export type StockValue = z.infer<typeof stockValueSchema>;

/** A local day (its UTC midnight, http/members.ts `localDay`) as its first instant in the shop's time zone. */
function dayStart(utcMidnight: number, timeZone: string, plusDays = 0): number {
  const day = new Date(utcMidnight + plusDays * DAY_MS);
  return fromZoned({ year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate() }, timeZone).getTime();
}

interface Sums {
  figures: Record<Figure, Dec>;
  products: number;
  productsWithoutCost: number;
  movesWithoutCost: number;
}

const zero = (): Sums => ({ figures: Object.fromEntries(FIGURES.map((f) => [f, new D(0)])) as Record<Figure, Dec>, products: 0, productsWithoutCost: 0, movesWithoutCost: 0 });

/** `days`: local days as the route reads them, `to` not before `from`. */
export function stockValue(ctx: EngineContext, days: { from: number; to: number }): StockValue {
  const from = dayStart(days.from, ctx.timeZone);
  const to = dayStart(days.to, ctx.timeZone, 1);
  const byStock = new Map<string, Sums>(stockNames(ctx.db).map((n) => [n, zero()]));
  const of = (stock: string) => {
    let s = byStock.get(stock);
    if (!s) byStock.set(stock, (s = zero()));
    return s;
  };

  for (const row of stockItemCosts(ctx.db)) {
    const doc = JSON.parse(row.doc) as { stockQuantity?: number; costPrice?: { amount: number } | null };
    const s = of(row.stockName);
    s.products++;
    const quantity = dec(doc.stockQuantity ?? 0);
    if (doc.costPrice) s.figures.value = s.figures.value.plus(quantity.times(dec(doc.costPrice.amount)));
    else if (!quantity.isZero()) s.productsWithoutCost++;
  }

  for (const row of transfersBetween(ctx.db, from, to)) {
    const doc = JSON.parse(row.doc) as { type: string; sourceStockName: string | null; targetStockName: string | null; items: MovedItem[] };
    for (const item of doc.items) {
      const stock = doc.sourceStockName ?? doc.targetStockName ?? item.plu.stockName;
      if (!item.costPrice) {
        of(stock).movesWithoutCost++;
        continue;
      }
      const worth = dec(item.quantity).times(dec(item.costPrice.amount));
      const add = (name: string, figure: Figure, amount: Dec) => (of(name).figures[figure] = of(name).figures[figure].plus(amount));
      switch (doc.type) {
        case 'Income':
          add(String(doc.targetStockName), 'received', worth);
          break;
        case 'Transfer':
          add(String(doc.sourceStockName), 'transferredOut', worth);
          add(String(doc.targetStockName), 'transferredIn', worth);
          break;
        case 'Outcome':
          add(String(doc.sourceStockName), 'writtenOff', worth);
          break;
        case 'Invoice':
          add(String(doc.sourceStockName), 'costOfGoodsSold', worth);
          break;
        case 'Sale':
          add(item.plu.stockName, 'costOfGoodsSold', worth);
          break;
        case 'Correction':
          add(item.plu.stockName, 'corrections', worth);
          break;
      }
    }
  }

  const total = zero();
  const stocks = [...byStock].map(([stockName, s]) => {
    for (const f of FIGURES) total.figures[f] = total.figures[f].plus(s.figures[f]);
    total.productsWithoutCost += s.productsWithoutCost;
    total.movesWithoutCost += s.movesWithoutCost;
    return { stockName, ...present(s.figures), products: s.products, productsWithoutCost: s.productsWithoutCost, movesWithoutCost: s.movesWithoutCost };
  });
  return { from: isoDay(days.from), to: isoDay(days.to), stocks, totals: { ...present(total.figures), productsWithoutCost: total.productsWithoutCost, movesWithoutCost: total.movesWithoutCost } };
}

const present = (f: Record<Figure, Dec>) => Object.fromEntries(FIGURES.map((k) => [k, toJsonNumber(roundMoney(f[k]))])) as Record<Figure, number>;

export const stockValueRoutes = routes<{ ctx: EngineContext }>((route) => [
  route({
    method: 'get',
    path: '/api/stockvalue',
    operationId: 'stockvalue.get',
    tags: ['Stock'],
    summary: 'What each stock is worth now, and what moved through it at cost between two days',
    description:
      'Requires StockRead. `value` is Σ stockQuantity × costPrice of each stock’s StockItems now; a StockItem’s costPrice is the weighted ' +
      'average of the purchase prices its Income documents carried. Between `from` and `to` (local days in the shop’s time zone, both ' +
      'included): goods received, transferred in and out, the cost of goods sold (Sale and Invoice), written off (Outcome) and the stock ' +
      'takings’ corrections, each at the cost the documents recorded when they moved. Items that moved without a known cost are counted, ' +
      'not valued.',
    rights: ['StockRead'],
    authorize: (caller) => requireRight(caller, 'StockRead'),
    query: z
      .object({
        from: localDay().openapi({ param: { description: 'First day, `YYYY-MM-DD` (local).', example: '2026-11-01' } }),
        to: localDay().openapi({ param: { description: 'Last day, `YYYY-MM-DD` (local), included.', example: '2026-11-30' } }),
      })
      .superRefine(daySpan(Infinity)),
    responses: { 200: { description: 'Each stock’s value and movements, and their totals.', schema: named('StockValue', stockValueSchema) } },
    errors: [ERR.validation('A missing or malformed `from` or `to`, or `to` before `from`; `errors[0].memberName` names it.'), ERR.unauthenticated(), ERR.missingRight('Without StockRead.')],
    handler:
      ({ ctx }) =>
      ({ query }, _req, res) => {
        res.json(stockValue(ctx, query));
      },
  }),
]);
