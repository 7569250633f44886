/**
 * What a reboot or a power cut leaves behind (CONTRACT §12 "Start-up" and "Files", issue 16): a
 * stale hub.pid whose number now belongs to another program blocks nothing; a second hub on the same
 * data directory, or a hub on a taken port, exits non-zero naming the cause and never says
 * "listening"; half-written backups are removed at start; every file of the data directory is 600.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { E2E_ADMIN_PASSWORD, failedHubStart, startHubProcess, type HubProcess } from '../support/process.js';

const running = new Set<HubProcess>();
const dirs: string[] = [];
function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'poshub-reboot-'));
  dirs.push(d);
  return join(d, 'data');
}
afterEach(async () => {
  for (const hub of running) await hub.stop(0);
  running.clear();
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
async function start(dir: string, port?: number): Promise<HubProcess> {
  const hub = await startHubProcess({}, { dataDir: dir, port });
  running.add(hub);
  return hub;
}

describe('start-up after a reboot', () => {
  it('a stale hub.pid naming a live process that is not a hub does not block the start', async () => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true });
    // After a reboot the pid in the file belongs to some other program: here a live `sleep`.
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      writeFileSync(join(dir, 'hub.pid'), `${other.pid}\n`);
      const hub = await start(dir);
      expect((await hub.call('GET', '/api/health')).status).toBe(200);
    } finally {
      other.kill('SIGKILL');
    }
  }, 60_000);

  it('a second hub on the same data directory exits non-zero naming the one that runs', async () => {
    const dir = dataDir();
    const first = await start(dir);
    const second = await failedHubStart({}, { dataDir: dir });
    expect(second.code).not.toBe(0);
    expect(second.code).not.toBeNull();
    expect(second.stderr).toMatch(new RegExp(`another hub \\(pid ${first.child.pid}\\) is running on`));
    expect(second.stdout).not.toMatch(/listening/);
    expect((await first.call('GET', '/api/health')).status).toBe(200);
  }, 60_000);

  it('a taken port exits non-zero with the cause and never prints "listening"', async () => {
    const squatter: Server = createServer();
    const port = await new Promise<number>((resolve) => squatter.listen(0, '127.0.0.1', () => resolve((squatter.address() as { port: number }).port)));
    try {
      const r = await failedHubStart({}, { dataDir: dataDir(), port });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(r.stdout).not.toMatch(/listening/);
    } finally {
      squatter.close();
    }
  }, 60_000);

  it('removes half-written backups and makes every file of the data directory readable by its owner only', async () => {
    const dir = dataDir();
    mkdirSync(join(dir, 'backups'), { recursive: true });
    writeFileSync(join(dir, 'backups', 'hub-20261120-030000.sqlite.partial'), 'cut off');
    // A directory from before this rule: a world-readable secret.
    writeFileSync(join(dir, 'admin-password.txt'), 'old\n');
    chmodSync(join(dir, 'admin-password.txt'), 0o644);
    chmodSync(dir, 0o755);
    const hub = await start(dir);
    // The half-written one is gone (the start's own backup may be a .partial of its own just now).
    expect(existsSync(join(dir, 'backups', 'hub-20261120-030000.sqlite.partial'))).toBe(false);
    const token = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
    expect((await hub.call('PUT', '/api/customers/c1', { firstName: 'Eva' }, { token })).status).toBe(201);
    expect((await hub.call('POST', '/api/backups', undefined, { token })).status).toBe(201);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const files = ['hub.sqlite', 'hub.sqlite-wal', 'hub.sqlite-shm', 'admin-password.txt', 'hub.pid', 'hub.lock'];
    for (const f of files) {
      expect(existsSync(join(dir, f)), f).toBe(true);
      expect((statSync(join(dir, f)).mode & 0o777).toString(8), f).toBe('600');
    }
    // The one asked for, and the scheduled one a start makes when the newest backup is old.
    const backups = readdirSync(join(dir, 'backups'));
    expect(backups.length).toBeGreaterThanOrEqual(1);
    for (const b of backups) expect((statSync(join(dir, 'backups', b)).mode & 0o777).toString(8), b).toBe('600');
    expect((statSync(join(dir, 'backups')).mode & 0o777).toString(8)).toBe('700');
  }, 60_000);
});
