/**
 * API answers are not to be kept by a browser or a proxy (RFC 9111 §5.2.2.5): they carry tokens
 * (a login's and a refresh's answer, RFC 6749 §5.1), customers and money, and they change with the
 * next write. Routes that may be cached say so themselves afterwards (the API docs' assets; the
 * event stream's no-cache).
 */
import type { NextFunction, Request, Response } from 'express';

export function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  next();
}
