/**
 * Backups under rapid and concurrent requests (issue 30 point 11, CONTRACT §12 "Backups"): none
 * fails, a backup that was answered is never the one pruned, the list stays in the order they were
 * made in — many in one second, and a clock set back, included. And what a backup holds (point 12):
 * no secret in clear — the SMTP password and devices' secret settings only sealed with the data
 * directory's key, which is not in the backup — and no older value in a freed page.
 */
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDbFile, commitNow } from '../../db/client.js';
import { unsealSecrets } from '../../db/sealed-backup.js';
import { FakeClock } from '../../hub/core/clock.js';
import { backupKeyPath, openWith, readBackupKey } from '../../hub/backups/seal.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx } from '../tickets/fixture.js';

const KEEP = 3;
let hub: TestHub;
beforeAll(async () => {
  // The clock stands still: every backup is made in the same second.
  hub = await startHub({ backupKeep: KEEP, clock: new FakeClock('2026-11-21T10:00:00Z') });
});
afterAll(() => hub.close());

const listed = async () => (await hub.call('GET', '/api/backups')).body.items.map((b: { file: string }) => b.file) as string[];

describe('backups past the number kept', () => {
  it('rapid ones in one second: every one answered 201, kept, newest first; the oldest pruned', async () => {
    const made: string[] = [];
    for (let i = 0; i < KEEP * 4; i++) {
      const r = await hub.call('POST', '/api/backups');
      expect([r.status, r.body?.detail]).toEqual([201, undefined]);
      made.push(r.body.file);
      expect(existsSync(join(hub.dataDir, 'backups', r.body.file))).toBe(true);
      // The one answered heads the list: it was not pruned, and the order is the order they were made in.
      expect(await listed()).toEqual(made.slice(-KEEP).reverse());
    }
    expect(new Set(made).size).toBe(made.length);
  });

  it('the list pages, counts and sorts as every list does (CONTRACT §4)', async () => {
    const all = await listed();
    expect(all.length).toBe(KEEP);
    const page = (await hub.call('GET', '/api/backups?$skip=1&$take=1')).body;
    expect(page).toMatchObject({ count: 1, totalCount: KEEP });
    expect(page.items.map((b: { file: string }) => b.file)).toEqual([all[1]]);
    expect((await hub.call('GET', '/api/backups?$count=true&$take=2')).body).toEqual({ count: 2, totalCount: KEEP });
    const byName = (await hub.call('GET', '/api/backups?$sort=file')).body.items.map((b: { file: string }) => b.file);
    expect(byName).toEqual([...all].sort());
    const refused = await hub.call('GET', '/api/backups?$sort=secret');
    expect([refused.status, refused.body.errors[0].memberName]).toEqual([400, '$sort']);
    const unknown = await hub.call('GET', '/api/backups?size=1');
    expect([unknown.status, unknown.body.errors[0].memberName]).toEqual([400, 'size']);
    expect((await hub.call('GET', '/api/backups?$take=1001')).status).toBe(400);
  });

  it('concurrent ones: none fails, and what they answered is kept', async () => {
    for (let round = 0; round < 3; round++) {
      const replies = await Promise.all(Array.from({ length: 8 }, () => hub.call('POST', '/api/backups')));
      expect(replies.map((r) => r.status)).toEqual(replies.map(() => 201));
      const kept = await listed();
      expect(kept.length).toBe(KEEP);
      // Requests that came while one ran share the next backup; the newest answered is the newest kept.
      expect(kept[0]).toBe(replies.at(-1)!.body.file);
      for (const r of replies) expect(await hub.call('GET', `/api/backups/${r.body.file}`).then((d) => d.status)).toBeOneOf([200, 404]);
    }
  });

  it('a request while a backup runs gets one begun after it: what was written before the request is in it', async () => {
    // The hub's start-up backup (or a scheduled one) is running; a write is answered; the manager asks
    // for a backup. Answering the running one would hand over a copy begun before the write.
    const running = hub.services.backups.create();
    const written = await hub.call('POST', '/api/stocks', { name: 'backup-race' });
    expect(written.status).toBe(201);
    const asked = hub.call('POST', '/api/backups');
    const [first, reply] = await Promise.all([running, asked]);
    expect(reply.status).toBe(201);
    expect(reply.body.file).not.toBe(first.file);
    expect((await listed())[0]).toBe(reply.body.file);
    const copy = join(hub.dataDir, 'backup-race.sqlite');
    writeCopy(join(hub.dataDir, 'backups', reply.body.file), copy);
    const db = new Database(copy, { readonly: true });
    try {
      expect(db.prepare("SELECT name FROM stocks WHERE name = 'backup-race'").get()).toEqual({ name: 'backup-race' });
    } finally {
      db.close();
    }
  });

  it('writes under way as the copy begins: the backup is made, with what was committed and nothing else', async () => {
    // The hub's connection opens a batch of writes (BEGIN IMMEDIATE) whenever a register writes, so
    // one may be open at the moment the copy starts. SQLite's backup API then answers BUSY before it
    // copied a page, which better-sqlite3 took for "done" and removed the file: the backup failed.
    commitNow(hub.db);
    const made = hub.services.backups.create();
    hub.db.$client.exec("BEGIN IMMEDIATE; CREATE TABLE uncommitted_probe (x)");
    try {
      const info = await made;
      const db = new Database(join(hub.dataDir, 'backups', info.file), { readonly: true });
      try {
        expect(db.prepare("SELECT name FROM stocks WHERE name = 'backup-race'").get()).toEqual({ name: 'backup-race' });
        expect(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'uncommitted_probe'").get()).toBeUndefined();
      } finally {
        db.close();
      }
    } finally {
      hub.db.$client.exec('ROLLBACK');
    }
  });

  it('a clock set back still makes the newest backup sort first and keeps it', async () => {
    const before = await listed();
    hub.clock.set('2026-11-21T09:00:00Z');
    const r = await hub.call('POST', '/api/backups');
    expect(r.status).toBe(201);
    expect(await listed()).toEqual([r.body.file, ...before.slice(0, KEEP - 1)]);
    hub.clock.set('2026-11-21T10:00:00Z');
  });

  it('a backup pruned between its look-up and its download answers 404 (errorCode 7), not a 500 naming a path', async () => {
    const [newest] = await listed();
    const service = hub.services.backups;
    const real = service.path.bind(service);
    // The look-up finds it; by the time the file is read, a backup made meanwhile has pruned it.
    service.path = (file: string) => (real(file) ? join(hub.dataDir, 'backups', 'hub-20000101-000000.sqlite') : undefined);
    try {
      const r = await hub.call('GET', `/api/backups/${newest}`);
      expect([r.status, r.body.errorCode]).toEqual([404, 7]);
      expect(JSON.stringify(r.body)).not.toContain(hub.dataDir);
    } finally {
      service.path = real;
    }
  });
});

describe('what a backup holds', () => {
  const SECRETS = ['old-smtp-pw-AAAA'.repeat(20), 'smtp-pw-BBBB', 'sk-live-CCCC', '47114711', 'sk-gone-DDDD'];
  let file: string;

  it('no secret in clear, not even one changed before; each sealed with the key kept outside it', async () => {
    const smtp = { host: '127.0.0.1', port: 9, tls: 'Off', user: 'pokladna' };
    await expect2xx(hub.call('PUT', '/api/receipts/settings', { smtp: { ...smtp, password: SECRETS[0] } }));
    await expect2xx(hub.call('PUT', '/api/receipts/settings', { smtp: { ...smtp, password: SECRETS[1] } }));
    await expect2xx(hub.call('POST', '/api/devices', { name: 'Terminal', envName: 'PDA', settings: { ApiKey: SECRETS[2], Language: 'sk' } }));
    await expect2xx(hub.call('POST', '/api/fiscaldevices', { name: 'DT1', driver: 'datecs', address: 'tcp://127.0.0.1:9', settings: { OperatorPassword: SECRETS[3] } }));
    // A device deleted with its key: its row's bytes stay in the database file's free space until reused.
    await expect2xx(hub.call('POST', '/api/devices', { name: 'Gone', envName: 'Tool', description: 'x'.repeat(300), settings: { ApiKey: SECRETS[4] } }));
    await expect2xx(hub.call('DELETE', '/api/devices/Gone'));
    const r = await hub.call('POST', '/api/backups');
    expect(r.status).toBe(201);
    file = r.body.file;
    const downloaded = Buffer.from(await (await fetch(`${hub.url}/api/backups/${file}`, { headers: { authorization: `Bearer ${hub.adminToken}` } })).arrayBuffer());
    for (const secret of SECRETS) expect(downloaded.includes(secret), secret).toBe(false);
    // Only the backup itself in the folder: no copy, journal or key beside it.
    expect(readdirSync(join(hub.dataDir, 'backups')).filter((n) => !/^hub-[\d-]+\.sqlite$/.test(n))).toEqual([]);

    const path = join(hub.dataDir, 'backups', file);
    expect(checkDbFile(path)).toBeNull();
    const key = readBackupKey(backupKeyPath(hub.dataDir))!;
    expect(statSync(backupKeyPath(hub.dataDir)).mode & 0o777).toBe(0o600);
    expect(downloaded.includes(readFileSync(backupKeyPath(hub.dataDir), 'utf8').trim())).toBe(false);
    const db = new Database(path, { readonly: true });
    try {
      const sealed = db.prepare('SELECT place, name, sealed FROM sealed_secrets ORDER BY place, name').all() as Array<{ place: string; name: string; sealed: string }>;
      expect(sealed.map((x) => [x.place, x.name, openWith(key, x.sealed, x)])).toEqual([
        ['devices/Terminal', 'ApiKey', SECRETS[2]],
        ['fiscal_devices/DT1', 'OperatorPassword', SECRETS[3]],
        ['receipt_settings/default', 'smtp_password', SECRETS[1]],
      ]);
      // Bound to where it was taken from: moved to another place it does not open.
      expect(openWith(key, sealed[0].sealed, { place: 'devices/Other', name: 'ApiKey' })).toBeNull();
      expect(JSON.parse((db.prepare("SELECT doc FROM devices WHERE name = 'Terminal'").get() as { doc: string }).doc).settings).toEqual({ Language: 'sk' });
    } finally {
      db.close();
    }
  });

  it('opens back where the key opens it, and only there', () => {
    const path = join(hub.dataDir, 'backups', file);
    const key = readBackupKey(backupKeyPath(hub.dataDir))!;
    const restoredWithKey = join(hub.dataDir, 'restored.sqlite');
    const withoutKey = join(hub.dataDir, 'restored-nokey.sqlite');
    for (const to of [restoredWithKey, withoutKey]) writeCopy(path, to);
    const ok = unsealSecrets(restoredWithKey, (sealed, where) => openWith(key, sealed, where));
    expect([ok.restored.length, ok.lost]).toEqual([3, []]);
    const db = new Database(restoredWithKey, { readonly: true });
    try {
      expect((db.prepare('SELECT smtp_password AS p FROM receipt_settings').get() as { p: string }).p).toBe(SECRETS[1]);
      expect(JSON.parse((db.prepare("SELECT doc FROM devices WHERE name = 'Terminal'").get() as { doc: string }).doc).settings).toEqual({ ApiKey: SECRETS[2], Language: 'sk' });
      expect(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sealed_secrets'").get()).toBeUndefined();
    } finally {
      db.close();
    }
    const otherKey = Buffer.alloc(32, 7);
    const none = unsealSecrets(withoutKey, (sealed, where) => openWith(otherKey, sealed, where));
    expect([none.restored, none.lost.map((w) => w.name)]).toEqual([[], ['ApiKey', 'OperatorPassword', 'smtp_password']]);
  });
});

function writeCopy(from: string, to: string): void {
  writeFileSync(to, readFileSync(from));
}
