/** The CSV cells every export writes (hub/core/csv.ts, CONTRACT §12 Exports). */
import { describe, expect, it } from 'vitest';
import { csvCell, csvFile } from '../../hub/core/csv.js';

describe('CSV cells', () => {
  it('text a spreadsheet would run as a formula gets a leading quote', () => {
    for (const text of ['=1+1', '+420 905', '-2', '@SUM(A1)', '\tx', '\rx']) expect(csvCell(text, ';'), JSON.stringify(text)).toMatch(/^"?'/);
    expect(csvCell('=HYPERLINK("x")', ';')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('Stôl 4', ';')).toBe('Stôl 4');
    expect(csvCell('a=b', ';')).toBe('a=b');
  });

  it("numbers the hub wrote stay as they are, a minus sign included; text holding the separator, a quote or a line break is quoted", () => {
    expect(csvCell({ number: '-12,50' }, ';')).toBe('-12,50');
    expect(csvCell('a;b', ';')).toBe('"a;b"');
    expect(csvCell('a,b', ';')).toBe('a,b');
    expect(csvCell('say "hi"', ',')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines', ',')).toBe('"two\nlines"');
    expect(csvCell(null, ',')).toBe('');
    expect(csvFile([['a', { number: '1' }], ['b', null]], ';')).toBe('\uFEFFa;1\r\nb;\r\n');
  });
});
