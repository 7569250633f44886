/**
 * GET /api/reports/sales (JSON, or CSV with `Accept: text/csv` or `?format=csv`) and
 * GET /api/reports/fiscalday, both with the right ReportRead (CONTRACT §12).
 */
import { Router } from 'express';
import { requireRight } from '../http/caller.js';
import { errors } from '../http/errors.js';
import { callerOf, methodNotAllowed } from '../http/handler.js';
import { requestLanguage } from '../http/language.js';
import type { Language } from '../i18n/index.js';
import type { Reports } from './service.js';

function wantsCsv(format: unknown, accepts: string | false): boolean {
  const f = Array.isArray(format) ? format[format.length - 1] : format;
  if (typeof f === 'string' && f) {
    if (f.toLowerCase() === 'csv') return true;
    if (f.toLowerCase() === 'json') return false;
    throw errors.member('format', `'${f}' is not csv or json.`);
  }
  return accepts === 'text/csv';
}

export function reportRouter(reports: Reports, shopLanguage: Language): Router {
  const router = Router();
  router.get('/reports/sales', (req, res) => {
    requireRight(callerOf(res), 'ReportRead');
    const query = req.query as Record<string, unknown>;
    const format = Object.entries(query).find(([k]) => k.toLowerCase() === 'format')?.[1];
    const report = reports.sales(Object.fromEntries(Object.entries(query).filter(([k]) => k.toLowerCase() !== 'format')));
    if (wantsCsv(format, req.accepts(['application/json', 'text/csv']))) {
      res.setHeader('Content-Disposition', `attachment; filename="sales-${report.groupBy}-${report.from}_${report.to}.csv"`);
      res.type('text/csv; charset=utf-8').send(reports.salesCsv(report, requestLanguage(req, res, shopLanguage)));
      return;
    }
    res.json(report);
  });
  router.get('/reports/fiscalday', (req, res) => {
    requireRight(callerOf(res), 'ReportRead');
    const q = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v[v.length - 1] : v]));
    const name = typeof q.fiscalname === 'string' ? q.fiscalname : '';
    if (!name) throw errors.member('fiscalName', 'is required.', 'Required');
    const raw = typeof q.number === 'string' ? q.number.trim() : undefined;
    if (raw !== undefined && !/^\d{1,9}$/.test(raw)) throw errors.member('number', `'${raw}' is not a fiscal day number.`);
    if (!reports.fiscalDeviceExists(name)) throw errors.member('fiscalName', `Fiscal device '${name}' does not exist.`);
    res.json(reports.fiscalDay(name, raw === undefined ? undefined : Number(raw)));
  });
  router.all('/reports/sales', methodNotAllowed(['GET']));
  router.all('/reports/fiscalday', methodNotAllowed(['GET']));
  return router;
}
