import type { NextFunction, Request, Response } from 'express';
import { errors, memberError } from './errors.js';
import { findBrokenText } from './text.js';
import type { MessageKey, Params } from '../i18n/index.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Deeper JSON than this is refused: nothing in the API nests that deep, and deep trees cost stack. */
export const MAX_JSON_DEPTH = 32;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Refuses bytes that are not UTF-8 instead of replacing them; a leading BOM stays in the text (JSON.parse refuses it, as before). */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads the request body ourselves instead of express.json(), so every failure gets the status
 * CONTRACT §1/§11 names: 413 over 1 MiB, 415 for a non-empty body that is not JSON, 400 for
 * malformed JSON. An absent body leaves req.body undefined; the handler that needs one says 400.
 */
export function readJsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') {
    req.body = undefined;
    next();
    return;
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > BODY_LIMIT_BYTES) {
    req.resume();
    next(errors.payloadTooLarge('1 MiB'));
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let failed = false;
  req.on('data', (chunk: Buffer) => {
    if (failed) return;
    size += chunk.length;
    if (size > BODY_LIMIT_BYTES) {
      failed = true;
      next(errors.payloadTooLarge('1 MiB'));
      return;
    }
    chunks.push(chunk);
  });
  req.on('error', (err) => {
    if (!failed) {
      failed = true;
      // The client went away mid-upload: nobody to answer, and not the hub's fault (no 500 in the log).
      next(req.aborted || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? errors.clientAborted() : err);
    }
  });
  req.on('end', () => {
    if (failed) return;
    // The hub reads bodies as sent: a compressed one (gzip, br, ...) is not JSON it can read (RFC 9110 §15.5.16).
    const encoding = String(req.headers['content-encoding'] ?? '').trim().toLowerCase();
    if (size > 0 && encoding !== '' && encoding !== 'identity') {
      next(errors.unsupportedEncoding(encoding));
      return;
    }
    let raw: string;
    try {
      raw = STRICT_UTF8.decode(Buffer.concat(chunks));
    } catch {
      // JSON is UTF-8 (RFC 8259 §8.1): bytes that are not would be stored as U+FFFD, changed behind the sender's back.
      next(errors.validation('body.malformedJson', { reason: 'the body is not UTF-8' }, [memberError('$body', 'body.malformed')]));
      return;
    }
    if (raw.trim() === '') {
      req.body = undefined;
      next();
      return;
    }
    const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json' && !type.endsWith('+json')) {
      next(errors.unsupportedMediaType(type));
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (e) {
      next(errors.validation('body.malformedJson', { reason: (e as Error).message }, [memberError('$body', 'body.malformed')]));
      return;
    }
    const problem = jsonDocumentProblem(parsed);
    if (problem) {
      next(errors.member(problem.path || '$body', problem.key, problem.params));
      return;
    }
    req.body = parsed;
    next();
  });
}

/**
 * What is wrong with a parsed JSON document the hub is handed (a request body, a message from
 * another system), or null: a prototype-polluting key, absurd nesting, broken text.
 */
export function jsonDocumentProblem(value: unknown): { path: string; key: MessageKey; params?: Params } | null {
  return checkShape(value, '', 0) ?? findBrokenText(value, '');
}

/** Refuses prototype-polluting keys and absurd nesting anywhere in the document. */
function checkShape(value: unknown, path: string, depth: number): { path: string; key: MessageKey; params?: Params } | null {
  if (value === null || typeof value !== 'object') return null;
  if (depth > MAX_JSON_DEPTH) return { path, key: 'body.tooDeep', params: { max: MAX_JSON_DEPTH } };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = checkShape(value[i], `${path}[${i}]`, depth + 1);
      if (p) return p;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    const child = path ? `${path}.${key}` : key;
    if (FORBIDDEN_KEYS.has(key)) return { path: child, key: 'body.forbiddenKey', params: { key } };
    const p = checkShape((value as Record<string, unknown>)[key], child, depth + 1);
    if (p) return p;
  }
  return null;
}

/** The body of a request that must have one; an empty or non-object body is 400. */
export function requireObjectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) throw errors.member('$body', 'body.required', {}, 'Required');
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw errors.member('$body', 'body.notObject');
  }
  return body as Record<string, unknown>;
}
