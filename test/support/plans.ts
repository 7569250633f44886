/** EXPLAIN QUERY PLAN of what a request really ran: for tests that a query stays on its index. */
import { expect } from 'vitest';
import type { TestHub } from './hub.js';

/**
 * Runs `GET path` on the hub and answers the plan of every SELECT it ran on `table` (with the
 * parameters it bound), so a test can hold a list's queries to their index.
 */
export async function plansOf(hub: TestHub, path: string, table: string): Promise<Array<{ sql: string; plan: string[] }>> {
  const client = hub.db.$client;
  const seen: Array<{ sql: string; params: unknown[] }> = [];
  const prepare = client.prepare;
  client.prepare = function (this: typeof client, source: string) {
    const stmt = prepare.call(this, source);
    if (!source.includes(`FROM "${table}"`) || /^\s*(INSERT|UPDATE|DELETE)/i.test(source)) return stmt;
    return new Proxy(stmt, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if ((prop === 'all' || prop === 'get') && typeof value === 'function') {
          return (...params: unknown[]) => {
            seen.push({ sql: source, params });
            return value.apply(target, params);
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  } as typeof client.prepare;
  try {
    const r = await hub.call('GET', path);
    expect(r.status).toBe(200);
  } finally {
    client.prepare = prepare;
  }
  return seen.map(({ sql, params }) => ({
    sql,
    plan: (client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((row) => row.detail),
  }));
}
