/** A small restaurant for ticket tests: a register, a kitchen printer, plus, a simulator fiscal device. */
import type { TestHub } from '../support/hub.js';

export const ALL_TICKET_RIGHTS = [
  'TicketCreate', 'TicketUpdate', 'TicketUpdateAny', 'TicketRename', 'TicketSetDiscount', 'TicketSetCustomer',
  'TicketHandover', 'TicketTakeover', 'TicketDelete', 'TicketClose', 'TicketPrintPreliminary', 'Storno', 'TicketSetPrice',
];

/** Registers made per hub: numbered from 1 in each hub, whatever other files ran in the same worker before. */
const registersMade = new WeakMap<TestHub, number>();

export async function expect2xx(p: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await p;
  if (r.status >= 300) throw new Error(`expected 2xx, got ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function restaurant(hub: TestHub): Promise<void> {
  await expect2xx(hub.call('POST', '/api/stocks', { name: 'Menu' }));
  await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Kitchen', type: 'TM88', address: 'tcp://127.0.0.1:9' }));
  await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Bar', type: 'Generic', address: 'tcp://127.0.0.1:9' }));
  await expect2xx(hub.call('POST', '/api/fiscaldevices', { name: 'FP1', driver: 'simulator', address: 'sim:fp1' }));
  await expect2xx(hub.call('POST', '/api/paymenttypes', { number: 2, name: 'Card', category: 'CreditCard', isChangeable: false }));
  const plus = [
    { code: 1, name: 'Gulyás', unitPrice: { amount: 6.9 }, orderEndpointNames: ['Kitchen'] },
    { code: 2, name: 'Šopský šalát', unitPrice: { amount: 4.5 }, orderEndpointNames: ['Kitchen'] },
    { code: 3, name: 'Pivo', unitPrice: { amount: 2.2 }, orderEndpointNames: ['Bar'] },
    { code: 4, name: 'Voda', unitPrice: { amount: 0.1 }, orderEndpointNames: [] },
    { code: 5, name: 'Čaj', unitPrice: { amount: 0.2 }, orderEndpointNames: [] },
  ];
  for (const p of plus) {
    await expect2xx(hub.call('POST', '/api/plus', { ...p, stockName: 'Menu', type: 'Service', vatInfo: { category: 1, rate: 20 } }));
  }
}

/** A CashRegister device with default fiscal device and printer, and a user with `rights` logged in on it. */
export async function register(hub: TestHub, rights: string[] = ALL_TICKET_RIGHTS): Promise<{ token: string; device: string; userName: string }> {
  const registers = (registersMade.get(hub) ?? 0) + 1;
  registersMade.set(hub, registers);
  const device = `Register${registers}`;
  await expect2xx(
    hub.call('POST', '/api/devices', { name: device, envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1', DefaultOrderEndpointName: 'Bar' } }),
  );
  const userName = `cashier${registers}`;
  await expect2xx(hub.call('POST', '/api/users', { userName, name: `Cashier ${registers}`, password: 'pw', rights }));
  const token = await hub.login(userName, 'pw', device);
  return { token, device, userName };
}

export const item = (code: number, quantity: number, extra: Record<string, unknown> = {}) => ({
  plu: { code, stockName: 'Menu' },
  quantity,
  ...extra,
});
