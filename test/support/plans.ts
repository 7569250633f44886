/** EXPLAIN QUERY PLAN of what a request really ran: for tests that a query stays on its index. */
import { expect } from 'vitest';
import { forgetStatements } from '../../db/client.js';
import type { TestHub } from './hub.js';

/** A request: a GET of a path, or any call. */
type Request = string | { method: string; path: string; body?: unknown; token?: string };

/**
 * Runs the request on the hub and answers the plan of every SELECT it ran on `table` (with the
 * parameters it bound), so a test can hold a request's queries to their index.
 */
export async function plansOf(hub: TestHub, request: Request, table: string): Promise<Array<{ sql: string; plan: string[] }>> {
  const { method, path, body, token } = typeof request === 'string' ? { method: 'GET', path: request } : request;
  const client = hub.db.$client;
  const seen: Array<{ sql: string; params: unknown[] }> = [];
  const prepare = client.prepare;
  client.prepare = function (this: typeof client, source: string) {
    const stmt = prepare.call(this, source);
    if (!new RegExp(`FROM "?${table}"?\\b`).test(source) || /^\s*(INSERT|UPDATE|DELETE)/i.test(source)) return stmt;
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
  // Kept statements are prepared again through the watcher, and the watched ones are not kept after.
  forgetStatements(hub.db);
  try {
    const r = await hub.call(method, path, body, { token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  } finally {
    client.prepare = prepare;
    forgetStatements(hub.db);
  }
  return seen.map(({ sql, params }) => ({
    sql,
    plan: (client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((row) => row.detail),
  }));
}
