/**
 * POST /api/fiscaldevices/{name}/reports/x and /reports/z (right FiscalReport, CONTRACT §8): the
 * device prints the report and the answer carries it. A Z report closes the fiscal day, so the
 * receipts after it carry the next dailySalesReportNumber. Receipts left pending on the device are
 * settled first; a device that cannot be reached answers 503 (errorCode 9, Retry-After).
 */
import { Router } from 'express';
import type { FiscalRegistry } from '../../../drivers/fiscal/registry.js';
import type { ReportResult } from '../../../drivers/fiscal/types.js';
import { requireRight } from '../../http/caller.js';
import { errors } from '../../http/errors.js';
import { callerOf } from '../../http/handler.js';
import type { Db } from '../../../db/client.js';
import { getStored } from '../engine/repo.js';
import { DEVICE_TIMEOUT_MS, deviceUnavailable, withTimeout, type TicketCloser } from '../tickets/close.js';
import { fiscalDevices } from './resource.js';

/** A Z report prints the day's totals and writes the fiscal memory: it may take a while. */
export const REPORT_TIMEOUT_MS = 60_000;

export function fiscalDeviceRouter(deps: { db: Db; fiscal: FiscalRegistry; closer: TicketCloser; timeoutMs?: number }): Router {
  const router = Router();
  router.post('/fiscaldevices/:key/reports/:kind', async (req, res) => {
    const caller = callerOf(res);
    const name = String(req.params.key);
    const kind = String(req.params.kind).toUpperCase();
    if (kind !== 'X' && kind !== 'Z') throw errors.routeNotFound(req.originalUrl.split('?')[0]);
    requireRight(caller, 'FiscalReport');
    const config = getStored(deps.db, fiscalDevices, name);
    if (!config) throw errors.notFound(fiscalDevices.title, name);
    if (config.doc.isActive !== true) throw errors.forbidden(`Fiscal device '${name}' is inactive.`);
    const device = deps.fiscal.get({
      name,
      driver: String(config.doc.driver),
      address: String(config.doc.address),
      settings: (config.doc.settings as Record<string, string>) ?? {},
    });
    const capabilities = await device.info().then(
      (i) => i.capabilities,
      () => null,
    );
    if (capabilities && !capabilities.reports) throw errors.forbidden(`Fiscal device '${name}' does not print reports.`);
    const report: ReportResult = await deps.closer.afterPending(name, async () => {
      try {
        const ms = deps.timeoutMs ?? (kind === 'Z' ? REPORT_TIMEOUT_MS : DEVICE_TIMEOUT_MS);
        return await withTimeout(kind === 'Z' ? device.zReport() : device.xReport(), ms, `${kind} report`, true);
      } catch (e) {
        throw deviceUnavailable(name, e);
      }
    });
    res.json({ fiscalName: name, ...report });
  });
  return router;
}
