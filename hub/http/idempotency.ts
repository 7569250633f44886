/**
 * Idempotency-Key (CONTRACT §9, §11): a retried POST, PATCH, PUT, DELETE or RPC action with the same
 * key and the same request gets the stored response and does nothing again; the same key with another
 * request is 409 (errorCode 11). PUT and DELETE too (issue 29): a register working offline creates
 * and changes tickets with PUT under ids it makes itself, and a PUT retried after a lost reply would
 * otherwise meet its own write as a stale `_v` (409) instead of its answer. Keys are scoped to the user. 2xx and 4xx answers are stored, 5xx
 * are not (a retry tries again), nor are 423 and 429, which only ask to come back later. The answer is stored before it is sent, so a register that got it
 * and retries anyway (its Wi-Fi dropped the reply) finds it.
 */
import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Db } from '../../db/client.js';
import type { Clock } from '../core/clock.js';
import type { Caller } from './caller.js';
import { errors } from './errors.js';
import { findReply, pruneReplies, saveReply, type StoredReply } from './idempotency-store.js';

const KEY = /^[\x21-\x7e]{1,200}$/;
const RETENTION_MS = 48 * 3600_000;
const REPLAYED_HEADERS = ['content-type', 'location', 'etag'];
const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);


function fingerprint(req: Request): string {
  return createHash('sha256')
    .update(`${req.method} ${req.originalUrl}\n${req.body === undefined ? '' : JSON.stringify(req.body)}`)
    .digest('hex');
}

export function idempotency(deps: { db: Db; clock: Clock }): RequestHandler {
  const inFlight = new Map<string, Promise<void>>();
  let lastPrune = 0;

  const find = (userId: string, key: string) =>
    findReply(deps.db, userId, key);

  const replay = (res: Response, stored: StoredReply) => {
    const headers = JSON.parse(stored.headers) as Record<string, string>;
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    res.setHeader('Idempotent-Replayed', 'true');
    res.status(stored.status);
    if (stored.body === null) res.end();
    else res.send(stored.body);
  };

  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.headers['idempotency-key'];
    if (!WRITES.has(req.method) || key === undefined) return next();
    if (typeof key !== 'string' || !KEY.test(key)) throw errors.member('Idempotency-Key', 'header.idempotencyKey');
    const caller = res.locals.caller as Caller;
    const scope = `${caller.userId}\u0000${key}`;
    // A second copy of a request still running waits for the first, then gets its answer.
    while (inFlight.has(scope)) await inFlight.get(scope);
    const print = fingerprint(req);
    const stored = find(caller.userId, key);
    if (stored) {
      if (stored.fingerprint !== print) throw errors.idempotencyKeyReused();
      return replay(res, stored);
    }
    let done!: () => void;
    inFlight.set(scope, new Promise<void>((resolve) => (done = resolve)));
    res.on('close', () => {
      inFlight.delete(scope);
      done();
    });

    const send = res.send.bind(res);
    const end = res.end.bind(res);
    let saved = false;
    const save = (body: string | null) => {
      // 423 and 429 say "not now", not "no": storing them would refuse every retry for good.
      if (saved || res.statusCode >= 500 || res.statusCode === 423 || res.statusCode === 429) return;
      saved = true;
      const headers: Record<string, string> = {};
      for (const h of REPLAYED_HEADERS) {
        const v = res.getHeader(h);
        if (v !== undefined) headers[h] = String(v);
      }
      const now = deps.clock.now().getTime();
      saveReply(deps.db, caller.userId, key, { fingerprint: print, status: res.statusCode, headers: JSON.stringify(headers), body }, now);
      if (now - lastPrune > 3600_000) {
        lastPrune = now;
        pruneReplies(deps.db, now - RETENTION_MS);
      }
    };
    res.send = (body?: unknown) => {
      save(body === undefined ? null : Buffer.isBuffer(body) ? body.toString('utf8') : String(body));
      return send(body);
    };
    res.end = ((...args: unknown[]) => {
      save(null);
      return (end as (...a: unknown[]) => Response)(...args);
    }) as Response['end'];
    next();
  };
}
