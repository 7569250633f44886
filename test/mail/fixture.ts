/** A restaurant hub whose e-mail receipts go to a real SMTP server on 127.0.0.1. */
import { sql } from 'drizzle-orm';
import type { SimulatorFiscalDevice } from '../../drivers/fiscal/simulator/driver.js';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { TestSmtpServer, type ReceivedMail } from './smtp-server.js';

export { item, expect2xx };

export interface MailHub {
  hub: TestHub;
  smtp: TestSmtpServer;
  cashier: Awaited<ReturnType<typeof register>>;
  fp1: SimulatorFiscalDevice;
  /** Points the hub's SMTP settings at `port` (a server that may not be listening). */
  useSmtp(port: number, extra?: Record<string, unknown>): Promise<void>;
  /** Opens a ticket with `items` and closes it with `body` (payments default to cash 100). */
  close(items: unknown[], body: Record<string, unknown>, ticket?: Record<string, unknown>): Promise<any>;
  emailsOf(ticketId: string): Promise<any[]>;
  /** What the SMTP server received for a ticket (by the hub's X-POS-Hub-Ticket header). */
  receivedFor(ticketId: string, server?: TestSmtpServer): ReceivedMail[];
  outboxRow(id: string): { sending_at: number | null; next_attempt_at: number; round: number } | undefined;
  /** New sessions for the admin and the cashier (after the fake clock passed their expiry). */
  relogin(): Promise<void>;
  stop(): Promise<void>;
}

export const SHOP = {
  shopName: 'Bistro Šťastie',
  addressLines: ['Hlavná 1', '811 01 Bratislava', 'IČO 12345678'],
  footerLines: ['Ďakujeme & dovidenia <3'],
};

export async function mailHub(opts: { locale?: 'en' | 'sk' | 'cs' } = {}): Promise<MailHub> {
  const hub = await startHub({ locale: opts.locale });
  await restaurant(hub);
  const cashier = await register(hub);
  const smtp = new TestSmtpServer();
  await smtp.start();
  const fp1 = hub.fiscal.get({ name: 'FP1', driver: 'simulator', address: 'sim:fp1', settings: {} }) as SimulatorFiscalDevice;
  const useSmtp: MailHub['useSmtp'] = async (port, extra = {}) => {
    await expect2xx(
      hub.call('PUT', '/api/receipts/settings', { ...SHOP, smtp: { host: '127.0.0.1', port, tls: 'Off', from: 'Bistro <pokladna@bistro.example>', ...extra } }),
    );
  };
  await useSmtp(smtp.port);
  return {
    hub,
    smtp,
    cashier,
    fp1,
    useSmtp,
    async close(items, body, ticket = {}) {
      const t = await expect2xx(hub.call('POST', '/api/tickets', { items, ...ticket }, { token: cashier.token }));
      return expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 100 }], ...body }, { token: cashier.token }));
    },
    async emailsOf(ticketId) {
      return (await expect2xx(hub.call('GET', `/api/receipts/emails?ticketId=${encodeURIComponent(ticketId)}`))).items;
    },
    receivedFor(ticketId, server = smtp) {
      return server.received.filter((m) => m.headers.get('x-pos-hub-ticket') === ticketId);
    },
    outboxRow(id) {
      return hub.db.get(sql`SELECT sending_at, next_attempt_at, round FROM receipt_emails WHERE id = ${id}`);
    },
    async relogin() {
      hub.adminToken = await hub.login('admin', ADMIN_PASSWORD, 'BackOffice');
      cashier.token = await hub.login(cashier.userName, 'pw', cashier.device);
    },
    async stop() {
      await smtp.stop();
      await hub.close();
    },
  };
}
