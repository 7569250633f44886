/**
 * A ticket write writes what changed and nothing else (issue 31): SQLite rewrites every index on a
 * column an UPDATE sets, changed or not, and every child row deleted and inserted again is written
 * twice, so an edit of an open ticket used to rewrite all of the ticket's index entries and all of
 * its items. Read from the WAL: the pages one commit wrote, by the table or index they belong to.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whenDurable } from '../../db/client.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';

let hub: TestHub;
let token: string;
beforeAll(async () => {
  hub = await startHub();
  await restaurant(hub);
  token = (await register(hub)).token;
});
afterAll(() => hub.close());

/** What one request's commit wrote: the names of the tables and indexes of the pages in the WAL. */
async function pagesWrittenBy(request: () => Promise<unknown>): Promise<string[]> {
  await whenDurable(hub.db);
  hub.db.$client.pragma('wal_checkpoint(TRUNCATE)');
  await request();
  await whenDurable(hub.db);
  const wal = readFileSync(join(hub.dataDir, 'hub.sqlite-wal'));
  const pageSize = wal.readUInt32BE(8);
  const owner = new Map((hub.db.$client.prepare('SELECT pageno, name FROM dbstat').all() as Array<{ pageno: number; name: string }>).map((r) => [r.pageno, r.name]));
  const names: string[] = [];
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) names.push(owner.get(wal.readUInt32BE(at)) ?? 'new page');
  return names;
}

/** Rows of ticket_items the request inserted, deleted and updated (temporary triggers on the hub's own connection). */
async function itemWritesBy(request: () => Promise<unknown>): Promise<{ inserted: number; deleted: number; updated: number }> {
  const c = hub.db.$client;
  await whenDurable(hub.db);
  c.exec(`CREATE TEMP TABLE IF NOT EXISTS item_writes (op TEXT);
    DELETE FROM item_writes;
    CREATE TEMP TRIGGER IF NOT EXISTS item_ins AFTER INSERT ON main.ticket_items BEGIN INSERT INTO item_writes VALUES ('inserted'); END;
    CREATE TEMP TRIGGER IF NOT EXISTS item_del AFTER DELETE ON main.ticket_items BEGIN INSERT INTO item_writes VALUES ('deleted'); END;
    CREATE TEMP TRIGGER IF NOT EXISTS item_upd AFTER UPDATE ON main.ticket_items BEGIN INSERT INTO item_writes VALUES ('updated'); END;`);
  try {
    await request();
    const count = (op: string) => c.prepare('SELECT count(*) FROM item_writes WHERE op = ?').pluck().get(op) as number;
    return { inserted: count('inserted'), deleted: count('deleted'), updated: count('updated') };
  } finally {
    c.exec('DROP TRIGGER item_ins; DROP TRIGGER item_del; DROP TRIGGER item_upd;');
  }
}

describe('a ticket write', () => {
  it("an item added to an open ticket touches none of the ticket's indexes and leaves its other items as they were", async () => {
    const t = await expect2xx(hub.call('POST', '/api/tickets', { name: 'T', location: { tableName: '4' }, items: [item(4, 1), item(5, 1)] }, { token }));
    const pages = await pagesWrittenBy(() => expect2xx(hub.call('PUT', `/api/tickets/${t.id}`, { ...t, items: [...t.items, item(4, 2)] }, { token })));
    expect(pages).toContain('tickets');
    expect(pages.filter((p) => p.startsWith('tickets_') || p === 'sqlite_autoindex_tickets_1')).toEqual([]);
    const now = await expect2xx(hub.call('GET', `/api/tickets/${t.id}`, undefined, { token }));
    expect(await itemWritesBy(() => expect2xx(hub.call('PUT', `/api/tickets/${t.id}`, { ...now, items: [...now.items, item(5, 2)] }, { token })))).toEqual({
      inserted: 1,
      deleted: 0,
      updated: 0,
    });
    // And the ticket reads back as written, by its columns too.
    const byTable = await expect2xx(hub.call('GET', '/api/tickets?IsClosed=false&LocationTableName=4', undefined, { token }));
    expect(byTable.items.map((x: { id: string; items: unknown[] }) => [x.id, x.items.length])).toEqual([[t.id, 4]]);
  });

  it('a changed item is written again, a removed one deleted, a changed column and its index entry updated', async () => {
    const t = await expect2xx(hub.call('POST', '/api/tickets', { name: 'U', location: { tableName: '5' }, items: [item(4, 1), item(5, 1), item(4, 1)] }, { token }));
    const items = [t.items[0], { ...t.items[1], plu: { code: 4, stockName: 'Menu' } }];
    const writes = await itemWritesBy(() => expect2xx(hub.call('PUT', `/api/tickets/${t.id}`, { ...t, location: { tableName: '6' }, items }, { token })));
    // Item 1 as it was; item 2 changed its plu (deleted and inserted); item 3 gone.
    expect(writes).toEqual({ inserted: 1, deleted: 2, updated: 0 });
    const plus = hub.db.$client.prepare('SELECT plu_code FROM ticket_items WHERE ticket_id = ? ORDER BY item_id').pluck().all(t.id);
    expect(plus).toEqual([4, 4]);
    expect((await expect2xx(hub.call('GET', '/api/tickets?IsClosed=false&LocationTableName=5', undefined, { token }))).items).toEqual([]);
    expect((await expect2xx(hub.call('GET', '/api/tickets?IsClosed=false&LocationTableName=6', undefined, { token }))).items.map((x: { id: string }) => x.id)).toEqual([t.id]);
  });
});
