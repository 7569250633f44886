/**
 * Kitchen printing against the real process (`npm start`): a ticket written on a register appears
 * as a kitchen order on the fake printer (how fast: `npm run bench`, scripts/bench-printing.ts, not a
 * test, which would flake under load); with the printer out of paper the next
 * order waits and the API says so; refilled, it prints exactly once; the hub then stops cleanly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeEscPosPrinter } from '../support/fake-escpos-printer.js';
import { E2E_ADMIN_PASSWORD, startHubProcess, type HubProcess } from '../support/process.js';
import { until as waitUntil } from '../support/wait.js';

let hub: HubProcess;
let printer: FakeEscPosPrinter;
let admin: string;
let waiter: string;

async function ok(method: string, path: string, body: unknown, token: string): Promise<any> {
  const r = await hub.call(method, path, body, { token });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const until = <T>(fn: () => Promise<T>, cond: (v: T) => boolean, ms: number): Promise<T> => waitUntil(fn, cond, { ms, every: 20, context: () => hub.output() });

const orderOf = async (ticketId: string) => (await ok('GET', `/api/orders?ticketId=${ticketId}`, undefined, admin)).items[0];

beforeAll(async () => {
  printer = await FakeEscPosPrinter.start();
  hub = await startHubProcess();
  admin = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
  await ok('POST', '/api/stocks', { name: 'Menu' }, admin);
  await ok('POST', '/api/orderendpoints', { name: 'Kuchyňa', type: 'TM88', address: printer.address, settings: { IsBeepEnabled: 'true' } }, admin);
  const dish = (code: number, name: string) =>
    ok('POST', '/api/plus', { code, stockName: 'Menu', name, type: 'Service', unitPrice: { amount: 5 }, vatInfo: { category: 1, rate: 20 }, orderEndpointNames: ['Kuchyňa'] }, admin);
  await dish(1, 'Šopský šalát');
  await dish(2, 'Kuřecí řízek');
  await dish(3, 'Żurek');
  await dish(4, 'Gulyás');
  await ok('POST', '/api/devices', { name: 'Register 1', envName: 'CashRegister' }, admin);
  await ok('POST', '/api/users', { userName: 'jana', name: 'Jana', password: 'jana-pw', rights: ['TicketCreate', 'TicketUpdate'] }, admin);
  waiter = await hub.login('jana', 'jana-pw', 'Register 1');
}, 90_000);

afterAll(async () => {
  await hub?.stop();
  await printer?.close();
});

describe('kitchen printing on the real hub', () => {
  it('prints a ticket as a kitchen order, Central-European names intact, with one beep', async () => {
    const t = await ok('POST', '/api/tickets', { name: 'Stôl 5', location: { tableName: '5', zoneName: 'Terasa' }, items: [1, 2, 3, 4].map((code) => ({ plu: { code, stockName: 'Menu' }, quantity: code === 4 ? 2 : 1 })) }, waiter);
    expect((await until(() => orderOf(t.id), (o) => o.print.state === 'Printed', 20_000)).print.attempts).toBe(1);
    // The beep follows the cut in the job's bytes: wait for it before counting (once only).
    await printer.waitFor(() => printer.cutTickets().length === 1 && printer.tickets[0].beeps > 0, 20_000);
    const [ticket] = printer.cutTickets();
    expect(ticket).toEqual(expect.arrayContaining(['Kuchyňa', '1 x Šopský šalát', '1 x Kuřecí řízek', '1 x Żurek', '2 x Gulyás']));
    expect(printer.tickets[0].beeps).toBe(1);
  });

  it('with the printer out of paper the order waits, visibly; refilled, it prints exactly once', async () => {
    printer.setPaperOut(true);
    const t = await ok('POST', '/api/tickets', { name: 'Stôl 7', items: [{ plu: { code: 4, stockName: 'Menu' }, quantity: 3 }] }, waiter);
    const waiting = await until(() => orderOf(t.id), (o) => o.print.state === 'Waiting', 3000);
    expect(waiting.print).toMatchObject({ attempts: 0, lastError: expect.stringMatching(/^PAPER_OUT/) });
    expect(await ok('GET', '/api/orderendpoints/Kuchy%C5%88a/status', undefined, waiter)).toMatchObject({ online: false, paper: 'out', queueDepth: 1 });
    const health = (await hub.call('GET', '/api/health', undefined, { token: waiter })).body;
    expect(health.printers[0]).toMatchObject({ name: 'Kuchyňa', status: { paper: 'out' }, queueDepth: 1 });
    expect(printer.cutTickets()).toHaveLength(1);

    printer.setPaperOut(false);
    await until(() => orderOf(t.id), (o) => o.print.state === 'Printed', 8000);
    await new Promise((r) => setTimeout(r, 300));
    const tickets = printer.cutTickets();
    expect(tickets).toHaveLength(2);
    expect(tickets[1]).toContain('3 x Gulyás');
    expect(tickets[1].some((l) => l.includes('REPRINT'))).toBe(false);
  });

  it('stops cleanly with its printer workers on SIGTERM', async () => {
    expect(await hub.stop()).toEqual({ code: 0, signal: null });
  });
});
