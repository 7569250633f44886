/**
 * The `datecs` fiscal driver: Datecs ISL over a transport channel (TCP or serial), for the three
 * firmware variants (P, C, X; commands.ts). Two layers: `IslLink` moves one command at a time
 * (sequence numbers, SYN, NAK, retransmission with the same sequence number, which the printer answers
 * by repeating its reply instead of executing twice), and `DatecsFiscalDevice` turns whole documents
 * into commands.
 *
 * Outcomes: a receipt that fails before any payment is voided (3Ch) and reported with a known outcome.
 * After a payment the printer refuses 3Ch (P p.22, C p.16), so a receipt is finished instead: the rest
 * is paid in cash and it is closed, as ErpNet.FP's Reset does; a failure there, or at or after the close
 * command, has an unknown outcome, which the hub settles by asking lastDocument().
 */
import { randomInt } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { OneAtATime } from '../one-at-a-time.js';
import { parseAddress } from '../../transport/address.js';
import { ReconnectingChannel, type Channel, type ReconnectingOptions } from '../../transport/index.js';
import { type DeviceInfo, type DeviceStatus, type FiscalDevice, type FiscalResult, type LastDocument, type Receipt, type ReportResult } from '../types.js';
import { DeviceError } from '../../faults.js';
import {
  CMD,
  CMD_NAMES,
  ReplyError,
  VARIANTS,
  amount,
  bytes,
  faultOf,
  hasFlag,
  parseDiagnosticInfo,
  parseSettings,
  planReceipt,
  receiptProblem,
  str,
  uniqueSaleNumber,
  variantOfModel,
  type DatecsSettings,
  type DiagnosticInfo,
  type Transaction,
  type Variant,
} from './commands.js';
import { CLASSIC, FrameError, MAX_REPLY_DATA, SEQ_MAX, SEQ_MIN, decodeReply, encodeRequest, hex, nextSeq, scan, type FrameFormat, type Reply } from './frame.js';
import { refused } from '../../settings.js';

export interface LinkTimings {
  /** How long to wait for a whole answer frame (the manuals: 500 ms; more at a slow baud rate). */
  frameTimeoutMs: number;
  /** Retransmissions of one frame after a timeout, a NAK or a garbled reply. */
  retries: number;
  /** How long a printer may keep answering SYN ("working") before the command counts as timed out. */
  busyTimeoutMs: number;
}

export const DEFAULT_TIMINGS: LinkTimings = { frameTimeoutMs: 500, retries: 5, busyTimeoutMs: 60_000 };

/**
 * The frame timeout for a line at `baudRate`: the manuals' 500 ms (P p.7, C p.4, X p.3) plus the time
 * the longest reply (218 data bytes and its frame, 10 bits a byte) takes on the wire: 1.5 s at 2,400
 * baud, 0.52 s at 115,200. TCP (no baud rate) keeps 500 ms.
 */
export function frameTimeoutFor(baudRate: number | null): number {
  if (!baudRate) return DEFAULT_TIMINGS.frameTimeoutMs;
  const longest = MAX_REPLY_DATA + 30;
  return DEFAULT_TIMINGS.frameTimeoutMs + Math.ceil((longest * 10 * 1000) / baudRate);
}

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
  /** The framing spoken, and the 4Ah data that syncs a fresh connection; set once the variant is known. */
  format: FrameFormat = CLASSIC;
  syncData = 'X';

  constructor(
    readonly channel: ReconnectingChannel,
    private readonly timings: LinkTimings = DEFAULT_TIMINGS,
    private readonly trace?: (line: string) => void,
  ) {}

  request(cmd: number, data = '', opts: { retries?: number; sync?: boolean } = {}): Promise<Reply> {
    return this.queue.run(() => this.run(cmd, data, opts));
  }

  async close(): Promise<void> {
    await this.queue.idle();
    await this.channel.close();
  }

  private async run(cmd: number, data: string, opts: { retries?: number; sync?: boolean }): Promise<Reply> {
    const ch = await this.channel.get();
    if (opts.sync !== false && this.synced !== ch) {
      await this.exchange(CMD.status, this.syncData, this.timings.retries);
      this.synced = ch;
    }
    return this.exchange(cmd, data, opts.retries ?? this.timings.retries);
  }

  private advance(): number {
    this.seq = nextSeq(this.seq);
    return this.seq;
  }

  /** One command: written, then retransmitted with the same sequence number until an answer comes. */
  private async exchange(cmd: number, data: string, retries: number): Promise<Reply> {
    const name = CMD_NAMES[cmd] ?? cmd.toString(16);
    const f = this.format;
    let seq = this.advance();
    let frame = encodeRequest(f, seq, cmd, bytes(data));
    let written = false;
    let why = 'no answer';
    let naks = 0;
    /** The last attempt could not even reach the device (no connection): OFFLINE rather than TIMEOUT. */
    let unreachable = false;
    for (let attempt = 0; attempt <= retries; attempt++) {
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
      if (got.retry === 'nak') naks += 1;
      if (got.retry === 'closed') this.channel.reset();
      if (got.retry === 'busy') break;
      if (got.retry === 'otherCommand') {
        // The printer answered an older frame that had this sequence number: this one is new to it.
        seq = this.advance();
        frame = encodeRequest(f, seq, cmd, bytes(data));
      }
    }
    // Every attempt NAKed: the printer reads the line but not this framing (an X printer given a
    // classic frame answers SYN, then NAK: ErpNet.FP issues #183, #191). It executed nothing.
    if (naks > 0 && naks === retries + 1) throw new DeviceError('PROTOCOL', `${this.channel.label}: ${name} refused with NAK (${f.name} framing)`, false, 'NAK');
    throw new DeviceError(unreachable ? 'OFFLINE' : 'TIMEOUT', `${this.channel.label}: ${name} not answered (${why})`, written);
  }

  private async await(ch: Channel, seq: number, cmd: number): Promise<Wait> {
    const f = this.format;
    let busySince: number | null = null;
    for (;;) {
      let chunk: Buffer;
      try {
        chunk = await ch.read((b) => scan(f, b)?.length ?? 0, this.timings.frameTimeoutMs);
      } catch (e) {
        return { retry: e instanceof DeviceError && e.code === 'TIMEOUT' ? 'timeout' : 'closed' };
      }
      const token = scan(f, chunk);
      if (!token || token.kind === 'noise') continue;
      if (token.kind === 'syn') {
        busySince ??= Date.now();
        if (Date.now() - busySince > this.timings.busyTimeoutMs) return { retry: 'busy' };
        continue;
      }
      if (token.kind === 'nak') return { retry: 'nak' };
      let reply: Reply;
      try {
        reply = decodeReply(f, chunk);
      } catch (e) {
        // A frame that is not a reply (an echo of our own request on a looped-back line, ErpNet.FP
        // issue #56) or that arrived garbled: send again.
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
      throw refused(new ReplyError(`${key}: '${v}' is not a whole number in range`), 'wholeInRange', { setting: key, value: v });
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

/**
 * How many refused 30h (open) commands the driver sends before it stops trying: three wrong operator
 * passwords lock the printer until it is switched off and on (P p.17), so it never gets a third.
 */
export const MAX_OPEN_REFUSALS = 2;

export class DatecsFiscalDevice implements FiscalDevice {
  private readonly link: IslLink;
  private readonly settings: DatecsSettings;
  private readonly clock: () => Date;
  private variant: Variant | null = null;
  private diag: DiagnosticInfo | null = null;
  /** Fiscal receipts of the open day, as the last close reported (0 after a Z). */
  private dayReceipts: number | null = null;
  private openRefusals = 0;
  private readonly documents = new OneAtATime();

  constructor(opts: DatecsOptions) {
    this.settings = parseSettings(opts.settings);
    this.clock = opts.clock;
    const { reconnectMaxMs = DEFAULT_RECONNECT_MAX_MS, ...timings } = timingsFromSettings(opts.settings);
    const address = parseAddress(opts.address);
    const channel = new ReconnectingChannel(opts.address, {
      backoff: { initialMs: Math.min(200, reconnectMaxMs), maxMs: reconnectMaxMs, factor: 2 },
      ...opts.channel,
    });
    const scaled = { ...DEFAULT_TIMINGS, frameTimeoutMs: frameTimeoutFor(address.kind === 'serial' ? address.baudRate : null) };
    this.link = new IslLink(channel, { ...scaled, ...timings, ...opts.timings }, opts.trace);
    if (this.settings.variant) this.use(VARIANTS[this.settings.variant]);
  }

  private use(v: Variant): Variant {
    this.variant = v;
    this.link.format = v.frame;
    this.link.syncData = v.statusRequest;
    return v;
  }

  /** The variant in use: named in settings, else found from the 5Ah model name (probing classic, then X framing). */
  private async resolve(): Promise<Variant> {
    if (this.variant && this.diag) return this.variant;
    if (this.variant) {
      this.diag = await this.readDiag(this.variant);
      return this.variant;
    }
    let diag: DiagnosticInfo;
    try {
      diag = await this.readDiag(VARIANTS.C, { retries: 2, sync: false });
    } catch (e) {
      if (!(e instanceof DeviceError) || e.vendorCode !== 'NAK') throw e;
      // An X printer NAKs classic frames (ErpNet.FP #183, #191): ask again in X framing.
      diag = await this.readDiag(VARIANTS.X, { retries: 2, sync: false });
      this.diag = diag;
      return this.use(VARIANTS.X);
    }
    const name = variantOfModel(diag.model);
    if (!name) throw new DeviceError('PROTOCOL', `model '${diag.model}' names no Datecs variant: set the Variant setting (P, C or X)`, false, 'MODEL');
    this.diag = diag;
    if (name === 'X') {
      // Answered in classic framing but named as an X model: speak X from now on.
      return this.use(VARIANTS.X);
    }
    return this.use(VARIANTS[name]);
  }

  private async readDiag(v: Variant, opts: { retries?: number; sync?: boolean } = {}): Promise<DiagnosticInfo> {
    const before = { format: this.link.format, sync: this.link.syncData };
    this.link.format = v.frame;
    this.link.syncData = v.statusRequest;
    try {
      const reply = await this.link.request(CMD.diagnosticInfo, '1', opts);
      return parseDiagnosticInfo(str(reply.data));
    } catch (e) {
      if (e instanceof ReplyError) throw new DeviceError('PROTOCOL', `diagnostic info: ${e.message}`);
      throw e;
    } finally {
      if (!this.variant || this.variant !== v) {
        this.link.format = before.format;
        this.link.syncData = before.sync;
      }
    }
  }

  /** What would make the printer refuse this receipt, found without asking it (null while the variant is unknown). */
  validate(receipt: Receipt): string | null {
    return this.variant ? receiptProblem(receipt, this.variant, this.settings) : null;
  }

  /** One document at a time: a query for the last document waits until a receipt in progress ends. */
  private document<T>(run: (v: Variant) => Promise<T>): Promise<T> {
    return this.documents.run(async () => run(await this.resolve()));
  }

  /** A command whose refusal (a status error bit or, on X, an error code) becomes a DeviceError with the vendor's code. */
  private async cmd(v: Variant, cmd: number, data = '', printing = false): Promise<string> {
    const reply = await this.link.request(cmd, data);
    const text = str(reply.data);
    const fault = faultOf(v, reply.status, printing);
    if (fault) throw new DeviceError(fault.code, `${CMD_NAMES[cmd]}: ${fault.text}`, false, fault.vendorCode);
    const code = v.errorCode(text);
    if (code) throw new DeviceError('REJECTED', `${CMD_NAMES[cmd]}: refused with error ${code}`, false, `E${code}`);
    return text;
  }

  private async parse<T>(v: Variant, cmd: number, data: string, parser: (d: string) => T, printing = false): Promise<T> {
    const text = await this.cmd(v, cmd, data, printing);
    try {
      return parser(text);
    } catch (e) {
      if (e instanceof ReplyError) throw new DeviceError('PROTOCOL', `${CMD_NAMES[cmd]}: ${e.message}`);
      throw e;
    }
  }

  private async statusBytes(v: Variant): Promise<Buffer> {
    return (await this.link.request(CMD.status, v.statusRequest)).status;
  }

  private transaction(v: Variant): Promise<Transaction> {
    return this.parse(v, CMD.transactionStatus, v.transactionRequest, (d) => v.parseTransaction(d));
  }

  /** The number of the last document: 71h on P and C, 4Ch's Number on X. */
  private async lastNumber(v: Variant): Promise<number> {
    if (v.numberFrom === 'transactionStatus') return (await this.transaction(v)).number ?? 0;
    return this.parse(v, CMD.lastDocumentNumber, '', (d) => {
      if (!/^\s*\d+\s*$/.test(d)) throw new ReplyError(`DocNum: '${d}' is not a number`);
      return Number(d);
    });
  }

  private lastZ(v: Variant): Promise<number> {
    return this.parse(v, CMD.lastFiscalEntry, v.name === 'X' ? '0\t' : '', (d) => v.parseLastFiscalEntry(d));
  }

  async info(): Promise<DeviceInfo> {
    const v = await this.documents.run(() => this.resolve());
    const d = this.diag!;
    return {
      model: `Datecs ${d.model} ${d.firmware} (${v.name})`.trim(),
      serialNumber: d.serialNumber,
      fiscalMemorySerialNumber: d.fiscalMemorySerialNumber,
      capabilities: { receipts: true, reports: true, email: false },
    };
  }

  async status(): Promise<DeviceStatus> {
    const v = await this.documents.run(() => this.resolve());
    const s = await this.statusBytes(v);
    const closure = await this.lastZ(v);
    return {
      online: true,
      paper: hasFlag(v, s, 'paperOut') ? 'out' : hasFlag(v, s, 'paperLow') ? 'low' : 'ok',
      coverOpen: hasFlag(v, s, 'coverOpen'),
      receiptOpen: hasFlag(v, s, 'fiscalReceiptOpen'),
      dailySalesReportNumber: closure + 1,
      fiscalMemorySerialNumber: this.diag!.fiscalMemorySerialNumber,
    };
  }

  /**
   * A receipt left open is settled before anything else: without a payment it is voided (3Ch); after
   * one the printer refuses 3Ch (P p.22, C p.16), so the rest is paid in cash and it is closed (its
   * sales were all checked against the subtotal before the first payment). Answers the last document
   * number from before a void (a void is no receipt) or after a close (that receipt is fiscal).
   */
  private async recover(v: Variant): Promise<{ finished: boolean }> {
    const s = await this.statusBytes(v);
    if (!hasFlag(v, s, 'fiscalReceiptOpen')) return { finished: false };
    const tx = await this.transaction(v);
    const paid = tx.tender !== null && new Decimal(tx.tender).gt(0);
    if (!paid) {
      await this.cmd(v, CMD.cancelFiscalReceipt, '', true);
      return { finished: false };
    }
    const rest = new Decimal(tx.amount ?? 0).minus(tx.tender ?? 0);
    if (rest.gt(0)) await this.cmd(v, CMD.total, v.payRest(amount(rest)), true);
    await this.cmd(v, CMD.closeFiscalReceipt, '', true);
    return { finished: true };
  }

  printReceipt(receipt: Receipt, jobId: string): Promise<FiscalResult> {
    return this.document(async (v) => {
      let plan: ReturnType<typeof planReceipt>;
      try {
        plan = planReceipt(receipt, v, this.settings, jobId);
      } catch (e) {
        throw new DeviceError('REJECTED', (e as Error).message, false, 'PLAN');
      }
      // A receipt left open by an earlier failure is settled first (voided, or finished if paid).
      await this.recover(v);
      const status = await this.statusBytes(v);
      const blocked = faultOf(v, status, true);
      if (blocked) throw new DeviceError(blocked.code, blocked.text, false, blocked.vendorCode);
      if (this.openRefusals >= MAX_OPEN_REFUSALS) {
        throw new DeviceError(
          'REJECTED',
          `the printer refused to open ${this.openRefusals} receipts; not trying again, since a third wrong operator password locks it until it is switched off and on (check OperatorCode/OperatorPassword, then save the device again)`,
          false,
          'OPEN-GUARD',
        );
      }
      const closure = await this.lastZ(v);
      const before = await this.lastNumber(v);
      const unp = this.settings.uniqueSaleNumber ? uniqueSaleNumber(this.diag!.serialNumber, this.settings.operator, before + 1) : null;

      try {
        await this.cmd(v, CMD.openFiscalReceipt, v.open(this.settings.operator, this.settings.password ?? v.password, this.settings.till, unp), true);
        this.openRefusals = 0;
      } catch (e) {
        if (e instanceof DeviceError && e.code === 'REJECTED') this.openRefusals += 1;
        throw e;
      }
      let paying = false;
      try {
        for (const text of plan.texts) await this.cmd(v, CMD.fiscalText, text, true);
        for (const line of plan.sales) await this.cmd(v, CMD.sale, line, true);
        const subtotal = await this.parse(v, CMD.subtotal, plan.subtotal, (d) => v.parseSubtotal(d), true);
        if (!new Decimal(subtotal).eq(plan.total)) {
          throw new DeviceError('REJECTED', `the printer's subtotal ${subtotal} differs from the receipt's total ${plan.total}`, false, 'SUBTOTAL');
        }
        let settled = false;
        for (const [i, p] of plan.payments.entries()) {
          if (settled) throw new DeviceError('REJECTED', `the payments cover the total before payment ${i + 1}`, false, 'PAID');
          paying = true;
          const r = await this.parse(v, CMD.total, p, (d) => v.parsePayment(d), true);
          if (r.code !== 'D' && r.code !== 'R') throw new DeviceError('REJECTED', `payment ${i + 1} refused (paid code ${r.code})`, false, `PAID-${r.code}`);
          settled = r.code === 'R';
        }
        if (!settled) throw new DeviceError('REJECTED', 'the payments leave part of the total unpaid', false, 'PAID-D');
      } catch (e) {
        const open = await this.transaction(v).catch(() => null);
        const paid = open?.open && open.tender !== null && new Decimal(open.tender).gt(0);
        if (!paying || (open && !paid)) {
          // Not paid, so not fiscalized: void what was started and report a known outcome.
          await this.cmd(v, CMD.cancelFiscalReceipt, '', true).catch(() => {});
          throw e instanceof DeviceError ? new DeviceError(e.code, e.message, false, e.vendorCode) : e;
        }
        // A payment went in (or may have): the receipt can only be finished. Try now; either way the
        // hub reconciles against the printer's last document.
        await this.recover(v).catch(() => {});
        throw unknown(e);
      }

      // The close is the fiscalization: from its sending on, a failure leaves the outcome unknown.
      let closeReply: string;
      try {
        closeReply = await this.cmd(v, CMD.closeFiscalReceipt, '', true);
      } catch (e) {
        throw unknown(e);
      }
      const counts = v.name === 'X' ? null : closeReply.split(',')[1];
      this.dayReceipts = counts && /^\d+$/.test(counts.trim()) ? Number(counts) : (this.dayReceipts ?? 0) + 1;
      let number: number;
      try {
        number = await this.lastNumber(v);
      } catch (e) {
        throw unknown(e);
      }
      return {
        number,
        date: this.clock().toISOString(),
        amount: plan.total,
        dailySalesReportNumber: closure + 1,
        fiscalMemorySerialNumber: this.diag!.fiscalMemorySerialNumber,
      };
    });
  }

  /**
   * The last fiscal receipt: its number and, from 4Ch, its amount. A receipt left open is settled
   * first (a paid one is finished and so becomes the last receipt); when it is voided instead, the
   * number read before the void is answered, so a void never passes for a receipt.
   */
  lastDocument(): Promise<LastDocument | null> {
    return this.document(async (v) => {
      const s = await this.statusBytes(v);
      const open = hasFlag(v, s, 'fiscalReceiptOpen');
      const before = open ? await this.lastNumber(v) : null;
      const { finished } = await this.recover(v);
      const number = finished || before === null ? await this.lastNumber(v) : before;
      if (number === 0) return null;
      const tx = await this.transaction(v);
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
    return this.document(async (v) => {
      await this.recover(v);
      const r = await this.parse(v, CMD.dailyReport, v.dailyReport(kind), (d) => v.parseReport(d), true);
      const receipts = this.dayReceipts ?? 0;
      if (kind === 'Z') this.dayReceipts = 0;
      // X reports the open day; classic 45h '2' answers the next closure's number, X's nRep likewise.
      return { kind, number: r.closure, date: this.clock().toISOString(), total: r.total, receipts };
    });
  }

  cancelOpenReceipt(): Promise<void> {
    return this.document(async (v) => {
      await this.recover(v);
    });
  }

  async close(): Promise<void> {
    await this.link.close();
  }
}

function unknown(e: unknown): DeviceError {
  if (e instanceof DeviceError) return new DeviceError(e.code, `${e.message} (after a payment or the close command: the receipt may be fiscalized)`, true, e.vendorCode);
  return new DeviceError('PROTOCOL', String(e), true);
}

