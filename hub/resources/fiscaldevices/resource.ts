import { z } from 'zod';
import { AddressError, parseAddress } from '../../../drivers/transport/address.js';
import { errors } from '../../http/errors.js';
import { defineResource } from '../engine/define.js';
import { nameKeyed } from '../engine/keys.js';
import { keepSecretSettings, secretSettingsField, withoutSecretSettings } from '../engine/secrets.js';
import { nameKey, stringMap, text } from '../engine/fields.js';
import { bool } from '../engine/refs.js';
import { checkSettings } from '../../../drivers/fiscal/datecs/driver.js';
import { checkEscPosSettings } from '../../../drivers/fiscal/escpos/driver.js';
import { checkEkasaSettings } from '../../../drivers/fiscal/ekasa/driver.js';
import { QrTemplateError } from '../../../drivers/escpos/blocks.js';
import { settingFaultOf } from '../../../drivers/settings.js';
import { forgetFiscalStatus, readFiscalStatus, type FiscalStatus } from './store.js';

export const FISCAL_DRIVERS = ['datecs', 'escpos', 'simulator', 'ekasa'] as const;

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
  example: { name: 'FP1', driver: 'simulator', address: 'sim:fp1' },
  table: 'fiscal_devices',
  key: nameKeyed(),
  schema: z.object({
    name: nameKey().optional(),
    isActive: z.boolean().default(true),
    driver: z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(FISCAL_DRIVERS)),
    address: text().min(1),
    settings: stringMap().default({}),
  }),
  readOnly: { status: statusSchema, ...secretSettingsField },
  columns: (d) => ({ is_active: bool(d.isActive), driver: d.driver as string }),
  filters: {
    name: { type: 'string', column: 'name' },
    isActive: { type: 'bool', column: 'is_active' },
    driver: { type: 'enum', column: 'driver', enumValues: FISCAL_DRIVERS },
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
      const address = String(body.address);
      if (body.driver === 'simulator') {
        if (!/^sim:.+/.test(address)) throw errors.member('address', 'fiscal.simAddress', { address });
      } else if (body.driver === 'ekasa') {
        // The eKasa service's HTTP address, or sim:<name> for the simulated service (demos).
        if (!/^(https?:\/\/[^/\s?#]+\/?|sim:.+)$/.test(address)) throw errors.member('address', 'fiscal.ekasaAddress', { address });
      } else {
        try {
          parseAddress(address);
        } catch (e) {
          if (e instanceof AddressError) throw errors.member('address', `address.${e.fault}`, e.params);
          throw e;
        }
      }
      try {
        if (body.driver === 'datecs') checkSettings(body.settings as Record<string, string>);
        if (body.driver === 'escpos') checkEscPosSettings(body.settings as Record<string, string>);
        if (body.driver === 'ekasa') checkEkasaSettings(body.settings as Record<string, string>);
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
    present: (doc, ctx) => ({ ...withoutSecretSettings(doc), status: readFiscalStatus(ctx.db, String(doc.name)) }),
    beforeDelete: ({ existing, ctx }) => forgetFiscalStatus(ctx.db, String(existing.name)),
  },
});
