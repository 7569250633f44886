/**
 * Datecs ISL framing, pure: bytes in, bytes out, no I/O. Two layouts share everything but the
 * widths of three fields (NOTES.md has the pages):
 *
 *   host → printer   01 LEN SEQ CMD DATA 05 BCC 03
 *   printer → host   01 LEN SEQ CMD DATA 04 STATUS 05 BCC 03
 *
 * - classic (P and C firmware: FP-2000/FP-800/FP-650/FP-550, DP-05/25/35/150, WP-50): LEN and CMD one
 *   byte each, STATUS six bytes (P manual p.7-8, C manual p.5).
 * - X (FP-700X, FMP-350X, FMP-55X, DP-25X, DP-150X, WP-500X, WP-50X): LEN and CMD four nibbles each
 *   (each plus 30h, like the BCC), STATUS eight bytes (X manual p.4).
 *
 * LEN counts the bytes after 01 up to and including 05, plus 20h. SEQ runs 20h..7Fh; the printer
 * echoes it and, given the SEQ of the frame it answered last, repeats that answer instead of executing
 * the command again. STATUS bytes have bit 7 set. BCC is the 16-bit sum of the bytes after 01 up to
 * and including 05, sent as four nibbles plus 30h. A host request carries at most 213 data bytes on
 * every variant (P p.7, C p.5, X p.4); a reply at most 218. Outside frames the printer sends single
 * bytes: NAK (15h, "send that frame again") and SYN (16h, "still working", every 60 ms).
 */
export const PRE = 0x01;
export const TERM = 0x03;
export const SEP = 0x04;
export const POST = 0x05;
export const NAK = 0x15;
export const SYN = 0x16;
export const OFFSET = 0x20;
export const SEQ_MIN = 0x20;
export const SEQ_MAX = 0x7f;
/** Data bytes a host request may carry (P manual p.7, C manual p.5, X manual p.4). */
export const MAX_REQUEST_DATA = 213;
/** Data bytes a printer reply may carry (same pages). */
export const MAX_REPLY_DATA = 218;

export interface FrameFormat {
  readonly name: 'classic' | 'X';
  /** Bytes of LEN and of CMD: 1, or 4 nibbles each plus 30h. */
  readonly fieldBytes: 1 | 4;
  readonly statusLength: 6 | 8;
}

export const CLASSIC: FrameFormat = { name: 'classic', fieldBytes: 1, statusLength: 6 };
export const X_FORMAT: FrameFormat = { name: 'X', fieldBytes: 4, statusLength: 8 };

export class FrameError extends Error {
  override readonly name = 'FrameError';
}

/** A 16-bit value as four nibbles 30h..3Fh (1AE3h → 31 3A 3E 33). */
function nibbles(value: number): Buffer {
  return Buffer.from([(value >> 12) & 0xf, (value >> 8) & 0xf, (value >> 4) & 0xf, value & 0xf].map((n) => n + 0x30));
}

function fromNibbles(bytes: Uint8Array): number | null {
  let v = 0;
  for (const b of bytes) {
    if (b < 0x30 || b > 0x3f) return null;
    v = (v << 4) | (b - 0x30);
  }
  return v;
}

/** The 16-bit byte sum as four nibbles 30h..3Fh. */
export function bcc(bytes: Uint8Array): Buffer {
  let sum = 0;
  for (const b of bytes) sum = (sum + b) & 0xffff;
  return nibbles(sum);
}

export function nextSeq(seq: number): number {
  return seq >= SEQ_MAX || seq < SEQ_MIN ? SEQ_MIN : seq + 1;
}

const field = (f: FrameFormat, value: number): Buffer => (f.fieldBytes === 1 ? Buffer.from([value]) : nibbles(value));

function check(f: FrameFormat, seq: number, cmd: number, data: Uint8Array, maxData: number): void {
  if (!Number.isInteger(seq) || seq < SEQ_MIN || seq > 0xff) throw new FrameError(`sequence number ${seq} is outside 20h-FFh`);
  const maxCmd = f.fieldBytes === 1 ? 0xff : 0xffff;
  if (!Number.isInteger(cmd) || cmd < 0x20 || cmd > maxCmd) throw new FrameError(`command ${cmd} is out of range`);
  if (data.length > maxData) throw new FrameError(`data of ${data.length} bytes is longer than ${maxData}`);
  for (const b of data) if (b < 0x20 && b !== 0x09 && b !== 0x0a) throw new FrameError(`data byte ${b.toString(16)}h is a control character`);
}

function wrap(f: FrameFormat, seq: number, cmd: number, body: Uint8Array): Buffer {
  const len = OFFSET + f.fieldBytes + 1 + f.fieldBytes + body.length + 1;
  const inner = Buffer.concat([field(f, len), Buffer.from([seq]), field(f, cmd), body, Buffer.from([POST])]);
  return Buffer.concat([Buffer.from([PRE]), inner, bcc(inner), Buffer.from([TERM])]);
}

/** A host request. Data bytes below 20h other than TAB and LF are refused; so is data over 213 bytes. */
export function encodeRequest(f: FrameFormat, seq: number, cmd: number, data: Uint8Array = Buffer.alloc(0)): Buffer {
  check(f, seq, cmd, data, MAX_REQUEST_DATA);
  return wrap(f, seq, cmd, data);
}

/** A printer reply (the device fakes in the tests speak through this). */
export function encodeReply(f: FrameFormat, seq: number, cmd: number, data: Uint8Array, status: Uint8Array): Buffer {
  check(f, seq, cmd, data, MAX_REPLY_DATA);
  if (status.length !== f.statusLength) throw new FrameError(`status must be ${f.statusLength} bytes, not ${status.length}`);
  for (const b of status) if ((b & 0x80) === 0) throw new FrameError(`status byte ${b.toString(16)}h lacks bit 7`);
  return wrap(f, seq, cmd, Buffer.concat([data, Buffer.from([SEP]), status]));
}

export interface Request {
  seq: number;
  cmd: number;
  data: Buffer;
}

export interface Reply extends Request {
  status: Buffer;
}

/** Bytes from 01 up to the byte before BCC, as LEN says; -1 when LEN is unreadable or impossible. */
function frameLength(f: FrameFormat, input: Uint8Array): number | null {
  if (input.length < 1 + f.fieldBytes) return null;
  const len = f.fieldBytes === 1 ? input[1] : fromNibbles(input.subarray(1, 5));
  if (len === null || len - OFFSET < 2 * f.fieldBytes + 2) return -1;
  return len - OFFSET + 1 + 4 + 1;
}

/** Checks preamble, LEN, postamble, BCC and terminator of one whole frame; returns the bytes between CMD and 05. */
function unwrap(f: FrameFormat, frame: Uint8Array): { seq: number; cmd: number; body: Buffer } {
  const b = Buffer.from(frame);
  if (b.length < 2 * f.fieldBytes + 8) throw new FrameError(`a frame of ${b.length} bytes is too short`);
  if (b[0] !== PRE) throw new FrameError('the frame does not start with 01h');
  if (b[b.length - 1] !== TERM) throw new FrameError('the frame does not end with 03h');
  const total = frameLength(f, b);
  if (total !== b.length) throw new FrameError(`LEN says ${total} bytes, the frame holds ${b.length}`);
  const postAt = b.length - 6;
  if (b[postAt] !== POST) throw new FrameError('05h is not where LEN says');
  const inner = b.subarray(1, postAt + 1);
  if (!bcc(inner).equals(b.subarray(postAt + 1, postAt + 5))) throw new FrameError('checksum mismatch');
  const seqAt = 1 + f.fieldBytes;
  const cmdAt = seqAt + 1;
  const cmd = f.fieldBytes === 1 ? b[cmdAt] : fromNibbles(b.subarray(cmdAt, cmdAt + 4));
  if (cmd === null) throw new FrameError('the command field is not four nibbles');
  return { seq: b[seqAt], cmd, body: Buffer.from(b.subarray(cmdAt + f.fieldBytes, postAt)) };
}

export function decodeRequest(f: FrameFormat, frame: Uint8Array): Request {
  const { seq, cmd, body } = unwrap(f, frame);
  return { seq, cmd, data: body };
}

export function decodeReply(f: FrameFormat, frame: Uint8Array): Reply {
  const { seq, cmd, body } = unwrap(f, frame);
  const sepAt = body.length - f.statusLength - 1;
  if (sepAt < 0 || body[sepAt] !== SEP) throw new FrameError(`the reply has no 04h before its ${f.statusLength} status bytes`);
  return { seq, cmd, data: body.subarray(0, sepAt), status: body.subarray(sepAt + 1) };
}

export type Token =
  | { kind: 'nak' | 'syn'; length: 1 }
  | { kind: 'frame'; length: number }
  /** Bytes that cannot start anything (line noise, the tail of a broken frame): skip them. */
  | { kind: 'noise'; length: number };

/**
 * The first complete token in `input`, or null while more bytes are needed. A frame ends at the 03h
 * that LEN points to; a preamble followed by an impossible LEN is noise up to the next 01h. Replies
 * split across reads (a serial port hands them over in pieces) simply wait for the rest.
 */
export function scan(f: FrameFormat, input: Uint8Array): Token | null {
  if (input.length === 0) return null;
  const first = input[0];
  if (first === NAK) return { kind: 'nak', length: 1 };
  if (first === SYN) return { kind: 'syn', length: 1 };
  if (first !== PRE) {
    let i = 1;
    while (i < input.length && input[i] !== PRE && input[i] !== NAK && input[i] !== SYN) i++;
    return { kind: 'noise', length: i };
  }
  const total = frameLength(f, input);
  if (total === null) return null;
  if (total < 0) return { kind: 'noise', length: 1 };
  if (input.length < total) return null;
  return input[total - 1] === TERM ? { kind: 'frame', length: total } : { kind: 'noise', length: 1 };
}

/** Bytes as "01 2A 20 ..." for logs and test messages. */
export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex').toUpperCase().replace(/(..)(?!$)/g, '$1 ');
}
