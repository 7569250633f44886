/**
 * The audit (issue 28, point 6): where money walks out of a restaurant. One event per
 * - `Void`: a quantity of an item a ticket write took off (a storno), by the user who wrote it;
 * - `Delete`: an item of a ticket deleted while open, by the user who deleted it;
 * - `Return`: an item given back (a Negative item of a closed ticket), what it refunded;
 * - `Discount`: what item and ticket discounts took off a closed ticket's sale;
 * - `PriceOverride`: an item sold at a price other than its plu's list price when it closed
 *   (list − sold, × quantity: positive when sold for less).
 * with who, when, which ticket and how much. Voids and deletes are recorded by the write that makes
 * them; the others by the close, or by the backfill for a ticket closed before (each closed ticket is
 * counted once: hub/reports/store.ts) — price overrides only by the close, which knows the list price
 * of the moment. Built here (pure); stored by audit-store.ts.
 */
import { z } from 'zod';
import { dec, D, roundMoney, toJsonNumber, toScaled } from '../core/money.js';
import { distribute } from '../core/vat.js';
import { defineResource } from '../engine/define.js';
import { calendarOf, type ClosedTicket, type Lookups, type VoidLine } from './totals.js';

export const AUDIT_KINDS = ['Void', 'Delete', 'Return', 'Discount', 'PriceOverride'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export interface AuditEvent {
  id: string;
  kind: AuditKind;
  at: string;
  /** The local day (YYYY-MM-DD). */
  day: string;
  user: { userName: string; name: string };
  deviceName: string | null;
  ticketId: string;
  ticketName: string | null;
  tableName: string | null;
  plu: { code: number; stockName: string; name: string | null } | null;
  quantity: number | null;
  /** How much: the items' value, the refund, the discount, (list − sold) × quantity. */
  amount: number;
  /** Discount: the ticket's rate; PriceOverride: list and sold unit price; Return: the ticket returned. */
  detail: { discountRate?: number; listPrice?: number; unitPrice?: number; returnOf?: string | null };
}

const person = z.object({ userName: z.string(), name: z.string() });

export const auditEvents = defineResource({
  name: 'auditevents',
  title: 'AuditEvent',
  table: 'audit_events',
  key: { field: 'id', column: 'id', type: 'string', schema: z.string() },
  schema: z.object({ id: z.string().optional() }),
  readOnly: {
    kind: z.enum(AUDIT_KINDS).describe('Void (a storno), Delete (an item of a deleted ticket), Return, Discount, PriceOverride.'),
    at: z.string(),
    day: z.string().describe("The local day (POS_HUB_TIMEZONE), YYYY-MM-DD."),
    user: person.describe('Void, Delete: who made the write; Return, Discount, PriceOverride: the waiter whose ticket it is.'),
    deviceName: z.string().nullable(),
    ticketId: z.string(),
    ticketName: z.string().nullable(),
    tableName: z.string().nullable(),
    plu: z.object({ code: z.number().int(), stockName: z.string(), name: z.string().nullable() }).nullable().describe('The item (null for a Discount, which is the whole ticket’s).'),
    quantity: z.number().nullable(),
    amount: z.number().describe('Void, Delete: the value of the items; Return: the refund; Discount: what the discounts took off; PriceOverride: (list − sold) × quantity.'),
    detail: z.object({ discountRate: z.number().optional(), listPrice: z.number().optional(), unitPrice: z.number().optional(), returnOf: z.string().nullable().optional() }),
  },
  columns: (d) => ({
    at: Date.parse(d.at),
    day: d.day,
    kind: d.kind,
    user_name: d.user.userName,
    ticket_id: d.ticketId,
    amount: toScaled(d.amount),
  }),
  filters: {
    id: { type: 'string', column: 'id' },
    kind: { type: 'enum', column: 'kind', enumValues: AUDIT_KINDS },
    day: { type: 'string', column: 'day' },
    userName: { type: 'string', column: 'user_name' },
    ticketId: { type: 'string', column: 'ticket_id' },
    at: { type: 'datetime', column: 'at' },
  },
  sorts: { at: 'at', amount: 'amount' },
  read: { right: 'ReportRead' },
  rights: { create: null, update: null, delete: null },
  without: ['post', 'put', 'delete'],
});

const dayOf = (at: Date, timeZone: string) => calendarOf(at, timeZone).day.slice(2);

interface TicketRef {
  id: string;
  name?: string | null;
  location?: { tableName?: string | null } | null;
}

/** The voids (or a deleted ticket's items) of one write, as events. */
export function voidEvents(
  lines: VoidLine[],
  ticket: TicketRef,
  by: { at: Date; userName: string; name: string; deviceName: string },
  deleted: boolean,
  timeZone: string,
  newId: () => string,
): AuditEvent[] {
  return lines.map((l) => ({
    id: newId(),
    kind: deleted ? 'Delete' : 'Void',
    at: by.at.toISOString(),
    day: dayOf(by.at, timeZone),
    user: { userName: by.userName, name: by.name },
    deviceName: by.deviceName,
    ticketId: ticket.id,
    ticketName: ticket.name ?? null,
    tableName: ticket.location?.tableName ?? null,
    plu: { code: l.plu.code, stockName: l.plu.stockName, name: l.plu.name ?? null },
    quantity: toJsonNumber(l.quantity),
    amount: toJsonNumber(l.amount),
    detail: {},
  }));
}

/**
 * What a closed ticket gave away: its returned items, its discounts and — `priceOverrides`, at the
 * close itself, while the plu's list price is the one the waiter overrode — its prices other than the
 * list's. A ticket counted later (the backfill) is compared with no list price: today's may not be the
 * one of its day.
 */
export function closeEvents(
  t: ClosedTicket & TicketRef & { returnOf?: string | null },
  timeZone: string,
  lookups: Lookups,
  newId: () => string,
  opts: { priceOverrides: boolean },
): AuditEvent[] {
  const at = new Date(t.closeDate);
  const base = {
    at: at.toISOString(),
    day: dayOf(at, timeZone),
    user: { userName: t.employee?.userName ?? '', name: t.employee?.name || t.employee?.userName || '' },
    deviceName: t.closeInfo?.deviceName ?? null,
    ticketId: t.id,
    ticketName: t.name ?? null,
    tableName: t.location?.tableName ?? null,
  };
  const items = t.items ?? [];
  const nets = distribute(
    items.map((i) => dec(i.totalPrice.amount)),
    t.discountRate ?? 0,
    t.totalPrice.amount,
  );
  const out: AuditEvent[] = [];
  let discounts = new D(0);
  items.forEach((item, i) => {
    const plu = { code: item.plu.code, stockName: item.plu.stockName, name: item.plu.name ?? null };
    if (item.type === 'Negative') {
      out.push({ ...base, id: newId(), kind: 'Return', plu, quantity: item.quantity, amount: toJsonNumber(nets[i].negated()), detail: { returnOf: t.returnOf ?? null } });
      return;
    }
    const options = (item.modifiers ?? []).reduce((s, o) => s.plus(dec(o.unitPrice ?? 0).times(o.quantity ?? 1)), new D(0));
    discounts = discounts.plus(roundMoney(dec(item.quantity).times(dec(item.unitPrice.amount).plus(options))).minus(nets[i]));
    const list = opts.priceOverrides ? lookups.plu(item.plu.code, item.plu.stockName)?.unitPrice : undefined;
    if (list !== undefined && list !== null && !dec(list).eq(dec(item.unitPrice.amount))) {
      out.push({
        ...base,
        id: newId(),
        kind: 'PriceOverride',
        plu,
        quantity: item.quantity,
        amount: toJsonNumber(roundMoney(dec(list).minus(dec(item.unitPrice.amount)).times(dec(item.quantity)))),
        detail: { listPrice: list, unitPrice: item.unitPrice.amount },
      });
    }
  });
  if (!discounts.isZero()) out.push({ ...base, id: newId(), kind: 'Discount', plu: null, quantity: null, amount: toJsonNumber(discounts), detail: { discountRate: t.discountRate ?? 0 } });
  return out;
}
