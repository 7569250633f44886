/**
 * A fake receipt/kitchen printer on 127.0.0.1 for tests and demos. It decodes what it is sent into
 * lines with their styles (and QR codes), groups them into tickets at each cut, answers the
 * real-time status request at once (as a real printer does, even when stopped) and the job's
 * confirmation only after everything before it was printed. Faults can be switched on and off:
 * paper out, cover open, refusing connections, accepting but never reading, dropping the connection
 * in the middle of a job or just before its confirmation, and a print speed.
 *
 * Two command languages, per the vendors' references (written apart from the hub's encoder, so a
 * test compares the two): ESC/POS (DLE EOT status, GS r confirmation), and with `{ dialect: 'star' }`
 * Star Line mode (ESC ACK SOH answered with a 9-byte automatic status, ETB counted and reported in
 * it; `starAsb` sends that status by itself after each ETB and status change, as a printer with
 * automatic status switched on does; `starEthernetLength` appends the Ethernet 2-byte length).
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
  /** What each QR code printed on the ticket holds, in order. */
  qr: string[];
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
  /** Code page 852 selected (ESC/POS ESC t 18, Star ESC GS t 5); otherwise bytes above 0x7F print as '?'. */
  cp852: boolean;
}

export type FakeDialect = 'escpos' | 'star';

const PLAIN: Style = { align: 'left', bold: false, width: 1, height: 1, invert: false, cp852: false };
const ALIGN = ['left', 'center', 'right'] as const;

/** Bytes of each ESC/POS command this fake knows after its first byte(s), for skipping and decoding. */
const ESC_LENGTHS: Record<number, number> = {
  0x40: 2, 0x74: 3, 0x61: 3, 0x45: 3, 0x21: 3, 0x2d: 3, 0x64: 3, 0x70: 5, 0x42: 4, 0x4d: 3, 0x32: 2, 0x33: 3, 0x4a: 3, 0x47: 3, 0x52: 3, 0x56: 3, 0x7b: 3,
};
const GS_LENGTHS: Record<number, number> = { 0x21: 3, 0x42: 3, 0x72: 3, 0x61: 3, 0x4c: 4, 0x57: 4, 0x48: 3, 0x68: 3, 0x77: 3, 0x66: 3 };
/** Star Line mode: ESC c … lengths, and ESC GS c … lengths (QR data and unknown ones are measured apart). */
const STAR_ESC_LENGTHS: Record<number, number> = { 0x40: 2, 0x45: 2, 0x46: 2, 0x34: 2, 0x35: 2, 0x2d: 3, 0x69: 4, 0x64: 3, 0x61: 3, 0x06: 3 };
const STAR_ESC_GS_LENGTHS: Record<number, number> = { 0x61: 4, 0x74: 4, 0x19: 7 };

type Step = { used: number; printed: boolean };
const done = (used: number, printed = false): Step => ({ used, printed });

const blankTicket = (): PrintedTicket => ({ lines: [], qr: [], cut: false, beeps: 0, at: 0 });

class Connection {
  /** Bytes received and not yet printed (real-time commands are taken out on arrival). */
  private pending: number[] = [];
  private style: Style = { ...PLAIN };
  private text: number[] = [];
  /** The QR code data stored by the last data command, printed by the print command. */
  private qrData: number[] = [];
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
      // The real-time status request (DLE EOT n, Star ESC ACK SOH) is executed on arrival, ahead of the queued print data.
      const reply = this.printer.realtimeReply(this.pending);
      if (reply) {
        this.pending.length -= 3;
        this.printer.statusRequests++;
        replies.push(...reply);
      }
    }
    if (replies.length) this.send(replies);
    void this.run();
  }

  send(bytes: number[]): void {
    if (!this.closed) this.socket.write(Buffer.from(bytes));
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
  private step(): Step {
    const q = this.pending;
    const star = this.printer.dialect === 'star';
    switch (q[0]) {
      case 0x0a:
        this.printLine();
        return done(1, true);
      case 0x0d:
      case 0x10: // a DLE that is not DLE EOT
        return done(1);
      case 0x17: // Star ETB: everything before it has printed
        if (star) this.printer.etb(this);
        return done(1);
      case 0x1b:
        return star ? this.starEscape() : this.escape();
      case 0x1d:
        return star ? done(1) : this.groupSeparator();
      default:
        this.text.push(q[0] < 0x20 ? 0x20 : q[0]);
        return done(1);
    }
  }

  private escape(): Step {
    const q = this.pending;
    const len = q.length < 2 ? 0 : (ESC_LENGTHS[q[1]] ?? 2);
    if (!len || q.length < len) return done(0);
    const n = q[2];
    switch (q[1]) {
      case 0x40:
        this.reset();
        break;
      case 0x74:
        this.style.cp852 = n === 18;
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
    return done(len, q[1] === 0x64);
  }

  private groupSeparator(): Step {
    const q = this.pending;
    if (q.length < 3) return done(0);
    if (q[1] === 0x56) {
      // GS V m, or GS V 65/66 n (feed, then cut).
      const len = q[2] === 65 || q[2] === 66 ? 4 : 3;
      if (q.length < len) return done(0);
      this.cut();
      return done(len);
    }
    if (q[1] === 0x28) {
      // GS ( k pL pH cn fn …: a 2D code; cn 49 is QR, fn 80 stores its data (after m), fn 81 prints it.
      if (q.length < 5) return done(0);
      const len = 5 + q[3] + q[4] * 256;
      if (q.length < len) return done(0);
      if (q[2] === 0x6b && q[5] === 0x31 && q[6] === 0x50) this.qrData = q.slice(8, len);
      if (q[2] === 0x6b && q[5] === 0x31 && q[6] === 0x51) this.printQr();
      return done(len);
    }
    const len = GS_LENGTHS[q[1]] ?? 2;
    if (q.length < len) return done(0);
    const [c, n] = [q[1], q[2]];
    if (c === 0x21) {
      this.style.width = ((n >> 4) & 7) + 1;
      this.style.height = (n & 7) + 1;
    } else if (c === 0x42) this.style.invert = (n & 1) === 1;
    else if (c === 0x72 && this.printer.dropBeforeConfirm > 0) {
      this.printer.dropBeforeConfirm--;
      this.socket.destroy();
    } else if (c === 0x72) this.send([this.printer.nearEnd ? 0x03 : 0x00]);
    return done(len);
  }

  /** Star Line mode's ESC commands (Star's "STAR Line Mode Command Specifications"). */
  private starEscape(): Step {
    const q = this.pending;
    if (q.length < 2) return done(0);
    if (q[1] === 0x1d) return this.starEscGs();
    const len = STAR_ESC_LENGTHS[q[1]] ?? 2;
    if (q.length < len) return done(0);
    switch (q[1]) {
      case 0x40:
        this.reset();
        break;
      case 0x45:
      case 0x46:
        this.style.bold = q[1] === 0x45;
        break;
      case 0x34:
      case 0x35:
        this.style.invert = q[1] === 0x34;
        break;
      case 0x69: // ESC i n1 n2: height and width expansion
        this.style.height = q[2] + 1;
        this.style.width = q[3] + 1;
        break;
      case 0x64: // ESC d n: cut (2, 3: after feeding to the cutter)
        this.cut();
        break;
    }
    return done(len);
  }

  private starEscGs(): Step {
    const q = this.pending;
    if (q.length < 4) return done(0);
    if (q[2] === 0x79) {
      // ESC GS y S n m (QR settings), ESC GS y D 1 m nL nH d… (data), ESC GS y P (print).
      if (q[3] === 0x44) {
        if (q.length < 8) return done(0);
        const len = 8 + q[6] + q[7] * 256;
        if (q.length < len) return done(0);
        this.qrData = q.slice(8, len);
        return done(len);
      }
      if (q[3] === 0x50) this.printQr();
      return done(q[3] === 0x53 ? 6 : 4);
    }
    const len = STAR_ESC_GS_LENGTHS[q[2]] ?? 3;
    if (q.length < len) return done(0);
    if (q[2] === 0x61) this.style.align = ALIGN[q[3] % 48] ?? 'left';
    else if (q[2] === 0x74) this.style.cp852 = q[3] === 5;
    else if (q[2] === 0x19 && q[3] === 0x12) this.printer.beep(); // ESC GS EM DC2: ring the external buzzer
    return done(len);
  }

  private reset(): void {
    this.flushText();
    this.style = { ...PLAIN };
  }

  private cut(): void {
    this.flushText();
    this.printer.cut();
  }

  private printQr(): void {
    this.flushText();
    this.printer.current.qr.push(Buffer.from(this.qrData).toString('latin1'));
  }

  private flushText(): void {
    if (this.text.length) this.printLine();
  }

  private printLine(): void {
    const line: PrintedLine = {
      text: decodeText(this.text, this.style.cp852 ? 'cp852' : 'ascii'),
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
  current: PrintedTicket = blankTicket();
  statusRequests = 0;
  connectionsAccepted = 0;
  /** Milliseconds each printed line takes (0: instant). */
  lineDelayMs = 0;
  nearEnd = false;
  /** One-shot: the connection is dropped after this many more bytes from the start of a connection. */
  dropAfter: number | null = null;
  neverRead = false;
  /** This many jobs are printed but their confirmation (GS r reply, Star ETB) never comes: the connection drops instead. */
  dropBeforeConfirm = 0;
  /** The DLE EOT n this printer implements; any other n goes unanswered (a clone without DLE EOT 3). */
  realtimeAnswers: ReadonlySet<number> = new Set([1, 2, 3, 4]);
  /** DLE EOT 3's error bits (0x08 autocutter, 0x20 unrecoverable…); non-zero: in error, offline. */
  errorCause = 0;
  /** Star: send the automatic status by itself after each ETB and status change (ASB switched on). */
  starAsb = false;
  /** Star over Ethernet: header 2 bit 7 set and a 2-byte length (0) after each automatic status. */
  starEthernetLength = false;
  /** Star: the 5-bit ETB counter, and whether an ETB was executed since the last status went out. */
  etbCounter = 0;
  private etbExecuted = false;
  private paper = true;
  private cover = false;
  private server: Server | null = null;
  private readonly connections = new Set<Connection>();

  private constructor(
    private boundPort: number,
    readonly dialect: FakeDialect,
  ) {
    super();
  }

  get port(): number {
    return this.boundPort;
  }

  static async start(port = 0, opts: { dialect?: FakeDialect } = {}): Promise<FakeEscPosPrinter> {
    const probe = new FakeEscPosPrinter(port, opts.dialect ?? 'escpos');
    await probe.listen();
    return probe;
  }

  get address(): string {
    return `tcp://127.0.0.1:${this.port}`;
  }

  get stalled(): boolean {
    return !this.paper || this.cover;
  }

  /** Paper out: printing stops (the status request still answers); refilled, the rest of the buffer prints. */
  setPaperOut(out: boolean): void {
    this.paper = !out;
    this.statusChanged();
  }

  setCoverOpen(open: boolean): void {
    this.cover = open;
    this.statusChanged();
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

  /** The reply when `pending` ends with this dialect's real-time status request (3 bytes; empty for a DLE EOT n it does not implement), else null. */
  realtimeReply(pending: number[]): number[] | null {
    if (pending.length < 3) return null;
    const [a, b, c] = pending.slice(-3);
    if (this.dialect === 'star') return a === 0x1b && b === 0x06 && c === 0x01 ? this.starStatus() : null;
    if (a !== 0x10 || b !== 0x04) return null;
    return this.realtimeAnswers.has(c) ? [this.realtimeStatus(c)] : [];
  }

  /**
   * Star's automatic status in the current state: 9 bytes (header 1 0x23), printer status 1 with
   * offline (bit 3), ETB executed (bit 1, cleared once sent) and cover open (bit 5), status 4 with
   * paper near end (bit 2) and paper end (bit 3), and the ETB counter in byte 8 (bits 1-3 and 5-6).
   */
  starStatus(): number[] {
    const s1 = (this.stalled ? 0x08 : 0) | (this.cover ? 0x20 : 0) | (this.etbExecuted ? 0x02 : 0);
    const s4 = (this.nearEnd ? 0x04 : 0) | (!this.paper ? 0x08 : 0);
    const counter = ((this.etbCounter & 0x07) << 1) | (((this.etbCounter >> 3) & 0x03) << 5);
    this.etbExecuted = false;
    const asb = [0x23, 0x06 | (this.starEthernetLength ? 0x80 : 0), s1, 0, 0, s4, 0, counter, 0];
    return this.starEthernetLength ? [...asb, 0, 0] : asb;
  }

  /** Star ETB reached the head of the buffer: everything before it has printed. */
  etb(from: Connection): void {
    if (this.dropBeforeConfirm > 0) {
      this.dropBeforeConfirm--;
      from.socket.destroy();
      return;
    }
    this.etbCounter = (this.etbCounter + 1) & 0x1f;
    this.etbExecuted = true;
    if (this.starAsb) from.send(this.starStatus());
  }

  /** The byte DLE EOT n answers in the current state (fixed bits 1 and 4 always set). */
  realtimeStatus(n: number): number {
    const offline = this.stalled || this.errorCause !== 0;
    switch (n) {
      case 1:
        return 0x12 | (offline ? 0x08 : 0);
      case 2:
        return 0x12 | (this.cover ? 0x04 : 0) | (!this.paper ? 0x20 : 0) | (this.cover || this.errorCause ? 0x40 : 0);
      case 3:
        return 0x12 | this.errorCause;
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
    this.current = blankTicket();
    this.emit('ticket', this.tickets[this.tickets.length - 1]);
  }

  /** A connection ended: what it printed without a cut stays on the paper as a fragment. */
  fragmentEnded(): void {
    if (!this.current.lines.length) return;
    this.tickets.push({ ...this.current, cut: false, at: Date.now() });
    this.current = blankTicket();
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

  /** Printing goes on if it can; a Star with automatic status on tells its hosts. */
  private statusChanged(): void {
    for (const c of this.connections) {
      if (this.dialect === 'star' && this.starAsb) c.send(this.starStatus());
      void c.run();
    }
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
