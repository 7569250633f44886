/**
 * ARCHITECTURE.md: "No two folders import each other." The per-folder bans are lint rules
 * (scripts/eslint.config.js); a cycle between any two folders is found here, over every import of
 * hub/, drivers/ and db/ (type-only imports too: they tie the folders as much).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/process.js';

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist' || (name === 'web' && dir.endsWith('hub'))) continue;
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (path.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** A file's folder: hub/resources/<name> counts as its own folder, like every hub/<name> and drivers/<name>. */
function folderOf(file: string): string {
  const parts = relative(ROOT, file).split('/');
  if (parts[0] === 'hub' && parts[1] === 'resources' && parts.length > 3) return parts.slice(0, 3).join('/');
  return parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0];
}

describe('dependencies point one way', () => {
  it('no two folders of hub/, drivers/ and db/ import each other', () => {
    const edges = new Map<string, string[]>();
    for (const file of ['hub', 'drivers', 'db'].flatMap((d) => sources(join(ROOT, d)))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/gm)) {
        const target = resolve(dirname(file), m[1]).replace(/\.js$/, '.ts');
        const from = folderOf(file);
        const to = folderOf(target);
        if (from !== to) edges.set(`${from} -> ${to}`, [...(edges.get(`${from} -> ${to}`) ?? []), relative(ROOT, file)]);
      }
    }
    expect(edges.size).toBeGreaterThan(50);
    const cycles = [...edges.keys()]
      .filter((k) => {
        const [a, b] = k.split(' -> ');
        return a < b && edges.has(`${b} -> ${a}`);
      })
      .map((k) => {
        const [a, b] = k.split(' -> ');
        return `${a} <-> ${b}: ${edges.get(k)!.join(', ')} | ${edges.get(`${b} -> ${a}`)!.join(', ')}`;
      });
    expect(cycles).toEqual([]);
  });
});
