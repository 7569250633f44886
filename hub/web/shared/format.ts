/**
 * Numbers, money, dates and names in the pages' language (i18n.ts: the user's, else the
 * shop's); the hub sends ISO dates and JSON numbers. Formatters are made once per language. The
 * manager's page and the register use them.
 */
import { intlLocale, language } from './i18n';

interface Formats {
  amount: Intl.NumberFormat;
  qty: Intl.NumberFormat;
  time: Intl.DateTimeFormat;
  date: Intl.DateTimeFormat;
  day: Intl.DateTimeFormat;
  dateTime: Intl.DateTimeFormat;
  collator: Intl.Collator;
}
const made = new Map<string, Formats>();

function formats(): Formats {
  const lang = language();
  let f = made.get(lang);
  if (!f) {
    const locale = intlLocale(lang);
    f = {
      amount: new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
      qty: new Intl.NumberFormat(locale, { maximumFractionDigits: 4 }),
      time: new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
      date: new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric' }),
      day: new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long' }),
      dateTime: new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
      // Slovak and Czech names sort as people there expect (ch after h, Č after C); numbers naturally.
      collator: new Intl.Collator([locale, 'sk', 'cs'], { numeric: true, sensitivity: 'base' }),
    };
    made.set(lang, f);
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

export const time = (iso: string | null | undefined) => (asDate(iso) ? formats().time.format(asDate(iso)!) : '—');
export const date = (iso: string | null | undefined) => (asDate(iso) ? formats().date.format(asDate(iso)!) : '—');
export const dateTime = (iso: string | null | undefined) => (asDate(iso) ? formats().dateTime.format(asDate(iso)!) : '—');
export const dayTitle = (d: Date) => formats().day.format(d);

/** `yyyy-mm-dd` of a local date, for date inputs. */
export function isoDay(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Local midnight of a `yyyy-mm-dd` (plus `days`), as an ISO instant the hub can filter on. */
export function dayStart(day: string, days = 0): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d + days).toISOString();
}

export function minutesSince(iso: string, now = Date.now()): string {
  const min = Math.max(0, Math.round((now - Date.parse(iso)) / 60_000));
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}
