/**
 * No answer before its data is on disk (CONTRACT §12 "Durability"): every response — a write's 2xx,
 * and a read too, which may show a change another request committed a moment ago — is held until the
 * changes committed so far are fsynced (db/durability.ts). When nothing is waiting for a sync, the
 * answer goes out at once; under a burst of writes, one fsync releases the answers of all of them.
 *
 * Should the sync fail, the answer that was about to say "done" becomes a 500 instead (the hub then
 * stops: see main.ts), so a register never hears "saved" for a change the disk may not hold.
 */
import type { NextFunction, Request, Response } from 'express';
import { isDurable, whenDurable, type Db } from '../../db/client.js';
import { errors } from './errors.js';
import { problemBody } from './problem.js';

export function answersWhenDurable(db: Db) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const end = res.end as (...args: unknown[]) => Response;
    res.end = function (this: Response, ...args: unknown[]) {
      if (isDurable(db)) return end.apply(this, args);
      whenDurable(db).then(
        () => end.apply(this, args),
        () => {
          if (this.headersSent) {
            this.destroy();
            return;
          }
          const problem = errors.storageFailed();
          const body = problemBody(req, res, problem);
          this.statusCode = problem.status;
          this.removeHeader('Content-Length');
          this.removeHeader('ETag');
          this.removeHeader('Location');
          this.setHeader('Content-Type', 'application/problem+json; charset=utf-8');
          end.call(this, body);
        },
      );
      return this;
    } as Response['end'];
    next();
  };
}
