import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { errors } from '../../http/errors.js';
import { defineResource } from '../engine/define.js';
import { nameKeyed } from '../engine/keys.js';
import { nameKey, text } from '../engine/fields.js';

export const stocks = defineResource({
  name: 'stocks',
  title: 'Stock',
  table: 'stocks',
  key: nameKeyed(),
  schema: z.object({
    name: nameKey().optional(),
    description: text().default(''),
  }),
  readOnly: {},
  columns: () => ({}),
  filters: { name: { type: 'string', column: 'name' } },
  rights: { create: 'StockCreate', update: 'StockUpdate', delete: 'StockDelete' },
  hooks: {
    beforeDelete({ existing, ctx }) {
      const held = ctx.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM plus WHERE stock_name = ${existing.name as string}`);
      if (held && held.n > 0) throw errors.forbidden(`Stock '${existing.name}' still holds ${held.n} products; move or delete them first.`);
    },
  },
});
