/**
 * Errors and write semantics (CONTRACT §1, §2, §3, §11): every status the configuration resources
 * can produce, the problem+json shape of each, PUT create-or-replace, `_v`, and which body fields
 * the server keeps, drops or ignores.
 */
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type Reply, type TestHub } from '../support/hub.js';

let hub: TestHub;
let nobody: string;
beforeAll(async () => {
  hub = await startHub();
  nobody = await hub.userWith([]);
  expect((await hub.call('POST', '/api/stocks', { name: 'Bar' })).status).toBe(201);
});
afterAll(() => hub.close());

/** Every error: problem+json with the full shape, traceId = X-Request-Id, no stack. */
function expectProblem(r: Reply, status: number, errorCode: number): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({
    type: expect.any(String),
    title: expect.any(String),
    status,
    detail: expect.any(String),
    instance: expect.stringMatching(/^\//),
    traceId: r.headers.get('x-request-id'),
    errorCode,
  });
  expect(r.body.traceId).toBeTruthy();
  const text = JSON.stringify(r.body);
  expect(text).not.toMatch(/\bat .*\.(ts|js):\d+/);
  expect(text).not.toMatch(/node_modules|\/work\/|\.ts\b/);
  expect(r.body).not.toHaveProperty('stack');
}

function expectMember(r: Reply, memberName: string, code: string): void {
  expectProblem(r, 400, 3);
  expect(r.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ memberName, code, message: expect.any(String) })]));
}

async function count(path: string): Promise<number> {
  const r = await hub.call('GET', `${path}?$count=true`);
  expect(r.status).toBe(200);
  return r.body.totalCount as number;
}

/** A raw HTTP request, for bodies and headers fetch() will not send as given. */
function raw(method: string, path: string, body: Buffer | string | undefined, headers: Record<string, string | number>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const u = new URL(hub.url + path);
    const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers: { authorization: `Bearer ${hub.adminToken}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        resolve({ status: res.statusCode ?? 0, headers: h, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

describe('instance', () => {
  it('is the path and query, without a token passed as access_token (a problem body is shown and kept; a token never)', async () => {
    const r = await raw('GET', '/api/events?since=x&ACCESS_TOKEN=secret-token-123&$take=2', undefined, { authorization: '' });
    expect(r.status).toBe(401);
    expect(r.body.instance).toBe('/api/events?since=x&$take=2');
    expect(JSON.stringify(r.body)).not.toContain('secret-token-123');
    const alone = await raw('GET', '/api/events?access_token=secret-token-123', undefined, { authorization: '' });
    expect(alone.body.instance).toBe('/api/events');
    const listed = await hub.call('GET', '/api/stocks?Name=eq:Bar&Foo=1');
    expectProblem(listed, 400, 3);
    expect(listed.body.instance).toBe('/api/stocks?Name=eq:Bar&Foo=1');
  });
});

describe('400 ValidationFailed', () => {
  it('names a member that is required', async () => {
    const r = await hub.call('POST', '/api/devices', { name: 'Till' });
    expectMember(r, 'envName', 'Required');
    expect(r.body.detail).toContain('envName');
    expectMember(await hub.call('POST', '/api/plus', { code: 1, stockName: 'Bar', type: 'Service' }), 'name', 'Required');
    expectMember(await hub.call('POST', '/api/customers', { note: 'no name' }), 'lastName', 'Required');
    expectMember(await hub.call('POST', '/api/paymenttypes', { number: 9, name: 'x' }), 'category', 'Required');
    expectMember(await hub.call('POST', '/api/stocktransfernumberings', { type: 'Income', isActive: false }), 'format', 'Required');
    expectMember(await hub.call('POST', '/api/orderendpoints', { name: 'K' }), 'type', 'Required');
    expectMember(await hub.call('POST', '/api/users', { password: 'x' }), 'userName', 'Required');
  });

  it('names a member that is invalid', async () => {
    expectMember(await hub.call('POST', '/api/customers', { lastName: 'X', isActive: 'yes' }), 'isActive', 'Invalid');
    expectMember(await hub.call('POST', '/api/devices', { name: 'Till', envName: 'Kitchen' }), 'envName', 'Invalid');
    expectMember(await hub.call('POST', '/api/customers', { lastName: 'X', cards: [{ serialNumber: 5 }] }), 'cards[0].serialNumber', 'Invalid');
    expectMember(await hub.call('POST', '/api/customers', { id: 'bad id!', lastName: 'X' }), 'id', 'Invalid');
    expectMember(await hub.call('POST', '/api/fiscaldevices', { name: 'F', driver: 'epson', address: 'sim:x' }), 'driver', 'Invalid');
    expectMember(await hub.call('POST', '/api/fiscaldevices', { name: 'F', driver: 'datecs', address: 'http://x' }), 'address', 'Invalid');
    expectMember(await hub.call('POST', '/api/orderendpoints', { name: 'K', type: 'TM88', address: 'ftp://x' }), 'address', 'Invalid');
    expectMember(await hub.call('POST', '/api/stocktransfernumberings', { type: 'Income', format: 'X-{q}', isActive: false }), 'format', 'Invalid');
  });

  it('names a member that is out of range', async () => {
    expectMember(await hub.call('POST', '/api/customers', { lastName: 'X', discountRate: 150 }), 'discountRate', 'OutOfRange');
    expectMember(await hub.call('POST', '/api/customers', { lastName: 'X', creditRate: -1 }), 'creditRate', 'OutOfRange');
    expectMember(await hub.call('POST', '/api/customers', { lastName: 'X', credit: { amount: 1e15 } }), 'credit.amount', 'OutOfRange');
    expectMember(await hub.call('POST', '/api/paymenttypes', { number: 0, category: 'Cash' }), 'number', 'OutOfRange');
    expectMember(await hub.call('POST', '/api/plus', { code: -1, stockName: 'Bar', name: 'x', type: 'Service' }), 'code', 'OutOfRange');
    expectMember(await hub.call('POST', '/api/plus', { code: 1, stockName: 'Bar', name: 'x', type: 'Service', vatInfo: { category: 1, rate: 120 } }), 'vatInfo.rate', 'OutOfRange');
    expectMember(await hub.call('POST', '/api/stocks', { name: 'S', description: 'x'.repeat(4001) }), 'description', 'OutOfRange');
  });

  it('lists every member at fault at once', async () => {
    const r = await hub.call('POST', '/api/plus', { code: 'one', stockName: 'Bar', type: 'Gadget' });
    expectProblem(r, 400, 3);
    expect(r.body.errors.map((e: { memberName: string }) => e.memberName).sort()).toEqual(['code', 'name', 'type']);
  });

  it('refuses an unknown filter or sort key, naming it', async () => {
    expectMember(await hub.call('GET', '/api/customers?NoSuchFilter=1'), 'NoSuchFilter', 'Unknown');
    const sort = await hub.call('GET', '/api/stocks?$sort=nope');
    expectProblem(sort, 400, 3);
  });

  it('refuses a key in the body that differs from the path', async () => {
    expectMember(await hub.call('PUT', '/api/stocks/Bar', { name: 'Kitchen' }), 'name', 'Invalid');
    expectMember(await hub.call('PUT', '/api/paymenttypes/1', { number: 2, category: 'Cash' }), 'number', 'Invalid');
    expectMember(await hub.call('PUT', '/api/customers/abc', { id: 'abd', lastName: 'X' }), 'id', 'Invalid');
    expect((await hub.call('GET', '/api/stocks/Kitchen')).status).toBe(404);
    expect((await hub.call('GET', '/api/customers/abc')).status).toBe(404);
  });

  it('refuses a POST of a key that exists with code Unique', async () => {
    expectMember(await hub.call('POST', '/api/stocks', { name: 'Bar', description: 'again' }), 'name', 'Unique');
    expectMember(await hub.call('POST', '/api/paymenttypes', { number: 1, category: 'Cash' }), 'number', 'Unique');
    expect((await hub.call('GET', '/api/stocks/Bar')).body).toMatchObject({ description: '', _v: 1 });
  });

  it('refuses other unique clashes with code Unique', async () => {
    expectMember(await hub.call('POST', '/api/users', { userName: 'ADMIN', password: 'x' }), 'userName', 'Unique');
    expect((await hub.call('POST', '/api/plus', { id: 'u1', code: 7, stockName: 'Bar', name: 'a', type: 'Service' })).status).toBe(201);
    expectMember(await hub.call('POST', '/api/plus', { code: 7, stockName: 'Bar', name: 'b', type: 'Service' }), 'code', 'Unique');
    expectMember(await hub.call('POST', '/api/stocktransfernumberings', { type: 'Sale', format: 'S-{i4}' }), 'isActive', 'Unique');
  });

  it('refuses a reference to something that does not exist', async () => {
    const before = await count('/api/plus');
    expectMember(await hub.call('POST', '/api/plus', { code: 1, stockName: 'Nowhere', name: 'x', type: 'Service' }), 'stockName', 'Invalid');
    expectMember(await hub.call('POST', '/api/plus', { code: 1, stockName: 'Bar', name: 'x', type: 'Service', orderEndpointNames: ['Ghost'] }), 'orderEndpointNames[0]', 'Invalid');
    expectMember(await hub.call('POST', '/api/modifiers', { name: 'm', options: [{ id: 'o', pluId: { code: 999, stockName: 'Bar' } }] }), 'options[0].pluId', 'Invalid');
    expect(await count('/api/plus')).toBe(before);
  });

  it('answers malformed JSON with 400', async () => {
    const r = await hub.call('POST', '/api/stocks', undefined, { raw: '{"name": "Broken",', headers: { 'content-type': 'application/json' } });
    expectMember(r, '$body', 'Invalid');
    expect((await hub.call('GET', '/api/stocks/Broken')).status).toBe(404);
  });

  it('answers an empty body on POST and PUT with 400, whatever the content type', async () => {
    for (const [method, path] of [['POST', '/api/stocks'], ['PUT', '/api/stocks/Empty']]) {
      expectMember(await hub.call(method, path, undefined, { headers: { 'content-type': 'application/json' } }), '$body', 'Required');
      expectMember(await hub.call(method, path, undefined, { raw: '', headers: { 'content-type': 'text/plain' } }), '$body', 'Required');
      expectMember(await hub.call(method, path, undefined, { raw: '  \n', headers: { 'content-type': 'application/json' } }), '$body', 'Required');
      expectMember(await hub.call(method, path), '$body', 'Required');
    }
  });

  it('refuses a body that is not an object', async () => {
    for (const body of [[], 'text', 42, null, true]) expectMember(await hub.call('POST', '/api/stocks', body), '$body', 'Invalid');
  });

  it('refuses a bad If-Match', async () => {
    expectMember(await hub.call('PUT', '/api/stocks/Bar', { description: 'x' }, { headers: { 'if-match': 'yesterday' } }), 'If-Match', 'Invalid');
  });

  it('refuses a malformed key in the path', async () => {
    expectMember(await hub.call('GET', '/api/paymenttypes/abc'), 'number', 'Invalid');
    expectMember(await hub.call('PUT', '/api/paymenttypes/0', { category: 'Cash' }), 'number', 'Invalid');
    expectMember(await hub.call('PUT', '/api/customers/has%20space', { lastName: 'X' }), 'id', 'Invalid');
  });
});

describe('401, 403, 404, 405', () => {
  it('401 for a missing, unknown or malformed token', async () => {
    for (const token of [null, 'nope', 'a'.repeat(500)]) {
      const r = await hub.call('POST', '/api/stocks', { name: 'X401' }, { token });
      expectProblem(r, 401, 1);
      expect(r.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect((await hub.call('GET', '/api/stocks/X401')).status).toBe(404);
  });

  it('403 errorCode 2 for a missing right, naming it', async () => {
    const r = await hub.call('POST', '/api/stocks', { name: 'X403' }, { token: nobody });
    expectProblem(r, 403, 2);
    expect(r.body.detail).toContain('StockCreate');
  });

  it('403 errorCode 8 for deleting a stock that holds a plu', async () => {
    expect((await hub.call('POST', '/api/stocks', { name: 'Cellar' })).status).toBe(201);
    expect((await hub.call('POST', '/api/plus', { id: 'wine', code: 1, stockName: 'Cellar', name: 'Wine', type: 'StockItem' })).status).toBe(201);
    const r = await hub.call('DELETE', '/api/stocks/Cellar');
    expectProblem(r, 403, 8);
    expect((await hub.call('GET', '/api/stocks/Cellar')).body._v).toBe(1);
    expect((await hub.call('DELETE', '/api/plus/wine')).status).toBe(200);
    expect((await hub.call('DELETE', '/api/stocks/Cellar')).status).toBe(200);
  });

  it('404 errorCode 7 for an unknown id in the path and an unknown route', async () => {
    for (const [method, path] of [
      ['GET', '/api/customers/nope'],
      ['DELETE', '/api/stocks/nope'],
      ['GET', '/api/paymenttypes/999'],
      ['GET', '/api/no-such-resource'],
      ['POST', '/api/no/such/thing'],
    ]) {
      const r = await hub.call(method, path);
      expectProblem(r, 404, 7);
    }
    expect((await hub.call('GET', '/api/customers/nope')).body.detail).toContain('nope');
  });

  it('405 with a problem body and Allow for a method a path does not offer', async () => {
    for (const [method, path, allow] of [
      ['PATCH', '/api/stocks/x', 'GET, PUT, DELETE'],
      ['POST', '/api/stocks/x', 'GET, PUT, DELETE'],
      ['DELETE', '/api/stocks', 'GET, POST'],
      ['PUT', '/api/customers', 'GET, POST'],
      ['PUT', '/api/auth', 'GET, POST, DELETE'],
    ]) {
      const r = await hub.call(method, path, { name: 'x' });
      expect(r.status, `${method} ${path}`).toBe(405);
      expectProblem(r, 405, r.body.errorCode);
      expect(r.headers.get('allow')).toBe(allow);
    }
    expect((await hub.call('GET', '/api/stocks/x')).status).toBe(404);
  });
});

describe('409 ResourceVersionMismatch', () => {
  it('for a stale _v in the body, with the stored version', async () => {
    expect((await hub.call('PUT', '/api/stocks/V', { description: 'one' })).status).toBe(201);
    expect((await hub.call('PUT', '/api/stocks/V', { description: 'two', _v: 1 })).status).toBe(200);
    const r = await hub.call('PUT', '/api/stocks/V', { description: 'three', _v: 1 });
    expectProblem(r, 409, 6);
    expect(r.body.resource).toEqual({ name: 'Stock', id: 'V', version: 2 });
    expect((await hub.call('GET', '/api/stocks/V')).body).toMatchObject({ description: 'two', _v: 2 });
  });

  it('for a stale If-Match on PUT and DELETE; a matching one passes', async () => {
    const r = await hub.call('PUT', '/api/stocks/V', { description: 'three' }, { headers: { 'if-match': '"1"' } });
    expectProblem(r, 409, 6);
    expect(r.body.resource).toEqual({ name: 'Stock', id: 'V', version: 2 });
    const del = await hub.call('DELETE', '/api/stocks/V', undefined, { headers: { 'if-match': '"5"' } });
    expectProblem(del, 409, 6);
    const get = await hub.call('GET', '/api/stocks/V');
    expect(get.headers.get('etag')).toBe('"2"');
    expect((await hub.call('PUT', '/api/stocks/V', { description: 'three' }, { headers: { 'if-match': '"2"' } })).status).toBe(200);
    expect((await hub.call('DELETE', '/api/stocks/V', undefined, { headers: { 'if-match': 'W/"3"' } })).status).toBe(200);
    // Deleted meanwhile: a PUT expecting the version it read does not bring the stock back (RFC 9110
    // §13.1.1), for an engine resource and for one that prepares asynchronously (a user's password).
    const gone = await hub.call('PUT', '/api/stocks/V', { description: 'four' }, { headers: { 'if-match': '"4"' } });
    expectProblem(gone, 409, 6);
    expect(gone.body.resource).toEqual({ name: 'Stock', id: 'V', version: 0 });
    expect((await hub.call('GET', '/api/stocks/V')).status).toBe(404);
    expectProblem(await hub.call('PUT', '/api/users/nobody-yet', { userName: 'nobody-yet', name: 'N', password: 'secret-pw-1' }, { headers: { 'if-match': '"1"' } }), 409, 6);
    expect((await hub.call('GET', '/api/users/nobody-yet')).status).toBe(404);
    // Without If-Match (a body _v alone included), a PUT still creates.
    expect((await hub.call('PUT', '/api/stocks/V', { description: 'four', _v: 3 })).status).toBe(201);
  });

  it('If-Match: * replaces whatever version is stored, but does not create (RFC 9110 §13.1.1: it asks that one exist)', async () => {
    expect((await hub.call('PUT', '/api/stocks/Star', { description: 'one' })).status).toBe(201);
    const replaced = await hub.call('PUT', '/api/stocks/Star', { description: 'two' }, { headers: { 'if-match': '*' } });
    expect([replaced.status, replaced.body._v]).toEqual([200, 2]);
    const absent = await hub.call('PUT', '/api/stocks/NoStar', { description: 'one' }, { headers: { 'if-match': '*' } });
    expectProblem(absent, 409, 6);
    expect(absent.body.resource).toEqual({ name: 'Stock', id: 'NoStar', version: 0 });
    expect(absent.body.detail).toMatch(/does not exist/);
    expect((await hub.call('GET', '/api/stocks/NoStar')).status).toBe(404);
    // The same for a resource that prepares asynchronously (a user's password hash).
    expectProblem(await hub.call('PUT', '/api/users/star-nobody', { userName: 'star-nobody', name: 'N', password: 'secret-pw-1' }, { headers: { 'if-match': '*' } }), 409, 6);
    expect((await hub.call('GET', '/api/users/star-nobody')).status).toBe(404);
    expect((await hub.call('DELETE', '/api/stocks/Star', undefined, { headers: { 'if-match': '*' } })).status).toBe(200);
  });

  it('when both the body _v and If-Match are sent, either one stale is a 409 (the header was ignored beside a body _v)', async () => {
    expect((await hub.call('PUT', '/api/stocks/VB', { description: 'one' })).status).toBe(201);
    const staleHeader = await hub.call('PUT', '/api/stocks/VB', { description: 'two', _v: 1 }, { headers: { 'if-match': '"7"' } });
    expectProblem(staleHeader, 409, 6);
    expect(staleHeader.body.resource).toEqual({ name: 'Stock', id: 'VB', version: 1 });
    expectProblem(await hub.call('PUT', '/api/stocks/VB', { description: 'two', _v: 7 }, { headers: { 'if-match': '"1"' } }), 409, 6);
    expect((await hub.call('GET', '/api/stocks/VB')).body).toMatchObject({ description: 'one', _v: 1 });
    expect((await hub.call('PUT', '/api/stocks/VB', { description: 'two', _v: 1 }, { headers: { 'if-match': '"1"' } })).status).toBe(200);
    // The same for the settings the hub keeps outside the engine, and for an order's state.
    const settings = await hub.call('GET', '/api/receipts/settings');
    const { _v: v, effective: _e, ...rest } = settings.body as Record<string, unknown>;
    const stale = await hub.call('PUT', '/api/receipts/settings', { ...rest, _v: v }, { headers: { 'if-match': `"${Number(v) + 3}"` } });
    expectProblem(stale, 409, 6);
  });

  it('numeric keys are reported as numbers', async () => {
    const r = await hub.call('PUT', '/api/paymenttypes/1', { name: 'Cash', category: 'Cash', isChangeable: true, _v: 99 });
    expectProblem(r, 409, 6);
    expect(r.body.resource).toEqual({ name: 'PaymentType', id: 1, version: 1 });
  });
});

describe('413, 415', () => {
  it('413 for a body over 1 MiB', async () => {
    const before = await count('/api/stocks');
    const big = JSON.stringify({ name: 'Big', description: 'x', filler: 'y'.repeat(1024 * 1024) });
    expectProblem(await hub.call('POST', '/api/stocks', undefined, { raw: big, headers: { 'content-type': 'application/json' } }), 413, 3);
    // Without Content-Length (chunked), the limit still holds.
    const chunked = await raw('POST', '/api/stocks', big, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    expectProblem(chunked, 413, 3);
    expect(await count('/api/stocks')).toBe(before);
    // Just under the limit is read (and refused only for what it says).
    const under = JSON.stringify({ name: 'Big', meta: 'z'.repeat(1024 * 1024 - 100) });
    const ok = await hub.call('POST', '/api/stocks', undefined, { raw: under, headers: { 'content-type': 'application/json' } });
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ name: 'Big', description: '', _v: 1 });
  });

  it('415 for a non-empty body that is not JSON', async () => {
    const before = await count('/api/stocks');
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const r = await hub.call('POST', '/api/stocks', undefined, { raw: '{"name":"NotJson"}', headers: { 'content-type': type } });
      expectProblem(r, 415, 3);
    }
    expectProblem(await raw('POST', '/api/stocks', '{"name":"NotJson"}', { 'content-length': 18 }), 415, 3);
    expect(await count('/api/stocks')).toBe(before);
    // A charset parameter and +json types are JSON.
    expect((await hub.call('POST', '/api/stocks', undefined, { raw: '{"name":"Charset"}', headers: { 'content-type': 'application/json; charset=utf-8' } })).status).toBe(201);
    expect((await hub.call('POST', '/api/stocks', undefined, { raw: '{"name":"Plus"}', headers: { 'content-type': 'application/merge-patch+json' } })).status).toBe(201);
  });
});

describe('415 for a compressed body', () => {
  it('a JSON body sent with a Content-Encoding the hub does not undo is 415, and nothing is stored', async () => {
    const before = await count('/api/stocks');
    const json = '{"name":"Zipped"}';
    const zipped = await raw('POST', '/api/stocks', gzipSync(json), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expectProblem(zipped, 415, 3);
    expect(zipped.body.detail).toMatch(/gzip/);
    // Claimed but not applied is refused alike: the hub cannot tell, and reading it as JSON would guess.
    expectProblem(await raw('POST', '/api/stocks', json, { 'content-type': 'application/json', 'content-encoding': 'br' }), 415, 3);
    expect(await count('/api/stocks')).toBe(before);
    expect((await raw('POST', '/api/stocks', json, { 'content-type': 'application/json', 'content-encoding': 'identity' })).status).toBe(201);
  });
});

describe('X-Request-Id', () => {
  it('is on every response and a sane incoming one is kept', async () => {
    const ok = await hub.call('GET', '/api/stocks');
    expect(ok.headers.get('x-request-id')).toMatch(/\S/);
    const r = await hub.call('GET', '/api/stocks/none', undefined, { headers: { 'x-request-id': 'till-1.42' } });
    expect(r.headers.get('x-request-id')).toBe('till-1.42');
    expect(r.body.traceId).toBe('till-1.42');
    const bad = await hub.call('GET', '/api/stocks/none', undefined, { headers: { 'x-request-id': 'x'.repeat(300) } });
    expect(bad.headers.get('x-request-id')).not.toBe('x'.repeat(300));
    expect(bad.body.traceId).toBe(bad.headers.get('x-request-id'));
  });
});

describe('writes', () => {
  it('PUT creates (201 + Location) then updates (200); _v is 1 on create and grows by 1 per change', async () => {
    const created = await hub.call('PUT', '/api/customers/put-1', { firstName: 'Peter', lastName: 'Pan' });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/api/customers/put-1');
    expect(created.headers.get('etag')).toBe('"1"');
    expect(created.body).toMatchObject({ id: 'put-1', fullName: 'Peter Pan', _v: 1 });
    for (let v = 2; v <= 4; v++) {
      const r = await hub.call('PUT', '/api/customers/put-1', { firstName: 'Peter', lastName: `Pan ${v}`, _v: v - 1 });
      expect(r.status).toBe(200);
      expect(r.headers.get('location')).toBeNull();
      expect(r.body._v).toBe(v);
    }
    expect((await hub.call('GET', '/api/customers/put-1')).body).toMatchObject({ lastName: 'Pan 4', _v: 4 });
    // PUT replaces the whole resource: a member left out falls back to its default.
    const replaced = await hub.call('PUT', '/api/customers/put-1', { lastName: 'Pan' });
    expect(replaced.body).toMatchObject({ firstName: '', lastName: 'Pan', _v: 5 });
  });

  it('POST answers 201 with Location, also for a generated id and an int key', async () => {
    const r = await hub.call('POST', '/api/customers', { lastName: 'Generated' });
    expect(r.status).toBe(201);
    expect(r.body.id).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
    expect(r.headers.get('location')).toBe(`/api/customers/${r.body.id}`);
    const named = await hub.call('POST', '/api/stocks', { name: 'Wine cellar' });
    expect(named.headers.get('location')).toBe('/api/stocks/Wine%20cellar');
    expect((await hub.call('GET', named.headers.get('location')!)).status).toBe(200);
    const pt = await hub.call('POST', '/api/paymenttypes', { number: 7, category: 'Voucher' });
    expect(pt.headers.get('location')).toBe('/api/paymenttypes/7');
  });

  it('DELETE answers 200 with the deleted model', async () => {
    expect((await hub.call('POST', '/api/modifiers', { id: 'gone', name: 'Gone' })).status).toBe(201);
    const r = await hub.call('DELETE', '/api/modifiers/gone');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 'gone', name: 'Gone', _v: 1 });
    expectProblem(await hub.call('DELETE', '/api/modifiers/gone'), 404, 7);
  });

  it('ignores server-owned fields in bodies', async () => {
    const c = await hub.call('POST', '/api/customers', {
      id: 'owned',
      lastName: 'Owned',
      status: 'Expired',
      fullName: 'Fake',
      creditTransactions: [{ at: 'x', amount: 1, balance: 1, userName: 'x' }],
      _v: 42,
    });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ status: 'Valid', fullName: 'Owned', creditTransactions: [], _v: 1 });
    expect((await hub.call('POST', '/api/plus', { id: 'owned', code: 100, stockName: 'Bar', name: 'x', type: 'StockItem', stockQuantity: 500 })).body.stockQuantity).toBe(0);
    const p = await hub.call('PUT', '/api/plus/owned', { code: 100, stockName: 'Bar', name: 'y', type: 'StockItem', stockQuantity: 9 });
    expect(p.body).toMatchObject({ stockQuantity: 0, _v: 2 });
    const f = await hub.call('POST', '/api/fiscaldevices', { name: 'Owned', driver: 'simulator', address: 'sim:1', status: { online: true, paper: 'ok', lastError: 'x', fiscalMemorySerialNumber: 'FAKE', dailySalesReportNumber: 99 } });
    expect(f.status).toBe(201);
    expect(f.body.status).toMatchObject({ fiscalMemorySerialNumber: null, dailySalesReportNumber: null });
    expect(JSON.stringify((await hub.call('GET', '/api/users/admin')).body)).not.toContain('passwordHash');
    const u = await hub.call('PUT', '/api/users/owned', { userName: 'owned', password: 'pw', passwordHash: 'scrypt$1$1$1$AA==$AA==' });
    expect(u.status).toBe(201);
    expect((await hub.call('POST', '/api/auth', { userName: 'owned', password: 'pw', deviceName: 'BackOffice' }, { token: null })).status).toBe(200);
  });

  it('drops unknown top-level fields', async () => {
    const r = await hub.call('POST', '/api/stocks', { name: 'Extra', description: 'd', color: 'red', nested: { a: 1 } });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ name: 'Extra', description: 'd', _v: 1 });
    expect((await hub.call('GET', '/api/stocks/Extra')).body).toEqual({ name: 'Extra', description: 'd', _v: 1 });
  });

  it('stores free-form meta, preferences and settings as given', async () => {
    const meta = { loyalty: { tier: 'gold', since: '2020-01-01', tags: ['a', 1, null, true, { deep: [[]] }] }, n: 1.23456789, empty: {}, long: 'q'.repeat(5000) };
    const c = await hub.call('POST', '/api/customers', { id: 'meta', lastName: 'Meta', meta, address: { street: 'Hlavná 1', extra: { floor: 3 } } });
    expect(c.status).toBe(201);
    const got = (await hub.call('GET', '/api/customers/meta')).body;
    expect(got.meta).toEqual(meta);
    expect(got.address).toEqual({ street: 'Hlavná 1', extra: { floor: 3 } });
    const preferences = { theme: 'dark', layout: { columns: 4, favourites: [1, 2, 3] } };
    const settings = { DefaultFiscalName: 'FP-700', IsBeepEnabled: 'true', 'Odd key with spaces': '' };
    const d = await hub.call('PUT', '/api/devices/Meta till', { envName: 'cashregister', preferences, settings, roles: ['waiter'] });
    expect(d.status).toBe(201);
    expect((await hub.call('GET', '/api/devices/Meta till')).body).toMatchObject({ envName: 'CashRegister', preferences, settings, roles: ['waiter'] });
    const o = await hub.call('POST', '/api/orderendpoints', { name: 'Meta kds', type: 'tablet', settings: { DoubleHeightFont: 'false' } });
    expect(o.body).toMatchObject({ type: 'Tablet', settings: { DoubleHeightFont: 'false' } });
  });

  it('refuses device and order-endpoint settings with a non-string value', async () => {
    for (const value of [true, 1, null, { a: 'b' }, ['x']]) {
      expectMember(await hub.call('POST', '/api/devices', { name: 'Bad settings', envName: 'Tool', settings: { IsBeepEnabled: value } }), 'settings.IsBeepEnabled', 'Invalid');
      expectMember(await hub.call('POST', '/api/orderendpoints', { name: 'Bad settings', type: 'Tablet', settings: { X: value } }), 'settings.X', 'Invalid');
      expectMember(await hub.call('POST', '/api/fiscaldevices', { name: 'Bad settings', driver: 'simulator', address: 'sim:x', settings: { X: value } }), 'settings.X', 'Invalid');
    }
    expect((await hub.call('GET', '/api/devices/Bad settings')).status).toBe(404);
    expect((await hub.call('GET', '/api/orderendpoints/Bad settings')).status).toBe(404);
  });

  it('refuses a kitchen-ticket setting of an order endpoint that is not "true" or "false" (CONTRACT §8), naming it', async () => {
    for (const flag of ['IsBeepEnabled', 'HighlightOrderNumber', 'DoubleHeightFont', 'DoubleWidthFont']) {
      for (const value of ['yes', '1', 'on']) {
        const r = await hub.call('POST', '/api/orderendpoints', { name: 'Flags', type: 'TM88', address: 'tcp://127.0.0.1:9', settings: { [flag]: value } });
        expectMember(r, `settings.${flag}`, 'Invalid');
        expect(r.body.detail).toContain(flag);
      }
    }
    expect((await hub.call('GET', '/api/orderendpoints/Flags')).status).toBe(404);
    const ok = await hub.call('POST', '/api/orderendpoints', {
      name: 'Flags',
      type: 'TM88',
      address: 'tcp://127.0.0.1:9',
      settings: { IsBeepEnabled: 'true', HighlightOrderNumber: 'False', DoubleHeightFont: '', DoubleWidthFont: 'false', Other: 'yes' },
    });
    expect(ok.status).toBe(201);
  });
});
