/**
 * Zones and their tables (issue 29): the floor plan a register shows — a zone per room or terrace,
 * each with its tables, optionally placed on a grid. Part of the catalog a register needs (CONTRACT
 * §12): read by everyone logged in; written with ZoneCreate, ZoneUpdate, ZoneDelete.
 *
 * A ticket's `location {tableName, zoneName}` stays free text: a register that knows no zones keeps
 * working, and renaming or deleting a table or zone changes no ticket (its open tickets then show
 * under their old names until they are moved).
 */
import { z } from 'zod';
import { errors } from '../../http/errors.js';
import { fieldMessage } from '../../i18n/say.js';
import { defineResource } from '../../engine/define.js';
import { nameKeyed } from '../../engine/keys.js';
import { enumOf, MAX_INT32, nameKey } from '../../engine/fields.js';
import { bool } from '../../engine/refs.js';

export const TABLE_SHAPES = ['Rect', 'Round'] as const;
/** The floor plan's grid: positions 0-999 cells across and down, sizes 1-100 cells. */
export const GRID_MAX = 999;
export const TABLE_SIZE_MAX = 100;
/** Tables in one zone: a beer garden has many, none has thousands. */
export const MAX_TABLES = 500;

const cell = () => z.number().int().min(0).max(GRID_MAX);
const size = () => z.number().int().min(1).max(TABLE_SIZE_MAX);

const table = z.object({
  name: z
    .string()
    .min(1)
    .max(100)
    .refine((s) => s.trim() === s && !/[\u0000-\u001f]/.test(s), fieldMessage('field.tableName'))
    .meta({ description: "Unique within the zone (letter case aside); what a ticket's `location.tableName` holds." }),
  x: cell().optional().meta({ description: 'Grid column of the left edge (0-999); absent: not placed on the plan.' }),
  y: cell().optional().meta({ description: 'Grid row of the top edge (0-999).' }),
  width: size().optional().meta({ description: 'Width in grid cells (1-100); absent: 1.' }),
  height: size().optional().meta({ description: 'Height in grid cells (1-100); absent: 1.' }),
  shape: enumOf(TABLE_SHAPES).optional().meta({ description: 'Drawn as a rectangle or a round table; absent: Rect.' }),
  seats: z.number().int().min(0).max(999).optional(),
});

export const zones = defineResource({
  name: 'zones',
  title: 'Zone',
  example: {
    name: 'Terasa',
    order: 2,
    color: '#2e7d32',
    tables: [
      { name: 'T1', x: 0, y: 0, width: 2, height: 2, shape: 'Round', seats: 4 },
      { name: 'T2', x: 3, y: 0, width: 3, height: 2, shape: 'Rect', seats: 6 },
    ],
  },
  table: 'zones',
  key: nameKeyed(),
  schema: z.object({
    name: nameKey().optional(),
    order: z.number().int().min(-MAX_INT32).max(MAX_INT32).default(0).meta({ description: 'Zones are shown by order, then name.' }),
    color: z
      .string()
      .regex(/^#[0-9A-Fa-f]{6}$/, fieldMessage('field.color'))
      .transform((c) => c.toLowerCase())
      .nullable()
      .default(null)
      .meta({ description: '`#rrggbb`, or null for the register\'s own.' }),
    isActive: z.boolean().default(true),
    tables: z.array(table).max(MAX_TABLES).default([]),
  }),
  readOnly: {},
  columns: (d) => ({ is_active: bool(d.isActive), sort_order: d.order }),
  filters: {
    name: { type: 'string', column: 'name' },
    isActive: { type: 'bool', column: 'is_active' },
    order: { type: 'int', column: 'sort_order' },
  },
  sorts: { order: 'sort_order' },
  collate: ['name'],
  rights: { create: 'ZoneCreate', update: 'ZoneUpdate', delete: 'ZoneDelete' },
  hooks: {
    prepare({ body }) {
      // Table names are what tickets refer to and waiters say: "t5" and "T5" would be one table to both.
      const seen = new Set<string>();
      body.tables.forEach((t, i) => {
        const name = t.name.toLowerCase();
        if (seen.has(name)) throw errors.member(`tables[${i}].name`, 'zones.tableTwice', { name: t.name }, 'Unique');
        seen.add(name);
      });
      return body;
    },
  },
});
