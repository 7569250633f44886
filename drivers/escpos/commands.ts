/**
 * ESC/POS commands and reply parsers: pure, no I/O. Bit meanings follow the Epson ESC/POS reference
 * (DLE EOT, GS r) as implemented by the TM-T88 series and the Bixolon SRP-350 family, which agree
 * on every bit used here.
 */
import { DeviceError, type FaultCode } from '../faults.js';

export const ESC = 0x1b;
export const GS = 0x1d;
export const DLE = 0x10;
export const EOT = 0x04;

/**
 * The commands we send ourselves; the rest of a ticket's bytes come from node-thermal-printer
 * (encoder.ts says which and why).
 */
export const cmd = {
  /** GS V 66 n: feed n dots past the cutter position, then cut partially. */
  feedAndCut: (dots: number) => [GS, 0x56, 66, dots],
  /** ESC p m t1 t2: a pulse on drawer-kick pin 2 (m=0) or 5 (m=1); t in 2 ms units. */
  pulse: (pin: 0 | 1, onUnits: number, offUnits: number) => [ESC, 0x70, pin, onUnits, offUnits],
  /** DLE EOT n: real-time status, answered at once even while the printer is offline. */
  realtimeStatus: (n: 1 | 2 | 3 | 4) => [DLE, EOT, n],
  /** GS r 1: paper sensor status, answered only after everything before it was processed. */
  transmitPaperStatus: () => [GS, 0x72, 1],
};

/**
 * Every DLE EOT reply has bit 1 set and bits 0 and 7 clear and bit 4 set ("fixed" bits); every GS r
 * reply has bits 4 and 7 clear. That is how the two replies are told apart on one stream
 * ("Identification of send status" in the Epson reference).
 */
export const isRealtimeReply = (b: number) => (b & 0x93) === 0x12;
export const isTransmitReply = (b: number) => (b & 0x90) === 0x00;

/** DLE EOT 1, printer status. */
export interface PrinterStatusByte {
  /** Bit 2: drawer kick-out connector pin 3 is high. */
  drawerPin3High: boolean;
  /** Bit 3: the printer is offline. */
  offline: boolean;
}

/** DLE EOT 2, offline cause. */
export interface OfflineCause {
  /** Bit 2: the cover is open. */
  coverOpen: boolean;
  /** Bit 3: paper is being fed with the FEED button. */
  feedButton: boolean;
  /** Bit 5: printing stopped because the paper ran out. */
  paperEndStop: boolean;
  /** Bit 6: an error occurred (DLE EOT 3 says which). */
  error: boolean;
}

/** DLE EOT 3, error cause. */
export interface ErrorCause {
  /** Bit 2: a mechanical error (a jam; model-specific, the SRP-350 leaves it undefined). */
  mechanical: boolean;
  /** Bit 3: the autocutter failed (a paper jam at the cutter). */
  autocutter: boolean;
  /** Bit 5: an unrecoverable error (power it off). */
  unrecoverable: boolean;
  /** Bit 6: an automatically recoverable error (head too hot, cover opened while printing). */
  autoRecoverable: boolean;
}

/** DLE EOT 4, roll paper sensors. */
export interface PaperSensors {
  /** Bits 2 and 3: the near-end sensor sees the roll running low. */
  nearEnd: boolean;
  /** Bits 5 and 6: the end sensor sees no paper. */
  end: boolean;
}

function realtimeByte(b: number, what: string): number {
  if (!isRealtimeReply(b)) throw new DeviceError('PROTOCOL', `0x${b.toString(16).padStart(2, '0')} is not a DLE EOT ${what} reply`);
  return b;
}

const bit = (b: number, n: number) => (b & (1 << n)) !== 0;

export function parsePrinterStatus(b: number): PrinterStatusByte {
  realtimeByte(b, 'printer status');
  return { drawerPin3High: bit(b, 2), offline: bit(b, 3) };
}

export function parseOfflineCause(b: number): OfflineCause {
  realtimeByte(b, 'offline cause');
  return { coverOpen: bit(b, 2), feedButton: bit(b, 3), paperEndStop: bit(b, 5), error: bit(b, 6) };
}

export function parseErrorCause(b: number): ErrorCause {
  realtimeByte(b, 'error cause');
  return { mechanical: bit(b, 2), autocutter: bit(b, 3), unrecoverable: bit(b, 5), autoRecoverable: bit(b, 6) };
}

export function parsePaperSensors(b: number): PaperSensors {
  realtimeByte(b, 'paper sensor');
  // Two bits per sensor; printers set both, either one is taken as the sensor's word.
  return { nearEnd: (b & 0x0c) !== 0, end: (b & 0x60) !== 0 };
}

/** GS r 1 reply: the same sensors in bits 0-1 (near end) and 2-3 (end). */
export function parseTransmitPaperStatus(b: number): PaperSensors {
  if (!isTransmitReply(b)) throw new DeviceError('PROTOCOL', `0x${b.toString(16).padStart(2, '0')} is not a GS r reply`);
  return { nearEnd: (b & 0x03) !== 0, end: (b & 0x0c) !== 0 };
}

/** Everything a printer's status replies say, as the hub shows it (ESC/POS's DLE EOT replies, or a Star status). */
export interface PrinterState {
  online: boolean;
  coverOpen: boolean;
  paper: 'ok' | 'low' | 'out';
  feedButton: boolean;
  /** 'unspecified': DLE EOT 2 reports an error whose cause DLE EOT 3 did not name (or was not answered). */
  error: 'autocutter' | 'mechanical' | 'unrecoverable' | 'auto-recoverable' | 'unspecified' | null;
  drawerPin3High: boolean;
}

/**
 * The status request sent before every job: DLE EOT 1, 2 and 4 in one write, answered by three
 * bytes in that order. DLE EOT 3 (the error's cause) is asked only when DLE EOT 2 reports an error
 * (ERROR_CAUSE_REQUEST): it says nothing otherwise, and a printer that does not implement it would
 * leave the whole status unanswered, holding every job for good.
 */
export const STATUS_REQUEST = [...cmd.realtimeStatus(1), ...cmd.realtimeStatus(2), ...cmd.realtimeStatus(4)];
export const ERROR_CAUSE_REQUEST = cmd.realtimeStatus(3);

/** The replies to STATUS_REQUEST: DLE EOT 1, 2 and 4. An error reported is 'unspecified' until withErrorCause. */
export function parseStatusReplies(bytes: ArrayLike<number>): PrinterState {
  if (bytes.length !== 3) throw new DeviceError('PROTOCOL', `expected 3 status bytes, got ${bytes.length}`);
  const p = parsePrinterStatus(bytes[0]);
  const o = parseOfflineCause(bytes[1]);
  const s = parsePaperSensors(bytes[2]);
  return {
    online: !p.offline,
    coverOpen: o.coverOpen,
    paper: s.end || o.paperEndStop ? 'out' : s.nearEnd ? 'low' : 'ok',
    feedButton: o.feedButton,
    error: o.error ? 'unspecified' : null,
    drawerPin3High: p.drawerPin3High,
  };
}

/** `state` with the error named by the reply to ERROR_CAUSE_REQUEST (DLE EOT 3). */
export function withErrorCause(state: PrinterState, b: number): PrinterState {
  const e = parseErrorCause(b);
  const named = e.unrecoverable ? 'unrecoverable' : e.autocutter ? 'autocutter' : e.mechanical ? 'mechanical' : e.autoRecoverable ? 'auto-recoverable' : null;
  return { ...state, error: named ?? state.error };
}

/**
 * Why a printer in `state` must not be sent a job, or null when it may. Paper out and cover open
 * come first: they are what a person can fix, and what the API should say.
 */
export function blockingFault(state: PrinterState): { code: FaultCode; vendorCode: string; message: string } | null {
  if (state.paper === 'out') return { code: 'PAPER_OUT', vendorCode: 'PAPER_END', message: 'the printer is out of paper' };
  if (state.coverOpen) return { code: 'COVER_OPEN', vendorCode: 'COVER_OPEN', message: 'the printer cover is open' };
  if (state.error) return { code: 'BUSY', vendorCode: state.error.toUpperCase().replace('-', '_'), message: `the printer reports an error (${state.error})` };
  if (!state.online) return { code: 'BUSY', vendorCode: state.feedButton ? 'FEED_BUTTON' : 'OFFLINE', message: 'the printer is offline' };
  return null;
}
