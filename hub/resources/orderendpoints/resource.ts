import { z } from 'zod';
import { QrTemplateError, qrTemplate } from '../../../drivers/escpos/blocks.js';
import { BILL_QR } from '../../printing/render.js';
import { PRINTER_MODELS, PROFILES } from '../../../drivers/escpos/profiles.js';
import { AddressError, parseAddress } from '../../../drivers/transport/address.js';
import { errors } from '../../http/errors.js';
import { keepSecretSettings, secretSettingsField, withoutSecretSettings } from '../../engine/secrets.js';
import { defineResource } from '../../engine/define.js';
import { nameKeyed } from '../../engine/keys.js';
import { enumOf, nameKey, stringMap, text } from '../../engine/fields.js';
import { bool, requireExisting } from '../../engine/refs.js';
import { categories } from '../categories/resource.js';
import { endpointUse } from './store.js';

/** Printer models the printer driver knows (drivers/escpos/profiles.ts), and `Tablet` for a kitchen display (CONTRACT §8). */
export const ORDER_ENDPOINT_TYPES = [...PRINTER_MODELS, 'Tablet'] as const;

/** The settings that shape a kitchen ticket (CONTRACT §8), each "true" or "false" ("" or absent: off). */
const KITCHEN_FLAGS = ['IsBeepEnabled', 'HighlightOrderNumber', 'DoubleHeightFont', 'DoubleWidthFont'] as const;


export const orderEndpoints = defineResource({
  name: 'orderendpoints',
  title: 'OrderEndpoint',
  example: { name: 'Kuchyna', type: PRINTER_MODELS[0], address: 'tcp://192.168.1.50:9100' },
  table: 'order_endpoints',
  key: nameKeyed(),
  schema: z.object({
    name: nameKey().optional(),
    isActive: z.boolean().default(true),
    type: enumOf(ORDER_ENDPOINT_TYPES).describe(
      `The printer model: ${PRINTER_MODELS.map((m) => `\`${m}\` (${PROFILES[m].label.en})`).join(', ')}; or \`Tablet\`, a kitchen display.`,
    ),
    address: text().default(''),
    settings: stringMap()
      .default({})
      .describe(
        'Kitchen tickets: `IsBeepEnabled`, `HighlightOrderNumber`, `DoubleHeightFont`, `DoubleWidthFont` ("true"/"false"). ' +
          'Bills: `QrCode` — "true" prints a QR code of the ticket id; other text is the QR content, with `{ticket}`, `{total}`, `{currency}` filled in (printable ASCII). ' +
          'Kitchen displays: `AmberAfterMinutes`, `RedAfterMinutes`.',
      ),
    /** Every plu of these categories is ordered here too, beside its own orderEndpointNames. */
    categoryNames: z.array(nameKey()).max(200).default([]),
    mirrorOf: nameKey()
      .nullable()
      .default(null)
      .describe(
        'Another order endpoint: every order that one gets (for its plus and its categories), this one gets too — a kitchen display ' +
          'that shows what the kitchen printer prints, and goes on doing so as the menu changes. One level: what the other mirrors is not followed.',
      ),
  }),
  readOnly: { ...secretSettingsField },
  columns: (d) => ({ is_active: bool(d.isActive), type: d.type, address: d.address }),
  filters: {
    name: { type: 'string', column: 'name' },
    isActive: { type: 'bool', column: 'is_active' },
    type: { type: 'enum', column: 'type', enumValues: ORDER_ENDPOINT_TYPES },
    address: { type: 'string', column: 'address' },
  },
  collate: ['name'],
  rights: { create: 'OrderEndpointCreate', update: 'OrderEndpointUpdate', delete: 'OrderEndpointDelete' },
  hooks: {
    prepare({ body: sent, existing, ctx }) {
      const body = keepSecretSettings(sent, existing, ['type', 'address']);
      body.categoryNames.forEach((n, i) => requireExisting(ctx, categories, n, `categoryNames[${i}]`));
      if (body.mirrorOf !== null) {
        if (body.mirrorOf === body.name) throw errors.member('mirrorOf', 'endpoint.mirrorsItself');
        requireExisting(ctx, orderEndpoints, body.mirrorOf, 'mirrorOf');
      }
      // A tablet's address is a free label; a printer's must be a device address.
      if (body.type !== 'Tablet') {
        try {
          parseAddress(body.address);
        } catch (e) {
          if (e instanceof AddressError) throw errors.member('address', `address.${e.fault}`, e.params);
          throw e;
        }
      }
      // Another value would be stored and silently read as off: refuse it, naming the setting.
      for (const flag of KITCHEN_FLAGS) {
        const value = body.settings[flag];
        if (value !== undefined && !['', 'true', 'false'].includes(value.trim().toLowerCase())) {
          throw errors.member(`settings.${flag}`, 'setting.trueFalse', { setting: flag, value });
        }
      }
      try {
        qrTemplate(body.settings.QrCode, BILL_QR);
      } catch (e) {
        if (e instanceof QrTemplateError) throw errors.member('settings', `qr.${e.fault}`, e.params);
        throw e;
      }
      return body;
    },
    present: (doc) => withoutSecretSettings(doc),
    // An endpoint that plus still route to, or that another one mirrors, stays: deleted, their orders
    // would silently go nowhere and those plus and endpoints could not be saved again (400: unknown endpoint).
    beforeDelete({ existing, ctx }) {
      const name = String(existing.name);
      const used = endpointUse(ctx.db, name);
      if (used.plus > 0) throw errors.forbidden('endpoint.routedFrom', { name, count: used.plus });
      if (used.mirrors.length) throw errors.forbidden('endpoint.mirrored', { name, endpoints: used.mirrors.join(', ') });
    },
  },
});
