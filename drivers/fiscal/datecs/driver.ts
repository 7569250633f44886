/**
 * The `datecs` fiscal driver: Datecs ISL over a transport channel (TCP or serial). Two layers:
 * `IslLink` moves one command at a time (sequence numbers, SYN, NAK, retransmission with the same
 * sequence number, which the printer answers by repeating its reply instead of executing twice),
 * and `DatecsFiscalDevice` turns whole documents into commands. A receipt that fails before its
 * close command is cancelled and reported with a known outcome; a failure at or after the close
 * command has an unknown outcome, which the hub settles by asking lastDocument().
 */
import { randomInt } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { OneAtATime } from '../one-at-a-time.js';
import { ReconnectingChannel, type Channel, type ReconnectingOptions } from '../../transport/index.js';
import {
  DeviceError,
  type DeviceInfo,
  type DeviceStatus,
  type FiscalDevice,
  type FiscalResult,
  type LastDocument,
  type Receipt,
  type ReportResult,
} from '../types.js';
import {
  CMD,
  CMD_NAMES,
  ReplyError,
  bytes,
  faultOf,
  hasFlag,
  parseDailyReport,
  parseDiagnosticInfo,
  parseDocumentNumber,
  parseLastFiscalEntry,
  parsePayment,
  parseReceiptCounts,
  parseSettings,
  parseSubtotal,
  parseTransactionStatus,
  planReceipt,
  receiptProblem,
  type DatecsSettings,
} from './commands.js';
import { FrameError, SEQ_MAX, SEQ_MIN, decodeReply, encodeRequest, hex, nextSeq, scan, type Reply } from './frame.js';

export interface LinkTimings {
  /** How long to wait for the first byte of an answer (the manual: 500 ms). */
  frameTimeoutMs: number;
  /** Retransmissions of one frame after a timeout, a NAK or a garbled reply. */
  retries: number;
  /** How long a printer may keep answering SYN ("working") before the command counts as timed out. */
  busyTimeoutMs: number;
}

export const DEFAULT_TIMINGS: LinkTimings = { frameTimeoutMs: 500, retries: 5, busyTimeoutMs: 60_000 };

/** After a refused connection the next attempt waits 200 ms, doubling up to this (setting ReconnectMaxMs). */
export const DEFAULT_RECONNECT_MAX_MS = 5000;

type Wait = { reply: Reply } | { retry: 'timeout' | 'nak' | 'garbled' | 'closed' | 'busy' | 'otherCommand' };

/**
 * One command in flight per device: requests queue. A fresh connection first exchanges a status
 * request, so the printer's memory of the last sequence number (from before a restart of the hub)
 * can never make it repeat an old reply to a new command.
 */
export class IslLink {
  private seq = randomInt(SEQ_MIN, SEQ_MAX + 1);
  private readonly queue = new OneAtATime();
  private synced: Channel | null = null;

  constructor(
    readonly channel: ReconnectingChannel,
    private readonly timings: LinkTimings = DEFAULT_TIMINGS,
    private readonly trace?: (line: string) => void,
  ) {}

  request(cmd: number, data = ''): Promise<Reply> {
    return this.queue.run(() => this.run(cmd, data));
  }

  async close(): Promise<void> {
    await this.queue.idle();
    await this.channel.close();
  }

  private async run(cmd: number, data: string): Promise<Reply> {
    const ch = await this.channel.get();
    if (this.synced !== ch) {
      await this.exchange(CMD.status, 'X');
      this.synced = ch;
    }
    return this.exchange(cmd, data);
  }

  private advance(): number {
    this.seq = nextSeq(this.seq);
    return this.seq;
  }

  /** One command: written, then retransmitted with the same sequence number until an answer comes. */
  private async exchange(cmd: number, data: string): Promise<Reply> {
    const name = CMD_NAMES[cmd] ?? cmd.toString(16);
    let seq = this.advance();
    let frame = encodeRequest(seq, cmd, bytes(data));
    let written = false;
    let why = 'no answer';
    /** The last attempt could not even reach the device (no connection): OFFLINE rather than TIMEOUT. */
    let unreachable = false;
    for (let attempt = 0; attempt <= this.timings.retries; attempt++) {
      let ch: Channel;
      try {
        await this.channel.waitForRetry();
        ch = await this.channel.get();
      } catch (e) {
        // Nothing went out yet: the device is plainly unreachable. Otherwise keep trying to deliver.
        if (!written) throw e;
        why = (e as Error).message;
        unreachable = true;
        continue;
      }
      ch.discard();
      this.trace?.(`>> ${name} ${hex(frame)}`);
      try {
        await ch.write(frame);
        written = true;
      } catch (e) {
        written = true;
        why = (e as Error).message;
        unreachable = true;
        this.channel.reset();
        continue;
      }
      const got = await this.await(ch, seq, cmd);
      if ('reply' in got) return got.reply;
      why = got.retry;
      unreachable = got.retry === 'closed';
      if (got.retry === 'closed') this.channel.reset();
      if (got.retry === 'busy') break;
      if (got.retry === 'otherCommand') {
        // The printer answered an older frame that had this sequence number: this one is new to it.
        seq = this.advance();
        frame = encodeRequest(seq, cmd, bytes(data));
      }
    }
    throw new DeviceError(unreachable ? 'OFFLINE' : 'TIMEOUT', `${this.channel.label}: ${name} not answered (${why})`, written);
  }

  private async await(ch: Channel, seq: number, cmd: number): Promise<Wait> {
    let busySince: number | null = null;
    for (;;) {
      let chunk: Buffer;
      try {
        chunk = await ch.read((b) => scan(b)?.length ?? 0, this.timings.frameTimeoutMs);
      } catch (e) {
        return { retry: e instanceof DeviceError && e.code === 'TIMEOUT' ? 'timeout' : 'closed' };
      }
      const token = scan(chunk);
      if (!token || token.kind === 'noise') continue;
      if (token.kind === 'syn') {
        busySince ??= Date.now();
        if (Date.now() - busySince > this.timings.busyTimeoutMs) return { retry: 'busy' };
        continue;
      }
      if (token.kind === 'nak') return { retry: 'nak' };
      let reply: Reply;
      try {
        reply = decodeReply(chunk);
      } catch (e) {
        if (e instanceof FrameError) return { retry: 'garbled' };
        throw e;
      }
      this.trace?.(`<< ${CMD_NAMES[reply.cmd] ?? reply.cmd} ${hex(chunk)}`);
      if (reply.seq !== seq) continue; // a late answer to an earlier frame
      if (reply.cmd !== cmd) return { retry: 'otherCommand' };
      return { reply };
    }
  }
}

export interface DatecsOptions {
  name: string;
  address: string;
  settings: Record<string, string>;
  clock: () => Date;
  /** Transport options (a serial binding in tests, short backoff). */
  channel?: ReconnectingOptions;
  timings?: Partial<LinkTimings>;
  trace?: (line: string) => void;
}

const NUMERIC_SETTINGS = { FrameTimeoutMs: 'frameTimeoutMs', Retries: 'retries', BusyTimeoutMs: 'busyTimeoutMs', ReconnectMaxMs: 'reconnectMaxMs' } as const;

/** Link timings from a fiscal device's settings (FrameTimeoutMs, Retries, BusyTimeoutMs, ReconnectMaxMs); malformed values throw. */
export function timingsFromSettings(settings: Record<string, string>): Partial<LinkTimings & { reconnectMaxMs: number }> {
  const out: Partial<LinkTimings & { reconnectMaxMs: number }> = {};
  for (const [key, field] of Object.entries(NUMERIC_SETTINGS)) {
    const v = settings[key];
    if (v === undefined) continue;
    if (!/^\d{1,7}$/.test(v) || (field !== 'retries' && Number(v) < 10) || (field === 'retries' && Number(v) > 20)) {
      throw new ReplyError(`${key}: '${v}' is not a whole number in range`);
    }
    out[field] = Number(v);
  }
  return out;
}

/** Settings a `datecs` fiscal device accepts; throws a message naming the bad one. */
export function checkSettings(settings: Record<string, string>): void {
  parseSettings(settings);
  timingsFromSettings(settings);
}

type Doc<T> = () => Promise<T>;

export class DatecsFiscalDevice implements FiscalDevice {
  private readonly link: IslLink;
  private readonly settings: DatecsSettings;
  private readonly clock: () => Date;
  private infoCache: DeviceInfo | null = null;
  /** Fiscal receipts of the open day, as the last close reported (the ISL has no query for it). */
  private dayReceipts: number | null = null;
  private readonly documents = new OneAtATime();

  constructor(opts: DatecsOptions) {
    this.settings = parseSettings(opts.settings);
    this.clock = opts.clock;
    const { reconnectMaxMs = DEFAULT_RECONNECT_MAX_MS, ...timings } = timingsFromSettings(opts.settings);
    const channel = new ReconnectingChannel(opts.address, {
      backoff: { initialMs: Math.min(200, reconnectMaxMs), maxMs: reconnectMaxMs, factor: 2 },
      ...opts.channel,
    });
    this.link = new IslLink(channel, { ...DEFAULT_TIMINGS, ...timings, ...opts.timings }, opts.trace);
  }

  /** What would make the printer refuse this receipt, found without asking it. */
  validate(receipt: Receipt): string | null {
    return receiptProblem(receipt, this.settings);
  }

  /** One document at a time: a query for the last document waits until a receipt in progress ends. */
  private document<T>(run: Doc<T>): Promise<T> {
    return this.documents.run(run);
  }

  /** A command whose refusal (a status error bit) becomes a DeviceError with the vendor's bit. */
  private async cmd(cmd: number, data = '', printing = false): Promise<Reply> {
    const reply = await this.link.request(cmd, data);
    const fault = faultOf(reply.status, printing);
    if (fault) throw new DeviceError(fault.code, `${CMD_NAMES[cmd]}: ${fault.text}`, false, fault.vendorCode);
    return reply;
  }

  private async parse<T>(cmd: number, data: string, parser: (d: Buffer) => T, printing = false): Promise<T> {
    const reply = await this.cmd(cmd, data, printing);
    try {
      return parser(reply.data);
    } catch (e) {
      if (e instanceof ReplyError) throw new DeviceError('PROTOCOL', `${CMD_NAMES[cmd]}: ${e.message}`);
      throw e;
    }
  }

  async info(): Promise<DeviceInfo> {
    if (this.infoCache) return this.infoCache;
    const d = await this.parse(CMD.diagnosticInfo, '0', parseDiagnosticInfo);
    this.infoCache = {
      model: `Datecs ${d.model} ${d.firmware}`.trim(),
      serialNumber: d.serialNumber,
      fiscalMemorySerialNumber: d.fiscalMemorySerialNumber,
      capabilities: { receipts: true, reports: true, email: false },
    };
    return this.infoCache;
  }

  async status(): Promise<DeviceStatus> {
    const reply = await this.cmd(CMD.status, 'X');
    const closure = await this.parse(CMD.lastFiscalEntry, '', parseLastFiscalEntry);
    const info = await this.info();
    const s = reply.status;
    return {
      online: true,
      paper: hasFlag(s, 'paperOut') ? 'out' : hasFlag(s, 'paperLow') ? 'low' : 'ok',
      coverOpen: hasFlag(s, 'coverOpen'),
      receiptOpen: hasFlag(s, 'fiscalReceiptOpen'),
      dailySalesReportNumber: closure + 1,
      fiscalMemorySerialNumber: info.fiscalMemorySerialNumber,
    };
  }

  printReceipt(receipt: Receipt, jobId: string): Promise<FiscalResult> {
    let plan: ReturnType<typeof planReceipt>;
    try {
      plan = planReceipt(receipt, this.settings, jobId);
    } catch (e) {
      return Promise.reject(new DeviceError('REJECTED', (e as Error).message, false, 'PLAN'));
    }
    return this.document(async () => {
      // Before anything prints: a receipt left open by an earlier failure was never fiscalized; void it.
      const status = await this.cmd(CMD.status, 'X');
      if (hasFlag(status.status, 'fiscalReceiptOpen')) await this.cmd(CMD.cancelFiscalReceipt, '', true);
      const blocked = faultOf(status.status, true);
      if (blocked) throw new DeviceError(blocked.code, blocked.text, false, blocked.vendorCode);
      const closure = await this.parse(CMD.lastFiscalEntry, '', parseLastFiscalEntry);
      const info = await this.info();

      let opened = false;
      try {
        await this.cmd(CMD.openFiscalReceipt, plan.open, true);
        opened = true;
        for (const text of plan.texts) await this.cmd(CMD.fiscalText, text, true);
        for (const line of plan.sales) await this.cmd(CMD.sale, line, true);
        const subtotal = await this.parse(CMD.subtotal, plan.subtotal, parseSubtotal, true);
        if (!new Decimal(subtotal).eq(plan.total)) {
          throw new DeviceError('REJECTED', `the printer's subtotal ${subtotal} differs from the receipt's total ${plan.total}`, false, 'SUBTOTAL');
        }
        let last: ReturnType<typeof parsePayment> | null = null;
        for (const [i, p] of plan.payments.entries()) {
          if (last?.code === 'R') throw new DeviceError('REJECTED', `the payments cover the total before payment ${i + 1}`, false, 'PAID');
          last = await this.parse(CMD.total, p.data, parsePayment, true);
          if (last.code !== 'D' && last.code !== 'R') throw new DeviceError('REJECTED', `payment ${i + 1} refused (paid code ${last.code})`, false, `PAID-${last.code}`);
        }
        if (last?.code !== 'R') throw new DeviceError('REJECTED', `the payments leave ${last?.amount ?? '?'} unpaid`, false, 'PAID-D');
      } catch (e) {
        // Not closed, so not fiscalized: void what was started and report a known outcome.
        if (opened) await this.cmd(CMD.cancelFiscalReceipt, '', true).catch(() => {});
        throw e instanceof DeviceError ? new DeviceError(e.code, e.message, false, e.vendorCode) : e;
      }

      // The close is the fiscalization: from its sending on, a failure leaves the outcome unknown.
      let counts: { all: number; fiscal: number };
      try {
        counts = await this.parse(CMD.closeFiscalReceipt, '', parseReceiptCounts, true);
      } catch (e) {
        if (e instanceof DeviceError && !e.outcomeUnknown && e.code !== 'PROTOCOL') {
          await this.cmd(CMD.cancelFiscalReceipt, '', true).catch(() => {});
          throw e;
        }
        throw unknown(e);
      }
      this.dayReceipts = counts.fiscal;
      let number: number;
      try {
        number = await this.parse(CMD.lastDocumentNumber, '', parseDocumentNumber);
      } catch (e) {
        throw unknown(e);
      }
      return {
        number,
        date: this.clock().toISOString(),
        amount: plan.total,
        dailySalesReportNumber: closure + 1,
        fiscalMemorySerialNumber: info.fiscalMemorySerialNumber,
      };
    });
  }

  /** The last fiscal receipt: its document number (71h) and, from 4Ch, its amount (a decimal string). */
  lastDocument(): Promise<LastDocument | null> {
    return this.document(async () => {
      const number = await this.parse(CMD.lastDocumentNumber, '', parseDocumentNumber);
      if (number === 0) return null;
      const tx = await this.parse(CMD.transactionStatus, 'T', parseTransactionStatus);
      // 4Ch answers for the open receipt when there is one; the hub serializes its documents, so one
      // open here (left by a failure before its close) has a number that did not move anyway.
      return { number, date: this.clock().toISOString(), amount: tx.amount ?? '0' };
    });
  }

  xReport(): Promise<ReportResult> {
    return this.report('X');
  }

  zReport(): Promise<ReportResult> {
    return this.report('Z');
  }

  private report(kind: 'X' | 'Z'): Promise<ReportResult> {
    return this.document(async () => {
      await this.cancelIfOpen();
      const r = await this.parse(CMD.dailyReport, kind === 'Z' ? '0' : '2', parseDailyReport, true);
      const receipts = this.dayReceipts ?? 0;
      if (kind === 'Z') this.dayReceipts = 0;
      return { kind, number: r.closure, date: this.clock().toISOString(), total: r.total, receipts };
    });
  }

  cancelOpenReceipt(): Promise<void> {
    return this.document(() => this.cancelIfOpen());
  }

  private async cancelIfOpen(): Promise<void> {
    const status = await this.cmd(CMD.status, 'X');
    if (hasFlag(status.status, 'fiscalReceiptOpen')) await this.cmd(CMD.cancelFiscalReceipt, '', true);
  }

  async close(): Promise<void> {
    await this.link.close();
  }
}

function unknown(e: unknown): DeviceError {
  if (e instanceof DeviceError) return new DeviceError(e.code, `${e.message} (after the close command: the receipt may be fiscalized)`, true, e.vendorCode);
  return new DeviceError('PROTOCOL', String(e), true);
}
