/**
 * Builds the browser code of hub/web — the manager's page (manager/), the kitchen display (kds/)
 * and what both use (shared/) — into hub/web/dist, which hub/http/pages.ts serves at `/` and `/kds`.
 * `npm run web:dev` serves it with hot reload and forwards /api to a hub on :8080.
 */
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  // Everything the page needs is bundled: the hub may have no internet.
  plugins: [preact({ devToolsEnabled: false, prefreshEnabled: true })],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    // Two pages: the manager's (index.html, at /) and the kitchen display (kds.html, at /kds/<name>).
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        kds: fileURLToPath(new URL('./kds.html', import.meta.url)),
        // Head office's page (hq.html), served by HQ at /hq/, not by the hub.
        hq: fileURLToPath(new URL('./hq.html', import.meta.url)),
      },
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: { '/api': { target: process.env.POS_HUB_URL ?? 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  logLevel: 'warn',
});
