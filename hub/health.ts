import { Router } from 'express';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import type { Clock } from './clock.js';
import { VERSION } from './version.js';
import { readFiscalStatus } from './resources/fiscaldevices/status.js';
import { lastSeq } from './events/log.js';
import { Outbox } from './mail/outbox.js';
import { openJobCounts } from './printing/jobs.js';

/** Printers (with their queue depth) and fiscal devices as last seen: for the health check and HQ's heartbeat. */
export function deviceStatuses(db: Db, printerStatus?: (name: string) => unknown): { printers: unknown[]; fiscalDevices: unknown[] } {
  // Queue depth: jobs not yet confirmed printed nor given up, per printer.
  const depth = openJobCounts(db);
  const printers = db
    .all<{ name: string; type: string; is_active: number }>(sql`SELECT name, type, is_active FROM order_endpoints ORDER BY name`)
    .map((p) => ({ name: p.name, type: p.type, isActive: p.is_active === 1, status: printerStatus?.(p.name) ?? 'unknown', queueDepth: depth.get(p.name) ?? 0 }));
  const fiscalDevices = db
    .all<{ name: string; driver: string; is_active: number }>(sql`SELECT name, driver, is_active FROM fiscal_devices ORDER BY name`)
    .map((f) => ({ name: f.name, driver: f.driver, isActive: f.is_active === 1, status: readFiscalStatus(db, f.name) }));
  return { printers, fiscalDevices };
}

/** GET /api/health, without a token: what a register or an installer checks first. */
export function healthRouter(deps: { db: Db; clock: Clock; startedAt: number; printerStatus?: (name: string) => unknown }): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    let db = 'ok';
    let printers: unknown[] = [];
    let fiscalDevices: unknown[] = [];
    let changeLog: { lastSeq: number } | null = null;
    // E-mail receipts not delivered yet (waiting for the internet, say) and given up.
    let emailOutbox: { queued: number; failed: number } | null = null;
    try {
      ({ printers, fiscalDevices } = deviceStatuses(deps.db, deps.printerStatus));
      changeLog = { lastSeq: lastSeq(deps.db) };
      emailOutbox = new Outbox(deps.db).depth();
    } catch {
      db = 'error';
    }
    res.status(db === 'ok' ? 200 : 503).json({
      status: db === 'ok' ? 'ok' : 'degraded',
      version: VERSION,
      uptimeS: Math.floor((deps.clock.now().getTime() - deps.startedAt) / 1000),
      db,
      printers,
      fiscalDevices,
      changeLog,
      emailOutbox,
    });
  });
  return router;
}
