import { readFileSync } from 'node:fs';

/** The hub's version, from package.json (announced over mDNS, shown by /api/health). */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
