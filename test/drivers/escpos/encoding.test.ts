import { describe, expect, it } from 'vitest';
import { decodeText, encodeText, printable, toAscii } from '../../../drivers/escpos/encoding.js';

const CE = 'Šopský šalát, Kuřecí řízek, Żurek, Gulyás';

describe('text encoding', () => {
  it('encodes Central-European text to code page 852 bytes', () => {
    // Š=E6 ý=EC š=E7 á=A0 ř=FD í=A1 Ż=BD per the published CP852 table.
    expect(encodeText(CE, 'cp852')).toEqual([
      0xe6, 0x6f, 0x70, 0x73, 0x6b, 0xec, 0x20, 0xe7, 0x61, 0x6c, 0xa0, 0x74, 0x2c, 0x20,
      0x4b, 0x75, 0xfd, 0x65, 0x63, 0xa1, 0x20, 0xfd, 0xa1, 0x7a, 0x65, 0x6b, 0x2c, 0x20,
      0xbd, 0x75, 0x72, 0x65, 0x6b, 0x2c, 0x20, 0x47, 0x75, 0x6c, 0x79, 0xa0, 0x73,
    ]);
  });

  it('covers the other Czech, Slovak, Polish and Hungarian letters at their table positions', () => {
    const table: Array<[string, number]> = [
      ['č', 0x9f], ['Č', 0xac], ['ž', 0xa7], ['Ž', 0xa6], ['ť', 0x9c], ['ď', 0xd4], ['ň', 0xe5], ['ľ', 0x96], ['ĺ', 0x92], ['ô', 0x93],
      ['ä', 0x84], ['ů', 0x85], ['ě', 0xd8], ['Ř', 0xfc], ['ł', 0x88], ['Ł', 0x9d], ['ą', 0xa5], ['ę', 0xa9], ['ś', 0x98], ['ć', 0x86],
      ['ń', 0xe4], ['ź', 0xab], ['ż', 0xbe], ['ő', 0x8b], ['ű', 0xfb], ['é', 0x82], ['ó', 0xa2], ['ú', 0xa3], ['ü', 0x81], ['ö', 0x94],
    ];
    for (const [ch, byte] of table) expect([ch, encodeText(ch, 'cp852')]).toEqual([ch, [byte]]);
  });

  it('degrades to ASCII without diacritics on a printer without the page, never to other letters', () => {
    expect(Buffer.from(encodeText(CE, 'ascii')).toString('latin1')).toBe('Sopsky salat, Kureci rizek, Zurek, Gulyas');
    expect(encodeText(CE, 'ascii').every((b) => b >= 0x20 && b < 0x7f)).toBe(true);
    expect(printable('Łódź – 5 € • naïve', 'ascii')).toBe('Lodz - 5 EUR * naive');
  });

  it('replaces what no page can show with ? and control characters with spaces', () => {
    expect(printable('Pho 🍜 拉面', 'cp852')).toBe('Pho ? ??');
    expect(encodeText('a\x1bb\nc\x7f', 'cp852')).toEqual([0x61, 0x20, 0x62, 0x20, 0x63, 0x20]);
    expect(toAscii('€')).toBe('EUR');
    // A letter outside CP852 but with a plain base letter loses only its mark.
    expect(printable('Ñandú', 'cp852')).toBe('Nandú');
  });

  it('decodes every CP852 byte back to the character it encodes', () => {
    const high = Array.from({ length: 128 }, (_, i) => 0x80 + i);
    const text = decodeText(high, 'cp852');
    expect([...text]).toHaveLength(128);
    expect(encodeText(text, 'cp852')).toEqual(high);
    expect(decodeText([0x41, 0xe6], 'ascii')).toBe('A?');
  });
});
