/**
 * Where a hub's CPU went, from a V8 CPU profile (`npm run bench -- --hub-cpu-prof=DIR`, which runs
 * the hub under node --cpu-prof and prints each cost run's window), mapped back to the TypeScript
 * through the bundle's source map (the copy the bench put beside the profile, else hub/dist's own).
 *   npx tsx scripts/bench/profile.ts <file.cpuprofile> [--from=µs --to=µs] [--per=N] [--top=30]
 * --per divides the times by N (the requests of the window): ms per request.
 * Prints the time in each part of the work (every sample counted in the first part its stack
 * reaches, from the leaf up, so the parts add up), then the functions with the most self time and
 * the most inclusive time. The profile covers the main thread only (the event loop): the fdatasyncs
 * on libuv's pool and the checkpoint thread are not in it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { basename, dirname, join, relative } from 'node:path';
import { SourceMapConsumer } from 'source-map-js';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const file = process.argv[2];
if (!file) throw new Error('usage: profile.ts <file.cpuprofile> [--from=µs --to=µs] [--per=N] [--top=30]');
const from = Number(arg('from') ?? -Infinity);
const to = Number(arg('to') ?? Infinity);
const per = Number(arg('per') ?? 1);
const top = Number(arg('top') ?? 30);

const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

/** A frame as the TypeScript names it: source file (relative to the repository) and function. */
interface Frame {
  file: string;
  fn: string;
  line: number;
}

const maps = new Map<string, SourceMapConsumer | null>();
function mapOf(url: string): SourceMapConsumer | null {
  if (!maps.has(url)) {
    let consumer: SourceMapConsumer | null = null;
    try {
      const path = fileURLToPath(url);
      // The map the bench copied beside the profile (the bundle as that hub ran it), else the bundle's own.
      const beside = join(dirname(file), `${basename(path)}.map`);
      consumer = new SourceMapConsumer(JSON.parse(readFileSync(existsSync(beside) ? beside : `${path}.map`, 'utf8')));
    } catch {
      /* no map: node's own modules, node_modules */
    }
    maps.set(url, consumer);
  }
  return maps.get(url)!;
}

function frameOf(cf: CallFrame): Frame {
  const fn = cf.functionName || '(anonymous)';
  if (!cf.url) return { file: '', fn, line: 0 };
  const map = cf.url.startsWith('file:') ? mapOf(cf.url) : null;
  if (map) {
    const pos = map.originalPositionFor({ line: cf.lineNumber + 1, column: cf.columnNumber });
    if (pos.source) {
      const source = relative(ROOT, new URL(pos.source, cf.url).pathname.replace(/^\/+/, '/'));
      return { file: source, fn, line: pos.line ?? 0 };
    }
  }
  const path = cf.url.startsWith('file:') ? relative(ROOT, fileURLToPath(cf.url)) : cf.url;
  return { file: path, fn, line: cf.lineNumber + 1 };
}

const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const frames = new Map(profile.nodes.map((n) => [n.id, frameOf(n.callFrame)]));

/**
 * The parts of the work, most specific first: a sample counts in the first part whose test some frame
 * of its stack passes (a print job's state write reached from a timer, a ticket write's COMMIT from
 * the sync it waits for: each where it belongs, whatever called it).
 */
const PARTS: Array<[string, (f: Frame) => boolean]> = [
  ['GC', (f) => f.fn === '(garbage collector)'],
  ['idle', (f) => f.fn === '(idle)'],
  ['print job: render (document, ESC/POS bytes)', (f) => (f.file === 'hub/printing/render.ts' && f.fn === 'documentFor') || (f.file === 'drivers/escpos/document.ts' && f.fn === 'render') || f.file.includes('node-thermal-printer')],
  ['print job: order doc and change log (showJob)', (f) => f.file === 'hub/resources/orders/prints.ts' && f.fn === 'showJob'],
  ['print job: state write (print_jobs row, savepoint)', (f) => (f.file === 'hub/printing/store.ts' && /^(updateJob|writeJobStates|markInterrupted)$/.test(f.fn)) || (f.file === 'hub/printing/states.ts' && f.fn === 'flush')],
  ['batch COMMIT and sync bookkeeping (db/durability.ts)', (f) => f.file === 'db/durability.ts' && f.fn !== 'write'],
  ['print job: next job query', (f) => f.file === 'hub/printing/store.ts' && /^(nextJob|queueDepth)$/.test(f.fn)],
  ['print job: driver, socket, status and confirmation', (f) => f.file.startsWith('drivers/escpos/') || f.file.startsWith('drivers/transport/')],
  ['print job: worker and service', (f) => f.file.startsWith('hub/printing/')],
  ['SSE fan-out and change-log readers (hub/events)', (f) => f.file.startsWith('hub/events/')],
  ['HTTP requests (ticket writes, health)', (f) => f.file.startsWith('hub/') || f.file.startsWith('db/') || f.file.includes('express') || f.file.includes('router') || f.fn.startsWith('parserOn')],
  ['node internals (net, streams, timers)', (f) => f.file.startsWith('node:') || f.file === ''],
];

const inWindow: number[] = [];
let t = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i];
  if (t >= from && t <= to) inWindow.push(i);
}
// Each sample stands for the time to the next one.
const weight = (i: number) => (i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0) / 1000;

const parts = new Map<string, number>();
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
let busy = 0;
for (const i of inWindow) {
  const w = weight(i);
  total += w;
  const leaf = profile.samples[i];
  const leafFrame = frames.get(leaf)!;
  if (leafFrame.fn !== '(idle)') busy += w;
  const key = (f: Frame) => `${f.fn} ${f.file}${f.line ? `:${f.line}` : ''}`;
  self.set(key(leafFrame), (self.get(key(leafFrame)) ?? 0) + w);
  const stack: Frame[] = [];
  const seen = new Set<string>();
  for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
    const f = frames.get(id)!;
    stack.push(f);
    const k = `${f.fn} ${f.file}`;
    if (!seen.has(k)) {
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + w);
    }
  }
  const part = PARTS.find(([, test]) => stack.some(test))?.[0] ?? 'other (program, node_modules)';
  parts.set(part, (parts.get(part) ?? 0) + w);
}

const fmt = (ms: number) => (per > 1 ? `${(ms / per).toFixed(3)} ms/req` : `${ms.toFixed(0)} ms`);
const say = (s: string) => process.stdout.write(`${s}\n`);
say(`${inWindow.length} samples, ${total.toFixed(0)} ms in the window, ${busy.toFixed(0)} ms busy${per > 1 ? ` (${(busy / per).toFixed(3)} ms per request of ${per})` : ''}`);
say('');
say('| part of the work | time | share of busy |');
say('|---|---:|---:|');
for (const [name, ms] of [...parts].filter(([n]) => n !== 'idle').sort((a, b) => b[1] - a[1])) say(`| ${name} | ${fmt(ms)} | ${((ms / busy) * 100).toFixed(1)} % |`);
say('');
say(`Self time, top ${top}:`);
for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) say(`  ${fmt(ms).padStart(16)}  ${k}`);
say('');
say(`Inclusive time, top ${top} (our code only):`);
for (const [k, ms] of [...inclusive].filter(([k]) => / (hub|db|drivers)\//.test(k)).sort((a, b) => b[1] - a[1]).slice(0, top)) say(`  ${fmt(ms).padStart(16)}  ${k}`);
