/**
 * The receipt and kitchen printer driver: one connection per printer, one job in flight. Before a
 * job it asks the printer's real-time status and refuses to send to a printer that is out of paper,
 * open or in error; after the job's bytes it sends a request the printer acts on only once it has
 * printed everything before it — its answer, not the socket write, confirms the job. ESC/POS
 * printers answer DLE EOT and GS r; Star Line mode printers ESC ACK SOH and ETB (protocol.ts).
 */
import { DeviceError } from '../faults.js';
import type { DeviceAddress } from '../transport/address.js';
import type { Channel } from '../transport/channel.js';
import type { ChannelOptions } from '../transport/open.js';
import { ReconnectingChannel, realTimers, type Backoff, type ReconnectingOptions, type Timers } from '../transport/reconnecting.js';
import { blockingFault, type PrinterState } from './commands.js';
import { realtimeByteFramer, statusProtocol, type PrinterDialect, type Replies, type StatusProtocol } from './protocol.js';

export interface EscPosPrinterOptions {
  channel?: Partial<ChannelOptions>;
  backoff?: Backoff;
  timers?: Timers;
  open?: ReconnectingOptions['open'];
  /** The printer's command language (its profile's); ESC/POS when not given. */
  dialect?: PrinterDialect;
  /** Deadline for the real-time status replies (answered at once by a live printer). */
  statusTimeoutMs?: number;
  /** Deadline for the confirmation while the printer is working through the job. */
  confirmTimeoutMs?: number;
  /** How often a printer that does not announce the end of a job by itself (Star) is asked whether it is done. */
  confirmPollMs?: number;
  /** How often a printer that has not confirmed the job yet is asked for its status. */
  stallPollMs?: number;
  /** How long such a job is left to finish before its outcome is declared unknown. */
  maxStallMs?: number;
}

export interface PrintHooks {
  /**
   * Called once the status check passed, right before the job's bytes go out; they go out when it
   * resolves (the hub records the send, and waits until that record is on disk).
   */
  beforeSend?: () => void | Promise<void>;
  /** The printer stopped with the job inside (paper ran out, cover opened): it prints the rest once fixed. */
  onStall?: (fault: DeviceError) => void;
  onResume?: () => void;
}

const DEFAULTS = { statusTimeoutMs: 2000, confirmTimeoutMs: 20_000, confirmPollMs: 250, stallPollMs: 2000, maxStallMs: 30 * 60_000 };

const fault = (f: NonNullable<ReturnType<typeof blockingFault>>, outcomeUnknown: boolean) => new DeviceError(f.code, f.message, outcomeUnknown, f.vendorCode);

export class EscPosPrinter {
  readonly connection: ReconnectingChannel;
  private readonly o: typeof DEFAULTS;
  private readonly timers: Timers;
  private readonly protocol: StatusProtocol;
  private last: PrinterState | null = null;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(address: DeviceAddress | string, opts: EscPosPrinterOptions = {}) {
    this.timers = opts.timers ?? realTimers;
    this.protocol = statusProtocol(opts.dialect ?? 'escpos');
    this.connection = new ReconnectingChannel(address, { channel: opts.channel, backoff: opts.backoff, timers: this.timers, open: opts.open });
    this.o = { ...DEFAULTS, ...Object.fromEntries(Object.entries(opts).filter(([k, v]) => k in DEFAULTS && v !== undefined)) };
  }

  /** The state from the last status reply (null before the first). */
  get lastState(): PrinterState | null {
    return this.last;
  }

  /** The printer's real-time status. */
  status(): Promise<PrinterState> {
    return this.exclusive(async () => this.queryStatus(await this.connection.get()));
  }

  /**
   * Prints `job` (rendered bytes, document.ts) and resolves once the printer confirmed it. A
   * DeviceError with outcomeUnknown=false means nothing was sent; with true, the job may have printed.
   */
  print(job: Uint8Array, hooks: PrintHooks = {}): Promise<PrinterState> {
    return this.exclusive(async () => {
      const ch = await this.connection.get();
      const before = await this.queryStatus(ch);
      const blocked = blockingFault(before);
      if (blocked) throw fault(blocked, false);
      this.protocol.jobStarts();
      await hooks.beforeSend?.();
      try {
        await ch.write(Uint8Array.from([...job, ...this.protocol.confirmRequest]));
      } catch (e) {
        throw this.broken(e, true);
      }
      return this.confirm(ch, hooks);
    });
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Drops the connection after a failure on it; `outcomeUnknown` says whether job bytes were out. */
  private broken(e: unknown, outcomeUnknown: boolean): DeviceError {
    const err = e instanceof DeviceError ? new DeviceError(e.code, e.message, outcomeUnknown, e.vendorCode) : new DeviceError('PROTOCOL', String(e), outcomeUnknown);
    // A printer that takes connections but does not answer counts toward the backoff.
    this.connection.reset(err, err.code === 'TIMEOUT');
    return err;
  }

  private async queryStatus(ch: Channel): Promise<PrinterState> {
    ch.discard(); // a late reply to an earlier, abandoned request
    let state: PrinterState;
    try {
      await ch.write(Uint8Array.from(this.protocol.statusRequest));
      state = this.statusOf(await this.ask(ch, { status: true, confirm: false }, this.o.statusTimeoutMs));
    } catch (e) {
      throw this.broken(e, false);
    }
    this.connection.working();
    this.last = await this.detailed(ch, state);
    return this.last;
  }

  /** `state` with what the printer tells on a further request (the cause of an error), if it tells. */
  private async detailed(ch: Channel, state: PrinterState): Promise<PrinterState> {
    const request = this.protocol.detailRequest(state);
    if (!request) return state;
    try {
      await ch.write(Uint8Array.from(request));
      const reply = await ch.read(realtimeByteFramer, this.o.statusTimeoutMs);
      return this.protocol.withDetail(state, reply[reply.length - 1]);
    } catch {
      // A printer without it keeps the error unspecified, which holds the job all the same. The
      // connection is dropped so that a late reply cannot be read as part of the next status.
      this.connection.reset();
      return state;
    }
  }

  /** Reads the replies `want` names, within `timeoutMs`. */
  private async ask(ch: Channel, want: { status: boolean; confirm: boolean }, timeoutMs: number): Promise<Replies> {
    return this.protocol.read(await ch.read(this.protocol.framer(want), timeoutMs), this.last);
  }

  private statusOf(r: Replies): PrinterState {
    if (!r.status) throw new DeviceError('PROTOCOL', `${this.connection.label}: the reply held no status`);
    return r.status;
  }

  private async confirm(ch: Channel, hooks: PrintHooks): Promise<PrinterState> {
    let deadline = this.timers.now() + this.o.confirmTimeoutMs;
    let stalledSince: number | null = null;
    // A printer that announces the end of a job is asked its status only when the announcement is
    // late; one that does not (Star) is asked often, so a short ticket is not held for seconds.
    const poll = this.protocol.pushesConfirmation ? this.o.stallPollMs : Math.min(this.o.confirmPollMs, this.o.stallPollMs);
    for (;;) {
      // Ask every poll interval rather than only at the deadline, so a printer that stopped with
      // the job inside is reported while it waits, not half a minute later.
      const wait = stalledSince !== null ? this.o.stallPollMs : Math.max(1, Math.min(poll, deadline - this.timers.now()));
      let got: Replies;
      try {
        got = await this.ask(ch, { status: false, confirm: true }, wait);
      } catch (e) {
        if (!(e instanceof DeviceError) || e.code !== 'TIMEOUT') throw this.broken(e, true);
        // No confirmation yet: ask the printer (real-time, answered even when stopped) why.
        try {
          await ch.write(Uint8Array.from(this.protocol.statusRequest));
          got = await this.ask(ch, { status: true, confirm: true }, this.o.statusTimeoutMs);
        } catch (e2) {
          throw this.broken(e2, true);
        }
      }
      if (got.confirmed) {
        this.last = got.confirmed;
        return got.confirmed;
      }
      try {
        this.last = this.statusOf(got);
      } catch (e) {
        throw this.broken(e, true);
      }
      const blocked = blockingFault(this.last);
      const now = this.timers.now();
      if (blocked) {
        if (stalledSince === null) {
          stalledSince = now;
          hooks.onStall?.(fault(blocked, true));
        } else if (now - stalledSince >= this.o.maxStallMs) {
          throw this.broken(fault(blocked, true), true);
        }
      } else if (stalledSince !== null) {
        stalledSince = null;
        deadline = now + this.o.confirmTimeoutMs;
        hooks.onResume?.();
      } else if (now >= deadline) {
        throw this.broken(new DeviceError('TIMEOUT', `${this.connection.label}: the job was not confirmed within ${this.o.confirmTimeoutMs} ms`), true);
      }
    }
  }
}
