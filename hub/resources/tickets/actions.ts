/**
 * Batch actions (PATCH /api/tickets?action=Handover|Takeover|Relocate|Split) and the preliminary bill.
 * A batch is all or nothing: every ticket is checked and stored in one transaction.
 */
import { activeUserDoc } from './store.js';
import { z } from 'zod';
import { inTransaction } from '../../../db/client.js';
import { requireRight, requireSale, type Caller } from '../../http/caller.js';
import { errors } from '../../http/errors.js';
import { enqueuePrintJob, getJob, type PrintJob } from '../../printing/store.js';
import { devices } from '../devices/resource.js';
import type { Doc, EngineContext } from '../../engine/define.js';
import { decimal, idKey, MAX_INT32, nameKey, nullableText, text } from '../../engine/fields.js';
import { deleteStored, getStored } from '../../engine/repo.js';
import { dec, toJsonNumber } from '../../core/money.js';
import { fieldMessage } from '../../i18n/say.js';
import type { ResourceService } from '../../engine/service.js';
import { orderEndpoints } from '../orderendpoints/resource.js';
import { paymentTypeName, paymentTypes } from '../paymenttypes/resource.js';
import { issuedReceiptOf } from './store.js';
import { lastOrderOf, requireNotBusy, requireOpen, requireUpdateOf, type SplitMove, type StoredItem, type Ticket, type Tickets } from './resource.js';

export const TICKET_ACTIONS = ['Handover', 'Takeover', 'Relocate', 'Split'] as const;
export type Action = (typeof TICKET_ACTIONS)[number];

const ids = z.array(idKey()).min(1).max(500);
export const actionSchemas = {
  Handover: z.object({ ids, userName: z.string().min(1).max(64) }),
  Takeover: z.object({ ids }),
  Relocate: z.object({ ids, location: z.object({ tableName: nullableText().default(null), zoneName: nullableText().default(null) }) }),
  Split: z.object({
    ids: z.array(idKey()).length(1).describe('The one open ticket the items come from.'),
    items: z
      .array(
        z.object({
          id: z.number().int().min(1).max(MAX_INT32).describe("The item's `id` on the source ticket."),
          quantity: decimal().refine((n) => n > 0, fieldMessage('field.positive')).describe('How much of it moves (at most its quantity).'),
        }),
      )
      .min(1)
      .max(1000),
    target: z
      .object({
        id: idKey().describe('An open ticket to add the items to, or the id of a new one (a register makes its own ids).'),
        name: text().optional().describe('A new ticket only: its name.'),
        location: z.object({ tableName: nullableText().default(null), zoneName: nullableText().default(null) }).nullable().optional().describe('A new ticket only: its table.'),
      })
      .describe('Where the items go.'),
  }),
};

type SplitBody = z.output<(typeof actionSchemas)['Split']>;
/** A batch's body as the route read it, with its action's schema. */
export type BatchBody = z.output<(typeof actionSchemas)[Action]>;

/** The route read the body with the schema of its action: a Split's names its target. */
function splitOf(body: BatchBody): SplitBody {
  if (!('target' in body)) throw new Error('a Split body without its target');
  return body;
}

/** A stored item as a body carries it (prices and discounts as they are; names and totals are the server's). */
const itemBody = (i: StoredItem, id = i.id, quantity = i.quantity) => ({
  id,
  plu: { code: i.plu.code, stockName: i.plu.stockName },
  type: i.type,
  quantity,
  unitPrice: { amount: i.unitPrice.amount },
  discountRate: i.discountRate,
  modifiers: i.modifiers.map((m) => ({ modifierId: m.modifierId, optionId: m.optionId, quantity: m.quantity })),
  comment: i.comment,
});

/** A stored ticket (or what a new one starts from) as a PUT body would carry it, with `items` in its place. */
const ticketBody = (
  doc: Pick<Ticket, 'id' | 'name' | 'purchaseType' | 'discountRate' | 'location'> & Partial<Pick<Ticket, 'externalId' | 'currencyLabel' | 'customer' | 'note'>>,
  items: unknown[],
): Record<string, unknown> => ({
  id: doc.id,
  externalId: doc.externalId ?? null,
  name: doc.name,
  purchaseType: doc.purchaseType,
  currencyLabel: doc.currencyLabel ?? null,
  discountRate: doc.discountRate,
  customer: doc.customer ? { id: doc.customer.id } : null,
  location: doc.location ?? null,
  note: doc.note ?? null,
  items,
});

export const preliminarySchema = z.object({ orderEndpointName: nameKey().optional() });
/** The body of print_receipt_copy: where to print, like the preliminary bill's. */
export const receiptCopySchema = preliminarySchema;

function isOwn(caller: Caller, ticket: Ticket): boolean {
  return ticket.employee?.userName === caller.userName;
}

export class TicketActions {
  constructor(
    private readonly ctx: EngineContext,
    private readonly tickets: ResourceService<Tickets>,
  ) {}

  /** `body` as its action's schema reads it (PATCH /api/tickets). */
  batch(caller: Caller, action: Action, body: BatchBody): Doc[] {
    requireSale(caller);
    if (new Set(body.ids).size !== body.ids.length) throw errors.member('ids', 'tickets.idTwice', {}, 'Unique');
    if (action === 'Split') return this.split(caller, splitOf(body));
    // What the action changes on each ticket (the body has its action's members).
    let change: (ticket: Ticket) => Ticket;
    if (action === 'Handover' && 'userName' in body) {
      // The right before the lookup: without it, the answer must not tell which users exist (least privilege).
      requireRight(caller, 'TicketHandover');
      const user = activeUserDoc(this.ctx.db, body.userName);
      if (!user) throw errors.member('userName', 'tickets.noActiveUser', { user: body.userName });
      const employee = { userName: user.userName, name: user.name ?? '' };
      change = (ticket) => ({ ...ticket, employee });
    } else if (action === 'Relocate' && 'location' in body) {
      const location = body.location;
      change = (ticket) => ({ ...ticket, location });
    } else if (action === 'Takeover') {
      requireRight(caller, 'TicketTakeover');
      requireRight(caller, 'TicketUpdateAny');
      const employee = { userName: caller.userName, name: caller.name };
      change = (ticket) => ({ ...ticket, employee });
    } else {
      throw new Error(`a ${action} body without its members`);
    }
    return inTransaction(this.ctx.db, () => {
      const stored = body.ids.map((id, i) => {
        const s = getStored(this.ctx.db, this.tickets.def, id);
        if (!s) throw errors.member(`ids[${i}]`, 'tickets.notFound', { id });
        requireNotBusy(this.ctx, id);
        requireOpen(s.doc);
        return { id, s };
      });
      return stored.map(({ id, s }) => {
        if (action === 'Handover' && !isOwn(caller, s.doc)) requireRight(caller, 'TicketUpdateAny');
        if (action === 'Relocate') requireUpdateOf(caller, s.doc);
        return this.tickets.store(undefined, id, change(s.doc), s);
      });
    });
  }

  /**
   * Split (issue 29): moves quantities of items from one open ticket to another open one, or to a new
   * one under the id the register made, in one transaction. The moved items keep their plu, price,
   * discount, modifiers and comment, and get the next free ids on the target; what is left of each stays
   * on the source, which is deleted when nothing is left (tables joined). The bill as a whole does not
   * change, so no kitchen order, no void, and no Storno right: TicketUpdate for one's own tickets and
   * TicketUpdateAny for others' (as Relocate), TicketCreate for a new target. Totals are the ticket
   * arithmetic of each side (CONTRACT §6).
   */
  private split(caller: Caller, body: SplitBody): Doc[] {
    const sourceId = body.ids[0];
    const targetId = body.target.id;
    if (targetId === sourceId) throw errors.member('target.id', 'tickets.splitSameTicket', { id: sourceId });
    return inTransaction(this.ctx.db, () => {
      const source = getStored(this.ctx.db, this.tickets.def, sourceId);
      if (!source) throw errors.member('ids[0]', 'tickets.notFound', { id: sourceId });
      requireNotBusy(this.ctx, sourceId);
      requireOpen(source.doc);
      requireUpdateOf(caller, source.doc);
      if (source.doc.returnOf) throw errors.member('ids[0]', 'tickets.splitReturn', { id: sourceId });
      const target = getStored(this.ctx.db, this.tickets.def, targetId);
      if (target) {
        requireNotBusy(this.ctx, targetId);
        requireOpen(target.doc);
        if (target.doc.returnOf) throw errors.member('target.id', 'tickets.splitReturn', { id: targetId });
      } else {
        requireRight(caller, 'TicketCreate');
      }

      const left = new Map(source.doc.items.map((i) => [i.id, dec(i.quantity)]));
      const targetItems = (target?.doc.items ?? []).map((i) => itemBody(i));
      let nextId = Math.max(0, ...targetItems.map((i) => i.id)) + 1;
      const seen = new Set<number>();
      body.items.forEach((m, k) => {
        const item = source.doc.items.find((i) => i.id === m.id);
        if (!item) throw errors.member(`items[${k}].id`, 'tickets.splitNoItem', { id: sourceId, item: m.id });
        if (seen.has(m.id)) throw errors.member(`items[${k}].id`, 'tickets.splitItemTwice', { item: m.id }, 'Unique');
        seen.add(m.id);
        const rest = left.get(m.id)!.minus(dec(m.quantity));
        if (rest.lt(0)) throw errors.member(`items[${k}].quantity`, 'tickets.splitAtMost', { item: m.id, max: item.quantity }, 'OutOfRange');
        left.set(m.id, rest);
        targetItems.push(itemBody(item, nextId++, m.quantity));
      });
      const sourceItems = source.doc.items.filter((i) => left.get(i.id)!.gt(0)).map((i) => itemBody(i, i.id, toJsonNumber(left.get(i.id)!)));

      const move: SplitMove = { split: true, lastOrderDate: lastOrderOf(source.doc) };
      const targetDoc = target
        ? ticketBody(target.doc, targetItems)
        : { ...ticketBody({ id: targetId, name: body.target.name ?? '', purchaseType: source.doc.purchaseType, location: body.target.location ?? null, discountRate: 0 }, targetItems) };
      const out: Doc[] = [];
      if (sourceItems.length) {
        out.push(this.tickets.store(caller, sourceId, this.tickets.validate(ticketBody(source.doc, sourceItems), sourceId).body, source, move));
      } else {
        // Everything moved (tables joined): nothing is left to pay here.
        deleteStored(this.ctx.db, this.tickets.def, sourceId, source.v + 1, this.ctx.clock.now().getTime());
      }
      out.push(this.tickets.store(caller, targetId, this.tickets.validate(targetDoc, targetId).body, target, move));
      return out;
    });
  }

  /** Queues the bill before payment; 204 once the job is durably stored (CONTRACT §2). */
  preliminary(caller: Caller, id: string, body: z.output<typeof preliminarySchema>): void {
    requireSale(caller);
    requireRight(caller, 'TicketPrintPreliminary');
    // The bill shows the whole ticket: only one the caller may read (CONTRACT §12), so a closed sale
    // of another device or user needs TicketReadAll, as its receipt copy does.
    const ticket = this.tickets.read(id, caller);
    const name = this.printerFor(caller, body.orderEndpointName);
    inTransaction(this.ctx.db, () => {
      enqueuePrintJob(this.ctx.db, {
        endpointName: name,
        kind: 'preliminary',
        refId: id,
        payload: { ticket: this.tickets.present(ticket), requestedBy: caller.userName, deviceName: caller.device.name },
        at: this.ctx.clock.now().getTime(),
      });
    });
  }

  /**
   * Queues a non-fiscal copy of a closed ticket's receipt, marked COPY (issue 21). Not a ticket write:
   * it changes nothing on the ticket and asks no fiscal device, so it needs no Sale environment; the
   * caller must be able to read the ticket (TicketReadAll, or a sale of their own device or user).
   */
  receiptCopy(caller: Caller, id: string, body: z.output<typeof receiptCopySchema>): PrintJob {
    const stored = this.tickets.read(id, caller);
    requireClosed(stored.doc, 'tickets.openNoCopy');
    const ticket = this.tickets.present(stored, caller);
    const name = this.printerFor(caller, body.orderEndpointName);
    // The payments as the issued receipt named them (the fiscal journal keeps it; the ticket stores
    // only type numbers, and a type renamed since must not change the copy). A ticket closed without
    // the hub's journal (imported, generated) names them as the types are named now.
    const issued = issuedReceiptOf(this.ctx.db, id);
    const payments = issued
      ? issued.payments.map((p) => ({ name: p.name, amount: Number(p.amount) }))
      : stored.doc.payments.map((p) => ({
          name: paymentTypeName(getStored(this.ctx.db, paymentTypes, p.paymentTypeNumber)?.doc, p.paymentTypeNumber),
          amount: p.amount,
        }));
    const jobId = inTransaction(this.ctx.db, () =>
      enqueuePrintJob(this.ctx.db, {
        endpointName: name,
        kind: 'receiptCopy',
        refId: id,
        payload: { ticket, payments, requestedBy: caller.userName, deviceName: caller.device.name },
        at: this.ctx.clock.now().getTime(),
      }),
    );
    return getJob(this.ctx.db, jobId)!;
  }

  /** The printer a bill goes to: the one asked for, else the calling device's DefaultOrderEndpointName; active and not a display. */
  private printerFor(caller: Caller, asked: string | undefined): string {
    const device = getStored(this.ctx.db, devices, caller.device.name);
    const name = asked ?? device?.doc.settings.DefaultOrderEndpointName;
    if (!name) throw errors.member('orderEndpointName', 'tickets.noOrderEndpoint', {}, 'Required');
    const endpoint = getStored(this.ctx.db, orderEndpoints, name);
    if (!endpoint) throw errors.member('orderEndpointName', 'endpoint.notFound', { name });
    if (endpoint.doc.isActive !== true) throw errors.forbidden('endpoint.inactive', { name });
    if (endpoint.doc.type === 'Tablet') throw errors.forbidden('endpoint.displayNoBill', { name });
    return name;
  }
}

/**
 * A receipt copy and a return start from a closed ticket. An open one is a 400 (the request asks for
 * something that does not exist yet), not §2's 403/8, which says a closed ticket refuses a change.
 */
export function requireClosed(ticket: Pick<Ticket, 'id' | 'state'>, refusal: 'tickets.openNoCopy' | 'tickets.openNoReturn'): void {
  if (ticket.state !== 'Closed') throw errors.member('id', refusal, { id: String(ticket.id) });
}
