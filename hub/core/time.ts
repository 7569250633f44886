/**
 * Wall-clock helpers for the store's time zone (POS_HUB_TIMEZONE). Registers send local times
 * without an offset; numbering tokens ({yyyy}, {MM}, {dd}) and fiscal days are local too.
 */
export interface ZonedParts {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number; // 0 = Sunday
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'short',
    });
    formatters.set(tz, f);
  }
  return f;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export function isValidTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset (ms) per quarter hour of UTC, where it holds the whole quarter (every closing and numbering asks). */
const offsets = new Map<string, Map<number, number | null>>();
const QUARTER_MS = 15 * 60_000;

function offsetOf(quarter: number, tz: string): number | null {
  let byQuarter = offsets.get(tz);
  if (!byQuarter) offsets.set(tz, (byQuarter = new Map()));
  let offset = byQuarter.get(quarter);
  if (offset === undefined) {
    const at = (ms: number) => {
      const p = formattedParts(new Date(ms), tz);
      return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - ms;
    };
    const first = quarter * QUARTER_MS;
    const start = at(first);
    // Kept only when the offset is the same at both ends of the quarter (no change of time within it).
    offset = start === at(first + QUARTER_MS - 1000) ? start : null;
    if (byQuarter.size >= 2000) byQuarter.clear();
    byQuarter.set(quarter, offset);
  }
  return offset;
}

/**
 * The wall clock of `tz` at `date`: from the zone's offset for that quarter hour (Intl asked once per
 * quarter), or from Intl itself where the offset changes within it.
 */
export function zonedParts(date: Date, tz: string): ZonedParts {
  const ms = date.getTime();
  const offset = Number.isFinite(ms) ? offsetOf(Math.floor(ms / QUARTER_MS), tz) : null;
  if (offset === null) return formattedParts(date, tz);
  const local = new Date(Math.floor(ms / 1000) * 1000 + offset);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
    weekday: local.getUTCDay(),
  };
}

function formattedParts(date: Date, tz: string): ZonedParts {
  const parts: Record<string, string> = {};
  for (const p of formatter(tz).formatToParts(date)) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS.indexOf(parts.weekday),
  };
}

/** The zone's offset (ms) at instant `ms`: its wall clock read as UTC, less the instant (to the second). */
function offsetAt(ms: number, tz: string): number {
  const z = zonedParts(new Date(ms), tz);
  return Date.UTC(z.year, z.month - 1, z.day, z.hour, z.minute, z.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant at which the wall clock in `tz` shows the given local time. Across a change of time
 * (as Temporal's 'compatible'): a time shown twice (the hour repeated when summer time ends) is its
 * earlier instant; a time never shown (the hour skipped when it begins) is moved on by the gap — so
 * in a zone whose clocks skip midnight (America/Santiago, America/Havana) a day begins at 01:00 of
 * that day, never at 23:00 of the day before.
 */
export function fromZoned(p: { year: number; month: number; day: number; hour?: number; minute?: number; second?: number; ms?: number }, tz: string): Date {
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour ?? 0, p.minute ?? 0, p.second ?? 0, p.ms ?? 0);
  // The offsets a day either side: no zone changes its time twice within two days, and none is 24 h off UTC.
  const before = offsetAt(asUtc - 86_400_000, tz);
  const after = offsetAt(asUtc + 86_400_000, tz);
  const shows = (at: number) => offsetAt(at, tz) === asUtc - at;
  const candidates = [asUtc - before, asUtc - after].filter(shows).sort((a, b) => a - b);
  return new Date(candidates.length ? candidates[0] : asUtc - before);
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Parses an ISO 8601 date or date-time. A value without an offset is read in the store's zone.
 * Returns null for anything else (including impossible dates such as 2026-02-31).
 */
export function parseIsoDateTime(text: string, tz: string): Date | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const parts = {
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    hour: Number(h ?? 0),
    minute: Number(mi ?? 0),
    second: Number(s ?? 0),
    ms: frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0,
  };
  if (parts.month < 1 || parts.month > 12 || parts.day < 1 || parts.hour > 23 || parts.minute > 59 || parts.second > 59) return null;
  const check = new Date(Date.UTC(parts.year, parts.month - 1, parts.day));
  if (check.getUTCDate() !== parts.day) return null;
  if (!zone) return fromZoned(parts, tz);
  const utc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second, parts.ms);
  if (zone.toUpperCase() === 'Z') return new Date(utc);
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offsetMin = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4));
  return new Date(utc - sign * offsetMin * 60_000);
}
