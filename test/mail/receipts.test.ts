/**
 * E-mail receipts (CONTRACT §6, §11): a close with receipt.email queues the e-mail in its own
 * transaction; the worker delivers it to a real SMTP server on 127.0.0.1 with the receipt's content;
 * the list, its filters, resend, validation and the print flag.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expect2xx, item, mailHub, SHOP, type MailHub } from './fixture.js';
import { TestSmtpServer } from './smtp-server.js';

let m: MailHub;

beforeAll(async () => {
  m = await mailHub();
});
afterAll(() => m.stop());

const cash = (amount: number) => [{ paymentTypeNumber: 1, amount }];

describe('the e-mail receipt', () => {
  it('is queued by the close and arrives with the shop, items, VAT, payments, change and closeInfo', async () => {
    const ticket = await m.close(
      [item(1, 2), item(2, 1, { discountRate: 10 }), item(4, 3), item(3, 1)],
      { payments: cash(30), receipt: { email: 'Jana.Novakova@example.sk' } },
      { name: 'Table 5' },
    );
    const [queued] = await m.emailsOf(ticket.id);
    expect(queued).toEqual({
      id: expect.any(String),
      ticketId: ticket.id,
      to: 'Jana.Novakova@example.sk',
      state: 'Queued',
      attempts: 0,
      lastError: null,
      createdAt: m.hub.clock.now().toISOString(),
      sentAt: null,
      _v: 1,
    });

    expect(await m.hub.services.mail.worker.runDue()).toEqual({ sent: 1, retried: 0, failed: 0 });
    const [mail] = m.receivedFor(ticket.id);
    expect(mail.to).toEqual(['Jana.Novakova@example.sk']);
    expect(mail.from).toBe('pokladna@bistro.example');
    expect(mail.headers.get('from')).toContain('pokladna@bistro.example');
    const n = ticket.closeInfo.number;
    expect(mail.subject).toBe(`Receipt ${n} – Bistro Šťastie`);
    expect(mail.messageId).toBe(`<${queued.id}@bistro.example>`);
    expect(mail.headers.get('x-pos-hub-receipt')).toBe(queued.id);

    // 2 × 6.90 = 13.80; 4.50 − 10 % = 4.05; 3 × 0.10 = 0.30 (no binary float in sight); 2.20. Total 20.35, change 9.65.
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain('Bistro Šťastie');
      for (const line of SHOP.addressLines) expect(body).toContain(line);
      expect(body).toContain(`Receipt no. ${n}`);
      expect(body).toContain('2026-11-21 11:00');
      expect(body).toContain('Table 5');
      for (const name of ['Gulyás', 'Šopský šalát', 'Voda', 'Pivo']) expect(body).toContain(name);
      for (const amount of ['13.80', '4.05', '0.30', '2.20', '20.35', '30.00', '9.65', '6.90', '0.10']) expect(body).toContain(amount);
      expect(body).toContain('−10 %');
      // VAT 20 % on 20.35 gross: 3.39 VAT, 16.96 base.
      expect(body).toContain('16.96');
      expect(body).toContain('3.39');
      expect(body).toContain(`daily report ${ticket.closeInfo.dailySalesReportNumber}`);
      expect(body).toContain(ticket.closeInfo.fiscalMemorySerialNumber);
      expect(body).toContain(ticket.id);
    }
    expect(mail.text).toMatch(/^TOTAL +20\.35$/m);
    expect(mail.text).toMatch(/^Cash +30\.00$/m);
    expect(mail.text).toMatch(/^Change +9\.65$/m);
    expect(mail.text).toContain('Ďakujeme & dovidenia <3');
    // The HTML escapes what it shows.
    expect(mail.html).toContain('Ďakujeme &#38; dovidenia &#60;3');
    expect(mail.html).not.toContain('<3');

    const [sent] = await m.emailsOf(ticket.id);
    expect(sent).toMatchObject({ state: 'Sent', attempts: 1, lastError: null, sentAt: m.hub.clock.now().toISOString(), _v: 2 });
    const changes = m.hub.db.all<{ op: string; v: number }>(sql`SELECT op, v FROM changes WHERE resource = 'receipts/emails' AND key = ${sent.id} ORDER BY seq`);
    expect(changes).toEqual([
      { op: 'upsert', v: 1 },
      { op: 'upsert', v: 2 },
    ]);
  });
});

describe('closing with or without an e-mail', () => {
  it('queues nothing for no receipt, an empty email or a null one; trims the address', async () => {
    for (const receipt of [undefined, { print: true }, { email: '' }, { email: null }, { email: '   ' }]) {
      const t = await m.close([item(3, 1)], receipt === undefined ? {} : { receipt });
      expect(await m.emailsOf(t.id), JSON.stringify(receipt)).toEqual([]);
    }
    const t = await m.close([item(3, 1)], { receipt: { email: '  eva@example.sk ' } });
    expect((await m.emailsOf(t.id)).map((e) => e.to)).toEqual(['eva@example.sk']);
  });

  it('refuses a malformed address with 400 before anything is fiscalized, queued or stored', async () => {
    const t = await expect2xx(m.hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, { token: m.cashier.token }));
    const journal = m.fp1.journal.length;
    const queued = m.hub.services.mail.outbox.depth();
    for (const email of ['not an address', 'a@b', 'a@@b.sk', 'Jana <jana@example.sk>', 'a@b.sk, c@d.sk', 'x'.repeat(250) + '@b.sk']) {
      const r = await m.hub.call('POST', `/api/tickets/${t.id}/close`, { payments: cash(10), receipt: { email } }, { token: m.cashier.token });
      expect(r.status, email).toBe(400);
      expect(r.body.errors[0].memberName).toBe('receipt.email');
    }
    expect(m.fp1.journal).toHaveLength(journal);
    expect(m.hub.db.all(sql`SELECT 1 FROM fiscal_jobs WHERE ticket_id = ${t.id}`)).toEqual([]);
    expect(m.hub.services.mail.outbox.depth()).toEqual(queued);
    expect((await m.hub.call('GET', `/api/tickets/${t.id}`)).body).toMatchObject({ state: 'Opened', closeInfo: null, _v: t._v });
  });

  it('hands print: false to the fiscal device with the receipt (the simulator records it) and still e-mails', async () => {
    const paperless = await m.close([item(3, 1)], { receipt: { print: false, email: 'eva@example.sk' } });
    const paper = await m.close([item(3, 1)], { receipt: { email: 'eva@example.sk' } });
    const printed = (id: string) => m.fp1.journal.filter((j) => j.receipt.reference === id).map((j) => j.receipt.print);
    expect(printed(paperless.id)).toEqual([false]);
    expect(printed(paper.id)).toEqual([true]);
    expect(await m.emailsOf(paperless.id)).toHaveLength(1);
  });

  it('queues the e-mail when the close is settled after a lost device reply', async () => {
    m.fp1.inject({ kind: 'dropReplyAfterPrint' });
    const t = await m.close([item(1, 1)], { receipt: { email: 'lost.reply@example.sk' } });
    expect(t.state).toBe('Closed');
    expect((await m.emailsOf(t.id)).map((e) => [e.to, e.state])).toEqual([['lost.reply@example.sk', 'Queued']]);
    // A retry of the close answers the closed ticket and queues no second e-mail.
    const again = await m.hub.call('POST', `/api/tickets/${t.id}/close`, { payments: cash(100), receipt: { email: 'lost.reply@example.sk' } }, { token: m.cashier.token });
    expect(again.status).toBe(200);
    expect(await m.emailsOf(t.id)).toHaveLength(1);
  });
});

describe('GET /api/receipts/emails', () => {
  let a: any;
  let b: any;
  beforeAll(async () => {
    a = await m.close([item(3, 1)], { receipt: { email: 'Filter.One@Example.sk' } });
    b = await m.close([item(3, 1)], { receipt: { email: 'filter.two@example.sk' } });
    await m.hub.services.mail.worker.runDue();
  });

  it('filters by ticketId, to (any letter case) and state, and reads one', async () => {
    const list = async (q: string) => (await expect2xx(m.hub.call('GET', `/api/receipts/emails?${q}`))).items.map((e: any) => e.to);
    expect(await list(`ticketId=${a.id}`)).toEqual(['Filter.One@Example.sk']);
    expect(await list('to=filter.one@example.sk')).toEqual(['Filter.One@Example.sk']);
    expect(await list('to=startswith:FILTER.&$sort=to')).toEqual(['Filter.One@Example.sk', 'filter.two@example.sk']);
    expect(await list(`state=Sent&ticketId=in:${a.id},${b.id}&$sort=-createdAt,to`)).toHaveLength(2);
    expect(await list(`state=failed&ticketId=${a.id}`)).toEqual([]);
    const [one] = (await expect2xx(m.hub.call('GET', `/api/receipts/emails?ticketId=${b.id}`))).items;
    const got = await m.hub.call('GET', `/api/receipts/emails/${one.id}`);
    expect(got.body).toEqual(one);
    expect(got.headers.get('etag')).toBe(`"${one._v}"`);
  });

  it('answers 400 for an unknown filter or state, 404 for an unknown id, 405 for writes', async () => {
    expect((await m.hub.call('GET', '/api/receipts/emails?subject=x')).status).toBe(400);
    expect((await m.hub.call('GET', '/api/receipts/emails?state=Bounced')).status).toBe(400);
    expect((await m.hub.call('GET', '/api/receipts/emails/nope')).status).toBe(404);
    expect((await m.hub.call('POST', '/api/receipts/emails', { to: 'a@b.sk' })).status).toBe(405);
    expect((await m.hub.call('DELETE', `/api/receipts/emails/nope`)).status).toBe(405);
  });
});

describe('POST /api/receipts/emails/{id}/resend', () => {
  it('sends a Sent e-mail again as a new message (new Message-ID), with TicketClose from any device', async () => {
    const t = await m.close([item(1, 1)], { receipt: { email: 'again@example.sk' } });
    await m.hub.services.mail.worker.runDue();
    const [sent] = await m.emailsOf(t.id);
    expect(sent.state).toBe('Sent');
    const backOffice = await m.hub.userWith(['TicketClose']);
    const r = await m.hub.call('POST', `/api/receipts/emails/${sent.id}/resend`, undefined, { token: backOffice });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: sent.id, state: 'Queued', attempts: 0, lastError: null, sentAt: null, _v: sent._v + 1 });
    await m.hub.services.mail.worker.runDue();
    const mails = m.receivedFor(t.id);
    expect(mails.map((x) => x.messageId)).toEqual([`<${sent.id}@bistro.example>`, `<${sent.id}.1@bistro.example>`]);
    expect(mails[1].text).toBe(mails[0].text);
    expect((await m.emailsOf(t.id))[0]).toMatchObject({ state: 'Sent', attempts: 1 });
  });

  it('needs TicketClose; an unknown id is 404; GET is 405', async () => {
    const t = await m.close([item(1, 1)], { receipt: { email: 'rights@example.sk' } });
    const [e] = await m.emailsOf(t.id);
    const nobody = await m.hub.userWith([]);
    const denied = await m.hub.call('POST', `/api/receipts/emails/${e.id}/resend`, undefined, { token: nobody });
    expect([denied.status, denied.body.errorCode]).toEqual([403, 2]);
    expect(denied.body.detail).toContain('TicketClose');
    expect((await m.hub.call('POST', '/api/receipts/emails/nope/resend')).status).toBe(404);
    expect((await m.hub.call('GET', `/api/receipts/emails/${e.id}/resend`)).status).toBe(405);
  });

  it('makes a Queued e-mail due now instead of after its backoff', async () => {
    const t = await m.close([item(1, 1)], { receipt: { email: 'soon@example.sk' } });
    const [e] = await m.emailsOf(t.id);
    m.hub.db.run(sql`UPDATE receipt_emails SET next_attempt_at = next_attempt_at + 3600000 WHERE id = ${e.id}`);
    expect(m.outboxRow(e.id)!.next_attempt_at).toBeGreaterThan(m.hub.clock.now().getTime());
    const r = await expect2xx(m.hub.call('POST', `/api/receipts/emails/${e.id}/resend`));
    expect(r).toMatchObject({ state: 'Queued', _v: e._v });
    expect(m.outboxRow(e.id)).toMatchObject({ next_attempt_at: m.hub.clock.now().getTime(), round: 0 });
    await m.hub.services.mail.worker.runDue();
    expect(m.receivedFor(t.id)).toHaveLength(1);
  });
});

describe('receipt settings', () => {
  it('are readable with SettingsRead, never show the password, and need ReceiptSettingsUpdate to change', async () => {
    const nobody = await m.hub.userWith([]);
    const hidden = await m.hub.call('GET', '/api/receipts/settings', undefined, { token: nobody });
    expect([hidden.status, hidden.body.errorCode]).toEqual([403, 2]);
    expect(hidden.body.detail).toContain('SettingsRead');
    const reader = await m.hub.userWith(['SettingsRead']);
    const got = await m.hub.call('GET', '/api/receipts/settings', undefined, { token: reader });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      ...SHOP,
      smtp: { host: '127.0.0.1', port: m.smtp.port, tls: 'Off', user: null, from: 'Bistro <pokladna@bistro.example>', passwordSet: false },
      effective: { shopName: SHOP.shopName, smtpSource: 'Settings', smtp: { host: '127.0.0.1', port: m.smtp.port } },
    });
    expect(got.headers.get('etag')).toBe(`"${got.body._v}"`);
    const denied = await m.hub.call('PUT', '/api/receipts/settings', { ...SHOP }, { token: reader });
    expect([denied.status, denied.body.errorCode]).toEqual([403, 2]);
    expect(denied.body.detail).toContain('ReceiptSettingsUpdate');
  });

  it('keep a password left out of a PUT, send it to the server, and never answer it', async () => {
    const before = (await m.hub.call('GET', '/api/receipts/settings')).body;
    m.smtp.auth = { user: 'pokladna', pass: 's3cret heslo' };
    try {
      const put = await m.hub.call('PUT', '/api/receipts/settings', {
        ...SHOP,
        smtp: { ...before.smtp, passwordSet: undefined, user: 'pokladna', password: 's3cret heslo' },
        _v: before._v,
      });
      expect(put.status).toBe(200);
      expect(put.body.smtp).toMatchObject({ user: 'pokladna', passwordSet: true });
      expect(JSON.stringify(put.body)).not.toContain('s3cret');
      // Another PUT without the password keeps it.
      const again = await expect2xx(m.hub.call('PUT', '/api/receipts/settings', { ...SHOP, smtp: { ...put.body.smtp, passwordSet: undefined } }));
      expect(again.smtp.passwordSet).toBe(true);
      expect(JSON.stringify((await m.hub.call('GET', '/api/receipts/settings')).body)).not.toContain('s3cret');
      const t = await m.close([item(1, 1)], { receipt: { email: 'auth@example.sk' } });
      await m.hub.services.mail.worker.runDue();
      expect(m.receivedFor(t.id)).toHaveLength(1);
    } finally {
      m.smtp.auth = null;
      await m.useSmtp(m.smtp.port);
    }
  });

  it('drop the stored password when host, port, TLS mode or user moves without it: never presented to a server the caller chose', async () => {
    // The shop's own server asks for the password; a settings editor (ReceiptSettingsUpdate, no more)
    // keeps host and user, moves the port to a server of their own, or switches TLS off.
    const rogue = new TestSmtpServer();
    await rogue.start();
    rogue.auth = { user: 'pokladna', pass: 'anything' };
    m.smtp.auth = { user: 'pokladna', pass: 's3cret heslo' };
    const editor = await m.hub.userWith(['ReceiptSettingsUpdate', 'SettingsRead']);
    const put = (smtp: Record<string, unknown>, token?: string) =>
      expect2xx(m.hub.call('PUT', '/api/receipts/settings', { ...SHOP, smtp: { host: '127.0.0.1', user: 'pokladna', from: 'Bistro <pokladna@bistro.example>', ...smtp } }, { token }));
    try {
      for (const moved of [{ port: rogue.port, tls: 'Off' }, { port: rogue.port, tls: 'Opportunistic' }]) {
        await put({ port: m.smtp.port, tls: 'Off', password: 's3cret heslo' });
        const t1 = await m.close([item(1, 1)], { receipt: { email: 'first@example.sk' } });
        await m.hub.services.mail.worker.runDue();
        expect(m.receivedFor(t1.id)).toHaveLength(1);

        const after = await put(moved, editor);
        expect(after.smtp.passwordSet).toBe(false);
        await m.close([item(1, 1)], { receipt: { email: 'second@example.sk' } });
        await m.hub.services.mail.worker.runDue();
        expect(rogue.presented.map((p) => p.pass)).not.toContain('s3cret heslo');
      }
      // The same server, port and user with TLS switched off: dropped as well.
      await put({ port: m.smtp.port, tls: 'Opportunistic', password: 's3cret heslo' });
      expect((await put({ port: m.smtp.port, tls: 'Off' }, editor)).smtp.passwordSet).toBe(false);
      const seen = m.smtp.presented.length;
      const t3 = await m.close([item(1, 1)], { receipt: { email: 'third@example.sk' } });
      await m.hub.services.mail.worker.runDue();
      expect(m.smtp.presented.slice(seen).map((p) => p.pass)).not.toContain('s3cret heslo');
      expect(m.receivedFor(t3.id)).toHaveLength(0);
      // Sending it again with the new values is how a manager moves the server.
      expect((await put({ port: rogue.port, tls: 'Off', password: 'new one' }, editor)).smtp.passwordSet).toBe(true);
    } finally {
      m.smtp.auth = null;
      await rogue.stop();
      await m.useSmtp(m.smtp.port);
    }
  });

  it('store an IPv6 address written as in a URL ([::1]) without its brackets, which no connection could use', async () => {
    const put = (host: string, password?: string) =>
      expect2xx(m.hub.call('PUT', '/api/receipts/settings', { ...SHOP, smtp: { host, port: 2525, tls: 'Off', user: 'pokladna', password } }));
    try {
      expect((await put('[::1]', 'heslo')).smtp).toMatchObject({ host: '::1', passwordSet: true });
      // The same server written the other way is the same server: the password stays.
      expect((await put('::1')).smtp).toMatchObject({ host: '::1', passwordSet: true });
      expect((await put('[::1]')).smtp).toMatchObject({ host: '::1', passwordSet: true });
    } finally {
      await m.useSmtp(m.smtp.port);
    }
  });

  it('refuse a stale _v or If-Match with 409, and bad values with 400 naming the member', async () => {
    const cur = (await m.hub.call('GET', '/api/receipts/settings')).body;
    const stale = await m.hub.call('PUT', '/api/receipts/settings', { ...SHOP, _v: cur._v - 1 });
    expect([stale.status, stale.body.errorCode, stale.body.resource?.version]).toEqual([409, 6, cur._v]);
    expect((await m.hub.call('PUT', '/api/receipts/settings', { ...SHOP }, { headers: { 'If-Match': `"${cur._v + 5}"` } })).status).toBe(409);
    for (const [body, member] of [
      [{ smtp: { host: '127.0.0.1', tls: 'Sometimes' } }, 'smtp.tls'],
      [{ smtp: { host: 'mail server' } }, 'smtp.host'],
      [{ smtp: { host: 'h.example', port: 70000 } }, 'smtp.port'],
      [{ smtp: { host: 'h.example', from: 'nobody' } }, 'smtp.from'],
      [{ addressLines: ['x'.repeat(101)] }, 'addressLines[0]'],
      [{ shopName: 'a\nb' }, 'shopName'],
    ] as const) {
      const r = await m.hub.call('PUT', '/api/receipts/settings', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors.map((e: any) => e.memberName)).toContain(member);
    }
    expect((await m.hub.call('PUT', '/api/receipts/settings', undefined)).status).toBe(400);
    expect((await m.hub.call('DELETE', '/api/receipts/settings')).status).toBe(405);
    expect((await m.hub.call('GET', '/api/receipts/settings')).body._v).toBe(cur._v);
  });

  it('without an SMTP server, e-mails wait in the outbox untouched, and go out once one is set', async () => {
    await expect2xx(m.hub.call('PUT', '/api/receipts/settings', { ...SHOP, smtp: null }));
    expect((await m.hub.call('GET', '/api/receipts/settings')).body.effective).toMatchObject({ smtpSource: 'None', smtp: null });
    const t = await m.close([item(1, 1)], { receipt: { email: 'waiting@example.sk' } });
    expect(await m.hub.services.mail.worker.runDue()).toEqual({ sent: 0, retried: 0, failed: 0 });
    m.hub.clock.advance(3 * 3600_000);
    await m.hub.services.mail.worker.runDue();
    expect((await m.emailsOf(t.id))[0]).toMatchObject({ state: 'Queued', attempts: 0, lastError: null });
    await m.useSmtp(m.smtp.port);
    await m.hub.services.mail.worker.runDue();
    expect((await m.emailsOf(t.id))[0]).toMatchObject({ state: 'Sent', attempts: 1 });
    expect(m.receivedFor(t.id)).toHaveLength(1);
  });

  it('shows the shop name and header lines set now in the e-mails of later closes', async () => {
    const smtp = { host: '127.0.0.1', port: m.smtp.port, tls: 'Off', from: 'kohut@example.sk' };
    await expect2xx(m.hub.call('PUT', '/api/receipts/settings', { shopName: 'U Zlatého Kohúta', addressLines: ['Námestie 7'], smtp }));
    const t = await m.close([item(1, 1)], { receipt: { email: 'header@example.sk' } });
    await m.hub.services.mail.worker.runDue();
    const [mail] = m.receivedFor(t.id);
    expect(mail.subject).toBe(`Receipt ${t.closeInfo.number} – U Zlatého Kohúta`);
    expect(mail.text.split('\n').slice(0, 2)).toEqual(['U Zlatého Kohúta', 'Námestie 7']);
    expect(mail.messageId).toMatch(/@example\.sk>$/);
    await m.useSmtp(m.smtp.port);
  });
});

describe('the API description', () => {
  it('documents the e-mail routes with the statuses and errorCodes they answer', async () => {
    const doc = (await m.hub.call('GET', '/api/openapi.json', undefined, { token: null })).body;
    const codes = (path: string, method: string, status: number): number[] =>
      doc.paths[path]?.[method]?.responses?.[String(status)]?.content?.['application/problem+json']?.schema?.allOf?.[1]?.properties?.errorCode?.enum ?? [];
    expect(doc.paths['/api/receipts/emails'].get.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['ticketId', 'to', 'state']));
    expect(doc.components.schemas.ReceiptEmail.properties.state.enum).toEqual(['Queued', 'Sent', 'Failed']);
    const resend = '/api/receipts/emails/{id}/resend';
    expect(doc.paths[resend].post.description).toContain('TicketClose');
    expect([codes(resend, 'post', 403), codes(resend, 'post', 404), codes(resend, 'post', 401)]).toEqual([[2], [7], [1]]);
    const settings = '/api/receipts/settings';
    expect(doc.paths[settings].put.description).toContain('ReceiptSettingsUpdate');
    // 409: a stale version, or (every write behind a token takes an Idempotency-Key) a reused key.
    expect([codes(settings, 'put', 400), codes(settings, 'put', 403), codes(settings, 'put', 409)]).toEqual([[3], [2], [6, 11]]);
    expect(doc.components.schemas.ReceiptSettings.properties.smtp).toBeDefined();
    expect(JSON.stringify(doc.components.schemas.ReceiptSettings)).not.toContain('"password"');
    expect(doc.components.schemas.ReceiptSettingsInput.properties.smtp).toBeDefined();
    expect(doc.paths['/api/tickets/{id}/close'].post.description).toContain('receipt.email');
  });
});

describe('in a Slovak shop (POS_HUB_LOCALE=sk)', () => {
  it('the e-mail receipt is in Slovak, with lang="sk" and decimal commas', async () => {
    const sk = await mailHub({ locale: 'sk' });
    try {
      const ticket = await sk.close([item(1, 2)], { payments: cash(30), receipt: { email: 'eva@example.sk' } }, { name: 'Stôl 5' });
      expect(await sk.hub.services.mail.worker.runDue()).toEqual({ sent: 1, retried: 0, failed: 0 });
      const [mail] = sk.receivedFor(ticket.id);
      expect(mail.subject).toMatch(/^Doklad \d+ – /);
      expect(mail.text).toContain('Účet: Stôl 5');
      expect(mail.text).toMatch(/^SPOLU +13,80$/m);
      expect(mail.text).toMatch(/^Vydané +16,20$/m);
      expect(mail.html).toContain('<html lang="sk">');
    } finally {
      await sk.stop();
    }
  });
});
