/**
 * What each layer of the hub's HTTP stack costs (issue 31): `npx tsx scripts/bench-middleware.ts [--requests=20000]`.
 * The real app (createApp) on a temp database, driven in-process without a socket's kernel work: a
 * request object and a response writing into nothing. A request is cut short at each layer in turn
 * (an answer put in the stack right before it), so the difference between two cuts is what that
 * layer costs, whatever it does; the last line is the whole stack up to a resource's handler
 * (GET /api/paymenttypes/1 with a session), the first bare express answering the same.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express, { type Express } from 'express';
import { closeDb, openDb, whenDurable } from '../db/client.js';
import { buildServices, createApp } from '../hub/app.js';
import { bootstrap } from '../hub/bootstrap.js';
import { systemClock } from '../hub/core/clock.js';
import { createLogger } from '../hub/core/log.js';
import { FiscalRegistry } from '../drivers/fiscal/registry.js';

const REQUESTS = Number(process.argv.find((a) => a.startsWith('--requests='))?.split('=')[1] ?? 20000);
const say = (s: string) => process.stdout.write(`${s}\n`);

/** A socket that takes writes and drops them. */
class NullSocket extends Socket {
  override write(...args: unknown[]): boolean {
    const cb = args.find((a) => typeof a === 'function') as (() => void) | undefined;
    cb?.();
    return true;
  }
}

const socket = new NullSocket();

/** A GET (its body stream is left open: the stack reads no body of a GET, and an ended one is kept alive by Node). */
function request(app: Express, path: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve) => {
    const req = new IncomingMessage(socket);
    req.method = 'GET';
    req.url = path;
    req.headers = headers;
    const res = new ServerResponse(req);
    res.assignSocket(socket);
    res.on('finish', () => {
      res.detachSocket(socket);
      resolve();
    });
    app(req, res);
  });
}

async function timePerRequest(app: Express, path: string, headers: Record<string, string>): Promise<number> {
  for (let i = 0; i < 2000; i++) await request(app, path, headers);
  const t0 = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) await request(app, path, headers);
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / REQUESTS;
}

interface RouterLike {
  stack: Array<{ name?: string; handle: { stack?: unknown[] } & ((...a: unknown[]) => unknown) }>;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'poshub-mw-'));
  const db = openDb(join(dataDir, 'hub.sqlite'), { groupSync: true });
  const log = createLogger('silent');
  const config = { timeZone: 'Europe/Bratislava', tokenTtlMs: 12 * 3600_000, dataDir, locale: 'en' as const };
  const deps = { db, clock: systemClock, log, config, drivers: { fiscal: new FiscalRegistry({ clock: () => new Date() }) } };
  const services = buildServices(deps);
  await bootstrap({ db, services: services.resources, dataDir, adminPassword: 'bench-middleware', timeZone: config.timeZone, now: new Date(), log });
  const session = await services.auth.login({ userName: 'admin', password: 'bench-middleware', deviceName: 'BackOffice' }, '127.0.0.1');
  await services.resources.paymenttypes.put(services.auth.authenticate(session.tokenId), 1, { name: 'Cash', category: 'Cash', isChangeable: true }).catch(() => undefined);
  await whenDurable(db);
  const headers = { authorization: `Bearer ${session.tokenId}`, host: '127.0.0.1' };
  const path = '/api/paymenttypes/1';

  const bare = express();
  bare.get(path, (_req, res) => void res.type('application/json').send('{}'));
  const rows: Array<[string, number]> = [['bare express, one route answering {}', await timePerRequest(bare, path, headers)]];

  // Cut the real stack short before each layer: app level, then inside the /api router.
  const answer = (_req: unknown, res: ServerResponse) => void res.setHeader('Content-Type', 'application/json').end('{}');
  const probe = createApp(deps, services);
  const appStack = (probe as unknown as { router: RouterLike }).router.stack;
  const apiAt = appStack.findIndex((l) => Array.isArray(l.handle.stack));
  const apiStack = (appStack[apiAt].handle as unknown as RouterLike).stack;
  const cut = async (where: 'app' | 'api', at: number, label: string) => {
    const app = createApp(deps, services);
    const stack = (app as unknown as { router: RouterLike }).router.stack;
    const target = where === 'app' ? stack : (stack[apiAt].handle as unknown as RouterLike).stack;
    const layer = Object.create(Object.getPrototypeOf(target[at]));
    Object.assign(layer, target[at], { handle: answer, name: 'cut' });
    target.splice(at, 0, layer);
    rows.push([label, await timePerRequest(app, path, headers)]);
  };
  for (let i = 0; i <= apiAt; i++) await cut('app', i, `app layer ${i}: before ${appStack[i].name || '(anonymous)'}`);
  for (let i = 0; i < apiStack.length; i++) await cut('api', i, `api layer ${i}: before ${apiStack[i].name || '(anonymous)'}`);
  rows.push(['the whole stack and the handler (GET one payment type)', await timePerRequest(probe, path, headers)]);

  say(`CPU per request, in-process, ${REQUESTS} requests each (µs); the step is what the layer before it cost:`);
  let previous = 0;
  for (const [label, us] of rows) {
    say(`${us.toFixed(1).padStart(7)}  ${(us - previous >= 0 ? '+' : '') + (us - previous).toFixed(1).padStart(6)}  ${label}`);
    previous = us;
  }
  closeDb(db);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
