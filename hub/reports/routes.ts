/**
 * GET /api/reports/sales (JSON, or CSV with `Accept: text/csv` or `?format=csv`) and
 * GET /api/reports/fiscalday, both with the right ReportRead (CONTRACT §12).
 */
import { z } from 'zod';
import { ERR } from '../http/api-docs.js';
import { requireRight, type Caller } from '../http/caller.js';
import { catalogIssue, errors } from '../http/errors.js';
import { callerOf } from '../http/handler.js';
import { requestLanguage } from '../http/language.js';
import { named, routes } from '../http/route.js';
import type { Language } from '../i18n/index.js';
import { auditReportSchema, fiscalDaySchema, salesReportSchema } from './schema.js';
import { GROUP_BY, MAX_DAYS, MAX_EXPORT_DAYS, type Reports } from './service.js';
import { daySpan, localDay } from '../http/members.js';
import { EXPORT_FORMATS } from './export.js';
import type { StoredRow } from './store.js';

const tags = ['Report'];
const WITHOUT_RIGHT = ERR.missingRight('Without ReportRead.');
/** Every report needs ReportRead, checked before the query is read (a missing right is a 403 whatever the query says). */
const reportReader = (caller: Caller) => requireRight(caller, 'ReportRead');

/** `from` and `to`, local days (http/members.ts), `to` within `maxDays` of `from`; the one place a report's days are read. */
const days = (examples: [string, string], toSays: string) => ({
  from: localDay().openapi({ param: { description: 'First day, `YYYY-MM-DD` (local).', example: examples[0] } }),
  to: localDay().openapi({ param: { description: toSays, example: examples[1] } }),
});

/** How the engine answers a stored row of one of its resources (present hooks, hidden fields) to this caller. */
export type Presenter = (resource: 'cashcounts' | 'shifts' | 'fiscalreports', row: StoredRow, caller: Caller) => unknown;

export const reportRoutes = routes<{ reports: Reports; shopLanguage: Language; present: Presenter }>((route) => [
  route({
    method: 'get',
    path: '/api/reports/sales',
    operationId: 'reports.sales',
    tags,
    summary: 'Sales by product, category, waiter, register, VAT rate, payment type, hour, day or month',
    description:
      "Requires ReportRead. Local days in the shop's time zone (POS_HUB_TIMEZONE), `from` and `to` included; a ticket counts on the day " +
      'it closed. Answered from running totals kept as tickets close (a year takes milliseconds), so the figures are those of closed ' +
      'tickets: returns (Negative items), discounts (item and ticket discounts, shared out over the items to the cent), voids (items ' +
      'cancelled by a storno and the items of deleted tickets, counted when and by whom they were voided) and totals. Amounts are exact ' +
      'decimals (2 places; quantities up to 4). `Accept: text/csv` or `format=csv` answers CSV: UTF-8 with a byte-order mark, in the ' +
      "language of the request (the user's `language`, else Accept-Language, else POS_HUB_LOCALE): Slovak and Czech with `;` between " +
      'fields and a decimal comma (as Excel there opens it), English with `,` and a decimal point; the last line holds the totals. ' +
      "A text cell (a name) beginning with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a leading `'`, so a " +
      'spreadsheet shows it and never runs it as a formula; the figures are plain numbers.',
    rights: ['ReportRead'],
    authorize: reportReader,
    query: z
      .object({
        ...days(['2026-01-01', '2026-12-31'], 'Last day, `YYYY-MM-DD` (local), at most 20 years after `from`.'),
        groupBy: z.enum(GROUP_BY).optional().openapi({ param: { description: 'What a row is (any letter case); `product` when left out.' } }),
        format: z.enum(['json', 'csv']).optional().openapi({ param: { description: 'Overrides the Accept header.' } }),
      })
      .superRefine(daySpan(MAX_DAYS)),
    responses: { 200: { description: 'The report.', schema: named('SalesReport', z.object(salesReportSchema.shape)), also: { 'text/csv': z.string() } } },
    errors: [ERR.validation('A missing or malformed `from`/`to`, `to` before `from`, an unknown `groupBy` or `format`; `errors[0].memberName` names it.'), ERR.unauthenticated(), WITHOUT_RIGHT],
    handler:
      ({ reports, shopLanguage }) =>
      ({ query }, req, res) => {
        const report = reports.sales({ from: query.from, to: query.to, groupBy: query.groupBy ?? 'product' });
        if ((query.format ?? (req.accepts(['application/json', 'text/csv']) === 'text/csv' ? 'csv' : 'json')) === 'csv') {
          res.setHeader('Content-Disposition', `attachment; filename="sales-${report.groupBy}-${report.from}_${report.to}.csv"`);
          res.type('text/csv; charset=utf-8').send(reports.salesCsv(report, requestLanguage(req, res, shopLanguage)));
          return;
        }
        res.json(report);
      },
  }),
  route({
    method: 'get',
    path: '/api/reports/fiscalday',
    operationId: 'reports.fiscalDay',
    tags,
    summary: "A fiscal day's X/Z figures: totals per payment type and VAT rate, and the cash the drawer gained",
    description:
      'Requires ReportRead. What the hub recorded of the receipts a fiscal device issued in one fiscal day (dailySalesReportNumber): ' +
      "the figures an X report prints, or a Z once the day is closed, without printing anything. `number` defaults to the device's " +
      'open day as the hub last saw it (else its latest day with sales). Count the drawer against `cashSales` with POST /api/cashcounts.',
    rights: ['ReportRead'],
    authorize: reportReader,
    query: z.object({
      fiscalName: z
        .string()
        .superRefine((name, ctx) => {
          if (!name) catalogIssue(ctx, 'member.required', {}, 'Required');
        })
        .openapi({ param: { description: 'The fiscal device.', example: 'FP1' } }),
      number: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional().openapi({ param: { description: 'The fiscal day (dailySalesReportNumber).' } }),
    }),
    responses: { 200: { description: "The day's figures.", schema: named('FiscalDay', z.object(fiscalDaySchema.shape)) } },
    errors: [ERR.validation('No or an unknown `fiscalName`, a malformed `number`, or no day known yet.'), ERR.unauthenticated(), WITHOUT_RIGHT],
    handler:
      ({ reports }) =>
      ({ query: { fiscalName, number } }, _req, res) => {
        if (!reports.fiscalDeviceExists(fiscalName)) throw errors.member('fiscalName', 'fiscal.notFound', { name: fiscalName });
        res.json(reports.fiscalDay(fiscalName, number));
      },
  }),
  route({
    method: 'get',
    path: '/api/reports/export',
    operationId: 'reports.export',
    tags,
    summary: "Days' sales for the accountant: POHODA XML or a CSV journal",
    description:
      "Requires ReportRead. Local days `from`..`to` (at most a year). `format=pohoda`: STORMWARE POHODA's XML import — a `dat:dataPack` " +
      '(version 2.0, `ico` the accounting unit’s IČO) of one internal document (`int:intDoc`) a day with one item a VAT rate: its base, VAT ' +
      'and total (`typ:price`, `typ:priceVAT`, `typ:priceSum`; `rateVAT` none/high/low/third by the rates, highest first, and `percentVAT` ' +
      'the exact rate), the day’s tickets and payments in `intNote`. `format=csv`: a journal of the closed tickets, a line per ticket and ' +
      'VAT rate (date, time, fiscal receipt, ticket, register, waiter, rate, base, VAT, total, payments), then a total line per rate; UTF-8 ' +
      'with a byte-order mark, in the language of the request (Slovak and Czech: `;` and a decimal comma). Both come from the tickets’ own ' +
      'VAT split, exact to the cent, and agree with each other and with GET /api/reports/sales?groupBy=vat.',
    rights: ['ReportRead'],
    authorize: reportReader,
    query: z
      .object({
        ...days(['2026-11-01', '2026-11-30'], 'Last day, `YYYY-MM-DD` (local), at most a year after `from`.'),
        format: z.enum(EXPORT_FORMATS).openapi({ param: { description: '`pohoda` (XML) or `csv` (journal).' } }),
        ico: z
          .string()
          .transform((s) => s.trim())
          .optional()
          .openapi({ param: { description: 'format=pohoda: the IČO of the accounting unit in POHODA (its dataPack `ico`), digits.', example: '12345678' } }),
      })
      .superRefine(daySpan(MAX_EXPORT_DAYS))
      .superRefine((q, ctx) => {
        if (q.format === 'pohoda' && !/^\d{1,15}$/.test(q.ico ?? '')) catalogIssue(ctx, 'export.icoRequired', {}, q.ico ? 'Invalid' : 'Required', ['ico']);
      }),
    responses: { 200: { description: 'The file, as an attachment.', schema: z.string(), contentType: 'application/xml', also: { 'text/csv': z.string() } } },
    errors: [ERR.validation('A missing or malformed `from`/`to`, `to` before `from` or more than a year after it, no or an unknown `format`, no or a malformed `ico` for POHODA.'), ERR.unauthenticated(), WITHOUT_RIGHT],
    handler:
      ({ reports, shopLanguage }) =>
      ({ query }, req, res) => {
        const file = reports.accountingExport(query, requestLanguage(req, res, shopLanguage));
        const name = file.format === 'pohoda' ? `pohoda-${file.from}_${file.to}.xml` : `journal-${file.from}_${file.to}.csv`;
        res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
        res.type(file.format === 'pohoda' ? 'application/xml; charset=utf-8' : 'text/csv; charset=utf-8').send(file.body);
      },
  }),
  route({
    method: 'get',
    path: '/api/reports/audit',
    operationId: 'reports.audit',
    tags,
    summary: 'Voids, deleted items, returns, discounts and price overrides per day and user',
    description:
      "Requires ReportRead. Local days in the shop's time zone, `from` and `to` included. Where money walks out: each kind as events, " +
      'quantity and amount, per day and user — for voids and deleted items the user who made them, for returns, discounts and price ' +
      'overrides the waiter whose ticket it is. Each event, with when, which ticket and how much: GET /api/auditevents ' +
      '(filters Day, UserName, Kind, TicketId).',
    rights: ['ReportRead'],
    authorize: reportReader,
    query: z.object(days(['2026-11-01', '2026-11-30'], 'Last day, `YYYY-MM-DD` (local).')).superRefine(daySpan(MAX_DAYS)),
    responses: { 200: { description: 'The audit.', schema: named('AuditReport', z.object(auditReportSchema.shape)) } },
    errors: [ERR.validation('A missing or malformed `from`/`to`, or `to` before `from`.'), ERR.unauthenticated(), WITHOUT_RIGHT],
    handler:
      ({ reports }) =>
      ({ query }, _req, res) => {
        res.json(reports.audit(query));
      },
  }),
  route({
    method: 'get',
    path: '/api/reports/fiscaldays',
    operationId: 'reports.fiscalDays',
    tags,
    summary: "A date's fiscal days: their X/Z figures, every X and Z report, the cash counts, and the shifts",
    description:
      "Requires ReportRead. `date` is a local day in the shop's time zone. Every fiscal day that had a receipt, an X or Z report or a " +
      'cash count on that date, with its figures (as GET /api/reports/fiscalday), each report the device printed of it (who asked, ' +
      'when, what it printed) and each count of it; and every shift open at any time that date. After a Z the closed day is what ' +
      'the date shows (`isOpen: false`), not the empty day after it.',
    rights: ['ReportRead'],
    authorize: reportReader,
    query: z.object({ date: localDay().openapi({ param: { description: 'The local day, `YYYY-MM-DD`.', example: '2026-11-21' } }) }),
    responses: {
      200: {
        description: "The date's fiscal days and shifts.",
        schema: {
          name: 'FiscalDays',
          uses: ['cashcounts', 'shifts', 'fiscalreports'],
          compose: (model) =>
            z.object({
              date: z.string(),
              timeZone: z.string(),
              days: z.array(z.object({ figures: z.object(fiscalDaySchema.shape), reports: z.array(model('fiscalreports')), cashCounts: z.array(model('cashcounts')) })),
              shifts: z.array(model('shifts')),
            }),
        },
      },
    },
    errors: [ERR.validation('A missing or malformed `date`.'), ERR.unauthenticated(), WITHOUT_RIGHT],
    handler:
      ({ reports, present }) =>
      ({ query }, _req, res) => {
        const caller = callerOf(res);
        const on = reports.fiscalDays(query.date);
        res.json({
          ...on,
          days: on.days.map((d) => ({ figures: d.figures, reports: d.reports.map((r) => present('fiscalreports', r, caller)), cashCounts: d.cashCounts.map((r) => present('cashcounts', r, caller)) })),
          shifts: on.shifts.map((r) => present('shifts', r, caller)),
        });
      },
  }),
]);
