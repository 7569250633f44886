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
import { defineResource } from '../../engine/define.js';
import { idKeyed } from '../../engine/keys.js';
import { dateTime, decimal, idKey, MAX_MAGNITUDE, nameKey, nullableText, text } from '../../engine/fields.js';
import { bool } from '../../engine/refs.js';
import { findPlu, stockQuantityOf } from '../stocktransfers/stock.js';
import { recordServerTransfer } from '../stocktransfers/resource.js';
import { userDisplayName } from '../stocktransfers/store.js';

const item = z.object({
  plu: z.object({ code: z.number().int().min(0), stockName: nameKey() }),
  actualQuantity: decimal().nullable().default(null),
});

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
    items: z.array(item.extend({ expectedQuantity: z.number().meta({ description: 'The stock quantity at the latest write (when closed: the quantity the Correction started from).' }) })),
  },
  readOnly: {
    createdAt: z.string(),
    createdBy: z.object({ userName: z.string(), name: z.string().optional().describe('The person’s name (stock takings started before issue 28: absent).') }),
    stockTransferId: z.string().nullable(),
  },
  columns: (d) => ({
    is_closed: bool(d.closedAt),
    created_at: Date.parse(d.createdAt),
    created_by_user_name: d.createdBy.userName,
    closed_at: d.closedAt ? Date.parse(d.closedAt) : null,
    closed_by_user_name: d.closedBy?.userName ?? null,
    currency_label: d.currencyLabel ?? null,
  }),
  children: [
    {
      table: 'stock_taking_items',
      fk: 'stock_taking_id',
      rows: (d) => d.items.map((i, line) => ({ line, plu_code: i.plu.code, plu_stock_name: i.plu.stockName })),
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
      const items = body.items.map((it, i) => {
        const key = `${it.plu.stockName}\u0000${it.plu.code}`;
        if (seen.has(key)) throw errors.member(`items[${i}].plu`, 'stocktaking.countedTwice', {}, 'Unique');
        seen.add(key);
        const plu = findPlu(ctx, it.plu);
        if (!plu) throw errors.member(`items[${i}].plu`, 'plu.notInStock', { code: it.plu.code, stock: it.plu.stockName });
        if (plu.type !== 'StockItem') throw errors.member(`items[${i}].plu`, 'stocktaking.notStockItem', { code: it.plu.code, type: plu.type });
        if (closing && it.actualQuantity === null) throw errors.member(`items[${i}].actualQuantity`, 'stocktaking.actualRequired', {}, 'Required');
        const expected = stockQuantityOf(ctx, it.plu);
        // The Correction's quantity is a quantity too (CONTRACT §12: within ±1,000,000,000), not only the count.
        if (closing && dec(it.actualQuantity ?? 0).minus(expected).abs().gt(MAX_MAGNITUDE)) {
          const params = { code: it.plu.code, stock: it.plu.stockName, expected: toJsonNumber(expected), max: MAX_MAGNITUDE.toLocaleString('en') };
          throw errors.member(`items[${i}].actualQuantity`, 'stocktaking.correctionOutOfRange', params, 'OutOfRange');
        }
        return { plu: it.plu, expectedQuantity: toJsonNumber(expected), actualQuantity: it.actualQuantity };
      });
      const id = body.id;
      let stockTransferId: string | null = null;
      if (closing) {
        requireRight(caller, 'StockTakingClose');
        // The correction brings each plu to the count as the stock stands at closing time.
        const correction = recordServerTransfer(ctx, {
          type: 'Correction',
          userName: caller.userName,
          stockTakingId: id,
          items: items.map(({ plu, expectedQuantity, actualQuantity }) => {
            // Every item has its count once closing (checked above).
            const actual = actualQuantity ?? expectedQuantity;
            return { plu, quantity: toJsonNumber(dec(actual).minus(dec(expectedQuantity))), expectedQuantity, actualQuantity: actual };
          }),
        });
        stockTransferId = correction.id;
      }
      const closedBy = body.closedBy;
      return {
        ...body,
        items,
        createdAt: existing?.createdAt ?? ctx.clock.now().toISOString(),
        createdBy: existing?.createdBy ?? { userName: caller.userName, name: caller.name },
        closedBy: closedBy ? { ...closedBy, name: userDisplayName(ctx.db, closedBy.userName) ?? closedBy.userName } : null,
        stockTransferId,
      };
    },
    beforeDelete({ existing }) {
      if (existing.closedAt) throw errors.forbidden('stocktaking.closedNoDelete', { id: String(existing.id) });
    },
  },
});
