/**
 * A channel is an open byte pipe to one device, whatever carries it (a TCP socket or a serial
 * port). Drivers write commands and read replies through it; every write and read has a deadline,
 * so a silent device turns into a TIMEOUT instead of a hung request.
 */
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { DeviceError } from '../faults.js';

/**
 * What a read waits for: a byte count, or a framer that looks at the buffered input and answers how
 * many leading bytes form a complete reply (0 while more are needed). A framer may answer a length
 * for bytes it wants to skip (a keep-alive byte, garbage before a frame) and read again.
 */
export type ReadWant = number | ((buffered: Buffer) => number);

export interface Channel {
  /** The address as text, for logs and errors. */
  readonly address: string;
  readonly isOpen: boolean;
  /**
   * Resolves when the bytes are handed to the OS (socket or tty), not when the device has acted on
   * them: confirmation is the protocol's job. On timeout the channel is destroyed, because what the
   * device received is unknown.
   */
  write(bytes: Uint8Array, timeoutMs?: number): Promise<void>;
  /** The next reply per `want`; input that arrived earlier is buffered and counts. One read at a time. */
  read(want: ReadWant, timeoutMs: number): Promise<Buffer>;
  /** Drops buffered input (a stale reply from an earlier, timed-out request) and returns it. */
  discard(): Buffer;
  close(): Promise<void>;
  on(event: 'close', listener: (error?: Error) => void): this;
  off(event: 'close', listener: (error?: Error) => void): this;
}

export interface ChannelTimeouts {
  connectTimeoutMs: number;
  writeTimeoutMs: number;
  /** How long a clean close may take before the connection is dropped hard. */
  closeTimeoutMs?: number;
}

interface Waiter {
  want: ReadWant;
  resolve: (b: Buffer) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * The shared half of both transports: a Duplex with a small input buffer, deadlines on writes and
 * reads, and one 'close' event whether the device went away or we closed it.
 */
export class StreamChannel extends EventEmitter implements Channel {
  private input: Buffer = Buffer.alloc(0);
  private waiter: Waiter | null = null;
  private closed = false;
  private closeError: Error | undefined;

  constructor(
    readonly address: string,
    private readonly stream: Duplex,
    private readonly timeouts: ChannelTimeouts,
    /** Ends the stream politely; the default ends the writable side and waits for 'close'. */
    private readonly endGracefully: (done: () => void) => void = (done) => {
      stream.end();
      stream.once('close', done);
    },
  ) {
    super();
    stream.on('data', (chunk: Buffer) => {
      this.input = this.input.length ? Buffer.concat([this.input, chunk]) : chunk;
      this.serve();
    });
    // Errors are reported through 'close' (and through the call that was in flight); an unhandled
    // 'error' event would take the process down.
    stream.on('error', (e: Error) => this.finish(e));
    stream.on('close', () => this.finish(undefined));
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  write(bytes: Uint8Array, timeoutMs = this.timeouts.writeTimeoutMs): Promise<void> {
    if (!this.isOpen) return Promise.reject(this.closedError(false));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const e = new DeviceError('TIMEOUT', `${this.address}: write not accepted within ${timeoutMs} ms`, true);
        reject(e);
        this.destroy(e);
      }, timeoutMs);
      this.stream.write(Buffer.from(bytes), (err) => {
        clearTimeout(timer);
        if (err) reject(new DeviceError('OFFLINE', `${this.address}: write failed: ${err.message}`, true));
        else resolve();
      });
    });
  }

  read(want: ReadWant, timeoutMs: number): Promise<Buffer> {
    if (this.waiter) return Promise.reject(new Error(`${this.address}: a read is already waiting`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(new DeviceError('TIMEOUT', `${this.address}: no reply within ${timeoutMs} ms`, true));
      }, timeoutMs);
      this.waiter = { want, resolve, reject, timer };
      this.serve();
      // Input already buffered may have satisfied it; a closed channel can never.
      if (this.waiter && !this.isOpen) this.failWaiter(this.closedError(true));
    });
  }

  discard(): Buffer {
    const old = this.input;
    this.input = Buffer.alloc(0);
    return old;
  }

  close(): Promise<void> {
    if (!this.isOpen) return Promise.resolve();
    return new Promise((resolve) => {
      const hard = setTimeout(() => {
        this.destroy(undefined);
        resolve();
      }, this.timeouts.closeTimeoutMs ?? 1000);
      this.endGracefully(() => {
        clearTimeout(hard);
        this.finish(undefined);
        resolve();
      });
    });
  }

  /** Drops the connection at once (after a timeout the device's state is unknown anyway). */
  destroy(error?: Error): void {
    this.finish(error);
    this.stream.destroy();
  }

  private serve(): void {
    const w = this.waiter;
    if (!w) return;
    const take = typeof w.want === 'number' ? (this.input.length >= w.want ? w.want : 0) : w.want(this.input);
    if (take <= 0) return;
    const out = Buffer.from(this.input.subarray(0, take));
    this.input = this.input.subarray(take);
    clearTimeout(w.timer);
    this.waiter = null;
    w.resolve(out);
  }

  private failWaiter(e: Error): void {
    const w = this.waiter;
    if (!w) return;
    clearTimeout(w.timer);
    this.waiter = null;
    w.reject(e);
  }

  private closedError(outcomeUnknown: boolean): DeviceError {
    const why = this.closeError ? `: ${this.closeError.message}` : '';
    return new DeviceError('OFFLINE', `${this.address}: connection closed${why}`, outcomeUnknown);
  }

  private finish(error: Error | undefined): void {
    if (this.closed) return;
    this.closed = true;
    this.closeError = error;
    this.failWaiter(this.closedError(true));
    this.emit('close', error);
  }
}
