/**
 * The shop's days in the browser. The hub counts its days — reports, fiscal days, numbering tokens,
 * a list filter's date without an offset — in its own time zone (POS_HUB_TIMEZONE; head office in
 * POS_HQ_TIMEZONE), which it names in the session answer (`timeZone`). A page opened from another
 * zone (an owner abroad, a laptop left on UTC) must reckon "today", "yesterday", a report's range and
 * the time of a ticket in that zone, not in the browser's, or a sale at 23:30 lands in the wrong day.
 *
 * The arithmetic is the hub's own (hub/core/time.ts, a pure module the pages bundle): a day starts at
 * the first instant its wall clock shows, so across the change to summer time a day has 23 hours and
 * in a zone whose clocks skip midnight (America/Santiago) it starts at 01:00. Days as `yyyy-mm-dd`
 * are counted on the calendar alone (UTC dates), never as 24 hours.
 */
import { fromZoned, isValidTimeZone, zonedParts, type ZonedParts } from '../../core/time.js';

/** This browser's own zone: what the pages reckon in until the hub has named the shop's. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

let zone: string | null = null;

/** The zone the pages count days and show times in: the shop's once known, else the browser's. */
export function shopZone(): string {
  return zone ?? browserZone();
}

/** Takes the zone the hub named (null or one this browser does not know: the browser's own). */
export function setShopZone(tz: string | null | undefined): void {
  zone = tz && isValidTimeZone(tz) ? tz : null;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `yyyy-mm-dd` of a calendar date; the month and day may overflow (day 0 is the last of the month before). */
function calendar(year: number, month: number, day: number): string {
  // setUTCFullYear, not Date.UTC: that reads years 0-99 as 1900-1999.
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** The year, month (1-12) and day of a `yyyy-mm-dd`. */
export function dayParts(day: string): { year: number; month: number; day: number } {
  const m = DAY.exec(day);
  // A programmer's error (callers check a day from an address with isDay), never shown to a person.
  if (!m) throw new RangeError(`${day} is no yyyy-mm-dd`);
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
}

/** The wall clock of the shop's zone at an instant (year, month, day, hour…). */
export function shopClock(at: Date | number | string, tz = shopZone()): ZonedParts {
  return zonedParts(new Date(at), tz);
}

/** The local day (`yyyy-mm-dd`) in the shop's zone of an instant. */
export function dayOf(at: Date | number | string, tz = shopZone()): string {
  const p = shopClock(at, tz);
  return calendar(p.year, p.month, p.day);
}

/** The instant the day `day` (`yyyy-mm-dd`) begins in the shop's zone: its first moment on the wall clock. */
export function dayStartsAt(day: string, tz = shopZone()): Date {
  return fromZoned(dayParts(day), tz);
}

/** The calendar day `n` days after `day` (before, for a negative `n`). */
export function addDays(day: string, n: number): string {
  const p = dayParts(day);
  return calendar(p.year, p.month, p.day + n);
}

/** The day of the week of a `yyyy-mm-dd`: 0 Sunday … 6 Saturday. */
export function weekdayOf(day: string): number {
  const p = dayParts(day);
  const d = new Date(0);
  d.setUTCFullYear(p.year, p.month - 1, p.day);
  return d.getUTCDay();
}

/** The first and the last day of the month `months` after the one holding `day`. */
export function monthOf(day: string, months = 0): { first: string; last: string } {
  const p = dayParts(day);
  return { first: calendar(p.year, p.month + months, 1), last: calendar(p.year, p.month + months + 1, 0) };
}

/**
 * Noon UTC of a `yyyy-mm-dd`: an instant a formatter given `timeZone: 'UTC'` writes as that very day,
 * to show a day (the hub's or the page's) in words without any zone moving it.
 */
export function noonUtc(day: string): Date {
  const p = dayParts(day);
  const d = new Date(0);
  d.setUTCFullYear(p.year, p.month - 1, p.day);
  d.setUTCHours(12);
  return d;
}

/** Whether `day` is a real `yyyy-mm-dd` (not 2026-02-31). */
export function isDay(day: string): boolean {
  if (!DAY.test(day)) return false;
  const p = dayParts(day);
  return calendar(p.year, p.month, p.day) === day;
}
