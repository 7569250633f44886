/**
 * The ESC/POS printer driver: one connection per printer, one job in flight. Before a job it asks
 * the printer's real-time status (DLE EOT) and refuses to send to a printer that is out of paper,
 * open or in error; after the job's bytes it sends GS r, which the printer answers only once it has
 * processed everything before it — that reply, not the socket write, confirms the job.
 */
import { DeviceError } from '../faults.js';
import type { DeviceAddress } from '../transport/address.js';
import type { Channel } from '../transport/channel.js';
import type { ChannelOptions } from '../transport/open.js';
import { ReconnectingChannel, realTimers, type Backoff, type ReconnectingOptions, type Timers } from '../transport/reconnecting.js';
import { blockingFault, cmd, isRealtimeReply, isTransmitReply, parseStatusReplies, parseTransmitPaperStatus, STATUS_REQUEST, type PrinterState } from './commands.js';

export interface EscPosPrinterOptions {
  channel?: Partial<ChannelOptions>;
  backoff?: Backoff;
  timers?: Timers;
  open?: ReconnectingOptions['open'];
  /** Deadline for the DLE EOT replies (answered at once by a live printer). */
  statusTimeoutMs?: number;
  /** Deadline for the GS r reply while the printer is working through the job. */
  confirmTimeoutMs?: number;
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

const DEFAULTS = { statusTimeoutMs: 2000, confirmTimeoutMs: 20_000, stallPollMs: 2000, maxStallMs: 30 * 60_000 };

/** The replies a read waits for: the GS r byte, and/or a number of DLE EOT bytes; other bytes are skipped. */
function replies(wantTransmit: boolean, wantRealtime: number) {
  return (buf: Buffer) => {
    let realtime = 0;
    for (let i = 0; i < buf.length; i++) {
      if (wantTransmit && isTransmitReply(buf[i])) return i + 1;
      if (isRealtimeReply(buf[i]) && ++realtime === wantRealtime) return i + 1;
    }
    return 0;
  };
}

function split(bytes: Buffer): { transmit: number | null; realtime: number[] } {
  const transmit = [...bytes].find(isTransmitReply);
  return { transmit: transmit ?? null, realtime: [...bytes].filter(isRealtimeReply) };
}

const fault = (f: NonNullable<ReturnType<typeof blockingFault>>, outcomeUnknown: boolean) => new DeviceError(f.code, f.message, outcomeUnknown, f.vendorCode);

export class EscPosPrinter {
  readonly connection: ReconnectingChannel;
  private readonly o: typeof DEFAULTS;
  private readonly timers: Timers;
  private last: PrinterState | null = null;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(address: DeviceAddress | string, opts: EscPosPrinterOptions = {}) {
    this.timers = opts.timers ?? realTimers;
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
   * Prints `job` (rendered ESC/POS bytes) and resolves once the printer confirmed it. A DeviceError
   * with outcomeUnknown=false means nothing was sent; with true, the job may have printed.
   */
  print(job: Uint8Array, hooks: PrintHooks = {}): Promise<PrinterState> {
    return this.exclusive(async () => {
      const ch = await this.connection.get();
      const before = await this.queryStatus(ch);
      const blocked = blockingFault(before);
      if (blocked) throw fault(blocked, false);
      await hooks.beforeSend?.();
      try {
        await ch.write(Uint8Array.from([...job, ...cmd.transmitPaperStatus()]));
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
    try {
      await ch.write(Uint8Array.from(STATUS_REQUEST));
      const { realtime } = split(await ch.read(replies(false, 4), this.o.statusTimeoutMs));
      this.last = parseStatusReplies(realtime);
      return this.last;
    } catch (e) {
      throw this.broken(e, false);
    }
  }

  private async confirm(ch: Channel, hooks: PrintHooks): Promise<PrinterState> {
    let deadline = this.timers.now() + this.o.confirmTimeoutMs;
    let stalledSince: number | null = null;
    for (;;) {
      // Ask every poll interval rather than only at the deadline, so a printer that stopped with
      // the job inside is reported while it waits, not half a minute later.
      const wait = stalledSince !== null ? this.o.stallPollMs : Math.max(1, Math.min(this.o.stallPollMs, deadline - this.timers.now()));
      let got: { transmit: number | null; realtime: number[] };
      try {
        got = split(await ch.read(replies(true, 0), wait));
      } catch (e) {
        if (!(e instanceof DeviceError) || e.code !== 'TIMEOUT') throw this.broken(e, true);
        // No confirmation yet: ask the printer (real-time, answered even when stopped) why.
        try {
          await ch.write(Uint8Array.from(STATUS_REQUEST));
          got = split(await ch.read(replies(true, 4), this.o.statusTimeoutMs));
        } catch (e2) {
          throw this.broken(e2, true);
        }
      }
      if (got.transmit !== null) {
        const paper = parseTransmitPaperStatus(got.transmit);
        const state: PrinterState = { ...(this.last ?? parseStatusReplies([0x12, 0x12, 0x12, 0x12])), online: true, coverOpen: false, error: null, paper: paper.end ? 'out' : paper.nearEnd ? 'low' : 'ok' };
        this.last = state;
        return state;
      }
      this.last = parseStatusReplies(got.realtime);
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
