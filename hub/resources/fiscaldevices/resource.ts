import { z } from 'zod';
import { AddressError, parseAddress } from '../../../drivers/transport/address.js';
import { errors } from '../../http/errors.js';
import { defineResource } from '../engine/define.js';
import { nameKey, stringMap, text } from '../engine/fields.js';
import { bool } from '../engine/refs.js';

export const FISCAL_DRIVERS = ['datecs', 'escpos', 'simulator'] as const;

const statusSchema = z.object({
  online: z.boolean().nullable(),
  paper: z.enum(['ok', 'low', 'out', 'unknown']),
  lastError: z.string().nullable(),
  fiscalMemorySerialNumber: z.string().nullable(),
  dailySalesReportNumber: z.number().int().nullable(),
});
export type FiscalStatus = z.infer<typeof statusSchema>;
const UNKNOWN_STATUS: FiscalStatus = { online: null, paper: 'unknown', lastError: null, fiscalMemorySerialNumber: null, dailySalesReportNumber: null };

export const fiscalDevices = defineResource({
  name: 'fiscaldevices',
  title: 'FiscalDevice',
  table: 'fiscal_devices',
  key: { field: 'name', column: 'name', type: 'string', schema: nameKey() },
  schema: z.object({
    name: nameKey().optional(),
    isActive: z.boolean().default(true),
    driver: z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(FISCAL_DRIVERS)),
    address: text().min(1),
    settings: stringMap().default({}),
  }),
  readOnly: { status: statusSchema },
  columns: (d) => ({ is_active: bool(d.isActive), driver: d.driver as string }),
  filters: {
    name: { type: 'string', column: 'name' },
    isActive: { type: 'bool', column: 'is_active' },
    driver: { type: 'enum', column: 'driver', enumValues: FISCAL_DRIVERS },
  },
  rights: { create: 'FiscalDeviceCreate', update: 'FiscalDeviceUpdate', delete: 'FiscalDeviceDelete' },
  hooks: {
    prepare({ body, existing }) {
      const address = String(body.address);
      if (body.driver === 'simulator') {
        if (!/^sim:.+/.test(address)) throw errors.member('address', `The simulator driver takes an address sim:<any>, not '${address}'.`);
      } else {
        try {
          parseAddress(address);
        } catch (e) {
          if (e instanceof AddressError) throw errors.member('address', e.message);
          throw e;
        }
      }
      // Status is what the driver last saw; a configuration write keeps it.
      return { ...body, status: (existing?.status as FiscalStatus | undefined) ?? UNKNOWN_STATUS };
    },
  },
});
