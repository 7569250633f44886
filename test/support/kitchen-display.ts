/**
 * What the browser tests of the kitchen display need to know of it and cannot import (hub/web is
 * browser code, outside the server's and tests' TypeScript project): read from its source instead.
 */
import { readFileSync } from 'node:fs';

const FEED = new URL('../../hub/web/kds/feed.ts', import.meta.url);

/** The display's undo window before a Served tap goes out (SERVE_DELAY_MS in hub/web/kds/feed.ts). */
export const SERVE_DELAY_MS = (() => {
  const m = /export const SERVE_DELAY_MS = ([\d_]+);/.exec(readFileSync(FEED, 'utf8'));
  if (!m) throw new Error('hub/web/kds/feed.ts no longer declares SERVE_DELAY_MS as a number');
  return Number(m[1].replace(/_/g, ''));
})();
