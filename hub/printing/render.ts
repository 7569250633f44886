/**
 * A stored print job → the document to print. The data comes from the job's payload and the
 * stored order, formatted for the store (local time, decimal amounts); the layouts do the rest.
 */
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { fillQr, qrTemplate, type QrFields } from '../../drivers/escpos/blocks.js';
import type { PrintDocument } from '../../drivers/escpos/document.js';
import { kitchenOrder, kitchenSettings, preliminaryBill, receiptCopy, shiftReport, type BillData, type PrintMark } from './layouts.js';
import { dec } from '../core/money.js';
import { zonedParts } from '../core/time.js';
import { t, type Language } from '../i18n/index.js';
import type { KitchenOrders, PrintJob } from './store.js';

export interface EndpointConfig {
  name: string;
  type: string;
  address: string;
  settings: Record<string, string>;
}

/** A job that can never print (its order is gone, its payload unreadable): it fails, visibly. */
export class UnprintableJob extends Error {}

const two = (n: number) => String(n).padStart(2, '0');

/** "21.11.2026 11:05" in the store's time zone. */
export function localTime(at: Date, timeZone: string): string {
  const p = zonedParts(at, timeZone);
  return `${two(p.day)}.${two(p.month)}.${p.year} ${two(p.hour)}:${two(p.minute)}`;
}

const money = (v: number | undefined) => dec(v ?? 0).toFixed(2);

/**
 * The mark a send carries: a reprint request is a COPY; an order whose bytes went out before
 * without a confirmation (attempts > 0) is a REPRINT.
 */
export function markFor(job: PrintJob): PrintMark | null {
  if (job.kind === 'reprint') return 'COPY';
  return job.attempts > 0 ? 'REPRINT' : null;
}

// The stored shapes this file reads, parsed rather than trusted: an old or damaged row fails the job
// visibly instead of printing "undefined" in a kitchen.
const person = z.object({ userName: z.string(), name: z.string().nullish() }).nullish();
const place = z.object({ tableName: z.string().nullish(), zoneName: z.string().nullish() }).nullish();
const storedOrder = z.object({
  id: z.string(),
  kind: z.enum(['New', 'Cancel']),
  ticketName: z.string().nullish(),
  location: place,
  employee: person,
  createdAt: z.string(),
  items: z.array(
    z.object({ name: z.string(), quantity: z.number(), modifiers: z.array(z.object({ name: z.string(), quantity: z.number() })), comment: z.string().nullish() }),
  ),
});
const amount = z.object({ amount: z.number() }).nullish();
const billPayload = z.object({
  requestedBy: z.string(),
  ticket: z.object({
    id: z.string().nullish(),
    name: z.string().nullish(),
    location: place,
    employee: person,
    currencyLabel: z.string().nullish(),
    discountRate: z.number().nullish(),
    totalPrice: amount,
    items: z.array(
      z.object({
        plu: z.object({ name: z.string() }),
        quantity: z.number(),
        unitPrice: amount,
        totalPrice: amount,
        discountRate: z.number().nullish(),
        // Chosen options, priced (a job queued before they were part of the payload has none).
        modifiers: z.array(z.object({ name: z.string(), quantity: z.number(), unitPrice: z.number() })).nullish(),
      }),
    ),
  }),
});

/** A receipt copy's payload: the closed ticket as answered, and its payments named as the receipt named them. */
const receiptCopyPayload = billPayload.extend({
  ticket: billPayload.shape.ticket.extend({
    closeDate: z.string(),
    change: z.number().nullish(),
    closeInfo: z.object({ deviceName: z.string(), fiscalName: z.string(), number: z.number(), dailySalesReportNumber: z.number() }),
  }),
  payments: z.array(z.object({ name: z.string(), amount: z.number() })),
});

/** A shift report's payload: the shift as answered when it was queued (hub/resources/shifts). */
const someone = z.object({ userName: z.string(), name: z.string() });
const shiftPayload = z.object({
  requestedBy: z.string(),
  shift: z.object({
    deviceName: z.string(),
    openedAt: z.string(),
    openedBy: someone,
    closedAt: z.string().nullable(),
    closedBy: someone.nullable(),
    openingFloat: z.number(),
    sales: z.object({ tickets: z.number(), total: z.number(), cash: z.number(), payments: z.array(z.object({ name: z.string(), amount: z.number() })) }),
    movements: z.array(z.object({ at: z.string(), by: someone, kind: z.enum(['In', 'Out']), amount: z.number(), reason: z.string() })),
    cashIn: z.number(),
    cashOut: z.number(),
    expected: z.number(),
    counted: z.number().nullable(),
    difference: z.number().nullable(),
    denominations: z.array(z.object({ value: z.number(), count: z.number() })).nullable(),
  }),
});

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new UnprintableJob(`${what} cannot be printed: ${r.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
  return r.data;
}

/**
 * What a bill's QR code may hold (the `QrCode` setting of the order endpoint that prints it):
 * {ticket} the ticket's id — what a register scans to open the ticket and take the payment —,
 * {total}, {currency}; "true" is the ticket's id.
 */
export const BILL_QR: QrFields = { placeholders: ['ticket', 'total', 'currency'], whenTrue: '{ticket}' };

/** The endpoint's `QrCode` setting (checked when it was saved; one saved before the check fails the bill, visibly). */
function billQr(endpoint: EndpointConfig): string | null {
  try {
    return qrTemplate(endpoint.settings.QrCode, BILL_QR);
  } catch (e) {
    throw new UnprintableJob(`the bill cannot be printed: ${(e as Error).message}`);
  }
}

const waiter = (e: z.infer<typeof person>) => (e ? e.name || e.userName : null);
const rate = (r: number | null | undefined) => (r ? String(r) : null);

/** A ticket as printed on a bill: where, who, when, its priced lines and total. */
function billOf(t: z.infer<typeof billPayload>['ticket'], requestedBy: string, time: string, language: Language): Omit<BillData, 'qr'> {
  return {
    ticketName: t.name ?? '',
    tableName: t.location?.tableName ?? null,
    zoneName: t.location?.zoneName ?? null,
    waiter: waiter(t.employee),
    time,
    language,
    currency: t.currencyLabel ?? '',
    lines: t.items.map((i) => {
      const options = i.modifiers ?? [];
      // The price of one with its options, as the total counts it: quantity × (unit price + options) − discount.
      const unit = options.reduce((sum, o) => sum.plus(dec(o.unitPrice).times(o.quantity)), dec(i.unitPrice?.amount ?? 0));
      return {
        name: i.plu.name,
        quantity: String(i.quantity),
        unitPrice: unit.toFixed(2),
        total: money(i.totalPrice?.amount),
        discountRate: rate(i.discountRate),
        options: options.map((o) => ({ name: o.name, quantity: o.quantity, unitPrice: money(o.unitPrice) })),
      };
    }),
    discountRate: rate(t.discountRate),
    total: money(t.totalPrice?.amount),
    requestedBy,
  };
}

export function documentFor(db: Db, orders: KitchenOrders, job: PrintJob, endpoint: EndpointConfig, timeZone: string, language: Language = 'en'): PrintDocument {
  switch (job.kind) {
    case 'order':
    case 'reprint': {
      const id = String(job.payload.orderId ?? job.refId);
      const stored = orders.get(db, id);
      if (!stored) throw new UnprintableJob(`order ${id} no longer exists`);
      const o = parse(storedOrder, stored, `order ${id}`);
      return kitchenOrder(
        {
          endpointName: endpoint.name,
          orderNumber: o.id.slice(-6).toUpperCase(),
          kind: o.kind,
          ticketName: o.ticketName ?? '',
          tableName: o.location?.tableName ?? null,
          zoneName: o.location?.zoneName ?? null,
          waiter: waiter(o.employee),
          time: localTime(new Date(o.createdAt), timeZone),
          language,
          items: o.items.map((i) => ({ name: i.name, quantity: i.quantity, modifiers: i.modifiers, comment: i.comment ?? null })),
          mark: markFor(job),
        },
        kitchenSettings(endpoint.settings),
      );
    }
    case 'preliminary': {
      const { ticket: t, requestedBy } = parse(billPayload, job.payload, 'the preliminary bill');
      const bill = billOf(t, requestedBy, localTime(new Date(job.createdAt), timeZone), language);
      return preliminaryBill({ ...bill, qr: fillQr(billQr(endpoint), { ticket: t.id ?? String(job.refId ?? ''), total: bill.total, currency: bill.currency }) });
    }
    case 'receiptCopy': {
      const { ticket: t, requestedBy, payments } = parse(receiptCopyPayload, job.payload, 'the receipt copy');
      // The time of the sale (the close), not of the copy: it is the receipt's date.
      return receiptCopy({
        ...billOf(t, requestedBy, localTime(new Date(t.closeDate), timeZone), language),
        payments: payments.map((p) => ({ name: p.name, amount: money(p.amount) })),
        change: t.change ? money(t.change) : null,
        fiscal: t.closeInfo,
      });
    }
    case 'shiftReport': {
      const { shift: s, requestedBy } = parse(shiftPayload, job.payload, 'the shift report');
      const when = (iso: string) => localTime(new Date(iso), timeZone);
      const who = (p: { userName: string; name: string } | null) => (p ? p.name || p.userName : null);
      return shiftReport({
        language,
        register: s.deviceName,
        openedAt: when(s.openedAt),
        openedBy: who(s.openedBy) ?? '',
        closedAt: s.closedAt ? when(s.closedAt) : null,
        closedBy: who(s.closedBy),
        openingFloat: money(s.openingFloat),
        tickets: s.sales.tickets,
        total: money(s.sales.total),
        payments: s.sales.payments.map((p) => ({ name: p.name, amount: money(p.amount) })),
        cashSales: money(s.sales.cash),
        movements: s.movements.map((m) => ({ time: when(m.at).slice(-5), by: who(m.by) ?? '', kind: m.kind, amount: money(m.amount), reason: m.reason })),
        cashIn: money(s.cashIn),
        cashOut: money(s.cashOut),
        expected: money(s.expected),
        counted: s.counted === null ? null : money(s.counted),
        difference: s.difference === null ? null : money(s.difference),
        denominations: s.denominations?.map((d) => ({ value: money(d.value), count: d.count, total: dec(d.value).times(d.count).toFixed(2) })) ?? null,
        requestedBy,
      });
    }
    case 'test':
      return { blocks: [{ kind: 'text', text: t(language, 'print.testPage', { name: endpoint.name }), style: { align: 'center', bold: true } }, { kind: 'text', text: localTime(new Date(job.createdAt), timeZone) }] };
  }
  throw new UnprintableJob(`unknown job kind ${String(job.kind)}`);
}
