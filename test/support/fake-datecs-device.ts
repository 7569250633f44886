/**
 * A fake Datecs fiscal printer that speaks ISL byte for byte in one of the three firmware variants
 * (P, C, X), for driver tests and demos: a TCP server on 127.0.0.1 and a serial peer behind
 * serialport's MockBinding, both in front of one device with one fiscal memory. Not the in-process
 * `simulator` fiscal driver (drivers/fiscal/simulator): this one is a device at the other end of a line.
 *
 * What it refuses, it refuses as the vendor manuals say (page numbers beside each rule; the manuals
 * are named in drivers/fiscal/datecs/commands.ts): a classic frame sent to an X printer gets SYN then
 * NAK, a sale after a payment and a void after a payment are refused, three wrong operator passwords
 * lock it until it is switched off and on, tax groups and text lengths are checked per variant.
 * It can also lose replies, NAK, garble, go silent, drop the line, run out of paper, open its cover,
 * hand replies over in pieces, or be switched off.
 *
 * Document numbers (71h) count completed documents: a receipt when it closes, a void, a report.
 * 4Ch tells of the current or last receipt, voided ones included (a void is "the last fiscal
 * receipt", printed with its sales and ending "FISCAL RECEIPT", P p.22, C p.16; its amount is what
 * was registered, nothing paid): X's Number, Amount and Paid all belong to that one receipt.
 *
 *   npx tsx test/support/fake-datecs-device.ts [port] [dropRate] [P|C|X]   — a demo device on 127.0.0.1
 */
import { createServer, type Server, type Socket } from 'node:net';
import { SerialPortMock } from 'serialport';
import { Decimal } from 'decimal.js';
import { CMD, VARIANTS, amount as fmt, bytes, statusBytes, str, type StatusFlag, type Variant, type VariantName } from '../../drivers/fiscal/datecs/commands.js';
import { CLASSIC, NAK, SYN, X_FORMAT, decodeRequest, encodeReply, scan, type FrameFormat, type Request } from '../../drivers/fiscal/datecs/frame.js';
import { rng } from './random.js';

export interface FakeReceipt {
  /** The document number (71h; X: 4Ch's Number). */
  number: number;
  dailySalesReportNumber: number;
  total: string;
  texts: string[];
  lines: Array<{ text: string; taxGroup: string; price: string; quantity: string; adjustment: string; total: string }>;
  payments: Array<{ mode: string; amount: string }>;
  change: string;
  unp: string | null;
  date: string;
  /** A storno (refund) receipt: what it quoted of the original. */
  storno?: StornoQuote;
}

/** What a storno receipt's opening command quoted of the receipt it refunds. */
export interface StornoQuote {
  number: number;
  /** The date and time as sent (P, C `DDMMYYhhmmss`; X `DD-MM-YY hh:mm:ss`). */
  date: string;
  fiscalMemorySerialNumber: string;
  unp: string | null;
}

/** The receipt 4Ch tells of when none is open: the last one closed or voided. */
interface LastReceipt {
  number: number;
  items: number;
  amount: Decimal;
  paid: Decimal;
}

export interface FakeReport {
  kind: 'X' | 'Z';
  number: number;
  total: string;
  receipts: number;
  date: string;
}

export interface FiscalMemory {
  serialNumber: string;
  fiscalMemorySerialNumber: string;
  /** The number of the last completed document. */
  documentNumber: number;
  /** Z reports written; the open fiscal day is zNumber + 1. */
  zNumber: number;
  day: { total: string; receipts: number; voided: number; byGroup: Record<string, string>; storno: string; stornoByGroup: Record<string, string> };
  receipts: FakeReceipt[];
  reports: FakeReport[];
  /** The last УНП given (P counts on from it when 30h leaves it out, P p.16). */
  lastUnp: string | null;
}

interface OpenReceipt {
  texts: string[];
  lines: FakeReceipt['lines'];
  sum: Decimal;
  adjustment: Decimal;
  subtotalled: boolean;
  paid: Decimal;
  payments: FakeReceipt['payments'];
  settled: boolean;
  unp: string | null;
  storno: StornoQuote | null;
}

/** `raw`: an X answer without the error code first (5Ah syntax 2, X p.24). */
type Answer = { data?: string; errors?: StatusFlag[]; error?: string; raw?: boolean };
type Handler = (data: string) => Answer;

export interface DropRule {
  /** Only replies to this command code (repeats included); any command when absent. */
  cmd?: number;
  count: number;
}

export interface FakeDatecsOptions {
  variant?: VariantName;
  /** The model name 5Ah answers (default per variant: FP-2000, DP-150, FP-700X). */
  model?: string;
  /** '' leaves the serial field out of 5Ah, as the Moldovan DP-150MX of ErpNet.FP #183 does. */
  serialNumber?: string;
  fiscalMemorySerialNumber?: string;
  /** Every operator's password (default: the model's factory one, see FACTORY_PASSWORD). */
  password?: string;
  clock?: () => Date;
  /** Each reply comes this late; SYN bytes go out meanwhile every `synIntervalMs`. */
  latencyMs?: number;
  synIntervalMs?: number;
  /** Loses this fraction of replies at random (after the command ran). */
  dropRate?: number;
  seed?: number;
  /**
   * C only: a refused 30h or 2Eh answers its ErrCode `F` (C p.10) and raises no status bit, as the C
   * manual alone describes it (it names no bit for a refused open). Default: `F` with the bit.
   */
  openRefusalWithoutBits?: boolean;
}

interface Peer {
  send(bytes: Buffer): void;
  drop(): void;
  input: Buffer;
}

// serialport re-exports @serialport/binding-mock, whose own package exports carry no types.
const MockBinding = SerialPortMock.binding;
export type MockBindingInterface = typeof MockBinding;

const round2 = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const pad2 = (n: number) => String(n).padStart(2, '0');
/** A signed count of stotinki, `width` bytes with the sign (P p.25 "9 bytes with a sign"). */
const cents = (d: Decimal.Value, width: number) => {
  const v = new Decimal(d).times(100).toDecimalPlaces(0);
  return (v.isNegative() ? '-' : '+') + v.abs().toFixed(0).padStart(width - 1, '0');
};
const MODELS: Record<VariantName, string> = { P: 'FP-2000', C: 'DP-150', X: 'FP-700X' };
const GROUPS: Record<VariantName, string[]> = {
  // P accepts Cyrillic А–З or Latin A–H as input (P p.1); C Cyrillic only (C p.1, p.11); X '1'–'8' (X p.9-10).
  P: ['А', 'Б', 'В', 'Г', 'Д', 'Е', 'Ж', 'З', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'],
  C: ['А', 'Б', 'В', 'Г', 'Д', 'Е', 'Ж', 'З'],
  X: ['1', '2', '3', '4', '5', '6', '7', '8'],
};
/** 35h payment modes each firmware knows (P p.19-20, C p.13, X p.11). */
const MODES: Record<VariantName, string> = { P: 'PNCDIJKLijklmnopqrs', C: 'PNCDIJ', X: '012345' };
/** 31h text bytes (P p.17: 42, C p.11: 22, X p.9: 72). */
const TEXT_MAX: Record<VariantName, number> = { P: 42, C: 22, X: 72 };
const UNP = /^[0-9A-Za-z]{8}-[0-9A-Za-z]{4}-\d{7}$/;
/**
 * Operator 1's factory password: P "0000", C "1" (ErpNet.FP's defaults); X per the 30h note of the X
 * manual v2.08 (p.10): the operator's number on WP-500X, WP-25X, WP-50X, DP-25X, DP-150X, DP-05C,
 * "0000" on FMP-350X, FMP-55X, FP-700X.
 */
function FACTORY_PASSWORD(variant: VariantName, model: string): string {
  if (variant === 'P') return '0000';
  if (variant === 'C') return '1';
  // The cash registers (DP-, WP-; the DP-150MX of ErpNet.FP #183 is a DP-150X) and the printers (FMP-, FP-).
  return /^(DP|WP)-/.test(model) ? '1' : '0000';
}
const MONEY = '[+-]?\\d{1,8}(?:\\.\\d{1,2})?';

function isFrame(f: FrameFormat, frame: Uint8Array): boolean {
  try {
    decodeRequest(f, frame);
    return true;
  } catch {
    return false;
  }
}

export class FakeDatecsDevice {
  readonly variant: Variant;
  readonly model: string;
  readonly memory: FiscalMemory;
  paper: 'ok' | 'low' | 'out' = 'ok';
  coverOpen = false;
  /** Off: no TCP connection is accepted and serial input is ignored. */
  powered = true;
  /** Every request frame that reached the device, decoded (retransmissions included). */
  readonly requests: Request[] = [];
  /** Every 30h the device refused for a wrong password since power-on; three lock it (P p.17). */
  wrongPasswords = 0;
  /** Replies are handed over in pieces of this many bytes (a serial port's reads, ErpNet.FP #135); 0: whole. */
  splitReplies = 0;
  latencyMs: number;
  synIntervalMs: number;
  dropRate: number;
  private password: string;
  private readonly random: () => number;
  private readonly clock: () => Date;
  private open: OpenReceipt | null = null;
  private nonFiscalOpen = false;
  private last: LastReceipt | null = null;
  private silentOn: number | null = null;
  private readonly hooks = new Map<number, () => void>();
  private readonly refusals = new Set<number>();
  /** The day is older than 24 hours: 30h is refused until a Z report (X -111024; classic S1.1, "not allowed"). */
  zOverdue = false;
  /** A void takes a document number (71h) — which a real printer does is a hardware check (NOTES.md). */
  numbersVoids = true;
  /** 40h answers `F` (P p.22, C p.17: the command failed) instead of the last Z report. */
  lastEntryFails = false;
  private lastSeq = -1;
  private lastReply: Buffer | null = null;
  private drops: DropRule[] = [];
  private silentAfter: { cmd: number; how: 'silence' | 'disconnect' } | null = null;
  private silent = false;
  private paperOutAfter: number | null = null;
  private naks = 0;
  private garbles = 0;
  private readonly peers = new Set<Peer>();
  private busy: Promise<void> = Promise.resolve();
  private readonly openRefusalWithoutBits: boolean;
  private server: Server | null = null;
  private port = 0;

  constructor(opts: FakeDatecsOptions = {}) {
    this.variant = VARIANTS[opts.variant ?? 'C'];
    this.model = opts.model ?? MODELS[this.variant.name];
    this.password = opts.password ?? FACTORY_PASSWORD(this.variant.name, this.model);
    this.clock = opts.clock ?? (() => new Date());
    this.latencyMs = opts.latencyMs ?? 0;
    this.synIntervalMs = opts.synIntervalMs ?? 60;
    this.dropRate = opts.dropRate ?? 0;
    this.openRefusalWithoutBits = opts.openRefusalWithoutBits ?? false;
    this.random = rng(opts.seed ?? 1);
    this.memory = {
      serialNumber: opts.serialNumber ?? 'DT000001',
      fiscalMemorySerialNumber: opts.fiscalMemorySerialNumber ?? '02000001',
      documentNumber: 0,
      zNumber: 0,
      day: { total: '0', receipts: 0, voided: 0, byGroup: {}, storno: '0', stornoByGroup: {} },
      receipts: [],
      reports: [],
      lastUnp: null,
    };
  }

  // ---- faults ---------------------------------------------------------------------------------------

  /** Loses the next `count` replies (to `cmd` only, when given); the commands still run. */
  dropReplies(rule: DropRule): void {
    this.drops.push({ ...rule });
  }

  /** After running `cmd` once more, answers nothing (or drops every connection) until `resume()`. */
  failAfter(cmd: number, how: 'silence' | 'disconnect' = 'silence'): void {
    this.silentAfter = { cmd, how };
  }

  /** On receiving `cmd` next, executes nothing and answers nothing (or drops the line) until `resume()`: a command lost on its way in. */
  failBefore(cmd: number): void {
    this.silentOn = cmd;
  }

  /** Refuses the next `cmd` as a syntax error (X -111002), executing nothing. */
  refuseNext(cmd: number): void {
    this.refusals.add(cmd);
  }

  /** Runs `fn` once, right after the device next executes `cmd` (to fault what comes after it). */
  afterNext(cmd: number, fn: () => void): void {
    this.hooks.set(cmd, fn);
  }

  /** A service (non-fiscal) receipt left open, as the keyboard or another program would leave it (26h). */
  openServiceReceipt(): void {
    this.nonFiscalOpen = true;
  }

  nakFrames(count: number): void {
    this.naks += count;
  }

  garbleReplies(count: number): void {
    this.garbles += count;
  }

  resume(): void {
    this.silent = false;
    this.silentAfter = null;
    this.silentOn = null;
  }

  paperOutAfterLines(lines: number): void {
    this.paperOutAfter = lines;
  }

  /** Switched off: connections drop, new ones are refused, a password lock is lifted (P p.17); on: listens again. */
  async setPower(on: boolean): Promise<void> {
    this.powered = on;
    if (!on) {
      this.wrongPasswords = 0;
      for (const p of this.peers) p.drop();
      if (this.server) {
        const s = this.server;
        this.server = null;
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    } else if (this.port && !this.server) {
      await this.listen(this.port);
    }
  }

  get openReceipt(): Readonly<OpenReceipt> | null {
    return this.open;
  }

  // ---- transports -----------------------------------------------------------------------------------

  listen(port = 0): Promise<number> {
    return new Promise((resolve, reject) => {
      const server = createServer((socket) => this.attachSocket(socket));
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        this.server = server;
        this.port = (server.address() as { port: number }).port;
        resolve(this.port);
      });
    });
  }

  get address(): string {
    return `tcp://127.0.0.1:${this.port}`;
  }

  private attachSocket(socket: Socket): void {
    if (!this.powered) {
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    const peer: Peer = {
      input: Buffer.alloc(0),
      send: (b) => {
        if (!socket.destroyed) socket.write(b);
      },
      drop: () => socket.destroy(),
    };
    this.peers.add(peer);
    socket.on('data', (chunk: Buffer) => this.receive(peer, chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.peers.delete(peer));
  }

  /** A serialport binding whose port `path` is wired to this device. */
  serialBinding(path: string): MockBindingInterface {
    MockBinding.createPort(path, { record: true });
    return {
      ...MockBinding,
      open: async (options: Parameters<typeof MockBinding.open>[0]) => {
        const port = await MockBinding.open(options);
        const peer: Peer = {
          input: Buffer.alloc(0),
          send: (b) => {
            if (port.isOpen) port.emitData(b);
          },
          drop: () => {},
        };
        this.peers.add(peer);
        const write = port.write.bind(port);
        port.write = async (buffer: Buffer) => {
          await write(buffer);
          this.receive(peer, Buffer.from(buffer));
        };
        const close = port.close.bind(port);
        port.close = async () => {
          this.peers.delete(peer);
          return close();
        };
        return port;
      },
    };
  }

  async close(): Promise<void> {
    for (const p of this.peers) p.drop();
    this.peers.clear();
    const s = this.server;
    this.server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  // ---- the line -------------------------------------------------------------------------------------

  /** Hands `bytes` to the device as if they came over a line whose answers go to `line`; resolves once they are answered. */
  async feed(line: { send(bytes: Buffer): void }, bytes: Buffer): Promise<void> {
    this.receive({ input: Buffer.alloc(0), send: (b) => line.send(Buffer.from(b)), drop: () => {} }, bytes);
    await this.busy;
  }

  private receive(peer: Peer, chunk: Buffer): void {
    if (!this.powered) return;
    peer.input = Buffer.concat([peer.input, chunk]);
    const f = this.variant.frame;
    for (;;) {
      // An X printer reading a classic frame: it is working on it (SYN), then finds it malformed (NAK)
      // — what a DP-150MX answered ErpNet.FP's classic probe (#183) and a DP-150 on TCP (#191).
      const own = scan(f, peer.input);
      const classic = f === X_FORMAT && !(own?.kind === 'frame' && isFrame(f, peer.input.subarray(0, own.length))) ? scan(CLASSIC, peer.input) : null;
      if (classic?.kind === 'frame' && isFrame(CLASSIC, peer.input.subarray(0, classic.length))) {
        peer.input = peer.input.subarray(classic.length);
        peer.send(Buffer.from([SYN, NAK]));
        continue;
      }
      const token = scan(f, peer.input);
      if (!token) return;
      const frame = peer.input.subarray(0, token.length);
      peer.input = peer.input.subarray(token.length);
      if (token.kind !== 'frame') continue;
      let request: Request;
      try {
        request = decodeRequest(f, frame);
        if (this.naks > 0 && !this.silent) {
          this.naks -= 1;
          throw new Error('NAK');
        }
      } catch {
        peer.send(Buffer.from([NAK]));
        continue;
      }
      this.busy = this.busy.then(() => this.serve(peer, request));
    }
  }

  private async serve(peer: Peer, request: Request): Promise<void> {
    if (this.silent || !this.powered) return;
    this.requests.push(request);
    if (this.silentOn === request.cmd) {
      this.silentOn = null;
      this.silent = true;
      return;
    }
    let reply: Buffer;
    // The same SEQ as the frame answered last: repeat that answer, execute nothing (P p.7, C p.5, X p.4).
    const repeat = request.seq === this.lastSeq && this.lastReply !== null;
    if (repeat) reply = this.lastReply!;
    else {
      reply = this.execute(request);
      this.lastSeq = request.seq;
      this.lastReply = reply;
    }
    if (this.latencyMs > 0) await this.working(peer);
    const after = this.silentAfter;
    if (!repeat && after && after.cmd === request.cmd) {
      this.silentAfter = null;
      if (after.how === 'disconnect') peer.drop();
      else this.silent = true;
      return;
    }
    if (this.shouldDrop(request.cmd)) return;
    if (this.garbles > 0) {
      this.garbles -= 1;
      reply = Buffer.from(reply);
      reply[reply.length - 3] ^= 0x01;
    }
    if (this.splitReplies > 0) {
      peer.send(Buffer.from([SYN]));
      for (let i = 0; i < reply.length; i += this.splitReplies) {
        peer.send(reply.subarray(i, i + this.splitReplies));
        await new Promise((r) => setTimeout(r, 1));
      }
    } else peer.send(reply);
  }

  private async working(peer: Peer): Promise<void> {
    const until = Date.now() + this.latencyMs;
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, Math.min(this.synIntervalMs, until - Date.now())));
      if (Date.now() < until) peer.send(Buffer.from([SYN]));
    }
  }

  private shouldDrop(cmd: number): boolean {
    const rule = this.drops.find((d) => d.count > 0 && (d.cmd === undefined || d.cmd === cmd));
    if (rule) {
      rule.count -= 1;
      this.drops = this.drops.filter((d) => d.count > 0);
      return true;
    }
    return this.dropRate > 0 && this.random() < this.dropRate;
  }

  // ---- the device ------------------------------------------------------------------------------------

  private get x(): boolean {
    return this.variant.name === 'X';
  }

  private execute(request: Request): Buffer {
    const handler = this.handlers[request.cmd];
    const refuse = this.refusals.delete(request.cmd);
    const out: Answer = refuse ? { errors: ['syntaxError'], error: '-111002' } : handler ? handler(str(request.data)) : { errors: ['invalidCommand'] };
    const hook = this.hooks.get(request.cmd);
    if (hook) {
      this.hooks.delete(request.cmd);
      hook();
    }
    const failed = (out.errors?.length ?? 0) > 0 || out.error !== undefined;
    // C answers a refused 30h or 2Eh with ErrCode `F` (C p.10: `<ErrCode>` or `<AllReceipt>,<FiscalReceipt>`).
    const openRefused = failed && this.variant.name === 'C' && (request.cmd === CMD.openFiscalReceipt || request.cmd === CMD.openStornoReceipt);
    const flags: StatusFlag[] = ['fiscalMode', ...(openRefused && this.openRefusalWithoutBits ? [] : (out.errors ?? []))];
    if (this.paper === 'out') flags.push('paperOut');
    if (this.paper === 'low') flags.push('paperLow');
    if (this.coverOpen) flags.push('coverOpen');
    if (this.open) flags.push('fiscalReceiptOpen');
    if (this.open?.storno && this.variant.name === 'P') flags.push('stornoReceiptOpen');
    if (this.nonFiscalOpen) flags.push('nonFiscalReceiptOpen');
    // A refusal answers no data on classic firmware (P p.7) but C's `F` to an open; X answers its error code (X p.5).
    let data = openRefused ? 'F' : failed ? '' : (out.data ?? '');
    if (this.x && !out.raw) data = failed ? `${out.error ?? '-111001'}\t` : `0\t${data}`;
    return encodeReply(this.variant.frame, request.seq, request.cmd, bytes(data), statusBytes(this.variant, flags));
  }

  private printBlock(): StatusFlag[] | undefined {
    if (this.paper === 'out') return ['paperOut'];
    if (this.coverOpen) return ['coverOpen'];
    return undefined;
  }

  private fields(data: string): string[] {
    return this.x ? data.replace(/\t$/, '').split('\t') : data.split(',');
  }

  private join(values: Array<string | number>): string {
    return this.x ? values.map((v) => `${v}\t`).join('') : values.join(',');
  }

  private total(): Decimal {
    return this.open!.sum.plus(this.open!.adjustment);
  }

  private money(value: Decimal.Value, width = 9): string {
    return this.x ? fmt(value) : cents(value, width);
  }

  /**
   * 30h, 2Eh, 2Bh: a receipt, or a storno receipt quoting `storno`. Refused with a receipt of any kind
   * open, after three wrong passwords (locked until switched off, P p.17), with a wrong password (X
   * -102002), a day older than 24 hours (X -111024; classic "not allowed"), a missing УНП on P (p.16).
   * A storno receipt of this printer's own receipt must quote its number and, when it had one, its УНП.
   */
  private startReceipt(op: string, pwd: string, till: string, unp: string | null, storno: StornoQuote | null): Answer {
    if (this.open || this.nonFiscalOpen) return { errors: ['notAllowed'], error: '-111015' };
    if (this.wrongPasswords >= 3) return { errors: ['notAllowed'], error: '-112002' };
    if (!/^\d{1,2}$/.test(op ?? '') || !/^\d{1,8}$/.test(pwd ?? '') || !/^\d{1,5}$/.test(till ?? '')) return { errors: ['syntaxError'] };
    if (unp !== null && !UNP.test(unp)) return { errors: ['syntaxError'] };
    if (pwd !== this.password) {
      this.wrongPasswords += 1;
      return { errors: ['notAllowed'], error: '-102002' };
    }
    if (this.zOverdue) return { errors: ['notAllowed'], error: '-111024' };
    // P: "the UNP must be set at least once" (p.16).
    if (this.variant.name === 'P' && !storno && unp === null && this.memory.lastUnp === null) return { errors: ['notAllowed'] };
    if (storno && storno.fiscalMemorySerialNumber === this.memory.fiscalMemorySerialNumber) {
      const original = this.memory.receipts.find((r) => r.number === storno.number && !r.storno);
      if (!original || (original.unp ?? null) !== storno.unp) return { errors: ['notAllowed'], error: '-111003' };
    }
    const block = this.printBlock();
    if (block) return { errors: block };
    this.open = { texts: [], lines: [], sum: new Decimal(0), adjustment: new Decimal(0), subtotalled: false, paid: new Decimal(0), payments: [], settled: false, unp: storno ? null : unp, storno };
    if (unp && !storno) this.memory.lastUnp = unp;
    if (this.x) return { data: `${this.memory.documentNumber + 1}\t` };
    return { data: `${String(this.memory.day.receipts + this.memory.day.voided + 1).padStart(4, '0')},${String(this.memory.day.receipts + 1).padStart(4, '0')}` };
  }

  private readonly handlers: Record<number, Handler> = {
    // 4Ah (P p.24, C p.20: option W or X; X p.20: none).
    [CMD.status]: (data) => (this.x ? (data === '' ? {} : { errors: ['syntaxError'] }) : ['', 'X', 'W'].includes(data) ? {} : { errors: ['syntaxError'] }),
    // 5Ah (P p.29, X p.24 syntax 2: `Name,Fw,Chk,Sw,Ser,FM`; C p.22: `<Name><FwRev> <FwDate> <FwTime>,Chk,Sw,FM,Ser`,
    // five fields with the fiscal memory number before the serial).
    [CMD.diagnosticInfo]: () => {
      const serial = this.memory.serialNumber;
      if (this.variant.name === 'C' && serial) {
        return { data: [`${this.model} 3.10 10Jan25 1200`, 'A1B2', '00000000', this.memory.fiscalMemorySerialNumber, serial].join(',') };
      }
      const parts = [this.model, '3.10 10Jan25 1200', 'A1B2', '00000000', ...(serial ? [serial] : []), this.memory.fiscalMemorySerialNumber];
      return { data: parts.join(','), ...(this.x ? { raw: true } : {}) };
    },
    [CMD.readDateTime]: () => {
      const d = this.clock();
      return { data: `${pad2(d.getDate())}-${pad2(d.getMonth() + 1)}-${pad2(d.getFullYear() % 100)} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}` };
    },
    // 71h: P p.35, C p.27; X has none (X p.2 lists no 71h).
    [CMD.lastDocumentNumber]: () => (this.x ? { errors: ['invalidCommand'], error: '-111002' } : { data: String(this.memory.documentNumber).padStart(7, '0') }),
    // 40h: P p.22, C p.17 `P,N,Tax..,Date`, `F` when it failed; X p.17 `nRep\t...`. N 0 before the first Z.
    [CMD.lastFiscalEntry]: () => {
      const z = this.memory.zNumber;
      if (this.x) return this.lastEntryFails ? { error: '-100001' } : { data: this.join([z, ...Array(8).fill('0.00'), '01-01-26']) };
      if (this.lastEntryFails) return { data: 'F' };
      return { data: ['P', String(z).padStart(4, '0'), ...Array(8).fill(cents(0, 12)), '010126'].join(',') };
    },
    // 4Ch: P p.25, C p.20 `Open,Items,Amount,Tender` in signed stotinki; X p.21 with IsOpen and Number.
    // The current receipt, else the last one closed or voided (X v2.08 p.24: IsOpen 2-4 storno, 5 non-fiscal).
    [CMD.transactionStatus]: (data) => {
      if (!this.x && data !== '' && data !== 'T') return { errors: ['syntaxError'] };
      const o = this.open;
      const last = this.last;
      const number = o ? this.memory.documentNumber + 1 : (last?.number ?? 0);
      const items = o ? o.lines.length : (last?.items ?? 0);
      const amt = o ? this.total() : (last?.amount ?? new Decimal(0));
      const tender = o ? o.paid : (last?.paid ?? new Decimal(0));
      if (this.x) return { data: this.join([o ? (o.storno ? 3 : 1) : this.nonFiscalOpen ? 5 : 0, number, items, fmt(amt), fmt(tender)]) };
      return { data: [o || this.nonFiscalOpen ? '1' : '0', String(items), this.money(amt), this.money(tender)].join(',') };
    },
    // 26h, 27h: a service receipt (P p.13, C p.10, X p.6).
    [CMD.closeNonFiscalReceipt]: () => {
      if (!this.nonFiscalOpen) return { errors: ['notAllowed'], error: '-111016' };
      this.nonFiscalOpen = false;
      this.memory.documentNumber += 1;
      return { data: this.x ? `${this.memory.documentNumber}\t` : String(this.memory.documentNumber) };
    },
    // 2Eh: P p.16 `Op,Pwd,Till,R<DocNo>,<StUNP>,<StDT>,<StFMIN>`; C p.10 `Op,Pwd,NSale,Till,1,DocNo,DocDT,FM`.
    [CMD.openStornoReceipt]: (data) => {
      if (this.x) return { errors: ['invalidCommand'], error: '-111002' };
      const f = data.split(',');
      const [op, pwd, till, quote] =
        this.variant.name === 'P'
          ? [f[0], f[1], f[2], /^R(\d{1,7})$/.test(f[3] ?? '') && f.length === 7 ? { number: Number(f[3].slice(1)), unp: f[4] || null, date: f[5], fiscalMemorySerialNumber: f[6] } : null]
          : [f[0], f[1], f[3], f.length === 8 && /^[012]$/.test(f[4]) && /^\d{1,7}$/.test(f[5]) ? { number: Number(f[5]), unp: f[2] || null, date: f[6], fiscalMemorySerialNumber: f[7] } : null];
      if (!quote || !/^\d{12}$/.test(quote.date) || !/^\d{8}$/.test(quote.fiscalMemorySerialNumber)) return { errors: ['syntaxError'] };
      return this.startReceipt(op, pwd, till, quote.unp, quote);
    },
    // 2Bh (X v2.08 p.8): `Op\tPwd\tTill\tStorno\tDocNum\tDateTime\tFM\tInvoice\tToInvoice\tReason\tNSale\t`.
    [CMD.openStornoDocument]: (data) => {
      if (!this.x) return { errors: ['invalidCommand'] };
      const f = data.replace(/\t$/, '').split('\t');
      if (f.length !== 11 || !/^[012]$/.test(f[3]) || !/^\d{1,7}$/.test(f[4]) || !/^\d\d-\d\d-\d\d \d\d:\d\d:\d\d( DST)?$/.test(f[5]) || !/^\d{8}$/.test(f[6])) return { errors: ['syntaxError'], error: '-111002' };
      return this.startReceipt(f[0], f[1], f[2], null, { number: Number(f[4]), date: f[5], fiscalMemorySerialNumber: f[6], unp: f[10] || null });
    },
    // 30h: P p.16-17, C p.10, X p.9.
    [CMD.openFiscalReceipt]: (data) => {
      const f = this.fields(data);
      let op: string, pwd: string, unp: string | null, till: string;
      if (this.variant.name === 'P') [op, pwd, till, unp = null] = f as [string, string, string, string?];
      else if (f.length >= 4 && UNP.test(f[2])) [op, pwd, unp, till] = f as [string, string, string, string];
      else [op, pwd, till, unp = null] = [f[0], f[1], f[2], null];
      return this.startReceipt(op, pwd, till, unp, null);
    },
    // 36h: P p.20, C p.15 (text cut at the line), X p.12.
    [CMD.fiscalText]: (data) => {
      if (!this.open || this.open.settled) return { errors: ['notAllowed'] };
      const block = this.printBlock();
      if (block) return { errors: block };
      const text = this.x ? data.split('\t')[0] : data;
      // X: at most PrintColumns-2 (p.13): 32 columns on the FMP-55X, 42 or more on the others (v2.08 p.48-49).
      if (this.x && bytes(text).length > (/^FMP-55/.test(this.model) ? 30 : 40)) return { errors: ['syntaxError'], error: '-111002' };
      this.open.texts.push(text);
      return {};
    },
    // 31h: P p.17-18, C p.11, X p.9-10. Not after a payment (P p.20).
    [CMD.sale]: (data) => {
      if (!this.open || this.open.paid.gt(0)) return { errors: ['notAllowed'] };
      let text: string, group: string, price: string, qty: string, adj: string;
      if (this.x) {
        // Quantity "Format: 3 decimals" (X p.10), as the price has its 2.
        const m = new RegExp(`^([^\\t]{1,72})\\t([1-8])\\t(${MONEY})\\t(\\d{1,6}\\.\\d{3})?\\t([0-4]?)\\t(\\d{1,8}(?:\\.\\d{2})?)?\\t(\\d{1,2})\\t$`).exec(data);
        if (!m) return { errors: ['syntaxError'] };
        const sign = m[5] === '4' ? '-' : '';
        [text, group, price, qty, adj] = [m[1], m[2], m[3], m[4] ? new Decimal(m[4]).toString() : '1', m[5] && m[6] ? `${sign}${m[6]}` : '0'];
        if (m[5] === '1' || m[5] === '2') return { errors: ['syntaxError'] };
      } else {
        const m = new RegExp(`^([^\\t]*)\\t(.)(${MONEY})(?:\\*(\\d{1,8}(?:\\.\\d{1,3})?))?(?:;(${MONEY}))?$`).exec(data);
        if (!m) return { errors: ['syntaxError'] };
        [text, group, price, qty, adj] = [m[1], m[2], m[3], m[4] ?? '1', m[5] ?? '0'];
      }
      if (bytes(text).length > TEXT_MAX[this.variant.name]) return { errors: ['syntaxError'] };
      if (!GROUPS[this.variant.name].includes(group)) return { errors: ['syntaxError'] };
      const block = this.printBlock();
      if (block) return { errors: block };
      if (this.paperOutAfter !== null && this.open.lines.length >= this.paperOutAfter) {
        this.paperOutAfter = null;
        this.paper = 'out';
        return { errors: ['paperOut'] };
      }
      const total = round2(new Decimal(price).times(qty)).plus(adj);
      // BG firmware allows no negative sum in a tax group (P p.18, C p.11).
      if (total.isNegative()) return { errors: ['notAllowed'] };
      const g = this.x ? 'АБВГДЕЖЗ'[Number(group) - 1] : 'ABCDEFGH'.includes(group) ? 'АБВГДЕЖЗ'['ABCDEFGH'.indexOf(group)] : group;
      this.open.lines.push({ text, taxGroup: g, price, quantity: qty, adjustment: adj, total: total.toFixed(2) });
      this.open.sum = this.open.sum.plus(total);
      return {};
    },
    // 33h: P p.18, C p.12, X p.10-11. Not after a payment (P p.20).
    [CMD.subtotal]: (data) => {
      if (!this.open || this.open.paid.gt(0)) return { errors: ['notAllowed'] };
      let adj: string | undefined;
      if (this.x) {
        const m = /^([01]?)\t([01]?)\t([0-4]?)\t(\d{1,8}(?:\.\d{2})?)?\t$/.exec(data);
        if (!m) return { errors: ['syntaxError'] };
        if (m[3] === '3' || m[3] === '4') adj = `${m[3] === '4' ? '-' : ''}${m[4]}`;
      } else {
        const m = new RegExp(`^([01])([01])(?:;(${MONEY}))?$`).exec(data);
        if (!m) return { errors: ['syntaxError'] };
        adj = m[3];
      }
      if (adj !== undefined) {
        if (this.open.subtotalled) return { errors: ['notAllowed'] };
        this.open.adjustment = new Decimal(adj);
        this.open.subtotalled = true;
      }
      const groups = 'АБВГДЕЖЗ'.split('').map((g) => fmt(this.open!.lines.filter((l) => l.taxGroup === g).reduce((s, l) => s.plus(l.total), new Decimal(0))));
      return { data: this.x ? this.join([this.memory.documentNumber + 1, fmt(this.total()), ...groups]) : [fmt(this.total()), ...groups].join(',') };
    },
    // 35h: P p.19-20, C p.13, X p.11-12.
    [CMD.total]: (data) => {
      if (!this.open || this.open.settled) return { errors: ['notAllowed'] };
      let mode: string | undefined, value: string | undefined;
      if (this.x) {
        const m = new RegExp(`^([0-5])\\t(${MONEY})\\t(\\d*)\\t$`).exec(data);
        if (!m) return { errors: ['syntaxError'] };
        [mode, value] = [m[1], m[2]];
      } else {
        const m = new RegExp(`^([^\\t]{0,42})\\t(?:(.)?(${MONEY}))?$`).exec(data);
        if (!m) return { errors: ['syntaxError'] };
        [mode, value] = [m[2] ?? (m[3] ? 'P' : undefined), m[3]];
      }
      if (mode !== undefined && !MODES[this.variant.name].includes(mode)) return { errors: ['syntaxError'] };
      const block = this.printBlock();
      if (block) return { errors: block };
      const total = this.total();
      const due = total.minus(this.open.paid);
      const paid = value === undefined ? due : new Decimal(value);
      if (paid.lte(0)) return this.x ? { error: '-111016' } : { data: 'F' };
      this.open.paid = this.open.paid.plus(paid);
      this.open.payments.push({ mode: mode ?? (this.x ? '0' : 'P'), amount: fmt(paid) });
      const [code, left] = this.open.paid.lt(total) ? ['D', total.minus(this.open.paid)] : ['R', this.open.paid.minus(total)];
      if (code === 'R') this.open.settled = true;
      return { data: this.x ? this.join([code, fmt(left)]) : `${code}${this.money(left)}` };
    },
    // 38h: P p.20, C p.15, X p.14.
    [CMD.closeFiscalReceipt]: () => {
      const open = this.open;
      if (!open || !open.settled) return { errors: ['notAllowed'] };
      const block = this.printBlock();
      if (block) return { errors: block };
      const total = this.total();
      this.memory.documentNumber += 1;
      this.memory.day.receipts += 1;
      const day = this.memory.day;
      if (open.storno) {
        day.storno = new Decimal(day.storno).plus(total).toString();
        for (const l of open.lines) day.stornoByGroup[l.taxGroup] = new Decimal(day.stornoByGroup[l.taxGroup] ?? 0).plus(l.total).toString();
      } else {
        day.total = new Decimal(day.total).plus(total).toString();
        for (const l of open.lines) day.byGroup[l.taxGroup] = new Decimal(day.byGroup[l.taxGroup] ?? 0).plus(l.total).toString();
      }
      this.last = { number: this.memory.documentNumber, items: open.lines.length, amount: total, paid: open.paid };
      this.memory.receipts.push({
        number: this.memory.documentNumber,
        dailySalesReportNumber: this.memory.zNumber + 1,
        total: total.toFixed(2),
        texts: open.texts,
        lines: open.lines,
        payments: open.payments,
        change: fmt(open.paid.minus(total)),
        unp: open.unp,
        date: this.clock().toISOString(),
        ...(open.storno ? { storno: open.storno } : {}),
      });
      this.open = null;
      if (this.x) return { data: `${this.memory.documentNumber}\t` };
      return { data: `${String(this.memory.day.receipts + this.memory.day.voided).padStart(4, '0')},${String(this.memory.day.receipts).padStart(4, '0')}` };
    },
    // 3Ch: only before 35h (P p.22, C p.16); X p.15.
    [CMD.cancelFiscalReceipt]: () => {
      if (!this.open || this.open.paid.gt(0)) return { errors: ['notAllowed'] };
      // A void goes through without paper (the printer marks it in its journal); not with the cover open.
      if (this.coverOpen) return { errors: ['coverOpen'] };
      const voided = this.open;
      this.open = null;
      this.memory.day.voided += 1;
      if (this.numbersVoids) this.memory.documentNumber += 1;
      this.last = { number: this.memory.documentNumber + (this.numbersVoids ? 0 : 1), items: voided.lines.length, amount: voided.sum.plus(voided.adjustment), paid: new Decimal(0) };
      return {};
    },
    // 45h: P p.23, C p.18 ('0' Z, '2' X); X p.18-19 ('X'/'Z').
    [CMD.dailyReport]: (data) => {
      const kind = this.x ? ({ 'X\t': 'X', 'Z\t': 'Z' } as Record<string, 'X' | 'Z'>)[data] : ({ '0': 'Z', '2': 'X' } as Record<string, 'X' | 'Z'>)[data];
      if (!kind) return { errors: ['syntaxError'] };
      if (this.open) return { errors: ['notAllowed'] };
      const block = this.printBlock();
      if (block) return { errors: block };
      const day = this.memory.day;
      const groups = 'АБВГДЕЖЗ'.split('').map((g) => day.byGroup[g] ?? 0);
      const number = this.memory.zNumber + 1;
      this.memory.reports.push({ kind, number, total: fmt(day.total), receipts: day.receipts, date: this.clock().toISOString() });
      this.memory.documentNumber += 1;
      const stornoGroups = 'АБВГДЕЖЗ'.split('').map((g) => day.stornoByGroup[g] ?? 0);
      const reply = this.x
        ? this.join([number, ...groups.map((g) => fmt(g)), ...stornoGroups.map((g) => fmt(g))])
        : [String(number).padStart(4, '0'), cents(day.total, 12), ...groups.map((g) => cents(g, 12))].join(',');
      if (kind === 'Z') {
        this.zOverdue = false;
        this.memory.zNumber = number;
        this.memory.day = { total: '0', receipts: 0, voided: 0, byGroup: {}, storno: '0', stornoByGroup: {} };
      }
      return { data: reply };
    },
  };
}

// A demo device: `npx tsx test/support/fake-datecs-device.ts 4999 0.1 X`
if (process.argv[1] && /fake-datecs-device\.[tj]s$/.test(process.argv[1])) {
  const dev = new FakeDatecsDevice({ dropRate: Number(process.argv[3] ?? 0), seed: Date.now(), variant: (process.argv[4] ?? 'C') as VariantName });
  void dev.listen(Number(process.argv[2] ?? 0)).then((port) => {
    process.stdout.write(`Fake Datecs ${dev.model} (${dev.variant.name}) on tcp://127.0.0.1:${port} (Ctrl-C to stop)\n`);
    setInterval(() => process.stdout.write(`documents ${dev.memory.documentNumber}, Z reports ${dev.memory.zNumber}\n`), 10_000).unref();
  });
}
