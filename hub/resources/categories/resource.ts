/**
 * Product categories (issue 21): a plu's `category` names one. Reports sum by category, plus filter by
 * it (`Category=`), and an order endpoint's `categoryNames` routes every plu of a category to it, so
 * a new plu in a category prints where its category does. Part of the catalog: read by everyone
 * logged in, written with the plu rights (PluCreate, PluUpdate, PluDelete).
 *
 * Issue 28: a category carries what a register needs to draw its menu grid — `color` (`#rrggbb`) and
 * `order` (its place among the categories, ascending, ties by name) — and is renamed with
 * `POST /api/categories/{name}/rename` (rename.ts), which moves its plus and routings with it.
 */
import { z } from 'zod';
import { errors } from '../../http/errors.js';
import { fieldMessage } from '../../i18n/say.js';
import { defineResource } from '../../engine/define.js';
import { nameKeyed } from '../../engine/keys.js';
import { MAX_INT32, nameKey, text } from '../../engine/fields.js';
import { bool } from '../../engine/refs.js';
import { categoryUse } from './store.js';

/** `#rrggbb`, any case on input, stored and answered in lower case (one spelling per colour). */
export const color = () =>
  z
    .string()
    .regex(/^#[0-9A-Fa-f]{6}$/, fieldMessage('field.color'))
    .transform((s) => s.toLowerCase());

export const categories = defineResource({
  name: 'categories',
  title: 'Category',
  example: { name: 'Nápoje', description: 'Nealko, pivo, víno', color: '#2f80ed', order: 2 },
  table: 'categories',
  key: nameKeyed(),
  schema: z.object({
    name: nameKey().optional(),
    description: text().default(''),
    isActive: z.boolean().default(true),
    color: color()
      .nullable()
      .default(null)
      .describe('The colour of its tile on a register’s menu grid, `#rrggbb` (answered in lower case); null: the register’s own.'),
    order: z
      .number()
      .int()
      .min(0)
      .max(MAX_INT32)
      .default(0)
      .describe('Its place among the categories on a register’s menu grid and in the manager’s page: ascending, ties by name (`$sort=order,name`).'),
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
