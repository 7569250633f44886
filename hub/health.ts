import type { Request } from 'express';
import { z } from 'zod';
import { dbAnswers, type Db } from '../db/client.js';
import type { Caller } from './http/caller.js';
import { hasRight } from './http/caller.js';
import type { Clock } from './core/clock.js';
import { VERSION } from './core/version.js';
import { readFiscalStatus } from './core/fiscal-status.js';
import { fiscalDeviceList } from './resources/fiscaldevices/store.js';
import { lastSeq } from './engine/change-log.js';
import { Outbox } from './mail/outbox-store.js';
import { endpointRows, openJobCounts } from './printing/store.js';
import { named, routes } from './http/route.js';

// Stored data never fails the check: a row that cannot be described is shown without its status.
const each = <T>(rows: T[], describe: (row: T) => unknown, fallback: (row: T) => unknown): unknown[] =>
  rows.map((row) => {
    try {
      return describe(row);
    } catch {
      return fallback(row);
    }
  });

/**
 * Printers with their queue depth and, with `fiscal`, fiscal devices, as last seen: for the health
 * check and a chain store's heartbeat to HQ.
 */
export function deviceStatuses(db: Db, printerStatus?: (name: string) => unknown, fiscal = true): { printers: unknown[]; fiscalDevices?: unknown[] } {
  // Queue depth: jobs not yet confirmed printed nor given up, per printer.
  const depth = openJobCounts(db);
  const printers = each(
    endpointRows(db),
    (p) => ({ name: p.name, type: p.type, isActive: p.is_active === 1, status: printerStatus?.(p.name) ?? 'unknown', queueDepth: depth.get(p.name) ?? 0 }),
    (p) => ({ name: p.name, type: p.type, isActive: p.is_active === 1, status: 'unknown', queueDepth: depth.get(p.name) ?? 0 }),
  );
  if (!fiscal) return { printers };
  const fiscalDevices = each(
    fiscalDeviceList(db),
    (f) => ({ name: f.name, driver: f.driver, isActive: f.is_active === 1, status: readFiscalStatus(db, f.name) }),
    (f) => ({ name: f.name, driver: f.driver, isActive: f.is_active === 1, status: null }),
  );
  return { printers, fiscalDevices };
}

const WITH_SETTINGS = 'With a token holding SettingsRead.';
const health = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptimeS: z.number().int(),
  db: z.enum(['ok', 'error']),
  printers: z
    .array(z.object({ name: z.string(), type: z.string(), isActive: z.boolean(), status: z.unknown(), queueDepth: z.number().int() }))
    .optional()
    .meta({ description: 'With a token.' }),
  fiscalDevices: z
    .array(z.object({ name: z.string(), driver: z.string(), isActive: z.boolean(), status: z.record(z.string(), z.unknown()).nullable() }))
    .optional()
    .meta({ description: WITH_SETTINGS }),
  changeLog: z.object({ lastSeq: z.number().int() }).optional().meta({ description: WITH_SETTINGS }),
  emailOutbox: z
    .object({ queued: z.number().int(), failed: z.number().int() })
    .optional()
    .meta({ description: `${WITH_SETTINGS} E-mail receipts waiting to be sent (Queued) and given up (Failed).` }),
  devices: z
    .array(z.object({ name: z.string(), envName: z.string(), isActive: z.boolean(), lastContactAt: z.string().nullable() }))
    .optional()
    .meta({
      description: `${WITH_SETTINGS} Each device (register, PDA, kitchen display) and when the hub last heard from it: its last request since the hub started, or its last login (null: none known).`,
    }),
});
const Health = named('Health', health);

export interface HealthDeps {
  db: Db;
  clock: Clock;
  startedAt: number;
  printerStatus?: (name: string) => unknown;
  callerOf: (req: Request) => Caller | undefined;
  /** Each device's last contact (AuthService.deviceContacts). */
  deviceContacts?: () => unknown[];
}

/**
 * GET /api/health (CONTRACT §9): without a token what a register or an installer checks first —
 * `{status, version, uptimeS, db}` and nothing about the shop. With a token, the printers (everyone
 * logged in reads the order endpoints); with SettingsRead too, the fiscal devices (their memory
 * serials and report numbers), the change-log position, the e-mail outbox and each device's last contact.
 */
export const healthRoutes = routes<HealthDeps>((route) => [
  route({
    method: 'get',
    path: '/api/health',
    operationId: 'system.health',
    tags: ['System'],
    noToken: true,
    summary: 'Health of the hub, its database and devices',
    description:
      'No token needed: what a register or an installer checks first, `{status, version, uptimeS, db}` and nothing about the shop. ' +
      'With a token, also `printers`; with a token holding SettingsRead, also `fiscalDevices`, `changeLog`, `emailOutbox` and `devices` (each one\'s last contact).',
    responses: {
      200: { description: 'The hub and its database work.', schema: Health },
      503: { description: 'The database does not answer (`status: degraded`).', schema: Health },
    },
    errors: [],
    handler: (deps) => (_input, req, res) => {
      const caller = deps.callerOf(req);
      let db = dbAnswers(deps.db) ? 'ok' : 'error';
      const body: Record<string, unknown> = {};
      if (db === 'ok' && caller) {
        try {
          const settings = hasRight(caller, 'SettingsRead');
          Object.assign(body, deviceStatuses(deps.db, deps.printerStatus, settings));
          if (settings) {
            body.changeLog = { lastSeq: lastSeq(deps.db) };
            // E-mail receipts not delivered yet (waiting for the internet, say) and given up.
            body.emailOutbox = new Outbox(deps.db).depth();
            if (deps.deviceContacts) body.devices = deps.deviceContacts();
          }
        } catch {
          db = 'error';
        }
      }
      res.status(db === 'ok' ? 200 : 503).json({
        status: db === 'ok' ? 'ok' : 'degraded',
        version: VERSION,
        uptimeS: Math.floor((deps.clock.now().getTime() - deps.startedAt) / 1000),
        db,
        ...body,
      });
    },
  }),
]);
