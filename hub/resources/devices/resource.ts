import { z } from 'zod';
import { ENV_NAMES } from '../../http/rights.js';
import { opensPrices, requireRight } from '../../http/caller.js';
import { keepSecretSettings, secretSettingsField, withoutSecretSettings } from '../../engine/secrets.js';
import { defineResource } from '../../engine/define.js';
import { nameKeyed } from '../../engine/keys.js';
import { enumOf, freeObject, nameKey, stringMap, text } from '../../engine/fields.js';
import { bool } from '../../engine/refs.js';
import { withoutKeyHash } from './register-key.js';
import { customIssue } from '../../i18n/say.js';
import { revokeDeviceSessions } from './store.js';

/** A register's idle lock (issue 29): a device setting, seconds as a string like every setting. */
export const LOCK_SETTING = 'LockAfterSeconds';
/** What a register does when its device has no LockAfterSeconds. */
export const DEFAULT_LOCK_AFTER_SECONDS = 60;
export const MAX_LOCK_AFTER_SECONDS = 86_400;

/**
 * Registers, PDAs, the back office and tools; envName decides the Sale environment (CONTRACT §5).
 * A CashRegister or PDA paired from the manager's page (hub/registers) carries `pairedAt` and the hash
 * of its register key: both are the server's, kept across every PUT, and the hash is never answered.
 */
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
    settings: stringMap()
      .default({})
      .superRefine((settings, ctx) => {
        const lock = settings[LOCK_SETTING];
        if (lock !== undefined && !(/^\d{1,5}$/.test(lock) && Number(lock) <= MAX_LOCK_AFTER_SECONDS)) {
          ctx.addIssue({ code: 'custom', path: [LOCK_SETTING], ...customIssue('devices.lockAfterSeconds', { max: MAX_LOCK_AFTER_SECONDS }), input: lock });
        }
      })
      .meta({
        description:
          'String to string. Known to the hub: DefaultFiscalName, DefaultOrderEndpointName, DefaultStockName, MaxQuantity, OpenedPrices ' +
          '("true": its users set prices without TicketSetPrice, so switching it on needs that right) ' +
          `and for a register ${LOCK_SETTING}: the seconds without a touch after which it locks and asks for a PIN again ` +
          `("0": never; absent: ${DEFAULT_LOCK_AFTER_SECONDS}; at most ${MAX_LOCK_AFTER_SECONDS}).`,
      }),
  }),
  readOnly: {
    ...secretSettingsField,
    pairedAt: z
      .string()
      .nullable()
      .describe('When a tablet was last paired as this register (POST /api/registers/pair); null: never. Pairing again replaces the earlier tablet.'),
  },
  hidden: { registerKeyHash: z.string().optional() },
  columns: (d) => ({ is_active: bool(d.isActive), env_name: d.envName, register_key_hash: d.registerKeyHash ?? null }),
  filters: {
    name: { type: 'string', column: 'name' },
    isActive: { type: 'bool', column: 'is_active' },
    envName: { type: 'enum', column: 'env_name', enumValues: ENV_NAMES },
  },
  collate: ['name', 'description'],
  rights: { create: 'DeviceCreate', update: 'DeviceUpdate', delete: 'DeviceDelete' },
  hooks: {
    // The pairing is the server's: a PUT (the manager editing settings) keeps it. A device has no
    // address of its own: its secrets are tied to the settings naming a place (secrets.ts).
    prepare: ({ body, existing, caller }) => {
      // OpenedPrices "true" lets the device's users set any price, TicketSetPrice's power: only who holds it switches it on.
      if (opensPrices(body.settings) && !opensPrices(existing?.settings)) requireRight(caller, 'TicketSetPrice');
      return {
        ...keepSecretSettings(body, existing, []),
        pairedAt: existing?.pairedAt ?? null,
        ...(typeof existing?.registerKeyHash === 'string' ? { registerKeyHash: existing.registerKeyHash } : {}),
      };
    },
    present: (doc) => withoutSecretSettings({ ...withoutKeyHash(doc), pairedAt: doc.pairedAt ?? null }),
    // Sessions name their device: those left from a deleted device of this name (a lost tablet's)
    // would come back to life with a new one, so a device made ends them (CONTRACT §2: a revoked token is a 401).
    afterWrite: ({ before, after, ctx }) => {
      if (!before) revokeDeviceSessions(ctx.db, after.name, ctx.clock.now().getTime());
    },
  },
});
