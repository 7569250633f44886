/**
 * The encoder's bytes, command by command: what node-thermal-printer produces for each style in
 * each dialect is checked against the vendors' references, and so are the pieces we keep our own.
 */
import { describe, expect, it } from 'vitest';
import { Encoder } from '../../../drivers/escpos/encoder.js';
import { PROFILES } from '../../../drivers/escpos/profiles.js';

/** The bytes `use` adds to a ticket, between the encoder's start and its (unbeeped) end. */
function added(profile: keyof typeof PROFILES, use: (e: Encoder) => void): number[] {
  const end = ending(profile);
  const start = [...new Encoder(PROFILES[profile]).finish(false)].slice(0, -end.length);
  const e = new Encoder(PROFILES[profile]);
  use(e);
  const all = [...e.finish(false)];
  expect(all.slice(0, start.length)).toEqual(start);
  expect(all.slice(-end.length)).toEqual(end);
  return all.slice(start.length, -end.length);
}

const ending = (profile: keyof typeof PROFILES) =>
  ({ TM88: [0x1d, 0x56, 66, 0], SRP350: [0x1d, 0x56, 66, 0], Generic: [0x1b, 0x64, 4, 0x1d, 0x56, 1, 0x1b, 0x40], TSP650: [0x1b, 0x64, 3, 0x1b, 0x40], TSP100: [0x1b, 0x64, 3, 0x1b, 0x40] })[profile];

const ascii = (s: string) => [...Buffer.from(s, 'latin1')];

describe('ESC/POS through node-thermal-printer', () => {
  it('starts with ESC @ and, on TM88/SRP350, code page PC852 (ESC t 18); Generic keeps its default table', () => {
    expect([...new Encoder(PROFILES.TM88).finish(false)]).toEqual([0x1b, 0x40, 0x1b, 0x74, 18, 0x1d, 0x56, 66, 0]);
    expect([...new Encoder(PROFILES.Generic).finish(false)]).toEqual([0x1b, 0x40, 0x1b, 0x64, 4, 0x1d, 0x56, 1, 0x1b, 0x40]);
  });

  it('styles: ESC a, ESC E, GS B, and GS ! with the width in the high nibble', () => {
    expect(added('TM88', (e) => e.align('center'))).toEqual([0x1b, 0x61, 1]);
    expect(added('TM88', (e) => e.align('right'))).toEqual([0x1b, 0x61, 2]);
    expect(added('TM88', (e) => e.align('left'))).toEqual([0x1b, 0x61, 0]);
    expect(added('TM88', (e) => e.bold(true))).toEqual([0x1b, 0x45, 1]);
    expect(added('TM88', (e) => e.bold(false))).toEqual([0x1b, 0x45, 0]);
    expect(added('TM88', (e) => e.invert(true))).toEqual([0x1d, 0x42, 1]);
    expect(added('TM88', (e) => e.size(2, 2))).toEqual([0x1d, 0x21, 0x11]);
    expect(added('TM88', (e) => e.size(2, 1))).toEqual([0x1d, 0x21, 0x10]);
    expect(added('TM88', (e) => e.size(1, 2))).toEqual([0x1d, 0x21, 0x01]);
    expect(added('TM88', (e) => e.size(1, 1))).toEqual([0x1d, 0x21, 0x00]);
  });

  it('text: our CP852 bytes then LF (no page switching, no console noise on a clone)', () => {
    expect(added('TM88', (e) => e.line('Šalát'))).toEqual([0xe6, ...ascii('al'), 0xa0, ...ascii('t'), 0x0a]);
    expect(added('Generic', (e) => e.line('Šalát €'))).toEqual([...ascii('Salat EUR'), 0x0a]);
  });

  it('beeps after the cut: a pin-5 pulse on TM88 (ours), ESC B 3 2 on Generic (the library)', () => {
    expect([...new Encoder(PROFILES.TM88).finish(true)].slice(-5)).toEqual([0x1b, 0x70, 1, 100, 100]);
    expect([...new Encoder(PROFILES.Generic).finish(true)].slice(-4)).toEqual([0x1b, 0x42, 3, 2]);
  });

  it('QR code: GS ( k model 2, module 6, correction M, store, print — between blank lines', () => {
    const data = 'O-7A3F2C1E9B8D4F60A1C2E3F4B5D6A7C8';
    expect(added('TM88', (e) => e.qr(data))).toEqual([
      0x0a,
      ...[0x1d, 0x28, 0x6b, 4, 0, 0x31, 0x41, 0x32, 0],
      ...[0x1d, 0x28, 0x6b, 3, 0, 0x31, 0x43, 6],
      ...[0x1d, 0x28, 0x6b, 3, 0, 0x31, 0x45, 0x31],
      ...[0x1d, 0x28, 0x6b, data.length + 3, 0, 0x31, 0x50, 0x30, ...ascii(data)],
      ...[0x1d, 0x28, 0x6b, 3, 0, 0x31, 0x51, 0x30],
      0x0a,
    ]);
  });

  it('QR code data is ASCII: anything else goes out as its stand-in, so the length the library sends is right', () => {
    const bytes = added('TM88', (e) => e.qr('Stôl 5 €'));
    const stored = bytes.indexOf(0x50) - 6; // GS ( k pL pH 31 50 30 …
    expect(bytes.slice(stored, stored + 3)).toEqual([0x1d, 0x28, 0x6b]);
    expect(bytes[stored + 3]).toBe('Stol 5 EUR'.length + 3);
    expect(Buffer.from(bytes.slice(stored + 8, stored + 8 + 10)).toString('latin1')).toBe('Stol 5 EUR');
  });
});

describe('Star Line mode through node-thermal-printer', () => {
  it('starts with ESC @ and code page 852 (ESC GS t 5), ends with ESC d 3 (feed to the cutter, partial cut) and ESC @', () => {
    expect([...new Encoder(PROFILES.TSP650).finish(false)]).toEqual([0x1b, 0x40, 0x1b, 0x1d, 0x74, 5, 0x1b, 0x64, 3, 0x1b, 0x40]);
    expect(new Encoder(PROFILES.TSP100).finish(false)).toEqual(new Encoder(PROFILES.TSP650).finish(false));
  });

  it('styles: ESC GS a, ESC E / ESC F, ESC 4 / ESC 5, ESC i height width', () => {
    expect(added('TSP650', (e) => e.align('center'))).toEqual([0x1b, 0x1d, 0x61, 1]);
    expect(added('TSP650', (e) => e.align('right'))).toEqual([0x1b, 0x1d, 0x61, 2]);
    expect(added('TSP650', (e) => e.bold(true))).toEqual([0x1b, 0x45]);
    expect(added('TSP650', (e) => e.bold(false))).toEqual([0x1b, 0x46]);
    expect(added('TSP650', (e) => e.invert(true))).toEqual([0x1b, 0x34]);
    expect(added('TSP650', (e) => e.invert(false))).toEqual([0x1b, 0x35]);
    expect(added('TSP650', (e) => e.size(2, 2))).toEqual([0x1b, 0x69, 1, 1]);
    expect(added('TSP650', (e) => e.size(2, 1))).toEqual([0x1b, 0x69, 0, 1]);
    expect(added('TSP650', (e) => e.size(1, 2))).toEqual([0x1b, 0x69, 1, 0]);
    expect(added('TSP650', (e) => e.size(1, 1))).toEqual([0x1b, 0x69, 0, 0]);
  });

  it('QR code (ours): ESC GS y S model 2, correction M, cell 6, ESC GS y D 1 0 nL nH data, ESC GS y P', () => {
    expect(added('TSP650', (e) => e.qr('T-42'))).toEqual([
      0x0a,
      ...[0x1b, 0x1d, 0x79, 0x53, 0x30, 2],
      ...[0x1b, 0x1d, 0x79, 0x53, 0x31, 1],
      ...[0x1b, 0x1d, 0x79, 0x53, 0x32, 6],
      ...[0x1b, 0x1d, 0x79, 0x44, 0x31, 0, 4, 0, ...ascii('T-42')],
      ...[0x1b, 0x1d, 0x79, 0x50],
      0x0a,
    ]);
  });

  it('beeps on the external buzzer, drive terminal 2: 200 ms on, 200 ms off, three times (ours)', () => {
    expect([...new Encoder(PROFILES.TSP650).finish(true)].slice(-14)).toEqual([0x1b, 0x1d, 0x19, 0x11, 2, 10, 10, 0x1b, 0x1d, 0x19, 0x12, 2, 3, 0]);
  });
});
