/**
 * The whole-table totalCount is kept between requests and brought up to date from the change log
 * (engine/repo.ts countAll): it must stay exact through creates, updates, deletes and compaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compact } from '../../hub/engine/change-log.js';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(() => hub.close());

const total = async () => {
  const r = await hub.call('GET', '/api/customers?$count=true');
  expect(r.status).toBe(200);
  return r.body.totalCount as number;
};
const counted = () => (hub.db.$client.prepare('SELECT count(*) AS n FROM customers').get() as { n: number }).n;
const ok = async (p: Promise<{ status: number }>) => expect((await p).status).toBeLessThan(300);

describe('whole-table totalCount', () => {
  it('follows creates, updates and deletes exactly', async () => {
    const start = await total();
    expect(start).toBe(counted());
    for (const id of ['c1', 'c2', 'c3']) await ok(hub.call('POST', '/api/customers', { id, firstName: 'A', lastName: id }));
    expect(await total()).toBe(start + 3);
    await ok(hub.call('PUT', '/api/customers/c1', { id: 'c1', firstName: 'B', lastName: 'c1' })); // an update
    await ok(hub.call('PUT', '/api/customers/c4', { id: 'c4', firstName: 'A', lastName: 'c4' })); // a create by PUT
    expect(await total()).toBe(start + 4);
    await ok(hub.call('DELETE', '/api/customers/c2'));
    expect(await total()).toBe(start + 3);
    // Deleted and made again: a new row at _v 1.
    await ok(hub.call('POST', '/api/customers', { id: 'c2', firstName: 'A', lastName: 'again' }));
    // Writes to other resources move the log without touching this table.
    await ok(hub.call('POST', '/api/stocks', { name: 'Cellar' }));
    expect(await total()).toBe(start + 4);
    expect(await total()).toBe(counted());
  });

  it('counts the table again once compaction removed entries it would need', async () => {
    const before = await total();
    await ok(hub.call('POST', '/api/customers', { id: 'c9', firstName: 'A', lastName: 'c9' }));
    await ok(hub.call('POST', '/api/customers', { id: 'c10', firstName: 'A', lastName: 'c10' }));
    await ok(hub.call('DELETE', '/api/customers/c3'));
    hub.clock.advance(40 * 86_400_000);
    expect(compact(hub.db, hub.clock.now().getTime())).toBeGreaterThan(0);
    hub.adminToken = await hub.login('admin', ADMIN_PASSWORD, 'BackOffice'); // the old one expired meanwhile
    expect(await total()).toBe(before + 1);
    expect(await total()).toBe(counted());
  });
});
