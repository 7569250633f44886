/**
 * The hub's languages (issue 21): Slovak, English and Czech. Messages come from one catalog
 * (messages.ts, every key in every language: test/i18n/catalog.test.ts); dates, numbers and money are
 * formatted by the platform's ICU (Intl), which Node ships in full. No i18n library: the catalog is
 * flat key → template with `{name}` placeholders, which `t()` fills; plural forms are not needed by any
 * message the hub sends (counts are written as "products: 3").
 *
 * Which language: the user's own `language` (users resource), else the request's Accept-Language,
 * else the shop's POS_HUB_LOCALE. Printed kitchen tickets, bills and e-mail receipts use the shop's.
 */
import { MESSAGES, type MessageKey } from './messages.js';

export const LANGUAGES = ['en', 'sk', 'cs'] as const;
export type Language = (typeof LANGUAGES)[number];
export type { MessageKey };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The best of our languages in an Accept-Language header (`sk-SK,sk;q=0.9,en;q=0.8`), or undefined. */
export function fromAcceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { lang: tag.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q), i };
    })
    .filter((r) => r.q > 0 && !Number.isNaN(r.q))
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked.find((r) => isLanguage(r.lang))?.lang as Language | undefined;
}

export type Params = Record<string, string | number>;

/** A catalog message in `lang` (every key has every language: messages.ts). */
export function t(lang: Language, key: MessageKey, params: Params = {}): string {
  const template: string = MESSAGES[key][lang];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** The locale tag Intl formats a language with (English as in Europe: 24-hour clock, day before month). */
export function intlLocale(lang: Language): string {
  return lang === 'en' ? 'en-GB' : lang;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** An exact decimal (a string or number) with `places` decimals in `lang`'s way: "1 234,50" in Slovak. */
export function formatDecimal(lang: Language, value: string | number, places = 2, grouping = true): string {
  const id = `${lang}:${places}:${grouping}`;
  let f = numberFormats.get(id);
  if (!f) numberFormats.set(id, (f = new Intl.NumberFormat(intlLocale(lang), { minimumFractionDigits: places, maximumFractionDigits: places, useGrouping: grouping })));
  // A string is formatted as the exact decimal it spells (Intl.NumberFormat v3), never through a float.
  return f.format(String(value) as unknown as number);
}

/** Money with its currency label after it, as receipts print it: "12,50 EUR". */
export function formatMoney(lang: Language, value: string | number, currency?: string | null): string {
  const amount = formatDecimal(lang, value, 2);
  return currency ? `${amount} ${currency}` : amount;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A date and time on the shop's wall clock, 24-hour: "21. 11. 2026 11:05" in Slovak, "21/11/2026, 11:05" in English. */
export function formatDateTime(lang: Language, at: Date, timeZone: string): string {
  const id = `${lang}:${timeZone}`;
  let f = dateFormats.get(id);
  if (!f) {
    f = new Intl.DateTimeFormat(intlLocale(lang), { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    dateFormats.set(id, f);
  }
  return f.format(at);
}

/** CSV in `lang`'s spreadsheet convention: `;` and a decimal comma for Slovak and Czech, `,` and a point for English. */
export function csvConvention(lang: Language): { separator: string; decimalComma: boolean } {
  return lang === 'en' ? { separator: ',', decimalComma: false } : { separator: ';', decimalComma: true };
}

/** A plain decimal ("12.50", "-0.15", "10.5") with `lang`'s decimal sign and no grouping, as a receipt prints it: "12,50" in Slovak. */
export function localDecimal(lang: Language, plain: string): string {
  return csvConvention(lang).decimalComma ? plain.replace('.', ',') : plain;
}
