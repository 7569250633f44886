/**
 * Shifts (issue 28): a register's cash drawer session. A register (or the back office, for a
 * register) opens one with the float in the drawer (POST /api/shifts, right CashCount); while it is
 * open every ticket that register closes adds its cash to it (hub/reports/drawer-store.ts, in the
 * close's transaction), and cash put in or taken out is recorded with a reason (POST
 * /api/shifts/{id}/movements, right CashMovement); it closes with a count of the drawer (POST
 * /api/shifts/{id}/close, right CashCount), which is a cash count (hub/resources/cashcounts) and
 * prints the shift report on the receipt printer. At most one open shift per register.
 *
 * Read: ReportRead, or a register its own shifts. While open, the figures (sales, cashIn, cashOut,
 * expected) are those of the moment of reading; once closed, those of the closing count.
 */
import { z } from 'zod';
import { isSale } from '../../http/caller.js';
import { errors } from '../../http/errors.js';
import { shiftDrawer } from '../../reports/drawer.js';
import { denominationsSchema } from '../cashcounts/resource.js';
import { atRead, defineResource } from '../../engine/define.js';
import { decimal, idKey, nameKey, nullableText } from '../../engine/fields.js';
import { idKeyed } from '../../engine/keys.js';
import { getStored } from '../../engine/repo.js';
import { devices } from '../devices/resource.js';
import { fieldMessage } from '../../i18n/say.js';
import { ofDevice, stateSql } from './store.js';

export const SHIFT_STATES = ['Open', 'Closed'] as const;
export const MOVEMENT_KINDS = ['In', 'Out'] as const;

const person = z.object({ userName: z.string(), name: z.string() });
const movement = z.object({
  id: z.number().int().describe('1, 2, … in the order they were made.'),
  at: z.string(),
  by: person,
  kind: z.enum(MOVEMENT_KINDS).describe('In: cash put into the drawer; Out: taken out.'),
  amount: z.number(),
  reason: z.string(),
});
export const shiftSalesSchema = z.object({
  tickets: z.number().int().describe('Tickets the register closed while the shift was open (returns included).'),
  total: z.number().describe('Their total.'),
  payments: z.array(z.object({ paymentTypeNumber: z.number().int(), name: z.string(), category: z.string().nullable(), tickets: z.number().int(), amount: z.number().describe('Paid in this type, change deducted.') })),
  cash: z.number().describe('What the Cash-category payment types took in, change deducted.'),
});

const registerName = nameKey().describe("The register (a CashRegister or PDA device). Default: the caller's device; a register opens only its own.");

export const shifts = defineResource({
  name: 'shifts',
  title: 'Shift',
  example: { deviceName: 'Pokladna2', openingFloat: 100, note: 'Ranná zmena' },
  table: 'shifts',
  key: idKeyed(),
  schema: z.object({
    id: idKey().optional(),
    deviceName: registerName.optional(),
    openingFloat: decimal().min(0, fieldMessage('field.zeroOrMore')).default(0).describe('The cash in the drawer at the start.'),
    note: nullableText().default(null),
  }),
  // Written or not, a shift names its register (prepare fills in the caller's).
  answered: { deviceName: registerName },
  readOnly: {
    fiscalName: z.string().nullable().describe("The register's DefaultFiscalName when the shift opened (the fiscal day it belongs to)."),
    state: z.enum(SHIFT_STATES),
    openedAt: z.string(),
    openedBy: person,
    movements: z.array(movement).describe('Cash put in and taken out, with the reason.'),
    // Stored by the close; made when read while the shift is open (present).
    sales: atRead(shiftSalesSchema.describe("What the register took while the shift was open (so far, while it is open).")),
    cashIn: atRead(z.number()),
    cashOut: atRead(z.number()),
    expected: atRead(z.number().describe('What the drawer should hold: openingFloat + sales.cash + cashIn − cashOut (now, while open; at the close, once closed).')),
    closedAt: z.string().nullable(),
    closedBy: person.nullable(),
    counted: z.number().nullable().describe('The closing count.'),
    denominations: denominationsSchema.nullable().describe('The closing count by note and coin, when given.'),
    difference: z.number().nullable().describe('counted − expected: negative when cash is missing.'),
    countId: z.string().nullable().describe('The closing count (GET /api/cashcounts/{id}).'),
    reportPrints: z.array(z.object({ jobId: z.string(), orderEndpointName: z.string(), at: z.string(), by: person })).describe('Each print of the shift report.'),
  },
  columns: (d) => ({
    device_name: d.deviceName,
    is_open: d.state === 'Open' ? 1 : 0,
    opened_at: Date.parse(d.openedAt),
    closed_at: d.closedAt ? Date.parse(d.closedAt) : null,
  }),
  unique: [{ columns: ['device_name'], where: 'is_open = 1', when: (d) => d.state === 'Open', member: 'deviceName', message: 'shifts.alreadyOpen' }],
  filters: {
    id: { type: 'string', column: 'id' },
    deviceName: { type: 'string', column: 'device_name' },
    state: { type: 'enum', build: (c) => stateSql(c), enumValues: SHIFT_STATES },
    openedAt: { type: 'datetime', column: 'opened_at' },
    closedAt: { type: 'datetime', column: 'closed_at' },
  },
  sorts: { openedAt: 'opened_at', closedAt: 'closed_at' },
  read: {
    right: 'ReportRead',
    // A register reads its own shifts: it needs to know whether one is open, and its figures.
    scope: { where: (caller) => ofDevice(caller.device.name), reads: 'the shifts of their own device' },
  },
  rights: { create: 'CashCount', update: null, delete: null },
  without: ['put', 'delete'],
  rules: {
    notes: {
      post: "A register opens its own shift (`deviceName` left out or its own); the back office names the register. One open shift per register: a second is a 400 (`code` Unique on `deviceName`).",
    },
  },
  hooks: {
    prepare({ caller, body, ctx }) {
      const deviceName = body.deviceName ?? caller.device.name;
      if (isSale(caller) && deviceName !== caller.device.name) throw errors.member('deviceName', 'shifts.ownRegisterOnly', { device: caller.device.name });
      const device = getStored(ctx.db, devices, deviceName);
      if (!device) throw errors.member('deviceName', 'error.notFound', { resource: devices.title, key: deviceName });
      if (device.doc.envName !== 'CashRegister' && device.doc.envName !== 'PDA') throw errors.member('deviceName', 'shifts.notRegister', { device: deviceName });
      const settings = device.doc.settings;
      return {
        id: body.id,
        deviceName,
        fiscalName: settings.DefaultFiscalName || null,
        note: body.note ?? null,
        openingFloat: body.openingFloat,
        state: 'Open',
        openedAt: ctx.clock.now().toISOString(),
        openedBy: { userName: caller.userName, name: caller.name },
        movements: [],
        closedAt: null,
        closedBy: null,
        counted: null,
        denominations: null,
        difference: null,
        countId: null,
        reportPrints: [],
      };
    },
    present(doc, ctx) {
      if (doc.state !== 'Open') return doc;
      // While open: what the drawer holds by now.
      const drawer = shiftDrawer(ctx.db, doc);
      return { ...doc, ...drawer };
    },
  },
});
