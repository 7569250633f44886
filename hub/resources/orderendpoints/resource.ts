import { z } from 'zod';
import { AddressError, parseAddress } from '../../../drivers/transport/address.js';
import { errors } from '../../http/errors.js';
import { withoutSecretSettings } from '../engine/visibility.js';
import { defineResource } from '../engine/define.js';
import { nameKeyed } from '../engine/keys.js';
import { enumOf, nameKey, stringMap, text } from '../engine/fields.js';
import { bool, requireExisting } from '../engine/refs.js';
import { categories } from '../categories/resource.js';

/** Printer models the ESC/POS driver knows, and `Tablet` for a kitchen display (CONTRACT §8). */
export const ORDER_ENDPOINT_TYPES = ['TM88', 'SRP350', 'Generic', 'Tablet'] as const;

export const orderEndpoints = defineResource({
  name: 'orderendpoints',
  title: 'OrderEndpoint',
  table: 'order_endpoints',
  key: nameKeyed(),
  schema: z.object({
    name: nameKey().optional(),
    isActive: z.boolean().default(true),
    type: enumOf(ORDER_ENDPOINT_TYPES),
    address: text().default(''),
    settings: stringMap().default({}),
    /** Every plu of these categories is ordered here too, beside its own orderEndpointNames. */
    categoryNames: z.array(nameKey()).max(200).default([]),
  }),
  readOnly: {},
  columns: (d) => ({ is_active: bool(d.isActive), type: d.type as string, address: d.address as string }),
  filters: {
    name: { type: 'string', column: 'name' },
    isActive: { type: 'bool', column: 'is_active' },
    type: { type: 'enum', column: 'type', enumValues: ORDER_ENDPOINT_TYPES },
    address: { type: 'string', column: 'address' },
  },
  collate: ['name'],
  rights: { create: 'OrderEndpointCreate', update: 'OrderEndpointUpdate', delete: 'OrderEndpointDelete' },
  hooks: {
    prepare({ body, ctx }) {
      (body.categoryNames as string[]).forEach((n, i) => requireExisting(ctx, categories, n, `categoryNames[${i}]`));
      // A tablet's address is a free label; a printer's must be a device address.
      if (body.type !== 'Tablet') {
        try {
          parseAddress(String(body.address));
        } catch (e) {
          if (e instanceof AddressError) throw errors.member('address', e.message);
          throw e;
        }
      }
      return body;
    },
    present: (doc, _ctx, caller) => withoutSecretSettings(doc, caller),
  },
});
