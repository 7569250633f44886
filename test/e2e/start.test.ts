/**
 * The real process (CONTRACT §5, §10): `npm start` on an empty data directory makes the admin,
 * prints where it listens and how to log in, serves the API, and exits 0 on SIGTERM within 10 s.
 * A bad environment value stops the start with a message naming the variable.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Started {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Process groups started here; npm may exit before the hub under it, so groups are stopped, not pids. */
const groups = new Set<number>();
const dirs: string[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * `npm start` with only the POS_HUB_* variables given here; `direct` runs what the script runs,
 * without npm (which itself dies when its stdout breaks).
 */
function start(env: Record<string, string>, direct = false): Started {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('POS_HUB_')));
  const [cmd, args] = direct ? [process.execPath, ['--import', 'tsx', 'hub/main.ts']] : ['npm', ['start']];
  // Its own process group, so a failed test can stop npm and the hub under it together.
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  groups.add(child.pid!);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return { child, out: () => out, err: () => err, exit };
}

async function waitForHealth(url: string, started: Started, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  let exited = false;
  void started.exit.then(() => (exited = true));
  while (Date.now() < until && !exited) {
    try {
      const r = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (r.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the hub did not answer /api/health\nstdout:\n${started.out()}\nstderr:\n${started.err()}`);
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms))]);
}

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'poshub-e2e-'));
  dirs.push(d);
  return d;
}

afterEach(() => {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      /* the whole group is gone */
    }
  }
  groups.clear();
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('npm start', () => {
  it('starts on an empty data directory, serves the API and stops on SIGTERM with exit 0', async () => {
    const port = await freePort();
    const dataDir = join(tempDir(), 'data');
    const env = { POS_HUB_PORT: String(port), POS_HUB_HOST: '127.0.0.1', POS_HUB_DATA_DIR: dataDir, POS_HUB_MDNS: '0' };
    const url = `http://127.0.0.1:${port}`;
    const hub = start(env);
    await waitForHealth(url, hub);

    const health = await (await fetch(`${url}/api/health`)).json();
    expect(health).toMatchObject({ status: 'ok', db: 'ok', version: expect.any(String) });

    const file = join(dataDir, 'admin-password.txt');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const password = readFileSync(file, 'utf8').trim();
    expect(password.length).toBeGreaterThanOrEqual(12);

    const out = hub.out();
    expect(out).toContain(`listening on http://127.0.0.1:${port}`);
    expect(out).toContain(`http://127.0.0.1:${port}/api`);
    expect(out).toMatch(/log in as user 'admin'.*on device 'BackOffice'/);
    expect(out.split(password).length - 1).toBe(1); // printed once
    expect(out).toContain(file);

    const login = await fetch(`${url}/api/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'admin', password, deviceName: 'BackOffice' }),
    });
    expect(login.status).toBe(200);
    const { tokenId } = (await login.json()) as { tokenId: string };
    const created = await fetch(`${url}/api/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokenId}` },
      body: JSON.stringify({ id: 'e2e-1', firstName: 'Eva', lastName: 'Nová' }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/api/customers/e2e-1');
    expect(await created.json()).toMatchObject({ id: 'e2e-1', fullName: 'Eva Nová', _v: 1 });
    // The password never reaches the log.
    expect(hub.out().split(password).length - 1).toBe(1);

    const t0 = Date.now();
    hub.child.kill('SIGTERM');
    const { code, signal } = await withTimeout(hub.exit, 10_000, 'shutdown');
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(10_000);
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();

    // A second start on the same data keeps the admin and the customer, and prints no new password.
    const again = start(env);
    await waitForHealth(url, again);
    expect(readFileSync(file, 'utf8').trim()).toBe(password);
    expect(again.out()).not.toContain(password);
    expect(again.out()).toContain('POST /api/auth');
    const relogin = await fetch(`${url}/api/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'admin', password, deviceName: 'BackOffice' }),
    });
    expect(relogin.status).toBe(200);
    const token2 = ((await relogin.json()) as { tokenId: string }).tokenId;
    const stored = await fetch(`${url}/api/customers/e2e-1`, { headers: { authorization: `Bearer ${token2}` } });
    expect(stored.status).toBe(200);
    again.child.kill('SIGINT');
    expect(await withTimeout(again.exit, 10_000, 'shutdown')).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('the hub serves and stops on SIGTERM when nobody reads its output', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const hub = start({ POS_HUB_PORT: String(port), POS_HUB_HOST: '127.0.0.1', POS_HUB_DATA_DIR: join(tempDir(), 'data'), POS_HUB_MDNS: '0', POS_HUB_ADMIN_PASSWORD: 'e2e-admin-pw' }, true);
    // stdout is a pipe without a reader from the start, as when a log collector has died: every write meets EPIPE.
    hub.child.stdout!.destroy();
    await waitForHealth(url, hub);
    const login = await fetch(`${url}/api/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'admin', password: 'e2e-admin-pw', deviceName: 'BackOffice' }),
    });
    expect(login.status).toBe(200);
    hub.child.kill('SIGTERM');
    expect(await withTimeout(hub.exit, 10_000, 'shutdown')).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('a first start over a stale admin-password.txt still leaves it readable only by its owner', async () => {
    const port = await freePort();
    const dataDir = join(tempDir(), 'data');
    mkdirSync(dataDir);
    const file = join(dataDir, 'admin-password.txt');
    writeFileSync(file, 'stale\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    const hub = start({ POS_HUB_PORT: String(port), POS_HUB_HOST: '127.0.0.1', POS_HUB_DATA_DIR: dataDir, POS_HUB_MDNS: '0' }, true);
    await waitForHealth(`http://127.0.0.1:${port}`, hub);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const password = readFileSync(file, 'utf8').trim();
    expect(password).not.toBe('stale');
    expect(hub.out()).toContain(password);
    hub.child.kill('SIGTERM');
    expect(await withTimeout(hub.exit, 10_000, 'shutdown')).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('a bad environment value stops the start with a message naming it', async () => {
    const dataDir = join(tempDir(), 'data');
    const hub = start({ POS_HUB_PORT: 'abc', POS_HUB_HOST: '127.0.0.1', POS_HUB_DATA_DIR: dataDir, POS_HUB_MDNS: '0' });
    const { code } = await withTimeout(hub.exit, 30_000, 'a refused start');
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(hub.err()).toContain('POS_HUB_PORT');
    expect(hub.err()).toContain('abc');
  }, 40_000);

  it('reports every bad value at once', async () => {
    const hub = start({ POS_HUB_PORT: '70000', POS_HUB_TOKEN_TTL: 'forever', POS_HUB_MDNS: 'maybe', POS_HUB_DATA_DIR: join(tempDir(), 'data') });
    const { code } = await withTimeout(hub.exit, 30_000, 'a refused start');
    expect(code).not.toBe(0);
    for (const name of ['POS_HUB_PORT', 'POS_HUB_TOKEN_TTL', 'POS_HUB_MDNS']) expect(hub.err()).toContain(name);
  }, 40_000);
});
