import { pluExists } from './store.js';
import { z } from 'zod';
import { errors } from '../../http/errors.js';
import { toScaled } from '../../core/money.js';
import { defineResource, type EngineContext } from '../engine/define.js';
import { idKeyed } from '../engine/keys.js';
import { decimal, enumOf, idKey, money, nameKey, rate, text, MAX_INT32 } from '../engine/fields.js';
import { bool, requireExisting } from '../engine/refs.js';
import { orderEndpoints } from '../orderendpoints/resource.js';
import { stocks } from '../stocks/resource.js';

export const PLU_TYPES = ['StockItem', 'Recipe', 'Service', 'Container'] as const;

export const pluRef = () => z.object({ code: z.number().int().min(0).max(MAX_INT32), stockName: nameKey() });

export function requirePlu(ctx: EngineContext, ref: { code: number; stockName: string }, member: string): void {
  if (!pluExists(ctx.db, ref)) throw errors.member(member, `Plu ${ref.code} does not exist in stock '${ref.stockName}'.`);
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
    unitPrice: money().default({ amount: 0 }),
    vatInfo: z.object({ category: z.number().int().min(0).max(MAX_INT32), rate: rate() }).nullable().default(null),
    orderEndpointNames: z.array(nameKey()).max(50).default([]),
    receipt: z.array(z.object({ pluId: pluRef(), quantity: decimal() })).max(200).default([]),
    isActive: z.boolean().default(true),
  }),
  readOnly: { stockQuantity: decimal() },
  columns: (d) => ({
    code: d.code as number,
    stock_name: d.stockName as string,
    name: d.name as string,
    type: d.type as string,
    is_active: bool(d.isActive),
    stock_quantity: toScaled((d.stockQuantity as number) ?? 0),
  }),
  unique: [{ columns: ['stock_name', 'code'], member: 'code', message: 'This code is already used in this stock.' }],
  filters: {
    id: { type: 'string', column: 'id' },
    code: { type: 'int', column: 'code' },
    stockName: { type: 'string', column: 'stock_name' },
    type: { type: 'enum', column: 'type', enumValues: PLU_TYPES },
    name: { type: 'string', column: 'name' },
    isActive: { type: 'bool', column: 'is_active' },
  },
  rights: { create: 'PluCreate', update: 'PluUpdate', delete: 'PluDelete' },
  hooks: {
    prepare({ body, existing, ctx }) {
      requireExisting(ctx, stocks, body.stockName as string, 'stockName');
      (body.orderEndpointNames as string[]).forEach((n, i) => requireExisting(ctx, orderEndpoints, n, `orderEndpointNames[${i}]`));
      const parts = body.receipt as Array<{ pluId: { code: number; stockName: string } }>;
      if (parts.length && body.type !== 'Recipe') throw errors.member('receipt', 'Only a Recipe has parts.');
      parts.forEach((p, i) => {
        if (p.pluId.code === body.code && p.pluId.stockName === body.stockName) throw errors.member(`receipt[${i}].pluId`, 'A recipe cannot contain itself.');
        requirePlu(ctx, p.pluId, `receipt[${i}].pluId`);
      });
      // Stock moves only through stock transfers: a write keeps the stored quantity.
      return { ...body, stockQuantity: existing?.stockQuantity ?? 0 };
    },
  },
});
