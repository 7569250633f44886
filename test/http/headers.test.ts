/**
 * Security headers (issue 30 point 10, CONTRACT §12 "Pages"): every HTML page the hub serves sends
 * a Content-Security-Policy with `frame-ancestors 'none'` and no `'unsafe-inline'` for scripts, and
 * `X-Content-Type-Options: nosniff`; every API answer — errors and the HTTP parser's refusals
 * included — sends nosniff too. The pages hold no inline script the policy would block.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(() => hub.close());

/** The directives of a policy, by name. */
function directives(policy: string | null): Map<string, string[]> {
  return new Map(
    (policy ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name.toLowerCase(), values]),
  );
}

/** Scripts run only from the hub's own files: `script-src` (else `default-src`) allows no inline script, no eval, nothing else. */
function expectPagePolicy(policy: string | null, what: string): void {
  const d = directives(policy);
  expect(d.get('frame-ancestors'), what).toEqual(["'none'"]);
  const scripts = d.get('script-src') ?? d.get('default-src');
  expect(scripts, what).toBeDefined();
  for (const bad of ["'unsafe-inline'", "'unsafe-eval'", '*', 'data:', 'http:', 'https:']) expect(scripts, what).not.toContain(bad);
  expect(d.get('object-src'), what).toEqual(["'none'"]);
}

const PAGES = ['/', '/tickets/42', '/settings?kind=printers', '/kds', '/kds/Kitchen', '/kds/Kitchen/expo', '/expo', '/api/docs/', '/api/docs/index.html', '/api/docs/swagger/'];

describe('every HTML page', () => {
  it.each(PAGES)('%s: CSP with frame-ancestors none and no inline script, nosniff, and no inline script in its markup', async (path) => {
    const r = await fetch(hub.url + path, { headers: { accept: 'text/html' } });
    expect(r.status, path).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expectPagePolicy(r.headers.get('content-security-policy'), path);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    const html = await r.text();
    // What the policy would refuse to run: a <script> without src, an inline handler, a javascript: URL.
    expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/gi) ?? [], path).toEqual([]);
    expect(html.match(/\son[a-z]+\s*=/gi) ?? [], path).toEqual([]);
    expect(html).not.toMatch(/javascript:/i);
  });
});

describe('API answers', () => {
  it('carry nosniff: JSON, problem+json errors, CSV, scripts and the document', async () => {
    const answers = [
      await fetch(`${hub.url}/api/health`),
      await fetch(`${hub.url}/api/openapi.json`),
      await fetch(`${hub.url}/api/stocks`, { headers: { authorization: `Bearer ${hub.adminToken}` } }),
      await fetch(`${hub.url}/api/stocks`),
      await fetch(`${hub.url}/api/nowhere`, { headers: { authorization: `Bearer ${hub.adminToken}` } }),
      await fetch(`${hub.url}/api/stocks`, { method: 'POST', headers: { authorization: `Bearer ${hub.adminToken}`, 'content-type': 'application/json' }, body: '{' }),
      await fetch(`${hub.url}/api/reports/sales?from=2026-11-01&to=2026-11-02&format=csv`, { headers: { authorization: `Bearer ${hub.adminToken}` } }),
      await fetch(`${hub.url}/api/docs/viewer.js`),
      await fetch(`${hub.url}/metrics`),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 401, 404, 400, 200, 200, 401]);
    for (const r of answers) {
      expect(r.headers.get('x-content-type-options'), r.url).toBe('nosniff');
      expectPagePolicy(r.headers.get('content-security-policy'), r.url);
      await r.arrayBuffer();
    }
  });

  it('carry nosniff when the HTTP parser refuses the request', async () => {
    const port = Number(new URL(hub.url).port);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
      let text = '';
      socket.on('data', (b) => (text += b.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/i);
  });
});
