import { plusInStock } from './store.js';
import { z } from 'zod';
import { errors } from '../../http/errors.js';
import { defineResource } from '../../engine/define.js';
import { nameKeyed } from '../../engine/keys.js';
import { nameKey, text } from '../../engine/fields.js';

export const stocks = defineResource({
  name: 'stocks',
  title: 'Stock',
  example: { name: 'Bar', description: 'Nápoje za barom' },
  table: 'stocks',
  key: nameKeyed(),
  schema: z.object({
    name: nameKey().optional(),
    description: text().default(''),
  }),
  readOnly: {},
  columns: () => ({}),
  filters: { name: { type: 'string', column: 'name' } },
  collate: ['name', 'description'],
  rights: { create: 'StockCreate', update: 'StockUpdate', delete: 'StockDelete' },
  hooks: {
    beforeDelete({ existing, ctx }) {
      const held = plusInStock(ctx.db, existing.name);
      if (held > 0) throw errors.forbidden('stock.holdsProducts', { name: String(existing.name), count: held });
    },
  },
});
