/**
 * The pages' languages (issue 21): Slovak, Czech and English. Which one: the logged-in user's own
 * (`user.language` in the session), else the shop's, which the hub writes into the page as
 * `<html lang>` (POS_HUB_LOCALE), so the login screen already speaks it.
 *
 * Texts live beside the code that shows them, one catalog per module:
 *   const t = messages({ save: { en: 'Save', sk: 'Uložiť', cs: 'Uložit' }, rows: { en: '{n} rows', sk: 'Riadky: {n}', cs: 'Řádky: {n}' } });
 *   t('save'); t('rows', { n: 3 });
 * Every entry has English, Slovak and Czech (a missing one is a compile error).
 * Numbers, money and dates go through Intl in the same language (format.ts), and inputs take
 * "1,80" as well as "1.80" (parseDecimal). No library: Intl does the formatting, and a catalog is
 * a typed object; nothing here needed plural rules beyond what `plural()` gives.
 */
import { useEffect, useState } from 'preact/hooks';

export const LANGUAGES = ['en', 'sk', 'cs'] as const;
export type Language = (typeof LANGUAGES)[number];

export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', sk: 'Slovenčina', cs: 'Čeština' };

export interface Entry {
  en: string;
  sk: string;
  cs: string;
}

const isLanguage = (v: unknown): v is Language => typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);

/** The shop's language, as the hub served the page. */
export function shopLanguage(): Language {
  const lang = typeof document !== 'undefined' ? document.documentElement.lang : 'en';
  return isLanguage(lang) ? lang : 'en';
}

let current: Language = shopLanguage();
const listeners = new Set<() => void>();

export function language(): Language {
  return current;
}

/** Switches the page to `lang` (null: the shop's); every `useLanguage()` caller renders again. */
export function setLanguage(lang: Language | null | undefined): void {
  const next = lang && isLanguage(lang) ? lang : shopLanguage();
  if (next === current) return;
  current = next;
  if (typeof document !== 'undefined') document.documentElement.lang = next;
  for (const listener of listeners) listener();
}

const CHOSEN = 'poshub.language';

/** The language this browser was switched to by hand (the picker), if any: it wins over the user's. */
export function chosenLanguage(): Language | null {
  try {
    const v = typeof localStorage !== 'undefined' ? localStorage.getItem(CHOSEN) : null;
    return isLanguage(v) ? v : null;
  } catch {
    return null;
  }
}

/** Switches this browser to `lang` for good (null: back to the user's or the shop's, `fallback`). */
export function chooseLanguage(lang: Language | null, fallback: Language | null = null): void {
  try {
    if (lang) localStorage.setItem(CHOSEN, lang);
    else localStorage.removeItem(CHOSEN);
  } catch {
    /* private mode: the choice lasts until the page is reloaded */
  }
  setLanguage(lang ?? fallback);
}

/** The current language, re-rendering the component when it changes (used at the root of each page). */
export function useLanguage(): Language {
  const [lang, set] = useState(current);
  useEffect(() => {
    const listener = () => set(current);
    listeners.add(listener);
    listener();
    return () => void listeners.delete(listener);
  }, []);
  return lang;
}

export type Params = Record<string, string | number>;

function fill(template: string, params?: Params): string {
  return params ? template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole)) : template;
}

/** An entry in the current language. */
export function pick(entry: Entry, params?: Params): string {
  return fill(entry[current], params);
}

/** A module's catalog as a function: `t(key, params)` in the current language. */
export function messages<K extends string>(catalog: Record<K, Entry>): (key: K, params?: Params) => string {
  return (key, params) => pick(catalog[key], params);
}

/** The form of a count in the current language: Slovak and Czech say 1 položka, 2–4 položky, 5 položiek. */
export function plural(n: number, forms: { one: Entry; few?: Entry; other: Entry }): string {
  const rule = new Intl.PluralRules(current).select(n);
  const entry = rule === 'one' ? forms.one : rule === 'few' && forms.few ? forms.few : forms.other;
  return pick(entry, { n });
}

/** The Intl locale of a language (English as in Europe: 24-hour clock, day before month). */
export function intlLocale(lang: Language = current): string {
  return lang === 'en' ? 'en-GB' : lang;
}

/**
 * A decimal typed by a person: "1,80", "1.80", "1 234,50", "-2". NaN when it is not a number.
 * A comma is the decimal sign unless a point comes after it ("1,234.50" in English).
 */
export function parseDecimal(input: string): number {
  let s = input.trim().replace(/[\s\u00a0\u202f']/g, '');
  if (!s) return Number.NaN;
  const comma = s.lastIndexOf(',');
  const point = s.lastIndexOf('.');
  if (comma > point) s = s.replace(/\./g, '').replace(',', '.');
  else if (point > comma) s = s.replace(/,/g, '');
  return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(s) ? Number(s) : Number.NaN;
}
