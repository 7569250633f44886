import { z } from 'zod';
import { errors } from '../../http/errors.js';
import { defineResource } from '../../engine/define.js';
import { idKeyed } from '../../engine/keys.js';
import { idKey, money, presentMoney, text } from '../../engine/fields.js';
import { pluRef, requirePlu } from '../plus/resource.js';
import { customIssue } from '../../i18n/say.js';

const count = () => z.number().int().min(0).max(10_000);

const option = z.object({
  id: idKey(),
  name: text().default(''),
  unitPrice: money().nullable().default(null),
  isUnitPriceIncludingVat: z.boolean().default(true),
  pluId: pluRef().nullable().default(null),
  defaultSelectedQuantity: count().default(0),
  maximumSelectedQuantity: count().nullable().default(null),
});

export const modifiers = defineResource({
  name: 'modifiers',
  title: 'Modifier',
  example: { name: 'Príloha', minimumSelectedOptionsCount: 1, maximumSelectedOptionsCount: 1, options: [{ id: 'hranolky', name: 'Hranolky', unitPrice: { amount: 1.5 } }, { id: 'ryza', name: 'Ryža', unitPrice: null }] },
  table: 'modifiers',
  key: idKeyed(),
  schema: z
    .object({
      id: idKey().optional(),
      name: text().default(''),
      displayName: text().default(''),
      minimumSelectedOptionsCount: count().default(0),
      maximumSelectedOptionsCount: count().default(0),
      maximumSelectedOptionsTotalQuantity: count().default(0),
      options: z.array(option).max(500).default([]),
    })
    .superRefine((m, ctx) => {
      if (m.minimumSelectedOptionsCount > m.maximumSelectedOptionsCount) {
        ctx.addIssue({ code: 'custom', path: ['minimumSelectedOptionsCount'], ...customIssue('modifier.minAboveMax') });
      }
      m.options.forEach((o, i) => {
        if (o.maximumSelectedQuantity !== null && o.defaultSelectedQuantity > o.maximumSelectedQuantity) {
          ctx.addIssue({ code: 'custom', path: ['options', i, 'defaultSelectedQuantity'], ...customIssue('modifier.defaultAboveMax') });
        }
      });
    }),
  readOnly: {},
  columns: (d) => ({ name: d.name }),
  filters: {
    id: { type: 'string', column: 'id' },
    name: { type: 'string', column: 'name' },
  },
  collate: ['name'],
  rights: { create: 'ModifierCreate', update: 'ModifierUpdate', delete: 'ModifierDelete' },
  hooks: {
    prepare({ body, ctx }) {
      const seen = new Set<string>();
      body.options.forEach((o, i) => {
        if (seen.has(o.id)) throw errors.member(`options[${i}].id`, 'modifier.optionTwice', { id: o.id }, 'Unique');
        seen.add(o.id);
        if (o.pluId) requirePlu(ctx, o.pluId, `options[${i}].pluId`);
      });
      return body;
    },
    present: (doc) => ({ ...doc, options: doc.options.map((o) => ({ ...o, unitPrice: o.unitPrice && presentMoney(o.unitPrice) })) }),
  },
});
