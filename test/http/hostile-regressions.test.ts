/**
 * What the generated hostile-input runs found (test/http/generated-hostile.test.ts, `npm run
 * hostile`), one test each. Every call goes through the harness, which holds each answer against
 * the OpenAPI document: an answer the document does not describe fails here too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type Reply, type TestHub } from '../support/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub();
  expect((await hub.call('POST', '/api/stocks', { name: 'Main' })).status).toBe(201);
});
afterAll(() => hub.close());

function expect400Naming(r: Reply, member: string): void {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body.errors.map((e: { memberName: string }) => e.memberName)).toEqual([member]);
}

describe('a path segment that is not text', () => {
  it('malformed percent-encoding answers 400 naming the path parameter (express said "Failed to decode param" and named nothing)', async () => {
    expect400Naming(await hub.call('GET', '/api/tickets/%zz'), 'id');
    expect400Naming(await hub.call('DELETE', '/api/stocks/%ED%A0%80'), 'name');
    expect400Naming(await hub.call('GET', '/api/paymenttypes/%'), 'number');
    expect400Naming(await hub.call('POST', '/api/fiscaldevices/%C3%28/reports/x'), 'name');
    expect400Naming(await hub.call('POST', '/api/fiscaldevices/FP1/reports/%E2%82'), 'kind');
    expect400Naming(await hub.call('GET', '/api/backups/%FF%FE'), 'file');
  });

  it('a NUL answers 400 naming the parameter, on every operation (keys checked by their resource before, the others not at all)', async () => {
    expect400Naming(await hub.call('GET', '/api/orderendpoints/x%00/status'), 'name');
    expect400Naming(await hub.call('DELETE', '/api/kds/pairings/x%00'), 'id');
    expect400Naming(await hub.call('GET', '/api/backups/hub-1.sqlite%00'), 'file');
  });
});

describe('a query parameter without a name', () => {
  it('answers 400 naming the query ($query), not a member named ""', async () => {
    expect400Naming(await hub.call('GET', '/api/stocks?=x'), '$query');
    expect400Naming(await hub.call('GET', '/api/stocks?=%ED%A0%80'), '$query');
  });
});

describe('what every operation may answer before it sees the request, documented', () => {
  it('a body on an operation that takes none: unreadable 400, not JSON 415, too large 413', async () => {
    const deep = await hub.call('POST', '/api/backups', undefined, { raw: `${'['.repeat(40)}1${']'.repeat(40)}`, headers: { 'content-type': 'application/json' } });
    expect([deep.status, deep.body.errors.length]).toEqual([400, 1]);
    expect((await hub.call('POST', '/api/orderendpoints/Nowhere/test', undefined, { raw: '3.88', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await hub.call('POST', '/api/backups', undefined, { raw: `"${'x'.repeat(1024 * 1024 + 1)}"`, headers: { 'content-type': 'application/json' } })).status).toBe(413);
  });

  it('broken text in the query of an operation without query parameters: 400', async () => {
    expect400Naming(await hub.call('GET', '/api/kds/pairings/none?x=%ED%A0%80'), 'x');
  });

  it('an Idempotency-Key used before with another request: 409 errorCode 11, on any POST behind a token', async () => {
    const headers = { 'Idempotency-Key': 'recall-1' };
    await hub.call('POST', '/api/orders/none/reprint', {}, { headers });
    const again = await hub.call('POST', '/api/orders/none/reprint', { other: 1 }, { headers });
    expect([again.status, again.body.errorCode]).toEqual([409, 11]);
  });
});

describe('a refusal replayed for its Idempotency-Key', () => {
  it("carries this request's traceId, the X-Request-Id of its answer (it carried the first request's)", async () => {
    const headers = { 'Idempotency-Key': 'null-body-1' };
    const first = await hub.call('POST', '/api/stocks', null, { headers });
    const again = await hub.call('POST', '/api/stocks', null, { headers });
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([400, 400, 'true']);
    expect(again.body.traceId).toBe(again.headers.get('x-request-id'));
    expect(again.body.traceId).not.toBe(first.body.traceId);
    expect({ ...again.body, traceId: first.body.traceId }).toEqual(first.body);
  });
});

describe('a sales report of a year before 100', () => {
  it('covers that year, not 1900 years later (Date.UTC reads years 0-99 as 1900-1999)', async () => {
    const r = await hub.call('GET', '/api/reports/sales?from=0001-01-01&to=0001-12-31&groupBy=month');
    expect([r.status, r.body.from, r.body.to]).toEqual([200, '0001-01-01', '0001-12-31']);
    expect((await hub.call('GET', '/api/reports/sales?from=0099-02-28&to=0099-03-01&groupBy=day')).body.from).toBe('0099-02-28');
    expect((await hub.call('GET', '/api/reports/sales?from=0096-02-30&to=0096-03-01')).status).toBe(400);
  });
});

describe('a backup download', () => {
  it('answers the whole file whatever conditional or range headers come with it (send answered 412 to an If-Match)', async () => {
    const made = (await hub.call('POST', '/api/backups')).body;
    const conditional: Array<Record<string, string>> = [{ 'If-Match': '"abc"' }, { 'If-Unmodified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' }, { Range: 'bytes=0-9' }, { 'If-None-Match': '*' }];
    for (const headers of conditional) {
      const r = await fetch(`${hub.url}/api/backups/${made.file}`, { headers: { authorization: `Bearer ${hub.adminToken}`, ...headers } });
      expect(r.status, JSON.stringify(headers)).toBe(200);
      expect((await r.arrayBuffer()).byteLength).toBe(made.size);
    }
  });
});
