/**
 * The display page is served without a token at /kds/<name>, /kds/<name>/expo, /expo and /kds
 * (CONTRACT §11), from the same Vite build as the manager's page, and never in place of an API path.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kdsPage } from '../../hub/http/pages.js';
import { startHub, type TestHub } from '../support/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(() => hub.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(hub.url + path, { headers: { accept: 'text/html', ...headers } });

describe('the kitchen display page', () => {
  it('is served without a token at every display path, never cached, with its own script', async () => {
    let script: string | undefined;
    for (const path of ['/kds', '/kds/Kitchen', '/kds/Kuchy%C5%88a', '/kds/Hot%20line/expo', '/kds/Kitchen?view=expo', '/expo', '/expo?endpoints=Kitchen,Bar', '/kds/Kitchen/']) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(r.headers.get('cache-control'), path).toBe('no-cache');
      const html = await r.text();
      expect(html, path).toContain('<div id="kds">');
      script ??= /<script type="module"[^>]*src="(\/assets\/kds-[^"]+\.js)"/.exec(html)?.[1];
    }
    expect(script, 'kds.html loads its bundle from /assets').toBeDefined();
    const js = await fetch(hub.url + script!);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    // Nothing from another host: a shop may have no internet.
    expect(await (await get('/kds/Kitchen')).text()).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it("leaves the manager's page at / and every API path alone", async () => {
    const manager = await (await get('/')).text();
    expect(manager).toContain('<div id="app">');
    expect(manager).not.toContain('<div id="kds">');
    const api = await fetch(hub.url + '/api/kds/pairings', { headers: { accept: 'text/html' } });
    expect(api.status).toBe(401);
    expect(api.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const unknown = await fetch(hub.url + '/api/kds/Kitchen', { headers: { accept: 'text/html', authorization: `Bearer ${hub.adminToken}` } });
    expect([unknown.status, ((await unknown.json()) as { errorCode: number }).errorCode]).toEqual([404, 7]);
    // Deeper paths are not the display's.
    const deeper = await get('/kds/Kitchen/expo/more');
    expect(await deeper.text()).not.toContain('<div id="kds">');
  });

  it('says how to build it when the build is missing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'poshub-kds-page-'));
    const app = express().use(kdsPage('en', empty));
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const r = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/kds/Kitchen`);
      expect(r.status).toBe(200);
      expect(await r.text()).toContain('npm run web:build');
    } finally {
      server.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
