/**
 * Numbers, money, dates and names in the pages' language (i18n.ts: the user's, else the
 * shop's); the hub sends ISO dates and JSON numbers. Times and dates are shown on the shop's clock
 * (days.ts: the zone the hub named, else the browser's), so a ticket closed at 23:30 in the shop reads
 * 23:30 wherever the page is opened. Formatters are made once per language and zone. The manager's
 * page and the register use them.
 */
import { addDays, dayStartsAt, noonUtc, shopZone } from './days.js';
import { intlLocale, language } from './i18n.js';

interface Formats {
  amount: Intl.NumberFormat;
  qty: Intl.NumberFormat;
  time: Intl.DateTimeFormat;
  date: Intl.DateTimeFormat;
  day: Intl.DateTimeFormat;
  dateTime: Intl.DateTimeFormat;
  /** A calendar day (`yyyy-mm-dd`) as `date` writes it: read at noon UTC and written in UTC, so no zone moves it. */
  calendarDate: Intl.DateTimeFormat;
  collator: Intl.Collator;
}
const made = new Map<string, Formats>();

function formats(): Formats {
  const lang = language();
  const timeZone = shopZone();
  const key = `${lang} ${timeZone}`;
  let f = made.get(key);
  if (!f) {
    const locale = intlLocale(lang);
    f = {
      amount: new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
      qty: new Intl.NumberFormat(locale, { maximumFractionDigits: 4 }),
      time: new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }),
      date: new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone }),
      day: new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }),
      dateTime: new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }),
      calendarDate: new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }),
      // Slovak and Czech names sort as people there expect (ch after h, Č after C); numbers naturally.
      collator: new Intl.Collator([locale, 'sk', 'cs'], { numeric: true, sensitivity: 'base' }),
    };
    made.set(key, f);
  }
  return f;
}

export const collator = { compare: (a: string, b: string) => formats().collator.compare(a, b) };
export const byText = <T>(get: (row: T) => string) => (a: T, b: T) => collator.compare(get(a), get(b));

export const DEFAULT_CURRENCY = '€';

export function money(amount: number | null | undefined, currency?: string | null): string {
  if (amount === null || amount === undefined || Number.isNaN(amount)) return '—';
  return `${formats().amount.format(amount)} ${currency || DEFAULT_CURRENCY}`;
}

/**
 * A number as a person types it in the page's language, every decimal kept and no grouping ("6,5" in
 * Slovak and Czech): what a number field shows of a stored value.
 */
export function numberText(n: unknown): string {
  if (typeof n !== 'number' || !Number.isFinite(n)) return n === null || n === undefined ? '' : String(n);
  return language() === 'en' ? String(n) : String(n).replace('.', ',');
}

export function quantity(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : formats().qty.format(n);
}

/** A stock figure with its unit ("12,5 kg"); without a unit, the number alone. */
export function stockQuantity(n: number | null | undefined, unit: string | null | undefined): string {
  const q = quantity(n);
  return unit && q !== '—' ? `${q} ${unit}` : q;
}

export function percent(n: number | null | undefined): string {
  return n ? `${formats().qty.format(n)} %` : '—';
}

const asDate = (iso: string | null | undefined) => (iso ? new Date(iso) : null);

/** An instant's time, date, or both, on the shop's clock. */
export const time = (iso: string | null | undefined) => (asDate(iso) ? formats().time.format(asDate(iso)!) : '—');
export const date = (iso: string | null | undefined) => (asDate(iso) ? formats().date.format(asDate(iso)!) : '—');
export const dateTime = (iso: string | null | undefined) => (asDate(iso) ? formats().dateTime.format(asDate(iso)!) : '—');

/** A day (`yyyy-mm-dd`, a shop's day the hub named or the page reckoned) as a title: "sobota 21. novembra". */
export const dayTitle = (day: string) => formats().day.format(noonUtc(day));
/** A day (`yyyy-mm-dd`) as `date` writes an instant: "21. 11. 2026", "21 Nov 2026". */
export const dayDate = (day: string) => formats().calendarDate.format(noonUtc(day));

/** The instant the shop's day `day` (`yyyy-mm-dd`, plus `days`) begins, as an ISO instant the hub can filter on. */
export function dayStart(day: string, days = 0): string {
  return dayStartsAt(addDays(day, days)).toISOString();
}

export function minutesSince(iso: string, now = Date.now()): string {
  const min = Math.max(0, Math.round((now - Date.parse(iso)) / 60_000));
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}
