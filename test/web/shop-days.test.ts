/**
 * The pages reckon the shop's days, not the browser's (hub/web/shared/days.ts), and show times on the
 * shop's clock (hub/web/shared/format.ts). This process plays a browser in Pacific/Kiritimati (UTC+14),
 * 13 hours from a shop in Bratislava: a sale at 23:30 in the shop is 12:30 the next day there. Both
 * changes of time in Bratislava, and a zone whose clocks skip midnight (America/Santiago), are held
 * against the instants the hub itself counts its days from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, browserZone, dayOf, dayStartsAt, isDay, monthOf, setShopZone, shopClock, shopZone, weekdayOf } from '../../hub/web/shared/days.js';
import { date, dateTime, dayDate, dayStart, dayTitle, time } from '../../hub/web/shared/format.js';

const SHOP = 'Europe/Bratislava';
const BROWSER = 'Pacific/Kiritimati';
const SANTIAGO = 'America/Santiago';
const HOUR = 3_600_000;
const at = (iso: string) => new Date(iso);
const hoursOf = (day: string, tz: string) => (dayStartsAt(addDays(day, 1), tz).getTime() - dayStartsAt(day, tz).getTime()) / HOUR;

const tzBefore = process.env.TZ;
beforeAll(() => {
  process.env.TZ = BROWSER;
  setShopZone(SHOP);
});
afterAll(() => {
  // Test files share their process (isolate: false): leave no zone behind.
  setShopZone(null);
  if (tzBefore === undefined) delete process.env.TZ;
  else process.env.TZ = tzBefore;
});

describe("the shop's day of an instant and the instant a day begins", () => {
  it("puts a sale at 23:30 and one at 00:30 in the shop on the shop's days, whatever the browser's zone", () => {
    expect(browserZone()).toBe(BROWSER);
    expect(shopZone()).toBe(SHOP);
    // 23:30 on the 20th in the shop; 12:30 on the 21st in the browser.
    expect(dayOf(at('2026-11-20T22:30:00Z'))).toBe('2026-11-20');
    expect(new Intl.DateTimeFormat('en-CA').format(at('2026-11-20T22:30:00Z'))).toBe('2026-11-21');
    expect(dayOf(at('2026-11-20T23:30:00Z'))).toBe('2026-11-21');
    expect(dayOf('2026-11-20T22:59:59.999Z')).toBe('2026-11-20');
    expect(dayOf('2026-11-20T23:00:00Z')).toBe('2026-11-21');
    expect(dayStartsAt('2026-11-21').toISOString()).toBe('2026-11-20T23:00:00.000Z');
    expect(shopClock('2026-11-20T22:30:00Z')).toMatchObject({ day: 20, hour: 23, minute: 30 });
  });

  it('the day summer time begins (March 29, 2026) has 23 hours: 02:00 is skipped, 01:30 and 03:30 are the same day', () => {
    expect(dayStartsAt('2026-03-29', SHOP).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(dayStartsAt('2026-03-30', SHOP).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(hoursOf('2026-03-29', SHOP)).toBe(23);
    expect(hoursOf('2026-03-28', SHOP)).toBe(24);
    expect(dayOf('2026-03-29T00:30:00Z', SHOP)).toBe('2026-03-29'); // 01:30 CET
    expect(dayOf('2026-03-29T01:30:00Z', SHOP)).toBe('2026-03-29'); // 03:30 CEST
    expect(dayOf('2026-03-29T21:59:59Z', SHOP)).toBe('2026-03-29'); // 23:59:59 CEST
    expect(dayOf('2026-03-29T22:00:00Z', SHOP)).toBe('2026-03-30');
    // The morning after: yesterday is the calendar's day before, though 24 hours ago was the 28th.
    expect(addDays(dayOf('2026-03-29T22:30:00Z', SHOP), -1)).toBe('2026-03-29');
    expect(dayOf(new Date(Date.parse('2026-03-29T22:30:00Z') - 24 * HOUR), SHOP)).toBe('2026-03-28');
  });

  it('the day summer time ends (October 25, 2026) has 25 hours: both 02:30s are that day', () => {
    expect(dayStartsAt('2026-10-25', SHOP).toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(dayStartsAt('2026-10-26', SHOP).toISOString()).toBe('2026-10-25T23:00:00.000Z');
    expect(hoursOf('2026-10-25', SHOP)).toBe(25);
    expect(shopClock('2026-10-25T00:30:00Z', SHOP)).toMatchObject({ day: 25, hour: 2, minute: 30 });
    expect(shopClock('2026-10-25T01:30:00Z', SHOP)).toMatchObject({ day: 25, hour: 2, minute: 30 });
    expect(dayOf('2026-10-25T22:59:59Z', SHOP)).toBe('2026-10-25'); // 23:59:59 CET
    expect(dayOf('2026-10-25T23:00:00Z', SHOP)).toBe('2026-10-26');
  });

  it('where the clocks skip midnight (America/Santiago, September 6, 2026) the day begins at 01:00, never at 23:00 the day before', () => {
    const start = dayStartsAt('2026-09-06', SANTIAGO);
    expect(start.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(shopClock(start, SANTIAGO)).toMatchObject({ day: 6, hour: 1, minute: 0 });
    expect(dayOf(new Date(start.getTime() - 1000), SANTIAGO)).toBe('2026-09-05');
    expect(shopClock(new Date(start.getTime() - 1000), SANTIAGO)).toMatchObject({ day: 5, hour: 23, minute: 59, second: 59 });
    expect(hoursOf('2026-09-05', SANTIAGO)).toBe(24);
    expect(hoursOf('2026-09-06', SANTIAGO)).toBe(23);
    // And where they go back at midnight (April 5, 2026): 23:00 comes twice, so April 4 has 25 hours.
    expect(dayStartsAt('2026-04-05', SANTIAGO).toISOString()).toBe('2026-04-05T04:00:00.000Z');
    expect(hoursOf('2026-04-04', SANTIAGO)).toBe(25);
    expect(dayOf('2026-04-05T03:30:00Z', SANTIAGO)).toBe('2026-04-04'); // the second 23:30
  });

  it("is the hub's own reckoning: each day's start is the instant the hub's day begins (hub/core/time.ts)", async () => {
    const { parseIsoDateTime } = await import('../../hub/core/time.js');
    for (const [day, tz] of [['2026-03-29', SHOP], ['2026-03-30', SHOP], ['2026-10-25', SHOP], ['2026-10-26', SHOP], ['2026-09-06', SANTIAGO], ['2026-04-05', SANTIAGO]] as const) {
      expect(dayStartsAt(day, tz).toISOString(), `${day} ${tz}`).toBe(parseIsoDateTime(day, tz)!.toISOString());
    }
  });
});

describe('days on the calendar', () => {
  it('counts days, weeks and months on the calendar, never as 24 hours', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
    expect(addDays('2026-11-21', -6)).toBe('2026-11-15');
    expect(weekdayOf('2026-11-21')).toBe(6); // a Saturday
    expect(weekdayOf('2026-11-23')).toBe(1);
    expect(monthOf('2028-02-10')).toEqual({ first: '2028-02-01', last: '2028-02-29' });
    expect(monthOf('2026-01-15', -1)).toEqual({ first: '2025-12-01', last: '2025-12-31' });
    expect(['2026-02-28', '2026-02-31', '2026-13-01', '2026-1-05', 'foo', ''].map(isDay)).toEqual([true, false, false, false, false, false]);
  });
});

describe('the zone the pages reckon in', () => {
  it("is the hub's once named; none, or one this browser does not know, leaves the browser's own", () => {
    try {
      setShopZone(null);
      expect(shopZone()).toBe(BROWSER);
      setShopZone('Mars/Olympus_Mons');
      expect(shopZone()).toBe(BROWSER);
      setShopZone(SANTIAGO);
      expect(shopZone()).toBe(SANTIAGO);
    } finally {
      setShopZone(SHOP);
    }
  });
});

describe("times and days shown on the shop's clock", () => {
  it("shows a ticket closed at 23:30 in the shop as 23:30 on the shop's day, and a day as that very day", () => {
    expect(time('2026-11-20T22:30:00Z')).toBe('23:30');
    expect(date('2026-11-20T22:30:00Z')).toBe('20 Nov 2026');
    expect(dateTime('2026-11-20T22:30:00Z')).toMatch(/^20 Nov,? 23:30$/);
    // A day the hub or the page names (yyyy-mm-dd) is written as itself, in no zone's terms.
    expect(dayDate('2026-11-20')).toBe('20 Nov 2026');
    expect(dayTitle('2026-11-21')).toBe('Saturday 21 November');
    // A list filter's day: from its start on the shop's clock, across the start of summer time.
    expect(dayStart('2026-03-29')).toBe('2026-03-28T23:00:00.000Z');
    expect(dayStart('2026-03-29', 1)).toBe('2026-03-29T22:00:00.000Z');
    try {
      setShopZone(SANTIAGO);
      // The formatters follow a change of zone (they are kept per language and zone).
      expect(time('2026-11-20T22:30:00Z')).toBe('19:30');
    } finally {
      setShopZone(SHOP);
    }
  });
});
