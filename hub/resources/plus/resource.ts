import { belowMinimum, modifierExists, pluExists, pluName, recipePartsOf } from './store.js';
import { z } from 'zod';
import { errors } from '../../http/errors.js';
import { toScaled } from '../../core/money.js';
import { defineResource, type EngineContext } from '../../engine/define.js';
import { idKeyed } from '../../engine/keys.js';
import { decimal, ean, enumOf, idKey, money, nameKey, presentMoney, rate, text, MAX_INT32 } from '../../engine/fields.js';
import { bool, requireExisting } from '../../engine/refs.js';
import { orderEndpoints } from '../orderendpoints/resource.js';
import { stocks } from '../stocks/resource.js';
import { categories } from '../categories/resource.js';
import { D, dec, roundMoney, toJsonNumber } from '../../core/money.js';
import { fieldMessage } from '../../i18n/say.js';

export const PLU_TYPES = ['StockItem', 'Recipe', 'Service', 'Container'] as const;

/** A short unit name: no spaces at either end, no control characters. */
const unitText = () =>
  z
    .string()
    .min(1)
    .max(16)
    .refine((s) => s.trim() === s, fieldMessage('field.noOuterSpaces'))
    .refine((s) => !/[\u0000-\u001f]/.test(s), fieldMessage('field.noControl'));

export const pluRef = () => z.object({ code: z.number().int().min(0).max(MAX_INT32), stockName: nameKey() });

type PluKey = { code: number; stockName: string };
const keyOf = (ref: PluKey) => `${ref.stockName}\u0000${ref.code}`;

/**
 * Whether the recipe `self` would contain itself through `part` (a part that is, or holds, a recipe
 * holding `self`, at any depth): selling it could then never end. `formerSelf`: the key the plu had
 * before this write, whose stored parts are being replaced (a PUT that moves its code or stock).
 */
function partHolds(ctx: EngineContext, part: PluKey, self: PluKey, formerSelf: PluKey | null): boolean {
  const seen = new Set<string>();
  const stack = [part];
  while (stack.length) {
    const ref = stack.pop()!;
    if (keyOf(ref) === keyOf(self)) return true;
    if (seen.has(keyOf(ref)) || (formerSelf && keyOf(ref) === keyOf(formerSelf))) continue;
    seen.add(keyOf(ref));
    stack.push(...(recipePartsOf(ctx.db, ref)?.parts ?? []));
  }
  return false;
}

export function requirePlu(ctx: EngineContext, ref: { code: number; stockName: string }, member: string): void {
  if (!pluExists(ctx.db, ref)) throw errors.member(member, 'plu.notInStock', { code: ref.code, stock: ref.stockName });
}

const HUNDRED = new D(100);

/** unitPrice without VAT minus costPrice, and that as a percentage of the price without VAT. */
export function marginOf(plu: { unitPrice?: { amount: number }; vatInfo?: { rate: number } | null; costPrice?: { amount: number } | null }): { amount: number; rate: number | null } | null {
  const cost = plu.costPrice?.amount;
  if (cost === undefined || cost === null) return null;
  const price = dec(plu.unitPrice?.amount ?? 0);
  const vat = dec(plu.vatInfo?.rate ?? 0);
  const net = price.times(HUNDRED).div(HUNDRED.plus(vat));
  const amount = roundMoney(net.minus(dec(cost)));
  return { amount: toJsonNumber(amount), rate: net.isZero() ? null : toJsonNumber(roundMoney(net.minus(dec(cost)).div(net).times(HUNDRED))) };
}

export const plus = defineResource({
  name: 'plus',
  title: 'Plu',
  example: { code: 101, stockName: 'Bar', name: 'Kofola 0,5 l', type: 'StockItem', unitPrice: { amount: 2.2 }, vatInfo: { category: 1, rate: 0.23 }, orderEndpointNames: [] },
  table: 'plus',
  key: idKeyed(),
  schema: z.object({
    id: idKey().optional(),
    code: z.number().int().min(0).max(MAX_INT32),
    stockName: nameKey(),
    name: text().min(1),
    type: enumOf(PLU_TYPES),
    unitPrice: money().default({ amount: 0, currencyLabel: null }),
    vatInfo: z.object({ category: z.number().int().min(0).max(MAX_INT32), rate: rate() }).nullable().default(null),
    orderEndpointNames: z.array(nameKey()).max(50).default([]),
    // A part of 0 or less would make selling the recipe take nothing, or put stock back.
    receipt: z.array(z.object({ pluId: pluRef(), quantity: decimal().refine((n) => n > 0, fieldMessage('field.positive')) })).max(200).default([]),
    isActive: z.boolean().default(true),
    /** A name of /api/categories, or null. */
    category: nameKey().nullable().default(null),
    /**
     * What one unit costs the shop, without VAT: set by hand, and for a StockItem averaged with each
     * Income's purchase price (weighted by quantity), so stock value and the cost of goods sold follow.
     */
    costPrice: z.object({ amount: decimal().min(0, fieldMessage('field.zeroOrMore')) }).nullable().default(null),
    /** EAN-8 or EAN-13, check digit verified; unique within the stock. */
    barcode: ean().nullable().default(null),
    /** A StockItem below this stockQuantity is low on stock (filter IsBelowMinimum=true). */
    minimumQuantity: decimal().min(0, fieldMessage('field.zeroOrMore')).nullable().default(null),
    /** Issue 28: every stock figure of the plu is in this unit. */
    unit: unitText()
      .nullable()
      .default(null)
      .describe('The unit its stock is counted in (`ks`, `kg`, `l`, `fľ.`…; at most 16 characters): every stock figure of it is in this unit. Null: pieces.'),
    modifierIds: z
      .array(idKey())
      .max(50)
      .default([])
      .describe(
        'The modifiers (ids of /api/modifiers) a register offers when this plu is sold, in the order it shows them, each with its ' +
          'min/max rules (issue 29: without it a register cannot tell which options go with which product).',
      ),
  }),
  // A recipe's parts answer with their plu's name.
  answered: { receipt: z.array(z.object({ pluId: pluRef().extend({ name: z.string() }), quantity: z.number() })) },
  readOnly: {
    stockQuantity: decimal(),
    margin: z
      .object({
        amount: z.number().describe('unitPrice without VAT (vatInfo.rate) minus costPrice, to the cent.'),
        rate: z.number().nullable().describe('amount as a percentage of the price without VAT (2 places); null when that price is 0.'),
      })
      .nullable()
      .describe('Computed from unitPrice, vatInfo and costPrice at each write; null without a costPrice.'),
  },
  columns: (d) => ({
    code: d.code,
    stock_name: d.stockName,
    name: d.name,
    type: d.type,
    is_active: bool(d.isActive),
    stock_quantity: toScaled(d.stockQuantity ?? 0),
    category: d.category ?? null,
    barcode: d.barcode ?? null,
    minimum_quantity: d.minimumQuantity === null || d.minimumQuantity === undefined ? null : toScaled(d.minimumQuantity),
  }),
  unique: [
    { columns: ['stock_name', 'code'], member: 'code', message: 'plu.codeTaken' },
    { columns: ['stock_name', 'barcode'], member: 'barcode', message: 'plu.barcodeTaken' },
  ],
  filters: {
    id: { type: 'string', column: 'id' },
    code: { type: 'int', column: 'code' },
    stockName: { type: 'string', column: 'stock_name' },
    type: { type: 'enum', column: 'type', enumValues: PLU_TYPES },
    name: { type: 'string', column: 'name' },
    isActive: { type: 'bool', column: 'is_active' },
    category: { type: 'string', column: 'category' },
    barcode: { type: 'string', column: 'barcode' },
    minimumQuantity: { type: 'decimal', column: 'minimum_quantity' },
    isBelowMinimum: { type: 'bool', predicate: belowMinimum },
  },
  collate: ['name'],
  sortKeyColumns: { name: 'name_sk' },
  rights: { create: 'PluCreate', update: 'PluUpdate', delete: 'PluDelete' },
  hooks: {
    prepare({ body, existing, ctx }) {
      requireExisting(ctx, stocks, body.stockName, 'stockName');
      body.orderEndpointNames.forEach((n, i) => requireExisting(ctx, orderEndpoints, n, `orderEndpointNames[${i}]`));
      if (body.category !== null) requireExisting(ctx, categories, body.category, 'category');
      const modifierIds = body.modifierIds;
      modifierIds.forEach((id, i) => {
        if (!modifierExists(ctx.db, id)) throw errors.member(`modifierIds[${i}]`, 'error.notFound', { resource: 'Modifier', key: id });
        if (modifierIds.indexOf(id) !== i) throw errors.member(`modifierIds[${i}]`, 'plu.modifierTwice', { id }, 'Unique');
      });
      if (body.minimumQuantity !== null && body.type !== 'StockItem') throw errors.member('minimumQuantity', 'plu.minimumOnlyStockItem');
      const parts = body.receipt;
      if (parts.length && body.type !== 'Recipe') throw errors.member('receipt', 'plu.partsOnlyRecipe');
      // Each part carries the name of its plu (as it was at this write), so a recipe reads as words.
      const receipt = parts.map((p, i) => {
        if (p.pluId.code === body.code && p.pluId.stockName === body.stockName) throw errors.member(`receipt[${i}].pluId`, 'plu.recipeSelf');
        requirePlu(ctx, p.pluId, `receipt[${i}].pluId`);
        if (partHolds(ctx, p.pluId, body, existing ? { code: existing.code, stockName: existing.stockName } : null)) {
          throw errors.member(`receipt[${i}].pluId`, 'plu.recipeCycle', { code: p.pluId.code, stock: p.pluId.stockName });
        }
        return { ...p, pluId: { ...p.pluId, name: pluName(ctx.db, p.pluId) ?? '' } };
      });
      // Stock moves only through stock transfers: a write keeps the stored quantity.
      return { ...body, receipt, stockQuantity: existing?.stockQuantity ?? 0, margin: marginOf(body) };
    },
    present: (doc) => ({ ...doc, unitPrice: presentMoney(doc.unitPrice) }),
  },
});
