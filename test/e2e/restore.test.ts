/** A backup taken through the API restores with `npm run restore` into a stopped hub. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN_PASSWORD, ROOT, startHubProcess } from '../support/process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'poshub-restore-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const restore = (file: string) =>
  spawnSync('npm', ['run', '--silent', 'restore', '--', file], { cwd: ROOT, env: { ...process.env, POS_HUB_DATA_DIR: dataDir }, encoding: 'utf8' });

describe('backup and restore', () => {
  it('restores the data as it was at the backup, and refuses while the hub runs', async () => {
    let hub = await startHubProcess({}, { dataDir });
    let token = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
    expect((await hub.call('POST', '/api/customers', { firstName: 'Before', lastName: 'Backup' }, { token })).status).toBe(201);
    const backup = await hub.call('POST', '/api/backups', undefined, { token });
    expect(backup.status).toBe(201);
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
    expect(ok.status).toBe(0);

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
    expect((await hub.stop()).code).toBe(0);
  }, 120_000);
});
