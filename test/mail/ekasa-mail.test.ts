/**
 * The e-mail receipt of an eKasa close carries what the law puts on every Slovak receipt: the
 * receipt's eKasa UID online, the OKP, and the QR code's content — offline the OKP-based code and a
 * line saying the receipt is sent to the eKasa system later. Closed on the fake eKasa service,
 * delivered to the test SMTP server, both on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ekasaHub, type EkasaRestaurant } from '../fiscal/ekasa-fixture.js';
import type { TestHub } from '../support/hub.js';
import { expect2xx } from '../tickets/fixture.js';
import { TestSmtpServer } from './smtp-server.js';

let hub: TestHub;
let r: EkasaRestaurant;
let stop: () => Promise<void>;
const smtp = new TestSmtpServer();

beforeAll(async () => {
  ({ hub, r, stop } = await ekasaHub());
  await smtp.start();
  await expect2xx(hub.call('PUT', '/api/receipts/settings', { shopName: 'Bistro', smtp: { host: '127.0.0.1', port: smtp.port, tls: 'Off', from: 'pokladna@bistro.example' } }));
});
afterAll(async () => {
  await smtp.stop();
  await stop();
});

async function mailed(online: boolean) {
  r.svc.reset();
  r.svc.service.online = online;
  const t = await r.open();
  const closed = await r.close(t.id, { receipt: { email: 'host@example.sk' } });
  expect(closed.status).toBe(200);
  expect(await hub.services.mail.worker.runDue()).toMatchObject({ sent: 1 });
  const [mail] = smtp.received.filter((m) => m.headers.get('x-pos-hub-ticket') === t.id);
  return { ekasa: closed.body.closeInfo.ekasa, mail };
}

describe('an eKasa receipt by e-mail', () => {
  it('online: the eKasa UID, the OKP and the QR code content, in the text and the HTML', async () => {
    const { ekasa, mail } = await mailed(true);
    expect(ekasa.uuid).toMatch(/^O-/);
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain(`eKasa UID: ${ekasa.uuid}`);
      expect(body).toContain(`OKP: ${ekasa.okp}`);
      expect(body).toContain(`QR: ${ekasa.qrCode}`);
    }
  });

  it('offline: no UID, the OKP and its QR code, and that it is registered later', async () => {
    const { ekasa, mail } = await mailed(false);
    expect(ekasa).toMatchObject({ offline: true });
    expect(ekasa.uuid).toBeUndefined();
    for (const body of [mail.text, mail.html]) {
      expect(body).not.toContain('eKasa UID');
      expect(body).toContain(`OKP: ${ekasa.okp}`);
      expect(body).toContain(`QR: ${ekasa.qrCode}`);
    }
  });
});
