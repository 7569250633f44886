/** Server-made keys: unique, and in the order they were made (inserts append to the key indexes). */
import { describe, expect, it } from 'vitest';
import { newId } from '../../hub/core/ids.js';

describe('newId', () => {
  it('makes 32 lowercase hex digits, each key distinct', () => {
    const ids = Array.from({ length: 20_000 }, newId);
    expect(ids.every((id) => /^[0-9a-f]{32}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts keys made in later milliseconds after earlier ones', async () => {
    const first = newId();
    await new Promise((r) => setTimeout(r, 3));
    const second = newId();
    await new Promise((r) => setTimeout(r, 3));
    const third = newId();
    expect([third, first, second].sort()).toEqual([first, second, third]);
  });

  it('keeps drawing fresh randomness past its 4 KiB pool', () => {
    // 410 keys use up a pool of 4096 bytes at 10 bytes each; the random halves must not repeat.
    const tails = Array.from({ length: 1000 }, () => newId().slice(12));
    expect(new Set(tails).size).toBe(tails.length);
  });
});
