/**
 * Datecs ISL framing against byte transcripts of a receipt's exchange (sale, payment, close, a
 * paper-out refusal), worked out by hand from the manual's layout and checksum rule.
 */
import { describe, expect, it } from 'vitest';
import { CLASSIC, bcc, decodeReply, decodeRequest, encodeReply, encodeRequest, FrameError, hex, nextSeq, scan } from '../../../drivers/fiscal/datecs/frame.js';

const b = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

/** host → printer, printer → host, as they went over the line. */
const TRANSCRIPT = {
  status: b('01 25 20 4A 58 05 30 30 3E 3C 03'),
  statusReply: b('01 2B 20 4A 04 80 80 80 80 80 88 05 30 33 3A 36 03'),
  sale: b('01 30 21 31 50 69 76 6F 09 41 32 2E 32 30 2A 32 05 30 33 38 3D 03'),
  payment: b('01 2F 22 35 43 61 72 64 09 4E 31 36 2E 30 30 05 30 33 35 31 03'),
  paymentReply: b('01 30 22 35 52 30 2E 30 30 04 80 80 88 80 80 88 05 30 34 3B 30 03'),
  close: b('01 24 23 38 05 30 30 38 34 03'),
  closeReply: b('01 2E 23 38 35 2C 34 04 80 80 80 80 80 88 05 30 34 32 3F 03'),
  paperOutReply: b('01 2B 24 31 04 A0 80 89 80 80 88 05 30 33 3B 3A 03'),
};

describe('checksum', () => {
  it('sends the 16-bit sum as four nibbles plus 30h (the manual: 1AE3h → 31 3A 3E 33)', () => {
    const sum1ae3 = Buffer.concat([Buffer.alloc(26, 0xff), Buffer.from([0xfd])]);
    expect(hex(bcc(sum1ae3))).toBe('31 3A 3E 33');
    expect(hex(bcc(Buffer.alloc(0)))).toBe('30 30 30 30');
  });

  it('wraps around 16 bits', () => {
    expect(hex(bcc(Buffer.alloc(258, 0xff)))).toBe('30 30 3F 3E'); // 258 × FFh = 100FEh
  });
});

describe('requests', () => {
  it('encode byte for byte: LEN counts LEN..05 plus 20h, BCC covers LEN..05', () => {
    expect(hex(encodeRequest(CLASSIC, 0x20, 0x4a, Buffer.from('X')))).toBe(hex(TRANSCRIPT.status));
    expect(hex(encodeRequest(CLASSIC, 0x21, 0x31, Buffer.from('Pivo\tA2.20*2', 'latin1')))).toBe(hex(TRANSCRIPT.sale));
    expect(hex(encodeRequest(CLASSIC, 0x22, 0x35, Buffer.from('Card\tN16.00')))).toBe(hex(TRANSCRIPT.payment));
    expect(hex(encodeRequest(CLASSIC, 0x23, 0x38))).toBe(hex(TRANSCRIPT.close));
  });

  it('decode back', () => {
    expect(decodeRequest(CLASSIC, TRANSCRIPT.sale)).toEqual({ seq: 0x21, cmd: 0x31, data: Buffer.from('Pivo\tA2.20*2') });
    expect(decodeRequest(CLASSIC, TRANSCRIPT.close)).toEqual({ seq: 0x23, cmd: 0x38, data: Buffer.alloc(0) });
  });

  it('refuse a sequence number below 20h, a bad command, control bytes in data, data too long', () => {
    expect(() => encodeRequest(CLASSIC, 0x1f, 0x4a)).toThrow(FrameError);
    expect(() => encodeRequest(CLASSIC, 0x20, 0x10)).toThrow(FrameError);
    expect(() => encodeRequest(CLASSIC, 0x20, 0x36, Buffer.from([0x41, 0x03]))).toThrow(/control/);
    // Defect 9: a request carries at most 213 data bytes (P manual p.7, C p.5, X p.4), not 219.
    expect(() => encodeRequest(CLASSIC, 0x20, 0x36, Buffer.alloc(214, 0x41))).toThrow(/longer/);
    expect(encodeRequest(CLASSIC, 0x20, 0x36, Buffer.alloc(213, 0x41))[1]).toBe(0x20 + 4 + 213);
  });

  it('sequence numbers run 20h..7Fh and wrap', () => {
    expect(nextSeq(0x20)).toBe(0x21);
    expect(nextSeq(0x7f)).toBe(0x20);
    expect(nextSeq(0)).toBe(0x20);
  });
});

describe('replies', () => {
  it('encode byte for byte with 04, six status bytes, 05', () => {
    expect(hex(encodeReply(CLASSIC, 0x20, 0x4a, Buffer.alloc(0), b('80 80 80 80 80 88')))).toBe(hex(TRANSCRIPT.statusReply));
    expect(hex(encodeReply(CLASSIC, 0x22, 0x35, Buffer.from('R0.00'), b('80 80 88 80 80 88')))).toBe(hex(TRANSCRIPT.paymentReply));
    expect(hex(encodeReply(CLASSIC, 0x23, 0x38, Buffer.from('5,4'), b('80 80 80 80 80 88')))).toBe(hex(TRANSCRIPT.closeReply));
  });

  it('decode data and status', () => {
    const r = decodeReply(CLASSIC, TRANSCRIPT.closeReply);
    expect(r).toMatchObject({ seq: 0x23, cmd: 0x38 });
    expect(r.data.toString()).toBe('5,4');
    expect(hex(r.status)).toBe('80 80 80 80 80 88');
    const refused = decodeReply(CLASSIC, TRANSCRIPT.paperOutReply);
    expect(refused.data).toHaveLength(0);
    expect(hex(refused.status)).toBe('A0 80 89 80 80 88');
  });

  it('refuse a bad checksum, a LEN that disagrees, a missing separator, a status byte without bit 7', () => {
    const bad = Buffer.from(TRANSCRIPT.closeReply);
    bad[bad.length - 2] ^= 1;
    expect(() => decodeReply(CLASSIC, bad)).toThrow(/checksum/);
    const flipped = Buffer.from(TRANSCRIPT.closeReply);
    flipped[4] = 0x36;
    expect(() => decodeReply(CLASSIC, flipped)).toThrow(/checksum/);
    const len = Buffer.from(TRANSCRIPT.closeReply);
    len[1] += 1;
    expect(() => decodeReply(CLASSIC, len)).toThrow(/LEN/);
    expect(() => decodeReply(CLASSIC, TRANSCRIPT.close)).toThrow(/short|04h/);
    expect(() => decodeReply(CLASSIC, encodeRequest(CLASSIC, 0x20, 0x41, Buffer.from('1234567')))).toThrow(/04h/);
    expect(() => encodeReply(CLASSIC, 0x20, 0x4a, Buffer.alloc(0), b('80 80 80 80 80 08'))).toThrow(/bit 7/);
  });
});

describe('scanning the input', () => {
  it('finds SYN, NAK, a whole frame, and waits for the rest of a partial one', () => {
    const stream = Buffer.concat([Buffer.from([0x16, 0x16]), TRANSCRIPT.closeReply]);
    expect(scan(CLASSIC, stream)).toEqual({ kind: 'syn', length: 1 });
    expect(scan(CLASSIC, Buffer.from([0x15]))).toEqual({ kind: 'nak', length: 1 });
    expect(scan(CLASSIC, stream.subarray(2))).toEqual({ kind: 'frame', length: TRANSCRIPT.closeReply.length });
    expect(scan(CLASSIC, TRANSCRIPT.closeReply.subarray(0, 10))).toBeNull();
    expect(scan(CLASSIC, Buffer.alloc(0))).toBeNull();
  });

  it('skips noise up to the next preamble, SYN or NAK, and a preamble whose frame does not end in 03h', () => {
    expect(scan(CLASSIC, Buffer.from([0x41, 0x42, 0x01, 0x2b]))).toEqual({ kind: 'noise', length: 2 });
    expect(scan(CLASSIC, Buffer.from([0x01, 0x21]))).toEqual({ kind: 'noise', length: 1 });
    const broken = Buffer.from(TRANSCRIPT.closeReply);
    broken[broken.length - 1] = 0x00;
    expect(scan(CLASSIC, broken)).toEqual({ kind: 'noise', length: 1 });
  });
});
