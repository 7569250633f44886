/**
 * Every page's call to the hub has a deadline (house rule: network calls have timeouts). A hub that
 * took the connection and then hangs must not leave a kitchen display's or a manager's button busy
 * for as long as the browser cares to wait: hub/web/shared/fetch.ts is the one way the pages call
 * (the register's service worker only stands in for the browser's own loads of the page and its
 * files, which the browser times itself), and it tells its deadline from a caller's abort.
 */
import { createServer, type Server } from 'node:http';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeadlineExceeded, fetchWithin } from '../../hub/web/shared/fetch.js';
import { ROOT } from '../support/process.js';

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hangs') return; // accepted, never answered
    if (req.url === '/slow-body') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('half'); // the rest never comes
      return;
    }
    if (req.url === '/empty') {
      res.writeHead(204).end();
      return;
    }
    res.writeHead(201, { 'content-type': 'application/json', 'x-kept': 'yes' }).end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('fetchWithin', () => {
  it('gives up on a hub that accepted the call and never answers, as DeadlineExceeded', async () => {
    await expect(fetchWithin(`${base}/hangs`, {}, 150)).rejects.toBeInstanceOf(DeadlineExceeded);
  });

  it('gives up on an answer whose body never ends (the deadline covers the body the caller reads)', async () => {
    await expect(fetchWithin(`${base}/slow-body`, {}, 150)).rejects.toBeInstanceOf(DeadlineExceeded);
  });

  it('for a download, holds the deadline only until the answer starts: a long body is not cut at the deadline', async () => {
    const res = await fetchWithin(`${base}/slow-body`, {}, 150, undefined, { bodyToo: false });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300)); // past the deadline
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('half');
    await reader.cancel();
  });

  it("a caller's own abort stays the browser's AbortError, not a deadline", async () => {
    const abort = new AbortController();
    const call = fetchWithin(`${base}/hangs`, {}, 60_000, abort.signal);
    abort.abort();
    const e = await call.catch((err: unknown) => err);
    expect(e).not.toBeInstanceOf(DeadlineExceeded);
    expect((e as Error).name).toBe('AbortError');
  });

  it('hands an answer in time over whole: status, headers and body; a 204 with none', async () => {
    const res = await fetchWithin(`${base}/ok`, { method: 'POST', body: '{}' }, 5000);
    expect(res.status).toBe(201);
    expect(res.headers.get('x-kept')).toBe('yes');
    expect(await res.json()).toEqual({ ok: true });
    const empty = await fetchWithin(`${base}/empty`, {}, 5000);
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
  });
});

describe("the pages' calls", () => {
  it('go through fetchWithin: no other module of hub/web calls fetch( itself', () => {
    const web = join(ROOT, 'hub/web');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => {
        const p = join(dir, n);
        if (n === 'dist' || n === 'node_modules') return [];
        return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(n) ? [p] : [];
      });
    const allowed = new Set(['shared/fetch.ts', 'register/sw.ts']);
    const bare = files(web)
      .map((p) => relative(web, p))
      .filter((p) => !allowed.has(p) && /(^|[^\w.])fetch\(/.test(readFileSync(join(web, p), 'utf8')));
    expect(bare).toEqual([]);
  });
});
