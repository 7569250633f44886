/**
 * The language of a request's answer (issue 21): the user's own `language`, else the best of the
 * request's Accept-Language, else the shop's POS_HUB_LOCALE.
 */
import type { Request, Response } from 'express';
import { fromAcceptLanguage, isLanguage, type Language } from '../i18n/index.js';

export function requestLanguage(req: Request, res: Response, shopDefault: Language): Language {
  const own = (res.locals.caller as { language?: unknown } | undefined)?.language;
  if (isLanguage(own)) return own;
  return fromAcceptLanguage(req.headers['accept-language']) ?? shopDefault;
}
