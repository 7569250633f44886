/** Period windows of numbering entries (CONTRACT §7): counted from `startAt` on the store's calendar. */
import { fromZoned, zonedParts } from '../../core/time.js';

export type PeriodUnit = 'Day' | 'Week' | 'Month' | 'Year';
export interface NumberingEntry {
  isActive: boolean;
  createdAt?: string;
  startAt: string;
  period: { unit: PeriodUnit; amount: number };
  currentNumber: number;
  /** Server-kept: the start of the window `currentNumber` belongs to (repeat numberings). */
  currentPeriodStart?: string | null;
}

/** `start` moved by `n` periods on the store's calendar (a month from Jan 31 is Feb 28/29). */
export function addPeriods(start: Date, unit: PeriodUnit, n: number, tz: string): Date {
  // No move is the start itself, also when its wall time is one the clock shows twice (fromZoned: the earlier).
  if (n === 0) return new Date(start.getTime());
  const p = zonedParts(start, tz);
  const base = { hour: p.hour, minute: p.minute, second: p.second, ms: start.getUTCMilliseconds() };
  if (unit === 'Day' || unit === 'Week') {
    const days = unit === 'Day' ? n : 7 * n;
    const d = new Date(Date.UTC(p.year, p.month - 1, p.day + days));
    return fromZoned({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), ...base }, tz);
  }
  const months = unit === 'Month' ? n : 12 * n;
  const total = p.year * 12 + (p.month - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return fromZoned({ year, month, day: Math.min(p.day, lastDay), ...base }, tz);
}

/** The start of the period window (counted from `startAt` in steps of `amount` units) holding `at`. */
export function windowStart(startAt: Date, period: NumberingEntry['period'], at: Date, tz: string): Date {
  const approxUnitMs = { Day: 86_400_000, Week: 7 * 86_400_000, Month: 30.44 * 86_400_000, Year: 365.25 * 86_400_000 }[period.unit];
  let k = Math.max(0, Math.floor((at.getTime() - startAt.getTime()) / (approxUnitMs * period.amount)));
  // The estimate is off by at most one window either way (month lengths, DST); settle it exactly.
  while (k > 0 && addPeriods(startAt, period.unit, k * period.amount, tz) > at) k--;
  while (addPeriods(startAt, period.unit, (k + 1) * period.amount, tz) <= at) k++;
  return addPeriods(startAt, period.unit, k * period.amount, tz);
}

/** The index of the entry in use at `at` (CONTRACT §7): the active one with the latest startAt not after it; -1 when none. */
export function entryInUse(entries: ReadonlyArray<Pick<NumberingEntry, 'isActive' | 'startAt'>>, at: Date): number {
  let found = -1;
  entries.forEach((e, i) => {
    const start = Date.parse(e.startAt);
    if (e.isActive && start <= at.getTime() && (found < 0 || start > Date.parse(entries[found].startAt))) found = i;
  });
  return found;
}
