import { Router, type Request } from 'express';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import type { Caller } from './http/caller.js';
import { hasRight } from './http/caller.js';
import type { Clock } from './core/clock.js';
import { VERSION } from './core/version.js';
import { readFiscalStatus } from './resources/fiscaldevices/store.js';
import { lastSeq } from './events/log.js';
import { Outbox } from './mail/outbox.js';
import { openJobCounts } from './printing/jobs.js';

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
    db.all<{ name: string; type: string; is_active: number }>(sql`SELECT name, type, is_active FROM order_endpoints ORDER BY name`),
    (p) => ({ name: p.name, type: p.type, isActive: p.is_active === 1, status: printerStatus?.(p.name) ?? 'unknown', queueDepth: depth.get(p.name) ?? 0 }),
    (p) => ({ name: p.name, type: p.type, isActive: p.is_active === 1, status: 'unknown', queueDepth: depth.get(p.name) ?? 0 }),
  );
  if (!fiscal) return { printers };
  const fiscalDevices = each(
    db.all<{ name: string; driver: string; is_active: number }>(sql`SELECT name, driver, is_active FROM fiscal_devices ORDER BY name`),
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
    let db = 'ok';
    const body: Record<string, unknown> = {};
    try {
      deps.db.get(sql`SELECT 1 AS ok`);
    } catch {
      db = 'error';
    }
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
