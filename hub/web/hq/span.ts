import { addDays, dayOf } from '../shared/days.js';

/**
 * The span of head office's sales cards: the last 7 days as whole days of HQ's calendar, from the
 * start of the day six days ago (sent without an offset, which HQ reads in its own time zone,
 * POS_HQ_TIMEZONE) to now. A span of 7 × 24 hours back from now began in the middle of a day, so
 * "by day" showed an eighth, oldest row holding only that day's later hours. The day is HQ's, not the
 * browser's: from another zone the browser's "six days ago" is HQ's five or seven.
 */
export function lastSevenDays(now: Date, timeZone: string): { from: string; to: string } {
  return { from: `${addDays(dayOf(now, timeZone), -6)}T00:00:00`, to: now.toISOString() };
}
