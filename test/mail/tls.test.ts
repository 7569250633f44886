/**
 * TLS to the SMTP server (README "E-mail receipts", TLS): the server's certificate is checked. A
 * self-signed one is refused whichever way TLS starts — implicit (smtps), STARTTLS required, or
 * STARTTLS offered to an Opportunistic client, which does not fall back to plain text — so the
 * e-mail waits in the outbox with the reason, and neither the message nor the password reaches a
 * server that could be anyone's.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { item, mailHub, type MailHub } from './fixture.js';
import { TestSmtpServer } from './smtp-server.js';

let m: MailHub;
const dir = mkdtempSync(join(tmpdir(), 'poshub-smtp-tls-'));
let pem: { key: string; cert: string };

beforeAll(async () => {
  // Self-signed for 127.0.0.1, as a relay's own certificate usually is.
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { cwd: dir, stdio: 'ignore' });
  pem = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  m = await mailHub();
});
afterAll(async () => {
  await m.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a server with a self-signed certificate', () => {
  for (const [tls, implicit] of [['Implicit', true], ['Required', false], ['Opportunistic', false]] as const) {
    it(`${tls}: refused; the e-mail waits with the reason, and nothing, the password included, is sent`, async () => {
      const server = new TestSmtpServer({ ...pem, implicit });
      server.auth = { user: 'pokladna', pass: 'tajne-heslo' };
      await server.start();
      try {
        await m.useSmtp(server.port, { tls, user: 'pokladna', password: 'tajne-heslo' });
        const ticket = await m.close([item(1, 1)], { receipt: { email: 'guest@example.sk' } });
        expect(await m.hub.services.mail.worker.runDue()).toEqual({ sent: 0, retried: 1, failed: 0 });
        const [email] = await m.emailsOf(ticket.id);
        expect(email).toMatchObject({ state: 'Queued', attempts: 1, lastError: expect.stringMatching(/self[- ]signed certificate/) });
        expect([server.presented, server.received, server.attempts]).toEqual([[], [], 0]);
      } finally {
        await server.stop();
        // The plain test server takes the waiting e-mail (new settings make it due at once), so the next case starts with an empty outbox.
        await m.useSmtp(m.smtp.port);
        await m.hub.services.mail.worker.runDue();
      }
    });
  }
});
