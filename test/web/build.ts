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
  // The server's pure modules the page bundles too (the rights on the users form and its presets, the rules both sides apply).
  const sources = Math.max(...['manager', 'kds', 'hq', 'shared', 'index.html', 'kds.html', 'hq.html', 'vite.config.ts', '../http/rights.ts', '../http/presets.ts', '../core/rules.ts'].map((p) => newest(join(WEB, p))));
  // The kitchen display (kds.html) is the build's second page.
  if (existsSync(built) && existsSync(join(WEB, 'dist', 'kds.html')) && existsSync(join(WEB, 'dist', 'hq.html')) && statSync(built).mtimeMs >= sources) return;
  const { build } = await import('vite');
  await build({ configFile: join(WEB, 'vite.config.ts'), logLevel: 'error' });
}
