/**
 * The browser code has no import circle (issue 32): a module that imports, through any chain of
 * others, a module that imports it back is loaded half-initialised by whichever is reached first, and
 * ties two pages together so neither can be read or moved alone (it was Catalog ⇄ Stock, through
 * `useEditParam`). This reads every import of hub/web — type-only ones too: they tie the files as
 * much — and fails on a circle, naming its modules in order.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/process.js';

const WEB = join(ROOT, 'hub/web');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'dist' || name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The file a relative import names, as Vite resolves it (`./x`, `./x.js`, `./x/index`…), or undefined outside the sources. */
function resolved(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec).replace(/\.js$/, '');
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((p) => existsSync(p) && statSync(p).isFile());
}

/** Every module's relative imports: `import … from`, `export … from`, `import '…'` and `import('…')`. */
function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*'(\.[^']+)'|(?:^|\n)\s*import\s*'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
    graph.set(
      file,
      specs.map((s) => resolved(file, s)).filter((p): p is string => p !== undefined && /\.tsx?$/.test(p)),
    );
  }
  return graph;
}

/** The circles of a graph, each once, as the modules along it (Tarjan's strongly connected components of more than one module, or one importing itself). */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) !== order.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.reverse());
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return found;
}

describe('the browser code imports in one direction', () => {
  it('no module of hub/web imports itself back through others', () => {
    const graph = importGraph(sources(WEB));
    expect(graph.size).toBeGreaterThan(40);
    expect([...graph.values()].flat().length).toBeGreaterThan(200);
    expect(circles(graph).map((c) => c.map((f) => relative(ROOT, f)).join(' → '))).toEqual([]);
  });

  it('finds a circle of two, of three and a module importing itself, and none in a chain (the check itself)', () => {
    const g = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
    expect(circles(g({ a: ['b'], b: ['a'] }))).toEqual([['a', 'b']]);
    expect(circles(g({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] }))).toEqual([['a', 'b', 'c']]);
    expect(circles(g({ a: ['a'] }))).toEqual([['a']]);
    expect(circles(g({ a: ['b'], b: ['c'], c: [] }))).toEqual([]);
  });

  it('reads the imports the way the pages write them (the check itself)', () => {
    const graph = importGraph([join(WEB, 'manager/app.tsx')]);
    expect(graph.get(join(WEB, 'manager/app.tsx'))).toContain(join(WEB, 'manager/lib/router.ts'));
  });
});
