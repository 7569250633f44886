import { describe, expect, it } from 'vitest';
import { parseStarStatus, scanStarStatuses } from '../../../drivers/escpos/star.js';

/** A 9-byte automatic status (header 1 0x23) with printer status bytes 1-7. */
const asb = (s1 = 0, s2 = 0, s4 = 0, etb = 0) => [0x23, 0x06, s1, s2, 0, s4, 0, etb, 0];

describe('Star automatic status', () => {
  it('reads an idle printer from a status of zeros', () => {
    expect(parseStarStatus(asb())).toEqual({
      state: { online: true, coverOpen: false, paper: 'ok', feedButton: false, error: null, drawerPin3High: false },
      etbExecuted: false,
      etbCounter: 0,
    });
  });

  it('printer status 1: offline (bit 3), cover open (bit 5), ETB executed (bit 1), drawer switch (bit 2), offline by switch (bit 6)', () => {
    expect(parseStarStatus(asb(0x08)).state.online).toBe(false);
    expect(parseStarStatus(asb(0x28)).state).toMatchObject({ online: false, coverOpen: true });
    expect(parseStarStatus(asb(0x02)).etbExecuted).toBe(true);
    expect(parseStarStatus(asb(0x04)).state.drawerPin3High).toBe(true);
    expect(parseStarStatus(asb(0x48)).state.feedButton).toBe(true);
  });

  it('printer status 2: errors, the unrecoverable one first', () => {
    expect(parseStarStatus(asb(0x08, 0x04)).state.error).toBe('mechanical');
    expect(parseStarStatus(asb(0x08, 0x08)).state.error).toBe('autocutter');
    expect(parseStarStatus(asb(0x08, 0x40)).state.error).toBe('auto-recoverable');
    expect(parseStarStatus(asb(0x08, 0x2c)).state.error).toBe('unrecoverable');
  });

  it('printer status 4: paper near end (bits 1-2), paper end (bit 3)', () => {
    expect(parseStarStatus(asb(0, 0, 0x04)).state.paper).toBe('low');
    expect(parseStarStatus(asb(0, 0, 0x02)).state.paper).toBe('low');
    expect(parseStarStatus(asb(0x08, 0, 0x0c)).state.paper).toBe('out');
  });

  it('the 5-bit ETB counter sits in bits 1-3 and 5-6 of byte 8; a 7-byte status has none', () => {
    expect(parseStarStatus(asb(0, 0, 0, 0b0000_1110)).etbCounter).toBe(7);
    expect(parseStarStatus(asb(0, 0, 0, 0b0010_0000)).etbCounter).toBe(8);
    expect(parseStarStatus(asb(0, 0, 0, 0b0110_1110)).etbCounter).toBe(31);
    expect(parseStarStatus([0x0f, 0x06, 0, 0, 0, 0, 0]).etbCounter).toBeNull();
  });

  it('refuses bytes that are not a status', () => {
    expect(() => parseStarStatus([0x12, 0, 0, 0, 0, 0, 0, 0, 0])).toThrow(/not a Star automatic status/);
    expect(() => parseStarStatus([0x23, 0x06, 0, 0])).toThrow(/not a Star automatic status/);
  });
});

describe('finding statuses in a stream', () => {
  it('takes whole statuses only, each with where it ends', () => {
    const two = [...asb(), ...asb(0x08)];
    expect(scanStarStatuses(two).map((f) => f.end)).toEqual([9, 18]);
    expect(scanStarStatuses(two.slice(0, 14)).map((f) => f.end)).toEqual([9]);
    expect(scanStarStatuses([])).toEqual([]);
  });

  it('passes over the tail of a status whose start was dropped (later bytes have bit 0 clear)', () => {
    const found = scanStarStatuses([0x06, 0x08, 0, 0x0c, 0, 0x02, 0, ...asb(0x20)]);
    expect(found).toHaveLength(1);
    expect(found[0].status.state.coverOpen).toBe(true);
  });

  it('skips the Ethernet length (header 2 bit 7) and the status data it counts', () => {
    const ethernet = [0x23, 0x86, 0x08, 0, 0, 0x08, 0, 0, 0, 0x00, 0x03, 0x30, 0x31, 0x3a, ...asb()];
    expect(scanStarStatuses(ethernet).map((f) => [f.end, f.status.state.online])).toEqual([
      [14, false],
      [23, true],
    ]);
    expect(scanStarStatuses(ethernet.slice(0, 10))).toEqual([]);
  });
});
