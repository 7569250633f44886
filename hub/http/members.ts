/**
 * Members of a request the routes share, read as the route declares them (hub/http/route.ts): a
 * local day `YYYY-MM-DD` (reports, stock value). The document shows the text; the handler gets the
 * day as the UTC midnight of that date, which the shop's time zone then places.
 */
import { z } from 'zod';
import { catalogIssue } from './errors.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Date.UTC, but years 0-99 are those years (Date.UTC reads them as 1900-1999). */
export function utcDay(year: number, month: number, day: number): number {
  const d = new Date(Date.UTC(2000, 0, 1));
  d.setUTCFullYear(year, month, day);
  return d.getTime();
}

/** A day (its UTC midnight) as `YYYY-MM-DD`. */
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` → the date's UTC midnight; a real date reads back the same (month 13 does not roll over to January, nor 30 February to March). */
export const localDay = () =>
  z.string().transform((raw, ctx) => {
    const text = raw.trim();
    const m = DATE.exec(text);
    const ms = m ? utcDay(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
    if (m && !Number.isNaN(ms) && isoDay(ms) === text) return ms;
    if (text) catalogIssue(ctx, 'reports.notDate', { value: text });
    else catalogIssue(ctx, 'reports.dateRequired', {}, 'Required');
    return z.NEVER;
  });

/** `to` not before `from`, and at most `maxDays` after it: a check of the query as a whole, named on `to`. */
export function daySpan(maxDays: number) {
  return (q: { from: number; to: number }, ctx: z.core.$RefinementCtx) => {
    if (q.to < q.from) catalogIssue(ctx, 'reports.toBeforeFrom', { from: isoDay(q.from) }, 'OutOfRange', ['to']);
    else if ((q.to - q.from) / DAY_MS > maxDays) catalogIssue(ctx, 'reports.tooLong', {}, 'OutOfRange', ['to']);
  };
}
