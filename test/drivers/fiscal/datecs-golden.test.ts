/**
 * Real Datecs traffic that users posted in ErpNet.FP's issues, replayed byte for byte against our
 * framing, parsers and driver. Each frame is quoted from the log as far as the stored copy of
 * the thread shows it; where the copy cuts a frame short, only the whole frames are used.
 *
 * - erpnet/ErpNet.FP#112 "Cut the comment text on DP-150" (2019-10-03, DP-150, bg.dt.c.isl on COM17):
 *   a void refused with no receipt open, then 30h with an УНП answered after a burst of SYN.
 * - erpnet/ErpNet.FP#135 "Datecs DP25X don't print receipt…" (2020-01-08, DP-25X, bg.dt.x.isl on COM1):
 *   a 35h payment whose answer came in eight reads, an X error code first.
 * - erpnet/ErpNet.FP#183 "What about support of datecs dp150 MX" (2023-08-09): the X 5Ah probe and its
 *   answer without a serial number; the classic 5Ah probe answered SYN then NAK.
 * - erpnet/ErpNet.FP#56 "DATECS DP-150 no longer works" (2019-07-11) and #191 "Unable to detect/connect
 *   to Datecs DP-150 via TCP" (2024-12-15): the 5Ah probes in both framings; #191 answered SYN, NAK.
 *
 * Successful answers to the receipt commands (issue 27, point 11), so the fake cannot agree with a
 * misreading of ours:
 * - #112 (above), the next exchange of the same log: the DP-150's answer to that 30h, `0006,0006`
 *   (AllReceipt, FiscReceipt) with "fiscal receipt open" set. The stored copy of the thread cuts the
 *   frame after the status bytes: its BCC (four bytes) is recomputed; LEN and everything before the BCC
 *   are the printer's.
 * - Datecs' own worked example of a successful X 30h, request and answer `0\t472\t` (ErrorCode 0,
 *   SlipNumber 472), from "PM_XXXXXX-BUL_CommunicationProtocol" v2.11.4 (17 Nov 2022), as quoted byte
 *   for byte in rosenvladimirov/Odoo.ErpNet.FP docs/PROTOCOL_REFERENCE.md §12 (commit 87c90b2).
 * No public capture of a successful 31h, 35h, 38h, 4Ch, 40h or 71h answer was found (ErpNet.FP's
 * threads, UcsFiscalPrinters, Odoo.ErpNet.FP "has no captured device frames yet"): NOTES.md lists them
 * among the checks that need a device.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CMD, VARIANTS, faultOf, hasFlag, parseDiagnosticInfo, str, variantOfModel } from '../../../drivers/fiscal/datecs/commands.js';
import { DatecsFiscalDevice } from '../../../drivers/fiscal/datecs/driver.js';
import { CLASSIC, X_FORMAT, bcc, decodeReply, decodeRequest, encodeReply, encodeRequest, hex, scan } from '../../../drivers/fiscal/datecs/frame.js';
import { FakeDatecsDevice } from '../../support/fake-datecs-device.js';

const b = (text: string) => Buffer.from(text.replace(/[-\s]+/g, ''), 'hex');

/** #112, DP-150 (C firmware). */
const I112 = {
  voidRequest: b('01-24-24-3C-05-30-30-38-39-03'),
  voidRefused: b('01-2B-24-3C-04-A0-82-80-80-86-9A-05-30-33-3D-36-03'),
  openRequest: b('01-3F-25-30-31-2C-31-2C-44-59-34-32-33-37-39-33-2D-30-30-30-31-2D-30-30-30-30-30-30-32-2C-31-05-30-35-3F-36-03'),
};
/** #112, DP-150: the answer to `openRequest`, as logged up to the status bytes (the copy cuts the BCC). */
const I112_OPEN_ANSWER_TO_STATUS = b('01-34-25-30-30-30-30-36-2C-30-30-30-36-04-80-80-88-80-86-9A-05');
/** Datecs PM v2.11.4, worked example: X 30h `1\t1\t24\tI\t` (an invoice receipt) and its answer. */
const PM_X_OPEN = {
  request: b('01 30 30 33 33 2C 30 30 33 30 31 09 31 09 32 34 09 49 09 05 30 32 3E 3F 03'),
  answer: b('01 30 30 33 39 2C 30 30 33 30 30 09 34 37 32 09 04 80 80 88 80 86 9A 80 80 05 30 36 3C 3B 03'),
};
/** #135, DP-25X (X firmware): the payment request and its answer as the eight reads delivered it. */
const I135 = {
  payRequest: b('01-30-30-33-33-30-30-30-33-35-34-09-31-2E-35-33-09-31-09-05-30-33-30-3A-03'),
  payReads: ['16', '01', '30-30-33-3B-30-30-30', '33', '35-2D-31-31-31-30-31', '36', '09-04-80-80-80-80-86', '9A', '80-80-05-30-37-34-3F', '03'].map(b),
  dateRequest: b('01-30-30-32-3A-31-30-30-33-3E-05-30-31-3D-33-03'),
};
/** #183, DP-150MX (Moldovan X firmware). */
const I183 = {
  xProbe: b('01-30-30-32-3B-21-30-30-35-3A-31-05-30-31-3F-33-03'),
  xAnswer: b(
    '16-01-30-30-36-3A-21-30-30-35-3A-44-50-2D-31-35-30-4D-58-2C-36-30-39-34-32-38-20-32-30-4A-75-6C-32-33-20-31-33-35-33-2C-39-34-36-30-2C-30-30-30-30-30-30-30-30-2C-20-20-20-20-30-32-35-30-30-30-30-32-04-80-80-80-80-84-82-80-80-05-31-31-31-32-03',
  ),
  classicProbe: b('01-25-21-5A-31-05-30-30-3D-36-03'),
  classicAnswer: b('16-15'),
};

describe('our encoder writes what ErpNet.FP wrote, byte for byte', () => {
  it('#112: 3Ch and 30h with an УНП in classic framing (C firmware, DP-150)', () => {
    expect(hex(encodeRequest(CLASSIC, 0x24, CMD.cancelFiscalReceipt))).toBe(hex(I112.voidRequest));
    const open = VARIANTS.C.open('1', '1', '1', 'DY423793-0001-0000002');
    expect(open).toBe('1,1,DY423793-0001-0000002,1');
    expect(hex(encodeRequest(CLASSIC, 0x25, CMD.openFiscalReceipt, Buffer.from(open)))).toBe(hex(I112.openRequest));
  });

  it('#135: an X payment (4 nibbles of LEN and CMD) and 3Eh', () => {
    expect(hex(encodeRequest(X_FORMAT, 0x30, CMD.total, Buffer.from('4\t1.53\t1\t')))).toBe(hex(I135.payRequest));
    expect(hex(encodeRequest(X_FORMAT, 0x31, CMD.readDateTime))).toBe(hex(I135.dateRequest));
  });

  it('#56, #183, #191: the 5Ah probes in both framings', () => {
    expect(hex(encodeRequest(X_FORMAT, 0x21, CMD.diagnosticInfo, Buffer.from('1')))).toBe(hex(I183.xProbe));
    expect(hex(encodeRequest(CLASSIC, 0x21, CMD.diagnosticInfo, Buffer.from('1')))).toBe(hex(I183.classicProbe));
  });
});

describe('successful answers to 30h, as printers and Datecs give them (issue 27, point 11)', () => {
  it('#112: the DP-150 opened the receipt: AllReceipt,FiscReceipt `0006,0006`, "fiscal receipt open" and no error bit', () => {
    const frame = Buffer.concat([I112_OPEN_ANSWER_TO_STATUS, bcc(I112_OPEN_ANSWER_TO_STATUS.subarray(1)), Buffer.from([0x03])]);
    const reply = decodeReply(CLASSIC, frame);
    expect(reply).toMatchObject({ seq: 0x25, cmd: CMD.openFiscalReceipt });
    expect(str(reply.data)).toBe('0006,0006');
    // LEN as the printer sent it counts what our encoder counts for the same data and status.
    expect(encodeReply(CLASSIC, 0x25, CMD.openFiscalReceipt, reply.data, reply.status)[1]).toBe(0x34);
    const v = VARIANTS.C;
    expect(faultOf(v, reply.status, true)).toBeNull();
    expect(hasFlag(v, reply.status, 'fiscalReceiptOpen')).toBe(true);
    expect(v.errorCode(str(reply.data))).toBeNull();
  });

  it('Datecs PM v2.11.4: the X 30h request encodes byte for byte; its answer is error 0, slip 472, receipt open', () => {
    expect(hex(encodeRequest(X_FORMAT, 0x2c, CMD.openFiscalReceipt, Buffer.from('1\t1\t24\tI\t')))).toBe(hex(PM_X_OPEN.request));
    const reply = decodeReply(X_FORMAT, PM_X_OPEN.answer);
    expect(reply).toMatchObject({ seq: 0x2c, cmd: CMD.openFiscalReceipt });
    expect(str(reply.data)).toBe('0\t472\t');
    const v = VARIANTS.X;
    expect(v.errorCode(str(reply.data))).toBeNull();
    expect(faultOf(v, reply.status, true)).toBeNull();
    expect(hasFlag(v, reply.status, 'fiscalReceiptOpen')).toBe(true);
    expect(hex(reply.status)).toBe('80 80 88 80 86 9A 80 80');
  });

  it('the fake printer answers 30h in the same shape as the real ones (classic `NNNN,NNNN`, X `0\\tN\\t`), its status bytes as theirs', async () => {
    for (const [variant, shape, real] of [
      ['C', /^\d{4},\d{4}$/, I112_OPEN_ANSWER_TO_STATUS],
      ['X', /^0\t\d+\t$/, PM_X_OPEN.answer],
    ] as const) {
      const fake = new FakeDatecsDevice({ variant });
      const f = VARIANTS[variant].frame;
      const frames: Buffer[] = [];
      const peer = { send: (bytes: Buffer) => frames.push(bytes) };
      const open = VARIANTS[variant].open('1', VARIANTS[variant].defaultPassword(fake.model, '1'), '1', 'DT000001-0001-0000001');
      const request = encodeRequest(f, 0x25, CMD.openFiscalReceipt, Buffer.from(open));
      await fake.feed(peer, request);
      const reply = decodeReply(f, frames.find((x) => x[0] === 0x01)!);
      expect(str(reply.data)).toMatch(shape);
      const realStatus = decodeReply(f, variant === 'C' ? Buffer.concat([real, bcc(real.subarray(1)), Buffer.from([3])]) : real).status;
      // The bits that matter here agree: no error, a fiscal receipt open, fiscalized (5.3).
      for (const flag of ['fiscalReceiptOpen', 'fiscalMode', 'notAllowed', 'syntaxError'] as const) {
        expect([flag, hasFlag(VARIANTS[variant], reply.status, flag)]).toEqual([flag, hasFlag(VARIANTS[variant], realStatus, flag)]);
      }
    }
  });
});

describe('our decoder reads what the printers answered', () => {
  it('#112: SYN, then the refusal of a void with no receipt open: general error and "not allowed" (C manual p.3)', () => {
    const stream = Buffer.concat([Buffer.from([0x16]), I112.voidRefused]);
    expect(scan(CLASSIC, stream)).toEqual({ kind: 'syn', length: 1 });
    const reply = decodeReply(CLASSIC, stream.subarray(1));
    expect(reply).toMatchObject({ seq: 0x24, cmd: 0x3c });
    expect(reply.data).toHaveLength(0);
    expect(hex(reply.status)).toBe('A0 82 80 80 86 9A');
    const v = VARIANTS.C;
    // 1.1 not allowed; 4.1/4.2 UIC and IDs set; 5.1 formatted, 5.3 fiscal mode, 5.4 tax rates set.
    expect(reply.status[1] & 0x02).toBe(0x02);
    expect(reply.status[5] & 0x08).toBe(0x08);
    expect(v.status.notAllowed).toMatchObject({ byte: 1, bit: 1 });
  });

  it('#135: an X answer split over eight reads is one frame: error -111016 first, eight status bytes', () => {
    let input = Buffer.alloc(0);
    const tokens: string[] = [];
    for (const chunk of I135.payReads) {
      input = Buffer.concat([input, chunk]);
      for (let t = scan(X_FORMAT, input); t; t = scan(X_FORMAT, input)) {
        tokens.push(t.kind);
        if (t.kind === 'frame') {
          const reply = decodeReply(X_FORMAT, input.subarray(0, t.length));
          expect(reply).toMatchObject({ seq: 0x30, cmd: 0x35 });
          expect(str(reply.data)).toBe('-111016\t');
          expect(VARIANTS.X.errorCode(str(reply.data))).toBe('-111016');
          expect(hex(reply.status)).toBe('80 80 80 80 86 9A 80 80');
        }
        input = input.subarray(t.length);
      }
    }
    expect(tokens).toEqual(['syn', 'frame']);
  });

  it('#183: the DP-150MX answer names an X model; the fiscal memory number is read though the serial is missing', () => {
    const reply = decodeReply(X_FORMAT, I183.xAnswer.subarray(1));
    const info = parseDiagnosticInfo(str(reply.data));
    expect(info).toEqual({ model: 'DP-150MX', firmware: '609428 20Jul23 1353', serialNumber: '', fiscalMemorySerialNumber: '02500002' });
    expect(variantOfModel(info.model)).toBe('X');
    expect(hex(reply.status)).toBe('80 80 80 80 84 82 80 80');
  });
});

/** A TCP peer that plays back the recorded answers to the recorded requests, nothing else. */
class Replay {
  private server: Server | null = null;
  readonly received: Buffer[] = [];
  constructor(private readonly script: (request: Buffer, socket: Socket) => void) {}
  async listen(): Promise<string> {
    this.server = createServer((socket) => {
      socket.on('data', (chunk: Buffer) => {
        this.received.push(chunk);
        this.script(chunk, socket);
      });
      socket.on('error', () => socket.destroy());
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    return `tcp://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }
  close(): Promise<void> {
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

describe('the driver against the recorded DP-150MX (#183)', () => {
  let replay: Replay;
  afterEach(() => replay.close());

  it('asks in classic framing, gets SYN NAK, asks again in X framing and takes the answer: model, variant X, fiscal memory', async () => {
    replay = new Replay((request, socket) => {
      if (request[1] === 0x25) socket.write(I183.classicAnswer);
      // The recorded answer carries SEQ 21h: re-sequence it to what our request used (and its checksum).
      else if (request[0] === 0x01 && request[5] !== undefined) {
        const body = I183.xAnswer.subarray(1);
        const data = decodeReply(X_FORMAT, body).data;
        const status = decodeReply(X_FORMAT, body).status;
        const seq = request[5];
        const reply = Buffer.concat([Buffer.from([0x16]), encodeReplyLike(seq, data, status)]);
        socket.write(reply);
      }
    });
    const address = await replay.listen();
    const dev = new DatecsFiscalDevice({ name: 'MX', address, settings: {}, clock: () => new Date(), timings: { frameTimeoutMs: 100, retries: 1 } });
    try {
      const info = await dev.info();
      expect(info).toMatchObject({ model: expect.stringMatching(/DP-150MX.*\(X\)/), serialNumber: '', fiscalMemorySerialNumber: '02500002' });
      // The first thing on the line is the classic probe ErpNet.FP sent, but for our own SEQ (and so BCC).
      const first = replay.received[0];
      expect(first).toHaveLength(I183.classicProbe.length);
      expect(decodeRequest(CLASSIC, first)).toMatchObject({ cmd: 0x5a, data: Buffer.from('1') });
      expect(hex(encodeRequest(CLASSIC, 0x21, 0x5a, Buffer.from('1')))).toBe(hex(I183.classicProbe));
    } finally {
      await dev.close();
    }
  });
});

function encodeReplyLike(seq: number, data: Buffer, status: Buffer): Buffer {
  // The same frame the printer sent, with our SEQ: LEN, CMD, data and status exactly as recorded.
  const recorded = I183.xAnswer.subarray(1);
  const out = Buffer.from(recorded);
  out[5] = seq;
  let sum = 0;
  for (const byte of out.subarray(1, out.length - 5)) sum = (sum + byte) & 0xffff;
  const bcc = [(sum >> 12) & 0xf, (sum >> 8) & 0xf, (sum >> 4) & 0xf, sum & 0xf].map((n) => n + 0x30);
  out.set(bcc, out.length - 5);
  expect(decodeReply(X_FORMAT, out)).toMatchObject({ data, status });
  return out;
}
