/**
 * GET /api/openapi.json and the readable pages, all without a token and served by the hub (a shop
 * offline has no CDN): /api/docs/ lists every operation at once with a light viewer
 * (hub/web/docs/viewer.js, a plain browser script), and /api/docs/swagger/ is Swagger UI for trying
 * requests out. The document itself is made in hub/openapi.ts and handed in, so this module does
 * not depend on what it documents.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import express, { Router, type Request, type Response } from 'express';
// The package's index also require()s the 1.5 MB browser bundle; the path helper alone is enough.
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';
import { z } from 'zod';
import { JSON_TYPE } from './api-docs.js';
import { errors } from './errors.js';
import { routes } from './route.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * One page shell for both docs pages (the light viewer and Swagger UI): the document's address as
 * `describedby` and a `<noscript>` link to it, assets resolved under /api/docs/; each page adds
 * its own head lines and body.
 */
function docsPage(base: string, page: (spec: string) => { head: string; body: string }): string {
  const spec = escapeHtml(`${base}/openapi.json`);
  const docs = escapeHtml(`${base}/docs/`);
  const { head, body } = page(spec);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>POS Hub API</title>
<base href="${docs}">
<link rel="icon" type="image/png" href="favicon-32x32.png" sizes="32x32">
<link rel="describedby" type="application/openapi+json" href="${spec}">
${head}
</head>
<body>
<noscript><p>This page needs JavaScript. The API description itself is at <a href="${spec}">${spec}</a>.</p></noscript>
${body}
</body>
</html>
`;
}

/** The light viewer's page: the list of operations shows as soon as the document is read. */
const viewerPage = (base: string): string =>
  docsPage(base, (spec) => ({
    head: `<style>
body { font: 15px/1.45 system-ui, sans-serif; color: #1b2330; max-width: 72rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; margin: .5rem 0; } h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; border-bottom: 1px solid #d5dbe3; }
input[type=search] { width: 100%; font-size: 16px; padding: .5rem; margin: .5rem 0; box-sizing: border-box; }
details.op { border: 1px solid #d5dbe3; border-radius: 6px; margin: .3rem 0; background: #fff; }
details.op > summary { cursor: pointer; padding: .4rem .6rem; display: flex; gap: .6rem; align-items: baseline; flex-wrap: wrap; }
.method { font: bold 12px monospace; padding: .15rem .4rem; border-radius: 4px; color: #fff; min-width: 3.5rem; text-align: center; }
.get { background: #2f6fb3; } .post { background: #2e8b57; } .put { background: #b7791f; } .patch { background: #6b46c1; } .delete { background: #c53030; }
.path { font-weight: 600; word-break: break-all; } .summary { color: #4a5566; }
.op-body { padding: .2rem .8rem .8rem; border-top: 1px solid #e6eaf0; }
pre.schema { background: #f5f7fa; padding: .5rem; overflow: auto; max-height: 30rem; font-size: 12px; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; border-bottom: 1px solid #e6eaf0; padding: .25rem .4rem; vertical-align: top; }
.req { color: #c53030; } code { background: #eef1f5; padding: 0 .2rem; border-radius: 3px; }
</style>`,
    body: `<main id="docs" data-spec-url="${spec}">Loading the API description…</main>
<script src="viewer.js" charset="utf-8"></script>`,
  }));

/** Swagger UI's page (at /api/docs/swagger/; its assets resolve under /api/docs/). */
const swaggerPage = (base: string): string =>
  docsPage(base, (spec) => ({
    head: '<link rel="stylesheet" href="swagger-ui.css">',
    body: `<div id="swagger-ui" data-spec-url="${spec}"></div>
<script src="swagger-ui-bundle.js" charset="utf-8"></script>
<script src="poshub-init.js" charset="utf-8"></script>`,
  }));

// A file rather than an inline script, so the page also works under a script-src 'self' policy.
// validatorUrl null: Swagger UI would otherwise ask validator.swagger.io, which a shop offline cannot reach.
const INIT_SCRIPT = `window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-spec-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
});
`;

/**
 * Sends `body` gzipped to a client that takes gzip (every browser): Swagger UI's bundle and the
 * document are 2.2 MB as they are and 0.5 MB gzipped, which on a tablet on the shop's Wi-Fi was most
 * of the 8–20 s before the page showed its operations. Each body is compressed once (~40 ms for the
 * bundle) and kept, keyed by the body itself, so a document that changed is compressed again.
 */
const gzipped = new Map<string, { body: string | Buffer; gz: Buffer }>();
function sendCompressible(req: Request, res: Response, key: string, type: string, body: string | Buffer): void {
  res.type(type).vary('Accept-Encoding');
  if (!req.acceptsEncodings('gzip')) {
    res.send(body);
    return;
  }
  let entry = gzipped.get(key);
  if (entry?.body !== body) {
    entry = { body, gz: gzipSync(body) };
    gzipped.set(key, entry);
  }
  res.set('Content-Encoding', 'gzip').send(entry.gz);
}

/** Swagger UI's two big files, read once; the small ones are served as files by express.static. */
const BIG_ASSETS: Record<string, string> = { 'swagger-ui-bundle.js': 'application/javascript', 'swagger-ui.css': 'text/css' };
const assetBodies = new Map<string, Buffer>();
function bigAsset(name: string): Buffer {
  let body = assetBodies.get(name);
  if (!body) {
    body = readFileSync(join(getAbsoluteFSPath(), name));
    assetBodies.set(name, body);
  }
  return body;
}

const page = (req: Request, res: Response) => {
  res.type('html').send(viewerPage(req.baseUrl));
};

const swagger = (req: Request, res: Response) => {
  res.type('html').send(swaggerPage(req.baseUrl));
};

/** The viewer's script, read once (a plain browser file beside the pages' sources). */
let viewerScript: Buffer | undefined;
const VIEWER = fileURLToPath(new URL('../web/docs/viewer.js', import.meta.url));

export const docsRoutes = routes<{ document: () => string }>((route) => [
  route({
    method: 'get',
    path: '/api/openapi.json',
    operationId: 'system.openapi',
    tags: ['System'],
    noToken: true,
    summary: 'This document',
    description: 'No token. OpenAPI 3.1, generated from the declarations the hub validates and routes with.',
    responses: { 200: { description: 'The OpenAPI document.', schema: z.record(z.string(), z.unknown()) } },
    errors: [],
    handler:
      ({ document }) =>
      (_input, req, res) => {
        sendCompressible(req, res, 'openapi.json', JSON_TYPE, document());
      },
  }),
  route({
    method: 'get',
    path: '/api/docs/',
    operationId: 'system.docs',
    tags: ['System'],
    noToken: true,
    summary: 'This document as a readable page',
    description:
      'No token, no network beyond the hub: the page and its scripts are served by the hub. `/api/docs` redirects here. ' +
      'Every operation is listed at once (a light viewer); `/api/docs/swagger/` is Swagger UI for trying requests out.',
    responses: { 200: { description: 'An HTML page.', schema: z.string(), contentType: 'text/html' } },
    errors: [],
    handler: () => (_input, req, res) => {
      // Non-strict routing lets /docs and /docs/ both land here; only the slash form resolves the assets.
      if (!req.path.endsWith('/')) {
        const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
        res.redirect(301, `${req.baseUrl}/docs/${query}`);
        return;
      }
      page(req, res);
    },
  }),
]);

/** The page's files (not operations of the API): Swagger UI's bundle and our initializer. */
export function docsAssets(): Router {
  const router = Router();
  router.get('/docs/index.html', page);
  router.get('/docs/viewer.js', (req, res) => {
    viewerScript ??= readFileSync(VIEWER);
    sendCompressible(req, res, 'viewer.js', 'application/javascript', viewerScript);
  });
  // Non-strict routing lands /swagger and /swagger/ here; only the slash form resolves the assets.
  router.get('/docs/swagger', (req, res) => (req.path.endsWith('/') ? swagger(req, res) : res.redirect(301, `${req.baseUrl}/docs/swagger/`)));
  router.get('/docs/poshub-init.js', (_req, res) => {
    res.type('application/javascript').send(INIT_SCRIPT);
  });
  // The package's own index.html and initializer point at petstore.swagger.io; ours replace them.
  router.get('/docs/swagger-initializer.js', (req) => {
    throw errors.routeNotFound(req.originalUrl.split('?')[0]);
  });
  for (const [name, type] of Object.entries(BIG_ASSETS)) {
    router.get(`/docs/${name}`, (req, res) => {
      res.set('Cache-Control', 'public, max-age=3600');
      sendCompressible(req, res, name, type, bigAsset(name));
    });
  }
  router.use('/docs', express.static(getAbsoluteFSPath(), { index: false, redirect: false, maxAge: '1h' }));
  router.use('/docs', (req) => {
    // Without this, an unknown asset would fall through to the auth middleware and answer 401.
    if (req.method === 'GET' || req.method === 'HEAD') throw errors.routeNotFound(req.originalUrl.split('?')[0]);
    throw errors.methodNotAllowed(req.method, req.originalUrl.split('?')[0], ['GET']);
  });
  return router;
}
