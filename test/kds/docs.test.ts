/** The pairing routes are in /api/openapi.json, and every error they answer is one they document. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemDetailsSchema } from '../../hub/http/api-docs.js';
import { startHub, type Reply, type TestHub } from '../support/hub.js';
import { expect2xx } from '../tickets/fixture.js';

let hub: TestHub;
let doc: any;
beforeAll(async () => {
  hub = await startHub();
  doc = (await hub.call('GET', '/api/openapi.json', undefined, { token: null })).body;
  await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Pass', type: 'Tablet' }));
  await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Printer', type: 'Generic', address: 'tcp://127.0.0.1:9' }));
});
afterAll(() => hub.close());

function documented(path: string, method: string, r: Reply): void {
  const op = doc.paths?.[path]?.[method];
  expect(op, `${method} ${path} is documented`).toBeDefined();
  expect(problemDetailsSchema.safeParse(r.body).success, `${method} ${path} ${r.status} is a ProblemDetails`).toBe(true);
  const codes = op.responses?.[String(r.status)]?.content?.['application/problem+json']?.schema?.allOf?.[1]?.properties?.errorCode?.enum;
  expect(codes, `${method} ${path} documents ${r.status}`).toBeDefined();
  expect(codes).toContain(r.body.errorCode);
}

describe('pairing in the API description', () => {
  it('documents the routes, with POST /api/kds/pair needing no token', () => {
    expect(doc.paths['/api/kds/pairings'].post.responses).toHaveProperty('201');
    expect(doc.paths['/api/kds/pairings'].get.responses).toHaveProperty('200');
    expect(doc.paths['/api/kds/pairings/{id}'].delete.responses).toHaveProperty('200');
    expect(doc.paths['/api/kds/pair'].post.security).toEqual([]);
    expect(doc.paths['/api/kds/pair'].post.responses['200'].content['application/json'].schema).toBeDefined();
    expect(doc.paths['/api/kds/pairings'].post.description).toMatch(/OrderEndpointUpdate/);
  });

  it('documents every error the routes answer', async () => {
    const cook = await hub.userWith(['OrderProcess']);
    documented('/api/kds/pairings', 'post', await hub.call('POST', '/api/kds/pairings', { orderEndpointName: 'Nowhere' }));
    documented('/api/kds/pairings', 'post', await hub.call('POST', '/api/kds/pairings', { orderEndpointName: 'Pass' }, { token: null }));
    documented('/api/kds/pairings', 'post', await hub.call('POST', '/api/kds/pairings', { orderEndpointName: 'Pass' }, { token: cook }));
    documented('/api/kds/pairings', 'post', await hub.call('POST', '/api/kds/pairings', { orderEndpointName: 'Printer' }));
    documented('/api/kds/pairings', 'post', await hub.call('POST', '/api/kds/pairings', undefined, { raw: 'x', headers: { 'content-type': 'text/plain' } }));
    const key = { headers: { 'Idempotency-Key': 'pairing-probe' } };
    expect((await hub.call('POST', '/api/kds/pairings', { orderEndpointName: 'Pass' }, key)).status).toBe(201);
    documented('/api/kds/pairings', 'post', await hub.call('POST', '/api/kds/pairings', { orderEndpointName: 'Printer' }, key));
    documented('/api/kds/pairings', 'get', await hub.call('GET', '/api/kds/pairings', undefined, { token: null }));
    documented('/api/kds/pairings/{id}', 'get', await hub.call('GET', '/api/kds/pairings/nope'));
    documented('/api/kds/pairings/{id}', 'delete', await hub.call('DELETE', '/api/kds/pairings/nope'));
    documented('/api/kds/pairings/{id}', 'delete', await hub.call('DELETE', '/api/kds/pairings/nope', undefined, { token: cook }));
    documented('/api/kds/pair', 'post', await hub.call('POST', '/api/kds/pair', { code: '12' }, { token: null }));
    let last: Reply | undefined;
    for (let i = 0; i < 11; i++) {
      last = await hub.call('POST', '/api/kds/pair', { code: String(i).padStart(6, '0') }, { token: null });
      if (i === 0) documented('/api/kds/pair', 'post', last);
    }
    documented('/api/kds/pair', 'post', last!);
    expect(last!.status).toBe(429);
  });
});
