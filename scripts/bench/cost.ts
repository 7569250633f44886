/**
 * What a request costs the server, measured from outside its process (scripts/bench.ts): CPU time,
 * syncs and bytes written to the WAL. Throughput on a machine other work shares is noise; CPU time
 * per request at a fixed, paced rate is not (it is what the server spends whatever else runs), and
 * neither are the syncs and WAL bytes a write makes.
 *  - CPU: utime + stime of the whole process (what process.cpuUsage() answers inside it: every
 *    thread, the libuv pool's fsyncs and the checkpointer included) and of its main thread alone
 *    (the event loop, which every request passes through), from /proc.
 *  - Syncs: fsync(2) and fdatasync(2) of the process, counted in the kernel by `perf stat` on the
 *    syscall tracepoints (no slowdown); absent when perf is not installed or not allowed.
 *  - WAL bytes: `strace -y` on the process for a short sequential run, the bytes of every write to
 *    a file whose name ends in `-wal` (strace slows the process: only bytes are taken from that run).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const TICK_MS = 1000 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

/** utime + stime of /proc/<pid>[/task/<tid>]/stat, in ms. */
function statCpuMs(file: string): number {
  // The command name (field 2) may hold spaces: fields are counted after its closing parenthesis.
  const text = readFileSync(file, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

export interface CpuSample {
  processMs: number;
  mainThreadMs: number;
}

export function cpuOf(pid: number): CpuSample {
  return { processMs: statCpuMs(`/proc/${pid}/stat`), mainThreadMs: statCpuMs(`/proc/${pid}/task/${pid}/stat`) };
}

/** Threads of the process with their CPU so far (which thread spends what: the pool, the checkpointer, V8's). */
export function threadsOf(pid: number): Array<{ name: string; ms: number }> {
  return readdirSync(`/proc/${pid}/task`).map((tid) => ({
    name: readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim(),
    ms: statCpuMs(`/proc/${pid}/task/${tid}/stat`),
  }));
}

let perfWorks: boolean | undefined;

/** Counts the process's fsync + fdatasync calls while `fn` runs; null without a working perf. */
export async function countSyncs<T>(pid: number, fn: () => Promise<T>): Promise<{ result: T; syncs: number | null; seconds: number }> {
  if (perfWorks === undefined) {
    perfWorks = spawnSync('perf', ['stat', '-x,', '-e', 'syscalls:sys_enter_fdatasync', 'true'], { encoding: 'utf8' }).status === 0;
  }
  if (!perfWorks) return { result: await fn(), syncs: null, seconds: 0 };
  const perf = spawn('perf', ['stat', '-x,', '-e', 'syscalls:sys_enter_fsync,syscalls:sys_enter_fdatasync', '-p', String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let out = '';
  perf.stderr.on('data', (c: Buffer) => (out += c));
  await new Promise((r) => setTimeout(r, 300)); // attached
  const t0 = performance.now();
  const result = await fn();
  const seconds = (performance.now() - t0) / 1000;
  const exited = new Promise((r) => perf.on('exit', r));
  perf.kill('SIGINT');
  await exited;
  const counts = out
    .split('\n')
    .filter((l) => l.includes('syscalls:sys_enter_'))
    .map((l) => Number(l.split(',')[0]));
  // The counts cover the run and the moments around it (attach, stop): idle, a hub makes no syncs.
  return { result, syncs: counts.length === 2 && counts.every(Number.isFinite) ? counts[0] + counts[1] : null, seconds };
}

export interface WriteTrace {
  /** Bytes written to files named *-wal. */
  walBytes: number;
  /** Bytes written to the database files themselves (checkpoints). */
  dbBytes: number;
  syncs: number;
}

/** Runs `fn` with strace on the process (every thread) and sums what it wrote where; null without strace. */
export async function traceWrites<T>(pid: number, dir: string, fn: () => Promise<T>): Promise<{ result: T; trace: WriteTrace | null }> {
  if (spawnSync('strace', ['-V']).status !== 0) return { result: await fn(), trace: null };
  const file = join(dir, `.strace-${pid}`);
  const strace = spawn('strace', ['-f', '-y', '-qq', '-e', 'trace=pwrite64,write,writev,pwritev,fsync,fdatasync', '-o', file, '-p', String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise((r) => setTimeout(r, 1000)); // attached to every thread
  const result = await fn();
  const exited = new Promise((r) => strace.on('exit', r));
  strace.kill('SIGINT');
  await exited;
  const trace: WriteTrace = { walBytes: 0, dbBytes: 0, syncs: 0 };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const call = /^\d+\s+(\w+)\(\d+<([^>]*)>.*\)\s+=\s+(-?\d+)/.exec(line);
    if (!call) continue;
    const [, name, path, ret] = call;
    if (name === 'fsync' || name === 'fdatasync') {
      trace.syncs++;
      continue;
    }
    if (path.endsWith('-wal')) trace.walBytes += Math.max(0, Number(ret));
    else if (path.endsWith('.sqlite')) trace.dbBytes += Math.max(0, Number(ret));
  }
  rmSync(file, { force: true });
  return { result, trace };
}
