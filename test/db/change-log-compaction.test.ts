/**
 * Compaction without an index on the change log's `at` (issue 31): the newest entry older than the
 * retention is found by a binary search over seq, and must be the entry `max(seq) WHERE at < cutoff`
 * names — for logs of every length, a cutoff before, inside and after them, after earlier compactions.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDb, openDb, rawSql, type Db } from '../../db/client.js';
import { appendChange, compact, compactedThrough, lastSeq } from '../../hub/engine/change-log.js';

let db: Db;
beforeEach(() => {
  db = openDb(':memory:');
});
afterEach(() => closeDb(db));

const DAY = 86_400_000;
/** What compaction must keep: the entries after the newest one older than the cutoff (and always the newest). */
const expectedThrough = (cutoff: number) => rawSql.get<{ s: number | null }>(db, 'SELECT max(seq) AS s FROM changes WHERE at < ?', [cutoff])?.s ?? 0;
const seqs = () => rawSql.all<{ seq: number }>(db, 'SELECT seq FROM changes ORDER BY seq', []).map((r) => r.seq);

describe('change-log compaction', () => {
  it.each([1, 2, 3, 10, 257])('removes exactly the entries older than the retention, of a log of %i', (n) => {
    for (let i = 0; i < n; i++) appendChange(db, 'stocks', `s${i}`, 'upsert', 1, i * DAY);
    for (const days of [0, 1, Math.floor(n / 2), n - 1, n, n + 5]) {
      const cutoff = days * DAY;
      const all = seqs();
      const through = Math.min(expectedThrough(cutoff), lastSeq(db) - 1);
      const removes = through > compactedThrough(db);
      expect(compact(db, cutoff + 2 * DAY, 2 * DAY)).toBe(removes ? all.filter((s) => s <= through).length : 0);
      expect(seqs()).toEqual(removes ? all.filter((s) => s > through) : all);
    }
    // The newest entry always stays: the log's position.
    expect(seqs()).toEqual([lastSeq(db)]);
  });

  it('finds the boundary across gaps in seq and entries made in one millisecond', () => {
    for (let i = 0; i < 100; i++) appendChange(db, 'stocks', `s${i}`, 'upsert', 1, Math.floor(i / 7) * DAY);
    rawSql.run(db, 'DELETE FROM changes WHERE seq % 3 = 0 AND seq < 90', []);
    const cutoff = 6 * DAY + 1;
    const through = expectedThrough(cutoff);
    expect(through).toBeGreaterThan(0);
    compact(db, cutoff + DAY, DAY);
    expect(compactedThrough(db)).toBe(through);
    expect(Math.min(...seqs())).toBeGreaterThan(through);
    expect(rawSql.get<{ n: number }>(db, 'SELECT count(*) AS n FROM changes WHERE at < ?', [cutoff])?.n).toBe(0);
  });

  it('after the clock was set back, compacts through an entry older than the cutoff and never past max(seq) WHERE at < cutoff', () => {
    // Forty days, then the clock set back twelve days, then on: `at` steps down once.
    for (let i = 0; i < 40; i++) appendChange(db, 'stocks', `a${i}`, 'upsert', 1, i * DAY);
    for (let i = 0; i < 40; i++) appendChange(db, 'stocks', `b${i}`, 'upsert', 1, (28 + i) * DAY);
    const atOf = new Map(rawSql.all<{ seq: number; at: number }>(db, 'SELECT seq, at FROM changes', []).map((r) => [r.seq, r.at]));
    let moved = 0;
    for (const cutoffDay of [5, 29, 33, 39, 45, 60]) {
      const cutoff = cutoffDay * DAY;
      const before = compactedThrough(db);
      const exact = expectedThrough(cutoff);
      compact(db, cutoff + DAY, DAY);
      const through = compactedThrough(db);
      expect(through).toBeLessThanOrEqual(Math.max(before, exact));
      if (through > before) {
        moved++;
        expect(atOf.get(through)).toBeLessThan(cutoff);
      }
    }
    expect(moved).toBeGreaterThan(2);
  });
});
