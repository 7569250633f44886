/**
 * CSV cells the hub writes (CONTRACT §12 Exports): text is quoted when it holds the separator, a quote
 * or a line break, and text that begins with `=`, `+`, `-`, `@`, a tab or a carriage return gets a
 * leading `'`, so a spreadsheet shows it and never runs it as a formula. A number the hub wrote itself
 * (`{ number }`, already formatted: "-12,50") is written as it is: it is data, not a formula.
 * UTF-8 with a byte-order mark (Excel then reads Š and Č) and CRLF line ends.
 */
export type CsvCell = string | null | undefined | { number: string };

const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(cell: CsvCell, separator: string): string {
  if (cell !== null && typeof cell === 'object') return cell.number;
  const raw = cell ?? '';
  const text = FORMULA.test(raw) ? `'${raw}` : raw;
  return /["\r\n]/.test(text) || text.includes(separator) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly CsvCell[], separator: string): string {
  return cells.map((c) => csvCell(c, separator)).join(separator);
}

/** A whole file: the lines, each ended with CRLF, after a byte-order mark. */
export function csvFile(lines: ReadonlyArray<readonly CsvCell[]>, separator: string): string {
  return `\uFEFF${lines.map((l) => `${csvLine(l, separator)}\r\n`).join('')}`;
}
