/**
 * Zones and tables (issue 29): the floor plan a register shows. Catalog: everyone logged in reads
 * it; ZoneCreate/ZoneUpdate/ZoneDelete write it (test/http/rights.test.ts holds every verb to its
 * right). Table names are unique within a zone; a ticket's location stays free text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(() => hub.close());

const put = (name: string, body: Record<string, unknown>, token?: string) => hub.call('PUT', `/api/zones/${encodeURIComponent(name)}`, body, { token });

describe('/api/zones', () => {
  it('stores a zone with its tables, defaults filled, colour in lower case', async () => {
    const r = await hub.call('POST', '/api/zones', {
      name: 'Terasa',
      order: 2,
      color: '#2E7D32',
      tables: [
        { name: 'T1', x: 0, y: 0, width: 2, height: 2, shape: 'round', seats: 4 },
        { name: 'T2' },
      ],
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe('/api/zones/Terasa');
    expect(r.body).toEqual({
      name: 'Terasa',
      order: 2,
      color: '#2e7d32',
      isActive: true,
      tables: [{ name: 'T1', x: 0, y: 0, width: 2, height: 2, shape: 'Round', seats: 4 }, { name: 'T2' }],
      _v: 1,
    });
    const bare = await expect2xx(hub.call('POST', '/api/zones', { name: 'Bar' }));
    expect(bare).toEqual({ name: 'Bar', order: 0, color: null, isActive: true, tables: [], _v: 1 });
  });

  it('is read by everyone logged in (the catalog a register needs), in order then name', async () => {
    await expect2xx(hub.call('POST', '/api/zones', { name: 'Salón', order: 1 }));
    const nobody = await hub.userWith([]);
    const list = await hub.call('GET', '/api/zones?$sort=order,name', undefined, { token: nobody });
    expect(list.status).toBe(200);
    expect(list.body.items.map((z: any) => z.name)).toEqual(['Bar', 'Salón', 'Terasa']);
    expect((await hub.call('GET', '/api/zones/Terasa', undefined, { token: nobody })).body.tables).toHaveLength(2);
    expect((await hub.call('GET', '/api/zones?isActive=true&order=ge:1', undefined, { token: nobody })).body.totalCount).toBe(2);
    // Writing is not for everyone.
    const refused = await put('Bar', { name: 'Bar', tables: [{ name: '1' }] }, nobody);
    expect([refused.status, refused.body.errorCode]).toEqual([403, 2]);
    expect(refused.body.detail).toContain('ZoneUpdate');
  });

  it('keeps table names unique within a zone, whatever their letter case; the same name in two zones is fine', async () => {
    const twice = await put('Salón', { name: 'Salón', tables: [{ name: 'S1' }, { name: 'S2' }, { name: 's1' }] });
    expect([twice.status, twice.body.errorCode]).toEqual([400, 3]);
    expect(twice.body.errors).toEqual([expect.objectContaining({ memberName: 'tables[2].name', code: 'Unique' })]);
    expect((await put('Salón', { name: 'Salón', order: 1, tables: [{ name: 'T1' }, { name: 'S2' }] })).status).toBe(200);
  });

  it.each([
    [{ color: 'green' }, 'color'],
    [{ color: '#12345' }, 'color'],
    [{ order: 1.5 }, 'order'],
    [{ tables: [{ name: '' }] }, 'tables[0].name'],
    [{ tables: [{ name: ' 7' }] }, 'tables[0].name'],
    [{ tables: [{ name: '7', x: -1 }] }, 'tables[0].x'],
    [{ tables: [{ name: '7', y: 1000 }] }, 'tables[0].y'],
    [{ tables: [{ name: '7', width: 0 }] }, 'tables[0].width'],
    [{ tables: [{ name: '7', height: 101 }] }, 'tables[0].height'],
    [{ tables: [{ name: '7', shape: 'Oval' }] }, 'tables[0].shape'],
    [{ tables: [{ name: '7', seats: -2 }] }, 'tables[0].seats'],
    [{ tables: Array.from({ length: 501 }, (_, i) => ({ name: String(i) })) }, 'tables'],
  ])('refuses %j with 400 naming %s', async (change, member) => {
    const r = await hub.call('POST', '/api/zones', { name: 'Zlá', ...change });
    expect([r.status, r.body.errorCode]).toEqual([400, 3]);
    expect(r.body.errors.map((e: any) => e.memberName)).toEqual([member]);
  });

  it('checks _v and If-Match like every resource, and reaches the change log', async () => {
    const zone = (await hub.call('GET', '/api/zones/Bar')).body;
    const since = (await hub.call('GET', '/api/changes?since=0&$take=1000')).body.lastSeq;
    const moved = await expect2xx(put('Bar', { ...zone, tables: [{ name: 'B1', x: 1, y: 1 }] }));
    expect(moved._v).toBe(2);
    const stale = await put('Bar', { ...zone, tables: [] });
    expect([stale.status, stale.body.errorCode, stale.body.resource.version]).toEqual([409, 6, 2]);
    const changes = (await hub.call('GET', `/api/changes?since=${since}`)).body.items;
    expect(changes).toEqual([expect.objectContaining({ resource: 'zones', key: 'Bar', op: 'upsert', _v: 2 })]);
    const gone = await hub.call('DELETE', '/api/zones/Bar', undefined, { headers: { 'If-Match': '"2"' } });
    expect([gone.status, gone.body.name]).toEqual([200, 'Bar']);
  });
});

describe("a ticket's location", () => {
  it('stays free text: a register that knows no zones, or a table since renamed, still sells', async () => {
    await restaurant(hub);
    const waiter = await register(hub);
    const ticket = await hub.call('POST', '/api/tickets', { location: { tableName: 'Nowhere 9', zoneName: 'No zone' }, items: [item(1, 1)] }, { token: waiter.token });
    expect(ticket.status).toBe(201);
    expect(ticket.body.location).toEqual({ tableName: 'Nowhere 9', zoneName: 'No zone' });
  });
});
