/**
 * How a printer family reports its state and confirms a job, for the driver: ESC/POS (Epson,
 * Bixolon, clones) answers DLE EOT at once and GS r after the job; Star Line mode answers ESC ACK
 * SOH at once and counts an ETB after the job, which the driver reads back by asking again. Pure.
 */
import { ERROR_CAUSE_REQUEST, isRealtimeReply, isTransmitReply, parseStatusReplies, parseTransmitPaperStatus, STATUS_REQUEST, withErrorCause, cmd, type PrinterState } from './commands.js';
import { scanStarStatuses, STAR_ETB, STAR_STATUS_REQUEST, type StarStatus } from './star.js';

/** The command language a printer model speaks (profiles.ts). */
export type PrinterDialect = 'escpos' | 'star';

/** What replies read from the printer say. */
export interface Replies {
  /** The state a full status reply gives, or null when the bytes held none. */
  status: PrinterState | null;
  /** The state once the job is confirmed printed, or null while it is not. */
  confirmed: PrinterState | null;
}

export interface StatusProtocol {
  /** Asks the real-time status: answered on arrival, even while the printer is stopped. */
  readonly statusRequest: readonly number[];
  /** Follows a job's bytes: acted on once everything before it has printed. */
  readonly confirmRequest: readonly number[];
  /** True when the printer answers confirmRequest by itself; false when only asking its status tells. */
  readonly pushesConfirmation: boolean;
  /** A framer for Channel.read that waits for a full status reply and/or a confirmation. */
  framer(want: { status: boolean; confirm: boolean }): (buf: Buffer) => number;
  /** Reads the bytes a framer took; `last` is the state known before. */
  read(bytes: Buffer, last: PrinterState | null): Replies;
  /** A job's bytes are about to go out (after a status was read). */
  jobStarts(): void;
  /**
   * A real-time request that says more about `state` (ESC/POS: DLE EOT 3, the cause of a reported
   * error), answered by one byte that `withDetail` reads in; null when the status says enough.
   */
  detailRequest(state: PrinterState): readonly number[] | null;
  withDetail(state: PrinterState, reply: number): PrinterState;
}

/** Takes everything up to the first real-time reply byte (DLE EOT); other bytes are skipped. */
export const realtimeByteFramer = (buf: Buffer) => {
  const i = buf.findIndex(isRealtimeReply);
  return i < 0 ? 0 : i + 1;
};

/** ESC/POS: DLE EOT 1, 2, 4 (3 on an error) before and while a job prints, GS r 1 after it (commands.ts). */
class EscPosStatus implements StatusProtocol {
  readonly statusRequest = STATUS_REQUEST;
  readonly confirmRequest = cmd.transmitPaperStatus();
  readonly pushesConfirmation = true;

  /** The GS r byte and/or the three DLE EOT bytes; other bytes are skipped. */
  framer({ status, confirm }: { status: boolean; confirm: boolean }) {
    const wantRealtime = status ? STATUS_REQUEST.length / 3 : 0;
    return (buf: Buffer) => {
      let realtime = 0;
      for (let i = 0; i < buf.length; i++) {
        if (confirm && isTransmitReply(buf[i])) return i + 1;
        if (isRealtimeReply(buf[i]) && ++realtime === wantRealtime) return i + 1;
      }
      return 0;
    };
  }

  read(bytes: Buffer, last: PrinterState | null): Replies {
    const transmit = [...bytes].find(isTransmitReply);
    const realtime = [...bytes].filter(isRealtimeReply);
    let confirmed: PrinterState | null = null;
    if (transmit !== undefined) {
      // GS r reports the paper sensors only; a printer that got this far was online and closed.
      const paper = parseTransmitPaperStatus(transmit);
      confirmed = { ...(last ?? parseStatusReplies([0x12, 0x12, 0x12])), online: true, coverOpen: false, error: null, paper: paper.end ? 'out' : paper.nearEnd ? 'low' : 'ok' };
    }
    return { status: realtime.length ? parseStatusReplies(realtime) : null, confirmed };
  }

  jobStarts(): void {}

  detailRequest(state: PrinterState): readonly number[] | null {
    return state.error === 'unspecified' ? ERROR_CAUSE_REQUEST : null;
  }

  withDetail(state: PrinterState, reply: number): PrinterState {
    return withErrorCause(state, reply);
  }
}

/**
 * Star Line mode (star.ts): the job is confirmed when a status shows the ETB executed, or its ETB
 * counter moved past the value read before the job (the bit is cleared by whichever host reads it
 * first; the counter is not). With ASB switched on the printer sends that status by itself.
 */
class StarStatusProtocol implements StatusProtocol {
  readonly statusRequest = STAR_STATUS_REQUEST;
  readonly confirmRequest = STAR_ETB;
  readonly pushesConfirmation = false;
  private counter: number | null = null;
  private counterBefore: number | null = null;

  framer({ status, confirm }: { status: boolean; confirm: boolean }) {
    return (buf: Buffer) => {
      const found = scanStarStatuses(buf);
      // Every status in the buffer is taken (the last one is the news); for a confirmation only,
      // the wait ends at the first status that confirms.
      if (status) return found[found.length - 1]?.end ?? 0;
      return confirm ? (found.find((f) => this.confirms(f.status))?.end ?? 0) : 0;
    };
  }

  read(bytes: Buffer, _last: PrinterState | null): Replies {
    const statuses = scanStarStatuses(bytes).map((f) => f.status);
    const latest = statuses[statuses.length - 1];
    if (!latest) return { status: null, confirmed: null };
    if (latest.etbCounter !== null) this.counter = latest.etbCounter;
    return { status: latest.state, confirmed: statuses.some((s) => this.confirms(s)) ? latest.state : null };
  }

  jobStarts(): void {
    this.counterBefore = this.counter;
  }

  detailRequest(): null {
    return null;
  }

  withDetail(state: PrinterState): PrinterState {
    return state;
  }

  private confirms(s: StarStatus): boolean {
    return s.etbExecuted || (this.counterBefore !== null && s.etbCounter !== null && s.etbCounter !== this.counterBefore);
  }
}

export function statusProtocol(dialect: PrinterDialect): StatusProtocol {
  return dialect === 'star' ? new StarStatusProtocol() : new EscPosStatus();
}
