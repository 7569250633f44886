/**
 * HQ's API as declared (hub/hq/routes.ts, issue 32): its own OpenAPI document at
 * /hq/api/openapi.json covers every route HQ mounts and nothing else, and every answer below is
 * held against it (status and body, test/support/answers.ts), as the hub's answers are against
 * the hub's. Runs HQ's app in-process on an embedded PostgreSQL (the one HQ itself starts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHqApp, ensureAdmin } from '../../hub/hq/api.js';
import { migrate, openPool, startEmbedded, type Pool } from '../../hub/hq/db.js';
import { ingestBatch } from '../../hub/hq/repo.js';
import { hqDocumentJson } from '../../hub/hq/document.js';
import { mountedRoutes } from '../../hub/http/route.js';
import { problemDetailsSchema } from '../../hub/http/api-docs.js';
import { answerChecker } from '../support/answers.js';

const ADMIN_PASSWORD = 'hq-admin-password';
const checkAnswer = answerChecker(hqDocumentJson);

let dir: string;
let pg: { url: string; stop(): Promise<void> };
let pool: Pool;
let server: Server;
let base: string;
let admin: string;

interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

/** A request to HQ; every answer is checked against HQ's document before the test sees it. */
async function call(method: string, path: string, body?: unknown, token: string | null = admin): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const type = res.headers.get('content-type');
  const parsed = text && /json/.test(type ?? '') ? JSON.parse(text) : text;
  checkAnswer(method, path, res.status, type, parsed);
  return { status: res.status, body: parsed, headers: res.headers };
}

async function login(userName: string, password: string): Promise<string> {
  const r = await call('POST', '/hq/api/auth', { userName, password }, null);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  // A token is kept by no browser or proxy (RFC 6749 §5.1).
  expect(r.headers.get('cache-control')).toBe('no-store');
  return r.body.tokenId;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'poshub-hq-api-'));
  const log = pino({ level: 'silent' });
  pg = await startEmbedded(dir, log);
  pool = openPool(pg.url, 4);
  await migrate(pool);
  await ensureAdmin(pool, ADMIN_PASSWORD);
  const app = createHqApp({
    pool,
    log,
    timeZone: 'Europe/Bratislava',
    offlineAfterMs: 60_000,
    state: {
      health: () => ({ nats: 'connected', ingest: { batches: 0, events: 0, duplicates: 0, rejected: 0 }, uptimeS: 1 }),
      databaseOk: async () => true,
      catalogPushed: () => undefined,
    },
  });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  admin = await login('admin', ADMIN_PASSWORD);
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await pool?.end().catch(() => {});
  await pg?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe("HQ's document", () => {
  it('is served without a token, as OpenAPI 3.1 with bearer security', async () => {
    const r = await call('GET', '/hq/api/openapi.json', undefined, null);
    expect(r.status).toBe(200);
    expect(r.body.openapi).toMatch(/^3\.1\./);
    expect(r.body.info.title).toBe('POS Hub HQ API');
    expect(r.body.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, method] of [
      ['/hq/api/health', 'get'],
      ['/hq/api/auth', 'post'],
      ['/hq/api/openapi.json', 'get'],
    ]) {
      expect(r.body.paths[path][method].security, `${method} ${path} needs no token`).toEqual([]);
    }
    expect(r.body.paths['/hq/api/stores'].get['x-rights']).toEqual(['ReportRead']);
    expect(r.body.paths['/hq/api/catalog/{resource}/{key}'].put['x-rights']).toEqual(['CatalogPush']);
  });

  it('documents every route HQ mounts, and serves every route it documents', async () => {
    const doc = (await call('GET', '/hq/api/openapi.json', undefined, null)).body;
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) if (item[method]) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const served = [...mountedRoutes()].filter((r) => r.split(' ')[1].startsWith('/hq/'));
    expect(served.length).toBeGreaterThanOrEqual(14);
    expect(served.filter((r) => !documented.has(r)), 'served but undocumented').toEqual([]);
    expect([...documented].filter((r) => !served.includes(r)), 'documented but not served').toEqual([]);
  });

  it('lists the hub\'s ticket filters for HQ\'s tickets, with StoreId', async () => {
    const doc = (await call('GET', '/hq/api/openapi.json', undefined, null)).body;
    const names = (doc.paths['/hq/api/tickets'].get.parameters as Array<{ name: string }>).map((p) => p.name);
    for (const name of ['$skip', '$take', '$sort', '$count', 'StoreId', 'IsClosed', 'State', 'PurchaseType', 'CloseDate', 'ItemPluCode']) expect(names).toContain(name);
  });
});

describe('HQ answers as its document says', () => {
  it('health, sessions and the rights each route declares', async () => {
    expect((await call('GET', '/hq/api/health', undefined, null)).body).toMatchObject({ status: 'ok', db: 'ok' });
    expect((await call('POST', '/hq/api/auth', { userName: 'admin', password: 'wrong-password' }, null)).status).toBe(401);
    expect((await call('POST', '/hq/api/auth', { userName: 'admin' }, null)).body.errors[0].memberName).toBe('password');
    // HQ names its zone (POS_HQ_TIMEZONE) with the session: its page counts the sales' days in it.
    expect((await call('GET', '/hq/api/auth')).body).toEqual({ userName: 'admin', rights: ['ReportRead', 'CatalogPush', 'UserManage'], timeZone: 'Europe/Bratislava' });
    expect((await call('POST', '/hq/api/auth', { userName: 'admin', password: ADMIN_PASSWORD }, null)).body).toMatchObject({ user: { userName: 'admin' }, timeZone: 'Europe/Bratislava' });
    expect((await call('GET', '/hq/api/stores', undefined, null)).status).toBe(401);

    expect((await call('PUT', '/hq/api/users/reader', { password: 'reader-password', rights: ['ReportRead'] })).status).toBe(201);
    expect((await call('PUT', '/hq/api/users/reader', { rights: ['ReportRead'] })).status).toBe(200);
    expect((await call('PUT', '/hq/api/users/bad%20name', { rights: [] })).body.errors[0].memberName).toBe('userName');
    expect((await call('PUT', '/hq/api/users/short', { password: 'short', rights: [] })).body.errors[0].memberName).toBe('password');
    expect((await call('GET', '/hq/api/users')).body.items.map((u: any) => u.userName)).toEqual(['admin', 'reader']);
    // Paged and sorted as every list (CONTRACT §4).
    expect((await call('GET', '/hq/api/users?$sort=-userName&$take=1')).body).toMatchObject({ items: [{ userName: 'reader' }], count: 1, totalCount: 2 });
    expect((await call('GET', '/hq/api/users?$sort=rights')).body.errors[0].memberName).toBe('$sort');
    const reader = await login('reader', 'reader-password');
    expect((await call('GET', '/hq/api/stores', undefined, reader)).status).toBe(200);
    expect((await call('GET', '/hq/api/users', undefined, reader)).status).toBe(403);
    expect((await call('PUT', '/hq/api/catalog/stocks/Bar', { doc: { name: 'Bar' }, stores: ['*'] }, reader)).status).toBe(403);
    // A missing right is a 403 whatever the body says: rights are checked before the input is read.
    expect((await call('PUT', '/hq/api/catalog/nothing/x', 'not an object', reader)).status).toBe(403);
    expect((await call('POST', '/hq/api/auth/password', { currentPassword: 'wrong', newPassword: 'reader-new-password' }, reader)).body.errors[0].memberName).toBe('currentPassword');
    expect((await call('DELETE', '/hq/api/auth', undefined, reader)).status).toBe(204);
    expect((await call('GET', '/hq/api/stores', undefined, reader)).status).toBe(401);
    expect((await call('DELETE', '/hq/api/users/nobody')).status).toBe(404);
    expect((await call('DELETE', '/hq/api/users/reader')).status).toBe(204);
  });

  it('lists read their query with the hub\'s NData parser: names in any letter case, bad ones a 400 naming them', async () => {
    for (const path of ['/hq/api/stores', '/hq/api/tickets', '/hq/api/deadletters']) {
      const r = await call('GET', `${path}?$take=5`);
      expect(r.body, path).toEqual({ items: [], count: 0, totalCount: 0 });
      expect((await call('GET', `${path}?$COUNT=true`)).body, path).toEqual({ count: 0, totalCount: 0 });
      expect((await call('GET', `${path}?Bogus=1`)).body.errors[0], path).toMatchObject({ memberName: 'Bogus', code: 'Unknown' });
      expect((await call('GET', `${path}?$take=5000`)).status, path).toBe(400);
    }
    expect((await call('GET', '/hq/api/tickets?isclosed=true&state=closed&ItemPluCode=ge:1&$sort=-totalPrice.amount')).status).toBe(200);
    expect((await call('GET', '/hq/api/tickets?IsClosed=maybe')).body.errors[0]).toMatchObject({ memberName: 'IsClosed' });
    expect((await call('GET', '/hq/api/tickets?$sort=nope')).body.errors[0]).toMatchObject({ memberName: '$sort' });
  });

  it('the sales report reads its from, to and groupBy as declared', async () => {
    const ok = await call('GET', '/hq/api/reports/sales?FROM=2026-01-01T00:00:00&To=2026-02-01T00:00:00Z&GROUPBY=Day');
    expect(ok.body).toEqual({ rows: [], total: 0 });
    expect((await call('GET', '/hq/api/reports/sales?to=2026-02-01T00:00:00Z')).body.errors[0]).toMatchObject({ memberName: 'from', code: 'Required' });
    expect((await call('GET', '/hq/api/reports/sales?from=yesterday&to=2026-02-01T00:00:00Z')).body.errors[0]).toMatchObject({ memberName: 'from' });
    expect((await call('GET', '/hq/api/reports/sales?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z&groupBy=week')).body.errors[0]).toMatchObject({ memberName: 'groupBy' });
    // A span that ends before it starts: refused as the hub's report refuses it; an empty one is no mistake.
    const reversed = await call('GET', '/hq/api/reports/sales?from=2026-02-01T00:00:00Z&to=2026-01-31T23:59:59Z');
    expect([reversed.status, reversed.body.errors?.[0]]).toMatchObject([400, { memberName: 'to', code: 'OutOfRange' }]);
    expect((await call('GET', '/hq/api/reports/sales?from=2026-02-01T01:00:00%2B01:00&to=2026-02-01T00:00:00Z')).body).toEqual({ rows: [], total: 0 });
  });

  it('catalog pushes: the resource and key from the path (a plu key holds a slash), the stores from the body', async () => {
    const unknown = await call('PUT', '/hq/api/catalog/plus/Bar/1', { doc: { name: 'Pivo' }, stores: ['s9'] });
    expect([unknown.status, unknown.body.errors[0].memberName]).toEqual([400, 'stores']);
    expect((await call('PUT', '/hq/api/catalog/PLUS/Bar/1', { doc: { name: 'Pivo' }, stores: ['*'] })).status).toBe(202);
    expect((await call('PUT', '/hq/api/catalog/plus/Bar', { doc: {}, stores: ['*'] })).body.errors[0].memberName).toBe('key');
    expect((await call('PUT', '/hq/api/catalog/nothing/x', { doc: {}, stores: ['*'] })).body.errors[0].memberName).toBe('resource');
    expect((await call('PUT', '/hq/api/catalog/stocks/Bar', { stores: ['*'] })).body.errors[0].memberName).toBe('doc');
    expect((await call('DELETE', '/hq/api/catalog/stocks/Bar', { stores: ['*'] })).status).toBe(202);
    const both = await call('PUT', '/hq/api/catalog/plus/Bar/2', { doc: 'x', stores: [] });
    expect(both.body.errors.map((e: any) => e.memberName).sort()).toEqual(['doc', 'stores']);
  });

  it('a method a path does not offer is a 405 with Allow; a path HQ does not have, 401 without a session and 404 with one', async () => {
    const r = await call('POST', '/hq/api/stores');
    expect([r.status, r.body.errorCode, r.headers.get('allow')]).toEqual([405, 8, 'GET']);
    expect(problemDetailsSchema.safeParse(r.body).success).toBe(true);
    expect((await call('GET', '/hq/api/nothing', undefined, null)).status).toBe(401);
    expect((await call('GET', '/hq/api/nothing')).status).toBe(404);
  });
});

describe('HQ takes only text it can keep, keys its stores would take, and sorts as the hub does', () => {
  it('a NUL, a lone surrogate or a broken escape in the query or the path is a 400 naming the parameter, never a 500', async () => {
    for (const path of ['/hq/api/tickets', '/hq/api/stores', '/hq/api/deadletters']) {
      const nul = await call('GET', `${path}?StoreId=s1%00`);
      expect([nul.status, nul.body.errors?.[0]?.memberName], path).toEqual([400, 'StoreId']);
      expect((await call('GET', `${path}?StoreId=%ED%A0%80`)).body.errors[0].memberName, path).toBe('StoreId');
      expect((await call('GET', `${path}?StoreId=100%`)).body.errors[0].memberName, path).toBe('StoreId');
      expect((await call('GET', `${path}?a%00=1`)).body.errors[0].memberName, path).toBe('$query');
    }
    const sales = await call('GET', '/hq/api/reports/sales?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z&groupBy=store%00');
    expect([sales.status, sales.body.errors[0].memberName]).toEqual([400, 'groupBy']);
    for (const key of ['Bar%00', 'B%00ar/1', 'Bar/1%00']) {
      const r = await call('PUT', `/hq/api/catalog/${key.includes('/') ? 'plus' : 'stocks'}/${key}`, { doc: { name: 'Bar' }, stores: ['*'] });
      expect([r.status, r.body.errors?.[0]?.memberName], key).toEqual([400, 'key']);
    }
    expect((await call('DELETE', '/hq/api/catalog/stocks/%zz', { stores: ['*'] })).body.errors[0].memberName).toBe('key');
  });

  it("a catalog key the store's API would refuse, or a document naming another key than the path, is a 400 naming it", async () => {
    const refused = async (method: string, path: string, body: unknown) => {
      const r = await call(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(400);
      return r.body.errors[0].memberName;
    };
    const stores = ['*'];
    expect(await refused('PUT', '/hq/api/catalog/modifiers/bad%20key!', { doc: { name: 'Sugar' }, stores })).toBe('key');
    expect(await refused('DELETE', '/hq/api/catalog/modifiers/a%20b', { stores })).toBe('key');
    expect(await refused('PUT', `/hq/api/catalog/modifiers/${'m'.repeat(65)}`, { doc: { name: 'Sugar' }, stores })).toBe('key');
    expect(await refused('PUT', '/hq/api/catalog/plus/Bar/2147483648', { doc: { name: 'Pivo' }, stores })).toBe('key');
    expect(await refused('PUT', '/hq/api/catalog/plus/%20Bar/1', { doc: { name: 'Pivo' }, stores })).toBe('key');
    expect(await refused('PUT', '/hq/api/catalog/paymenttypes/2147483648', { doc: { name: 'Card' }, stores })).toBe('key');
    expect(await refused('PUT', '/hq/api/catalog/stocks/Bar%20', { doc: {}, stores })).toBe('key');
    // CONTRACT §2: a key in the body that differs from the path.
    expect(await refused('PUT', '/hq/api/catalog/plus/Bar/1', { doc: { code: 2, name: 'Pivo' }, stores })).toBe('doc.code');
    expect(await refused('PUT', '/hq/api/catalog/plus/Bar/1', { doc: { stockName: 'Kitchen', name: 'Pivo' }, stores })).toBe('doc.stockName');
    const text = await call('PUT', '/hq/api/catalog/plus/Bar/1', { doc: { code: '1', name: 'Pivo' }, stores });
    expect([text.status, text.body.errors[0].memberName, text.body.errors[0].message]).toEqual([400, 'doc.code', expect.stringMatching(/number/)]);
    expect(await refused('PUT', '/hq/api/catalog/modifiers/m1', { doc: { id: 'm2', name: 'Sugar' }, stores })).toBe('doc.id');
    expect(await refused('PUT', '/hq/api/catalog/paymenttypes/5', { doc: { number: 6, name: 'Card' }, stores })).toBe('doc.number');
    expect(await refused('PUT', '/hq/api/catalog/stocks/Bar', { doc: { name: 'Kitchen' }, stores })).toBe('doc.name');
    // The same keys, said alike or left out, are taken.
    for (const [path, doc] of [
      ['plus/Bar/2147483647', { code: 2147483647, stockName: 'Bar', name: 'Pivo' }],
      ['plus/Hlavný sklad/0', { name: 'Pivo' }],
      ['modifiers/m1', { id: 'm1', name: 'Sugar' }],
      ['paymenttypes/5', { number: 5, name: 'Card' }],
      ['stocks/Hlavný sklad', { name: 'Hlavný sklad' }],
    ] as const) {
      expect((await call('PUT', `/hq/api/catalog/${encodeURI(path)}`, { doc, stores })).status, path).toBe(202);
    }
  });

  it('tickets sort by every top-level scalar field, dotted paths into nested ones and every filter (a list one by its lowest value), ties on the key', async () => {
    const ticket = (id: string, extra: Record<string, unknown>) => ({ id, state: 'Closed', openDate: '2026-01-02T10:00:00.000Z', closeDate: '2026-01-02T11:00:00.000Z', totalPrice: { amount: 1 }, items: [], ...extra });
    const docs = [
      ticket('a', { note: 'zeta', lastOrderDate: '2026-01-02T10:05:00.000Z', closeInfo: { fiscalName: 'FP2', number: 1 }, customer: { id: 'c2', cardSerialNumber: 'K2' }, location: { tableName: 'T1', zoneName: 'Hall' }, items: [{ plu: { code: 7, stockName: 'Bar' }, type: 'Positive', quantity: 1, totalPrice: { amount: 1 } }] }),
      ticket('b', { note: 'alpha', lastOrderDate: '2026-01-02T10:09:00.000Z', closeInfo: { fiscalName: 'FP1', number: 2 }, customer: { id: 'c1', cardSerialNumber: 'K1' }, location: { tableName: 'T1', zoneName: 'Terrace' }, items: [{ plu: { code: 9, stockName: 'Bar' }, type: 'Positive', quantity: 1, totalPrice: { amount: 1 } }, { plu: { code: 3, stockName: 'Bar' }, type: 'Positive', quantity: 1, totalPrice: { amount: 1 } }] }),
      ticket('c', { note: null, lastOrderDate: '2026-01-02T10:07:00.000Z', closeInfo: { fiscalName: 'FP1', number: 3 }, customer: null, location: null, items: [{ plu: { code: 5, stockName: 'Bar' }, type: 'Positive', quantity: 1, totalPrice: { amount: 1 } }] }),
    ];
    await ingestBatch(pool, docs.map((doc, i) => ({ storeId: 'sorts', seq: i + 1, base: 0, resource: 'tickets', key: doc.id, op: 'upsert' as const, v: 3 - i, at: doc.closeDate, doc: { ...doc, _v: 3 - i } })));
    const order = async (sort: string) => {
      const r = await call('GET', `/hq/api/tickets?StoreId=sorts&$sort=${sort}`);
      expect(r.status, `${sort}: ${JSON.stringify(r.body.errors)}`).toBe(200);
      return r.body.items.map((t: any) => t.id).join('');
    };
    // Missing values first in ascending order (CONTRACT §11).
    expect(await order('note')).toBe('cba');
    // `_v`, the version each store stored.
    expect(await order('_v')).toBe('cba');
    expect(await order('-_V')).toBe('abc');
    expect(await order('-lastOrderDate')).toBe('bca');
    expect(await order('closeInfo.fiscalName,-closeInfo.number')).toBe('cba');
    expect(await order('CUSTOMER.cardSerialNumber')).toBe('cba');
    expect(await order('customer.id:desc')).toBe('abc');
    expect(await order('location.zoneName:desc')).toBe('bac');
    // A filter over the items sorts by the lowest of them (b holds 3 and 9), as the hub sorts it.
    expect(await order('ItemPluCode')).toBe('bca');
    expect(await order('-itempluCode')).toBe('acb');
    // The hub's ticket filters beyond the seed work here too.
    expect((await call('GET', '/hq/api/tickets?StoreId=sorts&CustomerId=c1')).body.items.map((t: any) => t.id)).toEqual(['b']);
    // Ties break on the key.
    expect(await order('location.tableName')).toBe('cab');
    expect(await order('-location.tableName')).toBe('abc');
  });

  it("stores and dead letters sort by every top-level scalar field: a store's catalog versions and dead letters too", async () => {
    const dead = (storeId: string, seq: number, reason: string) => ({ storeId, seq, streamSeq: seq, subject: `pos.${storeId}.tickets`, reason, payload: `{"seq":${seq}}` });
    await ingestBatch(pool, [], undefined, [dead('st-a', 1, 'b: bad shape'), dead('st-a', 2, 'c: bad value'), dead('st-b', 1, 'a: bad shape')]);
    await ingestBatch(pool, [{ storeId: 'st-c', seq: 1, base: 0, resource: 'tickets', key: 't1', op: 'upsert' as const, v: 1, at: '2026-01-02T11:00:00.000Z', doc: { id: 't1', items: [] } }]);
    // st-b waits for two catalog versions, st-c for one.
    for (const stores of [['st-b'], ['st-b', 'st-c']]) expect((await call('PUT', '/hq/api/catalog/stocks/Bar', { doc: { name: 'Bar' }, stores })).status).toBe(202);
    const order = async (path: string, sort: string, key: string) => {
      const r = await call('GET', `${path}&$sort=${sort}`);
      expect(r.status, `${sort}: ${JSON.stringify(r.body.errors)}`).toBe(200);
      return r.body.items.map((x: any) => x[key]).join(' ');
    };
    const stores = '/hq/api/stores?StoreId=startswith:st-';
    expect(await order(stores, '-deadLetters', 'storeId')).toBe('st-a st-b st-c');
    expect(await order(stores, 'deadLetters', 'storeId')).toBe('st-c st-b st-a');
    expect(await order(stores, '-catalogVersion', 'storeId')).toBe('st-b st-c st-a');
    // Ties break on the key.
    expect(await order(stores, 'appliedCatalogVersion', 'storeId')).toBe('st-a st-b st-c');
    const letters = '/hq/api/deadletters?StoreId=in:st-a,st-b';
    expect(await order(letters, 'reason', 'reason')).toBe('a: bad shape b: bad shape c: bad value');
    expect(await order(letters, 'subject,-payload', 'payload')).toBe('{"seq":2} {"seq":1} {"seq":1}');
    // Ties under a sort break on the key ascending (CONTRACT §11); without one, newest first.
    const ids = (await call('GET', letters)).body.items.map((x: any) => x.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const byStore = await call('GET', `${letters}&$sort=storeId`);
    expect(byStore.body.items.map((x: any) => [x.storeId, x.id])).toEqual(
      [...byStore.body.items].sort((a: any, b: any) => (a.storeId < b.storeId ? -1 : a.storeId > b.storeId ? 1 : a.id - b.id)).map((x: any) => [x.storeId, x.id]),
    );
  });
});
