/**
 * The register's page (issue 29) is served without a token at /pos/ (the page pairs and logs in
 * itself), in the shop's language, with its web app manifest (installable from the home screen) and
 * its service worker at /pos/sw.js (scope /pos/), from the same Vite build as the other pages, and
 * never in place of an API path. Nothing it loads comes from another host.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posPage } from '../../hub/http/pages.js';
import { startHub, type TestHub } from '../support/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub({ locale: 'sk' });
});
afterAll(() => hub.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(hub.url + path, { headers: { accept: 'text/html', ...headers } });

describe('the register page', () => {
  it('is served without a token at /pos and /pos/, never cached, in the shop language, with its own bundle from this host only', async () => {
    let script: string | undefined;
    for (const path of ['/pos', '/pos/', '/pos/#pair=123456']) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('cache-control'), path).toBe('no-cache');
      const html = await r.text();
      expect(html, path).toContain('<div id="pos">');
      expect(html).toContain('<html lang="sk">');
      expect(html).toContain('<link rel="manifest" href="/pos/manifest.webmanifest"');
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
      script ??= /<script type="module"[^>]*src="(\/assets\/pos-[^"]+\.js)"/.exec(html)?.[1];
    }
    expect(script, 'pos.html loads its bundle from /assets').toBeDefined();
    expect((await fetch(hub.url + script!)).status).toBe(200);
  });

  it('answers its manifest (standalone, scope /pos/, icons that exist) and its service worker, uncached', async () => {
    const m = await fetch(hub.url + '/pos/manifest.webmanifest');
    expect(m.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await m.json()) as { name: string; start_url: string; scope: string; display: string; icons: Array<{ src: string; sizes: string }> };
    expect(manifest).toMatchObject({ name: 'POS Hub pokladňa', start_url: '/pos/', scope: '/pos/', display: 'standalone' });
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of manifest.icons) expect((await fetch(hub.url + icon.src)).status, icon.src).toBe(200);
    const sw = await fetch(hub.url + '/pos/sw.js');
    expect(sw.status).toBe(200);
    expect(sw.headers.get('content-type')).toMatch(/javascript/);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    expect(await sw.text()).toContain('poshub-pos');
  });

  it("leaves the manager's page and the API alone", async () => {
    expect(await (await get('/')).text()).toContain('<div id="app">');
    const api = await fetch(hub.url + '/api/pos', { headers: { accept: 'text/html', authorization: `Bearer ${hub.adminToken}` } });
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('says how to build it when the build is missing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'poshub-pos-page-'));
    const app = express().use(posPage('en', empty));
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const r = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/pos/`);
      expect(await r.text()).toContain('npm run web:build');
      expect((await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/pos/sw.js`)).status).toBe(404);
    } finally {
      server.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
