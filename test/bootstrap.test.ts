import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeDb, openDb } from '../db/client.js';
import { FiscalRegistry } from '../drivers/fiscal/registry.js';
import { buildServices } from '../hub/app.js';
import { bootstrap } from '../hub/bootstrap.js';
import { SYSTEM_CALLER } from '../hub/http/caller.js';
import { FakeClock } from '../hub/core/clock.js';
import { createLogger } from '../hub/core/log.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'poshub-boot-'));
  dirs.push(dataDir);
  const db = openDb(join(dataDir, 'hub.sqlite'));
  const clock = new FakeClock();
  const log = createLogger('silent');
  const services = buildServices({ db, clock, log, config: { timeZone: 'UTC', tokenTtlMs: 3600_000, dataDir }, drivers: { fiscal: new FiscalRegistry({ clock: () => clock.now() }) } });
  const run = () => bootstrap({ db, services: services.resources, dataDir, timeZone: 'UTC', now: clock.now(), log });
  return { dataDir, db, services, run };
}

describe('first-start bootstrap', () => {
  it('completes a first start that was cut off half-way, with a readable password file', async () => {
    const { dataDir, db, services, run } = setup();
    // A previous start got as far as the device and one numbering before the power went.
    await services.resources.devices.create(SYSTEM_CALLER, { name: 'BackOffice', envName: 'BackOffice' });
    await services.resources.stocktransfernumberings.create(SYSTEM_CALLER, { id: 'income', type: 'Income', format: 'P-{i4}' });
    const result = await run();
    expect(result.created).toBe(true);
    const password = readFileSync(join(dataDir, 'admin-password.txt'), 'utf8').trim();
    expect(password).toBe(result.adminPassword);
    expect(statSync(join(dataDir, 'admin-password.txt')).mode & 0o777).toBe(0o600);
    expect(services.resources.users.get('admin')).toMatchObject({ userName: 'admin' });
    expect(services.resources.paymenttypes.get(1)).toMatchObject({ category: 'Cash', isChangeable: true });
    expect(services.resources.stocktransfernumberings.list({}).totalCount).toBe(6);
    expect((await run()).created).toBe(false);
    closeDb(db);
  });
});

describe('rights added by an upgrade', () => {
  it('go to the users who held every right before, and to nobody else', async () => {
    const { grantNewRights } = await import('../hub/rights-upgrade.js');
    const { RIGHTS } = await import('../hub/http/rights.js');
    const { db, services, run } = setup();
    await run();
    const clerk = await services.resources.users.create(SYSTEM_CALLER, { userName: 'clerk', password: 'pw', rights: ['CustomerCreate'] });
    // Pretend the data directory was made by a version that did not know Backup yet.
    const older = RIGHTS.filter((r) => r !== 'Backup');
    await services.resources.users.put(SYSTEM_CALLER, 'admin', { ...services.resources.users.get('admin'), rights: older, _v: undefined });
    db.$client.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('rights.known', ?)`).run(JSON.stringify(older));
    expect(grantNewRights(db, new FakeClock())).toEqual(['Backup']);
    expect(services.resources.users.get('admin').rights).toContain('Backup');
    expect(services.resources.users.get(String(clerk.id)).rights).toEqual(['CustomerCreate']);
    expect(grantNewRights(db, new FakeClock())).toEqual([]);
    closeDb(db);
  });
});
