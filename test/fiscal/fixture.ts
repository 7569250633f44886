/** A restaurant whose receipts go to a Datecs printer: the byte-level simulator on 127.0.0.1. */
import { sql } from 'drizzle-orm';
import type { VariantName } from '../../drivers/fiscal/datecs/commands.js';
import { FakeDatecsDevice } from '../support/fake-datecs-device.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { untilTrue } from '../support/wait.js';

/** Short link timings so a silent printer costs a fraction of a second, not seconds. */
export const FAST_SETTINGS = { FrameTimeoutMs: '40', Retries: '3', BusyTimeoutMs: '2000', ReconnectMaxMs: '40' };

export async function datecsDevice(hub: TestHub, name: string, sim: FakeDatecsDevice, settings: Record<string, string> = FAST_SETTINGS): Promise<void> {
  await expect2xx(hub.call('POST', '/api/fiscaldevices', { name, driver: 'datecs', address: sim.address, settings }));
}

export interface DatecsRestaurant {
  sim: FakeDatecsDevice;
  cashier: Awaited<ReturnType<typeof register>>;
  open(items?: unknown[]): Promise<any>;
  close(id: string, extra?: Record<string, unknown>): Promise<{ status: number; headers: Headers; body: any }>;
  ticket(id: string): Promise<any>;
  device(): Promise<any>;
  /** The fiscal receipts the printer issued for ticket `id`. */
  receiptsOf(id: string): FakeDatecsDevice['memory']['receipts'];
}

/** The tickets fixture's restaurant, plus fiscal device `DT1` (datecs) on a fresh fake printer of `variant` (found by the driver from its model name). */
export async function datecsRestaurant(hub: TestHub, settings?: Record<string, string>, variant: VariantName = 'C'): Promise<DatecsRestaurant> {
  await restaurant(hub);
  const sim = new FakeDatecsDevice({ clock: () => hub.clock.now(), variant });
  await sim.listen();
  await datecsDevice(hub, 'DT1', sim, settings);
  const cashier = await register(hub);
  return {
    sim,
    cashier,
    open: (items = [item(1, 2), item(3, 1)]) => expect2xx(hub.call('POST', '/api/tickets', { items }, { token: cashier.token })),
    close: (id, extra = {}) => hub.call('POST', `/api/tickets/${id}/close`, { fiscalName: 'DT1', payments: [{ paymentTypeNumber: 1, amount: 20 }], ...extra }, { token: cashier.token }),
    ticket: async (id) => (await hub.call('GET', `/api/tickets/${id}`)).body,
    device: async () => (await hub.call('GET', '/api/fiscaldevices/DT1')).body,
    receiptsOf: (id) => sim.memory.receipts.filter((r) => r.texts.join('').includes(`Ticket ${id}`)),
  };
}

/** A test hub with the Datecs restaurant; `stop` closes the device links, the simulator and the hub. */
export async function datecsHub(settings?: Record<string, string>, variant: VariantName = 'C'): Promise<{ hub: TestHub; r: DatecsRestaurant; stop: () => Promise<void> }> {
  const hub = await startHub();
  const r = await datecsRestaurant(hub, settings, variant);
  return {
    hub,
    r,
    async stop() {
      await hub.fiscal.closeAll();
      await r.sim.close();
      await hub.close();
    },
  };
}

export const until = (check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> => untilTrue(check, ms);

/** The states of ticket `ticketId`'s fiscal jobs, oldest first. */
export const jobStates = (hub: TestHub, ticketId: string): string[] =>
  hub.db.all<{ state: string }>(sql`SELECT state FROM fiscal_jobs WHERE ticket_id = ${ticketId} ORDER BY created_at`).map((j) => j.state);

/** Every fiscal job's ticket and state, oldest first. */
export const allJobs = (hub: TestHub) => hub.db.all<{ ticket_id: string; state: string }>(sql`SELECT ticket_id, state FROM fiscal_jobs ORDER BY created_at`);
