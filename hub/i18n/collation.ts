/**
 * Sort keys in the shop's collation (issue 21): a string whose plain binary order (SQLite's BINARY,
 * UTF-8 byte order, i.e. code point order) is the language's alphabetical order — Č after C, Š after S,
 * "ch" after "h" in Slovak and Czech, Ľ beside L — with numbers in their natural order ("table 2"
 * before "table 10"). Stored beside a name and indexed, it lets SQLite sort a list in the locale's
 * order at index speed; better-sqlite3 cannot register a collation, and a per-row function cannot be
 * indexed portably (every other connection — the checkpointer, a backup check, the sqlite3 shell —
 * would then need it too).
 *
 * The weights come from the platform's ICU (Intl.Collator) rather than a table written here: the
 * Latin letters, digits and punctuation a shop uses (U+0020–U+024F) are sorted once per language by
 * the collator and numbered, at three strengths — base letter, accent, case — as the Unicode
 * collation algorithm does. A key is the letters' base weights, then their accent weights, then their
 * case weights, then the text itself (so two different texts never share a key). Characters beyond
 * that range sort after the known letters, by code point. Digit runs are one token each: a marker,
 * their length and their digits, so numbers compare by value.
 */
import type { Language } from './index.js';

interface Table {
  /** token → [base, accent, case] weights. */
  weights: Map<string, [number, number, number]>;
  digitWeight: number;
  /** Multi-letter tokens the language sorts as one letter (sk/cs: ch), lower case. */
  digraphs: string[];
}

const tables = new Map<string, Table>();
/** Weights are written as characters from here: above the separators, far below the surrogates. */
const BASE = 0x100;
const UNKNOWN = 0x7000;
const LEVEL = '\u0001';
const DIGRAPHS: Partial<Record<Language, string[]>> = { sk: ['ch'], cs: ['ch'] };

function universe(digraphs: string[]): string[] {
  const out: string[] = [];
  for (let c = 0x20; c <= 0x7e; c++) out.push(String.fromCharCode(c));
  for (let c = 0xa0; c <= 0x24f; c++) out.push(String.fromCharCode(c));
  for (const d of digraphs) out.push(d, d[0].toUpperCase() + d.slice(1), d.toUpperCase(), d[0] + d.slice(1).toUpperCase());
  return out;
}

/** Ranks of `tokens` (already sorted by `full`) grouped by equality under `coarse`: 0, 1, … */
function ranks(sorted: string[], coarse: Intl.Collator): Map<string, number> {
  const out = new Map<string, number>();
  let rank = -1;
  let prev: string | undefined;
  for (const t of sorted) {
    if (prev === undefined || coarse.compare(prev, t) !== 0) rank++;
    out.set(t, rank);
    prev = t;
  }
  return out;
}

function tableOf(lang: Language): Table {
  let table = tables.get(lang);
  if (table) return table;
  const digraphs = DIGRAPHS[lang] ?? [];
  const locale = lang === 'en' ? 'en' : lang;
  const full = new Intl.Collator(locale, { sensitivity: 'variant', numeric: false });
  const sorted = universe(digraphs).sort((a, b) => full.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0));
  const base = ranks(sorted, new Intl.Collator(locale, { sensitivity: 'base' }));
  const accent = ranks(sorted, new Intl.Collator(locale, { sensitivity: 'accent' }));
  const variant = ranks(sorted, full);
  const weights = new Map<string, [number, number, number]>();
  // Accent and case ranks count within their base letter, so they stay small.
  const firstAccent = new Map<number, number>();
  const firstVariant = new Map<number, number>();
  for (const t of sorted) {
    const b = base.get(t)!;
    if (!firstAccent.has(b)) firstAccent.set(b, accent.get(t)!);
    const a = accent.get(t)!;
    if (!firstVariant.has(a)) firstVariant.set(a, variant.get(t)!);
    weights.set(t, [b, a - firstAccent.get(b)!, variant.get(t)! - firstVariant.get(a)!]);
  }
  table = { weights, digitWeight: weights.get('0')![0], digraphs };
  tables.set(lang, table);
  return table;
}

const w = (n: number) => String.fromCharCode(BASE + n);

/** The sort key of `text` in `lang`'s collation (null stays null: SQL sorts missing values first). */
export function sortKey(text: string | null | undefined, lang: Language): string | null {
  if (text === null || text === undefined) return null;
  const table = tableOf(lang);
  let primary = '';
  let secondary = '';
  let tertiary = '';
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c >= '0' && c <= '9') {
      let j = i;
      while (j < chars.length && chars[j] >= '0' && chars[j] <= '9') j++;
      const digits = chars.slice(i, j).join('').replace(/^0+(?=\d)/, '');
      primary += w(table.digitWeight) + w(Math.min(digits.length, 0x3000)) + [...digits].map((d) => w(Number(d))).join('');
      i = j - 1;
      continue;
    }
    let token = c;
    for (const d of table.digraphs) {
      const candidate = chars.slice(i, i + d.length).join('');
      if (candidate.toLowerCase() === d) {
        token = candidate;
        i += d.length - 1;
        break;
      }
    }
    const weight = table.weights.get(token);
    if (weight) {
      primary += w(weight[0]);
      secondary += w(weight[1]);
      tertiary += w(weight[2]);
    } else {
      primary += String.fromCharCode(UNKNOWN) + token;
    }
  }
  return `${primary}${LEVEL}${secondary}${LEVEL}${tertiary}${LEVEL}${text}`;
}
