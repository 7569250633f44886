/**
 * The query string of a list (CONTRACT §4) read into plain parts: `$skip`, `$take`, `$count`,
 * `$sort` keys and NData filter conditions, names matched case-insensitively, every problem a 400
 * naming the parameter. What the keys and filters mean in SQL is the caller's business (the hub's
 * SQLite engine, HQ's PostgreSQL lists).
 */
import { errors } from './errors.js';
import { parseFilter, parseSort, type Condition, type FilterSpec, type SortKey } from './ndata.js';

export const DEFAULT_TAKE = 100;
export const MAX_TAKE = 1000;
/** `$skip` up to the largest integer a JSON number carries exactly (the OpenAPI document says so). */
export const MAX_SKIP = Number.MAX_SAFE_INTEGER;

export interface ListParams {
  skip: number;
  take: number;
  countOnly: boolean;
  /** In the order asked; empty: the caller's default order. */
  sort: SortKey[];
  /** Each with the filter's name as declared (not as the request spelled it). */
  filters: Array<{ name: string; condition: Condition }>;
}

function values(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  return v === undefined ? [] : [String(v)];
}

function intParam(name: string, raw: string[], min: number, max: number, fallback: number): number {
  if (raw.length === 0) return fallback;
  const text = raw[raw.length - 1].trim();
  if (!/^\d+$/.test(text)) throw errors.member(name, 'query.notWholeNumber', { value: text });
  // However many digits: a whole number past the bound is out of range, not "not a whole number".
  const n = Number(text);
  if (n < min || n > max) throw errors.member(name, 'member.between', { min, max }, 'OutOfRange');
  return n;
}

/** `what` names the list in messages (`tickets`). */
export function parseListParams(query: Record<string, unknown>, filters: Record<string, FilterSpec>, what: string, timeZone: string): ListParams {
  const params = new Map<string, { name: string; values: string[] }>();
  for (const [name, v] of Object.entries(query)) {
    const lower = name.toLowerCase();
    const entry = params.get(lower) ?? { name, values: [] };
    entry.values.push(...values(v));
    params.set(lower, entry);
  }
  const byLower = new Map(Object.entries(filters).map(([n, f]) => [n.toLowerCase(), { name: n, spec: f }]));
  const out: ListParams = { skip: 0, take: DEFAULT_TAKE, countOnly: false, sort: [], filters: [] };
  for (const [lower, { name, values: raw }] of params) {
    switch (lower) {
      case '$skip':
        out.skip = intParam('$skip', raw, 0, MAX_SKIP, 0);
        continue;
      case '$take':
        out.take = intParam('$take', raw, 0, MAX_TAKE, DEFAULT_TAKE);
        continue;
      case '$count': {
        const t = raw[raw.length - 1]?.trim().toLowerCase();
        if (t !== 'true' && t !== 'false') throw errors.member('$count', 'query.notBoolean', { value: t });
        out.countOnly = t === 'true';
        continue;
      }
      case '$sort':
        out.sort = parseSort(raw);
        continue;
    }
    const filter = byLower.get(lower);
    // A parameter without a name (`?=x`) is named as the query as a whole.
    if (!filter) throw errors.member(name || '$query', 'query.notAFilter', { name, what }, 'Unknown');
    for (const text of raw) {
      for (const condition of parseFilter(filter.name, text, filter.spec, timeZone)) out.filters.push({ name: filter.name, condition });
    }
  }
  return out;
}

/**
 * A short list the hub holds outside SQL (the backups on disk, the outstanding pairing codes) paged,
 * counted and sorted as the stored lists are (CONTRACT §4): `$sort` on `sortKeys` (any other: 400),
 * missing values first when ascending, ties broken on `key`; without `$sort`, the order given.
 */
export function pageInMemory<T extends object>(items: readonly T[], q: ListParams, list: { key: keyof T & string; sortKeys: readonly string[]; what: string }) {
  const keys = new Map(list.sortKeys.map((k) => [k.toLowerCase(), k]));
  const order = q.sort.map((s) => {
    const key = keys.get(s.key.toLowerCase());
    if (!key) throw errors.member('$sort', 'sort.notAKey', { key: s.key, what: list.what }, 'Unknown');
    return { key, desc: s.desc };
  });
  const valueOf = (item: T, key: string) => (item as Record<string, unknown>)[key];
  const compare = (a: unknown, b: unknown) => (a === b ? 0 : a === undefined || a === null ? -1 : b === undefined || b === null ? 1 : a < b ? -1 : a > b ? 1 : 0);
  const sorted = order.length
    ? [...items].sort((x, y) => {
        for (const { key, desc } of order) {
          const c = compare(valueOf(x, key), valueOf(y, key));
          if (c) return desc ? -c : c;
        }
        return compare(valueOf(x, list.key), valueOf(y, list.key));
      })
    : items;
  const count = Math.max(0, Math.min(q.take, sorted.length - q.skip));
  if (q.countOnly) return { count, totalCount: sorted.length };
  const page = sorted.slice(q.skip, q.skip + q.take);
  return { items: page, count: page.length, totalCount: sorted.length };
}
