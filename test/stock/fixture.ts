/** Helpers shared by the stock tests: plus and stocks, transfers, quantities, problem assertions. */
import { expect } from 'vitest';
import type { Reply, TestHub } from '../support/hub.js';

export async function ok(p: Promise<Reply>): Promise<any> {
  const r = await p;
  if (r.status >= 300) throw new Error(`expected 2xx, got ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function stock(hub: TestHub, ...names: string[]): Promise<void> {
  for (const name of names) await ok(hub.call('POST', '/api/stocks', { name }));
}

export async function plu(hub: TestHub, stockName: string, code: number, type = 'StockItem', extra: Record<string, unknown> = {}): Promise<any> {
  return ok(hub.call('POST', '/api/plus', { code, stockName, name: `${type} ${code}`, type, ...extra }));
}

/** The stored stockQuantity of one plu, read through the list as a register would. */
export async function qty(hub: TestHub, stockName: string, code: number): Promise<number> {
  const r = await hub.call('GET', `/api/plus?stockName=${encodeURIComponent(stockName)}&code=${code}`);
  expect(r.body.items).toHaveLength(1);
  return r.body.items[0].stockQuantity;
}

export function post(hub: TestHub, body: Record<string, unknown>, token?: string | null): Promise<Reply> {
  return hub.call('POST', '/api/stocktransfers', body, token === undefined ? {} : { token });
}

export const items = (...pairs: Array<[number, number]>) => pairs.map(([code, quantity]) => ({ plu: { code }, quantity }));

/** A problem+json reply with this status and errorCode, naming `memberName` (with `code`) when given. */
export function expectProblem(r: Reply, status: number, errorCode: number, memberName?: string, code?: string): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/application\/problem\+json/);
  expect(r.body.errorCode).toBe(errorCode);
  if (memberName !== undefined) {
    const member = (r.body.errors ?? []).find((e: any) => e.memberName === memberName);
    expect(member, `no error for ${memberName}: ${JSON.stringify(r.body)}`).toBeDefined();
    if (code !== undefined) expect(member.code).toBe(code);
  }
}

/** Ids of a list reply, sorted. */
export async function ids(hub: TestHub, path: string): Promise<string[]> {
  const r = await hub.call('GET', path);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body.items as any[]).map((x) => String(x.id)).sort();
}

let tills = 0;

/**
 * A CashRegister device whose default fiscal device is a simulator, and a cashier logged in on it
 * with the rights to open and close tickets (Storno too: some close returns). Returns the cashier's token.
 */
export async function till(hub: TestHub): Promise<string> {
  const n = ++tills;
  const fiscal = `SIM${n}`;
  await ok(hub.call('POST', '/api/fiscaldevices', { name: fiscal, driver: 'simulator', address: `sim:${fiscal}` }));
  await ok(hub.call('POST', '/api/devices', { name: `Till${n}`, envName: 'CashRegister', settings: { DefaultFiscalName: fiscal } }));
  await ok(hub.call('POST', '/api/users', { userName: `cashier${n}`, password: 'pw', rights: ['TicketCreate', 'TicketUpdate', 'TicketClose', 'Storno'] }));
  return hub.login(`cashier${n}`, 'pw', `Till${n}`);
}

export interface SoldItem {
  code: number;
  stockName: string;
  quantity: number;
  type?: 'Positive' | 'Negative';
}

/** Opens a ticket with these items and closes it paid in cash, exactly; returns the closed ticket. */
export async function sell(hub: TestHub, token: string, sold: SoldItem[]): Promise<any> {
  const ticket = await ok(
    hub.call('POST', '/api/tickets', { items: sold.map((s) => ({ plu: { code: s.code, stockName: s.stockName }, quantity: s.quantity, type: s.type ?? 'Positive' })) }, { token }),
  );
  // Exactly the total: no change to give, and a refund (a negative total) is paid out in cash.
  const amount = ticket.totalPrice.amount;
  const closed = await ok(hub.call('POST', `/api/tickets/${ticket.id}/close`, { payments: [{ paymentTypeNumber: 1, amount }] }, { token }));
  expect(closed.state).toBe('Closed');
  return closed;
}
