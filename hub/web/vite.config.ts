/**
 * Builds the browser code of hub/web — the manager's page (manager/), the kitchen display (kds/),
 * the register (register/) and what they share (shared/) — into hub/web/dist, which
 * hub/http/pages.ts serves at `/`, `/kds` and `/pos/`. Files in public/ (the register's icons) are
 * copied as they are.
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
    // Three pages: the manager's (index.html, at /), the kitchen display (kds.html, at /kds/<name>) and
    // the register (pos.html, at /pos/), and the register's service worker, under a fixed name
    // (pos-sw.js, served as /pos/sw.js): a worker's address must stay the same from build to build.
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        kds: fileURLToPath(new URL('./kds.html', import.meta.url)),
        pos: fileURLToPath(new URL('./pos.html', import.meta.url)),
        'pos-sw': fileURLToPath(new URL('./register/sw.ts', import.meta.url)),
      },
      output: { entryFileNames: (chunk) => (chunk.name === 'pos-sw' ? 'pos-sw.js' : 'assets/[name]-[hash].js') },
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: { '/api': { target: process.env.POS_HUB_URL ?? 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  logLevel: 'warn',
});
