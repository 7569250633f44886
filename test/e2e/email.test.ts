/**
 * E-mail receipts against the real process (`npm start`): the internet (here: the SMTP server) is
 * down when the ticket is closed; the close succeeds at once; when the server comes up, exactly one
 * e-mail arrives with the ticket's items and closeInfo.number. And a hub restarted with mail still
 * queued delivers it once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { E2E_ADMIN_PASSWORD, freePort, startHubProcess, type HubProcess } from '../support/process.js';
import { TestSmtpServer, waitFor } from '../mail/smtp-server.js';
import { until } from '../support/wait.js';

async function ok(hub: HubProcess, method: string, path: string, body: unknown, token: string, status = 201): Promise<any> {
  const r = await hub.call(method, path, body, { token });
  if (r.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A shop with one simulator fiscal device, a register and a cashier who may also read the e-mail outbox; answers the cashier's token. */
async function setUpShop(hub: HubProcess): Promise<string> {
  const admin = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
  await ok(hub, 'POST', '/api/stocks', { name: 'Menu' }, admin);
  await ok(hub, 'POST', '/api/fiscaldevices', { name: 'FP1', driver: 'simulator', address: 'sim:fp1' }, admin);
  await ok(hub, 'POST', '/api/plus', { code: 1, stockName: 'Menu', name: 'Bryndzové halušky', type: 'Service', unitPrice: { amount: 7.9 }, vatInfo: { category: 1, rate: 20 } }, admin);
  await ok(hub, 'POST', '/api/plus', { code: 2, stockName: 'Menu', name: 'Kofola', type: 'Service', unitPrice: { amount: 1.7 }, vatInfo: { category: 1, rate: 20 } }, admin);
  await ok(hub, 'POST', '/api/devices', { name: 'Register 1', envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1' } }, admin);
  await ok(hub, 'POST', '/api/users', { userName: 'eva', name: 'Eva', password: 'eva-pw', rights: ['TicketCreate', 'TicketUpdate', 'TicketClose', 'SettingsRead'] }, admin);
  return hub.login('eva', 'eva-pw', 'Register 1');
}

async function closeWithEmail(hub: HubProcess, token: string, email: string): Promise<any> {
  const items = [
    { plu: { code: 1, stockName: 'Menu' }, quantity: 2 },
    { plu: { code: 2, stockName: 'Menu' }, quantity: 3 },
  ];
  const ticket = await ok(hub, 'POST', '/api/tickets', { name: 'Table 7', items }, token);
  return ok(hub, 'POST', `/api/tickets/${ticket.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 25 }], receipt: { email } }, token, 200);
}

const env = (smtpPort: number) => ({
  POS_HUB_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  POS_HUB_SMTP_FROM: 'Salaš <pokladna@salas.example>',
  POS_HUB_SHOP_NAME: 'Salaš pod Tatrami',
  // Retries start at a fifth of a second (15 s in a shop), so the test waits seconds, not minutes.
  POS_HUB_MAIL_RETRY: '200ms',
});

describe('e-mail receipts against npm start', () => {
  it('closes at once while the SMTP server is down, then delivers exactly one e-mail when it is up', async () => {
    const smtpPort = await freePort();
    const hub = await startHubProcess(env(smtpPort));
    const smtp = new TestSmtpServer();
    try {
      const token = await setUpShop(hub);
      const closed = await closeWithEmail(hub, token, 'hostka@example.sk');
      expect(closed).toMatchObject({ state: 'Closed', closeInfo: { number: 1, fiscalName: 'FP1' } });
      // The worker tries at once, fails, and the e-mail waits.
      const waiting = await until(
        async () => (await ok(hub, 'GET', `/api/receipts/emails?ticketId=${closed.id}`, undefined, token, 200)).items[0],
        (e) => e.attempts > 0,
        { ms: 10_000, every: 50, what: 'a first attempt' },
      );
      expect(waiting).toMatchObject({ to: 'hostka@example.sk', state: 'Queued', sentAt: null });
      expect(waiting.lastError).toMatch(/ECONNREFUSED|connect/i);

      await smtp.start(smtpPort);
      await waitFor(() => smtp.received.length > 0, 15_000, 'the e-mail');
      // Long enough for a second copy to show up if the worker were to send one.
      await new Promise((r) => setTimeout(r, 1500));
      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      expect(mail.to).toEqual(['hostka@example.sk']);
      expect(mail.subject).toBe('Receipt 1 – Salaš pod Tatrami');
      for (const text of ['Bryndzové halušky', 'Kofola', '2 × 7.90', '15.80', '3 × 1.70', '5.10', '20.90', 'Receipt no. 1', 'Change']) {
        expect(mail.text).toContain(text);
        expect(mail.html).toContain(text);
      }
      expect(mail.text).toMatch(/^Change +4\.10$/m);

      const sent = await ok(hub, 'GET', `/api/receipts/emails?ticketId=${closed.id}`, undefined, token, 200);
      expect(sent.items[0]).toMatchObject({ state: 'Sent', lastError: null });
      expect(sent.items[0].attempts).toBeGreaterThan(1);
      expect(mail.messageId).toBe(`<${sent.items[0].id}@salas.example>`);
      const health = await hub.call('GET', '/api/health', undefined, { token });
      expect(health.body.emailOutbox).toEqual({ queued: 0, failed: 0 });
    } finally {
      expect((await hub.stop()).code).toBe(0);
      await smtp.stop();
    }
  }, 60_000);

  it('a hub restarted with an e-mail still queued delivers it once', async () => {
    const smtpPort = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'poshub-e2e-mail-'));
    const smtp = new TestSmtpServer();
    try {
      const first = await startHubProcess(env(smtpPort), { dataDir });
      let ticketId: string;
      try {
        const token = await setUpShop(first);
        ticketId = (await closeWithEmail(first, token, 'restart@example.sk')).id;
        expect((await first.call('GET', '/api/health', undefined, { token })).body.emailOutbox).toEqual({ queued: 1, failed: 0 });
      } finally {
        expect((await first.stop()).code).toBe(0);
      }
      await smtp.start(smtpPort);
      const second = await startHubProcess(env(smtpPort), { dataDir });
      try {
        await waitFor(() => smtp.received.length > 0, 15_000, 'the e-mail');
        await new Promise((r) => setTimeout(r, 1000));
        expect(smtp.received).toHaveLength(1);
        expect(smtp.received[0].text).toContain('Bryndzové halušky');
        const token = await second.login('eva', 'eva-pw', 'Register 1');
        const list = await ok(second, 'GET', `/api/receipts/emails?ticketId=${ticketId}`, undefined, token, 200);
        expect(list.items).toMatchObject([{ state: 'Sent' }]);
      } finally {
        expect((await second.stop()).code).toBe(0);
      }
    } finally {
      await smtp.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
