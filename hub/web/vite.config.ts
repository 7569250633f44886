/**
 * Builds the browser code of hub/web — the manager's page (manager/), the kitchen display (kds/),
 * the register (register/) and what they share (shared/) — into hub/web/dist, which
 * hub/http/pages.ts serves at `/`, `/kds` and `/pos/`. Files in public/ (the register's icons) are
 * copied as they are.
 * `npm run web:dev` serves it with hot reload and forwards /api to a hub on :8080.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const outDir = fileURLToPath(new URL('./dist', import.meta.url));

/**
 * Each script and style sheet also as `.br` and `.gz` beside it, compressed once at build time at the
 * highest levels (a tablet on shop Wi-Fi loads ~70 KB instead of ~270 KB); hub/http/pages.ts sends
 * the one the browser accepts, with Content-Encoding and Vary.
 */
function precompress(): Plugin {
  return {
    name: 'poshub-precompress',
    apply: 'build',
    closeBundle() {
      const assets = join(outDir, 'assets');
      for (const name of readdirSync(assets).filter((n) => /\.(js|css|svg)$/.test(n))) {
        const body = readFileSync(join(assets, name));
        writeFileSync(join(assets, `${name}.br`), brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
        writeFileSync(join(assets, `${name}.gz`), gzipSync(body, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root,
  base: '/',
  // Everything the page needs is bundled: the hub may have no internet.
  plugins: [preact({ devToolsEnabled: false, prefreshEnabled: true }), precompress()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    // Four pages: the manager's (index.html, at /), the kitchen display (kds.html, at /kds/<name>), the
    // register (pos.html, at /pos/) and head office's page (hq.html, served by HQ at /hq/, not by the
    // hub); and the register's service worker, under a fixed name (pos-sw.js, served as /pos/sw.js): a
    // worker's address must stay the same from build to build.
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        kds: fileURLToPath(new URL('./kds.html', import.meta.url)),
        // Head office's page (hq.html), served by HQ at /hq/, not by the hub.
        hq: fileURLToPath(new URL('./hq.html', import.meta.url)),
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
