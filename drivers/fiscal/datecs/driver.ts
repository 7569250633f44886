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
  isReturn,
  parseDiagnosticInfo,
  RefusedReply,
  X_ERRORS,
  X_WRONG_PASSWORD,
  parseSettings,
  planReceipt,
  receiptProblem,
  str,
  uniqueSaleNumber,
  variantOfModel,
  type DatecsSettings,
  type DiagnosticInfo,
  type ReceiptPlan,
  type StornoOrigin,
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
  /** The hub's time zone: the printer clock's, unless the TimeZone setting names another; absent: the machine's. */
  timeZone?: string;
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
  /** Refused 30h that may have been a wrong operator password (see countRefusal). */
  private openRefusals = 0;
  /** Why the last counted 30h was refused, and the Z report count then (classic: a Z report made since releases the guard). */
  private lastRefusal: { message: string; closure: number } | null = null;
  /**
   * P and C: document numbers (71h) of this driver's own voids and reports. 71h numbers every
   * document, while 4Ch tells of the last fiscal receipt only, so a number here is never answered as
   * a receipt's (X's 4Ch tells number, amount and payment of one and the same receipt).
   */
  private readonly notReceipts: number[] = [];
  /**
   * The receipt this driver last opened with an УНП, and the number the printer gave it: lastDocument
   * tells that receipt's УНП after a lost answer. The УНП is chosen before the receipt has a number
   * (the last number + 1), and on X 4Ch counts receipts only, so after a report the two differ: a storno
   * receipt must quote the УНП the original carries, not one rebuilt from its number.
   */
  private opened: { number: number; unp: string } | null = null;
  /** The 35h modes and amounts of the receipt being printed: what pays the rest if it has to be finished after a failure. */
  private paying: { modes: string[]; amounts: Decimal[] } | null = null;
  private readonly timeZone: string;
  private readonly documents = new OneAtATime();

  constructor(opts: DatecsOptions) {
    this.settings = parseSettings(opts.settings);
    this.timeZone = this.settings.timeZone ?? opts.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
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
    if (!this.variant) return null;
    const problem = receiptProblem(receipt, this.variant, this.settings);
    if (problem || !this.diag || !isReturn(receipt)) return problem;
    const origin = this.origin(this.variant, receipt);
    return typeof origin === 'string' ? origin : null;
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
    const code = v.errorCode(text);
    // X names the refusal by its error code (X p.5); the status bit beside it ("not allowed") says less.
    if (fault && !(code && COMMAND_ERROR_BITS.includes(fault.vendorCode))) throw new DeviceError(fault.code, `${CMD_NAMES[cmd]}: ${fault.text}`, false, fault.vendorCode);
    if (code) throw new DeviceError('REJECTED', `${CMD_NAMES[cmd]}: refused with error ${code} (${X_ERRORS[code] ?? 'see the error table of the X manual'})`, false, `E${code}`);
    return text;
  }

  private async parse<T>(v: Variant, cmd: number, data: string, parser: (d: string) => T, printing = false): Promise<T> {
    const text = await this.cmd(v, cmd, data, printing);
    try {
      return parser(text);
    } catch (e) {
      if (e instanceof RefusedReply) throw new DeviceError('REJECTED', `${CMD_NAMES[cmd]}: ${e.message}`, false, e.vendorCode);
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
   * Makes a document that is not a receipt (a void, a report, a service receipt closed) and, on P and C,
   * remembers its 71h number as such: only when 71h moved, since a printer that does not number it
   * would otherwise mark the receipt before it.
   */
  private async notReceipt<T>(v: Variant, make: () => Promise<T>): Promise<T> {
    if (v.numberFrom !== 'lastDocumentNumber') return make();
    const before = await this.lastNumber(v).catch(() => null);
    const made = await make();
    const after = await this.lastNumber(v).catch(() => null);
    if (before !== null && after !== null && after > before) {
      this.notReceipts.push(after);
      if (this.notReceipts.length > 16) this.notReceipts.shift();
    }
    return made;
  }

  /**
   * Settles whatever receipt is open, and says how: 'none' (nothing open), 'voided' (an unpaid
   * receipt: 3Ch, so it is not a receipt), 'finished' (paid: the printer refuses 3Ch after 35h, P p.22,
   * C p.16, so the rest is paid and it is closed: it is a fiscal receipt). A service receipt left open
   * (status 2.5, X 4Ch IsOpen 5) is closed (27h): it would refuse every fiscal one.
   */
  private async recover(v: Variant): Promise<'none' | 'voided' | 'finished'> {
    const s = await this.statusBytes(v);
    let tx = v.name === 'X' ? await this.transaction(v) : null;
    if (hasFlag(v, s, 'nonFiscalReceiptOpen') || tx?.nonFiscal) {
      await this.notReceipt(v, () => this.cmd(v, CMD.closeNonFiscalReceipt, '', true));
      if (tx?.nonFiscal) tx = await this.transaction(v);
    }
    const open = tx ? tx.open : hasFlag(v, s, 'fiscalReceiptOpen') || hasFlag(v, s, 'stornoReceiptOpen');
    if (!open) return 'none';
    tx ??= await this.transaction(v);
    const paid = tx.tender !== null && new Decimal(tx.tender).gt(0);
    if (!paid) {
      await this.notReceipt(v, () => this.cmd(v, CMD.cancelFiscalReceipt, '', true));
      this.paying = null;
      return 'voided';
    }
    await this.payRest(v, new Decimal(tx.tender!), new Decimal(tx.amount ?? 0));
    await this.cmd(v, CMD.closeFiscalReceipt, '', true);
    this.paying = null;
    return 'finished';
  }

  /**
   * Pays what is left of an open receipt as the hub recorded it (issue 27, point 10): the planned
   * payments not yet covered by what the printer says was paid, in their own modes, so the fiscal
   * memory and the hub book the same payment types. Without the plan (the hub restarted in between)
   * the rest goes in cash, as ErpNet.FP's Reset does.
   */
  private async payRest(v: Variant, tendered: Decimal, total: Decimal): Promise<void> {
    if (tendered.gte(total)) return;
    const plan = this.paying;
    let covered = new Decimal(0);
    if (plan) {
      for (const [i, mode] of plan.modes.entries()) {
        const upTo = covered.plus(plan.amounts[i]);
        const due = upTo.minus(Decimal.max(covered, tendered));
        covered = upTo;
        if (due.lte(0)) continue;
        const r = await this.parse(v, CMD.total, v.payment(mode, amount(due)), (d) => v.parsePayment(d), true);
        if (r.code === 'R') return;
      }
    }
    const rest = total.minus(Decimal.max(tendered, covered));
    if (rest.gt(0)) await this.cmd(v, CMD.total, v.payment(plan?.modes.at(-1) ?? v.payments.Cash, amount(rest)), true);
  }

  /** The receipt a return refunds, as its storno receipt quotes it; a string says why it cannot be referenced. */
  private origin(v: Variant, receipt: Receipt): StornoOrigin | string {
    const o = receipt.returnOf;
    if (!o) return 'a return is refunded on a storno receipt, which must quote the original receipt: this return names none (returnOf)';
    if (!Number.isInteger(o.number) || o.number < 1 || o.number > 9_999_999) return `the original receipt's number ${o.number} is not a document number of a Datecs printer (1-9999999)`;
    const fm = o.fiscalMemorySerialNumber.trim();
    if (!/^\d{8}$/.test(fm)) return `the original receipt's fiscal memory number '${o.fiscalMemorySerialNumber}' is not 8 digits: fiscal device ${o.fiscalName} issued it, which no storno receipt of a Datecs printer can quote`;
    const at = new Date(o.date);
    if (Number.isNaN(at.getTime())) return `the original receipt's date '${o.date}' is not a date`;
    const own = this.diag!.fiscalMemorySerialNumber.trim();
    let unp: string | null = null;
    if (this.settings.uniqueSaleNumber && fm !== own) {
      return `the original receipt was issued by fiscal memory ${fm}, not by this printer's (${own}), on fiscal device ${o.fiscalName}: its unique sale number, which the storno receipt must quote, is known only for this printer's own receipts (close the return on ${o.fiscalName})`;
    }
    if (fm === own) {
      // The УНП the original carries, as its close recorded it; else (a close recorded before the hub kept
      // it, or settled after a restart) rebuilt as printReceipt chose it: <serial>-<operator>-<last number + 1>,
      // which is the original's own number unless a report came between (X numbers receipts only).
      const recorded = o.unp !== undefined && /^[0-9A-Za-z]{8}-[0-9A-Za-z]{4}-\d{7}$/.test(o.unp) ? o.unp : null;
      unp = recorded ?? (this.settings.uniqueSaleNumber ? uniqueSaleNumber(this.diag!.serialNumber, this.settings.operator, o.number) : null);
    }
    if (v.name === 'P' && !unp) return 'P firmware opens a storno receipt of returned items only with the original receipt\'s unique sale number, and this printer issues none (UniqueSaleNumber=false or no 8-character serial)';
    return { number: o.number, date: localParts(at, this.timeZone), fiscalMemorySerialNumber: fm, unp };
  }

  /**
   * Counts a refused 30h/2Eh/2Bh that may have been a wrong operator password (issue 27, point 9): on X
   * only error -102002 (ERR_OPER_WRONG_PASSWORD, X v2.08 error table); classic firmware has no code of
   * its own for it and refuses with S1.1 "not allowed", as it does when a Z report is overdue, so S1.1
   * counts there and a Z report made since (the usual cure) releases the guard. Answers the error with
   * its cause in words.
   */
  private countRefusal(v: Variant, e: unknown, closure: number, storno: boolean): unknown {
    if (!(e instanceof DeviceError) || e.code !== 'REJECTED') return e;
    // Classic: S1.1, or C's ErrCode `F` (C p.10), which names no cause either.
    const wrongPassword = v.name === 'X' ? e.vendorCode === `E${X_WRONG_PASSWORD}` : e.vendorCode === 'S1.1' || e.vendorCode === 'F';
    if (!wrongPassword) return e;
    this.openRefusals += 1;
    const message =
      v.name === 'X'
        ? `the printer refused the operator password (${e.message})`
        : `the printer refused to open a ${storno ? 'storno ' : ''}receipt (${e.message}): a Z report is overdue (the day is older than 24 hours), or the operator password is wrong${storno ? ', or the printer does not accept the original receipt it quotes' : ''}`;
    this.lastRefusal = { message, closure };
    return new DeviceError('REJECTED', message, false, e.vendorCode);
  }

  /** Classic: a Z report made since the last refusal (here or at the keyboard) releases the guard for one more try. */
  private releaseGuard(v: Variant, closure: number): void {
    if (v.name === 'X' || !this.lastRefusal || closure === this.lastRefusal.closure) return;
    this.openRefusals = Math.min(this.openRefusals, MAX_OPEN_REFUSALS - 1);
    this.lastRefusal = { ...this.lastRefusal, closure };
  }

  printReceipt(receipt: Receipt, jobId: string): Promise<FiscalResult> {
    return this.document(async (v) => {
      let plan: ReceiptPlan;
      try {
        plan = planReceipt(receipt, v, this.settings, jobId, v.commentMaxFor(this.diag!.model));
      } catch (e) {
        throw new DeviceError('REJECTED', (e as Error).message, false, 'PLAN');
      }
      const origin = plan.storno ? this.origin(v, receipt) : null;
      if (typeof origin === 'string') throw new DeviceError('REJECTED', origin, false, 'RETURN');
      // A receipt left open by an earlier failure is settled first (voided, or finished if paid).
      await this.recover(v);
      const status = await this.statusBytes(v);
      const blocked = faultOf(v, status, true);
      if (blocked) throw new DeviceError(blocked.code, blocked.text, false, blocked.vendorCode);
      const closure = await this.lastZ(v);
      this.releaseGuard(v, closure);
      if (this.openRefusals >= MAX_OPEN_REFUSALS) {
        throw new DeviceError(
          'REJECTED',
          `not trying again after ${this.openRefusals} refusals, since a third wrong operator password locks the printer until it is switched off and on; the last: ${this.lastRefusal?.message ?? ''} (check OperatorCode/OperatorPassword and save the device again${v.name === 'X' ? '' : ', or make a Z report'})`,
          false,
          'OPEN-GUARD',
        );
      }
      const before = await this.lastNumber(v);
      const unp = this.settings.uniqueSaleNumber ? uniqueSaleNumber(this.diag!.serialNumber, this.settings.operator, before + 1) : null;
      const password = this.settings.password ?? v.defaultPassword(this.diag!.model, this.settings.operator);
      try {
        this.opened = null;
        const openCmd = origin ? v.storno.cmd : CMD.openFiscalReceipt;
        const answer = await this.cmd(
          v,
          openCmd,
          origin ? v.storno.open(this.settings.operator, password, this.settings.till, origin) : v.open(this.settings.operator, password, this.settings.till, unp),
          true,
        );
        if (v.openRefused(answer)) throw new DeviceError('REJECTED', `${CMD_NAMES[openCmd]}: refused (the printer answered F)`, false, 'F');
        if (!origin && unp) this.opened = { number: v.openedNumber(answer) ?? before + 1, unp };
        this.openRefusals = 0;
        this.lastRefusal = null;
      } catch (e) {
        throw this.countRefusal(v, e, closure, origin !== null);
      }
      this.paying = { modes: plan.modes, amounts: plan.amounts.map((a) => new Decimal(a)) };
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
        // Where the receipt stands decides the outcome: voided or never open is no receipt; finished
        // (it had been paid) is this job's receipt; unknown only when the printer cannot say.
        const settled = await this.recover(v).catch(() => null);
        if (settled === 'finished') return this.issued(v, plan, closure, origin ? null : unp);
        if (settled !== null || !paying) {
          // Without a payment nothing can fiscalize it: any later settling voids an unpaid receipt.
          throw e instanceof DeviceError ? new DeviceError(e.code, e.message, false, e.vendorCode) : e;
        }
        throw unknown(e);
      }
      // The close is the fiscalization: from its sending on, a failure leaves the outcome unknown.
      let closeReply: string;
      try {
        closeReply = await this.cmd(v, CMD.closeFiscalReceipt, '', true);
      } catch (e) {
        throw unknown(e);
      }
      this.paying = null;
      const counts = v.name === 'X' ? null : closeReply.split(',')[1];
      if (counts && /^\d+$/.test(counts.trim())) this.dayReceipts = Number(counts);
      else this.dayReceipts = (this.dayReceipts ?? 0) + 1;
      return this.issued(v, plan, closure, origin ? null : unp);
    });
  }

  /** The result of a receipt the printer just closed: its number as the printer tells it, and the УНП it was opened with. */
  private async issued(v: Variant, plan: ReceiptPlan, closure: number, unp: string | null): Promise<FiscalResult> {
    let number: number;
    try {
      number = await this.lastNumber(v);
    } catch (e) {
      throw unknown(e);
    }
    return {
      number,
      date: this.clock().toISOString(),
      amount: plan.storno ? new Decimal(plan.total).neg().toFixed(2) : plan.total,
      dailySalesReportNumber: closure + 1,
      fiscalMemorySerialNumber: this.diag!.fiscalMemorySerialNumber,
      ...(unp ? { unp } : {}),
    };
  }

  /**
   * The last document and, when it is an issued fiscal receipt (a sale or a storno receipt, closed and
   * paid), its amount; a void or a report answers amount 0: it charged and refunded nothing. A receipt
   * left open is settled first (a paid one is finished and so becomes the last receipt; an unpaid one
   * is voided). X: 4Ch tells number, amount and payment of one receipt, and is read with no receipt
   * open (while one is, its Number is the open receipt's own). P and C: 71h numbers every document and
   * 4Ch tells of the last fiscal receipt, which was voided when nothing was paid on it (3Ch is refused
   * after 35h, P p.22, C p.16); a number of this driver's own voids and reports is never a receipt's.
   */
  lastDocument(): Promise<LastDocument | null> {
    return this.document(async (v) => {
      await this.recover(v);
      const tx = await this.transaction(v);
      const number = v.numberFrom === 'transactionStatus' ? (tx.number ?? 0) : await this.lastNumber(v);
      if (number === 0) return null;
      const paid = !tx.open && tx.tender !== null && new Decimal(tx.tender).gt(0);
      const receipt = paid && !this.notReceipts.includes(number);
      const unp = receipt && this.opened?.number === number ? this.opened.unp : null;
      return { number, date: this.clock().toISOString(), amount: receipt ? (tx.amount ?? '0') : '0', ...(unp ? { unp } : {}) };
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
      const r = await this.notReceipt(v, () => this.parse(v, CMD.dailyReport, v.dailyReport(kind), (d) => v.parseReport(d), true));
      const receipts = this.dayReceipts ?? 0;
      if (kind === 'Z') {
        this.dayReceipts = 0;
        // A Z report cures an overdue day, the usual cause of a classic refusal to open (countRefusal).
        this.releaseGuard(v, r.closure);
      }
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

/** `at` as day, month, year and time on the wall clock of `timeZone` (a storno receipt quotes the original's local time). */
function localParts(at: Date, timeZone: string): StornoOrigin['date'] {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { day: Number(parts.day), month: Number(parts.month), year: Number(parts.year), hour: Number(parts.hour), minute: Number(parts.minute), second: Number(parts.second) };
}

/** Status bits that refuse a command as such (syntax, code, overflow, not allowed: P p.4, C p.3, X p.45). */
const COMMAND_ERROR_BITS = ['S0.0', 'S0.1', 'S1.0', 'S1.1'];

function unknown(e: unknown): DeviceError {
  if (e instanceof DeviceError) return new DeviceError(e.code, `${e.message} (after a payment or the close command: the receipt may be fiscalized)`, true, e.vendorCode);
  return new DeviceError('PROTOCOL', String(e), true);
}
