/**
 * Closing a ticket (CONTRACT §6): validate, fiscalize on the device, then store closeInfo.
 * Exactly once: a fiscal job row is written before the device is asked, so a lost reply, a
 * device that errs after printing, or a crash is reconciled against the device's last document
 * instead of printing a second receipt. Device I/O never happens inside a transaction.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { DeviceError, type FiscalDevice, type PaymentKind, type Receipt } from '../../../drivers/fiscal/types.js';
import type { FiscalRegistry } from '../../../drivers/fiscal/registry.js';
import { inTransaction } from '../../../db/client.js';
import { requireRight, requireSale, type Caller } from '../../http/caller.js';
import { errors, ErrorCode, HubError } from '../../http/errors.js';
import type { Logger } from '../../log.js';
import { D, dec, toJsonNumber } from '../../money.js';
import { devices } from '../devices/resource.js';
import type { Doc, EngineContext } from '../engine/define.js';
import { decimal, nameKey } from '../engine/fields.js';
import { getStored } from '../engine/repo.js';
import { newId, type ResourceService } from '../engine/service.js';
import { parseOr400 } from '../engine/validate.js';
import { fiscalDevices } from '../fiscaldevices/resource.js';
import { paymentTypes } from '../paymenttypes/resource.js';
import { requireOpen } from './resource.js';
import { recordServerTransfer, saleItems } from '../stocktransfers/stock.js';

export const closeContextSchema = z.object({
  fiscalName: nameKey().optional(),
  payments: z.array(z.object({ paymentTypeNumber: z.number().int().min(1), amount: decimal() })).min(1).max(20),
  receipt: z
    .object({
      print: z.boolean().default(true),
      email: z.string().max(254).default(''),
    })
    .default({ print: true, email: '' }),
});

const EMAIL = /^[^@\s"<>(),;:]+@[^@\s"<>(),;:]+\.[^@\s"<>(),;:]+$/;
export const DEVICE_TIMEOUT_MS = 15_000;

/** Races a device call against its timeout; a timed-out receipt has an unknown outcome. */
export async function withTimeout<T>(call: Promise<T>, ms: number, what: string, outcomeUnknown: boolean): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeviceError('TIMEOUT', `${what} did not answer within ${ms} ms`, outcomeUnknown)), ms);
  });
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Device faults as the API answers them: 503 DeviceUnavailable with Retry-After, nothing changed. */
export function deviceUnavailable(name: string, e: unknown): HubError {
  const code = e instanceof DeviceError ? e.code : 'PROTOCOL';
  const message = e instanceof Error ? e.message : String(e);
  return new HubError(503, ErrorCode.DeviceUnavailable, `Fiscal device '${name}' is unavailable (${code}: ${message}). Nothing was changed.`, {
    headers: { 'Retry-After': '5' },
  });
}

interface FiscalJobRow {
  id: string;
  fiscal_name: string;
  last_number_before: number | null;
}

export class TicketCloser {
  constructor(
    private readonly ctx: EngineContext,
    private readonly tickets: ResourceService,
    private readonly fiscal: FiscalRegistry,
    private readonly log: Logger,
    private readonly timeoutMs = DEVICE_TIMEOUT_MS,
  ) {}

  async close(caller: Caller, id: string, raw: Record<string, unknown>): Promise<Doc> {
    requireSale(caller);
    requireRight(caller, 'TicketClose');
    const stored = this.tickets.getStored(id);
    // A retry of a close that went through answers the closed ticket and issues nothing.
    if (stored.doc.state === 'Closed') return this.tickets.present(stored);
    const body = parseOr400(closeContextSchema, raw);
    const lockKey = `tickets:${id}`;
    if (this.ctx.busy.has(lockKey)) throw errors.locked(`Ticket '${id}' is being closed by another request right now.`);
    this.ctx.busy.add(lockKey);
    try {
      return await this.closeLocked(caller, id, body);
    } finally {
      this.ctx.busy.delete(lockKey);
    }
  }

  private async closeLocked(caller: Caller, id: string, body: z.output<typeof closeContextSchema>): Promise<Doc> {
    const ticket = this.tickets.getStored(id);
    if (ticket.doc.state === 'Closed') return this.tickets.present(ticket);
    requireOpen(ticket.doc);
    if (body.receipt.email && !EMAIL.test(body.receipt.email)) throw errors.member('receipt.email', `'${body.receipt.email}' is not an e-mail address.`);
    const fiscalName = body.fiscalName ?? this.defaultFiscalName(caller);
    if (!fiscalName) throw errors.member('fiscalName', 'No fiscalName given and the device has no DefaultFiscalName setting.', 'Required');
    const config = getStored(this.ctx.db, fiscalDevices, fiscalName);
    if (!config) throw errors.member('fiscalName', `Fiscal device '${fiscalName}' does not exist.`);
    if (config.doc.isActive !== true) throw errors.forbidden(`Fiscal device '${fiscalName}' is inactive.`);
    const items = ticket.doc.items as Doc[];
    if (items.length === 0) throw errors.member('items', 'A ticket without items cannot be closed.');
    const receipt = this.receipt(caller, ticket.doc, body.payments);

    const device = this.fiscal.get({
      name: fiscalName,
      driver: String(config.doc.driver),
      address: String(config.doc.address),
      settings: (config.doc.settings as Record<string, string>) ?? {},
    });
    let result = await this.reconcilePending(id, device, fiscalName);
    if (!result) {
      let before: number;
      try {
        before = (await withTimeout(device.lastDocument(), this.timeoutMs, 'lastDocument', false))?.number ?? 0;
      } catch (e) {
        throw deviceUnavailable(fiscalName, e);
      }
      const jobId = newId();
      const now = this.ctx.clock.now().getTime();
      this.ctx.db.run(
        sql`INSERT INTO fiscal_jobs (id, ticket_id, fiscal_name, state, request, last_number_before, created_at)
            VALUES (${jobId}, ${id}, ${fiscalName}, 'Pending', ${JSON.stringify(receipt)}, ${before}, ${now})`,
      );
      try {
        const r = await withTimeout(device.printReceipt(receipt, jobId), this.timeoutMs, 'printReceipt', true);
        result = { jobId, number: r.number, dailySalesReportNumber: r.dailySalesReportNumber, fiscalMemorySerialNumber: r.fiscalMemorySerialNumber };
      } catch (e) {
        if (e instanceof DeviceError && e.outcomeUnknown) {
          this.log.warn({ ticketId: id, fiscalName, err: e.message }, 'fiscal receipt outcome unknown; asking the device');
          result = await this.reconcile({ id: jobId, fiscal_name: fiscalName, last_number_before: before }, device);
        } else {
          this.finishJob(jobId, 'Failed', null, e);
          throw deviceUnavailable(fiscalName, e);
        }
        if (!result) throw deviceUnavailable(fiscalName, e);
      }
    }
    return this.store(caller, id, fiscalName, body.payments, receipt, result);
  }

  private defaultFiscalName(caller: Caller): string | undefined {
    const device = getStored(this.ctx.db, devices, caller.device.name);
    return (device?.doc.settings as Record<string, string> | undefined)?.DefaultFiscalName || undefined;
  }

  /** Payments checked against the total; the receipt the device is asked to issue. */
  private receipt(caller: Caller, ticket: Doc, payments: Array<{ paymentTypeNumber: number; amount: number }>): Receipt {
    const total = dec((ticket.totalPrice as { amount: number }).amount);
    let paid = new D(0);
    let changeable = false;
    const lines: Receipt['payments'] = payments.map((p, i) => {
      const type = getStored(this.ctx.db, paymentTypes, p.paymentTypeNumber);
      if (!type) throw errors.member(`payments[${i}].paymentTypeNumber`, `Payment type ${p.paymentTypeNumber} does not exist.`);
      if (type.doc.isActive !== true) throw errors.member(`payments[${i}].paymentTypeNumber`, `Payment type ${p.paymentTypeNumber} is inactive.`);
      changeable ||= type.doc.isChangeable === true;
      paid = paid.plus(dec(p.amount));
      return { kind: type.doc.category as PaymentKind, name: String(type.doc.name || type.doc.category), amount: dec(p.amount).toFixed(2) };
    });
    if (paid.lt(total)) throw errors.member('payments', `The payments (${paid.toFixed(2)}) do not cover the total (${total.toFixed(2)}).`, 'OutOfRange');
    const change = paid.minus(total);
    if (change.gt(0) && !changeable) throw errors.member('payments', `An overpayment of ${change.toFixed(2)} is change, and none of these payment types gives change.`);
    return {
      reference: String(ticket.id),
      operator: caller.userName,
      lines: (ticket.items as Doc[]).map((i) => {
        const plu = this.ctx.db.get<{ rate: number | null; category: number | null }>(
          sql`SELECT json_extract(doc, '$.vatInfo.rate') AS rate, json_extract(doc, '$.vatInfo.category') AS category FROM plus
              WHERE stock_name = ${(i.plu as { stockName: string }).stockName} AND code = ${(i.plu as { code: number }).code}`,
        );
        const options = (i.modifiers as Array<{ unitPrice: number; quantity: number }>).reduce((s, m) => s.plus(dec(m.unitPrice).times(m.quantity)), new D(0));
        return {
          name: String((i.plu as { name: string }).name),
          quantity: dec(i.quantity as number).toString(),
          unitPrice: dec((i.unitPrice as { amount: number }).amount).plus(options).toString(),
          vatRate: dec(plu?.rate ?? 0).toString(),
          vatCategory: plu?.category ?? 0,
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

  /** A job left Pending (a crash, or a lost reply we could not settle) is settled before printing again. */
  private async reconcilePending(ticketId: string, device: FiscalDevice, fiscalName: string) {
    const pending = this.ctx.db.all<FiscalJobRow>(
      sql`SELECT id, fiscal_name, last_number_before FROM fiscal_jobs WHERE ticket_id = ${ticketId} AND state = 'Pending' ORDER BY created_at`,
    );
    for (const job of pending) {
      const result = await this.reconcile(job, job.fiscal_name === fiscalName ? device : device);
      if (result) return result;
    }
    return undefined;
  }

  /**
   * Did the device issue the receipt of `job`? Its last document number moved past the one seen
   * before the job: yes. It did not: the job failed and may be printed afresh. The device cannot
   * say: the job stays Pending and the close answers 503.
   */
  private async reconcile(job: FiscalJobRow, device: FiscalDevice) {
    let last;
    let status;
    try {
      last = await withTimeout(device.lastDocument(), this.timeoutMs, 'lastDocument', false);
      status = await withTimeout(device.status(), this.timeoutMs, 'status', false);
    } catch (e) {
      throw deviceUnavailable(job.fiscal_name, e);
    }
    if (last && last.number > (job.last_number_before ?? 0)) {
      this.log.warn({ jobId: job.id, number: last.number }, 'fiscal receipt was issued although the reply was lost; recording it');
      return {
        jobId: job.id,
        number: last.number,
        dailySalesReportNumber: status.dailySalesReportNumber ?? 0,
        fiscalMemorySerialNumber: status.fiscalMemorySerialNumber ?? '',
      };
    }
    this.finishJob(job.id, 'Failed', null, 'the device did not issue the receipt');
    return undefined;
  }

  private finishJob(jobId: string, state: 'Done' | 'Failed', result: unknown, error: unknown): void {
    const message = error instanceof Error ? error.message : error ? String(error) : null;
    this.ctx.db.run(
      sql`UPDATE fiscal_jobs SET state = ${state}, result = ${result === null ? null : JSON.stringify(result)}, error = ${message},
          finished_at = ${this.ctx.clock.now().getTime()} WHERE id = ${jobId}`,
    );
  }

  private store(
    caller: Caller,
    id: string,
    fiscalName: string,
    payments: Array<{ paymentTypeNumber: number; amount: number }>,
    receipt: Receipt,
    result: { jobId: string; number: number; dailySalesReportNumber: number; fiscalMemorySerialNumber: string },
  ): Doc {
    return inTransaction(this.ctx.db, () => {
      const ticket = this.tickets.getStored(id);
      const doc: Doc = {
        ...ticket.doc,
        state: 'Closed',
        closeDate: this.ctx.clock.now().toISOString(),
        payments: payments.map((p) => ({ paymentTypeNumber: p.paymentTypeNumber, amount: toJsonNumber(dec(p.amount)) })),
        change: toJsonNumber(dec(receipt.change)),
        closeInfo: {
          deviceName: caller.device.name,
          fiscalName,
          number: result.number,
          dailySalesReportNumber: result.dailySalesReportNumber,
          fiscalMemorySerialNumber: result.fiscalMemorySerialNumber,
        },
      };
      this.finishJob(result.jobId, 'Done', result, null);
      // Sales lower stock in the close's own transaction: one Sale document per closed ticket.
      const sold = saleItems(this.ctx, doc.items as Array<{ plu: { code: number; stockName: string }; type: string; quantity: number }>);
      if (sold.length) recordServerTransfer(this.ctx, { type: 'Sale', userName: caller.userName, ticketId: id, items: sold });
      return this.tickets.store(undefined, id, doc, ticket);
    });
  }
}
