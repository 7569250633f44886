import { describe, expect, it } from 'vitest';
import {
  blockingFault,
  cmd,
  isRealtimeReply,
  isTransmitReply,
  parseErrorCause,
  parseOfflineCause,
  parsePaperSensors,
  parsePrinterStatus,
  parseStatusReplies,
  parseTransmitPaperStatus,
  STATUS_REQUEST,
  withErrorCause,
} from '../../../drivers/escpos/commands.js';

/** A DLE EOT reply: the fixed bits (1 and 4) plus `bits`. */
const rt = (bits: number) => 0x12 | bits;

describe('DLE EOT 1: printer status', () => {
  it('reads online with the drawer pin low from the fixed bits alone', () => {
    expect(parsePrinterStatus(rt(0))).toEqual({ drawerPin3High: false, offline: false });
  });
  it('bit 2: drawer kick-out pin 3 high', () => expect(parsePrinterStatus(rt(0x04)).drawerPin3High).toBe(true));
  it('bit 3: offline', () => expect(parsePrinterStatus(rt(0x08)).offline).toBe(true));
});

describe('DLE EOT 2: offline cause', () => {
  it('reads no cause from the fixed bits', () => {
    expect(parseOfflineCause(rt(0))).toEqual({ coverOpen: false, feedButton: false, paperEndStop: false, error: false });
  });
  it('bit 2: cover open', () => expect(parseOfflineCause(rt(0x04))).toMatchObject({ coverOpen: true, feedButton: false, paperEndStop: false, error: false }));
  it('bit 3: paper fed by the FEED button', () => expect(parseOfflineCause(rt(0x08))).toMatchObject({ coverOpen: false, feedButton: true }));
  it('bit 5: stopped by paper end', () => expect(parseOfflineCause(rt(0x20))).toMatchObject({ paperEndStop: true, error: false }));
  it('bit 6: error', () => expect(parseOfflineCause(rt(0x40))).toMatchObject({ paperEndStop: false, error: true }));
});

describe('DLE EOT 3: error cause', () => {
  it('reads no error from the fixed bits', () => {
    expect(parseErrorCause(rt(0))).toEqual({ mechanical: false, autocutter: false, unrecoverable: false, autoRecoverable: false });
  });
  it('bit 2: mechanical error', () => expect(parseErrorCause(rt(0x04))).toMatchObject({ mechanical: true, autocutter: false }));
  it('bit 3: autocutter error', () => expect(parseErrorCause(rt(0x08))).toMatchObject({ mechanical: false, autocutter: true }));
  it('bit 5: unrecoverable error', () => expect(parseErrorCause(rt(0x20))).toMatchObject({ unrecoverable: true, autoRecoverable: false }));
  it('bit 6: auto-recoverable error', () => expect(parseErrorCause(rt(0x40))).toMatchObject({ unrecoverable: false, autoRecoverable: true }));
});

describe('DLE EOT 4: roll paper sensors', () => {
  it('reads paper present from the fixed bits', () => expect(parsePaperSensors(rt(0))).toEqual({ nearEnd: false, end: false }));
  it('bits 2-3: near end', () => expect(parsePaperSensors(rt(0x0c))).toEqual({ nearEnd: true, end: false }));
  it('bits 5-6: paper end', () => expect(parsePaperSensors(rt(0x60))).toEqual({ nearEnd: false, end: true }));
  it('either bit of a pair counts', () => {
    expect(parsePaperSensors(rt(0x04)).nearEnd).toBe(true);
    expect(parsePaperSensors(rt(0x20)).end).toBe(true);
  });
});

describe('GS r 1: paper sensor status after the job', () => {
  it('reads paper present as 0x00', () => expect(parseTransmitPaperStatus(0x00)).toEqual({ nearEnd: false, end: false }));
  it('bits 0-1: near end', () => expect(parseTransmitPaperStatus(0x03)).toEqual({ nearEnd: true, end: false }));
  it('bits 2-3: paper end', () => expect(parseTransmitPaperStatus(0x0c)).toEqual({ nearEnd: false, end: true }));
});

describe('telling replies apart', () => {
  it('separates DLE EOT replies (bits 1, 4 set) from GS r replies (bits 4, 7 clear)', () => {
    for (let b = 0; b < 256; b++) expect(isRealtimeReply(b) && isTransmitReply(b)).toBe(false);
    expect(isRealtimeReply(0x12)).toBe(true);
    expect(isRealtimeReply(0x7e)).toBe(true);
    expect(isTransmitReply(0x00)).toBe(true);
    expect(isTransmitReply(0x0f)).toBe(true);
    expect(isRealtimeReply(0x10)).toBe(false); // bit 1 missing
    expect(isRealtimeReply(0x93)).toBe(false); // bits 0 and 7 are fixed off
  });
  it('refuses a byte that is not the expected kind of reply', () => {
    expect(() => parsePrinterStatus(0x00)).toThrow(/not a DLE EOT/);
    expect(() => parseTransmitPaperStatus(0x12)).toThrow(/not a GS r/);
    expect(() => parseStatusReplies([0x12, 0x12])).toThrow(/expected 3/);
  });
});

describe('status → what the hub does', () => {
  /** DLE EOT 1, 2, 3 and 4 (3 read in as the driver asks it: after an error is reported). */
  const state = (b1: number, b2: number, b3: number, b4: number) => withErrorCause(parseStatusReplies([rt(b1), rt(b2), rt(b4)]), rt(b3));

  it('sends to a printer that is online with paper (near end only warns)', () => {
    expect(state(0, 0, 0, 0)).toEqual({ online: true, coverOpen: false, paper: 'ok', feedButton: false, error: null, drawerPin3High: false });
    expect(state(0, 0, 0, 0x0c).paper).toBe('low');
    expect(blockingFault(state(0, 0, 0, 0x0c))).toBeNull();
  });
  it('holds the job on paper out, from the sensor or from the paper-end stop', () => {
    expect(blockingFault(state(0x08, 0x20, 0, 0x60))).toMatchObject({ code: 'PAPER_OUT', vendorCode: 'PAPER_END' });
    expect(blockingFault(state(0x08, 0x20, 0, 0))).toMatchObject({ code: 'PAPER_OUT' });
  });
  it('holds the job while the cover is open', () => {
    expect(blockingFault(state(0x08, 0x04, 0, 0))).toMatchObject({ code: 'COVER_OPEN' });
  });
  it('holds the job on a printer error, naming it', () => {
    expect(blockingFault(state(0x08, 0x40, 0x08, 0))).toMatchObject({ code: 'BUSY', vendorCode: 'AUTOCUTTER' });
    expect(blockingFault(state(0x08, 0x40, 0x20, 0))).toMatchObject({ code: 'BUSY', vendorCode: 'UNRECOVERABLE' });
    expect(blockingFault(state(0x08, 0x40, 0x04, 0))).toMatchObject({ code: 'BUSY', vendorCode: 'MECHANICAL' });
    expect(blockingFault(state(0x08, 0x40, 0x40, 0))).toMatchObject({ code: 'BUSY', vendorCode: 'AUTO_RECOVERABLE' });
  });
  it('holds the job on an error DLE EOT 2 reports and DLE EOT 3 does not name', () => {
    expect(blockingFault(parseStatusReplies([rt(0x08), rt(0x40), rt(0)]))).toMatchObject({ code: 'BUSY', vendorCode: 'UNSPECIFIED' });
    expect(blockingFault(state(0x08, 0x40, 0, 0))).toMatchObject({ code: 'BUSY', vendorCode: 'UNSPECIFIED' });
  });
  it('holds the job while the printer is offline for another reason', () => {
    expect(blockingFault(state(0x08, 0x08, 0, 0))).toMatchObject({ code: 'BUSY', vendorCode: 'FEED_BUTTON' });
    expect(blockingFault(state(0x08, 0, 0, 0))).toMatchObject({ code: 'BUSY', vendorCode: 'OFFLINE' });
  });
});

describe('command bytes', () => {
  it('builds each command we send ourselves as the reference gives it (the encoder test checks the rest)', () => {
    expect(STATUS_REQUEST).toEqual([0x10, 0x04, 1, 0x10, 0x04, 2, 0x10, 0x04, 4]);
    expect(cmd.feedAndCut(0)).toEqual([0x1d, 0x56, 66, 0]);
    expect(cmd.pulse(1, 100, 100)).toEqual([0x1b, 0x70, 1, 100, 100]);
    expect(cmd.transmitPaperStatus()).toEqual([0x1d, 0x72, 1]);
  });
});
