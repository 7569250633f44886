/**
 * POST /api/fiscaldevices/{name}/reports/x and /reports/z (right FiscalReport, CONTRACT §8): the
 * device prints the report and the answer carries it. A Z report closes the fiscal day, so the
 * receipts after it carry the next dailySalesReportNumber. Receipts left pending on the device are
 * settled first; a device that cannot be reached answers 503 (errorCode 9, Retry-After).
 */
import { z } from 'zod';
import type { ReportResult } from '../../../drivers/fiscal/types.js';
import { ERR, idempotencyHeader } from '../../http/api-docs.js';
import { requireRight, type Caller } from '../../http/caller.js';
import { errors } from '../../http/errors.js';
import { dec, toJsonNumber } from '../../core/money.js';
import { callerOf } from '../../http/handler.js';
import { named, routes } from '../../http/route.js';
import type { FiscalDevices, TimedDevice } from './devices.js';
import { fiscalDevices } from './resource.js';

const report = z.object({
  fiscalName: z.string(),
  kind: z.enum(['X', 'Z']),
  number: z.number().int().meta({ description: 'Z: the number of the report just printed; X: the number of the open fiscal day.' }),
  date: z.string(),
  total: z.number().meta({ description: "The day's sales total as the device printed it (money is a JSON number, CONTRACT §3)." }),
  receipts: z.number().int().meta({ description: 'Fiscal receipts of the day.' }),
});

/**
 * `settlePending` settles receipts left pending on the device, on its queue (the closer's): no report comes between a receipt and its settling.
 * `recordReport` keeps the report the device printed (a fiscal day's history, issue 28).
 */
export const fiscalDeviceRoutes = routes<{
  fiscal: FiscalDevices;
  settlePending: (name: string, device: TimedDevice) => Promise<void>;
  recordReport: (caller: Caller, name: string, report: ReportResult) => void;
}>((route) => [
  route({
    method: 'post',
    path: '/api/fiscaldevices/{name}/reports/{kind}',
    operationId: 'fiscaldevices.report',
    tags: ['FiscalDevice'],
    summary: 'Print an X or a Z report',
    description:
      'Requires FiscalReport. `kind` is `x` (the day so far; the day stays open) or `z` (closes the fiscal day: the receipts after it ' +
      'carry the next dailySalesReportNumber). Receipts left unsettled on the device are settled first. No body. Every report printed is ' +
      'kept with who asked and the hub’s figures of the day (GET /api/fiscalreports).',
    rights: ['FiscalReport'],
    params: z.object({ name: z.string().meta({ param: { description: 'The fiscal device.' } }), kind: z.enum(['x', 'z', 'X', 'Z']) }),
    headers: idempotencyHeader(),
    responses: { 200: { description: 'The report the device printed.', schema: named('FiscalReport', report) } },
    errors: [
      ERR.unauthenticated(),
      ERR.missingRight(),
      ERR.stateForbids('The fiscal device is inactive or does not print reports, or it refused the report for good (`REJECTED` in `detail`).'),
      ERR.notFound('No fiscal device has this name, or `kind` is neither x nor z.'),
      ERR.keyReused(),
      ERR.deviceUnavailable(),
    ],
    handler:
      ({ fiscal, settlePending, recordReport }) =>
      async ({ params: { name, kind: asked } }, _req, res) => {
        const caller = callerOf(res);
        const kind = asked.toUpperCase();
        requireRight(caller, 'FiscalReport');
        const config = fiscal.config(name);
        if (!config) throw errors.notFound(fiscalDevices.title, name);
        if (!config.isActive) throw errors.forbidden('fiscal.inactive', { name });
        const result: ReportResult = await fiscal.run(name, async (device) => {
          const capabilities = await device.info().then(
            (i) => i.capabilities,
            () => null,
          );
          if (capabilities && !capabilities.reports) throw errors.forbidden('fiscal.noReports', { name });
          await settlePending(name, device);
          return kind === 'Z' ? device.zReport() : device.xReport();
        });
        recordReport(caller, name, result);
        // Drivers keep the total as the exact decimal text the device printed; the answer is a JSON number like every amount.
        res.json({ fiscalName: name, ...result, total: toJsonNumber(dec(result.total)) });
      },
  }),
]);
