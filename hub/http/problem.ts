import { isLanguage, t, type Language } from '../i18n/index.js';
import { say } from '../i18n/say.js';
import { requestLanguage } from './language.js';
import { randomUUID } from 'node:crypto';
import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { HubError, errors, membersText, saidError, type MemberError } from './errors.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Every response carries X-Request-Id; a sane incoming one is kept so a register can correlate. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
}

/** One line per request with status and duration; no bodies, no headers, so no secrets. */
export function requestLog(log: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    // Taken now: a router that answers strips its mount path from req.path (`/api/users` → `/users`).
    const path = req.path;
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info(
        { reqId: res.locals.requestId, method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
        'request',
      );
    });
    next();
  };
}

/** The shop's language (POS_HUB_LOCALE), which app.ts keeps in the app's locals. */
export function shopLanguageOf(req: Request): Language {
  const lang: unknown = req.app?.locals?.shopLanguage;
  return isLanguage(lang) ? lang : 'en';
}

/** A member as the answer lists it: its message in `lang`. */
function memberIn(lang: Language, m: MemberError): Omit<MemberError, 'said'> {
  return { memberName: m.memberName, message: m.said ? say(lang, m.said) : m.message, code: m.code };
}

/**
 * The request's path and query as a problem's `instance`, without a token passed in the query (an
 * EventSource's `access_token`): a problem body is shown, logged and kept by clients, a token never.
 */
export function instanceOf(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const kept = url
    .slice(at + 1)
    .split('&')
    .filter((part) => !/^access_token(=|$)/i.test(part));
  return kept.length ? `${url.slice(0, at)}?${kept.join('&')}` : url.slice(0, at);
}

/** The problem+json text of an error (CONTRACT §2). */
export function problemBody(req: Request, res: Response, err: HubError): string {
  const traceId = String(res.locals.requestId ?? '');
  const lang = requestLanguage(req, res, shopLanguageOf(req));
  const members = err.errors?.map((m) => memberIn(lang, m)) ?? [];
  const body: Record<string, unknown> = {
    type: `https://poshub.local/problems/${err.status}-${err.errorCode}`,
    title: err.title,
    status: err.status,
    // In the caller's language where the detail is a catalog message (else as written, in English).
    detail: err.said ? t(lang, err.said.key, { ...err.said.params, members: membersText(members) }) : err.message,
    instance: instanceOf(req.originalUrl),
    traceId,
    errorCode: err.errorCode,
  };
  if (members.length) body.errors = members;
  if (err.resource) body.resource = err.resource;
  return JSON.stringify(body);
}

export function sendProblem(req: Request, res: Response, err: HubError): void {
  for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
  res.status(err.status).type('application/problem+json').send(problemBody(req, res, err));
}

/** Registered last. HubErrors become problem+json; anything else is logged and answered as a bare 500. */
export function problemHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof HubError) {
      if (err.clientAborted) log.info({ reqId: res.locals.requestId, method: req.method, path: req.path }, 'client aborted its request');
      sendProblem(req, res, err);
      return;
    }
    // body-parser style errors that other middleware may raise (e.g. static file serving)
    const status = (err as { status?: number })?.status;
    if (status === 413) return sendProblem(req, res, errors.payloadTooLarge('1 MiB'));
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Another library's message is English only; without one, the catalog's.
      const message = (err as Error).message;
      return sendProblem(req, res, message ? new HubError(status, 3, message) : saidError(status, 3, 'error.badRequest'));
    }
    log.error({ err, reqId: res.locals.requestId }, 'unexpected error');
    sendProblem(req, res, saidError(500, 0, 'error.unexpected'));
  };
}
