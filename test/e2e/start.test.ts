/**
 * The real process (CONTRACT §5, §10): `npm start` on an empty data directory makes the admin,
 * prints where it listens and how to log in, serves the API, and exits 0 on SIGTERM within 10 s.
 * A bad environment value stops the start with a message naming the variable.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ROOT, failedHubStart, startHubProcess, type HubProcess } from '../support/process.js';

/** Hubs started here and not stopped yet (a failed test); stopped after each test. */
const running = new Set<HubProcess>();
const dirs: string[] = [];

/**
 * As a shop starts: without POS_HUB_ADMIN_PASSWORD (the hub makes the admin's password) and at the
 * default log level, whatever the other e2e tests set.
 */
const FIRST_START = { POS_HUB_ADMIN_PASSWORD: undefined, POS_HUB_LOG_LEVEL: undefined };

async function start(...args: Parameters<typeof startHubProcess>): Promise<HubProcess> {
  const hub = await startHubProcess(...args);
  running.add(hub);
  return hub;
}

/** Stops with `signal`: exit 0 (and no signal) within 10 s, or the hub's group is killed (signal SIGKILL) and this fails. */
async function expectCleanStop(hub: HubProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  expect(await hub.stop(10_000, signal), hub.output()).toEqual({ code: 0, signal: null });
  running.delete(hub);
}

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'poshub-e2e-'));
  dirs.push(d);
  return d;
}

afterEach(async () => {
  for (const hub of running) await hub.stop(0);
  running.clear();
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('npm start', () => {
  it('starts on an empty data directory, serves the API and stops on SIGTERM with exit 0', async () => {
    const dataDir = join(tempDir(), 'data');
    const hub = await start(FIRST_START, { dataDir, viaNpm: true });
    const { port, url } = hub;

    const health = await (await fetch(`${url}/api/health`)).json();
    expect(health).toMatchObject({ status: 'ok', db: 'ok', version: expect.any(String) });

    const file = join(dataDir, 'admin-password.txt');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const password = readFileSync(file, 'utf8').trim();
    expect(password.length).toBeGreaterThanOrEqual(12);

    const out = hub.stdout();
    expect(out).toContain(`listening on http://127.0.0.1:${port}`);
    expect(out).toContain(`http://127.0.0.1:${port}/api`);
    expect(out).toContain(`Manager's page: http://127.0.0.1:${port}/;`);
    expect(out).toMatch(/log in as user 'admin'.*on device 'BackOffice'/);
    expect(out.split(password).length - 1).toBe(1); // printed once
    expect(out).toContain(file);

    const login = await hub.call('POST', '/api/auth', { userName: 'admin', password, deviceName: 'BackOffice' });
    expect(login.status).toBe(200);
    const created = await hub.call('POST', '/api/customers', { id: 'e2e-1', firstName: 'Eva', lastName: 'Nová' }, { token: login.body.tokenId });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/api/customers/e2e-1');
    expect(created.body).toMatchObject({ id: 'e2e-1', fullName: 'Eva Nová', _v: 1 });
    // The password never reaches the log.
    expect(hub.stdout().split(password).length - 1).toBe(1);

    await expectCleanStop(hub);
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();

    // A second start on the same data and port keeps the admin and the customer, and prints no new password.
    const again = await start(FIRST_START, { dataDir, port, viaNpm: true });
    expect(readFileSync(file, 'utf8').trim()).toBe(password);
    expect(again.stdout()).not.toContain(password);
    expect(again.stdout()).toContain('POST /api/auth');
    const relogin = await again.call('POST', '/api/auth', { userName: 'admin', password, deviceName: 'BackOffice' });
    expect(relogin.status).toBe(200);
    const stored = await again.call('GET', '/api/customers/e2e-1', undefined, { token: relogin.body.tokenId });
    expect(stored.status).toBe(200);
    await expectCleanStop(again, 'SIGINT');
  }, 60_000);

  it('npm run seed:demo beside a running hub names the port the hub took, not the configured one; with no hub, says to start it', async () => {
    const dataDir = tempDir();
    const seed = (port: string) =>
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/seed-demo.ts'], {
        cwd: ROOT,
        env: { ...process.env, POS_HUB_DATA_DIR: dataDir, POS_HUB_PORT: port },
        encoding: 'utf8',
      });
    const hub = await start({}, { dataDir });
    const out = seed(String(hub.port + 1)); // configured differently from the port the hub listens on
    expect(out).toContain(`Open http://127.0.0.1:${hub.port}/ and log in`);
    expect(out).not.toContain(`:${hub.port + 1}`);
    expect(readFileSync(join(dataDir, 'hub.pid'), 'utf8')).toMatch(new RegExp(`^\\d+\\nhttp://127\\.0\\.0\\.1:${hub.port}/\\n$`));
    await expectCleanStop(hub);
    expect(() => statSync(join(dataDir, 'hub.pid'))).toThrow(); // gone with the hub
    // The hub as it runs hashes passwords at the real cost (the test suite's in-process hubs do not).
    const db = new Database(join(dataDir, 'hub.sqlite'), { readonly: true });
    const hashes = db.prepare("SELECT password_hash FROM users WHERE user_name IN ('admin', 'manazer')").all() as Array<{ password_hash: string }>;
    db.close();
    expect(hashes.map((h) => h.password_hash.split('$').slice(0, 4).join('$'))).toEqual(['scrypt$16384$8$1', 'scrypt$16384$8$1']);
    expect(seed('8123')).toContain('Start the hub (npm start), open http://localhost:8123/');
  });

  it('the hub serves and stops on SIGTERM when nobody reads its output', async () => {
    // stdout is a pipe without a reader from the start, as when a log collector has died: every write meets EPIPE.
    // Without npm, which itself dies when its stdout breaks.
    const hub = await start({ ...FIRST_START, POS_HUB_ADMIN_PASSWORD: 'e2e-admin-pw' }, { dataDir: join(tempDir(), 'data'), unreadStdout: true });
    const login = await hub.call('POST', '/api/auth', { userName: 'admin', password: 'e2e-admin-pw', deviceName: 'BackOffice' });
    expect(login.status).toBe(200);
    await expectCleanStop(hub);
  }, 60_000);

  it('a first start over a stale admin-password.txt still leaves it readable only by its owner', async () => {
    const dataDir = join(tempDir(), 'data');
    mkdirSync(dataDir);
    const file = join(dataDir, 'admin-password.txt');
    writeFileSync(file, 'stale\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    const hub = await start(FIRST_START, { dataDir });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const password = readFileSync(file, 'utf8').trim();
    expect(password).not.toBe('stale');
    expect(hub.stdout()).toContain(password);
    await expectCleanStop(hub);
  }, 60_000);

  it('a bad environment value stops the start with a message naming it', async () => {
    const { code, stderr } = await failedHubStart({ ...FIRST_START, POS_HUB_PORT: 'abc' }, { dataDir: join(tempDir(), 'data'), viaNpm: true });
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(stderr).toContain('POS_HUB_PORT');
    expect(stderr).toContain('abc');
  }, 40_000);

  it('reports every bad value at once', async () => {
    const { code, stderr } = await failedHubStart(
      { ...FIRST_START, POS_HUB_HOST: undefined, POS_HUB_PORT: '70000', POS_HUB_TOKEN_TTL: 'forever', POS_HUB_MDNS: 'maybe' },
      { dataDir: join(tempDir(), 'data') },
    );
    expect(code).not.toBe(0);
    for (const name of ['POS_HUB_PORT', 'POS_HUB_TOKEN_TTL', 'POS_HUB_MDNS']) expect(stderr).toContain(name);
  }, 40_000);

  it('a data directory that cannot be one, or an address the hub cannot listen on, is named by its variable', async () => {
    const file = join(tempDir(), 'not-a-directory');
    writeFileSync(file, 'a file');
    const dir = await failedHubStart({}, { dataDir: file });
    expect(dir.code).toBe(1);
    expect(dir.stderr).toContain(`POS_HUB_DATA_DIR='${file}'`);
    // 192.0.2.1 (TEST-NET-1) is no address of this machine: the listen fails after everything else started.
    const host = await failedHubStart({ POS_HUB_HOST: '192.0.2.1' }, { dataDir: join(tempDir(), 'data') });
    expect(host.code).toBe(1);
    expect(host.stderr).toContain('POS_HUB_HOST');
    expect(host.stdout).not.toMatch(/listening/);
  }, 60_000);

  it('a database file that is not one stops the start with a message naming the file', async () => {
    const dataDir = join(tempDir(), 'data');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'hub.sqlite'), 'not a database, a note someone saved here\n'.repeat(100));
    const failed = await failedHubStart({}, { dataDir });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(join(dataDir, 'hub.sqlite'));
    expect(failed.stderr).toMatch(/not a database/);
    expect(failed.stdout).not.toMatch(/listening/);
  }, 60_000);

  it('runs a bundle of the current sources, written again only when they change, with each module finding its own files', () => {
    const bundle = join(ROOT, 'hub', 'dist', 'main.js');
    const build = () => execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT });
    build();
    const before = statSync(bundle).mtimeMs;
    build();
    // Unchanged sources: not rewritten, so hubs starting from this checkout meanwhile read a whole file.
    expect(statSync(bundle).mtimeMs).toBe(before);
    // The bundle and the chunks it names (shared code, and what it loads only when needed).
    const main = readFileSync(bundle, 'utf8');
    const chunks = [...main.matchAll(/"\.\/(chunks\/[\w-]+\.js)"/g)].map((m) => m[1]);
    expect(chunks.some((c) => c.startsWith('chunks/chain-'))).toBe(true);
    const text = [main, ...chunks.map((c) => readFileSync(join(ROOT, 'hub', 'dist', c), 'utf8'))].join('\n');
    // A hub alone does not load NATS's client (the chain's chunk does), nor the mail and serial
    // packages before it sends an e-mail or opens a serial port: none is a static import of the start.
    for (const lazy of ['@nats-io/transport-node', '@nats-io/jetstream', 'nodemailer', 'serialport', '@serialport/stream']) {
      expect(main, lazy).not.toMatch(new RegExp(`^import [^;]* from "${lazy}"`, 'm'));
    }
    // db/client.ts finds its migrations next to itself, not next to the bundle.
    expect(text).toContain(JSON.stringify(pathToFileURL(join(ROOT, 'db', 'client.ts')).href));
    expect(text).not.toContain('import.meta.url');
  }, 30_000);
});
