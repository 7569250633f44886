/**
 * Routes are executable declarations (issue 32, point 3): hub/http/route.ts `mount()` reads the path
 * parameters, query, headers and body with the declared schemas and hands the handler typed input.
 * No handler reads the request by hand: a second reading is where the case-insensitive query names
 * (CONTRACT §1) and the declared checks went missing before.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import express from 'express';
import pino from 'pino';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonBody } from '../../hub/http/body.js';
import { errors } from '../../hub/http/errors.js';
import { ifMatchHeader } from '../../hub/http/api-docs.js';
import { localDay } from '../../hub/http/members.js';
import { problemHandler, requestId } from '../../hub/http/problem.js';
import { mount, named, routes } from '../../hub/http/route.js';
import { ROOT } from '../support/process.js';
import { startHub, type TestHub } from '../support/hub.js';
import { SseClient } from '../support/sse.js';

/** Who may touch the raw request, and why. */
const ALLOWED: Record<string, string> = {
  'hub/http/route.ts': 'mount() itself: it reads the request with the declarations',
  'hub/http/body.ts': 'reads the body into req.body, before any route',
  'hub/http/idempotency.ts': 'fingerprints the body a key came with',
  'hub/engine/routes.ts': "the engine's generic router: every resource's CRUD, documented from the resource definitions",
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'web' || name === 'dist' || name === 'node_modules') return [];
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('no handler reads its own request', () => {
  it('only mount(), the body reader, the idempotency fingerprint and the engine router read req.query, req.params or req.body', () => {
    const found: string[] = [];
    for (const file of sources(join(ROOT, 'hub'))) {
      const rel = relative(ROOT, file);
      if (rel in ALLOWED) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // `req.query`, `request.params`, `{ body } = req`…
          if (/\breq(?:uest)?\s*\.\s*(query|params|body)\b|\{[^}]*\b(query|params|body)\b[^}]*\}\s*=\s*req(?:uest)?\b/.test(line)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('the allowed readers still exist (a file renamed away must leave this list too)', () => {
    for (const file of Object.keys(ALLOWED)) expect(statSync(join(ROOT, file)).isFile(), file).toBe(true);
  });
});

/** One declared route of each kind, mounted on a bare app: what mount() hands the handler is echoed. */
const probe = routes<{ seen: unknown[] }>((route) => [
  route({
    method: 'post',
    path: '/api/probe/{id}/{kind}',
    operationId: 'probe',
    tags: [],
    summary: '',
    description: '',
    authorize: (caller) => {
      if (caller.userName !== 'allowed') throw errors.missingRight('Probe');
    },
    params: z.object({ id: z.string().regex(/^p\d+$/), kind: z.enum(['x', 'z']) }),
    query: z.object({ count: z.number().int().max(10).optional(), flag: z.boolean().optional(), day: localDay().optional(), mode: z.enum(['Fast', 'Slow']).optional() }),
    headers: ifMatchHeader(),
    body: { required: false, schema: named('Probe', z.object({ note: z.string().default('none'), size: z.number().int().min(1).optional() })) },
    responses: {},
    errors: [],
    handler:
      ({ seen }) =>
      (input, _req, res) => {
        seen.push(input);
        res.json(input);
      },
  }),
]);

describe('mount() reads a request as its route declares it', () => {
  const seen: unknown[] = [];
  let url: string;
  let server: ReturnType<ReturnType<typeof express>['listen']>;
  beforeAll(async () => {
    const app = express();
    app.use(requestId);
    app.use((req, res, next) => {
      res.locals.caller = { userName: String(req.headers['x-user'] ?? 'allowed') };
      next();
    });
    app.use('/api', readJsonBody, mount(probe, { seen }));
    app.use(problemHandler(pino({ level: 'silent' })));
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/probe`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = async (path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const r = await fetch(`${url}${path}`, { method: 'POST', headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as any };
  };

  it('hands typed input: query names in any letter case, values coerced to their types, an optional body read as {} with its defaults', async () => {
    const r = await post('/p1/X?COUNT=7&Flag=TRUE&day=2026-02-28&MODE=slow&unknown=1', undefined, { 'If-Match': 'W/"3"' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ params: { id: 'p1', kind: 'x' }, query: { count: 7, flag: true, day: Date.UTC(2026, 1, 28), mode: 'Slow' }, headers: { 'If-Match': 3 }, body: { note: 'none' } });
  });

  it('answers 400 itself, naming every member at fault across query, in its own words', async () => {
    const r = await post('/p1/x?count=11&flag=maybe&day=2026-02-30&mode=Quick', { size: 0 });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: any) => [e.memberName, e.code])).toEqual([
      ['flag', 'Invalid'],
      ['mode', 'Invalid'],
      ['count', 'OutOfRange'],
      ['day', 'Invalid'],
    ]);
    expect(r.body.errors.find((e: any) => e.memberName === 'day').message).toContain('2026-02-30');
    expect((await post('/p1/x', { size: 0 })).body.errors).toEqual([expect.objectContaining({ memberName: 'size', code: 'OutOfRange' })]);
    expect((await post('/p1/x', [1])).body.errors).toEqual([expect.objectContaining({ memberName: '$body' })]);
    expect((await post('/p1/x', undefined, { 'If-Match': 'soon' })).body.errors).toEqual([expect.objectContaining({ memberName: 'If-Match' })]);
  });

  it('an empty value of a number, boolean or enum is not "left out" but a value of the wrong type: 400 naming it (as the lists answer `$skip=`)', async () => {
    const r = await post('/p1/x?count=&flag=&mode=', { size: 1 });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.errors.map((e: any) => [e.memberName, e.code])).toEqual([
      ['count', 'Invalid'],
      ['flag', 'Invalid'],
      ['mode', 'Invalid'],
    ]);
  });

  it('a path whose parameters fail their schema names nothing: 404', async () => {
    expect((await post('/q1/x')).status).toBe(404);
    expect((await post('/p1/y')).status).toBe(404);
  });

  it('checks authorize before it reads anything: a missing right is a 403 whatever the input', async () => {
    const r = await post('/q1/y?count=x', [1], { 'x-user': 'someone' });
    expect([r.status, r.body.errorCode]).toEqual([403, 2]);
  });
});

describe('the hub reads query names in any letter case (CONTRACT §1)', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(() => hub.close());

  it("a browser's event stream passes its token as ?access_token= in any letter case", async () => {
    for (const name of ['access_token', 'ACCESS_TOKEN', 'Access_Token']) {
      const sse = new SseClient(`${hub.url}/api/events?${name}=${hub.adminToken}`, {});
      try {
        await sse.waitFor(() => sse.status !== 0, 5000);
        expect(sse.status, name).toBe(200);
      } finally {
        sse.close();
      }
    }
  });

  it('a report reads its from, to and groupBy in any letter case, and a day that is not one is a 400 naming it', async () => {
    const r = await hub.call('GET', '/api/reports/sales?FROM=2026-01-01&To=2026-01-31&GROUPBY=Day');
    expect([r.status, r.body.groupBy, r.body.from, r.body.to]).toEqual([200, 'day', '2026-01-01', '2026-01-31']);
    const bad = await hub.call('GET', '/api/reports/sales?from=2026-13-01&to=2026-01-31');
    expect(bad.body.errors).toEqual([expect.objectContaining({ memberName: 'from', code: 'Invalid' })]);
    const backwards = await hub.call('GET', '/api/reports/audit?from=2026-02-01&to=2026-01-31');
    expect(backwards.body.errors).toEqual([expect.objectContaining({ memberName: 'to', code: 'OutOfRange' })]);
  });
});
