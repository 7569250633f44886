/**
 * Cash counts (issues 21 and 28): a drawer counted against what it should hold. Every count of a
 * drawer is one of these, whichever way it was made:
 * - of a shift (`shiftId`): the register's drawer since the shift opened — its opening float, the
 *   cash its register took while the shift was open, the cash put in, less the cash taken out. Closing
 *   a shift (POST /api/shifts/{id}/close) makes its closing count; a count posted here of an open
 *   shift is a count in between, which leaves it open;
 * - of a fiscal day (`fiscalName`), for a shop that runs without shifts: the opening float given plus
 *   the cash of the fiscal day's receipts (GET /api/reports/fiscalday's cashSales).
 * One rule (hub/reports/drawer.ts) says what a drawer should hold. Stored as counted, never changed:
 * POST and read only. Recording one needs CashCount; reading them ReportRead.
 */
import { ERR } from '../../http/api-docs.js';
import { z } from 'zod';
import { errors } from '../../http/errors.js';
import type { Caller } from '../../http/caller.js';
import { dec, roundMoney, toJsonNumber } from '../../core/money.js';
import { fiscalDayFigures, openFiscalDay } from '../../reports/service.js';
import { denominationsTotal, shiftDrawer } from '../../reports/drawer.js';
import { storedShift, type StoredShift } from '../../reports/drawer-store.js';
import { atRead, defineResource, type EngineContext } from '../../engine/define.js';
import { idKeyed } from '../../engine/keys.js';
import { decimal, idKey, MAX_INT32, nameKey, nullableText } from '../../engine/fields.js';
import { requireExisting } from '../../engine/refs.js';
import { fiscalDevices } from '../fiscaldevices/resource.js';
import { fieldMessage } from '../../i18n/say.js';

const amount = () => decimal().min(0, fieldMessage('field.zeroOrMore'));

/** A count by denomination: each note or coin value and how many of it. */
export const denominationsSchema = z
  .array(
    z.object({
      value: decimal().positive(fieldMessage('field.positive')).describe('A note or coin, e.g. 50 or 0.2.'),
      count: z.number().int().min(0).max(1_000_000).describe('How many of it.'),
    }),
  )
  .max(50);

/** What a count is given: the counted cash (or the denominations it adds up from). */
export const countBodySchema = z.object({
  counted: amount().optional().describe('The cash in the drawer. May be left out when `denominations` are given: their sum.'),
  denominations: denominationsSchema.optional().describe('The cash by note and coin; when `counted` is given too, they must add up to it.'),
  note: nullableText().default(null),
});

export type CountBody = z.infer<typeof countBodySchema>;

/** Counted from the body: `counted`, else the denominations' sum; both given must agree (400 naming counted). */
export function countedOf(body: CountBody): number {
  const byNotes = body.denominations?.length ? roundMoney(denominationsTotal(body.denominations)) : undefined;
  if (body.counted === undefined) {
    if (byNotes === undefined) throw errors.member('counted', 'member.required', {}, 'Required');
    return toJsonNumber(byNotes);
  }
  if (byNotes !== undefined && !byNotes.eq(dec(body.counted))) throw errors.member('counted', 'cashcounts.denominationsDisagree', { sum: byNotes.toFixed(2), counted: String(body.counted) });
  return body.counted;
}

/**
 * The count of an open shift's drawer now, as stored (the document of a cash count): what the drawer
 * should hold from the shift's float, sales and movements, against what was counted.
 */
export function shiftCount(ctx: EngineContext, caller: Caller, shift: StoredShift, body: CountBody, closesShift: boolean) {
  const counted = countedOf(body);
  const drawer = shiftDrawer(ctx.db, shift);
  const fiscalName = shift.fiscalName ?? null;
  return {
    fiscalName,
    dailySalesReportNumber: fiscalName ? openFiscalDay(ctx.db, fiscalName) : null,
    shiftId: shift.id,
    deviceName: shift.deviceName,
    closesShift,
    openingFloat: shift.openingFloat,
    counted,
    denominations: body.denominations ?? null,
    note: body.note ?? null,
    cashSales: drawer.sales.cash,
    cashIn: drawer.cashIn,
    cashOut: drawer.cashOut,
    expected: drawer.expected,
    difference: toJsonNumber(dec(counted).minus(dec(drawer.expected))),
    countedAt: ctx.clock.now().toISOString(),
    countedBy: { userName: caller.userName, name: caller.name },
  };
}

export const cashCounts = defineResource({
  name: 'cashcounts',
  title: 'CashCount',
  example: { fiscalName: 'FP1', dailySalesReportNumber: 1, openingFloat: 100, counted: 100, note: 'Zmena o 14:00' },
  table: 'cash_counts',
  key: idKeyed(),
  schema: z.object({
    id: idKey().optional(),
    shiftId: idKey().optional().describe("The open shift whose drawer is counted (its float, its register's cash and its movements). Leave out `fiscalName` then."),
    fiscalName: nameKey().optional().describe('Without shifts: the fiscal device whose day is counted. Leave out `shiftId` then.'),
    /** Default: the device's open fiscal day as the hub knows it. */
    dailySalesReportNumber: z.number().int().min(1).max(MAX_INT32).optional().describe('With `fiscalName`: the fiscal day; default the open one.'),
    openingFloat: amount().optional().describe('With `fiscalName`: the cash the drawer started the day with (default 0). A shift has its own.'),
    ...countBodySchema.shape,
  }),
  // Made at read time (atRead) for counts stored before shifts (issue 28), which lack them: present.
  readOnly: {
    deviceName: atRead(z.string().nullable().describe('The register of the shift counted; null for a fiscal day.')),
    closesShift: atRead(z.boolean().describe('The count that closed its shift.')),
    cashSales: z.number().describe("What the Cash-category payment types took in, change deducted, when it was counted: the shift's register's while it was open, or the fiscal day's."),
    cashIn: atRead(z.number().describe('Cash put into the shift’s drawer (0 for a fiscal day).')),
    cashOut: atRead(z.number().describe('Cash taken out of the shift’s drawer (0 for a fiscal day).')),
    expected: z.number().describe('openingFloat + cashSales + cashIn − cashOut.'),
    difference: z.number().describe('counted − expected: negative when cash is missing.'),
    countedAt: z.string(),
    countedBy: z.object({ userName: z.string(), name: z.string() }),
  },
  answered: {
    shiftId: atRead(z.string().nullable()),
    fiscalName: z.string().nullable().describe('The fiscal device of the day counted, or of the shift’s register (null: none).'),
    dailySalesReportNumber: z.number().int().nullable(),
    openingFloat: z.number(),
    counted: z.number(),
    denominations: atRead(denominationsSchema.nullable()),
  },
  columns: (d) => ({
    fiscal_name: d.fiscalName ?? '',
    day_number: d.dailySalesReportNumber ?? 0,
    counted_at: Date.parse(d.countedAt),
    shift_id: d.shiftId ?? null,
  }),
  filters: {
    id: { type: 'string', column: 'id' },
    fiscalName: { type: 'string', column: 'fiscal_name' },
    dailySalesReportNumber: { type: 'int', column: 'day_number' },
    countedAt: { type: 'datetime', column: 'counted_at' },
    shiftId: { type: 'string', column: 'shift_id' },
  },
  sorts: { countedAt: 'counted_at' },
  read: { right: 'ReportRead' },
  rights: { create: 'CashCount', update: null, delete: null },
  without: ['put', 'delete'],
  rules: {
    notes: {
      post: "Counts either an open shift's drawer (`shiftId`: the shift's float, its register's cash and its movements) or a fiscal day's (`fiscalName`, for a shop without shifts).",
    },
    errors: { post: [ERR.stateForbids('The shift is closed.')] },
  },
  hooks: {
    prepare({ caller, body, ctx }) {
      const { shiftId, fiscalName } = body;
      if (shiftId !== undefined && fiscalName !== undefined) throw errors.member('fiscalName', 'cashcounts.shiftOrDay');
      if (shiftId !== undefined) {
        for (const member of ['dailySalesReportNumber', 'openingFloat'] as const) {
          if (body[member] !== undefined) throw errors.member(member, 'cashcounts.shiftHasOwn');
        }
        const shift = storedShift(ctx.db, shiftId);
        if (!shift) throw errors.member('shiftId', 'error.notFound', { resource: 'Shift', key: shiftId });
        if (shift.state !== 'Open') throw errors.forbidden('shifts.closed', { id: shiftId });
        return { id: body.id, ...shiftCount(ctx, caller, shift, body, false) };
      }
      if (fiscalName === undefined) throw errors.member('fiscalName', 'cashcounts.shiftOrDay', {}, 'Required');
      requireExisting(ctx, fiscalDevices, fiscalName, 'fiscalName');
      let day;
      try {
        day = fiscalDayFigures(ctx.db, fiscalName, body.dailySalesReportNumber);
      } catch {
        throw errors.member('dailySalesReportNumber', 'fiscal.noDayGiveNumber', { name: fiscalName }, 'Required');
      }
      const counted = countedOf(body);
      const openingFloat = body.openingFloat ?? 0;
      const expected = dec(openingFloat).plus(dec(day.cashSales));
      return {
        id: body.id,
        fiscalName,
        dailySalesReportNumber: day.dailySalesReportNumber,
        shiftId: null,
        deviceName: null,
        closesShift: false,
        openingFloat,
        counted,
        denominations: body.denominations ?? null,
        note: body.note ?? null,
        cashSales: day.cashSales,
        cashIn: 0,
        cashOut: 0,
        expected: toJsonNumber(expected),
        difference: toJsonNumber(dec(counted).minus(expected)),
        countedAt: ctx.clock.now().toISOString(),
        countedBy: { userName: caller.userName, name: caller.name },
      };
    },
    // Counts stored before issue 28 lack the fields a count has since.
    present: (doc) => ({ shiftId: null, deviceName: null, closesShift: false, denominations: null, cashIn: 0, cashOut: 0, ...doc }),
  },
});
