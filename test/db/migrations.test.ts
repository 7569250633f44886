import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(() => hub.close());

describe('migration 0004 (customer search text)', () => {
  it('fills search_text for customers stored before it, so Search finds them', async () => {
    const r = await hub.call('POST', '/api/customers', { firstName: 'Ľubomír', lastName: 'Šťastný', company: { name: 'Pekáreň s.r.o.', vatId: 'SK2020', taxId: '777' }, note: 'VIP' });
    expect(r.status).toBe(201);
    // As a customer written by the previous version looks: no search text yet.
    hub.db.$client.prepare('UPDATE customers SET search_text = NULL').run();
    expect((await hub.call('GET', '/api/customers?Search=šťast')).body.totalCount).toBe(0);
    const migration = readFileSync(new URL('../../db/migrations/0004_customer_search.sql', import.meta.url), 'utf8');
    const backfill = migration.split('--> statement-breakpoint').find((part) => part.includes('UPDATE'))!;
    hub.db.$client.exec(backfill);
    for (const term of ['ŠŤAST', 'ľubo', 'pekáreň', 'sk2020', '777', 'vip']) {
      expect((await hub.call('GET', `/api/customers?Search=${encodeURIComponent(term)}`)).body.totalCount, term).toBe(1);
    }
  });
});
