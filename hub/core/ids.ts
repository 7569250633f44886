/** New keys for rows the hub makes (tickets, items, orders, print jobs, pairing codes…). */
import { randomFillSync } from 'node:crypto';

// Random bytes drawn 4 KiB at a time: one call per id costs more than the rest of making it.
const entropy = Buffer.alloc(4096);
let entropyUsed = entropy.length;

/**
 * A new key: 32 hex digits, 48 bits of milliseconds then 80 random bits (the layout of a UUIDv7).
 * Keys made one after another sort one after another, so each insert lands on the right edge of
 * the key indexes (tickets, items, orders, print jobs) that are already in memory instead of on a
 * random page of a million-row index, which a commit must then write out whole. The time is the
 * machine's, not the hub's clock: it orders keys and is never read back as a date; uniqueness
 * rests on the 80 random bits.
 */
export function newId(): string {
  if (entropyUsed + 10 > entropy.length) {
    randomFillSync(entropy);
    entropyUsed = 0;
  }
  const random = entropy.toString('hex', entropyUsed, (entropyUsed += 10));
  return Date.now().toString(16).padStart(12, '0') + random;
}
