/**
 * The pages the hub serves outside /api, built by Vite from hub/web (browser code only) into
 * hub/web/dist. Both are mounted by app.ts after the API, so neither ever shadows an /api path.
 * Every answer, these pages' and the API's, carries securityHeaders() (below): a page never
 * sets its own policy.
 *
 * - The manager's page at `/`: hashed assets cached for good and sent compressed (brotli or gzip,
 *   made at build time beside each file) to a browser that accepts it, index.html never cached (so an
 *   update shows at the next load), and every other browser path answered with index.html so
 *   client routes such as /tickets/42 survive a reload. /api is never touched: the API's own 404
 *   answers unknown API paths.
 * - The kitchen display (kds.html) at `/kds/<orderEndpointName>`, the pass at `/kds/<name>/expo`
 *   and `/expo`, and the endpoint picker at `/kds`. Served without a token (CONTRACT §11): the
 *   page logs in itself. Its hashed scripts come from /assets, which the manager's router serves.
 * - The register (pos.html, issue 29) at `/pos/`, with its web app manifest and its service worker
 *   (`/pos/sw.js`, scope `/pos/`: it keeps the page and its assets so a register starts without the
 *   network). Served without a token like the display: the page pairs and logs in itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { errors } from './errors.js';
import { t, type Language } from '../i18n/index.js';

/**
 * The Content-Security-Policy of every page the hub (or HQ) serves (CONTRACT §12 "Pages"): scripts
 * only from the hub's own files — no inline script, no inline handler, no eval — so a value from the
 * database that slipped into the markup still cannot run; and no framing by another site
 * (clickjacking). Styles may be inline (the docs viewer's <style>, the pages' style attributes):
 * a style runs nothing. Data and blob images are the pages' own icons and downloads.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The rule for every answer, mounted first in app.ts (and HQ's app): so every page — the manager's,
 * the kitchen display, the API docs, the register at /pos/, any page added later — gets the policy
 * without its route having to remember it, and every API answer gets `nosniff` (a JSON body a
 * browser is told not to read as anything else). The policy on a JSON answer is harmless and stops
 * one opened as a document from being framed.
 */
export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', PAGE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // For browsers older than frame-ancestors.
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
}

export const WEB_DIST = fileURLToPath(new URL('../web/dist/', import.meta.url));

export const KDS_PATHS = ['/kds', '/kds/:name', '/kds/:name/expo', '/expo'];

/** What a page path answers before `npm run web:build` has run. */
function notBuilt(title: string, what: string, more = ''): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>${title}</title>
<body style="font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem">
<h1>${title}</h1><p>${what} is not built yet. Run <code>npm run web:build</code> (or <code>npm ci</code>,
which builds it) and reload.</p>${more}</body></html>`;
}
const MANAGER_NOT_BUILT = notBuilt('POS Hub', "The manager's page", '<p>The API is up: <a href="/api/docs">/api/docs</a>.</p>');
const KDS_NOT_BUILT = notBuilt('Kitchen display', 'The display page');
const POS_NOT_BUILT = notBuilt('Register', 'The register page');

/**
 * Sends a built HTML page, never cached: a tablet left on for weeks picks up a new build at its next
 * reload. Its `<html lang>` is the shop's language (POS_HUB_LOCALE): the page speaks it until a user
 * with a language of their own logs in, and the login screen is in it.
 */
function sendPage(res: Response, file: string, missing: string, language: string): void {
  res.setHeader('Cache-Control', 'no-cache');
  if (!existsSync(file)) {
    res.type('html').send(missing);
    return;
  }
  res.type('html').send(readFileSync(file, 'utf8').replace(/<html lang="[^"]*">/, `<html lang="${language}">`));
}

/** Compressed forms the build writes beside an asset (hub/web/vite.config.ts), the best first. */
const ENCODINGS: Array<{ name: string; suffix: string }> = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
];
const ASSET_NAME = /^\/[A-Za-z0-9_.-]+$/;

/**
 * The encoding to send of those built: the highest `q` the browser gives (a `*` counts for the
 * unnamed), ties to the better compression (br before gzip). Browsers list gzip first and brotli later
 * with the same weight, which a first-listed choice would take as a preference for gzip.
 */
export function pickEncoding(header: string | undefined, built: readonly string[]): string | undefined {
  const q = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const weight = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    q.set(name, weight === undefined ? 1 : Number(weight));
  }
  let best: string | undefined;
  let bestQ = 0;
  for (const name of built) {
    const weight = q.get(name) ?? q.get('*') ?? 0;
    if (weight > bestQ) [best, bestQ] = [name, weight];
  }
  return best;
}

/** An asset in the encoding the browser prefers among those built, else nothing (express.static sends it as it is). */
function compressedAssets(assets: string): express.RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // The answer depends on Accept-Encoding, compressed or not: caches must keep them apart.
    res.setHeader('Vary', 'Accept-Encoding');
    if (!ASSET_NAME.test(req.path) || req.path.includes('..')) return next();
    const file = join(assets, req.path);
    const built = ENCODINGS.filter((e) => existsSync(file + e.suffix));
    const chosen = pickEncoding(req.headers['accept-encoding'], built.map((e) => e.name));
    const encoding = built.find((e) => e.name === chosen);
    if (!encoding || !existsSync(file)) return next();
    res.setHeader('Content-Encoding', encoding.name);
    res.type(extname(file));
    // The type is the asset's own (set first: sendFile keeps a type already set, not the suffix's).
    res.sendFile(file + encoding.suffix, { immutable: true, maxAge: '365d' }, (err) => {
      if (err) next(err);
    });
  };
}

export function webPage(language = 'en', dir: string = WEB_DIST): Router {
  const router = Router();
  const index = join(dir, 'index.html');

  router.use('/assets', compressedAssets(join(dir, 'assets')));
  router.use('/assets', express.static(join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d' }));
  // A missing asset is a 404, not the page: a stale bundle name must fail visibly.
  router.use('/assets', (req) => {
    throw errors.routeNotFound(req.originalUrl.split('?')[0]);
  });
  router.use(express.static(dir, { index: false, maxAge: 0 }));

  router.get('/{*path}', (req, res, next) => {
    if (req.path === '/api' || req.path.startsWith('/api/')) return next();
    // Browsers ask for HTML; a program asking for JSON at an unknown path gets the 404 problem.
    if (req.accepts(['html', 'json']) !== 'html') return next();
    sendPage(res, index, MANAGER_NOT_BUILT, language);
  });
  return router;
}

export function kdsPage(language = 'en', dir: string = WEB_DIST): Router {
  const router = Router();
  const file = join(dir, 'kds.html');
  for (const path of KDS_PATHS) router.get(path, (_req, res) => sendPage(res, file, KDS_NOT_BUILT, language));
  return router;
}

/** The register's paths: the page itself (its screens are not in the path), the manifest and the service worker. */
export const POS_PATHS = ['/pos', '/pos/'];

/**
 * The register's web app manifest, in the shop's language: what a tablet's "Add to home screen"
 * names the app and opens (the register's own scope, full screen without the browser's bar).
 */
export function posManifest(language: Language): Record<string, unknown> {
  return {
    name: t(language, 'pos.appName'),
    short_name: t(language, 'pos.appShortName'),
    lang: language,
    start_url: '/pos/',
    scope: '/pos/',
    id: '/pos/',
    display: 'standalone',
    orientation: 'any',
    background_color: '#10151c',
    theme_color: '#10151c',
    icons: [
      { src: '/pos-icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/pos-icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/pos-icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ],
  };
}

export function posPage(language: Language = 'en', dir: string = WEB_DIST): Router {
  const router = Router();
  const file = join(dir, 'pos.html');
  for (const path of POS_PATHS) router.get(path, (_req, res) => sendPage(res, file, POS_NOT_BUILT, language));
  router.get('/pos/manifest.webmanifest', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/manifest+json').send(JSON.stringify(posManifest(language)));
  });
  // The worker is checked for updates at every start of the page (never cached by HTTP), so a new build reaches the tablets.
  router.get('/pos/sw.js', (_req, res, next) => {
    const worker = join(dir, 'pos-sw.js');
    if (!existsSync(worker)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/javascript').send(readFileSync(worker, 'utf8'));
  });
  return router;
}
