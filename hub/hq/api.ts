/**
 * HQ's HTTP API under /hq/api (CONTRACT §13) and its page at /hq/. Errors are problem+json as on
 * the hub (the same middleware); lists follow §4.
 */
import { createHash, randomBytes } from 'node:crypto';
import express, { Router, type Express, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { readJsonBody, requireObjectBody } from '../http/body.js';
import { errors } from '../http/errors.js';
import { problemHandler, requestId, requestLog } from '../http/problem.js';
import { parseIsoDateTime } from '../core/time.js';
import type { Logger } from '../core/log.js';
import { VERSION } from '../core/version.js';
import type { Pool } from './db.js';
import { listDeadLetters, listStores, listTickets, salesReport, type GroupBy } from './lists.js';
import { createSession, createUserOnce, deleteSession, deleteUser, findUser, listUsers, pushCatalog, putUser, sessionUser, setOwnPassword } from './repo.js';
import { CATALOG_RESOURCES, STORE_ID, type CatalogResource } from './protocol.js';
import { hqPage } from './page.js';
// Pure scrypt helpers (node:crypto only), shared rather than written twice.
import { hashPassword, verifyPassword } from '../resources/auth/passwords.js';
import { LoginThrottle } from '../resources/auth/throttle.js';
import { HashGate } from '../resources/auth/hash-gate.js';
import { MAX_STRING } from '../resources/engine/fields.js';
import { parseOr400 } from '../resources/engine/validate.js';
import { systemClock } from '../core/clock.js';

const SESSION_MS = 12 * 3600_000;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * HQ's rights (CONTRACT §13, issue 30): `ReportRead` reads stores, tickets, reports and dead
 * letters; `CatalogPush` pushes catalog changes to stores; `UserManage` manages HQ's users. The
 * first admin holds all three; a read-only reports user holds ReportRead alone.
 */
export const HQ_RIGHTS = ['ReportRead', 'CatalogPush', 'UserManage'] as const;
export type HqRight = (typeof HQ_RIGHTS)[number];
/** The right that manages users: its last holder cannot lose it (no HQ without a way in). */
const KEEPER: HqRight = 'UserManage';
/** A new password: long enough to resist guessing at the login's throttled pace. */
const MIN_PASSWORD = 10;

/** The admin made on first start: the given password, or a random one the caller prints once. */
export async function ensureAdmin(pool: Pool, given?: string): Promise<string | undefined> {
  const password = given ?? randomBytes(12).toString('base64url');
  const created = await createUserOnce(pool, 'admin', await hashPassword(password), HQ_RIGHTS);
  return created && !given ? password : undefined;
}

/** Every answer of HQ (CONTRACT §12 Pages): no framing, no sniffing, scripts and styles from HQ itself only. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
}

const USER_NAME = /^[A-Za-z0-9._@-]{1,64}$/;
const userBody = z.object({
  password: z.string().min(MIN_PASSWORD).max(MAX_STRING).optional(),
  rights: z.array(z.enum(HQ_RIGHTS)).max(HQ_RIGHTS.length * 2),
});
const passwordBody = z.object({ currentPassword: z.string().min(1).max(MAX_STRING), newPassword: z.string().min(MIN_PASSWORD).max(MAX_STRING) });

export interface HqState {
  /** What the health check shows of this process. */
  health(): Record<string, unknown>;
  /** PostgreSQL answers (a 503 from the health check when it does not). */
  databaseOk(): Promise<boolean>;
  /** A catalog push committed: relay it now. */
  catalogPushed(): void;
}

const catalogBody = z.object({
  doc: z.record(z.string(), z.unknown()).optional(),
  stores: z.array(z.string()).min(1).max(10_000),
});

/** A JSON object body checked by `schema`: refused as the hub's own bodies are (engine/validate.ts), members in the caller's language. */
function parseBody<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  return parseOr400(schema, requireObjectBody(raw));
}

function catalogKey(resource: CatalogResource, raw: string): string {
  if (resource === 'plus') {
    const m = /^(.+)\/(\d{1,10})$/.exec(raw);
    if (!m) throw errors.member('key', 'hq.pluKey', { value: raw });
    return raw;
  }
  if (resource === 'paymenttypes' && !/^[1-9]\d{0,9}$/.test(raw)) throw errors.member('key', 'hq.paymentTypeKey', { value: raw });
  if (!raw || raw.length > MAX_STRING) throw errors.member('key', 'member.length', { max: MAX_STRING });
  return raw;
}

export function createHqApp(deps: { pool: Pool; log: Logger; timeZone: string; offlineAfterMs: number; state: HqState }): Express {
  const { pool, log } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestId);
  app.use(requestLog(log));
  app.use(securityHeaders);

  const api = Router();
  api.use(readJsonBody);
  api.get('/health', async (_req, res) => {
    const db = (await deps.state.databaseOk()) ? 'ok' : 'error';
    res.status(db === 'ok' ? 200 : 503).json({ status: db === 'ok' ? 'ok' : 'degraded', version: VERSION, db, ...deps.state.health() });
  });
  // The hub's login rules (CONTRACT §11, §12): attempts counted before the hash, hashing bounded per address.
  const throttle = new LoginThrottle(systemClock);
  const hashing = new HashGate();
  api.post('/auth', async (req, res) => {
    const body = parseBody(z.object({ userName: z.string().min(1).max(MAX_STRING), password: z.string().min(1).max(MAX_STRING) }), req.body);
    const address = req.socket.remoteAddress ?? 'unknown';
    const attempt = throttle.attempt(body.userName, address);
    const user = await findUser(pool, body.userName);
    let ok: boolean;
    try {
      ok = await hashing.run(address, () => verifyPassword(body.password, user?.passwordHash));
    } catch (e) {
      attempt.withdrawn();
      throw e;
    }
    if (!ok || !user) throw errors.unauthenticated('auth.wrongPassword');
    attempt.succeeded();
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + SESSION_MS);
    await createSession(pool, tokenHash(token), user.userName, expiresAt);
    res.json({ tokenId: token, expiresAt: expiresAt.toISOString(), user: { userName: user.userName, rights: user.rights } });
  });
  api.use(async (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization ?? '';
    const token = header.replace(/^Bearer\s+/i, '').trim();
    const user = token ? await sessionUser(pool, tokenHash(token)) : undefined;
    if (!user) throw errors.unauthenticated();
    res.locals.userName = user.userName;
    res.locals.rights = user.rights;
    res.locals.tokenHash = tokenHash(token);
    next();
  });
  /** Reading is a right too (CONTRACT §12): each route names the one it needs. */
  const need = (right: HqRight) => (_req: Request, res: Response, next: NextFunction) => {
    if (!(res.locals.rights as string[]).includes(right)) throw errors.missingRight(right);
    next();
  };
  api.get('/auth', (_req, res) => {
    res.json({ userName: res.locals.userName, rights: res.locals.rights });
  });
  api.delete('/auth', async (_req, res) => {
    await deleteSession(pool, String(res.locals.tokenHash));
    res.status(204).end();
  });
  // One's own password: the current one first (a session left open is not enough), then the others end.
  api.post('/auth/password', async (req, res) => {
    const body = parseBody(passwordBody, req.body);
    const address = req.socket.remoteAddress ?? 'unknown';
    const userName = String(res.locals.userName);
    const attempt = throttle.attempt(userName, address);
    const user = await findUser(pool, userName);
    let ok: boolean;
    try {
      ok = await hashing.run(address, () => verifyPassword(body.currentPassword, user?.passwordHash));
    } catch (e) {
      attempt.withdrawn();
      throw e;
    }
    if (!ok) throw errors.member('currentPassword', 'hq.wrongCurrentPassword');
    attempt.succeeded();
    await setOwnPassword(pool, userName, await hashPassword(body.newPassword), String(res.locals.tokenHash));
    res.status(204).end();
  });
  api.get('/users', need('UserManage'), async (_req, res) => {
    const items = await listUsers(pool);
    res.json({ items, count: items.length, totalCount: items.length });
  });
  api.put('/users/:userName', need('UserManage'), async (req, res) => {
    const userName = String(req.params.userName);
    if (!USER_NAME.test(userName)) throw errors.member('userName', 'hq.userName', { value: userName.slice(0, 100) });
    const body = parseBody(userBody, req.body);
    const rights = [...new Set(body.rights)];
    const done = await putUser(pool, userName, { passwordHash: body.password ? await hashPassword(body.password) : undefined, rights }, KEEPER);
    if (done === 'needsPassword') throw errors.member('password', 'users.passwordRequired', {}, 'Required');
    if (done === 'lastKeeper') throw errors.forbidden('hq.lastUserManager', { right: KEEPER });
    res.status(done === 'created' ? 201 : 200).json({ userName, rights });
  });
  api.delete('/users/:userName', need('UserManage'), async (req, res) => {
    const userName = String(req.params.userName);
    const done = await deleteUser(pool, userName, KEEPER);
    if (done === 'unknown') throw errors.notFound('User', userName.slice(0, 100));
    if (done === 'lastKeeper') throw errors.forbidden('hq.lastUserManager', { right: KEEPER });
    res.status(204).end();
  });
  api.get('/deadletters', need('ReportRead'), async (req, res) => {
    res.json(await listDeadLetters(pool, req.query as Record<string, unknown>, deps.timeZone));
  });
  api.get('/stores', need('ReportRead'), async (req, res) => {
    res.json(await listStores(pool, req.query as Record<string, unknown>, deps.timeZone, deps.offlineAfterMs));
  });
  api.get('/tickets', need('ReportRead'), async (req, res) => {
    res.json(await listTickets(pool, req.query as Record<string, unknown>, deps.timeZone));
  });
  api.get('/reports/sales', need('ReportRead'), async (req, res) => {
    const q = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? String(v[v.length - 1]) : String(v)]));
    const date = (name: 'from' | 'to') => {
      if (q[name] === undefined) throw errors.member(name, 'hq.dateTimeRequired', {}, 'Required');
      const d = parseIsoDateTime(q[name], deps.timeZone);
      if (!d) throw errors.member(name, 'query.notDateTime', { value: q[name] });
      return d;
    };
    const groupBy = (q.groupby ?? 'store').toLowerCase();
    if (!['store', 'day', 'plu'].includes(groupBy)) throw errors.member('groupBy', 'hq.groupBy', { value: String(q.groupby) });
    res.json(await salesReport(pool, date('from'), date('to'), groupBy as GroupBy, deps.timeZone));
  });
  const catalog = async (req: Request, res: Response) => {
    const [, resourceRaw, ...rest] = req.path.split('/').slice(1);
    const resource = CATALOG_RESOURCES.find((r) => r === resourceRaw?.toLowerCase());
    if (!resource) throw errors.member('resource', 'member.notOneOf', { value: resourceRaw, values: CATALOG_RESOURCES.join(', ') });
    const key = catalogKey(resource, decodeURIComponent(rest.join('/')));
    const body = parseBody(catalogBody, req.body);
    const op = req.method === 'PUT' ? 'put' : 'delete';
    if (op === 'put' && !body.doc) throw errors.member('doc', 'member.required', {}, 'Required');
    const all = body.stores.length === 1 && body.stores[0] === '*';
    if (!all) body.stores.forEach((s, i) => {
      if (!STORE_ID.test(s)) throw errors.member(`stores[${i}]`, 'hq.notStoreId', { value: s });
    });
    const pushed = await pushCatalog(pool, { resource, key, op, doc: op === 'put' ? body.doc! : null, stores: all ? '*' : [...new Set(body.stores)], by: String(res.locals.userName) });
    if (pushed.unknown.length) throw errors.member('stores', pushed.unknown.length > 1 ? 'hq.unknownStores' : 'hq.unknownStore', { stores: pushed.unknown.join(', ') }, 'Unknown');
    deps.state.catalogPushed();
    res.status(202).json({ catalogVersion: pushed.changeId, stores: pushed.versions });
  };
  api.put(/^\/catalog\/.+/, need('CatalogPush'), catalog);
  api.delete(/^\/catalog\/.+/, need('CatalogPush'), catalog);
  api.use((req) => {
    throw errors.routeNotFound(req.originalUrl.split('?')[0]);
  });

  app.use('/hq/api', api);
  app.use(hqPage());
  app.get('/', (_req, res) => res.redirect('/hq/'));
  app.use((req) => {
    throw errors.routeNotFound(req.originalUrl.split('?')[0]);
  });
  app.use(problemHandler(log));
  return app;
}
