import type { Request, RequestHandler, Response } from 'express';
import type { Caller } from './caller.js';
import { errors } from './errors.js';

/** The caller the auth middleware attached; routes behind it always have one. */
export function callerOf(res: Response): Caller {
  const caller = res.locals.caller as Caller | undefined;
  if (!caller) throw errors.unauthenticated();
  return caller;
}

/** `If-Match: "3"` → 3 (weak or strong, quoted or not); absent → undefined. */
export function ifMatch(req: Request): number | undefined {
  const raw = req.headers['if-match'];
  if (raw === undefined || raw === '*') return undefined;
  const m = /^\s*(?:W\/)?"?(\d+)"?\s*$/.exec(String(raw));
  if (!m) throw errors.member('If-Match', 'header.notVersion', { value: raw });
  return Number(m[1]);
}

/** Answers 405 with a problem body for the methods a path does not offer. */
export function methodNotAllowed(allow: string[]): RequestHandler {
  return (req) => {
    throw errors.methodNotAllowed(req.method, req.originalUrl.split('?')[0], allow);
  };
}
