/**
 * Broken text and oversized queries (CONTRACT §12, issue 17): a lone surrogate or a NUL anywhere is a
 * 400 naming where, with nothing stored; limits on sort keys, operations and in-lists are 400s, never
 * SQLite's 500s; headers and URLs too large get 431 and bad request lines 400, as problem+json; an
 * upload the client abandons is logged as a client abort, never as a 500.
 */
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../hub/core/log.js';
import { startHub, type Reply, type TestHub } from '../support/hub.js';

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l));
    done();
  },
});
let hub: TestHub;
beforeAll(async () => {
  hub = await startHub({ log: createLogger('info', sink) });
});
afterAll(() => hub.close());

function expect400(r: Reply, member: string): void {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body.errors?.[0]?.memberName).toBe(member);
}
/** The JSON text of `body`, with `\ud800` spelled as a JSON escape (JSON.stringify would keep it escaped too). */
const raw = (json: string) => ({ raw: json, headers: { 'content-type': 'application/json' } });

describe('broken text', () => {
  it('a lone surrogate in a key is a 400 naming it, nothing is stored, and health stays ok', async () => {
    const bodies: Array<[string, string]> = [
      ['/api/orderendpoints', '{"name":"Bar\\ud800","type":"Tablet"}'],
      ['/api/stocks', '{"name":"Sklad\\udc00"}'],
      ['/api/devices', '{"name":"Pokladňa\\ud83d","envName":"Tool"}'],
      ['/api/fiscaldevices', '{"name":"FP\\ud800","driver":"simulator","address":"sim:x"}'],
    ];
    for (const [path, json] of bodies) {
      const before = (await hub.call('GET', `${path}?$count=true`)).body.totalCount;
      expect400(await hub.call('POST', path, undefined, raw(json)), 'name');
      expect((await hub.call('GET', `${path}?$count=true`)).body.totalCount).toBe(before);
    }
    const health = await hub.call('GET', '/api/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
  });

  it('a NUL or a lone surrogate anywhere in a body (values, nested, keys of free objects) is a 400 naming where', async () => {
    expect400(await hub.call('POST', '/api/stocks', undefined, raw('{"name":"Ok","description":"a\\u0000b"}')), 'description');
    expect400(await hub.call('POST', '/api/customers', undefined, raw('{"lastName":"X","cards":[{"serialNumber":"C\\udfff1"}]}')), 'cards[0].serialNumber');
    expect400(await hub.call('POST', '/api/customers', undefined, raw('{"lastName":"X","meta":{"k\\ud800":1}}')), 'meta');
    expect400(await hub.call('POST', '/api/auth', undefined, { ...raw('{"userName":"admin\\u0000","password":"x","deviceName":"BackOffice"}'), token: null }), 'userName');
    // A whole emoji (a surrogate pair) is text like any other.
    const ok = await hub.call('POST', '/api/stocks', undefined, raw('{"name":"Bar \\ud83c\\udf7a"}'));
    expect(ok.status).toBe(201);
    expect(ok.body.name).toBe('Bar 🍺');
    expect((await hub.call('GET', `/api/stocks/${encodeURIComponent('Bar 🍺')}`)).status).toBe(200);
  });

  it('a body that is not UTF-8 is malformed (400 naming $body), never stored with its bytes replaced', async () => {
    const before = (await hub.call('GET', '/api/stocks?$count=true')).body.totalCount;
    const bytes = Buffer.concat([Buffer.from('{"name":"Sklad '), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const r = await fetch(`${hub.url}/api/stocks`, { method: 'POST', headers: { authorization: `Bearer ${hub.adminToken}`, 'content-type': 'application/json' }, body: bytes });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { errors: Array<{ memberName: string }> }).errors[0].memberName).toBe('$body');
    expect((await hub.call('GET', '/api/stocks?$count=true')).body.totalCount).toBe(before);
    // Two-byte and four-byte UTF-8 are text like any other.
    const ok = await fetch(`${hub.url}/api/stocks`, { method: 'POST', headers: { authorization: `Bearer ${hub.adminToken}`, 'content-type': 'application/json' }, body: Buffer.from('{"name":"Šopa 🍺"}') });
    expect(ok.status).toBe(201);
  });

  it('a NUL or undecodable bytes in a query are a 400 naming the parameter', async () => {
    expect400(await hub.call('GET', '/api/stocks?name=a%00b'), 'name');
    expect400(await hub.call('GET', '/api/stocks?name=%ED%A0%80'), 'name');
  });

  it('the pages answer a NUL or undecodable bytes in their path or query with a 400 too', async () => {
    expect400(await hub.call('GET', '/?x=%00', undefined, { token: null }), 'x');
    expect400(await hub.call('GET', '/kds/a%00b', undefined, { token: null }), '$path');
    expect400(await hub.call('GET', '/pos/%ED%A0%80', undefined, { token: null }), '$path');
    expect((await hub.call('GET', '/kds/Kuchy%C5%88a', undefined, { token: null })).status).toBe(200);
  });
});

describe('limits of one query (CONTRACT §12)', () => {
  it('more than 32 sort keys, 64 operations or 100 in-values is a 400, never a 500', async () => {
    expect400(await hub.call('GET', `/api/tickets?$sort=${Array.from({ length: 33 }, () => 'name').join(',')}`), '$sort');
    expect((await hub.call('GET', `/api/tickets?$sort=${Array.from({ length: 32 }, () => 'name').join(',')}`)).status).toBe(200);
    expect400(await hub.call('GET', `/api/tickets?Name=${Array.from({ length: 65 }, (_, i) => `ne:x${i}`).join(';')}`), 'Name');
    expect((await hub.call('GET', `/api/tickets?Name=${Array.from({ length: 64 }, (_, i) => `ne:x${i}`).join(';')}`)).status).toBe(200);
    expect400(await hub.call('GET', `/api/tickets?Name=in:${Array.from({ length: 101 }, (_, i) => `x${i}`).join(',')}`), 'Name');
    expect((await hub.call('GET', `/api/tickets?Name=in:${Array.from({ length: 100 }, (_, i) => `x${i}`).join(',')}`)).status).toBe(200);
    // 1,000 repeated parameters (ANDed) stay within SQLite's limits.
    const many = Array.from({ length: 1000 }, (_, i) => `Name=ne:x${i}`).join('&');
    const r = await hub.call('GET', `/api/tickets?${many}`);
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  });
});

describe('what the HTTP parser refuses', () => {
  /** Sends raw bytes and reads the whole answer. */
  const rawHttp = (bytes: string) =>
    new Promise<string>((resolve, reject) => {
      const { port } = new URL(hub.url);
      const socket = connect(Number(port), '127.0.0.1');
      let out = '';
      socket.on('data', (c) => (out += c.toString('utf8')));
      socket.on('end', () => resolve(out));
      socket.on('error', reject);
      socket.write(bytes);
    });
  const problemOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

  it('headers too large: 431 as problem+json', async () => {
    const answer = await rawHttp(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/content-type: application\/problem\+json/i);
    expect(problemOf(answer)).toMatchObject({ status: 431, errorCode: 3, traceId: expect.any(String) });
  });

  it('a URL too large: 431 as problem+json', async () => {
    const answer = await rawHttp(`GET /api/stocks?name=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(problemOf(answer).status).toBe(431);
  });

  it('a bad request line: 400 as problem+json', async () => {
    const answer = await rawHttp('THIS IS NOT HTTP\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(problemOf(answer)).toMatchObject({ status: 400, errorCode: 3 });
  });

  it('an upload the client abandons is logged as a client abort, not as a 500', async () => {
    const before = lines.length;
    const answer = await new Promise<void>((resolve) => {
      const { port } = new URL(hub.url);
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(`POST /api/stocks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${hub.adminToken}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":"half`);
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
      socket.on('error', () => resolve());
    });
    void answer;
    await new Promise((r) => setTimeout(r, 200));
    const logged = lines.slice(before);
    expect(logged.some((l) => l.msg === 'client aborted its request')).toBe(true);
    expect(logged.some((l) => l.msg === 'unexpected error' || (typeof l.status === 'number' && l.status >= 500))).toBe(false);
    expect((await hub.call('GET', '/api/stocks/half')).status).toBe(404);
  });
});

describe('the request log', () => {
  it('names the path as the client sent it, mount path included (no query: it may hold a filter on a customer)', async () => {
    const before = lines.length;
    expect((await hub.call('GET', '/api/users?$take=1')).status).toBe(200);
    expect((await hub.call('GET', '/api/nothing-here')).status).toBe(404);
    // The log line is written when the answer has finished: wait for both.
    await expect.poll(() => lines.slice(before).filter((l) => l.msg === 'request').length).toBe(2);
    const paths = lines.slice(before).filter((l) => l.msg === 'request').map((l) => [l.path, l.status]);
    expect(paths).toEqual([
      ['/api/users', 200],
      ['/api/nothing-here', 404],
    ]);
  });
});
