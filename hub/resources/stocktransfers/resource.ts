import { z } from 'zod';
import { errors } from '../../http/errors.js';
import { defineResource, type DocOf, type EngineContext } from '../../engine/define.js';
import { idKeyed } from '../../engine/keys.js';
import { decimal, enumOf, idKey, MAX_MAGNITUDE, nameKey, nullableText, text } from '../../engine/fields.js';
import { putStored } from '../../engine/repo.js';
import { newId } from '../../core/ids.js';
import { transferSql, userDisplayName } from './store.js';
import { requireExisting } from '../../engine/refs.js';
import { STOCK_TRANSFER_TYPES } from '../numberings/resource.js';
import { stocks } from '../stocks/resource.js';
import { issueDocumentNumber } from './numbering.js';
import { applyStock, findPlu, totalCost, withCosts, type MovingTransfer, type TransferItem } from './stock.js';
import { fieldMessage } from '../../i18n/say.js';
import { dec } from '../../core/money.js';

/** What a client may POST; Sale and Correction are the server's own (CONTRACT §7). */
export const POSTABLE_TYPES = ['Income', 'Outcome', 'Transfer', 'Invoice'] as const;

const item = z.object({
  plu: z.object({ code: z.number().int().min(0), stockName: nameKey().optional() }),
  quantity: decimal().refine((n) => n > 0, fieldMessage('field.positive')),
  costPrice: z
    .object({ amount: decimal().min(0, fieldMessage('field.zeroOrMore')) })
    .nullable()
    .optional()
    .describe(
      'What one unit cost, without VAT. On an Income, the purchase price: it averages into the plu’s costPrice (weighted by quantity). ' +
        'On every other document the hub writes it: the plu’s costPrice when it moved (a Transfer: the source’s), null when it had none.',
    ),
});

/** Who delivered an Income, as on their delivery note or invoice. */
const supplier = z.object({
  name: text().min(1).max(200),
  companyId: nullableText().default(null).describe('The supplier’s company number (IČO).'),
  vatId: nullableText().default(null).describe('The supplier’s VAT number (IČ DPH / DIČ).'),
  documentNumber: nullableText().default(null).describe('The number of the supplier’s delivery note or invoice.'),
});

/** The stock each item's plu must be in, by type. */
function itemStock(doc: Omit<MovingTransfer, 'items'>): string {
  return String(doc.type === 'Income' ? doc.targetStockName : doc.sourceStockName);
}

export const stockTransfers = defineResource({
  name: 'stocktransfers',
  title: 'StockTransfer',
  example: { type: 'Income', targetStockName: 'Bar', items: [{ plu: { code: 101, stockName: 'Bar' }, quantity: 24 }], note: 'Dodávka Kofola' },
  table: 'stock_transfers',
  key: idKeyed(),
  schema: z.object({
    id: idKey().optional(),
    type: enumOf(STOCK_TRANSFER_TYPES),
    sourceStockName: nameKey().nullable().default(null),
    targetStockName: nameKey().nullable().default(null),
    items: z.array(item).min(1).max(1000),
    note: nullableText().default(null),
    supplier: supplier.nullable().default(null).describe('Who delivered the goods: Income only (another type with a supplier: 400).'),
  }),
  // A Correction a stock taking made says, per item, what was expected and what was counted.
  answered: { items: z.array(item.extend({ expectedQuantity: z.number().optional(), actualQuantity: z.number().optional() })) },
  readOnly: {
    documentNumber: z.string(),
    createdAt: z.string(),
    createdBy: z.object({ userName: z.string(), name: z.string().optional().describe('The person’s name when the document was made (documents made before issue 28: absent).') }),
    ticketId: z.string().nullable(),
    stockTakingId: z.string().nullable(),
    totalCost: z
      .object({ amount: z.number() })
      .nullable()
      .describe('Σ quantity × costPrice of the items with a cost, to the cent (a Sale: the cost of the goods sold); null when none has one.'),
  },
  columns: (d) => ({
    document_number: d.documentNumber,
    type: d.type,
    created_at: Date.parse(d.createdAt),
    source_stock_name: d.sourceStockName ?? null,
    target_stock_name: d.targetStockName ?? null,
    ticket_id: d.ticketId ?? null,
    stock_taking_id: d.stockTakingId ?? null,
    supplier_name: d.supplier?.name ?? null,
  }),
  children: [
    {
      table: 'stock_transfer_items',
      fk: 'transfer_id',
      rows: (d) => d.items.map((i, line) => ({ line, plu_code: i.plu.code, plu_stock_name: i.plu.stockName ?? null })),
    },
  ],
  filters: {
    id: { type: 'string', column: 'id' },
    documentNumber: { type: 'string', column: 'document_number' },
    type: { type: 'enum', column: 'type', enumValues: STOCK_TRANSFER_TYPES },
    createdAt: { type: 'datetime', column: 'created_at' },
    stockName: {
      type: 'string',
      // A transfer concerns a stock when it leaves it, enters it, or moves one of its plus.
      build: (c) => transferSql.stockName(c),
    },
    ticketId: { type: 'string', column: 'ticket_id' },
    stockTakingId: { type: 'string', column: 'stock_taking_id' },
    supplierName: { type: 'string', column: 'supplier_name' },
    itemPluCode: { type: 'int', child: { table: 'stock_transfer_items', fk: 'transfer_id', column: 'plu_code' } },
    itemPluStockName: { type: 'string', child: { table: 'stock_transfer_items', fk: 'transfer_id', column: 'plu_stock_name' } },
  },
  sorts: {
    documentNumber: 'document_number',
    createdAt: 'created_at',
    // Every filter member sorts (CONTRACT §11): by the stock left, else the one entered, else the lowest item stock.
    stockName: transferSql.stockNameSort,
  },
  read: { right: 'StockRead' },
  rights: { create: 'StockTransferCreate', update: null, delete: null },
  without: ['put', 'delete'],
  hooks: {
    prepare({ caller, body, ctx }) {
      const type = body.type;
      if (!isPostable(type)) throw errors.member('type', 'transfer.hubOnly', { type });
      const needsSource = type !== 'Income';
      const needsTarget = type === 'Income' || type === 'Transfer';
      if (needsSource && !body.sourceStockName) throw errors.member('sourceStockName', 'transfer.requiredFor', { type }, 'Required');
      if (needsTarget && !body.targetStockName) throw errors.member('targetStockName', 'transfer.requiredFor', { type }, 'Required');
      const doc = { ...body, sourceStockName: needsSource ? body.sourceStockName : null, targetStockName: needsTarget ? body.targetStockName : null };
      if (type === 'Transfer' && doc.sourceStockName === doc.targetStockName) throw errors.member('targetStockName', 'transfer.sameStock');
      if (type !== 'Income' && body.supplier !== null) throw errors.member('supplier', 'transfer.supplierOnlyIncome', { type });
      if (doc.sourceStockName) requireExisting(ctx, stocks, doc.sourceStockName, 'sourceStockName');
      if (doc.targetStockName) requireExisting(ctx, stocks, doc.targetStockName, 'targetStockName');
      const stock = itemStock(doc);
      const items = body.items.map((it, i) => {
        if (it.plu.stockName && it.plu.stockName !== stock) throw errors.member(`items[${i}].plu.stockName`, type === 'Income' ? 'transfer.wrongStockEnters' : 'transfer.wrongStockLeaves', { stock, type });
        const ref = { code: it.plu.code, stockName: stock };
        const plu = findPlu(ctx, ref);
        if (!plu) throw errors.member(`items[${i}].plu`, 'plu.notInStock', { code: ref.code, stock });
        if (plu.type !== 'StockItem') throw errors.member(`items[${i}].plu`, 'transfer.notStockItem', { code: ref.code, type: plu.type });
        if (type === 'Transfer') {
          const target = findPlu(ctx, { code: ref.code, stockName: String(doc.targetStockName) });
          if (!target) throw errors.member(`items[${i}].plu`, 'transfer.notInTarget', { code: ref.code, stock: String(doc.targetStockName) });
          if (target.type !== 'StockItem') {
            throw errors.member(`items[${i}].plu`, 'transfer.targetNotStockItem', { code: ref.code, stock: String(doc.targetStockName), type: target.type });
          }
        }
        return { plu: ref, quantity: it.quantity, costPrice: it.costPrice ?? null };
      });
      const costed = withCosts(ctx, type, stock, items);
      // Quantities and cost prices each stay within ±1e9, their sum may not (CONTRACT §12: totals too).
      const total = totalCost(costed);
      if (total && dec(total.amount).abs().gt(MAX_MAGNITUDE)) {
        throw errors.member('totalCost', 'tickets.totalOutOfRange', { total: dec(total.amount).toFixed(2) }, 'OutOfRange');
      }
      const now = ctx.clock.now();
      return {
        ...doc,
        items: costed,
        totalCost: total,
        documentNumber: issueDocumentNumber(ctx, type, now, { fallback: false }),
        createdAt: now.toISOString(),
        createdBy: { userName: caller.userName, name: caller.name },
        ticketId: null,
        stockTakingId: null,
      };
    },
    afterWrite: ({ after, ctx }) => applyStock(ctx, after),
  },
});

/** A stock transfer as stored. */
export type StockTransfer = DocOf<typeof stockTransfers>;

const isPostable = (type: string): type is (typeof POSTABLE_TYPES)[number] => POSTABLE_TYPES.some((t) => t === type);

/** Numbers, stores and applies a server-made transfer inside the caller's transaction. */
export function recordServerTransfer(
  ctx: EngineContext,
  draft: { type: 'Sale' | 'Correction'; userName: string; items: TransferItem[]; ticketId?: string; stockTakingId?: string; note?: string },
): StockTransfer {
  const now = ctx.clock.now();
  const id = newId();
  // A Sale's and a Correction's items name their own plus (stock included): each costs what its plu does now.
  const items = withCosts(ctx, draft.type, null, draft.items);
  const doc: StockTransfer = {
    id,
    documentNumber: issueDocumentNumber(ctx, draft.type, now, { fallback: true }),
    type: draft.type,
    createdAt: now.toISOString(),
    createdBy: { userName: draft.userName, name: userDisplayName(ctx.db, draft.userName) ?? draft.userName },
    sourceStockName: null,
    targetStockName: null,
    items,
    ticketId: draft.ticketId ?? null,
    stockTakingId: draft.stockTakingId ?? null,
    note: draft.note ?? null,
    supplier: null,
    totalCost: totalCost(items),
  };
  // A new id: a plain INSERT, its items without a DELETE first.
  putStored(ctx.db, stockTransfers, id, doc, 1, now.getTime(), null);
  applyStock(ctx, doc, false);
  return doc;
}
