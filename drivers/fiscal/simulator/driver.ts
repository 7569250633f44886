/**
 * The `simulator` fiscal driver: an in-process fiscal device for demos and tests. It keeps a fiscal
 * memory (receipt counter, Z counter, daily totals) in a state store so numbers stay consecutive
 * across restarts, and it can be told to fail in the ways real devices do.
 */
import { createHash } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { type DeviceInfo, type DeviceStateStore, type DeviceStatus, type FiscalDevice, type FiscalResult, type LastDocument, type Receipt, type ReportResult } from '../types.js';
import { DeviceError, type FaultCode } from '../../faults.js';

interface SimState {
  serial: string;
  receiptNumber: number;
  /** Number of Z reports printed; the open fiscal day is zCount + 1. */
  zCount: number;
  dayTotal: string;
  dayReceipts: number;
  last: (LastDocument & { jobId: string }) | null;
}

export type SimFault =
  /** Refuse the next call before doing anything. */
  | { kind: 'fail'; code: FaultCode }
  /** Issue the next receipt, then lose the reply (the caller sees a TIMEOUT). */
  | { kind: 'dropReplyAfterPrint' }
  /** Issue the next receipt, then report an error as some real devices do. */
  | { kind: 'failAfterPrint'; code: FaultCode };

/** Receipts the simulator keeps in memory for inspection (the numbering itself is in its saved state). */
export const JOURNAL_KEEP = 1000;

export class SimulatorFiscalDevice implements FiscalDevice {
  private state: SimState;
  private faults: SimFault[] = [];
  /**
   * The receipts issued, in order, the newest JOURNAL_KEEP of them: what a test inspects to count
   * fiscalizations. Bounded, because a shop (or the bench) may run on the simulator for days: kept
   * whole, it grew by every receipt (~15 MB of heap in a 30-minute bench run).
   */
  readonly journal: Array<{ jobId: string; number: number; receipt: Receipt }> = [];
  paper: 'ok' | 'out' = 'ok';
  /** Milliseconds each call takes, to let tests overlap two closes. */
  delayMs = 0;

  get memoryInHubDatabase(): boolean {
    return this.store?.inHubDatabase === true;
  }

  constructor(
    readonly name: string,
    private readonly store: DeviceStateStore | undefined,
    private readonly clock: () => Date = () => new Date(),
  ) {
    const saved = store?.load(`simulator:${name}`) as SimState | undefined;
    this.state = saved ?? {
      // From the whole name: two devices (Till 1, Till 2) never share a fiscal memory, as the
      // first bytes of their names would have them. A device keeps the serial it was saved with.
      serial: `SIM${createHash('sha256').update(name).digest('hex').slice(0, 8).toUpperCase()}`,
      receiptNumber: 0,
      zCount: 0,
      dayTotal: '0',
      dayReceipts: 0,
      last: null,
    };
  }

  inject(fault: SimFault): void {
    this.faults.push(fault);
  }

  private save(): void {
    this.store?.save(`simulator:${this.name}`, this.state);
  }

  /**
   * Takes the next fault due for this call: `fail` hits whatever call comes next, while the
   * after-print faults wait in the queue for the next printReceipt (a status or lastDocument call
   * before it does not use them up).
   */
  private async enter(call: 'print' | 'other' = 'other'): Promise<SimFault | undefined> {
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    const fault = this.faults[0];
    if (!fault || (fault.kind !== 'fail' && call !== 'print')) return undefined;
    this.faults.shift();
    if (fault.kind === 'fail') throw new DeviceError(fault.code, `simulated ${fault.code}`, false, `SIM-${fault.code}`);
    return fault;
  }

  async info(): Promise<DeviceInfo> {
    await this.enter();
    return { model: 'POS Hub fiscal simulator', serialNumber: this.state.serial, fiscalMemorySerialNumber: this.state.serial, capabilities: { receipts: true, reports: true, email: false } };
  }

  async status(): Promise<DeviceStatus> {
    await this.enter();
    return {
      online: true,
      paper: this.paper,
      coverOpen: false,
      receiptOpen: false,
      dailySalesReportNumber: this.state.zCount + 1,
      fiscalMemorySerialNumber: this.state.serial,
    };
  }

  async printReceipt(receipt: Receipt, jobId: string): Promise<FiscalResult> {
    const fault = await this.enter('print');
    if (this.paper === 'out') throw new DeviceError('PAPER_OUT', 'the simulator is out of paper', false, 'SIM-PAPER');
    if (receipt.lines.length === 0) throw new DeviceError('REJECTED', 'a receipt needs at least one line', false, 'SIM-EMPTY');
    const date = this.clock().toISOString();
    this.state.receiptNumber += 1;
    this.state.dayTotal = new Decimal(this.state.dayTotal).plus(receipt.total).toString();
    this.state.dayReceipts += 1;
    this.state.last = { number: this.state.receiptNumber, date, amount: receipt.total, jobId };
    this.journal.push({ jobId, number: this.state.receiptNumber, receipt });
    if (this.journal.length > JOURNAL_KEEP) this.journal.splice(0, this.journal.length - JOURNAL_KEEP);
    this.save();
    if (fault?.kind === 'dropReplyAfterPrint') throw new DeviceError('TIMEOUT', 'simulated lost reply', true);
    if (fault?.kind === 'failAfterPrint') throw new DeviceError(fault.code, `simulated ${fault.code} after fiscalizing`, true);
    return {
      number: this.state.receiptNumber,
      date,
      amount: receipt.total,
      dailySalesReportNumber: this.state.zCount + 1,
      fiscalMemorySerialNumber: this.state.serial,
    };
  }

  async lastDocument(): Promise<LastDocument | null> {
    await this.enter();
    if (!this.state.last) return null;
    const { number, date, amount } = this.state.last;
    return { number, date, amount };
  }

  async xReport(): Promise<ReportResult> {
    await this.enter();
    return { kind: 'X', number: this.state.zCount + 1, date: this.clock().toISOString(), total: this.state.dayTotal, receipts: this.state.dayReceipts };
  }

  async zReport(): Promise<ReportResult> {
    await this.enter();
    const report: ReportResult = { kind: 'Z', number: this.state.zCount + 1, date: this.clock().toISOString(), total: this.state.dayTotal, receipts: this.state.dayReceipts };
    this.state.zCount += 1;
    this.state.dayTotal = '0';
    this.state.dayReceipts = 0;
    this.save();
    return report;
  }

  async cancelOpenReceipt(): Promise<void> {
    await this.enter();
  }

  async close(): Promise<void> {}
}
