import { dec, hasAtMostStoredPlaces, toScaled } from '../core/money.js';
import { parseIsoDateTime } from '../core/time.js';
import { errors } from './errors.js';
import type { MessageKey, Params } from '../i18n/index.js';

/**
 * NData filter grammar (CONTRACT §4, §11): `Member=OP:ARG;OP:ARG`, a plain value meaning `eq`,
 * operators matched case-insensitively, `in`/`nin` with CSV-quoted comma lists, `null` for a
 * missing value. Arguments are parsed as the member's type here, so SQL only sees typed values.
 */
export type FilterType = 'string' | 'stringList' | 'int' | 'decimal' | 'bool' | 'datetime' | 'enum';
export type Op = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le' | 'in' | 'nin' | 'contains' | 'startswith';
/** Typed argument: strings, ints, decimals scaled by 10^4, booleans, datetimes as epoch ms, null. */
export type FilterValue = string | number | boolean | null;
export interface Condition {
  op: Op;
  values: FilterValue[];
}

const OPERATORS: Record<string, Op> = {
  eq: 'eq', ne: 'ne', neq: 'ne', gt: 'gt', ge: 'ge', gte: 'ge', lt: 'lt', le: 'le', lte: 'le',
  in: 'in', nin: 'nin', contains: 'contains', startswith: 'startswith',
};
const LIST_OPS = new Set<Op>(['in', 'nin']);

/** CONTRACT §12: limits that keep one query from costing the store (more: 400 naming the parameter). */
export const MAX_SORT_KEYS = 32;
export const MAX_OPERATIONS = 64;
export const MAX_LIST_VALUES = 100;
const ORDER_OPS = new Set<Op>(['gt', 'ge', 'lt', 'le']);
const TEXT_OPS = new Set<Op>(['contains', 'startswith']);

export interface FilterSpec {
  type: FilterType;
  enumValues?: readonly string[];
  /** The operators a filter with its own meaning takes (customers' Search); others are a 400. Absent: every one its type takes. */
  ops?: readonly Op[];
}

/** What splitQuoted refuses: a quote never closed, or text after a closing quote before the separator. */
export class QuoteError extends Error {
  constructor(readonly fault: 'unclosed' | 'afterQuote') {
    super(fault === 'unclosed' ? 'an opening double quote is never closed' : 'text follows a closing double quote');
  }
}

/**
 * Splits on `sep` outside double quotes; `""` inside quotes is a literal quote (CSV). A part is quoted
 * when it starts with `"` (after blanks); blanks after its closing quote are dropped, anything else
 * there is refused: `"a,b" ,c` is `a,b` and `c`, while `"a"b` would silently lose its quotes.
 */
export function splitQuoted(text: string, sep: string): { parts: string[]; quoted: boolean[] } {
  const parts: string[] = [];
  const quoted: boolean[] = [];
  let cur = '';
  let inQuotes = false;
  let wasQuoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"' && text[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') inQuotes = false;
      else cur += ch;
    } else if (ch === sep) {
      parts.push(cur);
      quoted.push(wasQuoted);
      cur = '';
      wasQuoted = false;
    } else if (wasQuoted) {
      if (ch.trim() !== '') throw new QuoteError('afterQuote');
    } else if (ch === '"' && cur.trim() === '') {
      inQuotes = true;
      wasQuoted = true;
      cur = '';
    } else cur += ch;
  }
  if (inQuotes) throw new QuoteError('unclosed');
  parts.push(cur);
  quoted.push(wasQuoted);
  return { parts, quoted };
}

/** Splits `;`-joined operations while keeping quoted text whole (quotes stay for the argument parser). */
function splitOperations(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inQuotes = false;
  for (const ch of text) {
    if (ch === '"') inQuotes = !inQuotes;
    if (ch === ';' && !inQuotes) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

function parseValue(member: string, raw: string, wasQuoted: boolean, spec: FilterSpec, tz: string): FilterValue {
  if (!wasQuoted && raw === 'null') return null;
  const bad = (key: MessageKey, params: Params = {}): never => {
    throw errors.member(member, key, { ...params, value: raw });
  };
  switch (spec.type) {
    case 'string':
    case 'stringList':
      return raw;
    case 'enum': {
      const hit = spec.enumValues?.find((v) => v.toLowerCase() === raw.trim().toLowerCase());
      return hit ?? bad('query.notEnum', { values: spec.enumValues?.join(', ') ?? '' });
    }
    case 'bool': {
      const t = raw.trim().toLowerCase();
      if (t === 'true') return true;
      if (t === 'false') return false;
      return bad('query.notBoolean');
    }
    case 'int': {
      const t = raw.trim();
      if (!/^-?\d{1,16}$/.test(t) || !Number.isSafeInteger(Number(t))) return bad('query.notInteger');
      return Number(t);
    }
    case 'decimal': {
      const t = raw.trim();
      if (!/^-?\d{1,15}(\.\d+)?$/.test(t)) return bad('query.notDecimal');
      if (!hasAtMostStoredPlaces(Number(t)) || dec(t).decimalPlaces() > 4) return bad('query.tooManyPlaces');
      return toScaled(t);
    }
    case 'datetime': {
      const d = parseIsoDateTime(raw, tz);
      return d ? d.getTime() : bad('query.notDateTime');
    }
  }
}

/** Parses one parameter value of filter `member` into ANDed conditions. */
export function parseFilter(member: string, text: string, spec: FilterSpec, tz: string): Condition[] {
  const conditions: Condition[] = [];
  const operations = splitOperations(text);
  if (operations.length > MAX_OPERATIONS) throw errors.member(member, 'query.tooManyOperations', { max: MAX_OPERATIONS, count: operations.length }, 'OutOfRange');
  for (const operation of operations) {
    const colon = operation.indexOf(':');
    const head = colon >= 0 ? operation.slice(0, colon).trim().toLowerCase() : '';
    let op: Op = colon >= 0 && head in OPERATORS ? OPERATORS[head] : 'eq';
    const arg = colon >= 0 && head in OPERATORS ? operation.slice(colon + 1) : operation;
    // A string[] filter's plain value is a list (`in`), but a plain `null` is still the plain value that
    // means a missing member (CONTRACT §4: `null` with eq), not an `in` that cannot hold it.
    if (!(colon >= 0 && head in OPERATORS) && spec.type === 'stringList' && operation !== 'null') op = 'in';
    if (spec.ops && !spec.ops.includes(op)) throw errors.member(member, 'query.opNotHere', { op, ops: spec.ops.join(', ') });
    if (ORDER_OPS.has(op) && spec.type === 'bool') throw errors.member(member, 'query.orderOnBool', { op });
    if (TEXT_OPS.has(op) && !['string', 'stringList'].includes(spec.type)) {
      throw errors.member(member, 'query.textOnly', { op });
    }
    let pieces: { parts: string[]; quoted: boolean[] };
    try {
      pieces = LIST_OPS.has(op) ? splitQuoted(arg, ',') : splitQuoted(arg, '\u0000');
    } catch (err) {
      if (!(err instanceof QuoteError)) throw err;
      // One value that is no whole quoted string (`"`, `"U Jana" s.r.o.`) is the argument as written
      // (CONTRACT §11: the rest is its argument); in a list it would leave the values' bounds unknown.
      if (!LIST_OPS.has(op)) pieces = { parts: [arg], quoted: [false] };
      else throw errors.member(member, err.fault === 'unclosed' ? 'query.unclosedQuote' : 'query.textAfterQuote');
    }
    if (!LIST_OPS.has(op) && pieces.quoted[0] === false) pieces = { parts: [arg], quoted: [false] };
    if (LIST_OPS.has(op) && pieces.parts.length === 1 && pieces.parts[0] === '' && !pieces.quoted[0]) {
      throw errors.member(member, 'query.needsValue', { op });
    }
    if (pieces.parts.length > MAX_LIST_VALUES) throw errors.member(member, 'query.tooManyValues', { max: MAX_LIST_VALUES, op, count: pieces.parts.length }, 'OutOfRange');
    const values = pieces.parts.map((p, i) => parseValue(member, p, pieces.quoted[i], spec, tz));
    if (values.includes(null) && !['eq', 'ne'].includes(op)) {
      throw errors.member(member, 'query.nullOnlyEq');
    }
    conditions.push({ op, values });
  }
  return conditions;
}

export interface SortKey {
  key: string;
  desc: boolean;
}

/** `$sort=a,b:desc,-c` (repeatable). Keys are resolved by the caller. */
export function parseSort(values: string[]): SortKey[] {
  const out: SortKey[] = [];
  for (const value of values) {
    for (let part of value.split(',')) {
      part = part.trim();
      if (!part) throw errors.member('$sort', 'sort.empty');
      let desc = false;
      if (part.startsWith('-')) {
        desc = true;
        part = part.slice(1);
      } else if (part.startsWith('+')) part = part.slice(1);
      const colon = part.lastIndexOf(':');
      if (colon >= 0) {
        const dir = part.slice(colon + 1).toLowerCase();
        if (dir !== 'asc' && dir !== 'desc') throw errors.member('$sort', 'sort.notDirection', { value: dir });
        desc = dir === 'desc';
        part = part.slice(0, colon);
      }
      out.push({ key: part, desc });
      if (out.length > MAX_SORT_KEYS) throw errors.member('$sort', 'sort.tooMany', { max: MAX_SORT_KEYS }, 'OutOfRange');
    }
  }
  return out;
}
