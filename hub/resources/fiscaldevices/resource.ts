import { z } from 'zod';
import { AddressError } from '../../../drivers/transport/address.js';
import { errors } from '../../http/errors.js';
import { atRead, defineResource } from '../../engine/define.js';
import { nameKeyed } from '../../engine/keys.js';
import { keepSecretSettings, secretSettingsField, withoutSecretSettings } from '../../engine/secrets.js';
import { nameKey, stringMap, text } from '../../engine/fields.js';
import { bool } from '../../engine/refs.js';
import { DEMO_DRIVER, FISCAL_DRIVER_NAMES, FISCAL_DRIVERS, fiscalDriverNamed } from '../../../drivers/fiscal/registry.js';
import { QrTemplateError } from '../../../drivers/escpos/blocks.js';
import { settingFaultOf } from '../../../drivers/settings.js';
import { forgetFiscalStatus, readFiscalStatus, type FiscalStatus } from '../../core/fiscal-status.js';
import { ticketsToSettleOn } from './store.js';

const statusSchema = z.object({
  online: z.boolean().nullable(),
  paper: z.enum(['ok', 'low', 'out', 'unknown']),
  lastError: z.string().nullable(),
  fiscalMemorySerialNumber: z.string().nullable(),
  dailySalesReportNumber: z.number().int().nullable(),
})
  .describe(
    'What the hub last saw of the device, from every call it makes and a poll every 30 s (online null: not asked yet). ' +
      'An observation, not configuration: a refresh changes neither `_v` nor the change log, so a PUT with the `_v` read ' +
      'earlier is never refused because the status moved meanwhile.',
  ) satisfies z.ZodType<FiscalStatus>;

export const fiscalDevices = defineResource({
  name: 'fiscaldevices',
  title: 'FiscalDevice',
  example: { name: 'FP1', driver: DEMO_DRIVER.name, address: DEMO_DRIVER.address.example },
  table: 'fiscal_devices',
  key: nameKeyed(),
  schema: z.object({
    name: nameKey().optional(),
    isActive: z.boolean().default(true),
    driver: z
      .preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(FISCAL_DRIVER_NAMES))
      .describe(FISCAL_DRIVERS.map((d) => `\`${d.name}\`: ${d.label.en}`).join('; ') + '.'),
    address: text().min(1),
    settings: stringMap().default({}),
  }),
  // Both made when read: the status from what the hub last saw (core/fiscal-status.ts), the secrets' names.
  readOnly: { status: atRead(statusSchema), ...secretSettingsField },
  columns: (d) => ({ is_active: bool(d.isActive), driver: d.driver }),
  filters: {
    name: { type: 'string', column: 'name' },
    isActive: { type: 'bool', column: 'is_active' },
    driver: { type: 'enum', column: 'driver', enumValues: FISCAL_DRIVER_NAMES },
  },
  // SettingsRead (CONTRACT §12). A register learns its own fiscal printer's driver and status from its
  // session (GET /api/auth: user.fiscalDevice), not from this list.
  read: { right: 'SettingsRead' },
  collate: ['name'],
  rights: { create: 'FiscalDeviceCreate', update: 'FiscalDeviceUpdate', delete: 'FiscalDeviceDelete' },
  hooks: {
    prepare({ body: sent, existing }) {
      // The operator password (and any key a driver takes) goes to the device at this address, by this driver.
      const body = keepSecretSettings(sent, existing, ['driver', 'address']);
      // Each driver checks what it takes (drivers/fiscal/<driver>/index.ts); the schema let only their names through.
      const driver = fiscalDriverNamed(body.driver)!;
      try {
        driver.address.check(body.address);
      } catch (e) {
        if (e instanceof AddressError) throw errors.member('address', `address.${e.fault}`, { ...e.params, driver: driver.name });
        throw e;
      }
      try {
        driver.settings.check(body.settings);
      } catch (e) {
        if (e instanceof QrTemplateError) throw errors.member('settings', `qr.${e.fault}`, e.params);
        const fault = settingFaultOf(e);
        if (fault) throw errors.member('settings', `setting.${fault.rule}`, fault.params);
        // A rule a driver has not marked yet is still the caller's mistake: said as the driver wrote it.
        throw errors.member('settings', 'setting.asTheDriverWrites', { reason: (e as Error).message });
      }
      // Status is not configuration: it lives beside the device (status.ts) and is merged in on read.
      return body;
    },
    present: (doc, ctx) => ({ ...withoutSecretSettings(doc), status: readFiscalStatus(ctx.db, doc.name) }),
    beforeDelete: ({ existing, ctx }) => {
      // A receipt that may be out is settled by asking this device: deleted, its tickets could never
      // close nor change again (503, 423). It stays until the next close, the poll or a restart settles them.
      const tickets = ticketsToSettleOn(ctx.db, existing.name);
      if (tickets.length) throw errors.forbidden('fiscal.unsettled', { name: existing.name, tickets: tickets.slice(0, 5).join(', ') });
      forgetFiscalStatus(ctx.db, existing.name);
    },
  },
});
