/**
 * HQ's lists (CONTRACT §4 on PostgreSQL) and the sales report. A list is declared once: its
 * filters and sort keys as SQL expressions over one table; its route (api.ts) declares it to
 * mount(), which reads the query string with the parser the hub uses (hub/http/list-params.ts), so
 * names, operators and errors behave alike, and the document lists its filters (`listSpec`).
 */
import type { Condition, FilterSpec, FilterValue } from '../http/ndata.js';
import type { ListParams } from '../http/list-params.js';
import type { ListSpec } from '../http/route.js';
import { TICKET_FILTERS, type TicketFilter } from '../http/ticket-filters.js';
import { errors } from '../http/errors.js';
import type { Pool } from './db.js';
import type { StoreRow } from './repo.js';

/** A filter over a column expression, or over the elements of a JSON array (`EXISTS`). */
interface Field {
  spec: FilterSpec;
  sql: string;
  /** `sql` is then an expression over `i`, one element of this array expression. */
  each?: string;
}

interface ListDef {
  what: string;
  /** `FROM …` with the table aliased, and the rows every answer starts from. */
  from: string;
  base: string;
  fields: Record<string, Field>;
  /** Extra sort keys (dotted paths) beyond the fields. */
  sorts: Record<string, string>;
  /** Ties break on the key ascending (CONTRACT §4, §11), so paging is stable. */
  key: string;
  /** The order without `$sort`, where it is not the key ascending (dead letters: newest first). */
  defaultOrder?: string;
  select: string;
}

class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

function bind(p: Params, spec: FilterSpec, v: FilterValue): string {
  if (spec.type === 'decimal') return `(${p.add(String(v))}::numeric / 10000)`; // NData scales decimals by 10^4
  if (spec.type === 'datetime') return `to_timestamp(${p.add(v)}::double precision / 1000)`;
  if (spec.type === 'int') return `${p.add(v)}::bigint`;
  if (spec.type === 'bool') return `${p.add(v)}::boolean`;
  return `${p.add(v)}::text`;
}

function compare(p: Params, e: string, spec: FilterSpec, c: Condition): string {
  const [first] = c.values;
  const list = () => c.values.map((v) => bind(p, spec, v)).join(', ');
  switch (c.op) {
    case 'eq':
      return first === null ? `${e} IS NULL` : `${e} = ${bind(p, spec, first)}`;
    case 'ne':
      return first === null ? `${e} IS NOT NULL` : `(${e} <> ${bind(p, spec, first)} OR ${e} IS NULL)`;
    case 'gt':
      return `${e} > ${bind(p, spec, first)}`;
    case 'ge':
      return `${e} >= ${bind(p, spec, first)}`;
    case 'lt':
      return `${e} < ${bind(p, spec, first)}`;
    case 'le':
      return `${e} <= ${bind(p, spec, first)}`;
    case 'in':
      return `${e} IN (${list()})`;
    case 'nin':
      return `(${e} NOT IN (${list()}) OR ${e} IS NULL)`;
    case 'contains':
      return `strpos(lower(${e}), lower(${p.add(first)}::text)) > 0`;
    case 'startswith':
      return `left(lower(${e}), char_length(${p.add(first)}::text)) = lower($${p.values.length}::text)`;
  }
}

function condition(p: Params, f: Field, c: Condition): string {
  if (!f.each) return compare(p, f.sql, f.spec, c);
  const exists = (cond: string | null) => `EXISTS (SELECT 1 FROM jsonb_array_elements(${f.each}) i${cond ? ` WHERE ${cond}` : ''})`;
  const [first] = c.values;
  if (c.op === 'eq' && first === null) return `NOT ${exists(null)}`;
  if (c.op === 'ne' && first === null) return exists(null);
  // "ne X": no element equals X, the reading the hub gives it too.
  if (c.op === 'ne') return `NOT ${exists(compare(p, f.sql, f.spec, { op: 'eq', values: c.values }))}`;
  if (c.op === 'nin') return `NOT ${exists(compare(p, f.sql, f.spec, { op: 'in', values: c.values }))}`;
  return exists(compare(p, f.sql, f.spec, c));
}

/** The list as its route declares it: the filters mount() reads, the keys `$sort` takes; `order` words its default order. */
export function listSpec(def: ListDef, order: { tieBreak: string; defaultOrder?: string; example: string }): ListSpec {
  return {
    what: def.what,
    ...order,
    filters: Object.fromEntries(Object.entries(def.fields).map(([n, f]) => [n, f.spec])),
    sortKeys: [...Object.keys(def.fields), ...Object.keys(def.sorts)],
  };
}

/** What a filter sorts by: its value; a filter over a list's elements, its lowest one (as on the hub). */
const sortExpr = (f: Field) => (f.each ? `(SELECT min(${f.sql}) FROM jsonb_array_elements(${f.each}) i)` : f.sql);

async function runList<T>(pool: Pool, def: ListDef, q: ListParams, present: (row: Record<string, unknown>) => T) {
  const p = new Params();
  const where = [def.base, ...q.filters.map((f) => condition(p, def.fields[f.name], f.condition))].join(' AND ');
  const sortable = new Map<string, string>();
  for (const [n, f] of Object.entries(def.fields)) sortable.set(n.toLowerCase(), sortExpr(f));
  for (const [n, e] of Object.entries(def.sorts)) sortable.set(n.toLowerCase(), e);
  const order = q.sort.map((s) => {
    const e = sortable.get(s.key.toLowerCase());
    if (!e) throw errors.member('$sort', 'sort.notAKey', { key: s.key, what: def.what }, 'Unknown');
    // Missing values sort first in ascending order, as on the hub.
    return `${e} ${s.desc ? 'DESC NULLS LAST' : 'ASC NULLS FIRST'}`;
  });
  const total = Number((await pool.query<{ n: string }>(`SELECT count(*) AS n ${def.from} WHERE ${where}`, p.values)).rows[0].n);
  if (q.countOnly) return { count: Math.max(0, Math.min(q.take, total - q.skip)), totalCount: total };
  const rows = await pool.query(
    `SELECT ${def.select} ${def.from} WHERE ${where} ORDER BY ${(order.length ? [...order, def.key] : [def.defaultOrder ?? def.key]).join(', ')} LIMIT ${p.add(q.take)} OFFSET ${p.add(q.skip)}`,
    p.values,
  );
  return { items: rows.rows.map(present), count: rows.rows.length, totalCount: total };
}

const text = (sql: string): Field => ({ spec: { type: 'string' }, sql });
const bool = (sql: string): Field => ({ spec: { type: 'bool' }, sql });
const itemsOf = "t.doc->'items'";
/** A filter of the hub's tickets list (its name, type and values: http/ticket-filters.ts) over HQ's SQL for it. */
const hub = (name: TicketFilter, sql: string, each?: string): Field => ({ spec: TICKET_FILTERS[name], sql, ...(each ? { each } : {}) });

export const TICKETS: ListDef = {
  what: 'tickets',
  from: 'FROM tickets t',
  base: 'NOT t.deleted',
  key: 't.store_id, t.key',
  select: 't.store_id, t.doc',
  fields: {
    StoreId: text('t.store_id'),
    Id: hub('Id', 't.key'),
    IsClosed: hub('IsClosed', 't.is_closed'),
    State: hub('State', "(t.doc->>'state')"),
    ExternalId: hub('ExternalId', "(t.doc->>'externalId')"),
    Name: hub('Name', "(t.doc->>'name')"),
    DeviceName: hub('DeviceName', "(CASE WHEN t.is_closed THEN t.doc->'closeInfo'->>'deviceName' ELSE t.doc->>'originDeviceName' END)"),
    PurchaseType: hub('PurchaseType', "(t.doc->>'purchaseType')"),
    OriginDeviceName: hub('OriginDeviceName', "(t.doc->>'originDeviceName')"),
    CurrencyLabel: hub('CurrencyLabel', "(t.doc->>'currencyLabel')"),
    DiscountRate: hub('DiscountRate', "((t.doc->>'discountRate')::numeric)"),
    OpenDate: hub('OpenDate', 't.open_date'),
    CloseDate: hub('CloseDate', 't.close_date'),
    CloseInfoDeviceName: hub('CloseInfoDeviceName', "(t.doc->'closeInfo'->>'deviceName')"),
    CloseInfoFiscalName: hub('CloseInfoFiscalName', "(t.doc->'closeInfo'->>'fiscalName')"),
    CloseInfoNumber: hub('CloseInfoNumber', "((t.doc->'closeInfo'->>'number')::bigint)"),
    CloseInfoDailySalesReportNumber: hub('CloseInfoDailySalesReportNumber', "((t.doc->'closeInfo'->>'dailySalesReportNumber')::bigint)"),
    CloseInfoFiscalMemorySerialNumber: hub('CloseInfoFiscalMemorySerialNumber', "(t.doc->'closeInfo'->>'fiscalMemorySerialNumber')"),
    LocationTableName: hub('LocationTableName', "(t.doc->'location'->>'tableName')"),
    LocationZoneName: hub('LocationZoneName', "(t.doc->'location'->>'zoneName')"),
    CustomerCardSerialNumber: hub('CustomerCardSerialNumber', "(t.doc->'customer'->>'cardSerialNumber')"),
    CustomerId: hub('CustomerId', "(t.doc->'customer'->>'id')"),
    ReturnOf: hub('ReturnOf', "(t.doc->>'returnOf')"),
    EmployeeUserName: hub('EmployeeUserName', "(t.doc->'employee'->>'userName')"),
    HasCustomer: hub('HasCustomer', "(jsonb_typeof(t.doc->'customer') = 'object')"),
    HasDiscount: hub(
      'HasDiscount',
      `(COALESCE((t.doc->>'discountRate')::numeric, 0) <> 0 OR EXISTS (SELECT 1 FROM jsonb_array_elements(${itemsOf}) i WHERE COALESCE((i->>'discountRate')::numeric, 0) <> 0))`,
    ),
    HasNegativeItem: hub('HasNegativeItem', `EXISTS (SELECT 1 FROM jsonb_array_elements(${itemsOf}) i WHERE (i->'totalPrice'->>'amount')::numeric < 0)`),
    HasReturnedItem: hub('HasReturnedItem', `EXISTS (SELECT 1 FROM jsonb_array_elements(${itemsOf}) i WHERE i->>'type' = 'Negative')`),
    ItemPluCode: hub('ItemPluCode', "((i->'plu'->>'code')::bigint)", itemsOf),
    ItemPluStockName: hub('ItemPluStockName', "(i->'plu'->>'stockName')", itemsOf),
  },
  // CONTRACT §4, §11: every top-level scalar field and dotted paths into the nested ones, as on the hub
  // (the rest of the top-level ones are filters above).
  sorts: {
    // The version the store stored (the document's `_v`), kept in its own column.
    _v: 't.version',
    openDate: 't.open_date',
    closeDate: 't.close_date',
    lastOrderDate: "(t.doc->>'lastOrderDate')",
    note: "(t.doc->>'note')",
    returnOf: "(t.doc->>'returnOf')",
    'closeInfo.number': "((t.doc->'closeInfo'->>'number')::bigint)",
    'closeInfo.deviceName': "(t.doc->'closeInfo'->>'deviceName')",
    'closeInfo.fiscalName': "(t.doc->'closeInfo'->>'fiscalName')",
    'closeInfo.dailySalesReportNumber': "((t.doc->'closeInfo'->>'dailySalesReportNumber')::bigint)",
    'closeInfo.fiscalMemorySerialNumber': "(t.doc->'closeInfo'->>'fiscalMemorySerialNumber')",
    'location.tableName': "(t.doc->'location'->>'tableName')",
    'location.zoneName': "(t.doc->'location'->>'zoneName')",
    'customer.id': "(t.doc->'customer'->>'id')",
    'customer.cardSerialNumber': "(t.doc->'customer'->>'cardSerialNumber')",
    'employee.userName': "(t.doc->'employee'->>'userName')",
    'employee.name': "(t.doc->'employee'->>'name')",
    'totalPrice.amount': 't.total',
    'totalPrice.currencyLabel': "(t.doc->'totalPrice'->>'currencyLabel')",
  },
};

export function listTickets(pool: Pool, params: ListParams) {
  return runList(pool, TICKETS, params, (r) => ({ ...(r.doc as Record<string, unknown>), storeId: r.store_id }));
}

/** A store as the API shows it; `online` from the time of its last sign of life. */
export function presentStore(r: StoreRow & { online: boolean }) {
  const ingested = Number(r.ingested_seq);
  const published = Number(r.last_seq);
  return {
    storeId: r.store_id,
    name: r.name,
    online: r.online,
    lastSeenAt: r.last_seen_at ? r.last_seen_at.toISOString() : null,
    publishedSeq: published,
    ingestedSeq: ingested,
    backlog: Math.max(0, published - ingested),
    catalogVersion: Number(r.catalog_version),
    appliedCatalogVersion: Number(r.applied_catalog_version),
    catalogError: r.catalog_error,
    deadLetters: Number(r.dead_letters),
    printers: r.devices?.printers ?? [],
    fiscalDevices: r.devices?.fiscalDevices ?? [],
  };
}

export function storesList(offlineAfterMs: number): ListDef {
  const online = `(s.last_seen_at IS NOT NULL AND s.last_seen_at > now() - make_interval(secs => ${Math.round(offlineAfterMs) / 1000}))`;
  const deadLetters = '(SELECT count(*) FROM dead_letters d WHERE d.store_id = s.store_id)';
  return {
    what: 'stores',
    from: 'FROM stores s',
    base: 'true',
    key: 's.store_id',
    select: `s.*, ${online} AS online, ${deadLetters} AS dead_letters`,
    fields: {
      StoreId: text('s.store_id'),
      Name: text('s.name'),
      Online: bool(online),
      LastSeenAt: { spec: { type: 'datetime' }, sql: 's.last_seen_at' },
    },
    // CONTRACT §11: every top-level scalar field sorts (the rest are filters above).
    sorts: {
      backlog: 'GREATEST(s.last_seq - s.ingested_seq, 0)',
      ingestedSeq: 's.ingested_seq',
      publishedSeq: 's.last_seq',
      catalogVersion: 's.catalog_version',
      appliedCatalogVersion: 's.applied_catalog_version',
      deadLetters,
    },
  };
}

export function listStores(pool: Pool, params: ListParams, offlineAfterMs: number) {
  return runList(pool, storesList(offlineAfterMs), params, (r) => presentStore(r as unknown as StoreRow & { online: boolean }));
}

/** Events HQ put aside (CONTRACT §13), newest first by default. */
export const DEAD_LETTERS: ListDef = {
  what: 'dead letters',
  from: 'FROM dead_letters d',
  base: 'true',
  key: 'd.id',
  defaultOrder: 'd.id DESC',
  select: 'd.id, d.store_id, d.seq, d.subject, d.reason, d.payload, d.received_at',
  fields: {
    StoreId: text('d.store_id'),
    Seq: { spec: { type: 'int' }, sql: 'd.seq' },
    ReceivedAt: { spec: { type: 'datetime' }, sql: 'd.received_at' },
  },
  // CONTRACT §11: every top-level scalar field sorts (the rest are filters above).
  sorts: { id: 'd.id', subject: 'd.subject', reason: 'd.reason', payload: 'd.payload' },
};

export function listDeadLetters(pool: Pool, params: ListParams) {
  return runList(pool, DEAD_LETTERS, params, (r) => ({
    id: Number(r.id),
    storeId: r.store_id as string,
    seq: r.seq === null ? null : Number(r.seq),
    subject: r.subject as string,
    reason: r.reason as string,
    payload: r.payload as string,
    receivedAt: (r.received_at as Date).toISOString(),
  }));
}

export type GroupBy = 'store' | 'day' | 'plu';

/**
 * Closed tickets by closeDate in [from, to): per store, per calendar day (in `timeZone`) or per
 * plu. Sums in numeric: exact. Per store and day `total` is the tickets' totals; per plu it is the
 * items' totals (a ticket discount is not split over items), and `tickets` counts tickets holding it.
 */
export async function salesReport(pool: Pool, from: Date, to: Date, groupBy: GroupBy, timeZone: string) {
  const args: unknown[] = [from, to, timeZone];
  const closed = 'FROM tickets t WHERE t.is_closed AND NOT t.deleted AND t.close_date >= $1 AND t.close_date < $2';
  const signed = "(CASE WHEN i->>'type' = 'Negative' THEN -1 ELSE 1 END) * (i->>'quantity')::numeric";
  const items = `jsonb_array_elements(t.doc->'items') i`;
  const qty = `(SELECT COALESCE(sum(${signed}), 0) FROM ${items})`;
  let text: string;
  if (groupBy === 'plu') {
    text = `SELECT (i->'plu'->>'code')::bigint AS code, i->'plu'->>'stockName' AS stock_name, count(DISTINCT (t.store_id, t.key)) AS tickets,
              sum(${signed}) AS quantity, sum((i->'totalPrice'->>'amount')::numeric) AS total
            FROM tickets t CROSS JOIN LATERAL ${items}
            WHERE t.is_closed AND NOT t.deleted AND t.close_date >= $1 AND t.close_date < $2 AND $3::text IS NOT NULL
            GROUP BY 1, 2 ORDER BY 2, 1`;
  } else {
    const group = groupBy === 'store' ? 't.store_id' : `to_char(t.close_date AT TIME ZONE $3, 'YYYY-MM-DD')`;
    text = `SELECT ${group} AS g, count(*) AS tickets, sum(${qty}) AS quantity, sum(t.total) AS total ${closed} ${groupBy === 'store' ? 'AND $3::text IS NOT NULL' : ''}
            GROUP BY 1 ORDER BY 1`;
  }
  const rows = (await pool.query(text, args)).rows as Array<Record<string, string>>;
  let sum = 0n; // in ten-thousandths: the report's total, exact
  const out = rows.map((r) => {
    sum += scaled(r.total);
    const head = groupBy === 'plu' ? { plu: { code: Number(r.code), stockName: r.stock_name } } : groupBy === 'store' ? { storeId: r.g } : { day: r.g };
    return { ...head, tickets: Number(r.tickets), quantity: decimal(r.quantity), total: decimal(r.total) };
  });
  return { rows: out, total: decimal(unscaled(sum)) };
}

/** numeric text → ten-thousandths (amounts carry at most 4 decimals). */
function scaled(text: string | null): bigint {
  if (!text) return 0n;
  const [int, frac = ''] = text.split('.');
  const neg = int.startsWith('-');
  const v = BigInt(int.replace('-', '')) * 10000n + BigInt((frac + '0000').slice(0, 4));
  return neg ? -v : v;
}

function unscaled(v: bigint): string {
  const neg = v < 0n;
  const a = neg ? -v : v;
  const frac = String(a % 10000n).padStart(4, '0');
  return `${neg ? '-' : ''}${a / 10000n}.${frac}`;
}

/**
 * numeric text → a JSON number. Amounts here have at most 4 decimals and far fewer than 15
 * significant digits, which a double carries exactly: the number prints as the same decimal.
 */
function decimal(text: string | null): number {
  return text === null ? 0 : Number(text);
}
