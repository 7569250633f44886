/**
 * ARCHITECTURE.md: "Dependencies point one way; no two folders import each other." The per-folder
 * bans are lint rules (scripts/eslint.config.js); here every relative import of hub/, drivers/ and
 * db/ (type-only imports too: they tie the folders as much) is an arrow between two folders, and the
 * house is read floor by floor: an arrow only ever points to a lower floor — never up, never across —
 * so there is no circle, however long. hub/engine and hub/resources are each one folder here.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/process.js';

/**
 * The floors, top first (README "Architecture"). A folder imports only folders of lower floors.
 * hub/hq is a process of its own: beside the resources, so it imports none of them.
 */
const HOUSE: ReadonlyArray<readonly string[]> = [
  // The composition: main.ts, app.ts, routes.ts (ROUTES), resources.ts (RESOURCES), openapi.ts…
  ['hub'],
  // Rooms built on the resources.
  ['hub/kds', 'hub/registers', 'hub/chain', 'hub/backups'],
  ['hub/resources', 'hub/hq'],
  // What a write adds to in its own transaction (outboxes, running totals) and the change cache and stream.
  ['hub/printing', 'hub/mail', 'hub/reports', 'hub/events'],
  // What every resource shares: definition, service, store, list query, fields, the change log.
  ['hub/engine'],
  ['hub/http'],
  ['hub/core', 'hub/i18n'],
  ['drivers/fiscal'],
  ['drivers/escpos'],
  ['drivers/transport'],
  ['drivers', 'db'],
];
const FLOOR = new Map(HOUSE.flatMap((folders, floor) => folders.map((f) => [f, floor] as const)));

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

/** A file's folder: hub/<name> and drivers/<name> (hub/engine and hub/resources whole); files at the top of hub/, drivers/, db/ are theirs. */
function folderOf(file: string): string {
  const parts = relative(ROOT, file).split('/');
  return parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0];
}

/** A resource's folder (hub/resources/<name>), for the arrows between resources. */
function resourceOf(file: string): string | undefined {
  const parts = relative(ROOT, file).split('/');
  return parts[0] === 'hub' && parts[1] === 'resources' && parts.length > 3 ? parts[2] : undefined;
}

/** Every import between two files: importer → imported (repository paths). */
function imports(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const file of ['hub', 'drivers', 'db'].flatMap((d) => sources(join(ROOT, d)))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/gm)) {
      out.push([file, resolve(dirname(file), m[1]).replace(/\.js$/, '.ts')]);
    }
  }
  return out;
}

/** Arrows "a -> b" with the files that make each, between the groups `group` names (undefined: not counted). */
function arrows(group: (file: string) => string | undefined): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const [file, target] of imports()) {
    const from = group(file);
    const to = group(target);
    if (from === undefined || to === undefined || from === to) continue;
    const k = `${from} -> ${to}`;
    edges.set(k, [...(edges.get(k) ?? []), relative(ROOT, file)]);
  }
  return edges;
}

/** The circles of a graph given as "a -> b" arrows (each found once, from its smallest node). */
function circles(edges: Map<string, string[]>): string[] {
  const next = new Map<string, string[]>();
  for (const k of edges.keys()) {
    const [a, b] = k.split(' -> ');
    next.set(a, [...(next.get(a) ?? []), b]);
  }
  const found: string[] = [];
  const walk = (start: string, node: string, path: string[]) => {
    for (const n of next.get(node) ?? []) {
      if (n === start) found.push([...path, n].join(' -> '));
      else if (n > start && !path.includes(n)) walk(start, n, [...path, n]);
    }
  };
  for (const start of [...next.keys()].sort()) walk(start, start, [start]);
  return found;
}

describe('dependencies point one way', () => {
  const edges = arrows(folderOf);

  it('every folder of hub/, drivers/ and db/ has its floor', () => {
    const folders = new Set(['hub', 'drivers', 'db'].flatMap((d) => sources(join(ROOT, d))).map(folderOf));
    expect([...folders].filter((f) => !FLOOR.has(f))).toEqual([]);
    expect(edges.size).toBeGreaterThan(50);
  });

  it('no arrow runs up the house or across a floor (so no two folders import each other, nor any circle)', () => {
    const wrong = [...edges]
      .filter(([k]) => {
        const [from, to] = k.split(' -> ');
        return FLOOR.get(to)! <= FLOOR.get(from)!;
      })
      .map(([k, files]) => `${k}: ${[...new Set(files)].join(', ')}`);
    expect(wrong).toEqual([]);
    expect(circles(edges)).toEqual([]);
  });

  it('the engine imports no resource, and HQ (another process) none of the hub resources', () => {
    // The floors say as much; this names the two rules issue 32 asked for.
    expect([...edges.keys()].filter((k) => /^hub\/(engine|hq) -> hub\/resources$/.test(k))).toEqual([]);
    expect(edges.has('hub/resources -> hub/engine')).toBe(true);
  });

  it('the resources import each other without a circle', () => {
    const between = arrows(resourceOf);
    expect(between.size).toBeGreaterThan(10);
    expect(circles(between)).toEqual([]);
  });
});
