/**
 * HQ's page at /hq/ (stores, sales, dead letters, users), rendered like the manager's page: a
 * Preact page built by Vite from hub/web/hq (hq.html in hub/web/dist), whose every value from a
 * store is rendered as text (CONTRACT §12 Pages; the CSP that forbids inline script is api.ts's,
 * on every answer). Its hashed scripts and styles come from /assets.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router } from 'express';
import { errors } from '../http/errors.js';
import { WEB_DIST } from '../http/pages.js';

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>POS Hub HQ</title>
<body><h1>POS Hub HQ</h1><p>The page is not built yet. Run <code>npm run web:build</code> (or <code>npm ci</code>,
which builds it) and reload. The API is up at /hq/api.</p></body></html>`;

export function hqPage(dir: string = WEB_DIST): Router {
  const router = Router();
  const file = join(dir, 'hq.html');
  router.use('/assets', express.static(join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d' }));
  router.use('/assets', (req) => {
    throw errors.routeNotFound(req.originalUrl.split('?')[0]);
  });
  // Never cached: an update shows at the next load.
  router.get(['/hq', '/hq/'], (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(existsSync(file) ? readFileSync(file, 'utf8') : NOT_BUILT);
  });
  return router;
}
