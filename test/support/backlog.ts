/**
 * A store's change log made ahead of time, for the chain's catch-up tests and bench: customers
 * validated by their resource, stored by the engine's repository (row, `_v`, the change-log entry
 * with its document, as on a hub in a chain) in large transactions, on a clock the caller drives.
 * The write hooks are skipped: a customer without credit needs none, and a week of them is made in
 * a few seconds instead of a minute.
 */
import { join } from 'node:path';
import { closeDb, inTransaction, openDb } from '../../db/client.js';
import { FakeClock } from '../../hub/core/clock.js';
import { keepDocsInLog } from '../../hub/engine/change-log.js';
import { ResourceService } from '../../hub/engine/service.js';
import { putStored } from '../../hub/engine/repo.js';
import { customers } from '../../hub/resources.js';

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
            putStored(db, customers, key, { ...body, fullName: `Guest No ${i}`, creditTransactions: [] }, round + 1, clock.now().getTime());
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
