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

/**
 * One layer for many routers, each answering under its own first path segments (issue 31): a
 * request goes to the routers of its segment alone, in the order they were added, then on. Express
 * visits every layer of a router in turn (a path match and a call each, 1–3 µs apiece measured by
 * scripts/bench-middleware.ts), so thirty `under()` layers cost a write some 40 µs before its handler.
 */
export class SegmentRouter {
  private readonly bySegment = new Map<string, RequestHandler[]>();

  add(segments: string[], router: RequestHandler): this {
    for (const s of segments) {
      const segment = firstSegment(`/${s}`);
      const list = this.bySegment.get(segment);
      if (list) list.push(router);
      else this.bySegment.set(segment, [router]);
    }
    return this;
  }

  /** The layer: the routers of the request's segment in turn; past the last (or on an error), `next`. */
  handler(): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      const routers = this.bySegment.get(firstSegment(req.path));
      if (!routers) return next();
      let i = 0;
      const step = (err?: unknown) => {
        if (err !== undefined && err !== 'route' && err !== 'router') return next(err);
        const router = routers[i++];
        if (!router) return next();
        router(req, res, step);
      };
      step();
    };
  }
}
