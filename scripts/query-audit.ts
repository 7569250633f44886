/**
 * Which index each query of the sales tables uses, and how long it takes on a big store (issue 31's
 * index audit). The requests the registers, the kitchen displays and the manager's page make (and
 * the seed's list filters and sorts) are made on a small in-process hub, which records every SQL
 * statement they run on tickets, ticket_items, orders and changes; each statement is then explained
 * (EXPLAIN QUERY PLAN) and timed, with the parameters it was run with, on a copy of a big store.
 * A measurement, not a test (test/db/query-plans.test.ts holds the plans).
 *   npx tsx scripts/query-audit.ts --data-dir=<a copy of scripts/bench/.store-1000000> [--runs=3] [--json=FILE] [--only=<text>]
 * The store is opened read-only; migrate it first (start a hub on it once) when the schema changed.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { closeDb, forgetStatements, openDb } from '../db/client.js';
import { useCollation } from '../hub/engine/repo.js';
import { startHub } from '../test/support/hub.js';
import { expect2xx, item, register, restaurant } from '../test/tickets/fixture.js';

const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=');
const DATA_DIR = option('data-dir');
const RUNS = Number(option('runs') ?? 3);
const ONLY = option('only');
const JSON_OUT = option('json');
const WATCHED = /\b"?(tickets|ticket_items|orders|changes)"?\b/;
const say = (s: string) => process.stdout.write(`${s}\n`);

/** A request and who makes it (file, function), as the audit names it. */
interface Probe {
  /** Who asks: the page or module and what for. */
  who: string;
  path: string;
  /** A register's session (no TicketReadAll: its view of the sales), else the manager's (admin). */
  as?: 'register';
}

const day = '2026-05-30';
const dayRange = `ge:${day}T00:00:00Z;lt:${day}T23:59:59Z`;
const PROBES: Probe[] = [
  // The register (hub/web/register).
  { who: 'register till.ts loadOpen: the open tickets', path: '/api/tickets?IsClosed=false&$take=1000', as: 'register' },
  { who: 'register: the table plan, one table', path: '/api/tickets?IsClosed=false&LocationTableName=7', as: 'register' },
  { who: "register: its own day's closed tickets", path: `/api/tickets?IsClosed=true&DeviceName=Register1&CloseDate=${dayRange}`, as: 'register' },
  { who: 'register: its view, all', path: '/api/tickets', as: 'register' },
  { who: 'register Returns.tsx: closed today, newest first', path: `/api/tickets?IsClosed=true&CloseDate=ge:${day}T00:00:00Z&$sort=closeDate:desc&$take=50` },
  { who: 'register Returns.tsx: closed today at a table', path: `/api/tickets?IsClosed=true&CloseDate=ge:${day}T00:00:00Z&$sort=closeDate:desc&$take=50&LocationTableName=7` },
  { who: 'register Returns.tsx: returns of a ticket', path: '/api/tickets?ReturnOf=t0000042&$take=100' },
  { who: 'register till.ts: tickets by id', path: '/api/tickets?Id=in:t0000042,t0000043&$take=1000' },
  // The manager's page (hub/web/manager).
  { who: 'manager Tickets: all (by id)', path: '/api/tickets' },
  { who: 'manager Tickets: open', path: '/api/tickets?IsClosed=false' },
  { who: 'manager Tickets: closed', path: '/api/tickets?IsClosed=true' },
  { who: 'manager Tickets: a register', path: '/api/tickets?DeviceName=in:Register3' },
  { who: 'manager Tickets: a table', path: '/api/tickets?LocationTableName=7' },
  { who: 'manager Tickets: a waiter', path: '/api/tickets?EmployeeUserName=waiter3' },
  { who: 'manager Tickets: opened from/to', path: `/api/tickets?OpenDate=${dayRange}` },
  { who: 'manager Tickets: a card', path: '/api/tickets?CustomerCardSerialNumber=C000123' },
  { who: 'manager Tickets: sort by table', path: '/api/tickets?$sort=location.tableName' },
  { who: 'manager Tickets: open, sort by table', path: '/api/tickets?IsClosed=false&$sort=location.tableName' },
  { who: 'manager Tickets: closed, sort by table', path: '/api/tickets?IsClosed=true&$sort=location.tableName' },
  { who: 'manager Tickets: sort by opened', path: '/api/tickets?$sort=openDate:desc' },
  { who: 'manager Tickets: closed, sort by opened', path: '/api/tickets?IsClosed=true&$sort=openDate:desc' },
  { who: 'manager Tickets: sort by closed', path: '/api/tickets?$sort=closeDate:desc' },
  { who: 'manager Tickets: sort by waiter', path: '/api/tickets?$sort=employee.userName' },
  { who: 'manager Tickets: sort by receipt', path: '/api/tickets?$sort=closeInfo.number:desc' },
  { who: 'manager Today: closed today by close', path: `/api/tickets?IsClosed=true&CloseDate=${dayRange}&$sort=closeDate` },
  { who: 'manager Today: open by opened', path: '/api/tickets?IsClosed=false&$sort=openDate' },
  { who: "manager Customers: a customer's tickets", path: '/api/tickets?CustomerId=c000123&$sort=openDate:desc' },
  // The seed's other filters and sorts (backoffice-api.md, tickets).
  { who: 'seed: name sort of open tickets', path: '/api/tickets?IsClosed=false&$sort=name' },
  { who: 'seed: name sort of closed tickets', path: '/api/tickets?IsClosed=true&$sort=name' },
  { who: 'seed: ExternalId', path: '/api/tickets?ExternalId=x123' },
  { who: 'seed: CloseInfoFiscalName + Number', path: '/api/tickets?CloseInfoFiscalName=FP1&CloseInfoNumber=42' },
  { who: 'seed: CloseDate range', path: `/api/tickets?CloseDate=${dayRange}` },
  { who: 'seed: LocationZoneName', path: '/api/tickets?LocationZoneName=Terrace' },
  { who: 'seed: LocationZoneName, open', path: '/api/tickets?LocationZoneName=Terrace&IsClosed=false' },
  { who: 'seed: ItemPluCode', path: '/api/tickets?ItemPluCode=11' },
  { who: 'seed: ItemPluCode, open', path: '/api/tickets?ItemPluCode=11&IsClosed=false' },
  { who: 'seed: ItemPluStockName', path: '/api/tickets?ItemPluStockName=Menu' },
  { who: 'seed: DeviceName, closed, by close', path: '/api/tickets?DeviceName=Register3&IsClosed=true&$sort=closeDate:desc' },
  { who: '$count over all tickets', path: '/api/tickets?$count=true' },
  // Kitchen orders (hub/web/kds/feed.ts reload; the manager's ticket page; a register's view).
  { who: 'kds feed: active orders', path: '/api/orders?state=in:New,InProgress,Ready&$sort=createdAt&$take=1000' },
  { who: 'kds feed: active orders of its endpoints', path: '/api/orders?state=in:New,InProgress,Ready&orderEndpointName=in:Kitchen&$sort=createdAt&$take=1000' },
  { who: 'kds feed: active orders, a window', path: `/api/orders?state=in:New,InProgress,Ready&createdAt=ge:${day}T00:00:00Z&$sort=createdAt&$take=1000` },
  { who: 'kds feed: recent cancels', path: `/api/orders?kind=Cancel&createdAt=ge:${day}T00:00:00Z&$sort=createdAt&$take=1000` },
  { who: 'kds feed: recently served', path: `/api/orders?state=Served&kind=New&createdAt=ge:${day}T00:00:00Z&$sort=createdAt&$take=1000` },
  { who: 'kds feed: orders by id', path: '/api/orders?id=in:o1,o2&$take=1000' },
  { who: "manager ticket page: a ticket's orders", path: '/api/orders?ticketId=t0000042&$sort=createdAt' },
  { who: "register: a ticket's orders", path: '/api/orders?TicketId=t0000042', as: 'register' },
  // The change log (CONTRACT §9).
  { who: 'changes since (polling clients)', path: '/api/changes?since=1000000&$take=100' },
];

interface Seen {
  probe: Probe;
  sql: string;
  params: unknown[];
}

async function capture(): Promise<Seen[]> {
  const hub = await startHub();
  const seen: Seen[] = [];
  try {
    await restaurant(hub);
    const cashier = await register(hub);
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 1), item(3, 1)], location: { tableName: '7' } }, { token: cashier.token }));
    await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 100 }] }, { token: cashier.token }));
    const client = hub.db.$client;
    const prepare = client.prepare;
    let current: Probe | undefined;
    client.prepare = function (this: typeof client, source: string) {
      const stmt = prepare.call(this, source);
      if (!WATCHED.test(source) || /^\s*INSERT/i.test(source)) return stmt;
      return new Proxy(stmt, {
        get(target, prop) {
          const value = Reflect.get(target, prop, target);
          if ((prop === 'all' || prop === 'get' || prop === 'run' || prop === 'iterate') && typeof value === 'function') {
            return (...params: unknown[]) => {
              if (current) seen.push({ probe: current, sql: source, params });
              return value.apply(target, params);
            };
          }
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    } as typeof client.prepare;
    forgetStatements(hub.db);
    for (const probe of PROBES) {
      if (ONLY && !probe.who.includes(ONLY) && !probe.path.includes(ONLY)) continue;
      current = probe;
      const r = await hub.call('GET', probe.path, undefined, probe.as === 'register' ? { token: cashier.token } : {});
      if (r.status !== 200) throw new Error(`${probe.path}: ${r.status} ${JSON.stringify(r.body)}`);
      current = undefined;
    }
    client.prepare = prepare;
    forgetStatements(hub.db);
  } finally {
    await hub.close();
  }
  return seen;
}

async function main(): Promise<void> {
  if (!DATA_DIR) throw new Error('--data-dir=<a copy of a big store> is required');
  const seen = await capture();
  const db = openDb(join(resolve(DATA_DIR), 'hub.sqlite'), { readonly: true });
  useCollation(db, 'en');
  const client = db.$client;
  const out: Array<{ who: string; path: string; sql: string; plan: string[]; ms: number }> = [];
  try {
    for (const { probe, sql, params } of seen) {
      // Statements the hub runs once per request whatever it asks (the session, the count's position) are shown once.
      if (out.some((o) => o.sql === sql && o.path === probe.path)) continue;
      const plan = (client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail);
      const stmt = client.prepare(sql);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        if (stmt.reader) stmt.all(...params);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const ms = Math.round(times[times.length >> 1] * 10) / 10;
      out.push({ who: probe.who, path: probe.path, sql: sql.replace(/\s+/g, ' '), plan, ms });
    }
  } finally {
    closeDb(db);
  }
  let last = '';
  for (const o of out) {
    if (o.path !== last) say(`\n${o.who}: GET ${o.path}`);
    last = o.path;
    say(`  ${String(o.ms).padStart(8)} ms  ${o.sql.length > 160 ? `${o.sql.slice(0, 157)}...` : o.sql}`);
    for (const step of o.plan) say(`               ${step}`);
  }
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(out, null, 2));
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
