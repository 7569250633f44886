import type { Request, RequestHandler, Response } from 'express';
import type { Caller } from './caller.js';
import { z } from 'zod';
import { catalogIssue, errors } from './errors.js';

/** The caller the auth middleware attached; routes behind it always have one. */
export function callerOf(res: Response): Caller {
  const caller = res.locals.caller as Caller | undefined;
  if (!caller) throw errors.unauthenticated();
  return caller;
}

const VERSION_TAG = /^\s*(?:W\/)?"?(\d+)"?\s*$/;
/** What an If-Match may hold, for the OpenAPI document: a version as VERSION_TAG reads it, or `*`. */
export const IF_MATCH_PATTERN = '^\\s*(\\*|(W/)?"?[0-9]+"?)\\s*$';

/**
 * `If-Match: "3"` → 3 (weak or strong, quoted or not); `*` → '*' (any version, but the record must
 * exist: RFC 9110 §13.1.1); absent → undefined.
 */
export function ifMatch(req: Request): number | '*' | undefined {
  const raw = req.headers['if-match'];
  if (raw === undefined) return undefined;
  if (String(raw).trim() === '*') return '*';
  const m = VERSION_TAG.exec(String(raw));
  if (!m) throw errors.member('If-Match', 'header.notVersion', { value: raw });
  return Number(m[1]);
}

/** The same as a declared header reads it (api-docs.ts ifMatchHeader). */
export const ifMatchVersion = z.string().transform((raw, ctx): number | undefined => {
  if (raw === '*') return undefined;
  const m = VERSION_TAG.exec(raw);
  if (m) return Number(m[1]);
  catalogIssue(ctx, 'header.notVersion', { value: raw });
  return z.NEVER;
});

/** Answers 405 with a problem body for the methods a path does not offer. */
export function methodNotAllowed(allow: string[]): RequestHandler {
  return (req) => {
    throw errors.methodNotAllowed(req.method, req.originalUrl.split('?')[0], allow);
  };
}
