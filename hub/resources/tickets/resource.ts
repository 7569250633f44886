/**
 * Tickets (CONTRACT §6): declared for the engine like every resource; the rules that make a POS a
 * POS (Sale environment, PORTOS rights, storno, exact totals, kitchen orders) live in the hooks.
 */
import { ERR } from '../../http/api-docs.js';
import { z } from 'zod';
import { hasRight, opensPrices, requireRight, requireSale, type Caller } from '../../http/caller.js';
import { errors } from '../../http/errors.js';
import type { Right } from '../../http/rights.js';
import { centsToFixed, centsToNumber, toScaled } from '../../core/money.js';
import { customers, customerStatus } from '../customers/resource.js';
import { defineResource, type BodyOf, type DocOf, type EngineContext } from '../../engine/define.js';
import { idKeyed } from '../../engine/keys.js';
import { decimal, enumOf, idKey, MAX_INT32, MAX_MAGNITUDE, nameKey, nullableText, rate, text } from '../../engine/fields.js';
import { bool } from '../../engine/refs.js';
import { getStored } from '../../engine/repo.js';
import { itemTotalCents, ticketTotalCents } from './math.js';
import { vatBreakdown } from '../../core/vat.js';
import { recordTicketVoids } from '../../reports/store.js';
import { createOrders, orderDeltas } from './orders.js';
import { customerIdOfCard, hasPendingJob, ticketSql } from './store.js';
import { catalogOf } from '../catalog/catalog.js';
import { fastTicketBody } from './fast-body.js';
import { readableTickets } from '../../engine/visibility.js';
import { fieldMessage } from '../../i18n/say.js';
import { PURCHASE_TYPES, TICKET_FILTERS as F, TICKET_STATES } from '../../http/ticket-filters.js';

export { PURCHASE_TYPES, TICKET_STATES } from '../../http/ticket-filters.js';
export const ITEM_TYPES = ['Positive', 'Negative'] as const;

const itemSchema = z.object({
  id: z.number().int().min(1).max(MAX_INT32).optional(),
  plu: z.object({ code: z.number().int().min(0), stockName: nameKey(), name: text().optional() }),
  type: enumOf(ITEM_TYPES).default('Positive'),
  quantity: decimal().refine((n) => n > 0, fieldMessage('field.positiveItemQuantity')),
  unitPrice: z.object({ amount: decimal() }).optional(),
  discountRate: rate().default(0),
  modifiers: z
    .array(z.object({ modifierId: idKey(), optionId: idKey(), quantity: z.number().int().min(1).max(1000).default(1) }))
    .max(50)
    .default([]),
  comment: nullableText().default(null),
});

/** An item as stored and answered: the plu's name, the price used, the chosen options priced, the exact total. */
const itemAnswer = itemSchema.extend({
  id: z.number().int(),
  plu: itemSchema.shape.plu.extend({ name: z.string() }),
  unitPrice: z.object({ amount: z.number() }),
  modifiers: z.array(z.object({ modifierId: z.string(), optionId: z.string(), name: z.string(), quantity: z.number().int(), unitPrice: z.number() })),
  totalPrice: z.object({ amount: z.number() }),
});

const locationSchema = z.object({ tableName: nullableText().default(null), zoneName: nullableText().default(null) });

const paymentSchema = z.object({ paymentTypeNumber: z.number().int(), amount: z.number(), name: z.string().optional() });
const closeInfoSchema = z.object({
  deviceName: z.string(),
  fiscalName: z.string(),
  number: z
    .number()
    .int()
    .describe(
      "The fiscal device's receipt number. Not unique on its own: an eKasa service numbers its receipts from 1 again every month (a receipt is identified by `ekasa.uuid` when registered online, by `ekasa.okp` always), a Datecs printer within its fiscal memory.",
    ),
  dailySalesReportNumber: z.number().int(),
  fiscalMemorySerialNumber: z.string().describe('The fiscal memory; for an eKasa service, the cash register code (ORP).'),
  /** Slovak eKasa registrations only (driver `ekasa`, CONTRACT §8). */
  ekasa: z
    .object({
      uuid: z.string().optional().describe("The receipt's id in the eKasa system (`O-` and 32 hex digits), once registered online; absent while offline."),
      okp: z.string().optional().describe("The cash register's verification code of the receipt (OKP, 5 × 8 hex digits), printed on every receipt: what identifies it, online or offline."),
      receiptNumber: z.number().int().describe('The receipt number the service gave it (from 1 again each month).'),
      offline: z.boolean().describe('Registered offline (HTTP 202): stored in the protected storage and printed, sent to the eKasa system later.'),
      qrCode: z.string().describe('What the QR code on the printed or e-mailed receipt holds: the UUID when registered online, else OKP:ORP code:date:number:amount.'),
    })
    .optional(),
  rounding: z
    .object({ amount: z.number().describe('What the customer paid more than the total (+0.02: 3.48 paid as 3.50) or less (−0.02: 3.47 paid as 3.45); on a return, paid out more (−) or less (+).') })
    .optional()
    .describe('Slovak cash rounding (an `ekasa` device, CONTRACT §8): the cash part rounded to 5 cents. Absent: nothing rounded.'),
});

/** What POST /api/tickets/{id}/return hands the engine's write (as its `extra`): the ticket returned. */
export interface ReturnStart {
  returnOf: string;
}

/**
 * What PATCH /api/tickets?action=Split hands the engine's write (as its `extra`): items move from one
 * open ticket to another as they are. Nothing is taken off the bill or added to it, so the move makes
 * no kitchen order and no void, and needs none of the rights for taking items back (Storno) or for
 * choosing prices and discounts: the moved items keep the ones they had.
 */
export interface SplitMove {
  split: true;
  /**
   * When the moved items were last ordered: the source's lastOrderDate (its openDate when stored before
   * the field existed). Moving them orders nothing, so "minutes since the last order" goes on from it.
   */
  lastOrderDate: string | null;
}

/** The later of two ISO 8601 instants (the hub writes them all as toISOString(): they sort as text); null when both are. */
function latestOf(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

/** What a write brings beside the body (`extra`): a split's move, or a return's start. */
const isSplitMove = (extra: unknown): extra is SplitMove => typeof extra === 'object' && extra !== null && 'split' in extra && extra.split === true;
const returnStartOf = (extra: unknown): string | undefined =>
  typeof extra === 'object' && extra !== null && 'returnOf' in extra && typeof extra.returnOf === 'string' ? extra.returnOf : undefined;

/** When a ticket last sent something to the kitchen; a ticket stored before lastOrderDate existed: its openDate. */
export function lastOrderOf(ticket: { lastOrderDate?: string | null; openDate: string }): string | null {
  return ticket.lastOrderDate === undefined ? (ticket.openDate ?? null) : ticket.lastOrderDate;
}

type CustomerRef = { id: string; fullName: string; cardSerialNumber: string | null; discountRate: number };

/** Completes a `{id}` or `{cardSerialNumber}` reference from the stored customer (unknown: 400). */
function resolveCustomer(ctx: EngineContext, ref: { id?: string; cardSerialNumber?: string | null } | null, before: CustomerRef | null): CustomerRef | null {
  if (!ref || (!ref.id && !ref.cardSerialNumber)) return null;
  let id = ref.id;
  if (ref.cardSerialNumber) {
    const holder = customerIdOfCard(ctx.db, ref.cardSerialNumber);
    if (!holder) throw errors.member('customer.cardSerialNumber', 'tickets.noCardHolder', { card: ref.cardSerialNumber });
    if (id && holder !== id) throw errors.member('customer.cardSerialNumber', 'tickets.cardOtherCustomer', { card: ref.cardSerialNumber, id });
    id = holder;
  }
  if (!id) return null;
  const stored = getStored(ctx.db, customers, id);
  if (!stored) throw errors.member('customer.id', 'tickets.customerNotFound', { id });
  // A deactivated card (lost, stolen) no longer names its holder nor brings their discount; a ticket that
  // took the card while it was active keeps it, so the waiter can still edit and close that ticket.
  const card = ref.cardSerialNumber ? stored.doc.cards.find((c) => c.serialNumber === ref.cardSerialNumber) : undefined;
  if (card && !card.isActive && before?.cardSerialNumber !== card.serialNumber) {
    throw errors.member('customer.cardSerialNumber', 'tickets.cardInactive', { card: card.serialNumber });
  }
  return {
    id,
    fullName: stored.doc.fullName ?? '',
    cardSerialNumber: ref.cardSerialNumber ?? null,
    discountRate: stored.doc.discountRate,
  };
}

/**
 * The rate a ticket may take without TicketSetDiscount (CONTRACT §6: the customer's own discountRate):
 * only while the customer is Valid. An expired or not yet valid customer's discount is not in force.
 */
function customerRateInForce(ctx: EngineContext, customer: CustomerRef | null): number | undefined {
  if (!customer) return undefined;
  const stored = getStored(ctx.db, customers, customer.id);
  return stored && customerStatus(stored.doc, ctx.clock.now()) === 'Valid' ? customer.discountRate : undefined;
}

type ItemInput = z.output<typeof itemSchema>;
/** An item as stored and answered. */
export type StoredItem = z.output<typeof itemAnswer>;
type ModifierChoice = { modifierId: string; optionId: string; name: string; quantity: number; unitPrice: number };

/** Checks the chosen options against each modifier's min/max rules; returns them with names and prices. */
function resolveModifiers(ctx: EngineContext, item: ItemInput, index: number): ModifierChoice[] {
  const byModifier = new Map<string, ItemInput['modifiers']>();
  item.modifiers.forEach((m) => byModifier.set(m.modifierId, [...(byModifier.get(m.modifierId) ?? []), m]));
  const out: ModifierChoice[] = [];
  for (const [modifierId, chosen] of byModifier) {
    const member = `items[${index}].modifiers`;
    const m = catalogOf(ctx.db).modifier(modifierId);
    if (!m) throw errors.member(member, 'tickets.modifierNotFound', { id: modifierId });
    const distinct = new Set(chosen.map((c) => c.optionId));
    if (distinct.size < m.minimumSelectedOptionsCount) throw errors.member(member, 'tickets.modifierMin', { id: modifierId, count: m.minimumSelectedOptionsCount }, 'OutOfRange');
    if (m.maximumSelectedOptionsCount > 0 && distinct.size > m.maximumSelectedOptionsCount) {
      throw errors.member(member, 'tickets.modifierMax', { id: modifierId, count: m.maximumSelectedOptionsCount }, 'OutOfRange');
    }
    const totalQuantity = chosen.reduce((s, c) => s + c.quantity, 0);
    if (m.maximumSelectedOptionsTotalQuantity > 0 && totalQuantity > m.maximumSelectedOptionsTotalQuantity) {
      throw errors.member(member, 'tickets.modifierMaxQuantity', { id: modifierId, count: m.maximumSelectedOptionsTotalQuantity }, 'OutOfRange');
    }
    for (const c of chosen) {
      const option = m.options.find((o) => o.id === c.optionId);
      if (!option) throw errors.member(member, 'tickets.modifierNoOption', { id: modifierId, option: c.optionId });
      if (option.maximumSelectedQuantity !== null && c.quantity > option.maximumSelectedQuantity) {
        throw errors.member(member, 'tickets.optionMaxQuantity', { option: c.optionId, count: option.maximumSelectedQuantity }, 'OutOfRange');
      }
      out.push({ modifierId, optionId: c.optionId, name: option.name || option.id, quantity: c.quantity, unitPrice: option.unitPrice?.amount ?? 0 });
    }
  }
  return out;
}

const MAX_CENTS = BigInt(MAX_MAGNITUDE) * 100n;

/** A computed total (in cents) beyond ±1e9 (CONTRACT §12) is refused, naming where it arose. */
function requireInRange(member: string, cents: bigint): void {
  if (cents > MAX_CENTS || cents < -MAX_CENTS) throw errors.member(member, 'tickets.totalOutOfRange', { total: centsToFixed(cents) }, 'OutOfRange');
}

/**
 * Items with ids, plu names, default prices, modifiers and exact totals; and which items carry a unit
 * price of their own (other than their plu's), for the TicketSetPrice rule.
 */
function completeItems(ctx: EngineContext, items: ItemInput[]): { items: StoredItem[]; ownPrices: Array<{ id: number; amount: number }>; vatRates: number[]; cents: bigint[] } {
  const ownPrices: Array<{ id: number; amount: number }> = [];
  const vatRates: number[] = [];
  const cents: bigint[] = [];
  const seen = new Set<number>();
  let next = Math.max(0, ...items.map((i) => i.id ?? 0)) + 1;
  // Every plu of the ticket at once: kept ones from the catalog, the others in one statement.
  const plus = catalogOf(ctx.db).plusOf(items.map((item) => item.plu));
  const completed = items.map((item, i) => {
    const id = item.id ?? next++;
    if (seen.has(id)) throw errors.member(`items[${i}].id`, 'tickets.itemTwice', { id }, 'Unique');
    seen.add(id);
    const plu = plus[i];
    if (!plu) throw errors.member(`items[${i}].plu`, 'plu.notInStock', { code: item.plu.code, stock: item.plu.stockName });
    const unitPrice = item.unitPrice?.amount ?? plu.unitPrice ?? 0;
    // Two numbers of at most 4 places are the same decimal exactly when they are the same number.
    if (unitPrice !== (plu.unitPrice ?? 0)) ownPrices.push({ id, amount: unitPrice });
    vatRates.push(plu.vatRate ?? 0);
    const chosen = resolveModifiers(ctx, item, i);
    const total = itemTotalCents({
      type: item.type,
      quantity: item.quantity,
      unitPrice,
      discountRate: item.discountRate,
      optionPrices: chosen.map((c) => ({ unitPrice: c.unitPrice, quantity: c.quantity })),
    });
    requireInRange(`items[${i}].totalPrice`, total);
    cents.push(total);
    return {
      id,
      plu: { code: item.plu.code, stockName: item.plu.stockName, name: plu.name },
      type: item.type,
      quantity: item.quantity,
      unitPrice: { amount: unitPrice },
      discountRate: item.discountRate,
      modifiers: chosen,
      comment: item.comment,
      totalPrice: { amount: centsToNumber(total) },
    };
  });
  return { items: completed, ownPrices, vatRates, cents };
}

/** The ticket's VAT split as JSON numbers. */
function vatRows(lines: Array<{ vatRate: number; total: number }>, discountRate: number, totalCents: bigint): Array<{ rate: number; base: number; vat: number; gross: number }> {
  return vatBreakdown(lines, discountRate, centsToFixed(totalCents)).map((r) => ({
    rate: Number(r.rate),
    base: Number(r.base),
    vat: Number(r.vat),
    gross: Number(r.gross),
  }));
}

/** What the rules read of a stored ticket (the tickets resource's document). */
interface TicketState {
  id: string;
  name: string;
  state: string;
  location: { tableName: string | null } | null;
  employee: { userName: string } | null;
}

/** Items a write takes off (a storno) or a delete discards count as voids in the sales totals and the audit, in this write's transaction. */
function recordVoids(ctx: EngineContext, caller: Caller, ticket: TicketState, before: StoredItem[], after: StoredItem[], deleted = false): void {
  const by = { at: ctx.clock.now(), userName: caller.userName, name: caller.name, deviceName: caller.device.name };
  recordTicketVoids(ctx.db, ticket, { before, after }, by, ctx.timeZone, deleted);
}

function isOwn(caller: Caller, ticket: Pick<TicketState, 'employee'>): boolean {
  return ticket.employee?.userName === caller.userName;
}

/** TicketUpdate for one's own ticket, TicketUpdateAny (alone) for another's. */
export function requireUpdateOf(caller: Caller, ticket: Pick<TicketState, 'employee'>, own: Right = 'TicketUpdate'): void {
  if (isOwn(caller, ticket)) requireRight(caller, own, 'TicketUpdateAny');
  else requireRight(caller, 'TicketUpdateAny');
}

export function requireOpen(ticket: Pick<TicketState, 'id' | 'state'>): void {
  if (ticket.state === 'Closed') throw errors.forbidden('tickets.closed', { id: ticket.id });
}

/**
 * A ticket the fiscal device is closing right now takes no other write (423); nor does one whose
 * receipt may be out already (a lost reply not yet settled): an edit would make it differ from the
 * receipt. The retried close settles it.
 */
export function requireNotBusy(ctx: EngineContext, id: unknown): void {
  if (ctx.busy.has(`tickets:${id}`)) throw errors.locked('tickets.beingClosed', { id: String(id) });
  if (hasPendingJob(ctx.db, String(id))) throw errors.locked('tickets.pendingClose', { id: String(id) });
}

/** Storno: lowering or removing an item a previous write stored. */
function isStorno(before: StoredItem[], after: StoredItem[]): boolean {
  const now = new Map(after.map((i) => [i.id, i]));
  return before.some((old) => {
    const cur = now.get(old.id);
    if (!cur) return true;
    const samePlu = cur.plu.code === old.plu.code && cur.plu.stockName === old.plu.stockName;
    return !samePlu || cur.type !== old.type || cur.quantity < old.quantity;
  });
}

function itemDiscountChanged(before: StoredItem[], after: StoredItem[]): boolean {
  const old = new Map(before.map((i) => [i.id, i.discountRate]));
  return after.some((i) => (old.get(i.id) ?? 0) !== i.discountRate);
}

/** A ticket write from outside the Sale environment (hooks.authorize). */
const SALE_ONLY = ERR.missingRight('A caller outside the Sale environment (a device other than CashRegister or PDA).');

export const tickets = defineResource({
  name: 'tickets',
  title: 'Ticket',
  example: { name: 'Stôl 5', location: { tableName: '5', zoneName: 'Terasa' }, items: [{ plu: { code: 101, stockName: 'Bar' }, quantity: 2 }] },
  table: 'tickets',
  key: idKeyed(),
  // A register sends `_v` only for a ticket the hub answered: the ticket was deleted meanwhile (409, not a new one).
  bodyVersionNeedsRecord: true,
  schema: z.object({
    id: idKey().optional(),
    externalId: nullableText().default(null),
    name: text().default(''),
    purchaseType: enumOf(PURCHASE_TYPES).default('WalkIn'),
    currencyLabel: nullableText().default(null),
    discountRate: rate().default(0),
    // A reference; the completed form the server answers (fullName, discountRate, a null card) is accepted back.
    customer: z.object({ id: idKey().optional(), cardSerialNumber: text().nullable().optional() }).nullable().default(null),
    location: locationSchema.nullable().default(null),
    note: nullableText().default(null),
    items: z.array(itemSchema).max(1000).default([]),
  }),
  // The schema above, without zod for the bodies registers send (fast-body.ts; zod still names what is wrong).
  fastParse: (body) => fastTicketBody(body, { purchaseTypes: PURCHASE_TYPES, purchaseTypeDefault: 'WalkIn', itemTypes: ITEM_TYPES, itemTypeDefault: 'Positive' }),
  answered: {
    customer: z.object({ id: z.string(), fullName: z.string(), cardSerialNumber: z.string().nullable(), discountRate: z.number() }).nullable(),
    items: z.array(itemAnswer),
    change: z.number().meta({ description: 'Once closed: what the cashier gave back (payments beyond the total, in changeable types).' }),
    // Answered only on returns, so not a `readOnly` (those are always answered); a body's is dropped with the other unknown fields.
    returnOf: z.string().meta({
      readOnly: true,
      description:
        'Only on a return started with POST /api/tickets/{id}/return: the id of the closed ticket whose items it returns (each item keeps the id of the item it returns). Server-owned: ignored in a body, kept across edits.',
    }),
  },
  readOnly: {
    state: z.enum(TICKET_STATES),
    originDeviceName: z.string(),
    openDate: z.string(),
    closeDate: z.string().nullable(),
    lastOrderDate: z
      .string()
      .nullable()
      .optional()
      .describe(
        'When a write last added items or raised a quantity (what sends orders to the kitchen): a table plan shows the minutes since. ' +
          'Items moved by a Split order nothing: the ticket they join keeps the later of its own time and theirs. ' +
          'Null while nothing was ordered; absent on tickets stored before it existed (take openDate).',
      ),
    employee: z.object({ userName: z.string(), name: z.string() }),
    totalPrice: z.object({ amount: z.number(), currencyLabel: z.string().nullable() }),
    payments: z.array(paymentSchema),
    closeInfo: closeInfoSchema.nullable(),
    vatBreakdown: z
      .array(z.object({ rate: z.number(), base: z.number(), vat: z.number(), gross: z.number() }))
      .optional()
      .describe('VAT per rate (prices include VAT; gross after the ticket discount, adding up to totalPrice): as of the last write. Absent on tickets stored before it existed.'),
  },
  columns: (d) => {
    const { items, closeInfo, location, customer } = d;
    const closed = d.state === 'Closed';
    return {
      is_closed: bool(closed),
      external_id: d.externalId ?? null,
      name: d.name ?? '',
      purchase_type: d.purchaseType,
      origin_device_name: d.originDeviceName,
      device_name: closed && closeInfo ? closeInfo.deviceName : d.originDeviceName,
      currency_label: d.currencyLabel ?? null,
      discount_rate: toScaled(d.discountRate),
      open_date: Date.parse(d.openDate),
      close_date: d.closeDate ? Date.parse(d.closeDate) : null,
      customer_id: customer?.id ?? null,
      customer_card_serial_number: customer?.cardSerialNumber ?? null,
      employee_user_name: d.employee?.userName ?? null,
      table_name: location?.tableName ?? null,
      zone_name: location?.zoneName ?? null,
      close_device_name: closeInfo?.deviceName ?? null,
      close_fiscal_name: closeInfo?.fiscalName ?? null,
      close_number: closeInfo?.number ?? null,
      close_daily_sales_report_number: closeInfo?.dailySalesReportNumber ?? null,
      close_fiscal_memory_serial_number: closeInfo?.fiscalMemorySerialNumber ?? null,
      has_discount: bool(d.discountRate !== 0 || items.some((i) => i.discountRate !== 0)),
      has_negative_item: bool(items.some((i) => i.totalPrice.amount < 0)),
      has_returned_item: bool(items.some((i) => i.type === 'Negative')),
      total_amount: toScaled(d.totalPrice.amount),
      return_of: d.returnOf ?? null,
    };
  },
  children: [
    {
      table: 'ticket_items',
      fk: 'ticket_id',
      // Its primary key beside ticket_id: an edit writes only the items that changed.
      key: ['item_id'],

      rows: (d) => d.items.map((i) => ({ item_id: i.id, plu_code: i.plu.code, plu_stock_name: i.plu.stockName })),
    },
  ],
  // The filters as clients write them (filters.ts, shared with HQ), each on its column here.
  filters: {
    IsClosed: { ...F.IsClosed, column: 'is_closed' },
    HasCustomer: { ...F.HasCustomer, predicate: ticketSql.hasCustomer },
    HasDiscount: { ...F.HasDiscount, column: 'has_discount' },
    HasNegativeItem: { ...F.HasNegativeItem, column: 'has_negative_item' },
    HasReturnedItem: { ...F.HasReturnedItem, column: 'has_returned_item' },
    Id: { ...F.Id, column: 'id' },
    ExternalId: { ...F.ExternalId, column: 'external_id' },
    Name: { ...F.Name, column: 'name' },
    DeviceName: { ...F.DeviceName, column: 'device_name' },
    PurchaseType: { ...F.PurchaseType, column: 'purchase_type' },
    OriginDeviceName: { ...F.OriginDeviceName, column: 'origin_device_name' },
    CurrencyLabel: { ...F.CurrencyLabel, column: 'currency_label' },
    DiscountRate: { ...F.DiscountRate, column: 'discount_rate' },
    OpenDate: { ...F.OpenDate, column: 'open_date' },
    CloseDate: { ...F.CloseDate, column: 'close_date' },
    CloseInfoDeviceName: { ...F.CloseInfoDeviceName, column: 'close_device_name' },
    CloseInfoFiscalName: { ...F.CloseInfoFiscalName, column: 'close_fiscal_name' },
    CloseInfoNumber: { ...F.CloseInfoNumber, column: 'close_number' },
    CloseInfoDailySalesReportNumber: { ...F.CloseInfoDailySalesReportNumber, column: 'close_daily_sales_report_number' },
    CloseInfoFiscalMemorySerialNumber: { ...F.CloseInfoFiscalMemorySerialNumber, column: 'close_fiscal_memory_serial_number' },
    LocationTableName: { ...F.LocationTableName, column: 'table_name' },
    LocationZoneName: { ...F.LocationZoneName, column: 'zone_name' },
    CustomerCardSerialNumber: { ...F.CustomerCardSerialNumber, column: 'customer_card_serial_number' },
    CustomerId: { ...F.CustomerId, column: 'customer_id' },
    EmployeeUserName: { ...F.EmployeeUserName, column: 'employee_user_name' },
    ReturnOf: { ...F.ReturnOf, column: 'return_of' },
    ItemPluCode: { ...F.ItemPluCode, child: { table: 'ticket_items', fk: 'ticket_id', column: 'plu_code' } },
    ItemPluStockName: { ...F.ItemPluStockName, child: { table: 'ticket_items', fk: 'ticket_id', column: 'plu_stock_name' } },
    State: { ...F.State, expr: ticketSql.state },
  },
  sorts: {
    'closeInfo.number': 'close_number',
    'closeInfo.deviceName': 'close_device_name',
    'closeInfo.dailySalesReportNumber': 'close_daily_sales_report_number',
    'location.tableName': 'table_name',
    'location.zoneName': 'zone_name',
    'employee.userName': 'employee_user_name',
    'totalPrice.amount': 'total_amount',
  },
  // A table plan lists tables in natural order ("2" before "10"), names as the shop's language sorts them.
  collate: ['name', 'location.tableName', 'LocationTableName'],
  sortKeyColumns: { name: 'name_sk', table_name: 'table_name_sk' },
  read: {
    right: 'TicketReadAll',
    // A table plan needs every open ticket; a kitchen display reads none (its endpoint's orders only).
    scope: {
      where: (caller) => readableTickets(caller, ticketSql.table),
      reads: "every open ticket and the closed ones of their own device or user (a kitchen display's session: none)",
    },
  },
  // TicketCreate only for a new id (checked in prepare): a PUT that updates needs TicketUpdate(Any), not TicketCreate.
  rights: { create: null, update: null, delete: 'TicketDelete' },
  rules: {
    notes: {
      post:
        'Only from the Sale environment (a CashRegister or PDA device), with TicketCreate. A customer also needs TicketSetCustomer; ' +
        "a non-zero discountRate, TicketSetDiscount (unless it is the customer's own while the customer is Valid). A deactivated card names no customer (400).",
      put:
        'Only from the Sale environment. A new id needs what POST needs. ' +
        "Changing a stored ticket needs TicketUpdate for one's own ticket or TicketUpdateAny for " +
        "another's, TicketRename for a new name, TicketSetDiscount for a discount change, TicketSetCustomer for another customer, " +
        'and Storno to lower or remove an item already stored. A closed ticket answers 403 (errorCode 8); a stale `_v` answers 409 ' +
        'first, and the register that re-reads the ticket finds it closed. A `_v` of 1 or more for an id with no ticket (deleted ' +
        'meanwhile) answers 409 with `resource.version` 0 instead of creating it again.',
      delete:
        "Only from the Sale environment, and only an open ticket; items already ordered get a cancel order. TicketDelete for one's own " +
        "ticket; another's needs TicketUpdateAny besides.",
    },
    errors: {
      post: [SALE_ONLY],
      put: [SALE_ONLY, ERR.stateForbids('The ticket is closed.'), ERR.locked()],
      delete: [SALE_ONLY, ERR.locked()],
    },
  },
  hooks: {
    authorize: (caller) => requireSale(caller),
    prepare({ caller, body, existing, ctx, extra }) {
      // A return started from a closed ticket copies its prices, discounts and customer from the
      // fiscal receipt: the caller chooses none of them, so none of the rights for choosing them apply.
      const returnOf = existing?.returnOf ?? returnStartOf(extra);
      const moved = isSplitMove(extra);
      const copied = (!existing && returnOf !== undefined) || moved;
      if (existing) {
        requireNotBusy(ctx, existing.id);
        requireOpen(existing);
        requireUpdateOf(caller, existing);
      } else {
        requireRight(caller, 'TicketCreate');
      }
      const customer = resolveCustomer(ctx, body.customer, existing?.customer ?? null);
      const customerBefore = existing?.customer ?? null;
      if (!copied && (customer?.id ?? null) !== (customerBefore?.id ?? null)) requireRight(caller, 'TicketSetCustomer');
      if (existing && body.name !== existing.name) requireRight(caller, 'TicketRename');
      const rateBefore = existing?.discountRate ?? 0;
      const rateNow = body.discountRate;
      if (!copied && rateNow !== rateBefore && rateNow !== customerRateInForce(ctx, customer) && !hasRight(caller, 'TicketSetDiscount')) {
        throw errors.missingRight('TicketSetDiscount');
      }
      const { items, ownPrices, vatRates, cents } = completeItems(ctx, body.items);
      const itemsBefore = existing?.items ?? [];
      if (!moved && isStorno(itemsBefore, items)) requireRight(caller, 'Storno');
      if (!copied && itemDiscountChanged(itemsBefore, items)) requireRight(caller, 'TicketSetDiscount');
      // A price of one's own (CONTRACT §12): TicketSetPrice, unless this register sells at opened prices.
      // Only prices this write sets: an item priced earlier, or whose plu's price changed since, needs nothing.
      const pricedBefore = new Map(itemsBefore.map((i) => [i.id, i.unitPrice.amount]));
      if (!copied && ownPrices.some((p) => pricedBefore.get(p.id) !== p.amount) && !opensPrices(caller.device.settings)) {
        requireRight(caller, 'TicketSetPrice');
      }
      const total = ticketTotalCents(cents, rateNow);
      requireInRange('totalPrice', total);
      // The same rule as the kitchen orders afterWrite makes: items added or a quantity raised.
      const ordered = orderDeltas(itemsBefore, items).added.length > 0;
      const now = ctx.clock.now().toISOString();
      return {
        ...body,
        customer,
        items,
        state: 'Opened',
        originDeviceName: existing?.originDeviceName ?? caller.device.name,
        openDate: existing?.openDate ?? now,
        closeDate: null,
        lastOrderDate: isSplitMove(extra) ? latestOf(existing ? lastOrderOf(existing) : null, extra.lastOrderDate) : ordered ? now : (existing?.lastOrderDate ?? null),
        employee: existing?.employee ?? { userName: caller.userName, name: caller.name },
        totalPrice: { amount: centsToNumber(total), currencyLabel: body.currencyLabel ?? null },
        // VAT per rate of the plus as they are at this write (issue 21); the receipt prints the same split.
        vatBreakdown: vatRows(
          items.map((i, k) => ({ vatRate: vatRates[k], total: i.totalPrice.amount })),
          rateNow,
          total,
        ),
        payments: [],
        closeInfo: null,
        // Server-owned: dropped from every body (readOnly), kept from the stored ticket across edits.
        ...(returnOf !== undefined ? { returnOf } : {}),
      };
    },
    afterWrite({ caller, before, after, ctx, extra }) {
      // Items moved to another ticket (a split) stay on the bill and were ordered already.
      if (isSplitMove(extra)) return;
      if (before) recordVoids(ctx, caller, after, before.items, after.items);
      const { added, cancelled } = orderDeltas(before?.items ?? [], after.items);
      if (added.length) createOrders(ctx, after, added, 'New');
      if (cancelled.length) createOrders(ctx, after, cancelled, 'Cancel');
    },
    beforeDelete({ caller, existing, ctx }) {
      requireNotBusy(ctx, existing.id);
      requireOpen(existing);
      // TicketDelete (the route's right) is all one's own ticket needs (CONTRACT §6); deleting is also the
      // last change of a ticket, so another waiter's needs TicketUpdateAny besides, as updating it does.
      if (!isOwn(caller, existing)) requireRight(caller, 'TicketUpdateAny');
      recordVoids(ctx, caller, existing, existing.items, [], true);
      const { cancelled } = orderDeltas(existing.items, []);
      if (cancelled.length) createOrders(ctx, existing, cancelled, 'Cancel');
    },
  },
});

/** The tickets' declaration; a ticket as stored, and a ticket body as the schema parses it. */
export type Tickets = typeof tickets;
export type Ticket = DocOf<Tickets>;
export type TicketBody = BodyOf<Tickets>;
