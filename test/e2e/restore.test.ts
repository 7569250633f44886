/**
 * A backup taken through the API restores with `npm run restore` into a stopped hub — its sealed
 * secrets (the SMTP password, devices' secret settings) put back with the data directory's backup
 * key, or with `--key` on another PC; without the key the rest restores and the secrets are named.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN_PASSWORD, ROOT, startHubProcess } from '../support/process.js';
import { lastChangeSeq } from '../../db/client.js';

const dataDir = mkdtempSync(join(tmpdir(), 'poshub-restore-'));
const otherPc = mkdtempSync(join(tmpdir(), 'poshub-restore-other-'));
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(otherPc, { recursive: true, force: true });
});

const restore = (file: string, dir = dataDir, extra: string[] = []) =>
  spawnSync('npm', ['run', '--silent', 'restore', '--', file, ...extra], { cwd: ROOT, env: { ...process.env, POS_HUB_DATA_DIR: dir }, encoding: 'utf8' });

/** The secrets as stored in a data directory's database. */
function storedSecrets(dir: string): { smtp: string | null; apiKey: string | undefined } {
  const db = new Database(join(dir, 'hub.sqlite'), { readonly: true });
  try {
    const smtp = (db.prepare("SELECT smtp_password AS p FROM receipt_settings WHERE id = 'default'").get() as { p: string | null }).p;
    const doc = JSON.parse((db.prepare("SELECT doc FROM devices WHERE name = 'Terminal'").get() as { doc: string }).doc);
    return { smtp, apiKey: doc.settings.ApiKey };
  } finally {
    db.close();
  }
}
let backupFile = '';

describe('backup and restore', () => {
  it('restores the data as it was at the backup, and refuses while the hub runs', async () => {
    let hub = await startHubProcess({}, { dataDir });
    let token = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
    expect((await hub.call('POST', '/api/customers', { firstName: 'Before', lastName: 'Backup' }, { token })).status).toBe(201);
    expect((await hub.call('PUT', '/api/receipts/settings', { smtp: { host: '127.0.0.1', port: 9, tls: 'Off', user: 'u', password: 'smtp-secret' } }, { token })).status).toBe(200);
    expect((await hub.call('POST', '/api/devices', { name: 'Terminal', envName: 'PDA', settings: { ApiKey: 'sk-live-1' } }, { token })).status).toBe(201);
    const backup = await hub.call('POST', '/api/backups', undefined, { token });
    expect(backup.status).toBe(201);
    backupFile = join(dataDir, 'backups', backup.body.file);
    expect((await hub.call('POST', '/api/customers', { firstName: 'After', lastName: 'Backup' }, { token })).status).toBe(201);
    const lastBefore = (await hub.call('GET', '/api/health', undefined, { token })).body.changeLog.lastSeq;

    const refused = restore(backup.body.file);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/is running/);
    const first = await hub.stop();
    expect(first.code, hub.output()).toBe(0);

    const garbage = restore(join(ROOT, 'package.json'));
    expect(garbage.status).not.toBe(0);
    expect(garbage.stderr).toMatch(/not a usable backup/);

    const ok = restore(backup.body.file);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('Put back 2 secret(s)');
    expect(storedSecrets(dataDir)).toEqual({ smtp: 'smtp-secret', apiKey: 'sk-live-1' });

    hub = await startHubProcess({}, { dataDir });
    token = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
    const names = (await hub.call('GET', '/api/customers?Search=Backup', undefined, { token })).body.items.map((c: any) => c.firstName);
    expect(names).toEqual(['Before']);
    // The log goes on after the replaced database's last position: no position is handed out twice
    // (a register following the log, or head office, would take the new change for the old one).
    const created = await hub.call('POST', '/api/customers', { firstName: 'Restored', lastName: 'Later' }, { token });
    expect(created.status).toBe(201);
    const changes = (await hub.call('GET', `/api/changes?since=${lastBefore}`, undefined, { token })).body.items;
    expect(changes.some((c: any) => c.resource === 'customers' && c.key === created.body.id)).toBe(true);
    expect(changes.every((c: any) => c.seq > lastBefore)).toBe(true);
    const settings = (await hub.call('GET', '/api/receipts/settings', undefined, { token })).body;
    expect(settings.smtp.passwordSet).toBe(true);
    expect((await hub.call('GET', '/api/devices/Terminal', undefined, { token })).body.secretSettings).toEqual(['ApiKey']);
    expect((await hub.stop()).code).toBe(0);
  }, 120_000);

  it("on another PC: without the backup key the rest restores and the secrets are named; with --key they come back", () => {
    const without = restore(backupFile, otherPc);
    expect(without.status, without.stderr).toBe(0);
    expect(without.stdout).toMatch(/2 secret\(s\) of the backup could not be opened \(no backup key\)/);
    expect(without.stdout).toContain('receipt_settings/default: smtp_password');
    expect(without.stdout).toContain('devices/Terminal: ApiKey');
    expect(storedSecrets(otherPc)).toEqual({ smtp: null, apiKey: undefined });
    // No database replaced (a dead disk): what the lost one handed out after the backup is unknown,
    // so the log goes on a billion positions on — head office drops a change at a position it holds.
    expect(lastChangeSeq(join(otherPc, 'hub.sqlite'))).toBe(lastChangeSeq(backupFile) + 1_000_000_000);
    expect(without.stdout).toMatch(/No database to replace: the change log goes on at \d+/);

    const withKey = restore(backupFile, otherPc, ['--key', join(dataDir, 'backup.key')]);
    expect(withKey.status, withKey.stderr).toBe(0);
    expect(storedSecrets(otherPc)).toEqual({ smtp: 'smtp-secret', apiKey: 'sk-live-1' });
    expect(restore(backupFile, otherPc, ['--key', join(otherPc, 'nothing.key')]).stderr).toMatch(/no such key file/);
  }, 60_000);

  it('on a new PC whose data directory does not exist yet: the restore makes it (mode 700) and the hub starts on it', async () => {
    const fresh = join(otherPc, 'new-disk', 'data');
    const made = restore(backupFile, fresh, ['--key', join(dataDir, 'backup.key')]);
    expect(made.status, made.stderr).toBe(0);
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
    expect(statSync(join(fresh, 'hub.sqlite')).mode & 0o777).toBe(0o600);
    expect(storedSecrets(fresh)).toEqual({ smtp: 'smtp-secret', apiKey: 'sk-live-1' });
    const hub = await startHubProcess({}, { dataDir: fresh });
    const token = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
    expect((await hub.call('GET', '/api/devices/Terminal', undefined, { token })).body.secretSettings).toEqual(['ApiKey']);
    expect((await hub.stop()).code).toBe(0);
  }, 120_000);
});
