/**
 * A cashier's day against the real process (`npm start`): the admin sets the shop up, a cashier
 * logs in on a register, serves table 5 (kitchen orders appear), gives a discount, takes a card
 * payment, closes on the simulator fiscal device and finds the ticket among the register's closed ones.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN_PASSWORD = 'e2e-admin-password';

let child: ChildProcess | undefined;
let exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
let output = '';
let dataDir: string;
let url: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function call(method: string, path: string, body?: unknown, token?: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const h: Record<string, string> = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  if (body !== undefined) h['content-type'] = 'application/json';
  const res = await fetch(url + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function ok(method: string, path: string, body: unknown, token: string, status = 201): Promise<any> {
  const r = await call(method, path, body, token);
  if (r.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function login(userName: string, password: string, deviceName: string): Promise<string> {
  const r = await call('POST', '/api/auth', { userName, password, deviceName });
  if (r.status !== 200) throw new Error(`login ${userName}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.tokenId;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'poshub-e2e-day-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('POS_HUB_')));
  child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      ...env,
      POS_HUB_PORT: String(port),
      POS_HUB_HOST: '127.0.0.1',
      POS_HUB_DATA_DIR: join(dataDir, 'data'),
      POS_HUB_MDNS: '0',
      POS_HUB_ADMIN_PASSWORD: ADMIN_PASSWORD,
      POS_HUB_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: npm may leave before the hub under it, so the group is what is stopped.
    detached: true,
  });
  child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  exit = new Promise((resolve) => child!.once('exit', (code, signal) => resolve({ code, signal })));
  let exited = false;
  void exit.then(() => (exited = true));
  const until = Date.now() + 45_000;
  while (!exited && Date.now() < until) {
    try {
      if ((await fetch(`${url}/api/health`)).status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the hub did not answer /api/health:\n${output}`);
}, 60_000);

afterAll(async () => {
  if (child?.pid) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a cashier's day", () => {
  it('sets up, serves table 5, pays by card, closes and finds the ticket', async () => {
    const admin = await login('admin', ADMIN_PASSWORD, 'BackOffice');

    // The back office sets the shop up.
    const kitchenPort = await freePort(); // nothing listens there: orders wait in the print queue
    await ok('POST', '/api/stocks', { name: 'Menu' }, admin);
    await ok('POST', '/api/orderendpoints', { name: 'Kitchen', type: 'TM88', address: `tcp://127.0.0.1:${kitchenPort}` }, admin);
    const plu = (code: number, name: string, amount: number, orderEndpointNames: string[]) =>
      ok('POST', '/api/plus', { code, stockName: 'Menu', name, type: 'Service', unitPrice: { amount }, vatInfo: { category: 1, rate: 20 }, orderEndpointNames }, admin);
    await plu(1, 'Gulyás', 6.9, ['Kitchen']);
    await plu(2, 'Palacinky', 3.5, ['Kitchen']);
    await plu(3, 'Pivo', 2.2, []);
    await ok('POST', '/api/fiscaldevices', { name: 'FP1', driver: 'simulator', address: 'sim:fp1' }, admin);
    await ok('POST', '/api/paymenttypes', { number: 2, name: 'Card', category: 'CreditCard', isChangeable: false }, admin);
    await ok('POST', '/api/devices', { name: 'Register1', envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1' } }, admin);
    await ok(
      'POST',
      '/api/users',
      {
        userName: 'jana',
        name: 'Jana Kováčová',
        password: 'jana-secret',
        rights: ['TicketCreate', 'TicketUpdate', 'TicketRename', 'TicketSetDiscount', 'TicketClose', 'TicketPrintPreliminary'],
      },
      admin,
    );

    // The cashier opens table 5.
    const jana = await login('jana', 'jana-secret', 'Register1');
    let ticket = await ok('POST', '/api/tickets', { name: 'Table 5', location: { tableName: '5', zoneName: 'Hall' }, items: [{ plu: { code: 1, stockName: 'Menu' }, quantity: 2 }] }, jana);
    expect(ticket).toMatchObject({ state: 'Opened', originDeviceName: 'Register1', employee: { userName: 'jana' }, totalPrice: { amount: 13.8 } });

    // More dishes and drinks.
    ticket = await ok(
      'PUT',
      `/api/tickets/${ticket.id}`,
      { ...ticket, items: [...ticket.items, { plu: { code: 2, stockName: 'Menu' }, quantity: 1 }, { plu: { code: 3, stockName: 'Menu' }, quantity: 2 }] },
      jana,
      200,
    );
    expect(ticket.totalPrice.amount).toBe(21.7);
    const orders = await call('GET', `/api/orders?ticketId=${ticket.id}&orderEndpointName=Kitchen`, undefined, jana);
    expect(orders.status).toBe(200);
    const ordered = orders.body.items.flatMap((o: any) => o.items.map((i: any) => [o.kind, i.name, i.quantity]));
    expect(ordered).toEqual(expect.arrayContaining([['New', 'Gulyás', 2], ['New', 'Palacinky', 1]]));
    expect(ordered).toHaveLength(2);

    // A 10 % discount for a regular guest: 21.70 × 0.9 = 19.53.
    ticket = await ok('PUT', `/api/tickets/${ticket.id}`, { ...ticket, discountRate: 10 }, jana, 200);
    expect(ticket.totalPrice.amount).toBe(19.53);

    // The guest pays the exact amount by card.
    const close = await call('POST', `/api/tickets/${ticket.id}/close`, { payments: [{ paymentTypeNumber: 2, amount: 19.53 }] }, jana, {
      'idempotency-key': `close-${ticket.id}`,
    });
    expect(close.status).toBe(200);
    expect(close.body).toMatchObject({
      state: 'Closed',
      payments: [{ paymentTypeNumber: 2, amount: 19.53 }],
      closeInfo: { deviceName: 'Register1', fiscalName: 'FP1', number: 1, dailySalesReportNumber: 1 },
    });

    // The register lists its closed tickets.
    const closed = await call('GET', '/api/tickets?IsClosed=true&DeviceName=Register1', undefined, jana);
    expect(closed.status).toBe(200);
    expect(closed.body.items.map((t: any) => [t.id, t.name, t.totalPrice.amount])).toEqual([[ticket.id, 'Table 5', 19.53]]);
    const open = await call('GET', '/api/tickets?IsClosed=false&DeviceName=Register1', undefined, jana);
    expect(open.body.totalCount).toBe(0);

    // Closing time.
    child!.kill('SIGTERM');
    const result = await Promise.race([exit, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no exit within 10 s:\n${output}`)), 10_000))]);
    expect(result).toEqual({ code: 0, signal: null });
  }, 60_000);
});
