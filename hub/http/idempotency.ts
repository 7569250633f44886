/**
 * Idempotency-Key (CONTRACT §9, §11): a retried write — POST, PATCH, an RPC action, and (issue 29)
 * PUT and DELETE — with the same key and the same request gets the stored response and does nothing
 * again. PUT and DELETE are in for a register working through a queue of offline changes: a PUT
 * carrying `_v` whose answer the Wi-Fi dropped, sent again, would otherwise be refused as a conflict
 * (409) with its own earlier write, and a DELETE sent again would answer 404; the same key with another
 * request is 409 (errorCode 11). Keys are scoped to the user. 2xx and 4xx answers are stored, 5xx
 * are not (a retry tries again), nor are 423 and 429, which only ask to come back later. The answer is stored before it is sent, so a register that got it
 * and retries anyway (its Wi-Fi dropped the reply) finds it.
 */
import { createHash, createHmac } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Db } from '../../db/client.js';
import type { Clock } from '../core/clock.js';
import type { Caller } from './caller.js';
import { errors } from './errors.js';
import { findReply, pruneReplies, saveReply, type StoredReply } from './idempotency-store.js';

const KEY = /^[\x21-\x7e]{1,200}$/;
const RETENTION_MS = 48 * 3600_000;
const REPLAYED_HEADERS = ['content-type', 'location', 'etag'];
/** Every method that changes something. */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);


/**
 * A JSON value with every object's members in name order: the order of members carries no meaning
 * in JSON (RFC 8259), so a retry whose client wrote them in another order (a register that queued
 * the write, restarted and serialised it again) is still the same request.
 */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v)]));
}

/**
 * What makes two requests the same one: method, URL, body and the `If-Match` they are conditional on
 * (a PUT expecting version 2 is not the PUT that expected version 1). `legacy`: as keys were
 * fingerprinted before (the body in the order it came, no If-Match), for keys stored across an upgrade.
 */
function fingerprint(req: Request, key: Buffer | undefined, legacy = false): string {
  const body = req.body === undefined ? '' : JSON.stringify(legacy ? req.body : canonical(req.body));
  const condition = req.headers['if-match'];
  // Keyed (HMAC): a body may carry a secret (an SMTP password, a terminal's PIN), and the stored
  // fingerprints go into backups; an unkeyed hash of an otherwise known body lets whoever holds a
  // backup test guesses at that secret offline. The key stays in the data directory, as the backup key.
  return (legacy || !key ? createHash('sha256') : createHmac('sha256', key))
    .update(`${req.method} ${req.originalUrl}\n${body}${legacy || condition === undefined ? '' : `\nIf-Match: ${String(condition)}`}`)
    .digest('hex');
}

/**
 * A stored problem as this answer's: its `traceId` is this request's X-Request-Id (CONTRACT §11:
 * an error's traceId equals the response's X-Request-Id), not the first request's.
 */
function withTraceId(body: string, requestId: unknown): string {
  try {
    return JSON.stringify({ ...(JSON.parse(body) as object), traceId: String(requestId) });
  } catch {
    return body;
  }
}

/** `fingerprintKey`: what keys the request fingerprints (hub/backups/seal.ts `fingerprintKey`); unkeyed without one (tests of the middleware alone). */
export function idempotency(deps: { db: Db; clock: Clock; fingerprintKey?: Buffer }): RequestHandler {
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
    else res.send(headers['content-type']?.startsWith('application/problem+json') ? withTraceId(stored.body, res.getHeader('X-Request-Id')) : stored.body);
  };

  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.headers['idempotency-key'];
    if (!WRITES.has(req.method) || key === undefined) return next();
    if (typeof key !== 'string' || !KEY.test(key)) throw errors.member('Idempotency-Key', 'header.idempotencyKey');
    const caller = res.locals.caller as Caller;
    const scope = `${caller.userId}\u0000${key}`;
    // A second copy of a request still running waits for the first, then gets its answer.
    while (inFlight.has(scope)) await inFlight.get(scope);
    const print = fingerprint(req, deps.fingerprintKey);
    const stored = find(caller.userId, key);
    if (stored) {
      if (stored.fingerprint !== print && stored.fingerprint !== fingerprint(req, undefined, true)) throw errors.idempotencyKeyReused();
      return replay(res, stored);
    }
    // Released once this copy has its answer (stored, unless a 5xx), not when its client goes away:
    // a register whose Wi-Fi dropped mid-request retries on a new connection while the first copy
    // still runs (a fiscal report, a print), and that retry must wait for it, not run it again.
    let done!: () => void;
    const running = new Promise<void>((resolve) => (done = resolve));
    inFlight.set(scope, running);
    const release = () => {
      if (inFlight.get(scope) === running) inFlight.delete(scope);
      done();
    };

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
      try {
        save(body === undefined ? null : Buffer.isBuffer(body) ? body.toString('utf8') : String(body));
      } finally {
        release();
      }
      return send(body);
    };
    res.end = ((...args: unknown[]) => {
      try {
        save(null);
      } finally {
        release();
      }
      return (end as (...a: unknown[]) => Response)(...args);
    }) as Response['end'];
    next();
  };
}
