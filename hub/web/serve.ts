/**
 * Serves the manager's page built by Vite (hub/web/dist) at `/`: hashed assets cached for good,
 * index.html never cached (so an update shows at the next load), and every other browser path
 * answered with index.html so client routes such as /tickets/42 survive a reload. /api is never
 * touched: app.ts mounts this after the API, whose own 404 answers unknown API paths.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import { errors } from '../http/errors.js';

export const WEB_DIST = fileURLToPath(new URL('./dist/', import.meta.url));

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>POS Hub</title>
<body style="font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem">
<h1>POS Hub</h1><p>The manager's page is not built yet. Run <code>npm run web:build</code> (or <code>npm ci</code>,
which builds it) and reload.</p><p>The API is up: <a href="/api/docs">/api/docs</a>.</p></body></html>`;

export function webPage(dir: string = WEB_DIST): Router {
  const router = Router();
  const index = join(dir, 'index.html');

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
    res.setHeader('Cache-Control', 'no-cache');
    if (!existsSync(index)) {
      res.type('html').send(NOT_BUILT);
      return;
    }
    res.sendFile(index);
  });
  return router;
}
