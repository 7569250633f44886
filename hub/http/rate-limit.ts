/**
 * Per-address rate limiting (issue 9): a token bucket per client address. The default lets a
 * register burst and a busy store never notice (50 registers at a few requests a second each are
 * far below it), while a runaway loop on one client gets 429 with Retry-After instead of starving
 * the others. Loopback is not exempt: the manager's page may run on the hub itself.
 */
import type { NextFunction, Request, Response } from 'express';
import type { Clock } from '../core/clock.js';
import { errors } from './errors.js';

interface Bucket {
  tokens: number;
  at: number;
}

export function rateLimit(opts: { perSecond: number; burst: number; clock: Clock }) {
  const buckets = new Map<string, Bucket>();
  let lastSweep = 0;
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (opts.perSecond <= 0) return next();
    const now = opts.clock.now().getTime();
    const address = req.socket.remoteAddress ?? 'unknown';
    const b = buckets.get(address) ?? { tokens: opts.burst, at: now };
    b.tokens = Math.min(opts.burst, b.tokens + ((now - b.at) / 1000) * opts.perSecond);
    b.at = now;
    buckets.set(address, b);
    if (now - lastSweep > 60_000) {
      lastSweep = now;
      // Full buckets carry no information; forgetting them bounds the map by the active clients.
      for (const [k, v] of buckets) if (v.tokens + ((now - v.at) / 1000) * opts.perSecond >= opts.burst) buckets.delete(k);
    }
    if (b.tokens < 1) {
      next(errors.tooManyRequests((1 - b.tokens) / opts.perSecond, 'tooMany.requests', { perSecond: opts.perSecond, address }));
      return;
    }
    b.tokens -= 1;
    next();
  };
}
