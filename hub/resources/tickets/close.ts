/**
 * Closing a ticket (CONTRACT §6): validate, fiscalize on the device, then store closeInfo.
 * Exactly once: a fiscal job row is written before the device is asked, so a lost reply, a
 * device that errs after printing, or a crash is reconciled against the device's last document
 * instead of printing a second receipt. Receipts on one device are printed one at a time, and a
 * job left unsettled is settled before the device prints the next one, so the reconciliation
 * cannot mistake another ticket's receipt for this one's. Until then the ticket takes no edits
 * (423). Device I/O never happens inside a transaction.
 */
import { z } from 'zod';
import { type EkasaInfo, type FiscalResult, type PaymentKind, type Receipt } from '../../../drivers/fiscal/types.js';
import { DeviceError } from '../../../drivers/faults.js';
import type { ReceiptMailer } from '../../mail/receipts.js';
import { inTransaction, whenDurable } from '../../../db/client.js';
import { requireRight, requireSale, type Caller } from '../../http/caller.js';
import { errors } from '../../http/errors.js';
import type { Logger } from '../../core/log.js';
import { D, dec, toJsonNumber } from '../../core/money.js';
import type { Doc, EngineContext } from '../engine/define.js';
import { decimal, MAX_INT32, MAX_MAGNITUDE, nameKey } from '../engine/fields.js';
import { getStored, type StoredDoc } from '../engine/repo.js';
import { newId, type ResourceService } from '../engine/service.js';
import { parseOr400 } from '../engine/validate.js';
import type { FiscalDevices, TimedDevice } from '../fiscaldevices/devices.js';
import { paymentTypeName } from '../paymenttypes/resource.js';
import { devices } from '../devices/resource.js';
import { requireOpen } from './resource.js';
import { saleItems } from '../stocktransfers/stock.js';
import { recordServerTransfer } from '../stocktransfers/resource.js';
import { finishJob, insertPendingJob, jobRow, pendingJobs, type FiscalJobRow } from './store.js';
import { catalogOf } from '../catalog/catalog.js';
import { recordTicketClose } from '../../reports/store.js';

export const closeContextSchema = z.object({
  fiscalName: nameKey().optional(),
  payments: z.array(z.object({ paymentTypeNumber: z.number().int().min(1).max(MAX_INT32), amount: decimal() })).min(1).max(20),
  receipt: z
    .object({
      print: z.boolean().default(true),
      // Empty (or null) means no e-mail receipt (CONTRACT §11).
      email: z.string().trim().max(254).nullable().default(''),
    })
    .default({ print: true, email: '' }),
});

const EMAIL = /^[^@\s"<>(),;:]+@[^@\s"<>(),;:]+\.[^@\s"<>(),;:]+$/;
type Payment = { paymentTypeNumber: number; amount: number };

/** What a fiscal job remembers of its close, so a receipt settled later closes the ticket as it was printed. */
interface JobRequest {
  receipt: Receipt;
  payments: Payment[];
  deviceName: string;
  userName: string;
  /** The e-mail receipt's address, queued with the close whenever the receipt is settled ('' or absent: none). */
  email?: string;
}

interface FiscalOutcome {
  number: number;
  dailySalesReportNumber: number;
  fiscalMemorySerialNumber: string;
  ekasa?: EkasaInfo;
}

const outcomeOf = (r: FiscalResult): FiscalOutcome => ({
  number: r.number,
  dailySalesReportNumber: r.dailySalesReportNumber,
  fiscalMemorySerialNumber: r.fiscalMemorySerialNumber,
  ...(r.ekasa ? { ekasa: r.ekasa } : {}),
});

export class TicketCloser {
  constructor(
    private readonly ctx: EngineContext,
    private readonly tickets: ResourceService,
    private readonly fiscal: FiscalDevices,
    private readonly log: Logger,
    private readonly mail: ReceiptMailer | null = null,
  ) {}

  async close(caller: Caller, id: string, raw: Record<string, unknown>): Promise<Doc> {
    requireSale(caller);
    requireRight(caller, 'TicketClose');
    const stored = this.tickets.getStored(id);
    // A retry of a close that went through answers the closed ticket and issues nothing.
    if (stored.doc.state === 'Closed') return this.tickets.present(stored);
    const body = parseOr400(closeContextSchema, raw);
    const lockKey = `tickets:${id}`;
    if (this.ctx.busy.has(lockKey)) throw errors.locked('tickets.closingElsewhere', { id });
    this.ctx.busy.add(lockKey);
    try {
      // Read in this same synchronous turn as the lock was taken: still the ticket as stored.
      return await this.closeLocked(caller, id, body, stored);
    } finally {
      this.ctx.busy.delete(lockKey);
    }
  }

  private async closeLocked(caller: Caller, id: string, body: z.output<typeof closeContextSchema>, ticket: StoredDoc): Promise<Doc> {
    if (ticket.doc.state === 'Closed') return this.tickets.present(ticket);
    requireOpen(ticket.doc);
    // A receipt of an earlier attempt whose reply was lost is settled first, on its own device; if it
    // was issued, it closes the ticket as it was printed (its payments, its device), whatever this body says.
    const earlier = pendingJobs(this.ctx.db, { ticketId: id })[0];
    if (earlier) {
      const closed = await this.fiscal.run(earlier.fiscal_name, (device) => this.settle(earlier.id, device));
      if (closed) return closed;
    }

    const email = body.receipt.email ?? '';
    if (email && !EMAIL.test(email)) throw errors.member('receipt.email', 'tickets.notEmail', { value: email });
    const fiscalName = body.fiscalName ?? this.defaultFiscalName(caller);
    if (!fiscalName) throw errors.member('fiscalName', 'tickets.noFiscalName', {}, 'Required');
    const config = this.fiscal.config(fiscalName);
    if (!config) throw errors.member('fiscalName', 'fiscal.notFound', { name: fiscalName });
    if (!config.isActive) throw errors.forbidden('fiscal.inactive', { name: fiscalName });
    const items = ticket.doc.items as Doc[];
    if (items.length === 0) throw errors.member('items', 'tickets.noItems');
    // `print: false` is the customer declining paper; the driver skips it only where its device may (see Receipt.print).
    const receipt: Receipt = { ...this.receipt(caller, ticket.doc, body.payments), print: body.receipt.print };
    const request: JobRequest = { receipt, payments: body.payments, deviceName: caller.device.name, userName: caller.userName, email };

    return this.fiscal.run(fiscalName, async (device) => {
      // Another ticket's receipt left unsettled on this device is settled before a new one is printed,
      // so "the device's last number moved" can only mean that receipt.
      await this.settlePending(fiscalName, device);
      const before = (await device.lastDocument())?.number ?? 0;
      const jobId = newId();
      // In the group's batch (no commit of its own): the sync below, or the answer's, makes it durable.
      inTransaction(this.ctx.db, () => insertPendingJob(this.ctx.db, { id: jobId, ticketId: id, fiscalName, request, lastNumberBefore: before, at: this.ctx.clock.now().getTime() }));
      // The journal row is on disk before the device is asked: after a power cut the hub still knows a
      // receipt may have been issued, and reconciles instead of issuing a second one (issue 16). A
      // device whose memory is this database (the simulator) is taken back with it: no wait needed.
      if (!device.memoryInHubDatabase) await whenDurable(this.ctx.db);
      let printed: FiscalOutcome;
      try {
        printed = outcomeOf(await device.printReceipt(receipt, jobId));
      } catch (e) {
        if (!(e instanceof DeviceError && e.outcomeUnknown)) {
          this.finishJob(jobId, 'Failed', null, e);
          throw e;
        }
        this.log.warn({ ticketId: id, fiscalName, err: e.message }, 'fiscal receipt outcome unknown; asking the device');
        const closed = await this.settle(jobId, device);
        if (closed) return closed;
        throw e;
      }
      return this.store(jobRow(this.ctx.db, jobId)!, printed);
    });
  }

  /**
   * Settles every receipt left pending on this device (a lost reply, a hub stopped between print and
   * commit); call it on the device's queue (inside FiscalDevices.run). Reports and the settling at
   * start and when a device answers again run it first, so nothing comes between a receipt and its settling.
   */
  async settlePending(fiscalName: string, device: TimedDevice): Promise<void> {
    for (const job of pendingJobs(this.ctx.db, { fiscalName })) await this.settle(job.id, device);
  }

  private defaultFiscalName(caller: Caller): string | undefined {
    // The device's settings as the session check read them for this request (kept until the device
    // changes); a caller made without a session (a script's) carries none: then the stored device's.
    const settings = caller.device.settings ?? (getStored(this.ctx.db, devices, caller.device.name)?.doc.settings as Record<string, string> | undefined);
    return settings?.DefaultFiscalName || undefined;
  }

  /**
   * Payments checked against the total (CONTRACT §6, §11, §12); the receipt the device is asked to
   * issue. A sale is paid with amounts > 0, and only what was paid in a changeable type (cash) may
   * come back as change. A return (a negative total) is paid out with amounts ≤ 0 that add up to
   * exactly the total, and needs Storno.
   */
  private receipt(caller: Caller, ticket: Doc, payments: Array<{ paymentTypeNumber: number; amount: number }>): Receipt {
    const total = dec((ticket.totalPrice as { amount: number }).amount);
    const isReturn = total.lt(0);
    if (isReturn) requireRight(caller, 'Storno');
    let paid = new D(0);
    let changeable = new D(0);
    const lines: Receipt['payments'] = payments.map((p, i) => {
      const type = catalogOf(this.ctx.db).paymentType(p.paymentTypeNumber);
      if (!type) throw errors.member(`payments[${i}].paymentTypeNumber`, 'tickets.paymentTypeNotFound', { number: p.paymentTypeNumber });
      if (type.doc.isActive !== true) throw errors.member(`payments[${i}].paymentTypeNumber`, 'tickets.paymentTypeInactive', { number: p.paymentTypeNumber });
      const amount = dec(p.amount);
      if (isReturn ? amount.gt(0) : amount.lte(0)) {
        throw errors.member(
          `payments[${i}].amount`,
          isReturn ? 'tickets.returnPaidOut' : 'tickets.paymentPositive',
          { total: total.toFixed(2) },
          'OutOfRange',
        );
      }
      if (type.doc.isChangeable === true) changeable = changeable.plus(amount);
      paid = paid.plus(amount);
      return { kind: type.doc.category as PaymentKind, name: paymentTypeName(type.doc, p.paymentTypeNumber), amount: amount.toFixed(2) };
    });
    if (paid.abs().gt(MAX_MAGNITUDE)) throw errors.member('payments', 'tickets.paymentsOutOfRange', { paid: paid.toFixed(2) }, 'OutOfRange');
    if (isReturn && !paid.eq(total)) throw errors.member('payments', 'tickets.returnExact', { total: total.toFixed(2), paid: paid.toFixed(2) }, 'OutOfRange');
    if (paid.lt(total)) throw errors.member('payments', 'tickets.paymentsShort', { paid: paid.toFixed(2), total: total.toFixed(2) }, 'OutOfRange');
    const change = paid.minus(total);
    // Change comes out of the changeable payments (cash): it may not exceed them, so a card is never overpaid.
    if (change.gt(changeable.gt(0) ? changeable : 0)) {
      throw errors.member('payments', 'tickets.overpaid', { change: change.toFixed(2), changeable: D.max(changeable, 0).toFixed(2) });
    }
    const catalog = catalogOf(this.ctx.db);
    return {
      reference: String(ticket.id),
      operator: caller.userName,
      lines: (ticket.items as Doc[]).map((i) => {
        const plu = catalog.plu((i.plu as { code: number }).code, (i.plu as { stockName: string }).stockName);
        const options = (i.modifiers as Array<{ unitPrice: number; quantity: number }>).reduce((s, m) => s.plus(dec(m.unitPrice).times(m.quantity)), new D(0));
        return {
          name: String((i.plu as { name: string }).name),
          quantity: dec(i.quantity as number).toString(),
          unitPrice: dec((i.unitPrice as { amount: number }).amount).plus(options).toString(),
          vatRate: dec(plu?.vatRate ?? 0).toString(),
          vatCategory: plu?.vatCategory ?? 0,
          discountRate: dec(i.discountRate as number).toString(),
          total: dec((i.totalPrice as { amount: number }).amount).toFixed(2),
        };
      }),
      discountRate: dec(ticket.discountRate as number).toString(),
      total: total.toFixed(2),
      payments: lines,
      change: change.toFixed(2),
    };
  }

  /**
   * Settles a job whose outcome is unknown (a lost reply, an error after printing, a crash); call it
   * on the job's device queue. The device is asked for its last document: nothing newer than the
   * number seen before the job means the receipt was not issued (the job fails, a close may print
   * afresh); the next number (with the job's amount) or a later one means it was, and the ticket is
   * closed from it. A device that cannot answer leaves the job Pending: 503. Answers the closed
   * ticket, or undefined when the receipt was not issued.
   */
  private async settle(jobId: string, device: TimedDevice): Promise<Doc | undefined> {
    const job = jobRow(this.ctx.db, jobId);
    if (!job) return undefined;
    if (job.state !== 'Pending') {
      const ticket = getStored(this.ctx.db, this.tickets.def, job.ticket_id);
      return job.state === 'Done' && ticket ? this.tickets.present(ticket) : undefined;
    }
    if (device.findReceipt) {
      // The device keeps the job id with the receipt (eKasa's externalId): it says exactly.
      const found = await device.findReceipt(job.id);
      if (!found) {
        this.finishJob(job.id, 'Failed', null, 'the device did not issue the receipt');
        return undefined;
      }
      return this.store(job, outcomeOf(found));
    }
    // A device that cannot answer leaves the job Pending (FiscalDevices.run answers 503).
    const last = await device.lastDocument();
    const status = await device.status();
    const before = job.last_number_before ?? 0;
    const request = JSON.parse(job.request) as JobRequest;
    // Jobs on one device run one at a time and are settled before the next is printed, so the
    // receipt printed right after `before` is this job's, unless the device's own next document
    // shows another amount (something outside the hub printed it, and this job never did).
    const issued = !!last && last.number > before && (last.number > before + 1 || dec(last.amount).eq(dec(request.receipt.total)));
    if (!issued) {
      this.finishJob(job.id, 'Failed', null, 'the device did not issue the receipt');
      return undefined;
    }
    this.log.warn({ jobId: job.id, ticketId: job.ticket_id, number: before + 1 }, 'fiscal receipt was issued although the reply was lost; recording it');
    return this.store(job, {
      // The device's own number for its last receipt when that is this job's (the amounts agree):
      // a void or report in between must not shift it (issue 19, defect 6).
      number: !last || last.number === before + 1 || !dec(last.amount).eq(dec(request.receipt.total)) ? before + 1 : last.number,
      dailySalesReportNumber: status.dailySalesReportNumber ?? 0,
      fiscalMemorySerialNumber: status.fiscalMemorySerialNumber ?? '',
    });
  }

  private finishJob(jobId: string, state: 'Done' | 'Failed', result: unknown, error: unknown): void {
    const message = error instanceof Error ? error.message : error ? String(error) : null;
    inTransaction(this.ctx.db, () => finishJob(this.ctx.db, jobId, state, result, message, this.ctx.clock.now().getTime()));
  }

  /** Closes the ticket of `job` from the receipt the device issued, in one transaction with the job's end. */
  private store(job: FiscalJobRow, result: FiscalOutcome): Doc {
    const { receipt, payments, deviceName, userName, email } = JSON.parse(job.request) as JobRequest;
    const id = job.ticket_id;
    const fiscalName = job.fiscal_name;
    return inTransaction(this.ctx.db, () => {
      // With its columns: the close's UPDATE then sets only those that change (ticket.columns).
      const ticket = this.tickets.getStoredRow(id);
      if (ticket.doc.state === 'Closed') {
        this.finishJob(job.id, 'Done', result, null);
        return this.tickets.present(ticket);
      }
      const doc: Doc = {
        ...ticket.doc,
        state: 'Closed',
        closeDate: this.ctx.clock.now().toISOString(),
        payments: payments.map((p) => ({ paymentTypeNumber: p.paymentTypeNumber, amount: toJsonNumber(dec(p.amount)) })),
        change: toJsonNumber(dec(receipt.change)),
        closeInfo: {
          deviceName,
          fiscalName,
          number: result.number,
          dailySalesReportNumber: result.dailySalesReportNumber,
          fiscalMemorySerialNumber: result.fiscalMemorySerialNumber,
          ...(result.ekasa ? { ekasa: result.ekasa } : {}),
        },
      };
      this.finishJob(job.id, 'Done', result, null);
      // Sales lower stock in the close's own transaction: one Sale document per closed ticket.
      const sold = saleItems(this.ctx, doc.items as Array<{ plu: { code: number; stockName: string }; type: string; quantity: number }>);
      if (sold.length) recordServerTransfer(this.ctx, { type: 'Sale', userName, ticketId: id, items: sold });
      const closed = this.tickets.store(undefined, id, doc, ticket);
      // The running sales totals grow with the close, in its transaction (issue 21).
      recordTicketClose(this.ctx.db, doc, this.ctx.timeZone, catalogOf(this.ctx.db).totalsLookups());
      // The e-mail receipt is queued in the same transaction: it exists if and only if the close does.
      if (email && this.mail) this.mail.enqueue({ to: email, ticket: closed, receipt });
      return closed;
    });
  }
}
