/**
 * A device connection that survives the device: it opens a channel on demand, reopens it after the
 * device dropped it, and after a failed attempt waits out a growing backoff before dialling again,
 * so a printer that is switched off costs one refused connection per backoff step, not a storm.
 * 'online' and 'offline' are emitted on transitions only, which is what "logged once, not per retry"
 * needs.
 */
import { EventEmitter } from 'node:events';
import { DeviceError } from '../faults.js';
import { formatAddress, parseAddress, type DeviceAddress } from './address.js';
import type { Channel } from './channel.js';
import { openChannel, type ChannelOptions } from './open.js';

export interface Backoff {
  initialMs: number;
  maxMs: number;
  factor: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 30_000, factor: 2 };

/** Time as the backoff sees it; tests pass a fake so no test waits for real. */
export interface Timers {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realTimers: Timers = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
};

export function backoffDelay(b: Backoff, failures: number): number {
  if (failures <= 0) return 0;
  return Math.min(b.maxMs, Math.round(b.initialMs * b.factor ** (failures - 1)));
}

export interface ReconnectingOptions {
  channel?: Partial<ChannelOptions>;
  backoff?: Backoff;
  timers?: Timers;
  /** How a channel is opened; the default is the real transports. */
  open?: (address: DeviceAddress, opts: Partial<ChannelOptions>) => Promise<Channel>;
}

export type Availability = 'unknown' | 'online' | 'offline';

export class ReconnectingChannel extends EventEmitter<{ online: []; offline: [DeviceError] }> {
  readonly address: DeviceAddress;
  readonly label: string;
  private current: Channel | null = null;
  private opening: Promise<Channel> | null = null;
  private failures = 0;
  private nextAttemptAt = 0;
  private closed = false;
  private availability: Availability = 'unknown';
  /**
   * False after the device took a connection but did not work on it (reset with `counts`): opening
   * a connection again does not make it online, only a reply does (working()). So a printer that
   * accepts and never answers stays offline instead of flapping with every reconnect.
   */
  private proven = true;
  private error: DeviceError | null = null;
  private readonly backoff: Backoff;
  private readonly timers: Timers;
  private readonly opener: NonNullable<ReconnectingOptions['open']>;

  constructor(
    address: DeviceAddress | string,
    private readonly opts: ReconnectingOptions = {},
  ) {
    super();
    this.address = typeof address === 'string' ? parseAddress(address) : address;
    this.label = formatAddress(this.address);
    this.backoff = opts.backoff ?? DEFAULT_BACKOFF;
    this.timers = opts.timers ?? realTimers;
    this.opener = opts.open ?? openChannel;
  }

  get state(): Availability {
    return this.availability;
  }

  get lastError(): DeviceError | null {
    return this.error;
  }

  /** Milliseconds until the next connection attempt is allowed (0: now). */
  retryInMs(): number {
    return Math.max(0, this.nextAttemptAt - this.timers.now());
  }

  /**
   * The open channel, opening one if needed. While a backoff is running this fails at once with
   * OFFLINE instead of dialling, so callers never wait on a device that just refused them.
   */
  async get(): Promise<Channel> {
    if (this.closed) throw new DeviceError('OFFLINE', `${this.label}: closed`);
    if (this.current?.isOpen) return this.current;
    this.current = null;
    if (this.opening) return this.opening;
    const wait = this.retryInMs();
    if (wait > 0) throw this.error ?? new DeviceError('OFFLINE', `${this.label}: offline, next attempt in ${wait} ms`);
    this.opening = this.attempt().finally(() => (this.opening = null));
    return this.opening;
  }

  /** Sleeps until the backoff allows the next attempt (at once when it already does). */
  async waitForRetry(signal?: AbortSignal): Promise<void> {
    const ms = this.retryInMs();
    if (ms > 0) await this.timers.sleep(ms, signal);
  }

  /**
   * Drops the current channel after a failure on it (a timeout, a garbled reply): the next get()
   * opens a fresh one. `counts` also starts the backoff, for a device that accepts connections but
   * does not work.
   */
  reset(error?: DeviceError, counts = false): void {
    const ch = this.current;
    this.current = null;
    if (ch) void ch.close();
    if (counts && error) {
      this.proven = false;
      this.failed(error);
    }
  }

  /** The device answered on the current connection: it is online, and its backoff starts over. */
  working(): void {
    this.proven = true;
    this.failures = 0;
    this.nextAttemptAt = 0;
    this.error = null;
    this.markOnline();
  }

  async close(): Promise<void> {
    this.closed = true;
    const ch = this.current ?? (await this.opening?.catch(() => null)) ?? null;
    this.current = null;
    if (ch) await ch.close();
  }

  private async attempt(): Promise<Channel> {
    let ch: Channel;
    try {
      ch = await this.opener(this.address, this.opts.channel ?? {});
    } catch (e) {
      const err = e instanceof DeviceError ? e : new DeviceError('OFFLINE', `${this.label}: ${(e as Error).message}`);
      this.failed(err);
      throw err;
    }
    if (this.closed) {
      await ch.close();
      throw new DeviceError('OFFLINE', `${this.label}: closed`);
    }
    this.current = ch;
    // A device that only took connections before is not online (nor forgiven its backoff) until it answers.
    if (this.proven) this.working();
    return ch;
  }

  private markOnline(): void {
    if (this.availability !== 'online') {
      this.availability = 'online';
      this.emit('online');
    }
  }

  private failed(err: DeviceError): void {
    this.failures += 1;
    this.error = err;
    this.nextAttemptAt = this.timers.now() + backoffDelay(this.backoff, this.failures);
    if (this.availability !== 'offline') {
      this.availability = 'offline';
      this.emit('offline', err);
    }
  }
}
