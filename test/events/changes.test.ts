import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compact } from '../../hub/engine/change-log.js';
import { SseClient } from '../support/sse.js';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(() => hub.close());

const auth = () => ({ authorization: `Bearer ${hub.adminToken}` });

describe('change log', () => {
  it('records every stored change with seq, resource, key, op and _v, served by /api/changes', async () => {
    const start = (await hub.call('GET', '/api/changes?since=0&$take=1000')).body.lastSeq as number;
    await hub.call('POST', '/api/stocks', { name: 'Cellar' });
    await hub.call('PUT', '/api/stocks/Cellar', { description: 'cold' });
    await hub.call('DELETE', '/api/stocks/Cellar');
    const r = await hub.call('GET', `/api/changes?since=${start}`);
    expect(r.status).toBe(200);
    expect(r.body.items.map((c: any) => [c.resource, c.key, c.op, c._v])).toEqual([
      ['stocks', 'Cellar', 'upsert', 1],
      ['stocks', 'Cellar', 'upsert', 2],
      ['stocks', 'Cellar', 'delete', 3],
    ]);
    expect(r.body.count).toBe(3);
    expect(r.body.lastSeq).toBe(r.body.items[2].seq);
    expect(r.body.items[0].at).toBe('2026-11-21T10:00:00.000Z');
    const page = await hub.call('GET', `/api/changes?since=${start}&$take=2`);
    expect(page.body.items).toHaveLength(2);
    const rest = await hub.call('GET', `/api/changes?since=${page.body.lastSeq}`);
    expect(rest.body.items.map((c: any) => c.op)).toEqual(['delete']);
    const empty = await hub.call('GET', `/api/changes?since=${rest.body.lastSeq}`);
    expect(empty.body).toEqual({ items: [], count: 0, lastSeq: rest.body.lastSeq });
  });

  it('refuses a bad position and needs a token', async () => {
    expect((await hub.call('GET', '/api/changes?since=abc')).status).toBe(400);
    // An empty position is not "from the start": it was taken as none and answered 200.
    for (const q of ['since=', '$take=', 'since=0&$take=']) {
      const r = await hub.call('GET', `/api/changes?${q}`);
      expect([r.status, r.body.errors?.[0]?.code], q).toEqual([400, 'Invalid']);
    }
    // Any position up to the documented bound (2^53 - 1) is one; past it, out of range whatever its digits.
    const far = String(Number.MAX_SAFE_INTEGER);
    expect((await hub.call('GET', `/api/changes?since=${far}`)).body).toEqual({ items: [], count: 0, lastSeq: Number.MAX_SAFE_INTEGER });
    for (const since of ['9007199254740992', '99999999999999999999']) {
      const r = await hub.call('GET', `/api/changes?since=${since}`);
      expect([r.status, r.body.errors?.[0]?.memberName, r.body.errors?.[0]?.code]).toEqual([400, 'since', 'OutOfRange']);
    }
    expect((await hub.call('GET', '/api/changes?since=0', undefined, { token: null })).status).toBe(401);
    expect((await hub.call('GET', '/api/events', undefined, { token: null })).status).toBe(401);
  });

  it('answers 410 for a position compaction has dropped', async () => {
    await hub.call('POST', '/api/stocks', { name: 'Old' });
    const before = (await hub.call('GET', '/api/changes?since=0&$take=1000')).body.lastSeq as number;
    hub.clock.advance(40 * 86_400_000);
    hub.adminToken = await hub.login('admin', ADMIN_PASSWORD, 'BackOffice'); // the old token expired meanwhile
    await hub.call('POST', '/api/stocks', { name: 'New' });
    expect(compact(hub.db, hub.clock.now().getTime())).toBeGreaterThan(0);
    const r = await hub.call('GET', '/api/changes?since=0');
    expect(r.status).toBe(410);
    expect(r.body.errorCode).toBe(12);
    const ok = await hub.call('GET', `/api/changes?since=${before}`);
    expect(ok.status).toBe(200);
    expect(ok.body.items.map((c: any) => c.key)).toEqual(['New']);
  });
});

describe('Server-Sent Events', () => {
  // How fast: `npm run bench` (a test that timed it would flake under load).
  it('delivers a change as it is made', async () => {
    const sse = new SseClient(`${hub.url}/api/events`, auth());
    await sse.waitFor(() => sse.status === 200);
    await hub.call('POST', '/api/stocks', { name: 'Live' });
    await sse.waitFor((evs) => evs.some((e) => JSON.parse(e.data).key === 'Live'), 20_000);
    const ev = sse.events.find((e) => JSON.parse(e.data).key === 'Live')!;
    expect(ev.event).toBe('stocks');
    expect(ev.id).toBe(String(JSON.parse(ev.data).seq));
    sse.close();
  });

  it('sends a change written in this process without waiting for the poll (which is there for other connections)', async () => {
    // The hub's intervals stand still: its 50 ms poll of the change log never runs while this stream is open.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const sse = new SseClient(`${hub.url}/api/events`, auth());
      await sse.waitFor(() => sse.status === 200);
      await hub.call('POST', '/api/stocks', { name: 'Pushed' });
      await sse.waitFor((evs) => evs.some((e) => JSON.parse(e.data).key === 'Pushed'), 20_000);
      sse.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('resumes after Last-Event-ID with nothing missed or repeated across 200 changes', async () => {
    const first = new SseClient(`${hub.url}/api/events`, auth());
    await first.waitFor(() => first.status === 200);
    await hub.call('POST', '/api/stocks', { name: 'R0' });
    await first.waitFor((evs) => evs.some((e) => JSON.parse(e.data).key === 'R0'));
    const lastId = first.events[first.events.length - 1].id!;
    first.close();
    for (let i = 1; i <= 200; i++) await hub.call('POST', '/api/stocks', { name: `R${i}` });
    const second = new SseClient(`${hub.url}/api/events`, { ...auth(), 'Last-Event-ID': lastId });
    await second.waitFor((evs) => evs.some((e) => JSON.parse(e.data).key === 'R200'), 3000);
    const keys = second.events.map((e) => JSON.parse(e.data).key);
    expect(keys).toEqual(Array.from({ length: 200 }, (_, i) => `R${i + 1}`));
    const seqs = second.events.map((e) => Number(e.id));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    second.close();
  });

  it('stops sending a resource\'s entries once its read right is taken away, the stream still open (CONTRACT §12)', async () => {
    const token = await hub.userWith(['CustomerRead']);
    const me = (await hub.call('GET', '/api/auth', undefined, { token })).body.user;
    const sse = new SseClient(`${hub.url}/api/events`, { authorization: `Bearer ${token}` });
    await sse.waitFor(() => sse.status === 200);
    const seen = () => sse.events.map((e) => `${e.event}:${JSON.parse(e.data).key}`);
    const before = await hub.call('POST', '/api/customers', { firstName: 'Seen', lastName: 'Before' });
    await sse.waitFor(() => seen().includes(`customers:${before.body.id}`));
    const user = (await hub.call('GET', `/api/users/${me.id}`)).body;
    expect((await hub.call('PUT', `/api/users/${me.id}`, { ...user, rights: [] })).status).toBe(200);
    const after = await hub.call('POST', '/api/customers', { firstName: 'Hidden', lastName: 'After' });
    await hub.call('POST', '/api/stocks', { name: 'AfterRevoke' });
    await sse.waitFor(() => seen().includes('stocks:AfterRevoke'));
    expect(seen()).not.toContain(`customers:${after.body.id}`);
    // The same as a poll by that session answers.
    const from = sse.events.find((e) => JSON.parse(e.data).key === before.body.id)!.id;
    const polled = (await hub.call('GET', `/api/changes?since=${from}`, undefined, { token })).body.items;
    expect(polled.map((c: { resource: string; key: string }) => `${c.resource}:${c.key}`)).toContain('stocks:AfterRevoke');
    expect(polled.some((c: { resource: string }) => c.resource === 'customers')).toBe(false);
    sse.close();
  });

  it('takes the token as access_token for browsers', async () => {
    const sse = new SseClient(`${hub.url}/api/events?access_token=${hub.adminToken}`, {});
    await sse.waitFor(() => sse.status !== 0);
    expect(sse.status).toBe(200);
    sse.close();
  });
});

describe('health', () => {
  it('reports the change-log position to a token holding SettingsRead, and nothing of the shop without a token (CONTRACT §9)', async () => {
    const anonymous = await hub.call('GET', '/api/health', undefined, { token: null });
    expect(anonymous.status).toBe(200);
    expect(Object.keys(anonymous.body).sort()).toEqual(['db', 'status', 'uptimeS', 'version']);
    const before = await hub.call('GET', '/api/health');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ status: 'ok', db: 'ok', changeLog: { lastSeq: expect.any(Number) } });
    await hub.call('POST', '/api/stocks', { name: 'HealthCheck' });
    const after = await hub.call('GET', '/api/health');
    expect(after.body.changeLog.lastSeq).toBe(before.body.changeLog.lastSeq + 1);
    expect(typeof after.body.uptimeS).toBe('number');
  });
});
