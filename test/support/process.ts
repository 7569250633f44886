/**
 * The real hub process for end-to-end tests: `npm start` in its own process group on a free
 * 127.0.0.1 port and a temp data dir, with helpers to call it and to stop it with SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const E2E_ADMIN_PASSWORD = 'e2e-admin-password';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface HubProcess {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** JSON call with an optional token; returns status, headers and parsed body. */
  call(method: string, path: string, body?: unknown, opts?: { token?: string; headers?: Record<string, string> }): Promise<{ status: number; headers: Headers; body: any }>;
  login(userName: string, password: string, deviceName: string): Promise<string>;
  /** SIGTERM, then wait for the exit (SIGKILL after `ms`). */
  stop(ms?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startHubProcess(env: Record<string, string> = {}, opts: { dataDir?: string; keepDataDir?: boolean } = {}): Promise<HubProcess> {
  const port = await freePort();
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'poshub-e2e-'));
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('POS_HUB_')));
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      ...base,
      POS_HUB_PORT: String(port),
      POS_HUB_HOST: '127.0.0.1',
      POS_HUB_DATA_DIR: dataDir,
      POS_HUB_MDNS: '0',
      POS_HUB_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      POS_HUB_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
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
    if (exited) throw new Error(`the hub exited before answering:\n${out}`);
    if (Date.now() > until) throw new Error(`the hub did not answer /api/health within 60 s:\n${out}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
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
    output: () => out,
    exit,
    call,
    async login(userName, password, deviceName) {
      const r = await call('POST', '/api/auth', { userName, password, deviceName });
      if (r.status !== 200) throw new Error(`login failed: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.tokenId as string;
    },
    async stop(ms = 10_000) {
      // To npm alone: it relays the signal to the hub and exits with the hub's code. Signalling the
      // whole group would let npm exit 143 on its own before the hub has finished.
      if (!exited) child.kill('SIGTERM');
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
      }, ms);
      const result = await exit;
      clearTimeout(timer);
      if (!opts.keepDataDir && !opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return result;
    },
  };
}
