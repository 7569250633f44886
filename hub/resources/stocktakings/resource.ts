/**
 * Stock takings (seed §3, CONTRACT §7): counted while open, closed by giving closedBy and
 * closedAt together; closing makes a numbered Correction transfer that brings every counted plu
 * to its actual quantity. A closed stock taking is read-only.
 */
import { ERR } from '../../http/api-docs.js';
import { z } from 'zod';
import { requireRight } from '../../http/caller.js';
import { errors } from '../../http/errors.js';
import { dec, toJsonNumber } from '../../core/money.js';
import { defineResource, type Doc } from '../../engine/define.js';
import { idKeyed } from '../../engine/keys.js';
import { dateTime, decimal, idKey, nameKey, nullableText, text } from '../../engine/fields.js';
import { bool } from '../../engine/refs.js';
import { findPlu, stockQuantityOf, type PluRef } from '../stocktransfers/stock.js';
import { recordServerTransfer } from '../stocktransfers/resource.js';
import { userDisplayName } from '../stocktransfers/store.js';

const item = z.object({
  plu: z.object({ code: z.number().int().min(0), stockName: nameKey() }),
  actualQuantity: decimal().nullable().default(null),
});

interface CountedItem {
  plu: PluRef;
  expectedQuantity: number;
  actualQuantity: number | null;
}

export const stockTakings = defineResource({
  name: 'stocktakings',
  title: 'StockTaking',
  example: { note: 'Inventúra baru', items: [{ plu: { code: 101, stockName: 'Bar' }, actualQuantity: 20 }] },
  table: 'stock_takings',
  key: idKeyed(),
  schema: z.object({
    id: idKey().optional(),
    closedAt: dateTime().nullable().default(null),
    closedBy: z
      .object({ userName: text().min(1) })
      .nullable()
      .default(null)
      .describe('Who closed it (with closedAt); the hub adds their `name`.'),
    currencyLabel: nullableText().default(null),
    note: nullableText().default(null),
    items: z.array(item).max(5000).default([]),
  }),
  answered: {
    closedBy: z.object({ userName: z.string(), name: z.string().optional().describe('Their name, as the hub completed it.') }).nullable(),
    items: z.array(item.extend({ expectedQuantity: z.number().meta({ description: 'The stock quantity when the item was first counted.' }) })),
  },
  readOnly: {
    createdAt: z.string(),
    createdBy: z.object({ userName: z.string(), name: z.string().optional().describe('The person’s name (stock takings started before issue 28: absent).') }),
    stockTransferId: z.string().nullable(),
  },
  columns: (d) => ({
    is_closed: bool(d.closedAt),
    created_at: Date.parse(d.createdAt as string),
    created_by_user_name: (d.createdBy as { userName: string }).userName,
    closed_at: d.closedAt ? Date.parse(d.closedAt as string) : null,
    closed_by_user_name: (d.closedBy as { userName: string } | null)?.userName ?? null,
    currency_label: (d.currencyLabel as string | null) ?? null,
  }),
  children: [
    {
      table: 'stock_taking_items',
      fk: 'stock_taking_id',
      rows: (d) => (d.items as CountedItem[]).map((i, line) => ({ line, plu_code: i.plu.code, plu_stock_name: i.plu.stockName })),
    },
  ],
  filters: {
    id: { type: 'string', column: 'id' },
    createdAt: { type: 'datetime', column: 'created_at' },
    createdByUserName: { type: 'string', column: 'created_by_user_name' },
    closedAt: { type: 'datetime', column: 'closed_at' },
    closedByUserName: { type: 'string', column: 'closed_by_user_name' },
    currencyLabel: { type: 'string', column: 'currency_label' },
    itemPluStockName: { type: 'string', child: { table: 'stock_taking_items', fk: 'stock_taking_id', column: 'plu_stock_name' } },
    itemPluCode: { type: 'int', child: { table: 'stock_taking_items', fk: 'stock_taking_id', column: 'plu_code' } },
    isClosed: { type: 'bool', column: 'is_closed' },
  },
  sorts: { createdAt: 'created_at', closedAt: 'closed_at' },
  read: { right: 'StockRead' },
  rights: { create: 'StockTakingCreate', update: 'StockTakingUpdate', delete: 'StockTakingDelete' },
  rules: {
    notes: {
      post: 'Giving closedBy and closedAt (both, or neither) closes it: that also needs StockTakingClose and an actualQuantity on every item.',
      put: 'Giving closedBy and closedAt (both, or neither) closes it: that also needs StockTakingClose and an actualQuantity on every item.',
    },
    errors: { put: [ERR.stateForbids('The stock taking is closed and read-only.')] },
  },
  hooks: {
    prepare({ caller, body, existing, ctx }) {
      if (existing?.closedAt) throw errors.forbidden('stocktaking.closed', { id: String(existing.id) });
      const closing = body.closedAt !== null || body.closedBy !== null;
      if (closing && (body.closedAt === null || body.closedBy === null)) {
        const missing = body.closedAt === null ? 'closedAt' : 'closedBy';
        throw errors.member(missing, 'stocktaking.closeTogether', {}, 'Required');
      }
      const seen = new Set<string>();
      const items: CountedItem[] = (body.items as Array<{ plu: PluRef; actualQuantity: number | null }>).map((it, i) => {
        const key = `${it.plu.stockName}\u0000${it.plu.code}`;
        if (seen.has(key)) throw errors.member(`items[${i}].plu`, 'stocktaking.countedTwice', {}, 'Unique');
        seen.add(key);
        const plu = findPlu(ctx, it.plu);
        if (!plu) throw errors.member(`items[${i}].plu`, 'plu.notInStock', { code: it.plu.code, stock: it.plu.stockName });
        if (plu.type !== 'StockItem') throw errors.member(`items[${i}].plu`, 'stocktaking.notStockItem', { code: it.plu.code, type: plu.type });
        if (closing && it.actualQuantity === null) throw errors.member(`items[${i}].actualQuantity`, 'stocktaking.actualRequired', {}, 'Required');
        return { plu: it.plu, expectedQuantity: toJsonNumber(stockQuantityOf(ctx, it.plu)), actualQuantity: it.actualQuantity };
      });
      const id = String(body.id);
      let stockTransferId: string | null = null;
      if (closing) {
        requireRight(caller, 'StockTakingClose');
        // The correction brings each plu to the count as the stock stands at closing time.
        const correction = recordServerTransfer(ctx, {
          type: 'Correction',
          userName: caller.userName,
          stockTakingId: id,
          items: items.map((i) => ({
            plu: i.plu,
            quantity: toJsonNumber(dec(i.actualQuantity!).minus(dec(i.expectedQuantity))),
            expectedQuantity: i.expectedQuantity,
            actualQuantity: i.actualQuantity,
          })),
        });
        stockTransferId = String(correction.id);
      }
      const doc: Doc = {
        ...body,
        items,
        createdAt: existing?.createdAt ?? ctx.clock.now().toISOString(),
        createdBy: existing?.createdBy ?? { userName: caller.userName, name: caller.name },
        closedBy: body.closedBy ? { ...(body.closedBy as { userName: string }), name: userDisplayName(ctx.db, (body.closedBy as { userName: string }).userName) ?? (body.closedBy as { userName: string }).userName } : null,
        stockTransferId,
      };
      return doc;
    },
    beforeDelete({ existing }) {
      if (existing.closedAt) throw errors.forbidden('stocktaking.closedNoDelete', { id: String(existing.id) });
    },
  },
});
