/**
 * Cash counts (issue 21): the drawer counted at the end of a fiscal day (or during it) against what
 * it should hold — the opening float plus what the day's Cash-category payments took in, change
 * deducted (GET /api/reports/fiscalday's cashSales). Stored as counted, never changed: POST and read
 * only. Recording one needs CashCount; reading them ReportRead.
 */
import { z } from 'zod';
import { errors } from '../../http/errors.js';
import { dec, toJsonNumber } from '../../core/money.js';
import { fiscalDayFigures } from '../../reports/service.js';
import { defineResource } from '../engine/define.js';
import { idKeyed } from '../engine/keys.js';
import { decimal, idKey, MAX_INT32, nameKey, nullableText } from '../engine/fields.js';
import { requireExisting } from '../engine/refs.js';
import { fiscalDevices } from '../fiscaldevices/resource.js';
import { fieldMessage } from '../../i18n/say.js';

const amount = () => decimal().min(0, fieldMessage('field.zeroOrMore'));

export const cashCounts = defineResource({
  name: 'cashcounts',
  title: 'CashCount',
  example: { fiscalName: 'FP1', dailySalesReportNumber: 1, openingFloat: 100, counted: 100, note: 'Zmena o 14:00' },
  table: 'cash_counts',
  key: idKeyed(),
  schema: z.object({
    id: idKey().optional(),
    fiscalName: nameKey(),
    /** Default: the device's open fiscal day as the hub last saw it. */
    dailySalesReportNumber: z.number().int().min(1).max(MAX_INT32).optional(),
    openingFloat: amount().default(0),
    counted: amount(),
    note: nullableText().default(null),
  }),
  readOnly: {
    cashSales: z.number().describe("What the fiscal day's Cash-category payments took in, change deducted, when it was counted."),
    expected: z.number().describe('openingFloat + cashSales.'),
    difference: z.number().describe('counted − expected: negative when cash is missing.'),
    countedAt: z.string(),
    countedBy: z.object({ userName: z.string(), name: z.string() }),
  },
  columns: (d) => ({ fiscal_name: d.fiscalName as string, day_number: d.dailySalesReportNumber as number, counted_at: Date.parse(d.countedAt as string) }),
  filters: {
    id: { type: 'string', column: 'id' },
    fiscalName: { type: 'string', column: 'fiscal_name' },
    dailySalesReportNumber: { type: 'int', column: 'day_number' },
    countedAt: { type: 'datetime', column: 'counted_at' },
  },
  sorts: { countedAt: 'counted_at' },
  read: { right: 'ReportRead' },
  rights: { create: 'CashCount', update: null, delete: null },
  without: ['put', 'delete'],
  hooks: {
    prepare({ caller, body, ctx }) {
      const fiscalName = body.fiscalName as string;
      requireExisting(ctx, fiscalDevices, fiscalName, 'fiscalName');
      let day;
      try {
        day = fiscalDayFigures(ctx.db, fiscalName, body.dailySalesReportNumber as number | undefined);
      } catch {
        throw errors.member('dailySalesReportNumber', 'fiscal.noDayGiveNumber', { name: fiscalName }, 'Required');
      }
      const expected = dec(body.openingFloat as number).plus(dec(day.cashSales));
      return {
        ...body,
        dailySalesReportNumber: day.dailySalesReportNumber,
        cashSales: day.cashSales,
        expected: toJsonNumber(expected),
        difference: toJsonNumber(dec(body.counted as number).minus(expected)),
        countedAt: ctx.clock.now().toISOString(),
        countedBy: { userName: caller.userName, name: caller.name },
      };
    },
  },
});
