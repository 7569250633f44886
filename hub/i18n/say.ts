/**
 * A message kept as what to say, not yet said: a catalog key with its params, or a zod issue.
 * Services throw errors without knowing who asked; the answer is written in the caller's language
 * (hub/http/problem.ts), and logs keep the English.
 */
import type { z } from 'zod';
import { cs, sk } from 'zod/locales';
import { MESSAGES, type MessageKey } from './messages.js';
import { t, type Language, type Params } from './index.js';

export type Said = { key: MessageKey; params?: Params } | { issue: z.core.$ZodIssue };

/** zod's own texts for its issues in our other languages (zod 4 ships Slovak and Czech; English is what it wrote). */
const ZOD_LOCALES = { sk: sk(), cs: cs() };

function zodSays(lang: 'sk' | 'cs', issue: z.core.$ZodIssue): string | undefined {
  // A locale meets the issue after parsing, not as zod calls it; should one trip over an issue's
  // shape, the answer keeps zod's English rather than becoming a 500.
  try {
    const said = ZOD_LOCALES[lang].localeError(issue as never);
    return typeof said === 'string' ? said : said?.message;
  } catch {
    return undefined;
  }
}

/**
 * The `field.*` keys by their English: a schema's own message (a refine, a regex, a bound) is the
 * English text of such a key (fields.ts `fieldMessage`), so logs and other readers of the issue
 * still read English, and the answer finds the key again here.
 */
const FIELD_KEYS = new Map(
  Object.entries(MESSAGES)
    .filter(([key]) => key.startsWith('field.'))
    .map(([key, entry]) => [entry.en, key as MessageKey]),
);

/** A custom issue's catalog message, as `ctx.addIssue({ code: 'custom', ...customIssue(key, params) })` puts it. */
export function customIssue(key: MessageKey, params: Params = {}): { message: string; params: { said: Said } } {
  return { message: t('en', key, params), params: { said: { key, params } } };
}

function sayIssue(lang: Language, issue: z.core.$ZodIssue): string {
  const own = (issue as { params?: { said?: Said } }).params?.said;
  if (own) return say(lang, own);
  const field = FIELD_KEYS.get(issue.message as never);
  if (field) return t(lang, field);
  // The English is the issue's own message, as zod wrote it at parse time (the contract's wording).
  if (lang === 'en') return issue.message;
  return zodSays(lang, issue) ?? issue.message;
}

/** What `said` says in `lang`. */
export function say(lang: Language, said: Said): string {
  return 'issue' in said ? sayIssue(lang, said.issue) : t(lang, said.key, said.params);
}

export type FieldKey = Extract<MessageKey, `field.${string}`>;

/** A schema's own message for a refine, regex or bound: the key's English, found again at answer time. */
export function fieldMessage(key: FieldKey): string {
  return t('en', key);
}
