/**
 * POST /api/fiscaldevices/{name}/reports/x and /reports/z (right FiscalReport, CONTRACT §8): the
 * device prints the report and the answer carries it. A Z report closes the fiscal day, so the
 * receipts after it carry the next dailySalesReportNumber. Receipts left pending on the device are
 * settled first; a device that cannot be reached answers 503 (errorCode 9, Retry-After).
 */
import { Router } from 'express';
import type { ReportResult } from '../../../drivers/fiscal/types.js';
import { requireRight } from '../../http/caller.js';
import { errors } from '../../http/errors.js';
import { callerOf } from '../../http/handler.js';
import type { FiscalDevices, TimedDevice } from './devices.js';
import { fiscalDevices } from './resource.js';

/**
 * `settlePending` settles receipts left pending on the device, on its queue (the closer's): no report
 * may come between a receipt and its settling.
 */
export function fiscalDeviceRouter(deps: { fiscal: FiscalDevices; settlePending: (name: string, device: TimedDevice) => Promise<void> }): Router {
  const router = Router();
  router.post('/fiscaldevices/:key/reports/:kind', async (req, res) => {
    const caller = callerOf(res);
    const name = String(req.params.key);
    const kind = String(req.params.kind).toUpperCase();
    if (kind !== 'X' && kind !== 'Z') throw errors.routeNotFound(req.originalUrl.split('?')[0]);
    requireRight(caller, 'FiscalReport');
    const config = deps.fiscal.config(name);
    if (!config) throw errors.notFound(fiscalDevices.title, name);
    if (!config.isActive) throw errors.forbidden(`Fiscal device '${name}' is inactive.`);
    const report: ReportResult = await deps.fiscal.run(name, async (device) => {
      const capabilities = await device.info().then(
        (i) => i.capabilities,
        () => null,
      );
      if (capabilities && !capabilities.reports) throw errors.forbidden(`Fiscal device '${name}' does not print reports.`);
      await deps.settlePending(name, device);
      return kind === 'Z' ? device.zReport() : device.xReport();
    });
    res.json({ fiscalName: name, ...report });
  });
  return router;
}
