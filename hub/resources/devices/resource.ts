import { z } from 'zod';
import { ENV_NAMES } from '../../http/rights.js';
import { keepSecretSettings, secretSettingsField, withoutSecretSettings } from '../engine/secrets.js';
import { defineResource } from '../engine/define.js';
import { nameKeyed } from '../engine/keys.js';
import { enumOf, freeObject, nameKey, stringMap, text } from '../engine/fields.js';
import { bool } from '../engine/refs.js';

/** Registers, PDAs, the back office and tools; envName decides the Sale environment (CONTRACT §5). */
export const devices = defineResource({
  name: 'devices',
  title: 'Device',
  example: { name: 'Pokladna2', envName: 'CashRegister', description: 'Pokladnica pri vchode' },
  table: 'devices',
  key: nameKeyed(),
  schema: z.object({
    name: nameKey().optional(),
    isActive: z.boolean().default(true),
    envName: enumOf(ENV_NAMES),
    description: text().default(''),
    roles: z.array(text()).max(200).default([]),
    preferences: freeObject().default({}),
    settings: stringMap().default({}),
  }),
  readOnly: { ...secretSettingsField },
  columns: (d) => ({ is_active: bool(d.isActive), env_name: d.envName as string }),
  filters: {
    name: { type: 'string', column: 'name' },
    isActive: { type: 'bool', column: 'is_active' },
    envName: { type: 'enum', column: 'env_name', enumValues: ENV_NAMES },
  },
  collate: ['name', 'description'],
  rights: { create: 'DeviceCreate', update: 'DeviceUpdate', delete: 'DeviceDelete' },
  hooks: {
    // A device has no address of its own: its secrets are tied to the settings naming a place (secrets.ts).
    prepare: ({ body, existing }) => keepSecretSettings(body, existing, []),
    present: (doc) => withoutSecretSettings(doc),
  },
});
