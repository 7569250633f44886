/**
 * The X and Z reports the fiscal devices printed (issue 28): kept as the device answered them, with
 * who asked and the hub's own figures of that fiscal day at that moment, so a fiscal day's history
 * shows every report taken. Made only by POST /api/fiscaldevices/{name}/reports/{kind}, after the
 * device answered; the engine serves the list (GET /api/fiscalreports, right ReportRead).
 */
import { z } from 'zod';
import { inTransaction, type Db } from '../../db/client.js';
import type { ReportResult } from '../../drivers/fiscal/types.js';
import type { Caller } from '../http/caller.js';
import { dec, toJsonNumber } from '../core/money.js';
import { defineResource } from '../engine/define.js';
import { newId } from '../core/ids.js';
import { putStored } from '../engine/repo.js';
import { fiscalDaySchema } from './schema.js';
import { fiscalDayFigures } from './service.js';

export const REPORT_KINDS = ['X', 'Z'] as const;

export const fiscalReports = defineResource({
  name: 'fiscalreports',
  title: 'FiscalReportRecord',
  table: 'fiscal_reports',
  key: { field: 'id', column: 'id', type: 'string', schema: z.string() },
  schema: z.object({ id: z.string().optional() }),
  readOnly: {
    fiscalName: z.string(),
    kind: z.enum(REPORT_KINDS).describe('X: the day so far; Z: the day closed.'),
    number: z.number().int().describe('The fiscal day (dailySalesReportNumber) the report is of.'),
    date: z.string().describe("The device's own date of the report."),
    total: z.number().describe('The day’s sales total as the device printed it.'),
    receipts: z.number().int().describe('Fiscal receipts of the day, as the device printed it.'),
    takenAt: z.string(),
    takenBy: z.object({ userName: z.string(), name: z.string() }),
    figures: z.object(fiscalDaySchema.shape).nullable().describe("The hub's figures of that fiscal day when the report was taken (GET /api/reports/fiscalday); null when it had none."),
  },
  columns: (d) => ({ fiscal_name: d.fiscalName, kind: d.kind, number: d.number, taken_at: Date.parse(d.takenAt) }),
  filters: {
    id: { type: 'string', column: 'id' },
    fiscalName: { type: 'string', column: 'fiscal_name' },
    kind: { type: 'enum', column: 'kind', enumValues: REPORT_KINDS },
    number: { type: 'int', column: 'number' },
    takenAt: { type: 'datetime', column: 'taken_at' },
  },
  sorts: { takenAt: 'taken_at' },
  read: { right: 'ReportRead' },
  rights: { create: null, update: null, delete: null },
  without: ['post', 'put', 'delete'],
});

/** Keeps a report the device printed (after it did: a failed write cannot unprint it). */
export function recordFiscalReport(db: Db, at: Date, caller: Caller, fiscalName: string, report: ReportResult): void {
  inTransaction(db, () => {
    const id = newId();
    let figures = null;
    try {
      figures = fiscalDayFigures(db, fiscalName, report.number);
    } catch {
      /* the hub holds no figures of that day */
    }
    const doc = {
      id,
      fiscalName,
      kind: report.kind,
      number: report.number,
      date: report.date,
      total: toJsonNumber(dec(report.total)),
      receipts: report.receipts,
      takenAt: at.toISOString(),
      takenBy: { userName: caller.userName, name: caller.name },
      figures: figures && { ...figures, isOpen: report.kind === 'X' },
    };
    putStored(db, fiscalReports, id, doc, 1, at.getTime());
  });
}
