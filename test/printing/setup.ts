/** A kitchen for print queue tests: fake printers as order endpoints, dishes for each, a register. */
import type { SyncFd } from '../../db/durability.js';
import type { PrintingOptions } from '../../hub/printing/service.js';
import { FakeEscPosPrinter } from '../support/fake-escpos-printer.js';
import { startHub, type TestHub } from '../support/hub.js';

/** Short deadlines and backoffs: a fault and its recovery take tens of milliseconds, not seconds. */
export const FAST_PRINTING: PrintingOptions = {
  printer: { channel: { connectTimeoutMs: 500, writeTimeoutMs: 1000, closeTimeoutMs: 200 }, backoff: { initialMs: 20, maxMs: 100, factor: 2 }, statusTimeoutMs: 300, confirmTimeoutMs: 2000, stallPollMs: 30 },
  backoff: { initialMs: 20, maxMs: 100, factor: 2 },
  pollMs: 50,
  stopGraceMs: 500,
};

export async function ok<T = any>(p: Promise<{ status: number; body: T }>): Promise<T> {
  const r = await p;
  if (r.status >= 300) throw new Error(`expected 2xx, got ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

export interface Kitchen {
  hub: TestHub;
  token: string;
  /** The plu code that orders to each printer, by endpoint name. */
  plu: Record<string, number>;
}

/**
 * Endpoints named after `printers` (of `type`, TM88 by default, at each fake printer's address), one
 * dish per endpoint, and a waiter on a CashRegister device. `dataDir` keeps the database for a restart
 * (the caller removes it); `workers: false` leaves printing to a PrintService the test builds itself.
 */
export async function kitchen(
  printers: Record<string, FakeEscPosPrinter>,
  opts: { dataDir?: string; settings?: Record<string, string>; workers?: boolean; syncFd?: SyncFd; type?: string; locale?: 'en' | 'sk' | 'cs' } = {},
): Promise<Kitchen> {
  const hub = await startHub({ printing: opts.workers === false ? undefined : FAST_PRINTING, dataDir: opts.dataDir, syncFd: opts.syncFd, locale: opts.locale });
  const names = Object.keys(printers);
  const plu = Object.fromEntries(names.map((n, i) => [n, i + 1]));
  {
    await ok(hub.call('POST', '/api/stocks', { name: 'Menu' }));
    for (const [name, p] of Object.entries(printers)) {
      await ok(hub.call('POST', '/api/orderendpoints', { name, type: opts.type ?? 'TM88', address: p.address, settings: opts.settings ?? {} }));
      await ok(hub.call('POST', '/api/plus', { code: plu[name], stockName: 'Menu', name: `Šopský šalát ${plu[name]}`, type: 'Service', unitPrice: { amount: 4.5 }, vatInfo: { category: 1, rate: 20 }, orderEndpointNames: [name] }));
    }
    await ok(hub.call('POST', '/api/devices', { name: 'Till', envName: 'CashRegister' }));
    await ok(hub.call('POST', '/api/users', { userName: 'jana', name: 'Jana Kováčová', password: 'pw', rights: ['TicketCreate', 'TicketUpdate', 'TicketPrintPreliminary', 'Storno', 'OrderProcess'] }));
  }
  const token = await hub.login('jana', 'pw', 'Till');
  return { hub, token, plu };
}

/** Opens a ticket named `name` with one dish for each endpoint in `to`. */
export function order(k: Kitchen, name: string, to: string[], quantity = 1) {
  return ok(k.hub.call('POST', '/api/tickets', { name, location: { tableName: '5', zoneName: 'Terasa' }, items: to.map((e) => ({ plu: { code: k.plu[e], stockName: 'Menu' }, quantity })) }, { token: k.token }));
}

export async function ordersOf(k: Kitchen, ticketId: string): Promise<any[]> {
  return (await ok(k.hub.call('GET', `/api/orders?ticketId=${ticketId}`))).items;
}

export { until } from '../support/wait.js';

/** Lines of the cut tickets with a line ending in `needle`. */
export const ticketsWith = (p: FakeEscPosPrinter, needle: string) => p.cutTickets().filter((t) => t.some((l) => l.endsWith(needle)));
