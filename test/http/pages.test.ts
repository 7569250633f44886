/**
 * The manager's page's scripts and styles are sent compressed (issue 28): brotli or gzip, as the
 * browser accepts, made at build time beside each file, with `Content-Encoding` and `Vary:
 * Accept-Encoding`; the same bytes once decompressed, and the file as it is to a client that accepts
 * neither.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_DIST } from '../../hub/http/pages.js';
import { startHub, type TestHub } from '../support/hub.js';
import { ensureWebBuild } from '../web/build.js';

let hub: TestHub;
let script: string;

beforeAll(async () => {
  await ensureWebBuild();
  hub = await startHub();
  const html = await (await fetch(`${hub.url}/`, { headers: { accept: 'text/html' } })).text();
  script = /<script type="module"[^>]*src="(\/assets\/main-[^"]+\.js)"/.exec(html)![1];
}, 60_000);
afterAll(() => hub.close());

/** A GET with exactly these headers (fetch would add its own Accept-Encoding and decompress). */
function get(path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${hub.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the main bundle', () => {
  it('is sent as brotli to a browser that takes it, as gzip to one that takes only gzip, and as it is otherwise', async () => {
    const original = readFileSync(join(WEB_DIST, script));
    const br = await get(script, { 'accept-encoding': 'gzip, deflate, br' });
    expect([br.status, br.headers['content-encoding'], br.headers['content-type']]).toEqual([200, 'br', 'text/javascript; charset=utf-8']);
    expect(String(br.headers.vary)).toMatch(/Accept-Encoding/i);
    expect(br.headers['cache-control']).toMatch(/immutable/);
    expect(brotliDecompressSync(br.body).equals(original)).toBe(true);
    // Compressed to well under half (the point of it on shop Wi-Fi).
    expect(br.body.length).toBeLessThan(original.length / 2);

    const gz = await get(script, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(original)).toBe(true);

    // A preference for gzip over brotli is honoured.
    expect((await get(script, { 'accept-encoding': 'br;q=0.5, gzip' })).headers['content-encoding']).toBe('gzip');

    const plain = await get(script, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(String(plain.headers.vary)).toMatch(/Accept-Encoding/i);
    expect(plain.body.equals(original)).toBe(true);
    const none = await get(script, {});
    expect([none.headers['content-encoding'], none.body.equals(original)]).toEqual([undefined, true]);
  });

  it('answers HEAD with the headers of the compressed form, and an unknown asset with a 404', async () => {
    const head = await get(script, { 'accept-encoding': 'br' }, 'HEAD');
    expect([head.status, head.headers['content-encoding'], head.body.length]).toEqual([200, 'br', 0]);
    expect((await get('/assets/nope-123.js', { 'accept-encoding': 'br' })).status).toBe(404);
    expect((await get('/assets/..%2Findex.html', { 'accept-encoding': 'br' })).status).toBe(404);
  });
});
