/**
 * A store's change log made ahead of time, for the chain's catch-up tests and bench: customers
 * written through the resource engine's own write path (hooks, `_v`, the change log with its
 * documents, as on a hub in a chain), in large transactions, on a clock the caller drives.
 */
import { join } from 'node:path';
import { closeDb, inTransaction, openDb } from '../../db/client.js';
import { FakeClock } from '../../hub/clock.js';
import { keepDocsInLog } from '../../hub/events/log.js';
import { HQ_CALLER } from '../../hub/chain/catalog.js';
import { ResourceService } from '../../hub/resources/engine/service.js';
import { getStored } from '../../hub/resources/engine/repo.js';
import { customers } from '../../hub/resources/index.js';

/**
 * `events` upserts of `events / versions` customers, each written `versions` times, spread evenly
 * from `from` over `spanMs`. Returns the log's last seq.
 */
export function generateBacklog(dataDir: string, opts: { events: number; versions: number; from: Date; spanMs: number }): number {
  const db = openDb(join(dataDir, 'hub.sqlite'));
  try {
    keepDocsInLog(db);
    const clock = new FakeClock(opts.from);
    const service = new ResourceService(customers, { db, clock, timeZone: 'UTC', busy: new Set() });
    const count = Math.floor(opts.events / opts.versions);
    const step = opts.spanMs / (count * opts.versions);
    const CHUNK = 5000;
    for (let round = 0; round < opts.versions; round++) {
      for (let start = 0; start < count; start += CHUNK) {
        inTransaction(db, () => {
          for (let i = start; i < Math.min(count, start + CHUNK); i++) {
            const key = `c${i}`;
            const { body } = service.validate({ firstName: 'Guest', lastName: `No ${i}`, note: `visit ${round + 1}` }, key);
            service.store(HQ_CALLER, key, body, round ? getStored(db, customers, key) : undefined);
            clock.advance(step);
          }
        });
      }
    }
    return (db.$client.prepare('SELECT max(seq) AS s FROM changes').get() as { s: number }).s;
  } finally {
    closeDb(db);
  }
}
