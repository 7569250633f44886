/**
 * Star Line mode (Star Micronics TSP650/TSP700II/TSP800, TSP100 futurePRNT in Line mode): the
 * commands node-thermal-printer does not get right, and the status the printer answers. Pure, no I/O.
 * Source: Star's "STAR Line Mode Command Specifications" (Appendix 2, Automatic Status).
 *
 * Status: `ESC ACK SOH` asks for the automatic status (ASB) in real time — answered on arrival, even
 * while the printer is stopped, and whether or not ASB is switched on. The ASB is 7 to 15 bytes:
 * header 1 gives the count; its bit 0 is 1 and bits 4 and 7 are 0, while every later byte has bit 0
 * clear, which is how a reader finds the start of a status in a stream. Over Ethernet a printer may
 * set bit 7 of header 2 and follow the ASB with a 2-byte length and that many bytes of other status
 * data (0 for an ASB): skipped here.
 *
 * Confirmation: `ETB` placed after a job is executed once everything before it is printed; it sets
 * the "ETB executed" bit (cleared once reported) and adds one to a 5-bit ETB counter (byte 8, ASBs
 * of 9 bytes or more). Unlike ESC/POS's GS r, it sends nothing unless ASB is on: the driver polls.
 */
import { DeviceError } from '../faults.js';
import type { PrinterState } from './commands.js';

const ESC = 0x1b;
const GS = 0x1d;

/** ESC ACK SOH: the automatic status, in real time. */
export const STAR_STATUS_REQUEST = [ESC, 0x06, 0x01];
/** ETB: sets the ETB status and counts it, once everything before it has printed. */
export const STAR_ETB = [0x17];

const isHeader1 = (b: number) => (b & 0x91) === 0x01;
/** Header 1's byte count: bits 1-3 and bit 5 (0x0F → 7, 0x21 → 8, 0x23 → 9 … 0x2F → 15). */
const asbLength = (h: number) => ((h >> 1) & 0x07) | ((h >> 2) & 0x08);

/** One automatic status. */
export interface StarStatus {
  state: PrinterState;
  /** Status 1 bit 1: an ETB was executed since the last status was sent. */
  etbExecuted: boolean;
  /** The 5-bit ETB counter (byte 8), null in a status too short to hold it. */
  etbCounter: number | null;
}

const bit = (b: number, n: number) => (b & (1 << n)) !== 0;

export function parseStarStatus(asb: ArrayLike<number>): StarStatus {
  const n = asbLength(asb[0]);
  if (!isHeader1(asb[0]) || n < 7 || asb.length < n) throw new DeviceError('PROTOCOL', `not a Star automatic status: ${Buffer.from(Array.from(asb)).toString('hex')}`);
  const [s1, s2, , s4] = [asb[2], asb[3], asb[4], asb[5]];
  const error = bit(s2, 5) ? 'unrecoverable' : bit(s2, 3) ? 'autocutter' : bit(s2, 2) ? 'mechanical' : bit(s2, 6) ? 'auto-recoverable' : null;
  const e = n >= 8 ? asb[7] : null;
  return {
    state: {
      online: !bit(s1, 3),
      coverOpen: bit(s1, 5),
      paper: bit(s4, 3) ? 'out' : bit(s4, 2) || bit(s4, 1) ? 'low' : 'ok',
      // Offline by the switch: the nearest to ESC/POS's "paper fed with the FEED button".
      feedButton: bit(s1, 6),
      error,
      drawerPin3High: bit(s1, 2),
    },
    etbExecuted: bit(s1, 1),
    etbCounter: e === null ? null : ((e >> 1) & 0x07) | ((e >> 2) & 0x18),
  };
}

/**
 * The complete automatic statuses in `buf`, each with the offset where it ends. Bytes before a
 * header 1 (the tail of a status whose start was discarded) are passed over.
 */
export function scanStarStatuses(buf: ArrayLike<number>): Array<{ status: StarStatus; end: number }> {
  const found: Array<{ status: StarStatus; end: number }> = [];
  let i = 0;
  while (i < buf.length) {
    if (!isHeader1(buf[i]) || asbLength(buf[i]) < 7) {
      i++;
      continue;
    }
    let len = asbLength(buf[i]);
    if (i + 1 < buf.length && bit(buf[i + 1], 7)) {
      // Ethernet: a 2-byte length (high byte first, as the spec writes 0x000a) of further status data follows.
      if (i + len + 2 > buf.length) break;
      len += 2 + ((buf[i + len] << 8) | buf[i + len + 1]);
    }
    if (i + len > buf.length) break;
    found.push({ status: parseStarStatus(Array.from({ length: len }, (_, k) => buf[i + k])), end: i + len });
    i += len;
  }
  return found;
}

/**
 * A QR code in Star Line mode (ESC GS y …): model 2, `correction` M, `cell` dots per module, the
 * data by "auto setting" (ESC GS y D 1 0 nL nH d…), then print (ESC GS y P).
 *
 * Ours rather than node-thermal-printer's: its Star printQR (4.6.1) leaves out the `ESC GS y D 1 0`
 * that introduces the data, so a Star printer would print the length and the data as text
 * (Klemen1337/node-thermal-printer#200 proposed the fix; it was closed unmerged). The data must be
 * ASCII: nL nH count bytes.
 */
export function starQr(data: string, cell: number): number[] {
  const bytes = [...Buffer.from(data, 'latin1')];
  return [
    ...[ESC, GS, 0x79, 0x53, 0x30, 2], // model 2
    ...[ESC, GS, 0x79, 0x53, 0x31, 1], // correction level M (15 %)
    ...[ESC, GS, 0x79, 0x53, 0x32, cell],
    ...[ESC, GS, 0x79, 0x44, 0x31, 0, bytes.length & 0xff, bytes.length >> 8, ...bytes],
    ...[ESC, GS, 0x79, 0x50],
  ];
}

/**
 * The external buzzer (ESC GS EM DC1/DC2 on drive terminal 2): `times` rings of 200 ms on, 200 ms
 * off. Terminal 1 is left to the cash drawer, as the ESC/POS profiles leave it pin 2; Star warns the
 * buzzer drive would damage a drawer, so a Star with its drawer on terminal 2 must not be set to beep.
 * node-thermal-printer has no Star beep.
 */
export const starBuzzer = (times: number) => [ESC, GS, 0x19, 0x11, 2, 10, 10, ESC, GS, 0x19, 0x12, 2, times, 0];
