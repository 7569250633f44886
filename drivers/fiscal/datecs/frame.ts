/**
 * Datecs ISL framing (FP-2000 / FP-550 / DP-25 class printers), pure: bytes in, bytes out, no I/O.
 * See NOTES.md for the sources.
 *
 *   host → printer   01 LEN SEQ CMD DATA 05 BCC 03
 *   printer → host   01 LEN SEQ CMD DATA 04 STATUS 05 BCC 03
 *
 * LEN is one byte: the count of bytes after the 01 up to and including the 05, plus 20h.
 * SEQ runs 20h..7Fh; the printer echoes it and, given the SEQ of the frame it answered last, repeats
 * that answer instead of executing the command again. CMD is one byte 20h..7Fh. STATUS is six bytes,
 * each with bit 7 set. BCC is the 16-bit sum of the bytes after 01 up to and including 05, sent as four
 * nibbles, each plus 30h. Outside frames the printer sends single bytes: NAK (15h, "send that frame
 * again") and SYN (16h, "still working", every 60 ms).
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
export const STATUS_LENGTH = 6;
/** The largest data field: LEN must stay within one byte (≤ FFh). */
export const MAX_DATA = 0xff - OFFSET - 4 - STATUS_LENGTH - 1;

export class FrameError extends Error {
  override readonly name = 'FrameError';
}

/** The 16-bit byte sum as four nibbles 30h..3Fh (1AE3h → 31 3A 3E 33). */
export function bcc(bytes: Uint8Array): Buffer {
  let sum = 0;
  for (const b of bytes) sum = (sum + b) & 0xffff;
  return Buffer.from([(sum >> 12) & 0xf, (sum >> 8) & 0xf, (sum >> 4) & 0xf, sum & 0xf].map((n) => n + 0x30));
}

export function nextSeq(seq: number): number {
  return seq >= SEQ_MAX || seq < SEQ_MIN ? SEQ_MIN : seq + 1;
}

function check(seq: number, cmd: number, data: Uint8Array, maxData: number): void {
  if (!Number.isInteger(seq) || seq < SEQ_MIN || seq > SEQ_MAX) throw new FrameError(`sequence number ${seq} is outside 20h-7Fh`);
  if (!Number.isInteger(cmd) || cmd < 0x20 || cmd > 0x7f) throw new FrameError(`command ${cmd} is outside 20h-7Fh`);
  if (data.length > maxData) throw new FrameError(`data of ${data.length} bytes is longer than ${maxData}`);
  for (const b of data) if (b < 0x20 && b !== 0x09 && b !== 0x0a) throw new FrameError(`data byte ${b.toString(16)}h is a control character`);
}

function wrap(seq: number, cmd: number, body: Uint8Array): Buffer {
  const inner = Buffer.concat([Buffer.from([OFFSET + 3 + body.length + 1, seq, cmd]), body, Buffer.from([POST])]);
  return Buffer.concat([Buffer.from([PRE]), inner, bcc(inner), Buffer.from([TERM])]);
}

/** A host request: 01 LEN SEQ CMD DATA 05 BCC 03. Data bytes below 20h other than TAB and LF are refused. */
export function encodeRequest(seq: number, cmd: number, data: Uint8Array = Buffer.alloc(0)): Buffer {
  check(seq, cmd, data, MAX_DATA + STATUS_LENGTH + 1);
  return wrap(seq, cmd, data);
}

/** A printer reply: 01 LEN SEQ CMD DATA 04 STATUS 05 BCC 03. */
export function encodeReply(seq: number, cmd: number, data: Uint8Array, status: Uint8Array): Buffer {
  check(seq, cmd, data, MAX_DATA);
  if (status.length !== STATUS_LENGTH) throw new FrameError(`status must be ${STATUS_LENGTH} bytes, not ${status.length}`);
  for (const b of status) if ((b & 0x80) === 0) throw new FrameError(`status byte ${b.toString(16)}h lacks bit 7`);
  return wrap(seq, cmd, Buffer.concat([data, Buffer.from([SEP]), status]));
}

export interface Request {
  seq: number;
  cmd: number;
  data: Buffer;
}

export interface Reply extends Request {
  status: Buffer;
}

/** Checks preamble, LEN, postamble, BCC and terminator of one whole frame; returns the bytes between CMD and 05. */
function unwrap(frame: Uint8Array): { seq: number; cmd: number; body: Buffer } {
  const f = Buffer.from(frame);
  if (f.length < 10) throw new FrameError(`a frame of ${f.length} bytes is too short`);
  if (f[0] !== PRE) throw new FrameError('the frame does not start with 01h');
  if (f[f.length - 1] !== TERM) throw new FrameError('the frame does not end with 03h');
  const len = f[1] - OFFSET;
  if (len + 6 !== f.length) throw new FrameError(`LEN says ${len} bytes before BCC, the frame holds ${f.length - 6}`);
  const postAt = len;
  if (f[postAt] !== POST) throw new FrameError('05h is not where LEN says');
  const inner = f.subarray(1, postAt + 1);
  if (!bcc(inner).equals(f.subarray(postAt + 1, postAt + 5))) throw new FrameError('checksum mismatch');
  return { seq: f[2], cmd: f[3], body: Buffer.from(f.subarray(4, postAt)) };
}

export function decodeRequest(frame: Uint8Array): Request {
  const { seq, cmd, body } = unwrap(frame);
  return { seq, cmd, data: body };
}

export function decodeReply(frame: Uint8Array): Reply {
  const { seq, cmd, body } = unwrap(frame);
  const sepAt = body.length - STATUS_LENGTH - 1;
  if (sepAt < 0 || body[sepAt] !== SEP) throw new FrameError('the reply has no 04h before its six status bytes');
  return { seq, cmd, data: body.subarray(0, sepAt), status: body.subarray(sepAt + 1) };
}

export type Token =
  | { kind: 'nak' | 'syn'; length: 1 }
  | { kind: 'frame'; length: number }
  /** Bytes that cannot start anything (line noise, the tail of a broken frame): skip them. */
  | { kind: 'noise'; length: number };

/**
 * The first complete token in `input`, or null while more bytes are needed. A frame ends at the 03h
 * that LEN points to; a preamble followed by an impossible LEN is noise up to the next 01h.
 */
export function scan(input: Uint8Array): Token | null {
  if (input.length === 0) return null;
  const first = input[0];
  if (first === NAK) return { kind: 'nak', length: 1 };
  if (first === SYN) return { kind: 'syn', length: 1 };
  if (first !== PRE) {
    let i = 1;
    while (i < input.length && input[i] !== PRE && input[i] !== NAK && input[i] !== SYN) i++;
    return { kind: 'noise', length: i };
  }
  if (input.length < 2) return null;
  const len = input[1] - OFFSET;
  if (len < 4) return { kind: 'noise', length: 1 };
  const total = len + 6;
  if (input.length < total) return null;
  return input[total - 1] === TERM ? { kind: 'frame', length: total } : { kind: 'noise', length: 1 };
}

/** Bytes as "01 2A 20 ..." for logs and test messages. */
export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex').toUpperCase().replace(/(..)(?!$)/g, '$1 ');
}
