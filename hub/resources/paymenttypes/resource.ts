import { z } from 'zod';
import { defineResource } from '../../engine/define.js';
import { enumOf, MAX_INT32, text } from '../../engine/fields.js';
import { bool } from '../../engine/refs.js';

export const PAYMENT_CATEGORIES = ['Cash', 'CreditCard', 'Voucher', 'Other'] as const;
/** CONTRACT §3: an integer ≥ 1; a register's numbering scheme is its own, so any positive 32-bit integer. */
const numberKey = () => z.number().int().min(1).max(MAX_INT32);

/** A payment type as a receipt names it: its name, else its category (Cash, CreditCard…), else its number. */
export function paymentTypeName(type: { name?: unknown; category?: unknown } | undefined, number: number): string {
  return String(type?.name || type?.category || number);
}

export const paymentTypes = defineResource({
  name: 'paymenttypes',
  title: 'PaymentType',
  example: { number: 5, name: 'Stravné lístky', category: 'Voucher', isChangeable: false },
  table: 'payment_types',
  key: { field: 'number', column: 'number', type: 'int', schema: numberKey() },
  schema: z.object({
    number: numberKey().optional(),
    name: text().default(''),
    isActive: z.boolean().default(true),
    category: enumOf(PAYMENT_CATEGORIES),
    isChangeable: z.boolean().default(false),
  }),
  readOnly: {},
  columns: (d) => ({ is_active: bool(d.isActive), category: d.category, is_changeable: bool(d.isChangeable) }),
  filters: {
    number: { type: 'int', column: 'number' },
    isActive: { type: 'bool', column: 'is_active' },
    category: { type: 'enum', column: 'category', enumValues: PAYMENT_CATEGORIES },
    isChangeable: { type: 'bool', column: 'is_changeable' },
  },
  collate: ['name'],
  rights: { create: 'PaymentTypeCreate', update: 'PaymentTypeUpdate', delete: 'PaymentTypeDelete' },
});
