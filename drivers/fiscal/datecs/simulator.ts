/**
 * A Datecs ISL fiscal printer simulator that speaks the protocol byte for byte, for tests and
 * demos: a TCP server on 127.0.0.1 and a serial peer behind serialport's MockBinding, both in front
 * of one device with one fiscal memory (receipt counter, Z counter, daily totals). It can lose
 * replies (on demand or at random), run out of paper, open its cover, go silent after a command,
 * drop the line, or be switched off.
 *
 * Like the real printer it answers a frame that repeats the sequence number of the frame it
 * answered last by repeating that answer, without executing the command again.
 *
 *   npx tsx drivers/fiscal/datecs/simulator.ts [port] [dropRate]   — a demo device on 127.0.0.1
 */
import { createServer, type Server, type Socket } from 'node:net';
import { SerialPortMock } from 'serialport';
import { Decimal } from 'decimal.js';
import { CMD, TAX_GROUPS, amount as fmt, statusBytes, str, type StatusFlag, type TaxGroup } from './commands.js';
import { NAK, SYN, decodeRequest, encodeReply, scan, type Request } from './frame.js';

export interface SimReceipt {
  /** The document number (71h), printed on the receipt. */
  number: number;
  /** The fiscal day it belongs to: the number of the next Z report. */
  dailySalesReportNumber: number;
  total: string;
  texts: string[];
  lines: Array<{ text: string; taxGroup: TaxGroup; price: string; quantity: string; adjustment: string; total: string }>;
  payments: Array<{ mode: string; amount: string }>;
  change: string;
  date: string;
}

export interface SimReport {
  kind: 'X' | 'Z';
  number: number;
  total: string;
  receipts: number;
  date: string;
}

export interface FiscalMemory {
  serialNumber: string;
  fiscalMemorySerialNumber: string;
  /** The number of the last document issued (fiscal receipts only in this simulator). */
  documentNumber: number;
  /** Z reports written; the open fiscal day is zNumber + 1. */
  zNumber: number;
  day: { total: string; receipts: number; voided: number; byGroup: Partial<Record<TaxGroup, string>> };
  receipts: SimReceipt[];
  reports: SimReport[];
}

interface OpenReceipt {
  texts: string[];
  lines: SimReceipt['lines'];
  sum: Decimal;
  adjustment: Decimal;
  subtotalled: boolean;
  paid: Decimal;
  payments: SimReceipt['payments'];
  /** Paid in full: only 38h may follow. */
  settled: boolean;
}

type Handler = (data: string) => { data?: string; errors?: StatusFlag[] };

export interface DropRule {
  /** Only replies to this command code (repeats included); any command when absent. */
  cmd?: number;
  count: number;
}

export interface DatecsSimulatorOptions {
  serialNumber?: string;
  fiscalMemorySerialNumber?: string;
  clock?: () => Date;
  /** Each reply comes this late; SYN bytes go out meanwhile every `synIntervalMs`. */
  latencyMs?: number;
  synIntervalMs?: number;
  /** Loses this fraction of replies at random (after the command ran). */
  dropRate?: number;
  seed?: number;
}

/** One peer on the line: a TCP socket or the serial port. */
interface Peer {
  send(bytes: Buffer): void;
  drop(): void;
  input: Buffer;
}

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// serialport re-exports @serialport/binding-mock, whose own package exports carry no types.
const MockBinding = SerialPortMock.binding;
export type MockBindingInterface = typeof MockBinding;

const round2 = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const pad2 = (n: number) => String(n).padStart(2, '0');

export class DatecsSimulator {
  readonly memory: FiscalMemory;
  paper: 'ok' | 'low' | 'out' = 'ok';
  coverOpen = false;
  /** Off: no TCP connection is accepted and serial input is ignored. */
  powered = true;
  /** Every request frame that reached the device, decoded (retransmissions included). */
  readonly requests: Request[] = [];
  latencyMs: number;
  synIntervalMs: number;
  dropRate: number;
  private readonly random: () => number;
  private readonly clock: () => Date;
  private open: OpenReceipt | null = null;
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
  private server: Server | null = null;
  private port = 0;

  constructor(opts: DatecsSimulatorOptions = {}) {
    this.clock = opts.clock ?? (() => new Date());
    this.latencyMs = opts.latencyMs ?? 0;
    this.synIntervalMs = opts.synIntervalMs ?? 60;
    this.dropRate = opts.dropRate ?? 0;
    this.random = rng(opts.seed ?? 1);
    this.memory = {
      serialNumber: opts.serialNumber ?? 'DT000001',
      fiscalMemorySerialNumber: opts.fiscalMemorySerialNumber ?? '02000001',
      documentNumber: 0,
      zNumber: 0,
      day: { total: '0', receipts: 0, voided: 0, byGroup: {} },
      receipts: [],
      reports: [],
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

  /** Answers the next `count` frames with NAK, as after a checksum error on the line. */
  nakFrames(count: number): void {
    this.naks += count;
  }

  /** Flips a bit in the next `count` replies, so their checksum fails. */
  garbleReplies(count: number): void {
    this.garbles += count;
  }

  resume(): void {
    this.silent = false;
    this.silentAfter = null;
  }

  /** The paper runs out when the next receipt has taken `lines` sale lines. */
  paperOutAfterLines(lines: number): void {
    this.paperOutAfter = lines;
  }

  /** Switched off: open connections drop, new ones are refused; on: it listens on the same port again. */
  async setPower(on: boolean): Promise<void> {
    this.powered = on;
    if (!on) {
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

  /** The receipt open right now (tests look at a half-done one). */
  get openReceipt(): Readonly<OpenReceipt> | null {
    return this.open;
  }

  // ---- transports -----------------------------------------------------------------------------------

  /** A TCP server on 127.0.0.1 (`port` 0: any free one); resolves the port. */
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

  /**
   * A serialport binding whose port `path` is wired to this device: what the driver writes reaches
   * the device, what the device answers arrives as the port's input.
   */
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

  private receive(peer: Peer, chunk: Buffer): void {
    if (!this.powered) return;
    peer.input = Buffer.concat([peer.input, chunk]);
    for (;;) {
      const token = scan(peer.input);
      if (!token) return;
      const bytes = peer.input.subarray(0, token.length);
      peer.input = peer.input.subarray(token.length);
      if (token.kind !== 'frame') continue;
      let request: Request;
      try {
        request = decodeRequest(bytes);
        if (this.naks > 0 && this.powered && !this.silent) {
          this.naks -= 1;
          throw new Error('NAK');
        }
      } catch {
        peer.send(Buffer.from([NAK]));
        continue;
      }
      // The device works on one frame at a time, in the order they arrive.
      this.busy = this.busy.then(() => this.serve(peer, request));
    }
  }

  private async serve(peer: Peer, request: Request): Promise<void> {
    if (this.silent || !this.powered) return;
    this.requests.push(request);
    let reply: Buffer;
    const repeat = request.seq === this.lastSeq && this.lastReply !== null;
    if (repeat) {
      reply = this.lastReply!;
    } else {
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
      reply[4] ^= 0x01;
    }
    peer.send(reply);
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

  private execute(request: Request): Buffer {
    const handler = this.handlers[request.cmd];
    const out = handler ? handler(str(request.data)) : { errors: ['invalidCommand' as StatusFlag] };
    const flags: StatusFlag[] = ['fiscalMode', ...(out.errors ?? [])];
    if (this.paper === 'out') flags.push('paperOut');
    if (this.paper === 'low') flags.push('paperLow');
    if (this.coverOpen) flags.push('coverOpen');
    if (this.open) flags.push('fiscalReceiptOpen');
    return encodeReply(request.seq, request.cmd, Buffer.from(out.errors?.length ? '' : (out.data ?? ''), 'latin1'), statusBytes(flags));
  }

  /** The condition that stops anything from printing, if any. */
  private printBlock(): StatusFlag[] | undefined {
    if (this.paper === 'out') return ['paperOut'];
    if (this.coverOpen) return ['coverOpen'];
    return undefined;
  }

  private now(): string {
    return this.clock().toISOString();
  }

  private readonly handlers: Record<number, Handler> = {
    [CMD.status]: () => ({ data: '' }),
    [CMD.diagnosticInfo]: () => ({
      data: `FP2000,3.10 10Jan25 1200,A1B2,0000,${this.memory.serialNumber},${this.memory.fiscalMemorySerialNumber}`,
    }),
    [CMD.readDateTime]: () => {
      const d = this.clock();
      return { data: `${pad2(d.getDate())}-${pad2(d.getMonth() + 1)}-${pad2(d.getFullYear() % 100)} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}` };
    },
    [CMD.lastDocumentNumber]: () => ({ data: String(this.memory.documentNumber).padStart(7, '0') }),
    [CMD.lastFiscalEntry]: () => ({ data: `${String(this.memory.zNumber).padStart(4, '0')},${fmt(this.memory.day.total)}` }),
    [CMD.transactionStatus]: () => {
      if (this.open) return { data: `1,${this.open.lines.length},${fmt(this.open.sum.plus(this.open.adjustment))},${fmt(this.open.paid)}` };
      const last = this.memory.receipts.at(-1);
      return { data: last ? `0,${last.lines.length},${fmt(last.total)},${fmt(new Decimal(last.total).plus(last.change))}` : '0,0,0.00,0.00' };
    },
    [CMD.openFiscalReceipt]: (data) => {
      if (this.open) return { errors: ['notAllowed'] };
      if (!/^\d{1,2},[^,]{1,8},\d{1,5}$/.test(data)) return { errors: ['syntaxError'] };
      const block = this.printBlock();
      if (block) return { errors: block };
      this.open = { texts: [], lines: [], sum: new Decimal(0), adjustment: new Decimal(0), subtotalled: false, paid: new Decimal(0), payments: [], settled: false };
      return { data: `${this.memory.day.receipts + this.memory.day.voided + 1},${this.memory.day.receipts + 1}` };
    },
    [CMD.fiscalText]: (data) => {
      if (!this.open || this.open.settled) return { errors: ['notAllowed'] };
      const block = this.printBlock();
      if (block) return { errors: block };
      this.open.texts.push(data);
      return {};
    },
    [CMD.sale]: (data) => {
      if (!this.open || this.open.subtotalled || this.open.paid.gt(0)) return { errors: ['notAllowed'] };
      const m = /^([^\t]{0,30})\t([A-I])([+-]?\d{1,8}(?:\.\d{1,2})?)(?:\*(\d{1,8}(?:\.\d{1,3})?))?(?:;([+-]?\d{1,8}(?:\.\d{1,2})?))?$/.exec(data);
      if (!m) return { errors: ['syntaxError'] };
      const block = this.printBlock();
      if (block) return { errors: block };
      if (this.paperOutAfter !== null && this.open.lines.length >= this.paperOutAfter) {
        this.paperOutAfter = null;
        this.paper = 'out';
        return { errors: ['paperOut'] };
      }
      const [, text, group, price, qty = '1', adj = '0'] = m;
      const total = round2(new Decimal(price).times(qty)).plus(adj);
      this.open.lines.push({ text, taxGroup: group as TaxGroup, price, quantity: qty, adjustment: adj, total: total.toFixed(2) });
      this.open.sum = this.open.sum.plus(total);
      return {};
    },
    [CMD.subtotal]: (data) => {
      if (!this.open || this.open.paid.gt(0)) return { errors: ['notAllowed'] };
      const m = /^([01])([01])(?:;([+-]?\d{1,8}(?:\.\d{1,2})?))?$/.exec(data);
      if (!m) return { errors: ['syntaxError'] };
      if (m[3] !== undefined) {
        if (this.open.subtotalled) return { errors: ['notAllowed'] };
        this.open.adjustment = new Decimal(m[3]);
        this.open.subtotalled = true;
      }
      const total = this.open.sum.plus(this.open.adjustment);
      const byGroup = TAX_GROUPS.map((g) => fmt(this.open!.lines.filter((l) => l.taxGroup === g).reduce((s, l) => s.plus(l.total), new Decimal(0))));
      return { data: [fmt(total), ...byGroup].join(',') };
    },
    [CMD.total]: (data) => {
      if (!this.open || this.open.settled) return { errors: ['notAllowed'] };
      const m = /^([^\t]{0,30})\t(?:([PNCD])([+-]?\d{1,8}(?:\.\d{1,2})?))?$/.exec(data);
      if (!m) return { errors: ['syntaxError'] };
      const block = this.printBlock();
      if (block) return { errors: block };
      const total = this.open.sum.plus(this.open.adjustment);
      if (total.lt(0)) return { data: 'E' };
      const due = total.minus(this.open.paid);
      const paid = m[2] === undefined ? due : new Decimal(m[3]);
      if (paid.lte(0)) return { data: 'F' };
      this.open.paid = this.open.paid.plus(paid);
      this.open.payments.push({ mode: m[2] ?? 'P', amount: fmt(paid) });
      if (this.open.paid.lt(total)) return { data: `D${fmt(total.minus(this.open.paid))}` };
      this.open.settled = true;
      return { data: `R${fmt(this.open.paid.minus(total))}` };
    },
    [CMD.closeFiscalReceipt]: () => {
      const open = this.open;
      if (!open || !open.settled) return { errors: ['notAllowed'] };
      const block = this.printBlock();
      if (block) return { errors: block };
      const total = open.sum.plus(open.adjustment);
      this.memory.documentNumber += 1;
      this.memory.day.receipts += 1;
      this.memory.day.total = new Decimal(this.memory.day.total).plus(total).toString();
      for (const l of open.lines) this.memory.day.byGroup[l.taxGroup] = new Decimal(this.memory.day.byGroup[l.taxGroup] ?? 0).plus(l.total).toString();
      this.memory.receipts.push({
        number: this.memory.documentNumber,
        dailySalesReportNumber: this.memory.zNumber + 1,
        total: total.toFixed(2),
        texts: open.texts,
        lines: open.lines,
        payments: open.payments,
        change: fmt(open.paid.minus(total)),
        date: this.now(),
      });
      this.open = null;
      return { data: `${this.memory.day.receipts + this.memory.day.voided},${this.memory.day.receipts}` };
    },
    [CMD.cancelFiscalReceipt]: () => {
      if (!this.open) return { errors: ['notAllowed'] };
      // A void goes through without paper (the printer marks it in its journal); not with the cover open.
      if (this.coverOpen) return { errors: ['coverOpen'] };
      this.open = null;
      this.memory.day.voided += 1;
      return {};
    },
    [CMD.dailyReport]: (data) => {
      if (data !== '0' && data !== '2') return { errors: ['syntaxError'] };
      if (this.open) return { errors: ['notAllowed'] };
      const block = this.printBlock();
      if (block) return { errors: block };
      const z = data === '0';
      const day = this.memory.day;
      const byGroup = TAX_GROUPS.map((g) => fmt(day.byGroup[g] ?? 0));
      const number = this.memory.zNumber + 1;
      this.memory.reports.push({ kind: z ? 'Z' : 'X', number, total: fmt(day.total), receipts: day.receipts, date: this.now() });
      const reply = [String(number).padStart(4, '0'), fmt(day.total), ...byGroup].join(',');
      if (z) {
        this.memory.zNumber = number;
        this.memory.day = { total: '0', receipts: 0, voided: 0, byGroup: {} };
      }
      return { data: reply };
    },
  };
}

// A demo device: `npx tsx drivers/fiscal/datecs/simulator.ts 4999 0.1`
if (process.argv[1] && /datecs[\\/]simulator\.[tj]s$/.test(process.argv[1])) {
  const sim = new DatecsSimulator({ dropRate: Number(process.argv[3] ?? 0), seed: Date.now() });
  void sim.listen(Number(process.argv[2] ?? 0)).then((port) => {
    process.stdout.write(`Datecs simulator on tcp://127.0.0.1:${port} (Ctrl-C to stop)\n`);
    setInterval(() => process.stdout.write(`receipts ${sim.memory.documentNumber}, Z reports ${sim.memory.zNumber}\n`), 10_000).unref();
  });
}
