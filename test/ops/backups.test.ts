/**
 * Backups under rapid and concurrent requests (issue 30 point 11, CONTRACT §12 "Backups"): none
 * fails, a backup that was answered is never the one pruned, the list stays in the order they were
 * made in — many in one second, and a clock set back, included.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { startHub, type TestHub } from '../support/hub.js';

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

  it('concurrent ones: none fails, and what they answered is kept', async () => {
    for (let round = 0; round < 3; round++) {
      const replies = await Promise.all(Array.from({ length: 8 }, () => hub.call('POST', '/api/backups')));
      expect(replies.map((r) => r.status)).toEqual(replies.map(() => 201));
      const kept = await listed();
      expect(kept.length).toBe(KEEP);
      // Requests that came while one ran share its backup; the newest answered is the newest kept.
      expect(kept[0]).toBe(replies.at(-1)!.body.file);
      for (const r of replies) expect(await hub.call('GET', `/api/backups/${r.body.file}`).then((d) => d.status)).toBeOneOf([200, 404]);
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
