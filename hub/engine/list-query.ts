/**
 * Turns a request's query string into a ListPlan for one resource (CONTRACT §4): `$skip`, `$take`,
 * `$sort`, `$count` and NData filters, all names matched case-insensitively, every problem a 400
 * naming the parameter.
 */
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { errors } from '../http/errors.js';
import { parseListParams } from '../http/list-params.js';
import type { EngineContext, FilterDef, ResourceDef } from './define.js';
import { collatedSort, filterSql, jsonPath, tableColumn, type ListPlan } from './repo.js';
import { isSecretSetting } from './secrets.js';

export { DEFAULT_TAKE, MAX_TAKE } from '../http/list-params.js';

/**
 * Whether a sort on `path` (`settings`, `settings.ApiKey`) would order a resource's documents by the
 * values of its secret settings (CONTRACT §12: never answered, so not given away by a list's order
 * either): the whole `settings` object or a secret one in it, on a resource that keeps secret settings.
 */
export function sortsBySecret(def: ResourceDef, path: string[]): boolean {
  if (!('secretSettings' in def.readOnly) || path[0]?.toLowerCase() !== 'settings') return false;
  return path.length === 1 || isSecretSetting(path[1]);
}

/** The version every stored answer carries (CONTRACT §3), kept in each table's `v` column. */
export const VERSION_FIELD = '_v';

/**
 * Fields a resource accepts but never answers with. The engine cannot see what a `present` hook
 * strips: a user's `password` and `pin` (CONTRACT §5: write-only) are the ones the contract names.
 * They are no sort keys either: never stored as written, a sort by them would be accepted and do nothing.
 */
export const WRITE_ONLY_FIELDS: ReadonlySet<string> = new Set(['password', 'pin']);

/** The top-level fields `$sort` takes by name: the scalar ones answered (not write-only, not secret). */
export function sortableFields(def: ResourceDef): string[] {
  const shape: Record<string, z.ZodType> = { ...def.schema.shape, ...def.readOnly };
  return Object.entries(shape)
    .filter(([f, t]) => !WRITE_ONLY_FIELDS.has(f) && !sortsBySecret(def, [f]) && isScalar(t))
    .map(([f]) => f);
}

/** Every sort key the resource accepts, lower-cased name → SQL; text keys people read in the locale's collation. */
export function sortables(def: ResourceDef, ctx: EngineContext): Map<string, SQL> {
  const out = new Map<string, SQL>();
  const collated = new Set((def.collate ?? []).map((k) => k.toLowerCase()));
  const set = (name: string, expr: SQL, column?: string) => {
    const lower = name.toLowerCase();
    out.set(lower, collated.has(lower) ? collatedSort(def, expr, column) : expr);
  };
  for (const f of sortableFields(def)) set(f, jsonPath(def, f));
  set(def.key.field, tableColumn(def, def.key.column), def.key.column);
  // `_v` is a top-level scalar of every answer (CONTRACT §11: every one sorts): the row's version column.
  set(VERSION_FIELD, tableColumn(def, 'v'), 'v');
  for (const [name, f] of Object.entries(def.filters)) {
    const expr = filterExpr(def, f, ctx);
    if (expr) set(name, expr, 'column' in f ? f.column : undefined);
  }
  for (const [name, s] of Object.entries(def.sorts ?? {})) {
    if (typeof s === 'string') set(name, tableColumn(def, s), s);
    else set(name, s(ctx));
  }
  return out;
}

/**
 * CONTRACT §11: the top-level fields that sort are the scalar ones. An object or a list (`items`,
 * `company`) would order by its JSON text, which means nothing, so it is no sort key (400); its
 * members sort by a dotted path (`company.name`).
 */
function isScalar(t: z.ZodType): boolean {
  const u = unwrap(t);
  return !(u instanceof z.ZodObject || u instanceof z.ZodArray || u instanceof z.ZodRecord || u instanceof z.ZodTuple || u instanceof z.ZodUnknown || u instanceof z.ZodAny);
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
  for (;;) {
    if (cur instanceof z.ZodDefault || cur instanceof z.ZodOptional || cur instanceof z.ZodNullable) cur = cur.unwrap() as z.ZodType;
    // A field that normalizes its input first (z.preprocess: customers' company) is stored as its output schema.
    else if (cur instanceof z.ZodPipe) cur = cur.def.out as z.ZodType;
    else return cur;
  }
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
  return sortsBySecret(def, path) ? undefined : path.join('.');
}

function resolveSort(def: ResourceDef, key: string, table: Map<string, SQL>): SQL {
  const direct = table.get(key.toLowerCase());
  if (direct) return direct;
  const path = nestedPath(def, key);
  if (path) return jsonPath(def, path);
  throw errors.member('$sort', 'sort.notAKey', { key, what: def.name }, 'Unknown');
}

export function parseListQuery(def: ResourceDef, query: Record<string, unknown>, ctx: EngineContext): ListPlan {
  const p = parseListParams(query, def.filters, def.name, ctx.timeZone);
  const table = p.sort.length ? sortables(def, ctx) : new Map<string, SQL>();
  return {
    skip: p.skip,
    take: p.take,
    countOnly: p.countOnly,
    orderBy: p.sort.map((s) => ({ expr: resolveSort(def, s.key, table), desc: s.desc })),
    where: p.filters.map((f) => filterSql(def, def.filters[f.name], f.condition, ctx)),
    used: p.filters.map((f) => ({
      filter: f.name,
      op: f.condition.op,
      values: f.condition.values.length,
      isNull: f.condition.values.includes(null),
      blank: f.condition.values.includes(''),
    })),
    sortKeys: p.sort.map((s) => s.key),
  };
}
