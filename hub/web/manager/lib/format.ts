/** Numbers, money, dates and names in the browser's locale; the hub sends ISO dates and JSON numbers. */

const locale = typeof navigator !== 'undefined' ? navigator.language : 'en';
const amountFmt = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const qtyFmt = new Intl.NumberFormat(locale, { maximumFractionDigits: 4 });
const timeFmt = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
const dateFmt = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric' });
const dayFmt = new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long' });
const dateTimeFmt = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

/** Slovak and Czech names sort as people there expect (ch after h, Č after C); numbers naturally. */
export const collator = new Intl.Collator(['sk', 'cs', locale], { numeric: true, sensitivity: 'base' });
export const byText = <T>(get: (row: T) => string) => (a: T, b: T) => collator.compare(get(a), get(b));

export const DEFAULT_CURRENCY = '€';

export function money(amount: number | null | undefined, currency?: string | null): string {
  if (amount === null || amount === undefined || Number.isNaN(amount)) return '—';
  return `${amountFmt.format(amount)} ${currency || DEFAULT_CURRENCY}`;
}

export function quantity(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : qtyFmt.format(n);
}

export function percent(n: number | null | undefined): string {
  return n ? `${qtyFmt.format(n)} %` : '—';
}

const asDate = (iso: string | null | undefined) => (iso ? new Date(iso) : null);

export const time = (iso: string | null | undefined) => (asDate(iso) ? timeFmt.format(asDate(iso)!) : '—');
export const date = (iso: string | null | undefined) => (asDate(iso) ? dateFmt.format(asDate(iso)!) : '—');
export const dateTime = (iso: string | null | undefined) => (asDate(iso) ? dateTimeFmt.format(asDate(iso)!) : '—');
export const dayTitle = (d: Date) => dayFmt.format(d);

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
