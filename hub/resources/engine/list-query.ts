/**
 * Turns a request's query string into a ListPlan for one resource (CONTRACT §4): `$skip`, `$take`,
 * `$sort`, `$count` and NData filters, all names matched case-insensitively, every problem a 400
 * naming the parameter.
 */
import type { SQL } from 'drizzle-orm';
import { errors } from '../../http/errors.js';
import { parseFilter, parseSort } from '../../http/ndata.js';
import type { EngineContext, FilterDef, ResourceDef } from './define.js';
import { filterSql, jsonPath, tableColumn, type ListPlan } from './repo.js';

export const DEFAULT_TAKE = 100;
export const MAX_TAKE = 1000;

type Query = Record<string, unknown>;

function values(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  return v === undefined ? [] : [String(v)];
}

function intParam(name: string, raw: string[], min: number, max: number, fallback: number): number {
  if (raw.length === 0) return fallback;
  const text = raw[raw.length - 1].trim();
  if (!/^\d{1,9}$/.test(text)) throw errors.member(name, `'${text}' is not a whole number.`);
  const n = Number(text);
  if (n < min || n > max) throw errors.member(name, `must be between ${min} and ${max}.`, 'OutOfRange');
  return n;
}

/** Every sort key the resource accepts, lower-cased name → SQL. */
export function sortables(def: ResourceDef, ctx: EngineContext): Map<string, SQL> {
  const out = new Map<string, SQL>();
  const fields = [...Object.keys(def.schema.shape), ...Object.keys(def.readOnly)];
  for (const f of fields) out.set(f.toLowerCase(), jsonPath(def, f));
  out.set(def.key.field.toLowerCase(), tableColumn(def, def.key.column));
  for (const [name, f] of Object.entries(def.filters)) {
    const expr = filterExpr(def, f, ctx);
    if (expr) out.set(name.toLowerCase(), expr);
  }
  for (const [name, column] of Object.entries(def.sorts ?? {})) out.set(name.toLowerCase(), tableColumn(def, column));
  return out;
}

function filterExpr(def: ResourceDef, f: FilterDef, ctx: EngineContext): SQL | undefined {
  if ('column' in f) return tableColumn(def, f.column);
  if ('expr' in f) return f.expr(ctx);
  if ('predicate' in f) return f.predicate(ctx);
  return undefined;
}

const PATH_SEGMENT = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

function resolveSort(def: ResourceDef, key: string, table: Map<string, SQL>): SQL {
  const direct = table.get(key.toLowerCase());
  if (direct) return direct;
  const segments = key.split('.');
  const fields = [...Object.keys(def.schema.shape), ...Object.keys(def.readOnly)];
  const top = fields.find((f) => f.toLowerCase() === segments[0].toLowerCase());
  if (segments.length > 1 && top && segments.slice(1).every((s) => PATH_SEGMENT.test(s))) {
    return jsonPath(def, [top, ...segments.slice(1)].join('.'));
  }
  throw errors.member('$sort', `'${key}' is not a sort key of ${def.name}.`, 'Unknown');
}

export function parseListQuery(def: ResourceDef, query: Query, ctx: EngineContext): ListPlan {
  const params = new Map<string, { name: string; values: string[] }>();
  for (const [name, v] of Object.entries(query)) {
    const lower = name.toLowerCase();
    const entry = params.get(lower) ?? { name, values: [] };
    entry.values.push(...values(v));
    params.set(lower, entry);
  }
  const filters = new Map(Object.entries(def.filters).map(([n, f]) => [n.toLowerCase(), { name: n, def: f }]));
  const plan: ListPlan = { where: [], orderBy: [], skip: 0, take: DEFAULT_TAKE, countOnly: false };
  for (const [lower, { name, values: raw }] of params) {
    switch (lower) {
      case '$skip':
        plan.skip = intParam('$skip', raw, 0, 1e9, 0);
        continue;
      case '$take':
        plan.take = intParam('$take', raw, 0, MAX_TAKE, DEFAULT_TAKE);
        continue;
      case '$count': {
        const t = raw[raw.length - 1]?.trim().toLowerCase();
        if (t !== 'true' && t !== 'false') throw errors.member('$count', `'${t}' is not true or false.`);
        plan.countOnly = t === 'true';
        continue;
      }
      case '$sort': {
        const table = sortables(def, ctx);
        plan.orderBy = parseSort(raw).map((s) => ({ expr: resolveSort(def, s.key, table), desc: s.desc }));
        continue;
      }
    }
    const filter = filters.get(lower);
    if (!filter) throw errors.member(name, `'${name}' is not a filter of ${def.name}.`, 'Unknown');
    for (const text of raw) {
      for (const c of parseFilter(filter.name, text, filter.def, ctx.timeZone)) {
        plan.where.push(filterSql(def, filter.def, c, ctx));
      }
    }
  }
  return plan;
}
