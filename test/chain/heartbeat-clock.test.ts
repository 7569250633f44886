/**
 * The store's heartbeat says when it was sent by the hub's own clock (the injected one that every
 * business time comes from), not the machine's; and a store whose heartbeats HQ does not answer
 * (an HQ older than the hub listens without answering) says, once, that it keeps its whole log.
 * A real nats-server, the store's own NATS user.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeDb, openDb, type Db } from '../../db/client.js';
import { FakeClock } from '../../hub/core/clock.js';
import pino from 'pino';
import { keepDocsInLog } from '../../hub/engine/change-log.js';
import { ResourceService } from '../../hub/engine/service.js';
import { modifiers, paymentTypes, plus, stocks } from '../../hub/resources.js';
import { startChain, type Chain } from '../../hub/chain/index.js';
import { heartbeatSubject, type Heartbeat } from '../../hub/hq/protocol.js';
import { chainTestsAvailable, removeNats, startNats, type NatsServer } from '../support/chain.js';

const available = chainTestsAvailable();
let nats: NatsServer;
let hq: NatsConnection;
let dir: string;
let db: Db;
let chain: Chain | undefined;
const logged: string[] = [];

beforeAll(async () => {
  if (!available) return;
  nats = await startNats({ stores: ['s1'] });
  hq = await nats.connect('hq');
  dir = mkdtempSync(join(tmpdir(), 'poshub-beat-'));
  db = openDb(join(dir, 'hub.sqlite'));
  keepDocsInLog(db);
}, 60_000);

afterAll(async () => {
  await chain?.stop();
  await hq?.close();
  if (db) closeDb(db);
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (nats) await removeNats(nats);
}, 30_000);

it.runIf(available)("stamps each heartbeat with the hub's clock, and says once that it keeps its log while HQ answers none", async () => {
  const clock = new FakeClock('2031-01-02T03:04:05.000Z');
  const beats: Heartbeat[] = [];
  hq.subscribe(heartbeatSubject('s1'), { callback: (err, m) => void (!err && beats.push(m.json<Heartbeat>())) });
  await hq.flush();
  const env = nats.storeEnv('s1');
  chain = startChain({
    db,
    log: pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line).msg) }),
    config: { url: env.POS_HUB_HQ_URL, user: 's1', password: env.POS_HUB_HQ_PASSWORD, storeName: 'Shop', heartbeatMs: 100, timeoutMs: 5000 },
    storeId: 's1',
    // The catalog's four resources, served on the hub's clock as the hub serves them.
    resources: Object.fromEntries(
      [plus, modifiers, paymentTypes, stocks].map((def) => [def.name, new ResourceService(def, { db, clock, timeZone: 'UTC', busy: new Set<string>() })]),
    ),
    deviceStatuses: () => ({ printers: [] }),
    clock: () => clock.now(),
  });
  await expect.poll(() => beats.length, { timeout: 10_000 }).toBeGreaterThan(0);
  expect(beats[0]).toMatchObject({ storeId: 's1', name: 'Shop', at: '2031-01-02T03:04:05.000Z' });
  // The hub's clock moves (an hour here, whatever the machine's did): the next heartbeat says so.
  clock.advance(3600_000);
  await expect.poll(() => beats.at(-1)?.at, { timeout: 10_000 }).toBe('2031-01-02T04:04:05.000Z');
  expect(beats.every((b) => b.at === '2031-01-02T03:04:05.000Z' || b.at === '2031-01-02T04:04:05.000Z')).toBe(true);
  // This HQ listens and never answers: after ten heartbeats the store says why its log grows, once.
  const said = (m: string) => logged.filter((l) => l.startsWith(m)).length;
  await expect.poll(() => said('HQ answers no heartbeat'), { timeout: 10_000 }).toBe(1);
  const seen = beats.length;
  await expect.poll(() => beats.length, { timeout: 10_000 }).toBeGreaterThan(seen + 3);
  expect(said('HQ answers no heartbeat')).toBe(1);
  // An HQ that answers: said too.
  hq.subscribe(heartbeatSubject('s1'), { callback: (err, m) => void (!err && m.respond(JSON.stringify({ storeId: 's1', ingestedSeq: 0, republishFrom: null }))) });
  await expect.poll(() => said('HQ answers heartbeats again'), { timeout: 10_000 }).toBe(1);
});
