/**
 * GET /api/openapi.json and /api/docs: the document covers every resource, verb and filter the
 * engine serves, and every error the hub answers is one its operation documents (the live probes
 * below hold real problem bodies against the document, the way Fastify holds replies to schemas).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FISCAL_DRIVER_NAMES } from '../../drivers/fiscal/registry.js';
import { buildOpenApi } from '../../hub/openapi.js';
import { problemDetailsSchema } from '../../hub/http/api-docs.js';
import type { ResourceDef } from '../../hub/engine/define.js';
import { RESOURCES, stocks } from '../../hub/resources.js';
import { VERSION } from '../../hub/core/version.js';
import { mountedRoutes } from '../../hub/http/route.js';
import { ADMIN_PASSWORD, startHub, type Reply, type TestHub } from '../support/hub.js';

let hub: TestHub;
let doc: any;
let nobody: string;
/** Admin on a CashRegister: resources with an authorize hook (tickets) take writes only from the Sale environment. */
let saleAdmin: string;

beforeAll(async () => {
  hub = await startHub();
  nobody = await hub.userWith([]);
  expect((await hub.call('POST', '/api/devices', { name: 'Register 1', envName: 'CashRegister' })).status).toBe(201);
  saleAdmin = await hub.login('admin', ADMIN_PASSWORD, 'Register 1');
  const r = await hub.call('GET', '/api/openapi.json', undefined, { token: null });
  expect(r.status).toBe(200);
  doc = r.body;
});
afterAll(() => hub.close());

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const base = (def: ResourceDef) => `/api/${def.name}`;
const one = (def: ResourceDef) => `/api/${def.name}/{${def.key.field}}`;
const offers = (def: ResourceDef, verb: 'post' | 'put' | 'delete') => !def.without?.includes(verb);
const missingKey = (def: ResourceDef) => (def.key.type === 'int' ? '999999' : 'no-such-key');
const tokenFor = (def: ResourceDef) => (def.hooks?.authorize ? saleAdmin : hub.adminToken);

function operation(path: string, method: string): any {
  const op = doc.paths?.[path]?.[method];
  expect(op, `${method.toUpperCase()} ${path} is documented`).toBeDefined();
  return op;
}

/** The errorCodes an operation documents for a status, or undefined when the status is not documented. */
function documentedCodes(op: any, status: number): number[] | undefined {
  const response = op.responses?.[String(status)];
  if (!response) return undefined;
  return response.content?.['application/problem+json']?.schema?.allOf?.[1]?.properties?.errorCode?.enum;
}

/** A real error reply: the intended one, a valid ProblemDetails, and documented for its operation. */
function expectDocumentedError(method: string, template: string, r: Reply, status: number, errorCode: number): void {
  const label = `${method} ${template}`;
  expect([r.status, r.body?.errorCode], `${label}: ${JSON.stringify(r.body)}`).toEqual([status, errorCode]);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(problemDetailsSchema.safeParse(r.body).success, `${label} answers a ProblemDetails`).toBe(true);
  const codes = documentedCodes(operation(template, method.toLowerCase()), r.status);
  expect(codes, `${label} documents ${r.status}`).toBeDefined();
  expect(codes, `${label} documents ${r.status} with errorCode ${r.body.errorCode}`).toContain(r.body.errorCode);
}

describe('GET /api/openapi.json', () => {
  it('is served without a token as OpenAPI 3.1 with the hub version, servers and bearer security', async () => {
    const r = await hub.call('GET', '/api/openapi.json', undefined, { token: null });
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe(VERSION);
    expect(doc.servers).toEqual([{ url: '/' }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.schemas.ProblemDetails.properties).toHaveProperty('errorCode');
    for (const [path, method] of [
      ['/api/health', 'get'],
      ['/api/auth', 'post'],
      ['/api/auth/refresh', 'post'],
      ['/api/openapi.json', 'get'],
      ['/api/docs/', 'get'],
    ]) {
      expect(operation(path, method).security, `${method} ${path} needs no token`).toEqual([]);
    }
    expect(operation('/api/auth', 'get').security).toBeUndefined();
    expect(operation('/api/auth', 'delete').responses).toHaveProperty('204');
  });

  it('is built once and answers the same document every time', async () => {
    const a = await fetch(`${hub.url}/api/openapi.json`);
    const b = await fetch(`${hub.url}/api/openapi.json`);
    expect(await a.text()).toBe(await b.text());
    // A second build must not trip over schema names the first registered.
    expect(buildOpenApi()).toEqual(buildOpenApi());
  });

  it('documents every path and verb of every resource, and nothing for verbs it leaves out', () => {
    for (const def of RESOURCES) {
      const listOps = METHODS.filter((m) => doc.paths[base(def)]?.[m]);
      const oneOps = METHODS.filter((m) => doc.paths[one(def)]?.[m]);
      // The ticket router adds PATCH /api/tickets beside the engine's verbs.
      expect(listOps.filter((m) => m !== 'patch' || def.name !== 'tickets'), def.name).toEqual(['get', ...(offers(def, 'post') ? ['post'] : [])]);
      expect(oneOps, def.name).toEqual(['get', ...(offers(def, 'put') ? ['put'] : []), ...(offers(def, 'delete') ? ['delete'] : [])]);
      expect(doc.paths[base(def)].description).toMatch(/405/);
      expect(doc.paths[one(def)].description).toMatch(/405/);
    }
    const frozen: ResourceDef = { ...stocks, name: 'frozenstocks', title: 'FrozenStock', without: ['put', 'delete'] };
    const only = buildOpenApi([frozen]);
    expect(Object.keys(only.paths?.['/api/frozenstocks'] ?? {}).filter((k) => k !== 'description')).toEqual(['get', 'post']);
    expect(Object.keys(only.paths?.['/api/frozenstocks/{name}'] ?? {}).filter((k) => k !== 'description')).toEqual(['get']);
    expect(only.paths?.['/api/stocks']).toBeUndefined();
  });

  it('lists every filter of every resource, and the paging parameters, as query parameters of the list', () => {
    for (const def of RESOURCES) {
      const params = operation(base(def), 'get').parameters as Array<{ name: string; in: string; description: string }>;
      const query = new Map(params.filter((p) => p.in === 'query').map((p) => [p.name, p]));
      for (const name of ['$skip', '$take', '$sort', '$count']) expect(query.has(name), `${def.name} ${name}`).toBe(true);
      for (const [name, filter] of Object.entries(def.filters)) {
        const p = query.get(name);
        expect(p, `${def.name} filter ${name}`).toBeDefined();
        expect(p!.description).toContain('OP:ARG;OP:ARG');
        if (filter.type === 'enum' && 'enumValues' in filter) for (const v of filter.enumValues ?? []) expect(p!.description).toContain(v);
      }
      expect(query.size).toBe(4 + Object.keys(def.filters).length);
    }
  });

  it('gives every If-Match and Last-Event-ID the form the hub reads, so a header the document allows is never refused (they were any string, most of them a 400)', async () => {
    const patterns = new Set<string>();
    let count = 0;
    for (const item of Object.values(doc.paths as Record<string, Record<string, any>>)) {
      for (const op of Object.values(item)) {
        for (const p of (op?.parameters ?? []) as Array<{ name: string; in: string; schema?: { pattern?: string } }>) {
          if (p.in !== 'header' || p.name !== 'If-Match') continue;
          count++;
          expect(p.schema?.pattern).toBeDefined();
          patterns.add(p.schema!.pattern!);
        }
      }
    }
    expect(count).toBeGreaterThan(20);
    expect(patterns.size).toBe(1);
    const form = new RegExp([...patterns][0]);
    expect((await hub.call('PUT', '/api/stocks/IfMatchForm', {})).status).toBe(201);
    // What the form allows the hub takes (a version that is not the stored one is a 409, never a 400) …
    for (const value of ['*', '"1"', 'W/"1"', '1', ' "7" ', '"99999999999999999999"']) {
      expect(form.test(value), value).toBe(true);
      const r = await hub.call('PUT', '/api/stocks/IfMatchForm', {}, { headers: { 'If-Match': value } });
      expect([200, 409], `${value}: ${JSON.stringify(r.body)}`).toContain(r.status);
    }
    // … and what it refuses the form does not allow.
    for (const value of ['soon', '"1", "2"', '""', '"-1"', 'W/']) {
      expect(form.test(value), value).toBe(false);
      expect((await hub.call('PUT', '/api/stocks/IfMatchForm', {}, { headers: { 'If-Match': value } })).status, value).toBe(400);
    }
    // Last-Event-ID likewise: the document's form, and a value past it refused naming the header.
    const lastEventId = operation('/api/events', 'get').parameters.find((p: { name: string }) => p.name === 'Last-Event-ID');
    const position = new RegExp(lastEventId.schema.pattern);
    expect(['0', ' 42 ', '999999999999999'].every((v) => position.test(v))).toBe(true);
    for (const value of ['1234567890123456', 'x', '-1']) {
      expect(position.test(value), value).toBe(false);
      const r = await hub.call('GET', '/api/events', undefined, { headers: { 'Last-Event-ID': value } });
      expect([r.status, r.body.errors?.[0]?.memberName], value).toEqual([400, 'Last-Event-ID']);
    }
  });

  it('bounds every integer parameter as the hub does, so a value the document allows is never refused ($skip, since had no maximum but refused 17 digits)', () => {
    const unbounded: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(item)) {
        for (const p of (op?.parameters ?? []) as Array<{ name: string; in: string; schema?: { type?: string; maximum?: number } }>) {
          if (p.schema?.type === 'integer' && p.schema.maximum === undefined) unbounded.push(`${method.toUpperCase()} ${path} ${p.in} ${p.name}`);
        }
      }
    }
    expect(unbounded).toEqual([]);
  });

  it('names the rights each write needs, and the success statuses of each verb', () => {
    for (const def of RESOURCES) {
      expect(operation(base(def), 'get').responses).toHaveProperty('200');
      expect(operation(one(def), 'get').responses).toHaveProperty('200');
      if (offers(def, 'post')) {
        const op = operation(base(def), 'post');
        if (def.rights.create) expect(op.description).toContain(`Requires ${def.rights.create}`);
        expect(op.responses).toHaveProperty('201');
      }
      if (offers(def, 'put')) {
        const op = operation(one(def), 'put');
        for (const right of [def.rights.create, def.rights.update]) if (right) expect(op.description).toContain(right);
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '201']));
      }
      if (offers(def, 'delete')) {
        const op = operation(one(def), 'delete');
        if (def.rights.delete) expect(op.description).toContain(`Requires ${def.rights.delete}`);
        expect(op.responses).toHaveProperty('200');
      }
    }
  });

  it('names the rights each read needs (CONTRACT §12), in words and in x-rights, with the 403 it answers', () => {
    for (const def of RESOURCES) {
      for (const op of [operation(base(def), 'get'), operation(one(def), 'get')]) {
        if (def.read) {
          expect(op.description, def.name).toContain(`Requires ${def.read.right}`);
          expect(op['x-rights'], def.name).toEqual([def.read.right]);
          expect(op.responses, def.name).toHaveProperty('403');
        } else {
          expect(op.description, def.name).toContain('no right');
          expect(op['x-rights'], def.name).toEqual([]);
        }
      }
    }
    const spec = buildOpenApi() as any;
    expect(spec.paths['/api/receipts/settings'].get['x-rights']).toEqual(['SettingsRead']);
    expect(spec.paths['/api/backups'].get['x-rights']).toEqual(['SettingsRead']);
    expect(spec.paths['/api/backups'].post['x-rights']).toEqual(['Backup']);
    expect(spec.paths['/api/kds/pairings'].get['x-rights']).toEqual(['OrderEndpointUpdate']);
    const users = spec.paths['/api/users/{id}'].put;
    expect(users.description).toContain('Requires UserCreate when it creates, UserUpdate when it replaces');
    expect(users['x-rights']).toEqual(['UserCreate', 'UserUpdate']);
  });

  it('describes each model (answers) and input (bodies) from the resource schemas', () => {
    for (const def of RESOURCES) {
      const model = doc.components.schemas[def.title];
      const input = doc.components.schemas[`${def.title}Input`];
      const fields = Object.keys(def.schema.shape).filter((f) => f !== 'password' && f !== 'pin'); // write-only (CONTRACT §5)
      const answeredOnly = Object.keys(def.answered ?? {}).filter((f) => !fields.includes(f));
      expect(Object.keys(model.properties).sort(), def.name).toEqual([...fields, ...answeredOnly, ...Object.keys(def.readOnly), '_v'].sort());
      for (const f of Object.keys(def.readOnly)) expect(model.properties[f].readOnly, `${def.name}.${f}`).toBe(true);
      expect(model.required).toEqual(expect.arrayContaining([def.key.field, '_v', ...Object.keys(def.readOnly)]));
      expect(Object.keys(input.properties).sort(), def.name).toEqual([...Object.keys(def.schema.shape), '_v'].sort());
      expect(input.required ?? []).not.toContain(def.key.field);
      expect(input.required ?? []).not.toContain('_v');
    }
    const s = doc.components.schemas;
    expect(s.User.properties).not.toHaveProperty('password');
    expect(s.UserInput.properties.password.type).toBe('string');
    // Transforms document their input side, preprocessors their target, superRefine the object under it.
    expect(s.User.properties.rights.items.type).toBe('string');
    expect(s.Customer.properties.activationTime.type).toEqual(['string', 'null']);
    expect(s.Device.properties.envName.enum).toEqual(['BackOffice', 'CashRegister', 'PDA', 'Tool']);
    // The drivers' list, as drivers/fiscal/registry.ts holds it (the preprocessor's target: lower case).
    expect(s.FiscalDevice.properties.driver.enum).toEqual([...FISCAL_DRIVER_NAMES]);
    expect(s.Modifier.properties.options.type).toBe('array');
    expect(s.StockTransferNumbering.properties.format.type).toBe('string');
  });

  it('matches what the hub answers: every field it sends is documented, every required one is sent', async () => {
    expect((await hub.call('POST', '/api/stocks', { name: 'Bar' })).status).toBe(201);
    expect((await hub.call('POST', '/api/customers', { lastName: 'Novák' })).status).toBe(201);
    let checked = 0;
    for (const def of RESOURCES) {
      const r = await hub.call('GET', `${base(def)}?$take=5`);
      expect(r.status).toBe(200);
      const model = doc.components.schemas[def.title];
      for (const item of r.body.items) {
        expect(Object.keys(model.properties), `${def.name} documents what it answers`).toEqual(expect.arrayContaining(Object.keys(item)));
        expect(Object.keys(item), `${def.name} answers what it documents as required`).toEqual(expect.arrayContaining(model.required));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5);
  });
});

/**
 * CONTRACT §2 for these endpoints: the statuses and errorCodes the hub can produce per operation.
 * A new error the hub learns to answer belongs here and in the document; this test fails until both agree.
 */
describe('documented errors (CONTRACT §2)', () => {
  type Pair = [status: number, errorCode: number];
  const BODY: Pair[] = [[400, 3], [413, 3], [415, 3]];
  const engine = (def: ResourceDef): Record<string, [path: string, method: string, pairs: Pair[]]> => ({
    list: [base(def), 'get', [[400, 3], [401, 1]]],
    get: [one(def), 'get', [[401, 1], [404, 7], ...(def.key.type === 'int' ? ([[400, 3]] as Pair[]) : [])]],
    create: [base(def), 'post', [...BODY, [401, 1], [403, 2], [409, 11]]],
    put: [
      one(def),
      'put',
      [
        ...BODY,
        [401, 1],
        [403, 2],
        [409, 6],
        // A closed ticket or stock taking is read-only; a ticket being closed is locked.
        ...(def.name === 'tickets' || def.name === 'stocktakings' ? ([[403, 8]] as Pair[]) : []),
        ...(def.name === 'tickets' ? ([[423, 5]] as Pair[]) : []),
      ],
    ],
    delete: [
      one(def),
      'delete',
      [[401, 1], [403, 2], [404, 7], [409, 6], ...(def.hooks?.beforeDelete ? ([[403, 8]] as Pair[]) : []), ...(def.name === 'tickets' ? ([[423, 5]] as Pair[]) : [])],
    ],
  });
  const others: Array<[path: string, method: string, pairs: Pair[]]> = [
    ['/api/auth', 'post', [...BODY, [401, 1], [429, 10]]],
    ['/api/auth', 'get', [[401, 1]]],
    ['/api/auth', 'delete', [[401, 1]]],
    ['/api/auth/refresh', 'post', [...BODY, [401, 1]]],
    ['/api/tickets', 'patch', [...BODY, [401, 1], [403, 2], [403, 8], [409, 11], [423, 5]]],
    ['/api/tickets/{id}/close', 'post', [...BODY, [401, 1], [403, 2], [403, 8], [404, 7], [409, 11], [423, 5], [503, 9]]],
    ['/api/tickets/{id}/print_preliminary_ticket', 'post', [...BODY, [401, 1], [403, 2], [403, 8], [404, 7], [409, 11]]],
  ];

  function expectPairs(path: string, method: string, pairs: Pair[]): void {
    const op = operation(path, method);
    for (const [status, code] of pairs) {
      expect(documentedCodes(op, status) ?? [], `${method.toUpperCase()} ${path} documents ${status}/${code}`).toContain(code);
    }
  }

  it('lists, for every resource operation, each status and errorCode the engine can answer', () => {
    for (const def of RESOURCES) {
      const ops = engine(def);
      const offered = { list: true, get: true, create: offers(def, 'post'), put: offers(def, 'put'), delete: offers(def, 'delete') };
      for (const [name, [path, method, pairs]] of Object.entries(ops)) if (offered[name as keyof typeof offered]) expectPairs(path, method, pairs);
    }
  });

  it('lists them for the auth and ticket endpoints, with WWW-Authenticate on 401 and Retry-After on 429 and 503', () => {
    for (const [path, method, pairs] of others) expectPairs(path, method, pairs);
    expect(operation('/api/auth', 'post').responses['401'].headers).toHaveProperty('WWW-Authenticate');
    expect(operation('/api/auth', 'post').responses['429'].headers).toHaveProperty('Retry-After');
    expect(operation('/api/tickets/{id}/close', 'post').responses['503'].headers).toHaveProperty('Retry-After');
  });
});

describe('errors the hub answers are documented for their operation', () => {
  it('for the engine routes of every resource', async () => {
    const huge = JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) });
    for (const def of RESOURCES) {
      const token = tokenFor(def);
      const call = (method: string, path: string, body?: unknown, o: Parameters<TestHub['call']>[3] = {}) => hub.call(method, path, body, { token, ...o });
      const unknown = `${base(def)}/${missingKey(def)}`;
      expectDocumentedError('GET', base(def), await call('GET', `${base(def)}?$take=5000`), 400, 3);
      expectDocumentedError('GET', base(def), await call('GET', `${base(def)}?NoSuchFilter=1`), 400, 3);
      expectDocumentedError('GET', base(def), await call('GET', base(def), undefined, { token: null }), 401, 1);
      expectDocumentedError('GET', one(def), await call('GET', unknown), 404, 7);
      if (def.key.type === 'int') expectDocumentedError('GET', one(def), await call('GET', `${base(def)}/abc`), 400, 3);
      if (offers(def, 'post')) {
        expectDocumentedError('POST', base(def), await call('POST', base(def), {}, { token: nobody }), 403, 2);
        expectDocumentedError('POST', base(def), await call('POST', base(def), {}, { token: null }), 401, 1);
        expectDocumentedError('POST', base(def), await call('POST', base(def), undefined, { raw: 'hello', headers: { 'content-type': 'text/plain' } }), 415, 3);
        expectDocumentedError('POST', base(def), await call('POST', base(def), undefined, { raw: '{', headers: { 'content-type': 'application/json' } }), 400, 3);
        expectDocumentedError('POST', base(def), await call('POST', base(def), undefined, { raw: huge, headers: { 'content-type': 'application/json' } }), 413, 3);
        const key = { headers: { 'Idempotency-Key': `probe-${def.name}` } };
        await call('POST', base(def), { probe: 1 }, key);
        expectDocumentedError('POST', base(def), await call('POST', base(def), { probe: 2 }, key), 409, 11);
      }
      if (offers(def, 'put')) {
        expectDocumentedError('PUT', one(def), await call('PUT', unknown, {}, { token: nobody }), 403, 2);
        expectDocumentedError('PUT', one(def), await call('PUT', unknown, {}, { headers: { 'If-Match': 'soon' } }), 400, 3);
        expectDocumentedError('PUT', one(def), await call('PUT', unknown, undefined, { raw: 'hello', headers: { 'content-type': 'text/plain' } }), 415, 3);
      }
      if (offers(def, 'delete')) {
        expectDocumentedError('DELETE', one(def), await call('DELETE', unknown), 404, 7);
        expectDocumentedError('DELETE', one(def), await call('DELETE', unknown, undefined, { token: nobody }), 403, 2);
        expectDocumentedError('DELETE', one(def), await call('DELETE', unknown, undefined, { token: null }), 401, 1);
      }
      const stored = (await call('GET', `${base(def)}?$take=1`)).body.items?.[0];
      if (stored) {
        const path = `${base(def)}/${encodeURIComponent(String(stored[def.key.field]))}`;
        if (offers(def, 'put')) expectDocumentedError('PUT', one(def), await call('PUT', path, { ...stored, _v: 999999 }), 409, 6);
        if (offers(def, 'delete')) expectDocumentedError('DELETE', one(def), await call('DELETE', path, undefined, { headers: { 'If-Match': '"999999"' } }), 409, 6);
      }
    }
  });

  it('for a delete the stored state forbids', async () => {
    expect((await hub.call('POST', '/api/stocks', { name: 'Kitchen' })).status).toBe(201);
    expect((await hub.call('POST', '/api/plus', { code: 1, stockName: 'Kitchen', name: 'Soup', type: 'StockItem' })).status).toBe(201);
    expectDocumentedError('DELETE', '/api/stocks/{name}', await hub.call('DELETE', '/api/stocks/Kitchen'), 403, 8);
  });

  it('for the auth endpoints, throttling included', async () => {
    expectDocumentedError('POST', '/api/auth', await hub.call('POST', '/api/auth', {}, { token: null }), 400, 3);
    expectDocumentedError('POST', '/api/auth', await hub.call('POST', '/api/auth', undefined, { token: null, raw: 'x', headers: { 'content-type': 'text/plain' } }), 415, 3);
    const wrong = { userName: 'ghost', password: 'nope', deviceName: 'BackOffice' };
    expectDocumentedError('POST', '/api/auth', await hub.call('POST', '/api/auth', wrong, { token: null }), 401, 1);
    let last: Reply | undefined;
    for (let i = 0; i < 10; i++) last = await hub.call('POST', '/api/auth', wrong, { token: null });
    expectDocumentedError('POST', '/api/auth', last!, 429, 10);
    expectDocumentedError('GET', '/api/auth', await hub.call('GET', '/api/auth', undefined, { token: null }), 401, 1);
    expectDocumentedError('DELETE', '/api/auth', await hub.call('DELETE', '/api/auth', undefined, { token: null }), 401, 1);
    expectDocumentedError('POST', '/api/auth/refresh', await hub.call('POST', '/api/auth/refresh', {}, { token: null }), 400, 3);
    expectDocumentedError('POST', '/api/auth/refresh', await hub.call('POST', '/api/auth/refresh', { tokenId: 'a', refreshToken: 'b' }, { token: null }), 401, 1);
  });

  it('for the ticket routes beyond the engine', async () => {
    const sale = { token: saleAdmin };
    expectDocumentedError('PATCH', '/api/tickets', await hub.call('PATCH', '/api/tickets?action=Juggle', { ids: ['t1'] }, sale), 400, 3);
    expectDocumentedError('PATCH', '/api/tickets', await hub.call('PATCH', '/api/tickets?action=Takeover', { ids: ['t1'] }, { token: nobody }), 403, 2);
    const payments = { payments: [{ paymentTypeNumber: 1, amount: 1 }] };
    const closeKey = { token: saleAdmin, headers: { 'Idempotency-Key': 'close-probe' } };
    expectDocumentedError('POST', '/api/tickets/{id}/close', await hub.call('POST', '/api/tickets/nope/close', payments, closeKey), 404, 7);
    expectDocumentedError('POST', '/api/tickets/{id}/close', await hub.call('POST', '/api/tickets/nope/close', { ...payments, fiscalName: 'X' }, closeKey), 409, 11);
    expectDocumentedError('POST', '/api/tickets/{id}/close', await hub.call('POST', '/api/tickets/nope/close', payments, { token: nobody }), 403, 2);
    expectDocumentedError('POST', '/api/tickets/{id}/print_preliminary_ticket', await hub.call('POST', '/api/tickets/nope/print_preliminary_ticket', undefined, sale), 404, 7);
  });

  it('405 for a method a path does not offer, with an Allow that names only documented methods', async () => {
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      if (!/405/.test(item.description ?? '')) continue;
      const concrete = path.replace(/\{[^}]+\}/, '1');
      const documented = METHODS.filter((m) => item[m]);
      for (const method of METHODS.filter((m) => !item[m])) {
        const r = await hub.call(method.toUpperCase(), concrete, undefined, { token: hub.adminToken });
        expect([r.status, r.body?.errorCode], `${method.toUpperCase()} ${concrete}`).toEqual([405, 8]);
        expect(problemDetailsSchema.safeParse(r.body).success).toBe(true);
        const allow = (r.headers.get('allow') ?? '').split(/,\s*/).map((m) => m.toLowerCase());
        expect(documented, `Allow of ${path}`).toEqual(expect.arrayContaining(allow));
      }
    }
  });
});

describe('/api/docs', () => {
  it('serves without a token an HTML page that loads the spec and only the hub\'s own assets', async () => {
    const r = await hub.call('GET', '/api/docs/', undefined, { token: null });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    const html = String(r.body);
    expect(html).toContain('/api/openapi.json');
    expect(html).toContain('viewer.js');
    // Offline: no asset from another host, absolute or protocol-relative.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const viewer = await fetch(`${hub.url}/api/docs/viewer.js`);
    expect(viewer.status).toBe(200);
    expect(viewer.headers.get('content-type')).toMatch(/javascript/);
    expect(await viewer.text()).toContain('data-spec-url');
  });

  it('serves Swagger UI one link away, at /api/docs/swagger/, on the same spec and assets', async () => {
    const r = await hub.call('GET', '/api/docs/swagger/', undefined, { token: null });
    expect(r.status).toBe(200);
    const html = String(r.body);
    expect(html).toContain('swagger-ui-bundle.js');
    expect(html).toContain('<base href="/api/docs/">');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const bare = await fetch(`${hub.url}/api/docs/swagger`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/api/docs/swagger/']);
  });

  it('answers /api/docs without the slash with a redirect to the page', async () => {
    const r = await fetch(`${hub.url}/api/docs`, { redirect: 'manual' });
    expect(r.status).toBe(301);
    expect(r.headers.get('location')).toBe('/api/docs/');
    const followed = await hub.call('GET', '/api/docs', undefined, { token: null });
    expect(followed.status).toBe(200);
    expect(String(followed.body)).toContain('/api/openapi.json');
  });

  it('serves the Swagger UI assets and an initializer that reads this spec with the online validator off', async () => {
    const bundle = await fetch(`${hub.url}/api/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    const css = await fetch(`${hub.url}/api/docs/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    const init = await hub.call('GET', '/api/docs/poshub-init.js', undefined, { token: null });
    expect(init.status).toBe(200);
    expect(String(init.body)).toContain('data-spec-url');
    expect(String(init.body)).toContain('validatorUrl: null');
  });

  it('sends the big files and the document gzipped to a client that takes gzip, and as they are to one that does not', async () => {
    for (const path of ['/api/docs/swagger-ui-bundle.js', '/api/docs/swagger-ui.css', '/api/openapi.json']) {
      const plain = await fetch(`${hub.url}${path}`, { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers.get('content-encoding'), path).toBeNull();
      const text = await plain.text();
      const zipped = await fetch(`${hub.url}${path}`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(zipped.headers.get('content-encoding'), path).toBe('gzip');
      expect(zipped.headers.get('vary'), path).toMatch(/Accept-Encoding/i);
      // On the wire at most a third of the file (the bundle: 1.7 MB → 0.46 MB); unpacked, the same bytes.
      expect(Number(zipped.headers.get('content-length')), path).toBeLessThan(Buffer.byteLength(text) / 3);
      expect(await zipped.text(), path).toBe(text);
    }
  });

  it('answers the package\'s own petstore initializer and unknown assets 404, not 401', async () => {
    for (const path of ['/api/docs/swagger-initializer.js', '/api/docs/nope.js']) {
      const r = await hub.call('GET', path, undefined, { token: null });
      expect([r.status, r.body?.errorCode], path).toEqual([404, 7]);
    }
  });
});

describe('no route goes undocumented', () => {
  it('every method and path a router of the hub serves is an operation of the document, and every operation is served', async () => {
    const doc = (await hub.call('GET', '/api/openapi.json', undefined, { token: null })).body;
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) if (item[method]) documented.add(`${method.toUpperCase()} ${path}`);
    }
    // HQ's routes are held to HQ's own document (test/hq/api.test.ts); files may share a process.
    const served = new Set([...mountedRoutes()].filter((r) => !r.split(' ')[1].startsWith('/hq/')));
    expect(served.size).toBeGreaterThan(60);
    expect([...served].filter((r) => !documented.has(r)), 'served but undocumented').toEqual([]);
    expect([...documented].filter((r) => !served.has(r)), 'documented but not served').toEqual([]);
  });

  it("names a declaration's extra method on an engine path in that path's Allow", async () => {
    const r = await hub.call('PUT', '/api/tickets', {});
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, POST, PATCH');
  });
});

describe('request examples', () => {
  it('every resource POST carries an example, and each one, sent as the document shows it, is created on a fresh shop', async () => {
    const fresh = await startHub();
    try {
      const doc = (await fresh.call('GET', '/api/openapi.json', undefined, { token: null })).body;
      const posts = RESOURCES.filter((d) => doc.paths[`/api/${d.name}`]?.post);
      const example = (name: string) => doc.paths[`/api/${name}`]?.post?.requestBody?.content?.['application/json']?.example;
      const withoutExample = RESOURCES.filter((d) => !d.without?.includes('post') && doc.paths[`/api/${d.name}`]?.post && example(d.name) === undefined).map((d) => d.name);
      expect(withoutExample).toEqual([]);
      expect(posts.length).toBeGreaterThan(10);
      // What the others refer to first; tickets from the register the devices example makes.
      const order = ['stocks', 'categories', 'paymenttypes', 'devices', 'fiscaldevices', 'cashcounts', 'shifts', 'orderendpoints', 'modifiers', 'plus', 'customers', 'users', 'stocktransfernumberings', 'stocktransfers', 'stocktakings', 'zones'];
      expect(RESOURCES.filter((d) => example(d.name) !== undefined).map((d) => d.name).sort()).toEqual([...order, 'tickets'].sort());
      for (const name of order) {
        const r = await fresh.call('POST', `/api/${name}`, example(name));
        expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(201);
      }
      const register = await fresh.login('admin', ADMIN_PASSWORD, example('devices').name);
      const ticket = await fresh.call('POST', '/api/tickets', example('tickets'), { token: register });
      expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
      expect(ticket.body.items.length).toBeGreaterThan(0);
      expect(ticket.body.totalPrice.amount).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });
});
