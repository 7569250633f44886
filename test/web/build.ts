/**
 * The browser tests run against the built page (hub/web/dist), as the hub serves it. This builds
 * it when it is missing or older than its sources, so `npm test` right after an edit tests the
 * edit; an up-to-date build costs nothing.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = fileURLToPath(new URL('../../hub/web/', import.meta.url));

function newest(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

export async function ensureWebBuild(): Promise<void> {
  const built = join(WEB, 'dist', 'index.html');
  // The server's pure modules the pages bundle too (the rights on the users form and its presets, the rules both sides apply, the shop's clock).
  const sources = Math.max(
    ...['manager', 'kds', 'hq', 'register', 'shared', 'public', 'index.html', 'kds.html', 'hq.html', 'pos.html', 'vite.config.ts', '../http/rights.ts', '../http/presets.ts', '../core/rules.ts', '../core/time.ts'].map((p) => newest(join(WEB, p))),
  );
  // The kitchen display (kds.html), head office's page (hq.html) and the register (pos.html, its service worker) are the build's other pages.
  const complete = ['kds.html', 'hq.html', 'pos.html', 'pos-sw.js'].every((f) => existsSync(join(WEB, 'dist', f)));
  if (existsSync(built) && complete && statSync(built).mtimeMs >= sources) return;
  const { build } = await import('vite');
  // A production build, as `npm run web:build` makes: Vite reads the mode of `import.meta.env` from
  // NODE_ENV, which vitest sets to `test`, and a DEV build leaves out the register's service worker
  // (the installable register's test then waits for one that never comes).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: join(WEB, 'vite.config.ts'), logLevel: 'error', mode: 'production' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
