/**
 * Broken text (CONTRACT §12): a string holding a lone UTF-16 surrogate or a NUL — in a body, a key
 * or a query — is a 400 naming where, before anything is read or stored. Such a string cannot be
 * encoded into a URL, a header or UTF-8 JSON, so once stored it made a record nobody could read,
 * change or delete, and kept /api/health degraded for good.
 */
import type { NextFunction, Request, Response } from 'express';
import type { MessageKey } from '../i18n/index.js';
import { errors } from './errors.js';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with a broken string, said of a value, of a key and of a query. */
const BROKEN = {
  nul: { value: 'text.nul', key: 'text.keyNul', query: 'query.nul' },
  surrogate: { value: 'text.surrogate', key: 'text.keySurrogate', query: 'query.surrogate' },
} as const satisfies Record<string, Record<'value' | 'key' | 'query', MessageKey>>;

/**
 * The first `max` UTF-16 units of `text`, less a character cut in two: an emoji whose second half
 * fell off is a lone surrogate, text the store refuses (CONTRACT §12 "Text") and PostgreSQL too.
 */
export function cutText(text: string, max: number): string {
  return text.slice(0, max).replace(/[\ud800-\udbff]$/, '');
}

/** Why `s` is not text the hub keeps, or null when it is. */
export function brokenText(s: string): keyof typeof BROKEN | null {
  if (s.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(s)) return 'surrogate';
  return null;
}

/** The first broken string (value or key) in a parsed JSON value, with its member path. */
export function findBrokenText(value: unknown, path: string): { path: string; key: MessageKey } | null {
  if (typeof value === 'string') {
    const why = brokenText(value);
    return why ? { path, key: BROKEN[why].value } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = findBrokenText(value[i], `${path}[${i}]`);
      if (p) return p;
    }
    return null;
  }
  for (const [key, child] of Object.entries(value)) {
    const why = brokenText(key);
    const at = path ? `${path}.${key}` : key;
    if (why) return { path: path || '$body', key: BROKEN[why].key };
    const p = findBrokenText(child, at);
    if (p) return p;
  }
  return null;
}

/**
 * The query's names and values: decodable, and no broken text. (Keys in the path meet their
 * resource's key rules instead, which name the key field; percent-decoding cannot make a lone surrogate.)
 */
export function rejectBrokenQueryText(req: Request, _res: Response, next: NextFunction): void {
  const at = req.originalUrl.indexOf('?');
  const query = at >= 0 ? req.originalUrl.slice(at + 1) : '';
  for (const pair of query.split('&')) {
    if (!pair) continue;
    const [rawName, ...rest] = pair.split('=');
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      value = decodeURIComponent(rest.join('=').replace(/\+/g, ' '));
    } catch {
      throw errors.member(rawName || '$query', 'query.notUtf8', { pair });
    }
    const why = brokenText(name) ?? brokenText(value);
    if (why) throw errors.member(brokenText(name) || !name ? '$query' : name, BROKEN[why].query);
  }
  next();
}

/**
 * The path's segments: decodable, and no NUL. Express decodes a route's parameters itself and, on a
 * segment that is not percent-encoded UTF-8 (`%`, `%zz`, `%ED%A0%80`), answered 400 naming nothing;
 * here the 400 names the parameter, found among the documented path templates (`templates`, asked
 * only when a segment is broken), else `$path`.
 */
export function rejectBrokenPathText(templates: () => readonly string[]) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const segments = req.path.split('/');
    for (let i = 0; i < segments.length; i++) {
      let text: string;
      try {
        text = decodeURIComponent(segments[i]);
      } catch {
        throw errors.member(pathParamAt(templates(), `${req.baseUrl}${req.path}`, i, req.baseUrl), 'path.notUtf8', { segment: segments[i] });
      }
      if (brokenText(text)) throw errors.member(pathParamAt(templates(), `${req.baseUrl}${req.path}`, i, req.baseUrl), BROKEN.nul.key);
    }
    next();
  };
}

/** The name of the parameter at segment `index` (of the path below `base`) in the template `path` matches, else `$path`. */
function pathParamAt(templates: readonly string[], path: string, index: number, base: string): string {
  const segments = path.split('/');
  const offset = base.split('/').length - 1;
  for (const template of templates) {
    const t = template.split('/');
    if (t.length !== segments.length) continue;
    if (t.every((part, i) => /^\{[^}]+\}$/.test(part) || part.toLowerCase() === segments[i].toLowerCase())) {
      const part = t[index + offset];
      const m = part && /^\{([^}]+)\}$/.exec(part);
      if (m) return m[1];
    }
  }
  return '$path';
}
