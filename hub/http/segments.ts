/**
 * Routers that answer only under their own first path segments. Express otherwise walks every
 * route of every router mounted on /api for each request (about a hundred path matches before a
 * ticket list is reached); this sends a request straight past the routers that cannot match it.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** `/tickets/t1/close` → `tickets` (lowercase: express routes match case-insensitively). */
export function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

export function under(segments: string[], router: RequestHandler): RequestHandler {
  const own = new Set(segments.map((s) => firstSegment(`/${s}`)));
  return (req: Request, res: Response, next: NextFunction) => (own.has(firstSegment(req.path)) ? router(req, res, next) : next());
}
