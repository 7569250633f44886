/**
 * Routes are executable declarations (issue 32, point 3): hub/http/route.ts `mount()` reads the path
 * parameters, query, headers and body with the declared schemas and hands the handler typed input.
 * No handler reads the request by hand: a second reading is where the case-insensitive query names
 * (CONTRACT §1) and the declared checks went missing before.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/process.js';

/** Who may touch the raw request, and why. */
const ALLOWED: Record<string, string> = {
  'hub/http/route.ts': 'mount() itself: it reads the request with the declarations',
  'hub/http/body.ts': 'reads the body into req.body, before any route',
  'hub/http/idempotency.ts': 'fingerprints the body a key came with',
  'hub/resources/engine/routes.ts': "the engine's generic router: every resource's CRUD, documented from the resource definitions",
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'web' || name === 'dist' || name === 'node_modules') return [];
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('no handler reads its own request', () => {
  it('only mount(), the body reader, the idempotency fingerprint and the engine router read req.query, req.params or req.body', () => {
    const found: string[] = [];
    for (const file of sources(join(ROOT, 'hub'))) {
      const rel = relative(ROOT, file);
      if (rel in ALLOWED) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // `req.query`, `request.params`, `{ body } = req`…
          if (/\breq(?:uest)?\s*\.\s*(query|params|body)\b|\{[^}]*\b(query|params|body)\b[^}]*\}\s*=\s*req(?:uest)?\b/.test(line)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('the allowed readers still exist (a file renamed away must leave this list too)', () => {
    for (const file of Object.keys(ALLOWED)) expect(statSync(join(ROOT, file)).isFile(), file).toBe(true);
  });
});
