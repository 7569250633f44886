/**
 * Moving stock: every transfer changes plus' stockQuantity in its own transaction (CONTRACT §7).
 * Server-made documents (Sale per closed ticket, Correction per closed stock taking) come through
 * here too, numbered like any other.
 */
import { errors } from '../../http/errors.js';
import { D, dec, toJsonNumber, type Dec } from '../../core/money.js';
import type { Doc, EngineContext } from '../engine/define.js';
import { putStored } from '../engine/repo.js';
import { plus } from '../plus/resource.js';
import { pluRow, pluRowWithColumns, type PluRow } from './store.js';
import { catalogOf } from '../catalog/catalog.js';

export interface PluRef {
  code: number;
  stockName: string;
}
export interface TransferItem {
  plu: PluRef;
  quantity: number;
  [extra: string]: unknown;
}

export function findPlu(ctx: EngineContext, ref: PluRef): PluRow | undefined {
  return pluRow(ctx.db, ref);
}

export function stockQuantityOf(ctx: EngineContext, ref: PluRef): Dec {
  const row = findPlu(ctx, ref);
  return row ? dec((JSON.parse(row.doc) as { stockQuantity?: number }).stockQuantity ?? 0) : new D(0);
}

function adjust(ctx: EngineContext, ref: PluRef, delta: Dec, at: number): void {
  if (delta.isZero()) return;
  const row = pluRowWithColumns(ctx.db, ref);
  if (!row) throw errors.member('items', 'plu.notInStock', { code: ref.code, stock: ref.stockName });
  const { v, doc: json, ...columns } = row;
  const doc = JSON.parse(json) as Doc;
  const next = toJsonNumber(dec((doc.stockQuantity as number) ?? 0).plus(delta));
  // With the row's columns: only the stock quantity's column (and the document) is written, none of the plu's indexes.
  putStored(ctx.db, plus, row.id, { ...doc, stockQuantity: next }, v + 1, at, { doc, v, columns });
}

/** The signed stock movements a transfer makes, per plu. */
export function movements(doc: Doc): Array<{ plu: PluRef; delta: Dec }> {
  const items = doc.items as TransferItem[];
  const out: Array<{ plu: PluRef; delta: Dec }> = [];
  for (const item of items) {
    const q = dec(item.quantity);
    switch (doc.type) {
      case 'Income':
        out.push({ plu: { code: item.plu.code, stockName: String(doc.targetStockName) }, delta: q });
        break;
      case 'Outcome':
      case 'Invoice':
        out.push({ plu: { code: item.plu.code, stockName: String(doc.sourceStockName) }, delta: q.negated() });
        break;
      case 'Transfer':
        out.push({ plu: { code: item.plu.code, stockName: String(doc.sourceStockName) }, delta: q.negated() });
        out.push({ plu: { code: item.plu.code, stockName: String(doc.targetStockName) }, delta: q });
        break;
      case 'Sale':
        out.push({ plu: item.plu, delta: q.negated() });
        break;
      case 'Correction':
        out.push({ plu: item.plu, delta: q });
        break;
    }
  }
  return out;
}

export function applyStock(ctx: EngineContext, doc: Doc): void {
  const at = ctx.clock.now().getTime();
  for (const m of movements(doc)) adjust(ctx, m.plu, m.delta, at);
}

const MAX_RECIPE_DEPTH = 5;

/**
 * What a sold ticket takes out of stock: StockItem plus as sold, Recipe plus as their StockItem
 * parts (quantity × part quantity, nested recipes followed); returned items bring stock back.
 */
export function saleItems(ctx: EngineContext, ticketItems: Array<{ plu: PluRef; type: string; quantity: number }>): TransferItem[] {
  const totals = new Map<string, { plu: PluRef; quantity: Dec }>();
  const catalog = catalogOf(ctx.db);
  const add = (ref: PluRef, quantity: Dec, depth: number) => {
    // The plu's type from the catalog (kept until it changes); only a recipe's own parts are read.
    const type = catalog.plu(ref.code, ref.stockName)?.type;
    if (type === 'StockItem') {
      const key = `${ref.stockName}\u0000${ref.code}`;
      const prev = totals.get(key);
      totals.set(key, { plu: { code: ref.code, stockName: ref.stockName }, quantity: (prev?.quantity ?? new D(0)).plus(quantity) });
    } else if (type === 'Recipe' && depth < MAX_RECIPE_DEPTH) {
      const row = findPlu(ctx, ref);
      if (!row) return;
      const parts = (JSON.parse(row.doc) as { receipt?: Array<{ pluId: PluRef; quantity: number }> }).receipt ?? [];
      for (const part of parts) add(part.pluId, quantity.times(dec(part.quantity)), depth + 1);
    }
  };
  for (const item of ticketItems) {
    const q = dec(item.quantity);
    add(item.plu, item.type === 'Negative' ? q.negated() : q, 0);
  }
  return [...totals.values()].filter((t) => !t.quantity.isZero()).map((t) => ({ plu: t.plu, quantity: toJsonNumber(t.quantity) }));
}
