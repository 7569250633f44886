/**
 * Turns a request's query string into a ListPlan for one resource (CONTRACT §4): `$skip`, `$take`,
 * `$sort`, `$count` and NData filters, all names matched case-insensitively, every problem a 400
 * naming the parameter.
 */
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
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
  if (!/^\d{1,15}$/.test(text)) throw errors.member(name, `'${text}' is not a whole number.`);
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
  for (const [name, s] of Object.entries(def.sorts ?? {})) out.set(name.toLowerCase(), typeof s === 'string' ? tableColumn(def, s) : s(ctx));
  return out;
}

function filterExpr(def: ResourceDef, f: FilterDef, ctx: EngineContext): SQL | undefined {
  if ('column' in f) return tableColumn(def, f.column);
  if ('expr' in f) return f.expr(ctx);
  if ('predicate' in f) return f.predicate(ctx);
  if ('child' in f) {
    // A list member sorts by its lowest value; a parent without any sorts as missing.
    const { table, fk, column } = f.child;
    const t = sql.identifier(table);
    return sql`(SELECT min(${t}.${sql.identifier(column)}) FROM ${t} WHERE ${t}.${sql.identifier(fk)} = ${tableColumn(def, def.key.column)})`;
  }
  return undefined;
}

const PATH_SEGMENT = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

function unwrap(t: z.ZodType): z.ZodType {
  let cur = t;
  while (cur instanceof z.ZodDefault || cur instanceof z.ZodOptional || cur instanceof z.ZodNullable) cur = cur.unwrap() as z.ZodType;
  return cur;
}

/**
 * The stored JSON path of a dotted key (`credit.amount`), each segment matched case-insensitively
 * against the schema; inside free-form objects (`meta`) segments are taken as written. Undefined
 * when the path names no nested field.
 */
function nestedPath(def: ResourceDef, key: string): string | undefined {
  const segments = key.split('.');
  if (segments.length < 2 || !segments.every((s) => PATH_SEGMENT.test(s))) return undefined;
  const path: string[] = [];
  let t: z.ZodType = z.object({ ...def.schema.shape, ...def.readOnly });
  for (const seg of segments) {
    t = unwrap(t);
    if (t instanceof z.ZodUnknown || t instanceof z.ZodAny) {
      path.push(seg);
    } else if (t instanceof z.ZodRecord) {
      path.push(seg);
      t = t.valueType as z.ZodType;
    } else if (t instanceof z.ZodObject) {
      const shape = t.shape as Record<string, z.ZodType>;
      const name = Object.keys(shape).find((k) => k.toLowerCase() === seg.toLowerCase());
      const rest = t.def.catchall as z.ZodType | undefined;
      if (name) t = shape[name];
      else if (rest && !(rest instanceof z.ZodNever)) t = rest;
      else return undefined;
      path.push(name ?? seg);
    } else return undefined;
  }
  return path.join('.');
}

function resolveSort(def: ResourceDef, key: string, table: Map<string, SQL>): SQL {
  const direct = table.get(key.toLowerCase());
  if (direct) return direct;
  const path = nestedPath(def, key);
  if (path) return jsonPath(def, path);
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
  const plan: ListPlan = { where: [], used: [], orderBy: [], skip: 0, take: DEFAULT_TAKE, countOnly: false };
  for (const [lower, { name, values: raw }] of params) {
    switch (lower) {
      case '$skip':
        plan.skip = intParam('$skip', raw, 0, Number.MAX_SAFE_INTEGER, 0);
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
        plan.used.push({ filter: filter.name, op: c.op, values: c.values.length, isNull: c.values.includes(null) });
      }
    }
  }
  return plan;
}
