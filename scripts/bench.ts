/**
 * `npm run bench`: measures the real hub process on a generated store (a benchmark, not a test).
 *   npm run bench -- [--tickets=1000000] [--duration=10] [--connections=10] [--soak-seconds=60] [--paced-rate=50]
 *   npm run bench -- --chain [--events=100000 --stores=20 --pushes=10]   (the chain: scripts/bench-chain.ts)
 *   npm run bench -- --write-path [--printers=closed|live] [--sync-ms=N]
 * --printers says where the store's order endpoints print. `closed` (the default, as the issue's
 * figures were taken): tcp://127.0.0.1:9, where nothing listens — the jobs queue and wait, as in a
 * shop whose printers are off. `live`: a fake ESC/POS printer on 127.0.0.1 per endpoint
 * (scripts/bench/printers.ts, a process of its own) takes every job, so each write also pays for
 * its jobs being printed and their state kept; the run then reports the jobs printed in each phase,
 * and lets the print queue drain before every measured phase (a backlog left by one phase is not
 * printed during, and charged to, the next) and, in the cost run, inside the measured window (each
 * write is charged for printing its own jobs, no more, no less).
 * --sync-ms=N makes every fsync/fdatasync of the hub and of the floor N ms slower than this machine's
 * disk (scripts/bench/slow-sync.c, LD_PRELOAD'ed): a mini-PC's eMMC or SD card takes 1–10 ms and more
 * per flush, where this machine's virtual disk takes 0.1 ms. Both sides get the same disk.
 * Prints a table and writes scripts/bench/results.json. The store is generated once into
 * scripts/bench/.store-<tickets> and reused. Every latency is also shown as a ratio to the floor:
 * a minimal express + better-sqlite3 handler inserting the same JSON, as durably as the hub
 * (synchronous=FULL; scripts/bench/floor.ts). The disk's own fdatasync latency is measured and shown too.
 * It also runs scripts/bench-printing.ts (kitchen printing latency) and scripts/bench-fiscal.ts (the
 * fiscal soak: 100 closes through the fake Datecs printer losing a tenth of its replies), each of
 * which also runs alone: `npx tsx scripts/bench-fiscal.ts [--tickets=100] [--drop=0.1]`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, copyFileSync, createReadStream, existsSync, fdatasyncSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { cpus, tmpdir, totalmem, type as osType, release } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BENCH_ADMIN_PASSWORD, BENCH_CASHIER, generateStore } from './generate-store.js';
import { freePort, hubCommand } from '../test/support/process.js';
import { countSyncs, cpuOf, threadsOf, traceWrites } from './bench/cost.js';
import { measureEventDelivery } from './bench/events.js';
import { benchTicketBody } from './bench/ticket-body.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const TICKETS = arg('tickets', 1_000_000);
const DURATION = arg('duration', 10);
const CONNECTIONS = arg('connections', 10);
const SOAK_S = arg('soak-seconds', 60);
const PACED_RATE = arg('paced-rate', 50);
/** The cost run: each write scenario alone at this fixed rate, CPU per request measured (issue 31). */
const COST_RATE = arg('cost-rate', 200);
const COST_S = arg('cost-seconds', 10);
/** Sequential writes traced for the WAL bytes each one writes. */
const WAL_WRITES = arg('wal-writes', 200);
/** Only the write path (create, update, close; their costs; the floor): a quicker run while working on it. */
const WRITE_PATH = process.argv.includes('--write-path');
/** --sync-ms: milliseconds added to every sync of the hub and the floor (a slower disk); 0: this machine's own. */
const SYNC_MS = arg('sync-ms', 0);
const PRINTERS = process.argv.find((a) => a.startsWith('--printers='))?.split('=')[1] ?? 'closed';
if (PRINTERS !== 'closed' && PRINTERS !== 'live') throw new Error(`--printers=${PRINTERS}: closed or live`);
const LIVE = PRINTERS === 'live';
/**
 * --hub-cpu-prof=DIR: the hub runs with node --cpu-prof (its profile written into DIR when it stops),
 * and each cost run prints its window on the monotonic clock V8's profile uses, for
 * `npx tsx scripts/bench/profile.ts <profile> --from=… --to=…` to look at that run alone (the
 * bundle's source map is copied beside the profile: a later run rebuilds hub/dist).
 */
const HUB_CPU_PROF = process.argv.find((a) => a.startsWith('--hub-cpu-prof='))?.split('=')[1];
/** Now on CLOCK_MONOTONIC in µs, the clock of a V8 CPU profile's timestamps. */
const monotonicUs = () => process.hrtime.bigint() / 1000n;
const say = (s: string) => process.stdout.write(`${s}\n`);

interface Row {
  name: string;
  rps: number;
  /** Throughput over the floor's (back to back). */
  ratioRps?: number;
  p50: number;
  p99: number;
  errors: number;
  ratioP50?: number;
  ratioP99?: number;
  /** An occasional request (a report) sent one at a time. */
  single?: { p50: number; p99: number; n: number };
  /** --printers=live: jobs printed for the back-to-back run (its backlog drained after it), and how long that drain took. */
  printed?: { jobs: number; drainS: number };
  /**
   * Where the machine's CPU went during the back-to-back run, per answer: the server process (every
   * thread, and its main thread alone), the load generator (autocannon, in this process) and the
   * machine's idle share. Back to back, both share this machine's cores: the rate any way of
   * threading the server could reach at these costs is bounded by cores / (server + generator).
   */
  busy?: { serverMs: number; mainMs: number; generatorMs: number; idlePct: number; ceiling: number };
  /** The same requests at a store's rate (the paced run), not back to back. */
  paced?: { p50: number; p99: number; n: number; errors: number; ratioP50?: number; ratioP99?: number };
}

interface Scenario {
  name: string;
  next: () => { method: string; path: string; token: string; body?: string };
  /** Requests in all (closes: each ticket once) instead of a duration. */
  amount?: number;
  /**
   * A manager's occasional request (a year's report), not a register's: measured back to back and
   * then one at a time, but not in the paced mix, where 10 a second would stand for ten managers
   * running reports every second of a Saturday night.
   */
  occasional?: boolean;
}

function startProcess([cmd, args]: [string, string[]], env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c));
  child.stderr!.on('data', (c: Buffer) => (out += c));
  return { child, output: () => out };
}

/** Another bench script (`node --import tsx`), with its output and exit code. */
function runScript(script: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (out += c));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** The fake printers of --printers=live (scripts/bench/printers.ts): their addresses, and the jobs they printed so far. */
interface LivePrinters {
  addresses: string[];
  printed(): Promise<number>;
  stop(): void;
}

async function startPrinters(n: number): Promise<LivePrinters> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/printers.ts', String(n)], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  process.on('exit', () => child.kill('SIGKILL'));
  const next = () => new Promise<Record<string, unknown>>((resolve) => child.once('message', (m) => resolve(m as Record<string, unknown>)));
  const { addresses } = (await next()) as { addresses: string[] };
  return {
    addresses,
    printed: async () => {
      const answer = next();
      child.send('count');
      return (await answer).printed as number;
    },
    stop: () => void child.send('stop'),
  };
}

/**
 * Waits until no printer has a job left to print (--printers=live), asking /api/health every 100 ms;
 * answers how long that took. A queue that does not drain within the limit fails the run: a figure
 * measured beside a backlog would be the backlog's.
 */
async function drainPrintQueue(base: string, admin: string, limitMs = 600_000): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const health = await call(base, 'GET', '/api/health', admin);
    const left = (health.printers as Array<{ queueDepth: number }>).reduce((n, p) => n + p.queueDepth, 0);
    if (left === 0) return performance.now() - t0;
    if (performance.now() - t0 > limitMs) throw new Error(`the print queue still holds ${left} jobs after ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function waitFor(url: string, ms: number): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.status < 500) return performance.now() - t0;
    } catch {
      /* not yet */
    }
    if (performance.now() - t0 > ms) throw new Error(`${url} did not answer within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * What one durable commit costs this machine's disk at least: 4 KiB appended and fdatasync'ed, 300
 * times, in the store's own directory (same filesystem as the database).
 */
function fsyncLatency(dir: string): { p50: number; p99: number; n: number } {
  const file = join(dir, '.fsync-probe');
  const fd = openSync(file, 'w');
  const page = Buffer.alloc(4096, 7);
  const times: number[] = [];
  try {
    for (let i = 0; i < 300; i++) {
      writeSync(fd, page);
      const t0 = performance.now();
      fdatasyncSync(fd);
      times.push(performance.now() - t0);
    }
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), n: times.length };
}

/** --sync-ms: the environment that gives a process the slower disk (the shim built for this run). */
function slowDiskEnv(): Record<string, string> {
  if (SYNC_MS <= 0) return {};
  const lib = join(mkdtempSync(join(tmpdir(), 'pos-slow-sync-')), 'slow-sync.so');
  execFileSync('cc', ['-shared', '-fPIC', '-O2', '-o', lib, join(ROOT, 'scripts', 'bench', 'slow-sync.c'), '-ldl']);
  return { LD_PRELOAD: lib, SLOW_SYNC_US: String(Math.round(SYNC_MS * 1000)) };
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function call(base: string, method: string, path: string, token: string | null, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** The p-th percentile of `values` (exact rank, 0.1 ms). */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0) * 10) / 10;
}

/** The machine's busy and idle CPU time so far (all cores, in clock ticks), from /proc/stat. */
function machineTicks(): { busy: number; idle: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is inside user already)
  const idle = f[3] + f[4];
  return { busy: f[0] + f[1] + f[2] + f[5] + f[6] + f[7], idle };
}

async function load(name: string, opts: autocannon.Options, serverPid: number): Promise<Row> {
  // autocannon's own histogram keeps whole milliseconds, too coarse for a 2 ms floor; every
  // response time (hrtime, fractional ms) is kept here instead and ranked exactly.
  const latencies: number[] = [];
  const server0 = cpuOf(serverPid);
  const generator0 = process.cpuUsage();
  const machine0 = machineTicks();
  const started = performance.now();
  let lastAnswer = started;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon({ connections: CONNECTIONS, ...(opts.amount ? {} : { duration: DURATION }), ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
    run.on('response', (_client, _status, _bytes, ms) => {
      latencies.push(ms);
      lastAnswer = performance.now();
    });
  });
  const row: Row = {
    name,
    // Answers over the time to the last one: autocannon's own figures count whole seconds, and a
    // fixed number of requests (the closes) ends in the middle of one.
    rps: Math.round(latencies.length / ((lastAnswer - started) / 1000)),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors: result.non2xx + result.errors + result.timeouts,
  };
  const server1 = cpuOf(serverPid);
  const generator = process.cpuUsage(generator0);
  const machine1 = machineTicks();
  const n = Math.max(latencies.length, 1);
  const per = (ms: number) => Math.round((ms / n) * 1000) / 1000;
  const serverMs = per(server1.processMs - server0.processMs);
  const generatorMs = per((generator.user + generator.system) / 1000);
  const idle = machine1.idle - machine0.idle;
  const busy = {
    serverMs,
    mainMs: per(server1.mainThreadMs - server0.mainThreadMs),
    generatorMs,
    idlePct: Math.round((idle / Math.max(idle + machine1.busy - machine0.busy, 1)) * 1000) / 10,
    ceiling: Math.round((cpus().length * 1000) / Math.max(serverMs + generatorMs, 0.001)),
  };
  row.busy = busy;
  say(`  ${name.padEnd(44)} ${String(row.rps).padStart(6)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms${row.errors ? `  errors ${row.errors}` : ''}`);
  say(`  ${''.padEnd(44)} CPU per answer: server ${busy.serverMs} ms (main thread ${busy.mainMs}), load generator ${busy.generatorMs} ms; machine idle ${busy.idlePct} %`);
  return row;
}

/** Request headers with a session token (none for the floor, which has no login). */
const auth = (token: string) => ({ ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' });

/**
 * Sends the scenarios' requests in turn at PACED_RATE for `seconds`, one every 1000/rate ms
 * whatever the answers do, so each latency is the server's alone (autocannon's overallRate
 * counts its own scheduling delay into the latency at low rates).
 */
async function pace(base: string, scenarios: Scenario[], seconds: number, rate = PACED_RATE) {
  const seen = scenarios.map(() => ({ latencies: [] as number[], errors: 0 }));
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (let s = 0; performance.now() < start + seconds * 1000; s++) {
    const k = s % scenarios.length;
    const r = scenarios[k].next();
    const t0 = performance.now();
    pending.push(
      fetch(base + r.path, { method: r.method, headers: auth(r.token), body: r.body })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status >= 300) seen[k].errors++;
          seen[k].latencies.push(performance.now() - t0);
        })
        .catch(() => void seen[k].errors++),
    );
    const due = start + ((s + 1) * 1000) / rate;
    await new Promise((res) => setTimeout(res, Math.max(0, due - performance.now())));
  }
  await Promise.all(pending);
  const summary = (latencies: number[], errors: number) => ({ p50: percentile(latencies, 50), p99: percentile(latencies, 99), n: latencies.length, errors });
  const all = seen.flatMap((x) => x.latencies);
  return {
    byScenario: seen.map((x) => summary(x.latencies, x.errors)),
    overall: { rps: Math.round(all.length / seconds), ...summary(all, seen.reduce((n, x) => n + x.errors, 0)) },
    sent: seen.reduce((n, x) => n + x.latencies.length + x.errors, 0),
  };
}

interface Cost {
  name: string;
  rate: number;
  n: number;
  errors: number;
  p50: number;
  p99: number;
  /** CPU of the whole process per request (every thread), and of its main thread alone. */
  cpuMsPerReq: number;
  mainThreadMsPerReq: number;
  syncsPerS: number | null;
  syncsPerReq: number | null;
  /** From writes made one after another (one commit each): bytes appended to the WAL, and written to the database file. */
  walKiBPerWrite: number | null;
  dbKiBPerWrite: number | null;
  /** --printers=live: jobs the fake printers printed during the paced run (and its drain), and per request. */
  jobsPrinted?: number;
  jobsPerReq?: number;
}

/** --printers=live: the fake printers, and a wait until the hub's print queue is empty. */
interface Live {
  printers: LivePrinters;
  drain(): Promise<number>;
}

const round = (x: number, places = 2) => Math.round(x * 10 ** places) / 10 ** places;

/** One scenario alone at COST_RATE for COST_S (CPU, syncs, latency), then WAL_WRITES of it one after another under strace (bytes). */
async function measureCost(name: string, base: string, pid: number, sc: Scenario, dir: string, live?: Live): Promise<Cost> {
  // With live printers, the jobs these writes queued are printed (and their state kept) inside the
  // measured window: the CPU, syncs and WAL bytes of each write include its own jobs' printing.
  const printedBefore = live ? await live.printers.printed() : 0;
  const windowFrom = monotonicUs();
  const before = cpuOf(pid);
  const { result: paced, syncs, seconds } = await countSyncs(pid, async () => {
    const result = await pace(base, [sc], COST_S, COST_RATE);
    if (live) await live.drain();
    return result;
  });
  const after = cpuOf(pid);
  if (HUB_CPU_PROF) say(`  ${name}: profile window --from=${windowFrom} --to=${monotonicUs()} (${paced.sent} requests)`);
  const n = paced.sent;
  const printedPaced = live ? (await live.printers.printed()) - printedBefore : undefined;
  const { trace } = await traceWrites(pid, dir, async () => {
    for (let i = 0; i < WAL_WRITES; i++) {
      const r = sc.next();
      const res = await fetch(base + r.path, { method: r.method, headers: auth(r.token), body: r.body });
      await res.arrayBuffer();
    }
    if (live) await live.drain();
  });
  const cost: Cost = {
    name,
    rate: COST_RATE,
    n,
    errors: paced.overall.errors,
    p50: paced.overall.p50,
    p99: paced.overall.p99,
    cpuMsPerReq: round((after.processMs - before.processMs) / n, 3),
    mainThreadMsPerReq: round((after.mainThreadMs - before.mainThreadMs) / n, 3),
    syncsPerS: syncs === null ? null : round(syncs / seconds, 1),
    syncsPerReq: syncs === null ? null : round(syncs / n),
    walKiBPerWrite: trace ? round(trace.walBytes / WAL_WRITES / 1024, 1) : null,
    dbKiBPerWrite: trace ? round(trace.dbBytes / WAL_WRITES / 1024, 1) : null,
    ...(printedPaced === undefined ? {} : { jobsPrinted: printedPaced, jobsPerReq: round(printedPaced / n) }),
  };
  say(
    `  ${name.padEnd(44)} CPU ${cost.cpuMsPerReq} ms/req (main thread ${cost.mainThreadMsPerReq}), ${cost.syncsPerS ?? '–'} fsyncs/s, WAL ${cost.walKiBPerWrite ?? '–'} KiB/write, p99 ${cost.p99} ms` +
      (cost.jobsPrinted === undefined ? '' : `, ${cost.jobsPrinted} jobs printed (${cost.jobsPerReq}/req)`),
  );
  return cost;
}

const ticketBody = benchTicketBody;

async function main(): Promise<void> {
  // The chain's figures are their own run (NATS, PostgreSQL, HQ and many hubs): scripts/bench-chain.ts.
  if (process.argv.includes('--chain')) return (await import('./bench-chain.js')).benchChain();
  const storeDir = join(ROOT, 'scripts', 'bench', `.store-${TICKETS}`);
  if (!existsSync(join(storeDir, 'complete'))) {
    rmSync(storeDir, { recursive: true, force: true });
    say(`Generating a store with ${TICKETS.toLocaleString('en')} tickets into ${storeDir} (once)…`);
    const { ms } = await generateStore({ dataDir: storeDir, tickets: TICKETS, log: (l) => say(`  ${l}`) });
    writeFileSync(join(storeDir, 'complete'), `${new Date().toISOString()} ${ms} ms\n`);
  }

  const fsync = fsyncLatency(storeDir);
  say(`fdatasync of 4 KiB on the store's disk: p50 ${fsync.p50} ms, p99 ${fsync.p99} ms (${fsync.n} syncs).`);
  const slowDisk = slowDiskEnv();
  if (SYNC_MS > 0) say(`--sync-ms=${SYNC_MS}: every sync of the hub and of the floor takes ${SYNC_MS} ms more (a mini-PC's disk).`);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    POS_HUB_PORT: String(port),
    POS_HUB_HOST: '127.0.0.1',
    POS_HUB_DATA_DIR: storeDir,
    POS_HUB_MDNS: '0',
    POS_HUB_RATE_LIMIT: '0',
    POS_HUB_BACKUP_EVERY: '0',
    POS_HUB_LOG_LEVEL: 'warn',
    POS_HUB_TIMEZONE: 'Europe/Bratislava',
    ...slowDisk,
  };
  // The hub as `npm start` runs it (its bundle built first, outside the start-up time).
  const [node, args] = hubCommand();
  const hub = startProcess([node, HUB_CPU_PROF ? ['--cpu-prof', '--cpu-prof-interval=250', `--cpu-prof-dir=${HUB_CPU_PROF}`, ...args] : args], env);
  // A failed run must not leave the hub behind holding the port and the store.
  process.on('exit', () => hub.child.kill('SIGKILL'));
  const startupMs = await waitFor(`${base}/api/health`, 60_000);
  // The bundle's source map as this hub runs it: a later build (another run) rewrites hub/dist.
  if (HUB_CPU_PROF) {
    mkdirSync(HUB_CPU_PROF, { recursive: true });
    copyFileSync(join(ROOT, 'hub', 'dist', 'main.js.map'), join(HUB_CPU_PROF, 'main.js.map'));
  }
  say(`Hub started in ${Math.round(startupMs)} ms (to first /api/health answer) on a store of ${TICKETS.toLocaleString('en')} tickets.`);
  // Steady state, not a cold disk: the store file is read once into the OS page cache (after the
  // start-up was timed), as a hub that has served a few hours has it. Without this, a run after
  // the cache was dropped measured day lists ~20% slower.
  const warm = performance.now();
  for await (const _chunk of createReadStream(join(storeDir, 'hub.sqlite'), { highWaterMark: 1 << 20 }));
  say(`Store file read into the OS page cache in ${Math.round(performance.now() - warm)} ms.`);

  const admin = (await call(base, 'POST', '/api/auth', null, { userName: 'admin', password: BENCH_ADMIN_PASSWORD, deviceName: 'BackOffice' })).tokenId as string;
  const cashier = (await call(base, 'POST', '/api/auth', null, { userName: BENCH_CASHIER.userName, password: BENCH_CASHIER.password, deviceName: 'Register1' }))
    .tokenId as string;
  const createBody = JSON.stringify(ticketBody([11, 22, 33, 44, 55]));

  // Where the order endpoints print (--printers): set here on every run, whatever an earlier run left in the store.
  const endpoints = ((await call(base, 'GET', '/api/orderendpoints?$take=100', admin)).items as Array<Record<string, unknown>>).filter((e) => e.type !== 'Tablet');
  const printers = LIVE ? await startPrinters(endpoints.length) : null;
  for (const [i, e] of endpoints.entries()) {
    const address = printers ? printers.addresses[i] : 'tcp://127.0.0.1:9';
    const { type, isActive, settings, categoryNames, mirrorOf } = e;
    await call(base, 'PUT', `/api/orderendpoints/${encodeURIComponent(String(e.name))}`, admin, { type, isActive, settings, categoryNames, mirrorOf, address });
  }
  const live: Live | undefined = printers ? { printers, drain: () => drainPrintQueue(base, admin) } : undefined;
  say(
    live
      ? `Printers: live — a fake ESC/POS printer on 127.0.0.1 for each of the ${endpoints.length} order endpoints; the print queue is drained before every measured phase.`
      : `Printers: closed — the ${endpoints.length} order endpoints at tcp://127.0.0.1:9 (nothing listens; jobs queue and wait).`,
  );
  /** Jobs printed since the last call, once the queue is empty, and how long the drain took (live printers). */
  let printedSoFar = live ? await live.printers.printed() : 0;
  const settle = async (what: string): Promise<{ jobs: number; drainS: number } | undefined> => {
    if (!live) return undefined;
    const drainS = round((await live.drain()) / 1000, 1);
    const now = await live.printers.printed();
    const jobs = now - printedSoFar;
    printedSoFar = now;
    say(`    ${what}: ${jobs} jobs printed; the print queue drained ${drainS} s after it`);
    return { jobs, drainS };
  };
  await settle('backlog the store held at start');

  // Pools of tickets for the update and close runs (each close happens once; the paced run
  // below closes its own).
  const poolSize = 1500;
  // The paced mix sends a close every so many requests: one in 7 scenarios, one in 3 with --write-path.
  const pacedCloses = Math.ceil((SOAK_S * PACED_RATE) / (WRITE_PATH ? 3 : 7)) + 50;
  // The cost run has pools of its own, so what it measures does not depend on how many writes the runs before it made.
  const costCloses = COST_RATE * COST_S + WAL_WRITES + 50;
  const costUpdates = 440;
  const pools = poolSize * 2 + pacedCloses;
  say(`Preparing ${pools + costCloses + costUpdates} open tickets…`);
  const updatePool: string[] = [];
  const closePool: string[] = [];
  const costClosePool: string[] = [];
  const costUpdatePool: string[] = [];
  for (let i = 0; i < pools + costCloses + costUpdates; i++) {
    const t = await call(base, 'POST', '/api/tickets', cashier, ticketBody([11, 22, 33, 44, 55]));
    if (i >= pools + costCloses) costUpdatePool.push(t.id);
    else if (i >= pools) costClosePool.push(t.id);
    else (i % 2 || i >= poolSize * 2 ? closePool : updatePool).push(t.id);
  }
  await settle('preparing the tickets');
  const itemsOf = new Map(updatePool.map((id) => [id, 5]));
  // The table a register asks about: a few open tickets among the million closed ones.
  for (let i = 0; i < 3; i++) await call(base, 'POST', '/api/tickets', cashier, ticketBody([11, 22], '7'));

  const day = new Date(Date.now() - 180 * 86_400_000);
  const dayStart = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate())).toISOString();
  const dayEnd = new Date(Date.parse(dayStart) + 86_400_000).toISOString();

  // Reports answer from running totals; a store made before them (or just generated) is counted
  // once in the background at start. Measure the reports only once that is done (kept in the store).
  const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
  const today = new Date().toISOString().slice(0, 10);
  const yearReport = (groupBy: string) => `/api/reports/sales?from=${yearAgo}&to=${today}&groupBy=${groupBy}`;
  const counting = performance.now();
  while (!(await call(base, 'GET', yearReport('day'), admin)).upToDate) await new Promise((r) => setTimeout(r, 1000));
  say(`Sales totals up to date (${Math.round((performance.now() - counting) / 1000)} s spent counting earlier tickets).`);

  // Every scenario once: the next request it sends (a fresh one each call).
  let u = 0;
  let c = 0;
  let g = 0;
  const allScenarios: Scenario[] = [
    { name: 'ticket create (5 items)', next: () => ({ method: 'POST', path: '/api/tickets', token: cashier, body: createBody }) },
    {
      name: 'ticket update (add an item)',
      next: () => {
        const id = updatePool[u++ % updatePool.length];
        const n = (itemsOf.get(id) ?? 5) + 1;
        itemsOf.set(id, n);
        return { method: 'PUT', path: `/api/tickets/${id}`, token: cashier, body: JSON.stringify(ticketBody(Array.from({ length: n }, (_, i) => 11 * ((i % 9) + 1)))) };
      },
    },
    {
      name: 'ticket close (simulator fiscal device)',
      next: () => ({ method: 'POST', path: `/api/tickets/${closePool[c++]}/close`, token: cashier, body: JSON.stringify({ payments: [{ paymentTypeNumber: 1, amount: 1000 }] }) }),
      amount: poolSize,
    },
    { name: 'GET one ticket', next: () => ({ method: 'GET', path: `/api/tickets/t${String((g++ * 7919) % TICKETS).padStart(7, '0')}`, token: admin }) },
    { name: 'open tickets of one table', next: () => ({ method: 'GET', path: '/api/tickets?IsClosed=false&LocationTableName=7', token: admin }) },
    {
      name: 'closed tickets of one device on one day',
      next: () => ({ method: 'GET', path: `/api/tickets?IsClosed=true&DeviceName=Register3&CloseDate=ge:${dayStart};lt:${dayEnd}`, token: admin }),
    },
    { name: 'customer Search', next: () => ({ method: 'GET', path: '/api/customers?Search=nov&$take=20', token: admin }) },
    { name: '$count=true over all tickets', next: () => ({ method: 'GET', path: '/api/tickets?$count=true', token: admin }) },
    { name: "a year's sales by product (report)", occasional: true, next: () => ({ method: 'GET', path: yearReport('product'), token: admin }) },
    { name: "a year's sales by hour (report)", occasional: true, next: () => ({ method: 'GET', path: yearReport('hour'), token: admin }) },
  ];
  const scenarios = WRITE_PATH ? allScenarios.slice(0, 3) : allScenarios;

  say('Measuring (autocannon, ' + `${CONNECTIONS} connections back to back, ${DURATION} s each)…`);
  const rows: Row[] = [];
  for (const sc of scenarios) {
    const windowFrom = monotonicUs();
    const row = await load(sc.name, {
        url: base,
        ...(sc.amount ? { amount: sc.amount } : {}),
        requests: [
          {
            setupRequest: (req) => {
              const r = sc.next();
              return { ...req, method: r.method as 'GET', path: r.path, headers: auth(r.token), body: r.body };
            },
          },
        ],
      }, hub.child.pid!);
    if (HUB_CPU_PROF) say(`  ${sc.name}, back to back: profile window --from=${windowFrom} --to=${monotonicUs()}`);
    row.printed = await settle(`${sc.name}, back to back`);
    rows.push(row);
  }

  say(`Paced: ${SOAK_S} s at a Saturday-night rate (${PACED_RATE} req/s: 50 registers, one request a second each), the scenarios in turn…`);
  // Resident memory every 5 s (from /proc), and the JS heap in use (from /metrics) every minute:
  // when RSS moves, which part. Not /metrics every 5 s: it counts the open print queue, and the
  // bench store's printers have never been reachable, so that queue is a few hundred thousand
  // jobs long (~25 ms a count) — it would put its own stalls into the paced latencies.
  const samples: number[] = [rssMb(hub.child.pid!)];
  const heapSamples: number[] = [];
  const sampleHeap = async () => {
    const text = await (await fetch(`${base}/metrics`, { headers: auth(admin) })).text();
    heapSamples.push(Number(/^nodejs_heap_size_used_bytes (\d+)/m.exec(text)?.[1] ?? 0) / 2 ** 20);
  };
  await sampleHeap();
  const sampler = setInterval(() => samples.push(rssMb(hub.child.pid!)), 5000);
  const heapSampler = setInterval(() => void sampleHeap(), 60_000);
  const registers = scenarios.filter((sc) => !sc.occasional);
  const paced = await pace(base, registers, SOAK_S);
  registers.forEach((sc, k) => (rows.find((r) => r.name === sc.name)!.paced = paced.byScenario[k]));
  // The occasional ones one at a time, as a manager asks: 20 each, the latency a report takes.
  for (const sc of scenarios.filter((s) => s.occasional)) {
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const r = sc.next();
      const t0 = performance.now();
      await call(base, r.method, r.path, r.token);
      times.push(performance.now() - t0);
    }
    const row = rows.find((x) => x.name === sc.name)!;
    row.single = { p50: percentile(times, 50), p99: percentile(times, 99), n: times.length };
    say(`  ${sc.name} one at a time: p50 ${row.single.p50} ms, p99 ${row.single.p99} ms`);
  }
  // A register's write to a follower of /api/events (a kitchen display, another register): one at a time.
  const eventDelivery = await measureEventDelivery(base, admin, async () => (await call(base, 'POST', '/api/tickets', cashier, ticketBody([11, 22, 33, 44, 55]))).id as string, 200, percentile);
  say(`  event delivery (ticket write → its event at a follower of /api/events), one at a time: p50 ${eventDelivery.p50} ms, p99 ${eventDelivery.p99} ms, max ${eventDelivery.max} ms`);
  const soak = paced.overall;
  const pacedPrinted = await settle('paced run');
  clearInterval(sampler);
  clearInterval(heapSampler);
  await sampleHeap();
  samples.push(rssMb(hub.child.pid!));
  const peakRss = peakRssMb(hub.child.pid!);

  // What each write costs the hub, at a fixed rate: CPU per request, syncs, WAL bytes (scripts/bench/cost.ts).
  say(`Cost: each write alone at ${COST_RATE} req/s for ${COST_S} s (CPU per request, fsyncs), then ${WAL_WRITES} one after another under strace (WAL bytes)…`);
  let cc = 0;
  let cu = 0;
  const costItems = new Map(costUpdatePool.map((id) => [id, 5]));
  const costScenarios: Scenario[] = [
    scenarios[0],
    {
      name: 'ticket update (add an item)',
      next: () => {
        const id = costUpdatePool[cu++ % costUpdatePool.length];
        const n = costItems.get(id)! + 1;
        costItems.set(id, n);
        return { method: 'PUT', path: `/api/tickets/${id}`, token: cashier, body: JSON.stringify(ticketBody(Array.from({ length: n }, (_, i) => 11 * ((i % 9) + 1)))) };
      },
    },
    {
      name: 'ticket close (simulator fiscal device)',
      next: () => ({ method: 'POST', path: `/api/tickets/${costClosePool[cc++]}/close`, token: cashier, body: JSON.stringify({ payments: [{ paymentTypeNumber: 1, amount: 1000 }] }) }),
    },
  ];
  const costs: Cost[] = [];
  for (const sc of costScenarios) costs.push(await measureCost(sc.name, base, hub.child.pid!, sc, storeDir, live));
  const hubThreads = threadsOf(hub.child.pid!);
  hub.child.kill('SIGTERM');
  printers?.stop();

  // The floor: same JSON, minimal handler.
  const floorPort = await freePort();
  const floorDir = join(ROOT, 'scripts', 'bench', '.floor');
  rmSync(floorDir, { recursive: true, force: true });
  mkdirSync(floorDir, { recursive: true });
  const floor = startProcess([process.execPath, ['--import', 'tsx', 'scripts/bench/floor.ts', String(floorPort), floorDir]], slowDisk);
  await waitFor(`http://127.0.0.1:${floorPort}/`, 30_000);
  const floorRow = await load('FLOOR: express + better-sqlite3 insert, synchronous=FULL', {
    url: `http://127.0.0.1:${floorPort}/api/tickets`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: createBody,
  }, floor.child.pid!);
  // The floor at the store's rate too, for the ratios of the paced run.
  const floorScenario: Scenario = { name: 'floor', next: () => ({ method: 'POST', path: '/api/tickets', token: '', body: createBody }) };
  floorRow.paced = (await pace(`http://127.0.0.1:${floorPort}`, [floorScenario], Math.min(SOAK_S, 20))).overall;
  const floorCost = await measureCost('floor', `http://127.0.0.1:${floorPort}`, floor.child.pid!, floorScenario, floorDir);
  floor.child.kill('SIGTERM');
  const ratio = (a: number, b: number) => Math.round((a / Math.max(b, 0.01)) * 10) / 10;
  for (const r of rows) {
    r.ratioRps = ratio(r.rps, floorRow.rps);
    r.ratioP50 = ratio(r.p50, floorRow.p50);
    r.ratioP99 = ratio(r.p99, floorRow.p99);
    if (r.paced && floorRow.paced) r.paced = { ...r.paced, ratioP50: ratio(r.paced.p50, floorRow.paced.p50), ratioP99: ratio(r.paced.p99, floorRow.paced.p99) };
  }

  // Kitchen printing: ticket write to the last byte at a fake ESC/POS printer (scripts/bench-printing.ts).
  if (!WRITE_PATH) say('Kitchen printing latency (300 orders, 1 register, 1 fake printer)…');
  const printing = WRITE_PATH ? '' : await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench-printing.ts', '--orders=300'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (out += c));
    child.on('exit', () => resolve(out));
  });
  const printLine = /write → last byte at the printer \(ms\): p50 ([\d.]+)\s+p90 ([\d.]+)\s+p99 ([\d.]+)/.exec(printing);
  const kitchen = printLine ? { p50: Number(printLine[1]), p90: Number(printLine[2]), p99: Number(printLine[3]) } : { error: printing.trim().slice(-500) };
  if (!WRITE_PATH) say(`  ${printLine ? `p50 ${kitchen.p50 ?? ''} ms  p99 ${'p99' in kitchen ? kitchen.p99 : ''} ms` : 'failed: ' + printing.trim().slice(-200)}`);

  // The fiscal soak: 100 closes through the fake Datecs printer losing a tenth of its replies
  // (scripts/bench-fiscal.ts; it fails unless every ticket has exactly one receipt, as numbered).
  if (!WRITE_PATH) say('Fiscal soak (100 tickets through the fake Datecs printer, 10 % of replies lost)…');
  const soakOut = WRITE_PATH ? { code: null, out: 'not run (--write-path)' } : await runScript('scripts/bench-fiscal.ts', ['--tickets=100', '--drop=0.1']);
  const soakLine = /in ([\d.]+) s\n.*?p50 ([\d.]+)\s+p90 ([\d.]+)\s+p99 ([\d.]+)\s+max ([\d.]+)\n.*?503: (\d+); commands on the line: (\d+)/s.exec(soakOut.out);
  const fiscalSoak =
    soakOut.code === 0 && soakLine
      ? { tickets: 100, seconds: Number(soakLine[1]), p50: Number(soakLine[2]), p90: Number(soakLine[3]), p99: Number(soakLine[4]), max: Number(soakLine[5]), retried: Number(soakLine[6]), commands: Number(soakLine[7]) }
      : { error: soakOut.out.trim().slice(-500) };
  if (!WRITE_PATH) say(`  ${'error' in fiscalSoak ? 'failed: ' + soakOut.out.trim().slice(-200) : `${fiscalSoak.seconds} s; close p50 ${fiscalSoak.p50} ms, p99 ${fiscalSoak.p99} ms; ${fiscalSoak.retried} closes retried after a 503`}`);

  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), os: `${osType()} ${release()}`, node: process.version };
  const results = {
    at: new Date().toISOString(),
    machine,
    store: { tickets: TICKETS },
    settings: { connections: CONNECTIONS, durationS: DURATION, pacedRate: PACED_RATE, pacedSeconds: SOAK_S, printers: PRINTERS, addedSyncMs: SYNC_MS },
    ...(pacedPrinted ? { pacedPrinted } : {}),
    fsyncMs: fsync,
    startupMs: Math.round(startupMs),
    peakRssMb: Math.round(peakRss),
    soak: { seconds: SOAK_S, ...soak, rssMbSamples: samples.map(Math.round), heapUsedMbSamples: heapSamples.map(Math.round) },
    floor: floorRow,
    rows,
    kitchenPrintingMs: kitchen,
    eventDeliveryMs: eventDelivery,
    fiscalSoak,
    cost: { rate: COST_RATE, seconds: COST_S, walWrites: WAL_WRITES, floor: floorCost, rows: costs, hubThreads },
  };
  writeFileSync(join(ROOT, 'scripts', 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);

  say('');
  say(`Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}`);
  say(`Store: ${TICKETS.toLocaleString('en')} tickets. Start-up ${results.startupMs} ms. Peak RSS ${results.peakRssMb} MB. fdatasync (4 KiB) p50 ${fsync.p50} ms, p99 ${fsync.p99} ms${SYNC_MS > 0 ? `, + ${SYNC_MS} ms added to every sync of the hub and the floor (--sync-ms)` : ''}.`);
  say('');
  say(`| scenario | back to back: req/s | req/s × floor | p50 ms | p99 ms | p50 × floor | p99 × floor | at ${PACED_RATE} req/s: p50 ms | p99 ms | p50 × floor | p99 × floor | errors |`);
  say(`|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|`);
  const line = (name: string, r: Row, ratios: [unknown, unknown, unknown, unknown, unknown]) =>
    say(`| ${name} | ${r.rps} | ${ratios[0]} | ${r.p50} | ${r.p99} | ${ratios[1]} | ${ratios[2]} | ${r.paced?.p50 ?? ''} | ${r.paced?.p99 ?? ''} | ${ratios[3]} | ${ratios[4]} | ${r.errors + (r.paced?.errors ?? 0)} |`);
  for (const r of rows) line(r.name, r, [r.ratioRps, r.ratioP50, r.ratioP99, r.paced?.ratioP50 ?? '', r.paced?.ratioP99 ?? '']);
  line('floor (express + better-sqlite3 insert, FULL: one fsync per request)', floorRow, [1, 1, 1, 1, 1]);
  say('');
  say(`Back to back, the server and the load generator share the machine's ${cpus().length} cores. CPU per answer in those runs, and the rate that would fill every core at that cost (however the server spread its work over threads):`);
  say('');
  say('| scenario | server CPU ms/answer | main thread | load generator | machine idle | rate filling the cores | × floor\'s req/s |');
  say('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of [...rows, floorRow].filter((x) => x.busy)) {
    const b = r.busy!;
    say(`| ${r === floorRow ? 'floor' : r.name} | ${b.serverMs} | ${b.mainMs} | ${b.generatorMs} | ${b.idlePct} % | ${b.ceiling} | ${ratio(b.ceiling, floorRow.rps)} |`);
  }
  say('');
  if (live) {
    say(`Printers: live. Jobs printed, each phase's backlog drained before the next phase began (drain time after its last request):`);
    for (const r of rows) if (r.printed) say(`  ${r.name}, back to back: ${r.printed.jobs} jobs (drained ${r.printed.drainS} s after)`);
    if (pacedPrinted) say(`  paced run: ${pacedPrinted.jobs} jobs (drained ${pacedPrinted.drainS} s after)`);
    say('');
  } else {
    say('Printers: closed (tcp://127.0.0.1:9): jobs queue and are never printed.');
    say('');
  }
  say(`Cost at a fixed ${COST_RATE} req/s (${COST_S} s each; CPU from /proc: the whole process, and its main thread; fsyncs from perf; WAL bytes from ${WAL_WRITES} writes one after another under strace):`);
  say('');
  if (live) say('With live printers each write\'s jobs are printed inside its measured window (the queue drained before the window closes); jobs printed per request in the last column.');
  say(`| scenario | CPU ms/req | × floor | main thread ms/req | × floor | fsyncs/s | fsyncs/req | WAL KiB/write | DB KiB/write | p50 ms | p99 ms | errors |${live ? ' jobs printed/req |' : ''}`);
  say(`|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${live ? '---:|' : ''}`);
  for (const c of [...costs, floorCost]) {
    say(
      `| ${c.name} | ${c.cpuMsPerReq} | ${ratio(c.cpuMsPerReq, floorCost.cpuMsPerReq)} | ${c.mainThreadMsPerReq} | ${ratio(c.mainThreadMsPerReq, floorCost.mainThreadMsPerReq)} | ` +
        `${c.syncsPerS ?? '–'} | ${c.syncsPerReq ?? '–'} | ${c.walKiBPerWrite ?? '–'} | ${c.dbKiBPerWrite ?? '–'} | ${c.p50} | ${c.p99} | ${c.errors} |${live ? ` ${c.jobsPerReq ?? '–'} |` : ''}`,
    );
  }
  say(`Threads of the hub, CPU over the whole run (ms): ${hubThreads.map((t) => `${t.name} ${Math.round(t.ms)}`).join(', ')}`);
  say('');
  for (const r of rows.filter((x) => x.single)) say(`${r.name}, one request at a time: p50 ${r.single!.p50} ms, p99 ${r.single!.p99} ms (${r.single!.n})`);
  say(`Kitchen printing, ticket write → last byte at the fake printer: ${JSON.stringify(kitchen)}`);
  say(`Event delivery, ticket write → its event at a follower of /api/events: ${JSON.stringify(eventDelivery)}`);
  say(`Fiscal soak, 100 closes with 10 % of the printer's replies lost: ${JSON.stringify(fiscalSoak)}`);
  say(`Paced run ${SOAK_S} s at ${PACED_RATE} req/s, all scenarios: p50 ${results.soak.p50} ms, p99 ${results.soak.p99} ms, errors ${results.soak.errors}, RSS MB ${results.soak.rssMbSamples.join(' → ')}; JS heap in use MB ${results.soak.heapUsedMbSamples.join(' → ')}`);
  say(`Results: scripts/bench/results.json`);
  process.exit(0);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
