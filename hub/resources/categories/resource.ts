/**
 * Product categories (issue 21): a plu's `category` names one. Reports sum by category, plus filter by
 * it (`Category=`), and an order endpoint's `categoryNames` routes every plu of a category to it, so
 * a new plu in a category prints where its category does. Part of the catalog: read by everyone
 * logged in, written with the plu rights (PluCreate, PluUpdate, PluDelete).
 */
import { z } from 'zod';
import { errors } from '../../http/errors.js';
import { defineResource } from '../engine/define.js';
import { nameKeyed } from '../engine/keys.js';
import { nameKey, text } from '../engine/fields.js';
import { bool } from '../engine/refs.js';
import { categoryUse } from './store.js';

export const categories = defineResource({
  name: 'categories',
  title: 'Category',
  example: { name: 'Nápoje', description: 'Nealko, pivo, víno' },
  table: 'categories',
  key: nameKeyed(),
  schema: z.object({
    name: nameKey().optional(),
    description: text().default(''),
    isActive: z.boolean().default(true),
  }),
  readOnly: {},
  columns: (d) => ({ is_active: bool(d.isActive) }),
  filters: {
    name: { type: 'string', column: 'name' },
    isActive: { type: 'bool', column: 'is_active' },
  },
  collate: ['name', 'description'],
  rights: { create: 'PluCreate', update: 'PluUpdate', delete: 'PluDelete' },
  hooks: {
    beforeDelete({ existing, ctx }) {
      const used = categoryUse(ctx.db, String(existing.name));
      if (used.plus > 0) throw errors.forbidden('category.holdsProducts', { name: String(existing.name), count: used.plus });
      if (used.endpoints.length) throw errors.forbidden('category.routed', { name: String(existing.name), endpoints: used.endpoints.join(', ') });
    },
  },
});
