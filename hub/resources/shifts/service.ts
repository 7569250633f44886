/**
 * What a shift does beyond the engine's open, list and read (issue 28): cash movements, the close
 * with its count, and the shift report on the receipt printer (the print queue, hub/printing). A
 * register acts on its own shifts; the back office (a device outside the Sale environment) on any.
 */
import { z } from 'zod';
import { inTransaction } from '../../../db/client.js';
import { hasRight, isSale, requireRight, type Caller } from '../../http/caller.js';
import { errors } from '../../http/errors.js';
import { dec, toJsonNumber } from '../../core/money.js';
import { enqueuePrintJob, getJob, type PrintJob } from '../../printing/store.js';
import { shiftDrawer, type Movement } from '../../reports/drawer.js';
import { cashCounts, countBodySchema, shiftCount } from '../cashcounts/resource.js';
import type { Doc, DocOf, EngineContext } from '../../engine/define.js';
import { decimal, nameKey, text } from '../../engine/fields.js';
import { newId } from '../../core/ids.js';
import { getStored, type StoredDoc } from '../../engine/repo.js';
import type { ResourceService } from '../../engine/service.js';
import { devices } from '../devices/resource.js';
import { orderEndpoints } from '../orderendpoints/resource.js';
import { fieldMessage } from '../../i18n/say.js';
import { MOVEMENT_KINDS, shifts } from './resource.js';

type Shifts = typeof shifts;
type Shift = DocOf<Shifts>;

export const movementSchema = z.object({
  kind: z.enum(MOVEMENT_KINDS).describe('In: cash put into the drawer (change from the bank); Out: taken out (a supplier paid, a bank deposit).'),
  amount: decimal().positive(fieldMessage('field.positive')),
  reason: text().trim().min(1).max(200).describe('Why, as the manager will read it.'),
});

export const printSchema = z.object({
  orderEndpointName: nameKey().optional().describe("The printer; default the register's DefaultOrderEndpointName, else the calling device's."),
});

export const closeSchema = z.object({
  ...countBodySchema.shape,
  print: printSchema.optional().describe('Print the shift report (`{}`: on the default printer). Left out: no print.'),
});

export class ShiftActions {
  constructor(
    private readonly ctx: EngineContext,
    private readonly shifts: ResourceService<Shifts>,
    private readonly counts: ResourceService<typeof cashCounts>,
  ) {}

  /** Cash put into or taken out of an open shift's drawer, with its reason (CashMovement). */
  movement(caller: Caller, id: string, body: z.output<typeof movementSchema>): Doc {
    requireRight(caller, 'CashMovement');
    return inTransaction(this.ctx.db, () => {
      const stored = this.openShift(caller, id);
      const movements = stored.doc.movements ?? [];
      const next: Movement = {
        id: movements.length + 1,
        at: this.ctx.clock.now().toISOString(),
        by: { userName: caller.userName, name: caller.name },
        kind: body.kind,
        amount: toJsonNumber(dec(body.amount)),
        reason: body.reason,
      };
      return this.shifts.store(undefined, id, { ...stored.doc, movements: [...movements, next] }, stored);
    });
  }

  /**
   * Closes an open shift with a count of its drawer (CashCount): the count is stored as a cash count
   * and its figures on the shift, in one transaction; `print` queues the shift report in it too.
   */
  close(caller: Caller, id: string, body: z.output<typeof closeSchema>): Doc {
    requireRight(caller, 'CashCount');
    return inTransaction(this.ctx.db, () => {
      const stored = this.openShift(caller, id);
      const count = shiftCount(this.ctx, caller, stored.doc, body, true);
      const countId = newId();
      this.counts.store(undefined, countId, { id: countId, ...count }, undefined);
      const drawer = shiftDrawer(this.ctx.db, stored.doc);
      let closed: Shift = {
        ...stored.doc,
        ...drawer,
        state: 'Closed',
        closedAt: count.countedAt,
        closedBy: count.countedBy,
        counted: count.counted,
        denominations: count.denominations,
        difference: count.difference,
        countId,
      };
      if (body.print) closed = this.withPrint(caller, closed, body.print.orderEndpointName, 'print.orderEndpointName').doc;
      return this.shifts.store(undefined, id, closed, stored);
    });
  }

  /** Queues the shift report (so far, while open) on the receipt printer; whoever may read the shift may print it. */
  print(caller: Caller, id: string, body: z.output<typeof printSchema>): PrintJob {
    return inTransaction(this.ctx.db, () => {
      const stored = this.stored(id);
      if (!hasRight(caller, 'ReportRead') && stored.doc.deviceName !== caller.device.name) throw errors.missingRight('ReportRead');
      const { doc, job } = this.withPrint(caller, stored.doc, body.orderEndpointName, 'orderEndpointName');
      this.shifts.store(undefined, id, doc, stored);
      return job;
    });
  }

  private stored(id: string): StoredDoc<Shift> {
    const stored = getStored(this.ctx.db, shifts, id);
    if (!stored) throw errors.notFound(shifts.title, id);
    return stored;
  }

  /** An open shift the caller may act on: their own register's, or any from the back office. */
  private openShift(caller: Caller, id: string): StoredDoc<Shift> {
    const stored = this.stored(id);
    if (isSale(caller) && stored.doc.deviceName !== caller.device.name) throw errors.member('id', 'shifts.ownRegisterOnly', { device: caller.device.name });
    if (stored.doc.state !== 'Open') throw errors.forbidden('shifts.closed', { id });
    return stored;
  }

  /** The shift with a print of its report queued (its figures as presented now) and recorded. */
  private withPrint(caller: Caller, shift: Shift, asked: string | undefined, member: string): { doc: Shift; job: PrintJob } {
    const endpointName = this.printerFor(caller, shift, asked, member);
    const at = this.ctx.clock.now();
    const shown = shifts.hooks!.present!(shift, this.ctx);
    const jobId = enqueuePrintJob(this.ctx.db, {
      endpointName,
      kind: 'shiftReport',
      refId: shift.id,
      payload: { shift: shown, requestedBy: caller.name || caller.userName },
      at: at.getTime(),
    });
    const print = { jobId, orderEndpointName: endpointName, at: at.toISOString(), by: { userName: caller.userName, name: caller.name } };
    return { doc: { ...shift, reportPrints: [...(shift.reportPrints ?? []), print] }, job: getJob(this.ctx.db, jobId)! };
  }

  /** The receipt printer: the one asked for, else the register's DefaultOrderEndpointName, else the caller's device's. */
  private printerFor(caller: Caller, shift: Shift, asked: string | undefined, member: string): string {
    const defaultOf = (device: string) => getStored(this.ctx.db, devices, device)?.doc.settings.DefaultOrderEndpointName;
    const name = asked ?? defaultOf(shift.deviceName) ?? defaultOf(caller.device.name);
    if (!name) throw errors.member(member, 'tickets.noOrderEndpoint', {}, 'Required');
    const endpoint = getStored(this.ctx.db, orderEndpoints, name);
    if (!endpoint) throw errors.member(member, 'endpoint.notFound', { name });
    if (endpoint.doc.isActive !== true) throw errors.forbidden('endpoint.inactive', { name });
    if (endpoint.doc.type === 'Tablet') throw errors.forbidden('endpoint.displayNoBill', { name });
    return name;
  }
}

