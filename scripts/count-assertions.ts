/**
 * Type assertions per 1,000 lines (issue 32 point 2: hub/resources at most 20): `x as T` (but not
 * `as const`), `<T>x`, and non-null `x!` reported beside them, counted by the TypeScript parser (so
 * neither prose nor `import * as` counts) over the .ts/.tsx files under the given folders; lines are
 * physical lines. `--exclude <folder>` leaves one out; `--top <n>` lists the files holding most.
 *
 *   npx tsx scripts/count-assertions.ts hub/resources
 *   npx tsx scripts/count-assertions.ts hub --exclude hub/resources --exclude hub/web
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const include: string[] = [];
const exclude: string[] = [];
let top = 0;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--exclude') exclude.push(args[++i]);
  else if (args[i] === '--top') top = Number(args[++i]);
  else include.push(args[i]);
}

const files: string[] = [];
function walk(path: string): void {
  const rel = relative(process.cwd(), path);
  if (exclude.some((e) => rel === e || rel.startsWith(`${e}/`))) return;
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  else if (/\.tsx?$/.test(path) && !path.endsWith('.d.ts')) files.push(path);
}
for (const folder of include) walk(folder);

let lines = 0;
let casts = 0;
let nonNull = 0;
const perFile: Array<{ file: string; casts: number; nonNull: number; lines: number }> = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const counted = { casts: 0, nonNull: 0 };
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) && node.type.getText(source) !== 'const') counted.casts++;
    else if (ts.isTypeAssertionExpression(node)) counted.casts++;
    else if (ts.isNonNullExpression(node)) counted.nonNull++;
    ts.forEachChild(node, visit);
  };
  visit(source);
  const n = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  lines += n;
  casts += counted.casts;
  nonNull += counted.nonNull;
  perFile.push({ file: relative(process.cwd(), file), ...counted, lines: n });
}

const perK = (n: number) => ((n * 1000) / Math.max(lines, 1)).toFixed(1);
const without = exclude.length ? ` (without ${exclude.join(', ')})` : '';
process.stdout.write(
  `${include.join(' ')}${without}: ${files.length} files, ${lines} lines; ${casts} assertions (as, <T>), ${nonNull} non-null (!); ` +
    `${perK(casts)} assertions per 1,000 lines, ${perK(casts + nonNull)} with the non-null ones\n`,
);
for (const f of perFile.sort((a, b) => b.casts - a.casts).slice(0, top)) process.stdout.write(`  ${f.casts}\t${f.nonNull}\t${f.lines}\t${f.file}\n`);
