/**
 * Accounting exports (issue 28, point 7), pure: a range's sales for the accountant.
 *
 * Pohoda XML: an XML import of STORMWARE POHODA (SK/CZ), one internal document (`int:intDoc`, agenda
 * "Interné doklady") per local day, one item per VAT rate holding that day's base, VAT and total —
 * the sums of the tickets' own VAT splits, so exact to the cent and equal to the sales report's.
 * The structure follows STORMWARE's published XML import: the `dat:dataPack` envelope with `id`,
 * `ico`, `application`, `version="2.0"` and `note`, one `dat:dataPackItem` per document
 * (https://api.stormware.cz/pohoda/popis-struktury-xml), and the internal document of
 * http://www.stormware.cz/schema/version_2/intDoc.xsd listed among the documents POHODA imports
 * (https://www.stormware.sk/pohoda/xml/dokladyimport/): `int:intDocHeader` (symVar, date, dateTax,
 * dateAccounting, text, intNote), `int:intDocDetail/int:intDocItem` (text, quantity, payVAT, rateVAT,
 * percentVAT, homeCurrency with typ:unitPrice, typ:price, typ:priceVAT, typ:priceSum), in the
 * schemas' element order. Written in UTF-8 (the XML declaration says so).
 *
 * CSV journal: one line per closed ticket and VAT rate (date, time, fiscal receipt, ticket,
 * register, waiter, rate, base, VAT, total, payments), then one total line per rate; cells through
 * hub/core/csv.ts.
 */
import { csvDocument, csvNumber, type CsvCell } from '../core/csv.js';
import { D, dec, type Dec } from '../core/money.js';
import { zonedParts } from '../core/time.js';
import { csvConvention, formatDecimal, t, type Language } from '../i18n/index.js';

export const EXPORT_FORMATS = ['pohoda', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** One local day's sales: VAT rows (`gross` = base + vat) and what each payment type took. */
export interface DaySales {
  day: string;
  tickets: number;
  vat: Array<{ rate: number; base: Dec; vat: Dec; gross: Dec }>;
  payments: Array<{ name: string; amount: Dec }>;
}

const NS = {
  dat: 'http://www.stormware.cz/schema/version_2/data.xsd',
  int: 'http://www.stormware.cz/schema/version_2/intDoc.xsd',
  typ: 'http://www.stormware.cz/schema/version_2/type.xsd',
};

/** Text in XML: the five characters that mean something there, escaped. */
export function xmlText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

const el = (name: string, value: string) => `<${name}>${xmlText(value)}</${name}>`;
/** A VAT rate as people read it: 20, or 10,5 with the language's decimal sign. */
const rateText = (lang: Language, rate: number) => (Number.isInteger(rate) ? String(rate) : formatDecimal(lang, rate, 2, false));
const amount = (d: Dec) => d.toFixed(2);

/** A date as the shop writes it: 21.11.2026 (sk, cs), 2026-11-21 (en). */
export function localDate(lang: Language, day: string): string {
  if (lang === 'en') return day;
  const [y, m, d] = day.split('-');
  return `${Number(d)}.${Number(m)}.${y}`;
}

/**
 * POHODA's VAT rate classes: 0 is `none`; the other rates, highest first, `high`, `low` and `third`
 * (Slovakia: 23, 19 and 5 %; Czechia: 21 and 12 %). `percentVAT` carries the exact rate beside it.
 */
export function pohodaRateClasses(rates: number[]): Map<number, 'none' | 'high' | 'low' | 'third'> {
  const positive = [...new Set(rates.filter((r) => r > 0))].sort((a, b) => b - a);
  const classes = new Map<number, 'none' | 'high' | 'low' | 'third'>([[0, 'none']]);
  (['high', 'low', 'third'] as const).forEach((c, i) => positive[i] !== undefined && classes.set(positive[i], c));
  return classes;
}

export function pohodaXml(days: DaySales[], o: { ico: string; from: string; to: string; language: Language; rateClasses: Map<number, string> }): string {
  const lang = o.language;
  const id = (day: string) => `POSHUB${day.replace(/-/g, '')}`;
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<dat:dataPack xmlns:dat="${NS.dat}" xmlns:int="${NS.int}" xmlns:typ="${NS.typ}" version="2.0" id="${xmlText(`POSHUB${o.from.replace(/-/g, '')}`)}" ico="${xmlText(o.ico)}" application="POS Hub" note="${xmlText(t(lang, 'export.pohodaPack', { from: localDate(lang, o.from), to: localDate(lang, o.to) }))}">`,
  ];
  for (const d of days) {
    const payments = d.payments.map((p) => `${p.name} ${formatDecimal(lang, p.amount.toFixed(2), 2, false)}`).join(', ');
    out.push(
      `  <dat:dataPackItem version="2.0" id="${id(d.day)}">`,
      '    <int:intDoc version="2.0">',
      '      <int:intDocHeader>',
      `        ${el('int:symVar', d.day.replace(/-/g, ''))}`,
      `        ${el('int:date', d.day)}`,
      `        ${el('int:dateTax', d.day)}`,
      `        ${el('int:dateAccounting', d.day)}`,
      `        ${el('int:text', t(lang, 'export.pohodaText', { date: localDate(lang, d.day) }))}`,
      `        ${el('int:intNote', t(lang, 'export.pohodaNote', { tickets: d.tickets, payments }))}`,
      '      </int:intDocHeader>',
      '      <int:intDocDetail>',
    );
    for (const v of d.vat) {
      out.push(
        '        <int:intDocItem>',
        `          ${el('int:text', t(lang, 'export.pohodaItem', { rate: rateText(lang, v.rate) }))}`,
        `          ${el('int:quantity', '1')}`,
        `          ${el('int:payVAT', 'true')}`,
        `          ${el('int:rateVAT', o.rateClasses.get(v.rate) ?? 'high')}`,
        `          ${el('int:percentVAT', String(v.rate))}`,
        '          <int:homeCurrency>',
        `            ${el('typ:unitPrice', amount(v.gross))}`,
        `            ${el('typ:price', amount(v.base))}`,
        `            ${el('typ:priceVAT', amount(v.vat))}`,
        `            ${el('typ:priceSum', amount(v.gross))}`,
        '          </int:homeCurrency>',
        '        </int:intDocItem>',
      );
    }
    out.push('      </int:intDocDetail>', '    </int:intDoc>', '  </dat:dataPackItem>');
  }
  out.push('</dat:dataPack>', '');
  return out.join('\n');
}

/** A closed ticket as the journal reads it. */
export interface JournalTicket {
  id: string;
  name?: string | null;
  closeDate: string;
  employee?: { userName?: string; name?: string } | null;
  closeInfo?: { deviceName?: string; fiscalName?: string; number?: number } | null;
  vatBreakdown?: Array<{ rate: number; vat: number; gross: number }>;
  payments?: Array<{ paymentTypeNumber: number; amount: number }>;
  change?: number;
}

export function journalCsv(tickets: JournalTicket[], o: { language: Language; timeZone: string; paymentName: (n: number) => string }): string {
  const lang = o.language;
  const { separator, decimalComma } = csvConvention(lang);
  const num = (d: Dec): CsvCell => {
    const text = formatDecimal(lang, d.toFixed(2), 2, false);
    return csvNumber(decimalComma ? text : text.replace(',', '.'));
  };
  const rate = (r: number): CsvCell => csvNumber(rateText(lang, r));
  const pad = (n: number) => String(n).padStart(2, '0');
  const header: CsvCell[] = (['date', 'time', 'document', 'ticket', 'register', 'waiter', 'rate', 'base', 'vat', 'gross', 'payments'] as const).map((k) => t(lang, `export.csv.${k}`));
  const lines: CsvCell[][] = [header];
  const sums = new Map<number, { base: Dec; vat: Dec; gross: Dec }>();
  for (const tk of tickets) {
    const p = zonedParts(new Date(tk.closeDate), o.timeZone);
    const day = localDate(lang, `${p.year}-${pad(p.month)}-${pad(p.day)}`);
    const time = `${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
    const document = tk.closeInfo?.fiscalName ? `${tk.closeInfo.fiscalName}/${tk.closeInfo.number ?? ''}` : '';
    const payments = (tk.payments ?? []).map((x) => `${o.paymentName(x.paymentTypeNumber)} ${formatDecimal(lang, dec(x.amount).toFixed(2), 2, false)}`).join(', ');
    for (const v of tk.vatBreakdown ?? []) {
      const gross = dec(v.gross);
      const vat = dec(v.vat);
      const s = sums.get(v.rate) ?? { base: new D(0), vat: new D(0), gross: new D(0) };
      s.base = s.base.plus(gross.minus(vat));
      s.vat = s.vat.plus(vat);
      s.gross = s.gross.plus(gross);
      sums.set(v.rate, s);
      lines.push([day, time, document, tk.name || tk.id, tk.closeInfo?.deviceName, tk.employee?.name || tk.employee?.userName, rate(v.rate), num(gross.minus(vat)), num(vat), num(gross), payments]);
    }
  }
  for (const [r, s] of [...sums].sort((a, b) => a[0] - b[0])) {
    lines.push([t(lang, 'export.csv.total'), null, null, null, null, null, rate(r), num(s.base), num(s.vat), num(s.gross), null]);
  }
  return csvDocument(lines, { separator, bom: true });
}
