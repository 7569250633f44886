/**
 * Issue 7, end to end against the real process: a second process finds the hub by mDNS (loopback
 * only; skipped with a message where multicast is unavailable), follows its events, and sees a
 * ticket written by a third client within a second; a POST /api/tickets cut mid-request and retried
 * with its Idempotency-Key leaves exactly one ticket.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchHubs, type DiscoveredHub } from '../../drivers/mdns.js';
import { multicastOrSkip } from '../support/multicast.js';
import { untilTrue } from '../support/wait.js';
import { E2E_ADMIN_PASSWORD, ROOT, startHubProcess, type HubProcess } from '../support/process.js';
import { SseClient } from '../support/sse.js';

let hub: HubProcess;
let admin: string;
let cashier: string;

beforeAll(async () => {
  hub = await startHubProcess({ POS_HUB_MDNS: '1', POS_HUB_MDNS_INTERFACE: '127.0.0.1', POS_HUB_SHOP_NAME: 'Bistro Sync' });
  admin = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
  const ok = async (p: Promise<{ status: number; body: any }>) => {
    const r = await p;
    if (r.status >= 300) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  };
  await ok(hub.call('POST', '/api/stocks', { name: 'Menu' }, { token: admin }));
  await ok(hub.call('POST', '/api/plus', { code: 1, stockName: 'Menu', name: 'Gulyás', type: 'Service', unitPrice: { amount: 6.9 } }, { token: admin }));
  await ok(hub.call('POST', '/api/devices', { name: 'Till', envName: 'CashRegister' }, { token: admin }));
  await ok(hub.call('POST', '/api/users', { userName: 'eva', password: 'pw', rights: ['TicketCreate', 'TicketUpdate'] }, { token: admin }));
  cashier = await hub.login('eva', 'pw', 'Till');
}, 90_000);

afterAll(async () => {
  const { code } = await hub.stop();
  expect(code).toBe(0);
});

describe('registers find the hub and stay in sync', () => {
  it('is discovered over mDNS by another process (npm run discover)', async (ctx) => {
    await multicastOrSkip(ctx);
    const out = await new Promise<string>((resolve) => {
      let text = '';
      const child = spawn('npm', ['run', '--silent', 'discover', '--', '--timeout=2500', '--interface=127.0.0.1'], { cwd: ROOT });
      child.stdout.on('data', (c: Buffer) => (text += c.toString()));
      child.stderr.on('data', (c: Buffer) => (text += c.toString()));
      child.on('exit', () => resolve(text));
    });
    expect(out).toContain('Bistro Sync (');
    expect(out).toContain('/api');
    expect(out).toMatch(new RegExp(`:${hub.port}/api`));
  }, 30_000);

  it('is discovered under a shop name too long for one DNS label, shortened to fit with its id', async (ctx) => {
    await multicastOrSkip(ctx);
    const shop = 'Reštaurácia U Zlatého Kohúta, Bratislava – Staré Mesto, Hlavné námestie 1';
    const found: DiscoveredHub[] = [];
    const stopWatching = watchHubs({ interface: '127.0.0.1', onUp: (h) => found.push(h) });
    const long = await startHubProcess({ POS_HUB_MDNS: '1', POS_HUB_MDNS_INTERFACE: '127.0.0.1', POS_HUB_SHOP_NAME: shop });
    try {
      await untilTrue(() => found.some((h) => h.port === long.port), { ms: 10_000, what: 'the announcement of the hub with a long shop name' });
      const hub = found.find((h) => h.port === long.port)!;
      expect(Buffer.byteLength(hub.name)).toBeLessThanOrEqual(63);
      expect(hub.name).toMatch(/^Reštaurácia U Zlatého Kohúta.* \([0-9a-f]+\)$/);
      expect(hub.txt).toMatchObject({ api: '/api' });
    } finally {
      stopWatching();
      expect((await long.stop()).code).toBe(0);
    }
  }, 60_000);

  it('streams a ticket written by another client', async () => {
    const sse = new SseClient(`${hub.url}/api/events`, { authorization: `Bearer ${admin}` });
    await sse.waitFor(() => sse.status === 200, 5000);
    const r = await hub.call('POST', '/api/tickets', { name: 'Table 5', items: [{ plu: { code: 1, stockName: 'Menu' }, quantity: 1 }] }, { token: cashier });
    expect(r.status).toBe(201);
    await sse.waitFor((evs) => evs.some((e) => e.event === 'tickets' && JSON.parse(e.data).key === r.body.id), 20_000);
    sse.close();
  });

  it('a POST cut mid-request and retried with its Idempotency-Key makes exactly one ticket', async () => {
    const body = JSON.stringify({ name: 'Retry table', items: [{ plu: { code: 1, stockName: 'Menu' }, quantity: 2 }] });
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${cashier}`, 'idempotency-key': 'till-0001', 'content-length': Buffer.byteLength(body) };
    // The register sends the whole request, then its Wi-Fi drops before the answer arrives.
    await new Promise<void>((resolve) => {
      const req = request(`${hub.url}/api/tickets`, { method: 'POST', headers });
      req.on('error', () => resolve());
      req.on('response', (res) => {
        res.destroy();
        resolve();
      });
      req.end(body, () => setTimeout(() => req.destroy(), 1));
    });
    const retry = await hub.call('POST', '/api/tickets', JSON.parse(body), { token: cashier, headers: { 'idempotency-key': 'till-0001' } });
    expect(retry.status).toBe(201);
    const list = await hub.call('GET', '/api/tickets?Name=Retry%20table', undefined, { token: cashier });
    expect(list.body.totalCount).toBe(1);
    expect(list.body.items[0].id).toBe(retry.body.id);
  });
});
