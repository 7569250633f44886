/**
 * The real hub process for end-to-end tests: `npm start` in its own process group on a free
 * 127.0.0.1 port and a temp data dir, with helpers to call it and to stop it with SIGTERM; and a
 * start that is meant to fail, for what it prints and its exit code.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const E2E_ADMIN_PASSWORD = 'e2e-admin-password';

/**
 * What `npm start` runs, without npm: builds the server bundle (scripts/build-server.mjs, a no-op
 * when nothing changed; once per test process) and answers the node command of package.json's start
 * script, flags and all.
 */
export function hubCommand(): [string, string[]] {
  return scriptCommand('start', 'hub');
}

/** Targets this test process has built: the sources do not change during a run. */
const built = new Set<string>();

/**
 * The same for another script of package.json that builds with scripts/build-server.mjs (`hq`).
 * Built once per test process, not at every start: a build costs ~0.3 s of a core, and the suite
 * starts some forty processes. (`npm start` itself still builds every time; the start test runs it.)
 */
export function scriptCommand(script: string, target: 'hub' | 'hq'): [string, string[]] {
  if (!built.has(target)) {
    execFileSync(process.execPath, ['scripts/build-server.mjs', target], { cwd: ROOT, stdio: 'inherit' });
    built.add(target);
  }
  const line = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[script];
  const node = /&& exec node (.+)$/.exec(line);
  if (!node) throw new Error(`package.json's ${script} script does not end in "&& exec node …": ${line}`);
  return [process.execPath, node[1].split(' ')];
}

import { freePort } from '../../hub/core/free-port.js';

export { freePort };

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export interface HubStartOptions {
  /** Used as it is and left in place; by default a fresh temp dir, removed by stop(). */
  dataDir?: string;
  keepDataDir?: boolean;
  /** By default a free one. */
  port?: number;
  /**
   * Start it with `npm start` itself. By default the test runs what `npm start` runs (`hubCommand()`,
   * read from package.json) without npm: npm costs ~0.4 s of a core per start, and itself dies when
   * its stdout breaks. test/e2e/start.test.ts starts it through npm.
   */
  viaNpm?: boolean;
  /** Close stdout's read end at once, as when a log collector has died: every write the hub makes there meets EPIPE. */
  unreadStdout?: boolean;
}

export interface HubProcess {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** stdout and stderr as they came. */
  output(): string;
  stdout(): string;
  stderr(): string;
  exit: Promise<Exit>;
  /** JSON call with an optional token; returns status, headers and parsed body. */
  call(method: string, path: string, body?: unknown, opts?: { token?: string; headers?: Record<string, string> }): Promise<{ status: number; headers: Headers; body: any }>;
  login(userName: string, password: string, deviceName: string): Promise<string>;
  /** `signal` (SIGTERM by default), then wait for the exit (SIGKILL after `ms`). */
  stop(ms?: number, signal?: NodeJS.Signals): Promise<Exit>;
}

/**
 * Spawns the hub without waiting for it. `env` comes on top of the defaults; an undefined value
 * leaves that variable unset (e.g. POS_HUB_ADMIN_PASSWORD, for a first start that makes its own).
 */
async function spawnHub(env: Record<string, string | undefined>, opts: HubStartOptions) {
  const port = opts.port ?? (await freePort());
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'poshub-e2e-'));
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('POS_HUB_')));
  const merged: Record<string, string | undefined> = {
    ...base,
    POS_HUB_PORT: String(port),
    POS_HUB_HOST: '127.0.0.1',
    POS_HUB_DATA_DIR: dataDir,
    POS_HUB_MDNS: '0',
    POS_HUB_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
    POS_HUB_LOG_LEVEL: 'warn',
    ...env,
  };
  const [cmd, args] = opts.viaNpm ? ['npm', ['start']] : hubCommand();
  const child = spawn(cmd, args, {
    cwd: ROOT,
    env: Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let stdout = '';
  let stderr = '';
  if (opts.unreadStdout) child.stdout!.destroy();
  else
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      stdout += c.toString('utf8');
    });
  child.stderr!.on('data', (c: Buffer) => {
    out += c.toString('utf8');
    stderr += c.toString('utf8');
  });
  const exit = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  };
  const removeDataDir = () => {
    if (!opts.keepDataDir && !opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  return { port, dataDir, child, exit, killGroup, removeDataDir, output: () => out, stdout: () => stdout, stderr: () => stderr };
}

/**
 * A start that is meant to fail (a bad setting, say): waits up to `ms` for the process to exit and
 * answers its exit with what it printed. Still running after `ms`, it is killed and this throws.
 */
export async function failedHubStart(env: Record<string, string | undefined>, opts: HubStartOptions & { ms?: number } = {}): Promise<Exit & { stdout: string; stderr: string }> {
  const hub = await spawnHub(env, opts);
  const ms = opts.ms ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const result = await Promise.race([hub.exit, late]);
  clearTimeout(timer);
  hub.killGroup(); // whatever npm left behind, or all of it when late
  await hub.exit;
  hub.removeDataDir();
  if (result === 'late') throw new Error(`the hub did not exit within ${ms} ms:\n${hub.output()}`);
  return { ...result, stdout: hub.stdout(), stderr: hub.stderr() };
}

/**
 * Starts a server on a port freePort() found, again (up to three times) when it fails because another
 * process took that port between the check and the bind: three test files start servers at once.
 */
export async function againIfPortTaken<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (e) {
      if (attempt === 3 || !/EADDRINUSE|already in use/.test(String(e))) throw e;
    }
  }
}

export async function startHubProcess(env: Record<string, string | undefined> = {}, opts: HubStartOptions = {}): Promise<HubProcess> {
  // A port the test chose is the test's business (a taken one is what some tests are about).
  return opts.port !== undefined ? startHubOnce(env, opts) : againIfPortTaken(() => startHubOnce(env, opts));
}

async function startHubOnce(env: Record<string, string | undefined>, opts: HubStartOptions): Promise<HubProcess> {
  const { port, dataDir, child, exit, killGroup, removeDataDir, output, stdout, stderr } = await spawnHub(env, opts);
  const url = `http://127.0.0.1:${port}`;

  const call: HubProcess['call'] = async (method, path, body, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* keep text */
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };

  let exited = false;
  void exit.then(() => (exited = true));
  const until = Date.now() + 60_000;
  for (;;) {
    if (exited || Date.now() > until) {
      killGroup();
      removeDataDir();
      throw new Error(`${exited ? 'the hub exited before answering' : 'the hub did not answer /api/health within 60 s'}:\n${output()}`);
    }
    try {
      if ((await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) })).ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    url,
    port,
    dataDir,
    child,
    output,
    stdout,
    stderr,
    exit,
    call,
    async login(userName, password, deviceName) {
      const r = await call('POST', '/api/auth', { userName, password, deviceName });
      if (r.status !== 200) throw new Error(`login failed: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.tokenId as string;
    },
    async stop(ms = 10_000, signal = 'SIGTERM') {
      // To npm alone: it relays the signal to the hub and exits with the hub's code. Signalling the
      // whole group would let npm exit 143 on its own before the hub has finished.
      if (!exited) child.kill(signal);
      const timer = setTimeout(killGroup, ms);
      const result = await exit;
      clearTimeout(timer);
      removeDataDir();
      return result;
    },
  };
}
