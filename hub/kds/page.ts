/**
 * The kitchen display page (hub/web/kds.html, built by Vite beside the manager's page) at
 * `/kds/<orderEndpointName>`, the pass at `/kds/<name>/expo` and `/expo`, and the endpoint picker
 * at `/kds`. Served without a token (CONTRACT §11): the page logs in itself. Its hashed scripts
 * come from /assets, which the manager's page router serves. Mounted outside /api, so it can
 * never shadow an API path.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Router, type Request, type Response } from 'express';
import { WEB_DIST } from '../web/serve.js';

export const KDS_PATHS = ['/kds', '/kds/:name', '/kds/:name/expo', '/expo'];

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Kitchen display</title>
<body style="font:20px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem">
<h1>Kitchen display</h1><p>The display page is not built yet. Run <code>npm run web:build</code> (or <code>npm ci</code>,
which builds it) and reload.</p></body></html>`;

export function kdsPage(dir: string = WEB_DIST): Router {
  const router = Router();
  const file = join(dir, 'kds.html');
  const send = (_req: Request, res: Response) => {
    // Never cached: a tablet left on for weeks picks up a new build at its next reload.
    res.setHeader('Cache-Control', 'no-cache');
    if (!existsSync(file)) {
      res.type('html').send(NOT_BUILT);
      return;
    }
    res.sendFile(file);
  };
  for (const path of KDS_PATHS) router.get(path, send);
  return router;
}
