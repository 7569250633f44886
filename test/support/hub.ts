/**
 * Test harness: the real app (createApp) on a real SQLite file in a temp dir, a fake clock,
 * listening on 127.0.0.1, with the first-start bootstrap done and helpers to call it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDb, openDb, type Db } from '../../db/client.js';
import type { SyncFd } from '../../db/durability.js';
import { buildServices, createApp, type Services } from '../../hub/app.js';
import { answerClientErrors } from '../../hub/http/client-errors.js';
import { bootstrap } from '../../hub/bootstrap.js';
import { FakeClock } from '../../hub/core/clock.js';
import { createLogger, type Logger } from '../../hub/core/log.js';
import { dbDeviceStateStore } from '../../hub/core/device-state.js';
import { hubId } from '../../hub/core/identity.js';
import { FiscalRegistry } from '../../drivers/fiscal/registry.js';
import type { PrintingOptions } from '../../hub/printing/service.js';
import { checkAnswer } from './answers.js';

export const ADMIN_PASSWORD = 'admin-test-password';

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestHub {
  url: string;
  db: Db;
  clock: FakeClock;
  services: Services;
  fiscal: FiscalRegistry;
  dataDir: string;
  adminToken: string;
  /** A request with a token (the admin's unless `token` is given). Bodies are sent as JSON. */
  call<T = any>(method: string, path: string, body?: unknown, opts?: { token?: string | null; headers?: Record<string, string>; raw?: string }): Promise<Reply<T>>;
  login(userName: string, password: string, deviceName: string): Promise<string>;
  /** Creates a user with exactly these rights and logs it in on `deviceName` (BackOffice by default). */
  userWith(rights: string[], deviceName?: string): Promise<string>;
  close(): Promise<void>;
}

let userSeq = 0;

/**
 * `dataDir`: a directory of an earlier hub (a restart); it is kept on close.
 * `printing`: start the print workers with these timings (short backoffs and timeouts keep printer tests fast).
 * `syncFd`: how the WAL is flushed (durability tests hold, count or fail the fsync). `log`: a logger to read back.
 * `backupKeep`: POS_HUB_BACKUP_KEEP (14 when left out).
 * `port`: listen there (a hub restarted where a browser page expects it); default a free one.
 */
export async function startHub(
  opts: { clock?: FakeClock; timeZone?: string; locale?: 'en' | 'sk' | 'cs'; rateLimit?: number; dataDir?: string; printing?: PrintingOptions; syncFd?: SyncFd; metricsToken?: string; log?: Logger; backupKeep?: number; port?: number } = {},
): Promise<TestHub> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'poshub-test-'));
  // As hub/main.ts opens it: COMMIT without an inline sync, every effect awaiting the shared one.
  const db = openDb(join(dataDir, 'hub.sqlite'), { syncFd: opts.syncFd, groupSync: true });
  const clock = opts.clock ?? new FakeClock('2026-11-21T10:00:00Z');
  const log = opts.log ?? createLogger('silent');
  const config = { locale: opts.locale ?? ('en' as const), timeZone: opts.timeZone ?? 'Europe/Bratislava', tokenTtlMs: 12 * 3600_000, dataDir, rateLimit: opts.rateLimit ?? 0, metricsToken: opts.metricsToken, backupKeep: opts.backupKeep };
  const fiscal = new FiscalRegistry({ store: dbDeviceStateStore(db), clock: () => clock.now(), hubId: hubId(db), timeZone: config.timeZone });
  const deps = { db, clock, log, config, drivers: { fiscal, printing: opts.printing } };
  const services = buildServices(deps);
  await bootstrap({ db, services: services.resources, dataDir, adminPassword: ADMIN_PASSWORD, timeZone: config.timeZone, now: clock.now(), log, language: config.locale });
  const app = createApp(deps, services);
  // Print workers run only for tests that ask (with their timings): elsewhere jobs stay queued, as written.
  if (opts.printing) services.printing.start();
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(opts.port ?? 0, '127.0.0.1', () => resolve(s));
  });
  answerClientErrors(server);
  // As hub/main.ts: the client (undici) closes idle sockets first, never the server under a request.
  server.keepAliveTimeout = 65_000;
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const call: TestHub['call'] = async (method, path, body, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    const token = o.token === undefined ? hub.adminToken : o.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined = o.raw;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url + path, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    // Every answer a test gets is held against the document: drift fails the test that sees it.
    checkAnswer(method, path, res.status, res.headers.get('content-type'), parsed);
    return { status: res.status, headers: res.headers, body: parsed as any };
  };

  const login = async (userName: string, password: string, deviceName: string) => {
    const r = await call('POST', '/api/auth', { userName, password, deviceName }, { token: null });
    if (r.status !== 200) throw new Error(`login ${userName} failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.tokenId as string;
  };

  const hub: TestHub = {
    url,
    db,
    clock,
    services,
    fiscal,
    dataDir,
    adminToken: '',
    call,
    login,
    async userWith(rights, deviceName = 'BackOffice') {
      const userName = `user${++userSeq}`;
      const r = await call('POST', '/api/users', { userName, password: 'pw-' + userName, rights });
      if (r.status !== 201) throw new Error(`user create failed: ${JSON.stringify(r.body)}`);
      return login(userName, 'pw-' + userName, deviceName);
    },
    async close() {
      // As main.ts stops: the event streams end and their timers stop before the database closes
      // (a page's EventSource reconnecting meanwhile otherwise restarts a poller on a closed database).
      services.events.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await services.printing.stop();
      closeDb(db);
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  hub.adminToken = await firstLogin(() => login('admin', ADMIN_PASSWORD, 'BackOffice'));
  return hub;
}

/**
 * The first request to a hub started again on the port of one that just closed (a restart where a
 * page expects it) can meet the client's pooled socket to the old server, which that server closed:
 * undici says "other side closed" before anything reached the new hub. That one login is tried again.
 */
async function firstLogin(login: () => Promise<string>): Promise<string> {
  try {
    return await login();
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause;
    if (!(e instanceof TypeError) || cause?.code !== 'UND_ERR_SOCKET') throw e;
    return login();
  }
}
