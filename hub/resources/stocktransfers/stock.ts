/**
 * Moving stock: every transfer changes plus' stockQuantity in its own transaction (CONTRACT §7).
 * Server-made documents (Sale per closed ticket, Correction per closed stock taking) come through
 * here too, numbered like any other.
 *
 * Stock value (issue 28): a StockItem's `costPrice` is the weighted average of what its units cost.
 * An Income item with a purchase price (`costPrice`, per unit without VAT) averages it in:
 * (q₀·c₀ + q·p) / (q₀ + q); a Transfer brings the source's cost into the target the same way. When
 * nothing was in stock (q₀ ≤ 0) or no cost was known, the new price is the cost. Every document
 * records on each item the cost it moved at (the average before it moved), so a Sale holds the cost
 * of the goods it sold and stock value over time adds up from the documents.
 */
import { errors } from '../../http/errors.js';
import { D, dec, roundMoney, toJsonNumber, type Dec } from '../../core/money.js';
import type { EngineContext } from '../../engine/define.js';
import { putStored, readDoc, storedRow } from '../../engine/repo.js';
import { MAX_MAGNITUDE } from '../../engine/fields.js';
import { marginOf, plus } from '../plus/resource.js';
import { pluRow, pluRowWithColumns, type PluRow } from './store.js';
import { catalogOf } from '../catalog/catalog.js';

export interface PluRef {
  code: number;
  stockName: string;
}
/** An item of a transfer: the plu it moves (in the document's stock, or its own), how many, at what cost. */
export interface TransferItem {
  plu: { code: number; stockName?: string };
  quantity: number;
  /** What one unit moved at, without VAT: an Income's purchase price, else the plu's cost then; null when unknown. */
  costPrice?: { amount: number } | null;
  /** A stock taking's Correction: what was expected and what was counted. */
  expectedQuantity?: number;
  actualQuantity?: number;
}

/** What moving stock reads of a transfer (a stock transfer's document). */
export interface MovingTransfer {
  type: string;
  sourceStockName: string | null;
  targetStockName: string | null;
  items: TransferItem[];
}

/** The plu an item of a Sale or a Correction names itself (the hub always names its stock there). */
function ownPlu(item: TransferItem): PluRef {
  if (item.plu.stockName === undefined) throw new Error(`a server-made transfer's item names plu ${item.plu.code} without its stock`);
  return { code: item.plu.code, stockName: item.plu.stockName };
}

export function findPlu(ctx: EngineContext, ref: PluRef): PluRow | undefined {
  return pluRow(ctx.db, ref);
}

export function stockQuantityOf(ctx: EngineContext, ref: PluRef): Dec {
  const row = findPlu(ctx, ref);
  return row ? dec(readDoc(plus, row.doc).stockQuantity ?? 0) : new D(0);
}

/** A plu's cost of one unit (its costPrice), or null. */
export function costOf(row: PluRow | undefined): Dec | null {
  if (!row) return null;
  const amount = readDoc(plus, row.doc).costPrice?.amount;
  return typeof amount === 'number' ? dec(amount) : null;
}

/** The weighted average cost after `q` units costing `p` each join `q0` units costing `c0` each. */
export function averageCost(q0: Dec, c0: Dec | null, q: Dec, p: Dec): Dec {
  if (q0.lte(0) || c0 === null) return p;
  return q0.times(c0).plus(q.times(p)).div(q0.plus(q));
}

/** A stock quantity past ±1,000,000,000 (CONTRACT §12: every quantity stays within it). */
const outOfRange = (quantity: Dec) => quantity.abs().gt(MAX_MAGNITUDE);

function stockOutOfRange(member: string, ref: PluRef): never {
  throw errors.member(member, 'stock.outOfRange', { code: ref.code, stock: ref.stockName, max: MAX_MAGNITUDE.toLocaleString('en') }, 'OutOfRange');
}

/**
 * Changes a plu's stock quantity by `delta`; units coming in at `incomingCost` average into its
 * costPrice (and so its margin). `member`: the item a change past ±1,000,000,000 is refused for
 * (400); none for the server's own documents, which are never refused here (a sale is on paper already).
 */
function adjust(ctx: EngineContext, ref: PluRef, delta: Dec, at: number, incomingCost: Dec | null = null, member?: string): void {
  if (delta.isZero()) return;
  const row = pluRowWithColumns(ctx.db, ref);
  if (!row) throw errors.member('items', 'plu.notInStock', { code: ref.code, stock: ref.stockName });
  const stored = storedRow(plus, row);
  const before = dec(stored.doc.stockQuantity ?? 0);
  const after = before.plus(delta);
  if (member !== undefined && outOfRange(after)) stockOutOfRange(member, ref);
  const next = { ...stored.doc, stockQuantity: toJsonNumber(after) };
  if (incomingCost !== null && delta.gt(0)) {
    next.costPrice = { amount: toJsonNumber(averageCost(before, costOf(row), delta, incomingCost)) };
    next.margin = marginOf(next);
  }
  // With the row's columns: only what changed (the stock quantity's column, and the document) is written, none of the plu's indexes.
  putStored(ctx.db, plus, row.id, next, stored.v + 1, at, stored);
}

/**
 * The items as a document records them, each with the cost it moves at: an Income's purchase price
 * where given, else the cost of the plu it takes from or adds to (a Transfer: the source's), before
 * the move. `stock`: the stock the items' plus are in (the source, or an Income's target).
 */
export function withCosts<T extends TransferItem>(ctx: EngineContext, type: string, stock: string | null, items: T[]): Array<T & { costPrice: { amount: number } | null }> {
  return items.map((item) => {
    const given = type === 'Income' ? item.costPrice : undefined;
    if (given !== undefined && given !== null) return { ...item, costPrice: { amount: given.amount } };
    const cost = costOf(findPlu(ctx, stock === null ? ownPlu(item) : { code: item.plu.code, stockName: stock }));
    return { ...item, costPrice: cost === null ? null : { amount: toJsonNumber(cost) } };
  });
}

/** Σ quantity × cost of the items that have a cost, to the cent; null when none has one. */
export function totalCost(items: TransferItem[]): { amount: number } | null {
  const costed = items.filter((i) => i.costPrice);
  if (!costed.length) return null;
  return { amount: toJsonNumber(roundMoney(costed.reduce((sum, i) => sum.plus(dec(i.quantity).times(dec(i.costPrice!.amount))), new D(0)))) };
}

/** The signed stock movements a transfer makes, per plu and item (`index`); units coming in carry the cost they come at. */
export function movements(doc: MovingTransfer): Array<{ plu: PluRef; delta: Dec; cost?: Dec | null; index: number }> {
  const items = doc.items;
  const out: Array<{ plu: PluRef; delta: Dec; cost?: Dec | null; index: number }> = [];
  for (const [index, item] of items.entries()) {
    const q = dec(item.quantity);
    const cost = item.costPrice ? dec(item.costPrice.amount) : null;
    switch (doc.type) {
      case 'Income':
        out.push({ plu: { code: item.plu.code, stockName: String(doc.targetStockName) }, delta: q, cost, index });
        break;
      case 'Outcome':
      case 'Invoice':
        out.push({ plu: { code: item.plu.code, stockName: String(doc.sourceStockName) }, delta: q.negated(), index });
        break;
      case 'Transfer':
        out.push({ plu: { code: item.plu.code, stockName: String(doc.sourceStockName) }, delta: q.negated(), index });
        out.push({ plu: { code: item.plu.code, stockName: String(doc.targetStockName) }, delta: q, cost, index });
        break;
      case 'Sale':
        out.push({ plu: ownPlu(item), delta: q.negated(), index });
        break;
      case 'Correction':
        out.push({ plu: ownPlu(item), delta: q, index });
        break;
    }
  }
  return out;
}

/**
 * Moves the stock a transfer moves. `refuse`: a movement that would take a stock quantity past
 * ±1,000,000,000 is a 400 naming the item's quantity (a document someone wrote); the server's own
 * (a sale, a stock taking's correction) pass refuse = false, checked before anything irreversible.
 */
export function applyStock(ctx: EngineContext, doc: MovingTransfer, refuse = true): void {
  const at = ctx.clock.now().getTime();
  for (const m of movements(doc)) adjust(ctx, m.plu, m.delta, at, m.cost ?? null, refuse ? `items[${m.index}].quantity` : undefined);
}

/**
 * Whether selling `ticketItems` would take a stock quantity, or the Sale's quantity of a plu, past ±1,000,000,000: a 400 naming `items`,
 * asked before the fiscal device is, since the close's stock move may not be refused once the receipt is out.
 */
export function checkSaleStock(ctx: EngineContext, ticketItems: Array<{ plu: PluRef; type: string; quantity: number }>): void {
  for (const sold of saleItems(ctx, ticketItems)) {
    const ref = ownPlu(sold);
    // The Sale's own quantity too: a recipe's parts multiply, so it can pass the limit while the stock stays within it.
    if (outOfRange(dec(sold.quantity))) {
      throw errors.member('items', 'stock.saleOutOfRange', { code: ref.code, stock: ref.stockName, max: MAX_MAGNITUDE.toLocaleString('en') }, 'OutOfRange');
    }
    if (outOfRange(stockQuantityOf(ctx, ref).minus(dec(sold.quantity)))) stockOutOfRange('items', ref);
  }
}

/**
 * What a sold ticket takes out of stock: StockItem plus as sold, Recipe plus as their StockItem
 * parts (quantity × part quantity, nested recipes followed to any depth); returned items bring stock back.
 */
export function saleItems(ctx: EngineContext, ticketItems: Array<{ plu: PluRef; type: string; quantity: number }>): TransferItem[] {
  const totals = new Map<string, { plu: PluRef; quantity: Dec }>();
  const catalog = catalogOf(ctx.db);
  const keyOf = (ref: PluRef) => `${ref.stockName}\u0000${ref.code}`;
  // What one unit of a recipe takes, per StockItem: worked out once per recipe, so a recipe that
  // many others share costs its parts once, however deep and wide the nesting.
  const perUnit = new Map<string, Map<string, { plu: PluRef; quantity: Dec }>>();
  const opened = new Set<string>();
  const composition = (ref: PluRef): Map<string, { plu: PluRef; quantity: Dec }> => {
    const key = keyOf(ref);
    const known = perUnit.get(key);
    if (known) return known;
    const out = new Map<string, { plu: PluRef; quantity: Dec }>();
    // A recipe met again inside itself (a loop a database from before loops were refused may hold) adds nothing more.
    if (opened.has(key)) return out;
    opened.add(key);
    const row = findPlu(ctx, ref);
    for (const part of row ? (readDoc(plus, row.doc).receipt ?? []) : []) {
      const q = dec(part.quantity);
      const type = catalog.plu(part.pluId.code, part.pluId.stockName)?.type;
      const moves = type === 'StockItem' ? [{ plu: { code: part.pluId.code, stockName: part.pluId.stockName }, quantity: new D(1) }] : type === 'Recipe' ? [...composition(part.pluId).values()] : [];
      for (const m of moves) {
        const k = keyOf(m.plu);
        out.set(k, { plu: m.plu, quantity: (out.get(k)?.quantity ?? new D(0)).plus(q.times(m.quantity)) });
      }
    }
    opened.delete(key);
    perUnit.set(key, out);
    return out;
  };
  const take = (ref: PluRef, quantity: Dec) => {
    const key = keyOf(ref);
    totals.set(key, { plu: { code: ref.code, stockName: ref.stockName }, quantity: (totals.get(key)?.quantity ?? new D(0)).plus(quantity) });
  };
  const add = (ref: PluRef, quantity: Dec) => {
    // The plu's type from the catalog (kept until it changes); only a recipe's own parts are read.
    const type = catalog.plu(ref.code, ref.stockName)?.type;
    if (type === 'StockItem') take(ref, quantity);
    else if (type === 'Recipe') for (const m of composition(ref).values()) take(m.plu, quantity.times(m.quantity));
  };
  for (const item of ticketItems) {
    const q = dec(item.quantity);
    add(item.plu, item.type === 'Negative' ? q.negated() : q);
  }
  return [...totals.values()].filter((t) => !t.quantity.isZero()).map((t) => ({ plu: t.plu, quantity: toJsonNumber(t.quantity) }));
}
