/** A restaurant whose receipts go to a PORTOS eKasa service: the fake service on 127.0.0.1 (test/support/fake-ekasa-service.ts). */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { StoredRegistration } from '../../drivers/fiscal/ekasa/service.js';
import { FakeEkasaService } from '../support/fake-ekasa-service.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';

export const CASH_REGISTER_CODE = '88812345678900001';
export const EKASA_SETTINGS = { CashRegisterCode: CASH_REGISTER_CODE, TimeoutMs: '2000' };

export interface EkasaRestaurant {
  svc: FakeEkasaService;
  cashier: Awaited<ReturnType<typeof register>>;
  /** A ticket of 2 × Gulyás (6.90) and 1 × Pivo (2.20): 16.00. */
  open(items?: unknown[]): Promise<any>;
  /** Closes on EK1, by default paid 20 in cash (payment type 1). */
  close(id: string, extra?: Record<string, unknown>): Promise<{ status: number; headers: Headers; body: any }>;
  ticket(id: string): Promise<any>;
  /** The registrations the service holds for ticket `id` (their externalId is one of its fiscal jobs). */
  registrationsOf(id: string): StoredRegistration[];
}

/** The tickets fixture's restaurant, plus fiscal device `EK1` (ekasa) on the fake service `svc`. */
export async function ekasaRestaurant(hub: TestHub, svc: FakeEkasaService, settings: Record<string, string> = EKASA_SETTINGS): Promise<EkasaRestaurant> {
  await restaurant(hub);
  await expect2xx(hub.call('POST', '/api/fiscaldevices', { name: 'EK1', driver: 'ekasa', address: svc.address, settings }));
  const cashier = await register(hub);
  return {
    svc,
    cashier,
    open: (items = [item(1, 2), item(3, 1)]) => expect2xx(hub.call('POST', '/api/tickets', { items }, { token: cashier.token })),
    close: (id, extra = {}) => hub.call('POST', `/api/tickets/${id}/close`, { fiscalName: 'EK1', payments: [{ paymentTypeNumber: 1, amount: 20 }], ...extra }, { token: cashier.token }),
    ticket: async (id) => (await hub.call('GET', `/api/tickets/${id}`)).body,
    registrationsOf(id) {
      const jobs = new Set(hub.db.all<{ id: string }>(sql`SELECT id FROM fiscal_jobs WHERE ticket_id = ${id}`).map((j) => j.id));
      return svc.service.registrations.filter((a) => jobs.has(a.request.externalId));
    },
  };
}

/** A test hub with the eKasa restaurant; `stop` closes the device links, the fake service and the hub. */
export async function ekasaHub(settings?: Record<string, string>): Promise<{ hub: TestHub; r: EkasaRestaurant; stop: () => Promise<void> }> {
  const hub = await startHub();
  const svc = new FakeEkasaService(() => hub.clock.now());
  await svc.listen();
  const r = await ekasaRestaurant(hub, svc, settings);
  return {
    hub,
    r,
    async stop() {
      await hub.fiscal.closeAll();
      await svc.close();
      await hub.close();
    },
  };
}

/**
 * The hooks of a suite on one eKasa hub: started before its tests (`use` gets the hub and the
 * restaurant), the service's state reset before each test (online, nothing held or refused), all
 * closed after.
 */
export function ekasaSuite(use: (started: { hub: TestHub; r: EkasaRestaurant }) => void, settings?: Record<string, string>): void {
  let started: Awaited<ReturnType<typeof ekasaHub>> | undefined;
  beforeAll(async () => {
    started = await ekasaHub(settings);
    use(started);
  });
  afterAll(() => started?.stop());
  beforeEach(() => started!.r.svc.reset());
}
