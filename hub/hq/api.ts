/**
 * HQ's HTTP API under /hq/api (CONTRACT §13) and its page at /hq/. The routes are declared in
 * routes.ts and mounted here as the hub mounts its own (hub/http/route.ts); errors are problem+json
 * as on the hub (the same middleware); lists follow §4.
 */
import { randomBytes } from 'node:crypto';
import express, { Router, type Express, type NextFunction, type Request, type Response } from 'express';
import { readJsonBody } from '../http/body.js';
import { rejectBrokenPathText, rejectBrokenQueryText } from '../http/text.js';
import { errors } from '../http/errors.js';
import { problemHandler, requestId, requestLog } from '../http/problem.js';
import { mount } from '../http/route.js';
import type { Logger } from '../core/log.js';
import type { Pool } from './db.js';
import { createUserOnce, sessionUser } from './repo.js';
import { hqPage } from './page.js';
import { hashPassword } from '../core/passwords.js';
import { LoginThrottle } from '../http/throttle.js';
import { HashGate } from '../http/hash-gate.js';
import { systemClock } from '../core/clock.js';
import { HQ_RIGHTS, hqRoutes, tokenHash, type HqState } from './routes.js';
import { hqDocumentJson } from './document.js';
import { noStore } from '../http/no-store.js';

export { HQ_RIGHTS, type HqRight, type HqState } from './routes.js';

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

/**
 * HQ's session for a route that needs one: the bearer token's user, attached to res.locals, holding
 * every right the route declares (CONTRACT §12: reading is a right too).
 */
async function hqSession(pool: Pool, req: Request, res: Response, rights: readonly string[] = []): Promise<void> {
  const header = req.headers.authorization ?? '';
  const token = header.replace(/^Bearer\s+/i, '').trim();
  const user = token ? await sessionUser(pool, tokenHash(token)) : undefined;
  if (!user) throw errors.unauthenticated();
  res.locals.userName = user.userName;
  res.locals.rights = user.rights;
  res.locals.tokenHash = tokenHash(token);
  for (const right of rights) if (!user.rights.includes(right)) throw errors.missingRight(right);
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
  api.use(noStore);
  // As on the hub (CONTRACT §12): a NUL, a lone surrogate or a broken percent-escape in the query or
  // the path is a 400 naming the parameter, never text handed on to PostgreSQL (which refuses a NUL: a 500).
  api.use(rejectBrokenQueryText);
  let templates: string[] | undefined;
  // A plu's key holds a slash (`Bar/1`): both its segments are the key's.
  api.use(rejectBrokenPathText(() => (templates ??= [...Object.keys((JSON.parse(hqDocumentJson()) as { paths: object }).paths), '/hq/api/catalog/{resource}/{key}/{key}'])));
  api.use(readJsonBody);
  api.use(
    mount(
      hqRoutes,
      { pool, timeZone: deps.timeZone, offlineAfterMs: deps.offlineAfterMs, state: deps.state, throttle: new LoginThrottle(systemClock), hashing: new HashGate(), document: hqDocumentJson },
      { base: '/hq/api', authenticate: (req, res, spec) => hqSession(pool, req, res, spec.rights), timeZone: deps.timeZone },
    ),
  );
  // Nothing else lives here: a path no route declares is answered 401 without a session, as every
  // route that needs one, and 404 with one.
  api.use(async (req: Request, res: Response, next: NextFunction) => {
    await hqSession(pool, req, res);
    next();
  });
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
