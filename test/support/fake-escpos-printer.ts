/**
 * A fake ESC/POS printer on 127.0.0.1 for tests and demos. It decodes what it is sent into lines
 * with their styles, groups them into tickets at each cut, answers DLE EOT at once (as a real
 * printer does, even when stopped) and GS r only after everything before it was printed. Faults
 * can be switched on and off: paper out, cover open, refusing connections, accepting but never
 * reading, dropping the connection in the middle of a job or just before its confirmation, and a
 * print speed.
 */
import { EventEmitter } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { decodeText } from '../../drivers/escpos/encoding.js';
import { untilTrue } from './wait.js';

export interface PrintedLine {
  text: string;
  align: 'left' | 'center' | 'right';
  bold: boolean;
  width: number;
  height: number;
  invert: boolean;
}

export interface PrintedTicket {
  lines: PrintedLine[];
  /** False when the connection ended before the cut (a torn-off part of a job). */
  cut: boolean;
  beeps: number;
  /** Date.now() when the cut was made (or the fragment ended). */
  at: number;
}

interface Style {
  align: PrintedLine['align'];
  bold: boolean;
  width: number;
  height: number;
  invert: boolean;
  codeTable: number;
}

const PLAIN: Style = { align: 'left', bold: false, width: 1, height: 1, invert: false, codeTable: 0 };
const ALIGN = ['left', 'center', 'right'] as const;

/** Bytes of each command this fake knows after its first byte(s), for skipping and decoding. */
const ESC_LENGTHS: Record<number, number> = {
  0x40: 2, 0x74: 3, 0x61: 3, 0x45: 3, 0x21: 3, 0x2d: 3, 0x64: 3, 0x70: 5, 0x42: 4, 0x4d: 3, 0x32: 2, 0x33: 3, 0x4a: 3, 0x47: 3, 0x52: 3, 0x56: 3, 0x7b: 3,
};
const GS_LENGTHS: Record<number, number> = { 0x21: 3, 0x42: 3, 0x72: 3, 0x61: 3, 0x4c: 4, 0x57: 4, 0x48: 3, 0x68: 3, 0x77: 3, 0x66: 3 };

class Connection {
  /** Bytes received and not yet printed (real-time commands are taken out on arrival). */
  private pending: number[] = [];
  private style: Style = { ...PLAIN };
  private text: number[] = [];
  private running = false;
  private received = 0;
  closed = false;

  constructor(
    private readonly printer: FakeEscPosPrinter,
    readonly socket: Socket,
  ) {
    // Replies go out at once, as a printer's do (Nagle would hold them for the host's delayed ACK).
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      this.closed = true;
      printer.fragmentEnded();
    });
    if (printer.neverRead) socket.pause();
  }

  private receive(chunk: Buffer): void {
    const p = this.printer;
    p.rawBytes.push(...chunk);
    let bytes = [...chunk];
    if (p.dropAfter !== null) {
      const room = p.dropAfter - this.received;
      if (bytes.length >= room) {
        bytes = bytes.slice(0, Math.max(0, room));
        p.dropAfter = null;
        this.take(bytes);
        this.socket.destroy();
        return;
      }
    }
    this.take(bytes);
  }

  private take(bytes: number[]): void {
    const replies: number[] = [];
    for (const b of bytes) {
      this.pending.push(b);
      this.received++;
      const n = this.pending.length;
      // DLE EOT n is executed on arrival, ahead of the queued print data.
      if (n >= 3 && this.pending[n - 3] === 0x10 && this.pending[n - 2] === 0x04) {
        const which = this.pending[n - 1];
        this.pending.length = n - 3;
        this.printer.statusRequests++;
        replies.push(this.printer.realtimeStatus(which));
      }
    }
    if (replies.length) this.socket.write(Buffer.from(replies));
    void this.run();
  }

  /** Works through the queued bytes while the printer can print. */
  async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (!this.closed && this.pending.length && !this.printer.stalled) {
        // Keep a trailing DLE (or DLE EOT) until the rest of a possible real-time command arrives.
        if (this.pending[0] === 0x10 && this.pending.length < 3) break;
        const { used, printed } = this.step();
        if (used === 0) break; // an incomplete command: wait for more bytes
        this.pending.splice(0, used);
        if (printed && this.printer.lineDelayMs > 0) await new Promise((r) => setTimeout(r, this.printer.lineDelayMs));
      }
    } finally {
      this.running = false;
    }
  }

  /** Executes the command at the head of `pending`: the bytes it used (0 if incomplete) and whether a line came out. */
  private step(): { used: number; printed: boolean } {
    const q = this.pending;
    const done = (used: number, printed = false) => ({ used, printed });
    const lengthOf = (table: Record<number, number>) => (q.length < 2 ? 0 : (table[q[1]] ?? 2));
    switch (q[0]) {
      case 0x0a:
        this.printLine();
        return done(1, true);
      case 0x0d:
      case 0x10: // a DLE that is not DLE EOT
        return done(1);
      case 0x1b: {
        const len = lengthOf(ESC_LENGTHS);
        if (!len || q.length < len) return done(0);
        this.escape(q[1], q[2]);
        return done(len, q[1] === 0x64);
      }
      case 0x1d: {
        if (q.length >= 3 && q[1] === 0x56) {
          // GS V m, or GS V 65/66 n (feed, then cut).
          const len = q[2] === 65 || q[2] === 66 ? 4 : 3;
          if (q.length < len) return done(0);
          this.flushText();
          this.printer.cut();
          return done(len);
        }
        const len = lengthOf(GS_LENGTHS);
        if (!len || q.length < len) return done(0);
        this.groupSeparator(q[1], q[2]);
        return done(len);
      }
      default:
        this.text.push(q[0] < 0x20 ? 0x20 : q[0]);
        return done(1);
    }
  }

  private escape(c: number, n: number): void {
    switch (c) {
      case 0x40:
        this.flushText();
        this.style = { ...PLAIN };
        break;
      case 0x74:
        this.style.codeTable = n;
        break;
      case 0x61:
        this.style.align = ALIGN[n % 48] ?? 'left';
        break;
      case 0x45:
        this.style.bold = (n & 1) === 1;
        break;
      case 0x64:
        for (let i = 0; i < n; i++) this.printLine();
        break;
      case 0x70:
      case 0x42:
        this.printer.beep();
        break;
    }
  }

  private groupSeparator(c: number, n: number): void {
    if (c === 0x21) {
      this.style.width = ((n >> 4) & 7) + 1;
      this.style.height = (n & 7) + 1;
    } else if (c === 0x42) this.style.invert = (n & 1) === 1;
    else if (c === 0x72 && this.printer.dropBeforeConfirm > 0) {
      this.printer.dropBeforeConfirm--;
      this.socket.destroy();
    } else if (c === 0x72) this.socket.write(Buffer.from([this.printer.nearEnd ? 0x03 : 0x00]));
  }

  private flushText(): void {
    if (this.text.length) this.printLine();
  }

  private printLine(): void {
    const line: PrintedLine = {
      text: decodeText(this.text, this.style.codeTable === 18 ? 'cp852' : 'ascii'),
      align: this.style.align,
      bold: this.style.bold,
      width: this.style.width,
      height: this.style.height,
      invert: this.style.invert,
    };
    this.text = [];
    this.printer.current.lines.push(line);
    this.printer.emit('line', line);
  }
}

export class FakeEscPosPrinter extends EventEmitter {
  /** Every ticket cut so far, and fragments left by dropped connections. */
  readonly tickets: PrintedTicket[] = [];
  /** Every byte received, real-time commands included. */
  readonly rawBytes: number[] = [];
  current: PrintedTicket = { lines: [], cut: false, beeps: 0, at: 0 };
  statusRequests = 0;
  connectionsAccepted = 0;
  /** Milliseconds each printed line takes (0: instant). */
  lineDelayMs = 0;
  nearEnd = false;
  /** One-shot: the connection is dropped after this many more bytes from the start of a connection. */
  dropAfter: number | null = null;
  neverRead = false;
  /** This many jobs are printed but their GS r reply is never sent: the connection drops instead. */
  dropBeforeConfirm = 0;
  private paper = true;
  private cover = false;
  private server: Server | null = null;
  private readonly connections = new Set<Connection>();

  private constructor(private boundPort: number) {
    super();
  }

  get port(): number {
    return this.boundPort;
  }

  static async start(port = 0): Promise<FakeEscPosPrinter> {
    const probe = new FakeEscPosPrinter(port);
    await probe.listen();
    return probe;
  }

  get address(): string {
    return `tcp://127.0.0.1:${this.port}`;
  }

  get stalled(): boolean {
    return !this.paper || this.cover;
  }

  /** Paper out: printing stops (DLE EOT still answers); refilled, the rest of the buffer prints. */
  setPaperOut(out: boolean): void {
    this.paper = !out;
    this.resume();
  }

  setCoverOpen(open: boolean): void {
    this.cover = open;
    this.resume();
  }

  /** Accepts connections but never reads them (a printer hung with its buffer full). */
  setNeverRead(on: boolean): void {
    this.neverRead = on;
    for (const c of this.connections) {
      if (on) c.socket.pause();
      else c.socket.resume();
    }
  }

  /** Refusing: nothing listens on the port (a printer switched off). Existing connections drop. */
  async setRefusing(on: boolean): Promise<void> {
    if (on) {
      for (const c of this.connections) c.socket.destroy();
      this.connections.clear();
      const s = this.server;
      this.server = null;
      if (s) await new Promise((r) => s.close(r));
    } else if (!this.server) {
      await this.listen();
    }
  }

  /** The byte DLE EOT n answers in the current state (fixed bits 1 and 4 always set). */
  realtimeStatus(n: number): number {
    const offline = this.stalled;
    switch (n) {
      case 1:
        return 0x12 | (offline ? 0x08 : 0);
      case 2:
        return 0x12 | (this.cover ? 0x04 : 0) | (!this.paper ? 0x20 : 0) | (this.cover ? 0x40 : 0);
      case 3:
        return 0x12;
      case 4:
        return 0x12 | (this.nearEnd ? 0x0c : 0) | (!this.paper ? 0x60 : 0);
      default:
        return 0x12;
    }
  }

  /** A beep right after a cut (kitchen tickets beep once torn off) belongs to the ticket just cut. */
  beep(): void {
    const last = this.tickets[this.tickets.length - 1];
    if (!this.current.lines.length && last) last.beeps++;
    else this.current.beeps++;
  }

  cut(): void {
    this.tickets.push({ ...this.current, cut: true, at: Date.now() });
    this.current = { lines: [], cut: false, beeps: 0, at: 0 };
    this.emit('ticket', this.tickets[this.tickets.length - 1]);
  }

  /** A connection ended: what it printed without a cut stays on the paper as a fragment. */
  fragmentEnded(): void {
    if (!this.current.lines.length) return;
    this.tickets.push({ ...this.current, cut: false, at: Date.now() });
    this.current = { lines: [], cut: false, beeps: 0, at: 0 };
  }

  /** Complete (cut) tickets, each as its lines of text. */
  cutTickets(): string[][] {
    return this.tickets.filter((t) => t.cut).map((t) => t.lines.map((l) => l.text));
  }

  waitFor(cond: () => boolean, timeoutMs = 5000): Promise<void> {
    return untilTrue(cond, { ms: timeoutMs, every: 5, what: 'the fake printer', context: () => `${this.tickets.length} tickets` });
  }

  async close(): Promise<void> {
    await this.setRefusing(true);
  }

  private resume(): void {
    for (const c of this.connections) void c.run();
  }

  private async listen(): Promise<void> {
    const server = createServer((socket) => {
      this.connectionsAccepted++;
      const c = new Connection(this, socket);
      this.connections.add(c);
      socket.on('close', () => this.connections.delete(c));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.boundPort, '127.0.0.1', () => resolve());
    });
    this.boundPort = (server.address() as AddressInfo).port;
    this.server = server;
  }
}
