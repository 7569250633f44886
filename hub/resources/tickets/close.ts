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
import { type EkasaInfo, type FiscalResult, type Receipt, type ReceiptOrigin } from '../../../drivers/fiscal/types.js';
import { DeviceError } from '../../../drivers/faults.js';
import { fiscalDriverNamed, type FiscalDriver } from '../../../drivers/fiscal/registry.js';
import type { ReceiptMailer } from '../../mail/receipts.js';
import { inTransaction, whenDurable } from '../../../db/client.js';
import { requireRight, requireSale, type Caller } from '../../http/caller.js';
import { errors } from '../../http/errors.js';
import type { Logger } from '../../core/log.js';
import { D, dec, toJsonNumber } from '../../core/money.js';
import { isEmailAddress } from '../../core/rules.js';
import type { Doc, EngineContext } from '../../engine/define.js';
import { cents, MAX_INT32, MAX_MAGNITUDE, nameKey } from '../../engine/fields.js';
import { getStored, type StoredDoc } from '../../engine/repo.js';
import { newId } from '../../core/ids.js';
import type { ResourceService } from '../../engine/service.js';
import type { FiscalDevices, TimedDevice } from '../fiscaldevices/devices.js';
import { paymentTypeName } from '../paymenttypes/resource.js';
import { devices } from '../devices/resource.js';
import { requireOpen, type Ticket, type Tickets } from './resource.js';
import { checkSaleStock, saleItems } from '../stocktransfers/stock.js';
import { recordServerTransfer } from '../stocktransfers/resource.js';
import { finishJob, insertPendingJob, issuedJobResult, jobRow, pendingJobs, type FiscalJobRow } from './store.js';
import { catalogOf } from '../catalog/catalog.js';
import { recordTicketClose } from '../../reports/store.js';

export const closeContextSchema = z.object({
  fiscalName: nameKey().optional(),
  payments: z.array(z.object({ paymentTypeNumber: z.number().int().min(1).max(MAX_INT32), amount: cents() })).min(1).max(20),
  receipt: z
    .object({
      print: z.boolean().default(true),
      // Empty (or null) means no e-mail receipt (CONTRACT §11).
      email: z.string().trim().max(254).nullable().default(''),
    })
    .default({ print: true, email: '' }),
});

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

/** What the fiscal job keeps of the receipt (its `result`): closeInfo's fiscal part, and when it was issued. */
interface FiscalOutcome {
  number: number;
  dailySalesReportNumber: number;
  fiscalMemorySerialNumber: string;
  ekasa?: EkasaInfo;
  /**
   * When the device issued the receipt (ISO 8601), as well as the hub can tell: what a storno receipt
   * refunding it quotes (ReceiptOrigin.date). The ticket's closeDate is when the hub recorded the close,
   * which after a lost answer may be long after (issue 27, point 5).
   */
  date?: string;
  /** The receipt's unique sale number (Bulgarian УНП), when the device gave one: a storno receipt quotes it. */
  unp?: string;
}

const outcomeOf = (r: FiscalResult): FiscalOutcome => ({
  number: r.number,
  date: r.date,
  ...(r.unp ? { unp: r.unp } : {}),
  dailySalesReportNumber: r.dailySalesReportNumber,
  fiscalMemorySerialNumber: r.fiscalMemorySerialNumber,
  ...(r.ekasa ? { ekasa: r.ekasa } : {}),
});

export class TicketCloser {
  constructor(
    private readonly ctx: EngineContext,
    private readonly tickets: ResourceService<Tickets>,
    private readonly fiscal: FiscalDevices,
    private readonly log: Logger,
    private readonly mail: ReceiptMailer | null = null,
  ) {}

  async close(caller: Caller, id: string, body: z.output<typeof closeContextSchema>): Promise<Doc> {
    requireSale(caller);
    requireRight(caller, 'TicketClose');
    const stored = this.tickets.getStored(id);
    // A retry of a close that went through answers the closed ticket and issues nothing (CONTRACT §11,
    // whoever retries: the waiter who lost the reply may retry from another register).
    if (stored.doc.state === 'Closed') return this.tickets.present(stored);
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

  private async closeLocked(caller: Caller, id: string, body: z.output<typeof closeContextSchema>, ticket: StoredDoc<Ticket>): Promise<Doc> {
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
    if (email && !isEmailAddress(email)) throw errors.member('receipt.email', 'tickets.notEmail', { value: email });
    const fiscalName = body.fiscalName ?? this.defaultFiscalName(caller);
    if (!fiscalName) throw errors.member('fiscalName', 'tickets.noFiscalName', {}, 'Required');
    const config = this.fiscal.config(fiscalName);
    if (!config) throw errors.member('fiscalName', 'fiscal.notFound', { name: fiscalName });
    if (!config.isActive) throw errors.forbidden('fiscal.inactive', { name: fiscalName });
    const items = ticket.doc.items;
    if (items.length === 0) throw errors.member('items', 'tickets.noItems');
    checkSaleStock(this.ctx, items);
    // `print: false` is the customer declining paper; the driver skips it only where its device may (see Receipt.print).
    // Slovak cash rounding applies where the receipt is registered by an eKasa service (CONTRACT §8).
    const receipt: Receipt = { ...this.receipt(caller, ticket.doc, body.payments, { cashRounding: fiscalDriverNamed(config.driver)?.cashRounding }), print: body.receipt.print };
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
    const settings = caller.device.settings ?? (getStored(this.ctx.db, devices, caller.device.name)?.doc.settings);
    return settings?.DefaultFiscalName || undefined;
  }

  /**
   * Payments checked against the total (CONTRACT §6, §11, §12); the receipt the device is asked to
   * issue. A sale is paid with amounts > 0, and only what was paid in a changeable type (cash) may
   * come back as change. A return (a negative total) is paid out with amounts ≤ 0 that add up to
   * exactly the total, and needs Storno.
   *
   * `cashRounding` (an eKasa device, CONTRACT §8): the part of the total left to pay in the Cash-category
   * payment types is rounded to 5 cents (the driver's cashRounding), and the payments must cover — a return: pay out
   * exactly — the total plus that rounding; change is what was paid beyond it. `rounding` is signed:
   * what the customer pays more than the total (+0.02 for 3.48 paid as 3.50 in cash), or less (−).
   */
  private receipt(caller: Caller, ticket: Ticket, payments: Array<{ paymentTypeNumber: number; amount: number }>, opts: { cashRounding: FiscalDriver['cashRounding'] }): Receipt {
    const total = dec(ticket.totalPrice.amount);
    const isReturn = total.lt(0);
    if (isReturn) requireRight(caller, 'Storno');
    let paid = new D(0);
    let changeable = new D(0);
    let cash = new D(0);
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
      if (type.doc.category === 'Cash') cash = cash.plus(amount);
      paid = paid.plus(amount);
      return { kind: type.doc.category, name: paymentTypeName(type.doc, p.paymentTypeNumber), amount: amount.toFixed(2) };
    });
    if (paid.abs().gt(MAX_MAGNITUDE)) throw errors.member('payments', 'tickets.paymentsOutOfRange', { paid: paid.toFixed(2) }, 'OutOfRange');
    // What is left to pay in cash once the other payments are counted; rounded only when cash pays some of it.
    const cashDue = total.minus(paid.minus(cash));
    const rounding = opts.cashRounding && !cash.isZero() && (isReturn ? cashDue.lt(0) : cashDue.gt(0)) ? opts.cashRounding(cashDue.toFixed(2)).minus(cashDue) : new D(0);
    const due = total.plus(rounding);
    const dueParams = { paid: paid.toFixed(2), total: total.toFixed(2), due: due.toFixed(2) };
    if (isReturn && !paid.eq(due)) throw errors.member('payments', rounding.isZero() ? 'tickets.returnExact' : 'tickets.returnExactRounded', dueParams, 'OutOfRange');
    if (paid.lt(due)) throw errors.member('payments', rounding.isZero() ? 'tickets.paymentsShort' : 'tickets.paymentsShortRounded', dueParams, 'OutOfRange');
    const change = paid.minus(due);
    // Change comes out of the changeable payments (cash): it may not exceed them, so a card is never overpaid.
    if (change.gt(changeable.gt(0) ? changeable : 0)) {
      throw errors.member('payments', 'tickets.overpaid', { change: change.toFixed(2), changeable: D.max(changeable, 0).toFixed(2) });
    }
    const returnOf = ticket.returnOf ? this.originOf(String(ticket.returnOf)) : undefined;
    const catalog = catalogOf(this.ctx.db);
    return {
      reference: String(ticket.id),
      ...(returnOf ? { returnOf } : {}),
      operator: caller.userName,
      lines: ticket.items.map((i) => {
        const plu = catalog.plu(i.plu.code, i.plu.stockName);
        const options = i.modifiers.reduce((s, m) => s.plus(dec(m.unitPrice).times(m.quantity)), new D(0));
        return {
          name: i.plu.name,
          quantity: dec(i.quantity).toString(),
          unitPrice: dec(i.unitPrice.amount).plus(options).toString(),
          vatRate: dec(plu?.vatRate ?? 0).toString(),
          vatCategory: plu?.vatCategory ?? 0,
          discountRate: dec(i.discountRate).toString(),
          total: dec(i.totalPrice.amount).toFixed(2),
        };
      }),
      discountRate: dec(ticket.discountRate).toString(),
      total: total.toFixed(2),
      payments: lines,
      ...(rounding.isZero() ? {} : { rounding: rounding.toFixed(2) }),
      change: change.toFixed(2),
    };
  }

  /**
   * The fiscal receipt a return refunds, as the original ticket's close recorded it (its device, number,
   * day, fiscal memory, and eKasa's UUID and OKP): what a device needs to issue the refund against it
   * (eKasa's Returned items refer to it). Undefined when the original holds no receipt.
   */
  private originOf(ticketId: string): ReceiptOrigin | undefined {
    const original = getStored(this.ctx.db, this.tickets.def, ticketId);
    const info = original?.doc.closeInfo;
    if (!original || !info) return undefined;
    // When the receipt was issued and the УНП it carries, as its job recorded them; a close recorded
    // before jobs kept them: the close's time, and no УНП (the driver rebuilds it).
    const stored = issuedJobResult(this.ctx.db, ticketId);
    const issued = stored ? (JSON.parse(stored) as Partial<FiscalOutcome>) : {};
    return {
      ticketId,
      fiscalName: info.fiscalName,
      number: info.number,
      date: issued.date ?? String(original.doc.closeDate),
      ...(issued.unp ? { unp: issued.unp } : {}),
      dailySalesReportNumber: info.dailySalesReportNumber,
      fiscalMemorySerialNumber: info.fiscalMemorySerialNumber,
      ...(info.ekasa ? { ekasa: { ...(info.ekasa.uuid ? { uuid: info.ekasa.uuid } : {}), ...(info.ekasa.okp ? { okp: info.ekasa.okp } : {}), receiptNumber: info.ekasa.receiptNumber } } : {}),
    };
  }

  /**
   * Settles a job whose outcome is unknown (a lost reply, an error after printing, a crash); call it
   * on the job's device queue. The device is asked for its last document: nothing newer than the
   * number seen before the job, or a newer document that is no receipt of the job's amount (a void, a
   * report), means the receipt was not issued (the job fails, a close may print afresh); a newer
   * receipt of the job's amount means it was, and the ticket is closed from it. A device that cannot answer leaves the job Pending: 503. Answers the closed
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
      // The device keeps the job id with the receipt (eKasa's externalId) and says exactly: null only
      // when it holds none. A lookup that cannot answer throws, and the job stays Pending (503; the
      // ticket takes no edits, 423) until one can: never "not issued" on a guess.
      // When the job was sent: a hub started again since has no answer of its own to count the service's time from.
      const found = await device.findReceipt(job.id, new Date(job.created_at));
      if (!found) {
        this.finishJob(job.id, 'Failed', null, 'the device holds no receipt for this job');
        return undefined;
      }
      this.log.warn({ jobId: job.id, ticketId: job.ticket_id, number: found.number }, 'fiscal receipt found by its job id after its answer was lost; recording it');
      return this.store(job, outcomeOf(found));
    }
    // A device that cannot answer leaves the job Pending (FiscalDevices.run answers 503).
    const last = await device.lastDocument();
    const status = await device.status();
    const before = job.last_number_before ?? 0;
    const request = JSON.parse(job.request) as JobRequest;
    // Jobs on one device run one at a time and are settled before the next is printed, and the device
    // settles a receipt left open before it answers (finished if paid, voided if not), so a document
    // numbered after `before` that is a receipt of the job's amount is the job's receipt. A void or a
    // report answers amount 0 (issue 27, point 7): never taken for a receipt, whatever its number. A
    // device may tell a refund's sum without its sign (a Datecs storno receipt), so sizes are compared.
    const amount = last ? dec(last.amount).abs() : null;
    const issued = !!last && last.number > before && !!amount && !amount.isZero() && amount.eq(dec(request.receipt.total).abs());
    if (!issued) {
      this.finishJob(job.id, 'Failed', null, 'the device did not issue the receipt');
      return undefined;
    }
    this.log.warn({ jobId: job.id, ticketId: job.ticket_id, number: last.number }, 'fiscal receipt was issued although the reply was lost; recording it');
    return this.store(job, {
      // The device's own number for the receipt (a void or report in between does not shift it, issue 19).
      number: last.number,
      // The device printed it after the job was written and before its answer was lost: the job's time
      // is the closest the hub knows (the device's lastDocument date is the time it was asked, now).
      date: new Date(job.created_at).toISOString(),
      ...(last.unp ? { unp: last.unp } : {}),
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
      const doc = {
        ...ticket.doc,
        state: 'Closed' as const,
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
          // Slovak cash rounding: what the customer paid more (+) or less (−) than the total.
          ...(receipt.rounding ? { rounding: { amount: toJsonNumber(dec(receipt.rounding)) } } : {}),
        },
      } satisfies Ticket;
      this.finishJob(job.id, 'Done', result, null);
      // Sales lower stock in the close's own transaction: one Sale document per closed ticket.
      const sold = saleItems(this.ctx, doc.items);
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
