import { Router, type Request } from 'express';
import { dbAnswers, type Db } from '../db/client.js';
import type { Caller } from './http/caller.js';
import { hasRight } from './http/caller.js';
import type { Clock } from './core/clock.js';
import { VERSION } from './core/version.js';
import { fiscalDeviceList, readFiscalStatus } from './resources/fiscaldevices/store.js';
import { lastSeq } from './events/store.js';
import { Outbox } from './mail/outbox-store.js';
import { endpointRows, openJobCounts } from './printing/store.js';

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

/**
 * GET /api/health (CONTRACT §9): without a token what a register or an installer checks first —
 * `{status, version, uptimeS, db}` and nothing about the shop. With a token, the printers (everyone
 * logged in reads the order endpoints); with SettingsRead too, the fiscal devices (their memory
 * serials and report numbers), the change-log position and the e-mail outbox.
 */
export function healthRouter(deps: { db: Db; clock: Clock; startedAt: number; printerStatus?: (name: string) => unknown; callerOf: (req: Request) => Caller | undefined }): Router {
  const router = Router();
  router.get('/health', (req, res) => {
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
  });
  return router;
}
