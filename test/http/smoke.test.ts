import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(() => hub.close());

describe('foundation smoke', () => {
  it('creates, reads, replaces and deletes a stock with _v growing', async () => {
    const created = await hub.call('POST', '/api/stocks', { name: 'Bar', description: 'drinks' });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/api/stocks/Bar');
    expect(created.body).toEqual({ name: 'Bar', description: 'drinks', _v: 1 });
    const put = await hub.call('PUT', '/api/stocks/Bar', { name: 'Bar', description: 'all drinks', _v: 1 });
    expect(put.status).toBe(200);
    expect(put.body._v).toBe(2);
    const stale = await hub.call('PUT', '/api/stocks/Bar', { description: 'x', _v: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ errorCode: 6, resource: { name: 'Stock', id: 'Bar', version: 2 } });
    const del = await hub.call('DELETE', '/api/stocks/Bar');
    expect(del.status).toBe(200);
    expect(del.body.description).toBe('all drinks');
    expect((await hub.call('GET', '/api/stocks/Bar')).status).toBe(404);
  });

  it('answers 401 with WWW-Authenticate and a problem body without a token', async () => {
    const r = await hub.call('GET', '/api/stocks', undefined, { token: null });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe('Bearer');
    expect(r.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(r.body.traceId).toBe(r.headers.get('x-request-id'));
    expect(r.body.errorCode).toBe(1);
  });
});

describe('whole-table counts', () => {
  it('follow every write (the cached count of an unfiltered list is dropped when the change log moves)', async () => {
    const count = async () => (await hub.call('GET', '/api/stocks?$count=true')).body.totalCount as number;
    const before = await count();
    expect(await count()).toBe(before);
    await hub.call('POST', '/api/stocks', { name: 'CountMe' });
    expect(await count()).toBe(before + 1);
    expect((await hub.call('GET', '/api/stocks')).body.totalCount).toBe(before + 1);
    await hub.call('DELETE', '/api/stocks/CountMe');
    expect(await count()).toBe(before);
  });

  it('answers lists and single resources with _v spliced into the stored JSON', async () => {
    await hub.call('POST', '/api/stocks', { name: 'Spliced', description: 'x' });
    const one = await hub.call('GET', '/api/stocks/Spliced');
    expect(one.body).toEqual({ name: 'Spliced', description: 'x', _v: 1 });
    expect(one.headers.get('etag')).toBe('"1"');
    expect(one.headers.get('content-type')).toMatch(/^application\/json/);
    const list = await hub.call('GET', '/api/stocks?name=Spliced');
    expect(list.body).toEqual({ items: [{ name: 'Spliced', description: 'x', _v: 1 }], count: 1, totalCount: 1 });
  });
});
