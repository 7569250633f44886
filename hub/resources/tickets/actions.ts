/**
 * Batch actions (PATCH /api/tickets?action=Handover|Takeover|Relocate) and the preliminary bill.
 * A batch is all or nothing: every ticket is checked and stored in one transaction.
 */
import { activeUserDoc } from './store.js';
import { z } from 'zod';
import { inTransaction } from '../../../db/client.js';
import { requireRight, requireSale, type Caller } from '../../http/caller.js';
import { errors } from '../../http/errors.js';
import { enqueuePrintJob, getJob, type PrintJob } from '../../printing/store.js';
import { devices } from '../devices/resource.js';
import type { Doc, EngineContext } from '../engine/define.js';
import { idKey, nameKey, nullableText } from '../engine/fields.js';
import { getStored } from '../engine/repo.js';
import type { ResourceService } from '../engine/service.js';
import { orderEndpoints } from '../orderendpoints/resource.js';
import { paymentTypeName, paymentTypes } from '../paymenttypes/resource.js';
import { issuedReceiptOf } from './store.js';
import { requireNotBusy, requireOpen, requireUpdateOf } from './resource.js';

export const TICKET_ACTIONS = ['Handover', 'Takeover', 'Relocate'] as const;
export type Action = (typeof TICKET_ACTIONS)[number];

const ids = z.array(idKey()).min(1).max(500);
export const actionSchemas = {
  Handover: z.object({ ids, userName: z.string().min(1).max(64) }),
  Takeover: z.object({ ids }),
  Relocate: z.object({ ids, location: z.object({ tableName: nullableText().default(null), zoneName: nullableText().default(null) }) }),
};

export const preliminarySchema = z.object({ orderEndpointName: nameKey().optional() });
/** The body of print_receipt_copy: where to print, like the preliminary bill's. */
export const receiptCopySchema = preliminarySchema;

function isOwn(caller: Caller, ticket: Doc): boolean {
  return (ticket.employee as { userName?: string } | null)?.userName === caller.userName;
}

export class TicketActions {
  constructor(
    private readonly ctx: EngineContext,
    private readonly tickets: ResourceService,
  ) {}

  /** `body` as its action's schema reads it (PATCH /api/tickets). */
  batch(caller: Caller, action: Action, body: { ids: string[]; userName?: string; location?: Doc }): Doc[] {
    requireSale(caller);
    if (new Set(body.ids).size !== body.ids.length) throw errors.member('ids', 'tickets.idTwice', {}, 'Unique');
    let employee: { userName: string; name: string } | undefined;
    if (action === 'Handover') {
      const user = activeUserDoc(this.ctx.db, body.userName!);
      if (!user) throw errors.member('userName', 'tickets.noActiveUser', { user: String(body.userName) });
      const u = JSON.parse(user) as { userName: string; name: string };
      employee = { userName: u.userName, name: u.name ?? '' };
    }
    if (action === 'Takeover') {
      requireRight(caller, 'TicketTakeover');
      requireRight(caller, 'TicketUpdateAny');
      employee = { userName: caller.userName, name: caller.name };
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
        if (action === 'Handover') {
          requireRight(caller, 'TicketHandover');
          if (!isOwn(caller, s.doc)) requireRight(caller, 'TicketUpdateAny');
        }
        if (action === 'Relocate') requireUpdateOf(caller, s.doc);
        const next: Doc = action === 'Relocate' ? { ...s.doc, location: body.location } : { ...s.doc, employee };
        return this.tickets.store(undefined, id, next, s);
      });
    });
  }

  /** Queues the bill before payment; 204 once the job is durably stored (CONTRACT §2). */
  preliminary(caller: Caller, id: string, body: z.output<typeof preliminarySchema>): void {
    requireSale(caller);
    requireRight(caller, 'TicketPrintPreliminary');
    const ticket = this.tickets.getStored(id);
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
    const ticket = this.tickets.get(id, caller);
    requireClosed(ticket, 'tickets.openNoCopy');
    const name = this.printerFor(caller, body.orderEndpointName);
    // The payments as the issued receipt named them (the fiscal journal keeps it; the ticket stores
    // only type numbers, and a type renamed since must not change the copy). A ticket closed without
    // the hub's journal (imported, generated) names them as the types are named now.
    const issued = issuedReceiptOf(this.ctx.db, id);
    const payments = issued
      ? issued.payments.map((p) => ({ name: p.name, amount: Number(p.amount) }))
      : (ticket.payments as Array<{ paymentTypeNumber: number; amount: number }>).map((p) => ({
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
    const name = asked ?? (device?.doc.settings as Record<string, string> | undefined)?.DefaultOrderEndpointName;
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
export function requireClosed(ticket: Doc, refusal: 'tickets.openNoCopy' | 'tickets.openNoReturn'): void {
  if (ticket.state !== 'Closed') throw errors.member('id', refusal, { id: String(ticket.id) });
}
