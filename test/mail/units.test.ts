/** The pure parts of e-mail receipts: VAT breakdown, rendering, SMTP URLs, error classes, Message-IDs, settings sources. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeDb, openDb } from '../../db/client.js';
import { FakeClock } from '../../hub/core/clock.js';
import { loadConfig } from '../../hub/core/config.js';
import { receiptMailData, renderReceipt, vatBreakdown } from '../../hub/mail/render.js';
import { MailSettings, settingsSchema, smtpFromUrl } from '../../hub/mail/settings.js';
import { classifySendError } from '../../hub/mail/smtp.js';
import { messageIdOf } from '../../hub/mail/worker.js';
import type { Receipt } from '../../drivers/fiscal/types.js';

describe('vatBreakdown', () => {
  it('groups by rate, applies the ticket discount, and adds up to the total to the cent', () => {
    const lines = [
      { vatRate: '20', total: '10.01' },
      { vatRate: '10', total: '3.33' },
      { vatRate: '20', total: '0.01' },
      { vatRate: '10.0', total: '3.33' },
    ];
    // 16.68 − 3 % = 16.1796 → 16.18; per rate 10.02 → 9.7194 → 9.72 and 6.66 → 6.4602 → 6.46, sum 16.18.
    const rows = vatBreakdown(lines, '3', '16.18');
    expect(rows).toEqual([
      { rate: '10', base: '5.87', vat: '0.59', gross: '6.46' },
      { rate: '20', base: '8.10', vat: '1.62', gross: '9.72' },
    ]);
  });

  it('gives a rounding remainder to the largest group, and handles returns (negative lines)', () => {
    // 3 × 0.01 at three rates, 50 % off: each 0.005 → 0.01, sum 0.03, but the ticket total is 0.02.
    const rows = vatBreakdown(
      [
        { vatRate: '5', total: '0.01' },
        { vatRate: '10', total: '0.01' },
        { vatRate: '20', total: '0.01' },
      ],
      '50',
      '0.02',
    );
    expect(rows.reduce((s, r) => s + Math.round(Number(r.gross) * 100), 0)).toBe(2);
    expect(vatBreakdown([{ vatRate: '20', total: '5.00' }, { vatRate: '20', total: '-2.60' }], '0', '2.40')).toEqual([
      { rate: '20', base: '2.00', vat: '0.40', gross: '2.40' },
    ]);
  });
});

describe('renderReceipt', () => {
  const receipt: Receipt = {
    reference: 't1',
    operator: 'jana',
    lines: [
      { name: 'Káva <espresso> & "mlieko"', quantity: '2', unitPrice: '1.8', vatRate: '19', vatCategory: 1, discountRate: '0', total: '3.60' },
      { name: 'Vrátená fľaša', quantity: '1', unitPrice: '0.15', vatRate: '0', vatCategory: 2, discountRate: '0', total: '-0.15' },
    ],
    discountRate: '0',
    total: '3.45',
    payments: [{ kind: 'Cash', name: 'Hotovosť', amount: '5' }],
    change: '1.55',
  };
  const ticket = {
    id: 't1',
    name: null,
    currencyLabel: 'EUR',
    closeDate: '2026-03-29T01:30:00.000Z',
    employee: { userName: 'jana', name: 'Jana' },
    items: [{ modifiers: [{ name: 'Ovsené mlieko', quantity: 2 }] }, { modifiers: [] }],
    closeInfo: { deviceName: 'Pokladňa 1', fiscalName: 'FP1', number: 42, dailySalesReportNumber: 7, fiscalMemorySerialNumber: 'DT123456' },
  };
  const shop = { name: 'Kaviareň', addressLines: ['Dlhá 2'], footerLines: [] };

  it('shows amounts with 2 places, local time across a DST change, options, and escapes HTML', () => {
    const mail = renderReceipt(receiptMailData(ticket, receipt, shop, 'Europe/Bratislava'));
    expect(mail.subject).toBe('Receipt 42 – Kaviareň');
    // 01:30 UTC on the last Sunday of March is 03:30 summer time in Bratislava.
    expect(mail.text).toContain('Date: 2026-03-29 03:30');
    expect(mail.text).toMatch(/^TOTAL +3\.45 EUR$/m);
    expect(mail.text).toMatch(/^Hotovosť +5\.00$/m);
    expect(mail.text).toMatch(/^Change +1\.55$/m);
    expect(mail.text).toContain('  + 2× Ovsené mlieko');
    expect(mail.text).toContain('2 × 1.80');
    expect(mail.text).toMatch(/-0\.15$/m);
    expect(mail.text).toContain('Served by: Jana');
    expect(mail.html).toContain('Káva &#60;espresso&#62; &#38; &#34;mlieko&#34;');
    expect(mail.html).not.toContain('<espresso>');
    expect(mail.html).toContain('3.45 EUR');
    expect(mail.text).not.toContain('Subtotal');
  });

  it('speaks the shop\'s language: Slovak words, decimal commas and lang="sk"; Czech likewise', () => {
    const discounted = { ...receipt, discountRate: '10.5', total: '3.09' };
    const sk = renderReceipt(receiptMailData(ticket, discounted, shop, 'Europe/Bratislava', 'sk'));
    expect(sk.subject).toBe('Doklad 42 – Kaviareň');
    expect(sk.text).toContain('Doklad č. 42');
    expect(sk.text).toContain('Dátum: 2026-03-29 03:30');
    expect(sk.text).toContain('Obsluha: Jana');
    expect(sk.text).toContain('2 × 1,80  DPH 19 %');
    expect(sk.text).toMatch(/^Zľava 10,5 % +−0,36$/m);
    expect(sk.text).toMatch(/^SPOLU +3,09 EUR$/m);
    expect(sk.text).toMatch(/^Vydané +1,55$/m);
    expect(sk.text).toContain('Pokladničný doklad 42, denná uzávierka 7');
    expect(sk.text).toContain('Fiškálna pamäť DT123456 (FP1), pokladňa Pokladňa 1');
    expect(sk.html).toContain('<html lang="sk">');
    expect(sk.html).toContain('>Položka</th>');
    // No English word of the receipt's own is left in the Slovak one.
    expect(`${sk.text}\n${sk.html}`).not.toMatch(/\b(Receipt|Date|Served|Subtotal|Discount|TOTAL|Change|Fiscal|VAT|Item|Qty)\b/);
    const cs = renderReceipt(receiptMailData(ticket, receipt, shop, 'Europe/Prague', 'cs'));
    expect(cs.text).toMatch(/^CELKEM +3,45 EUR$/m);
    expect(cs.html).toContain('<html lang="cs">');
  });

  it('shows Slovak cash rounding (an eKasa receipt) signed, before the payments', () => {
    const rounded = { ...receipt, total: '3.48', rounding: '0.02', payments: [{ kind: 'Cash' as const, name: 'Hotovosť', amount: '5' }], change: '1.50' };
    const sk = renderReceipt(receiptMailData(ticket, rounded, shop, 'Europe/Bratislava', 'sk'));
    expect(sk.text).toMatch(/^Zaokrúhlenie hotovosti +\+0,02\nHotovosť +5,00\nVydané +1,50$/m);
    expect(sk.html).toContain('Zaokrúhlenie hotovosti</td><td style="padding:2px 6px;vertical-align:top;text-align:right;white-space:nowrap">+0,02');
    const down = renderReceipt(receiptMailData(ticket, { ...rounded, rounding: '-0.02' }, shop, 'UTC'));
    expect(down.text).toMatch(/^Cash rounding +-0\.02$/m);
    expect(renderReceipt(receiptMailData(ticket, receipt, shop, 'UTC')).text).not.toContain('rounding');
  });

  it('cuts a long item name in plain text but never the amount', () => {
    const long = { ...receipt, lines: [{ ...receipt.lines[0], name: 'X'.repeat(80), total: '1234567.89' }] };
    const text = renderReceipt(receiptMailData({ ...ticket, items: [{}] }, long, shop, 'UTC')).text;
    const line = text.split('\n').find((l) => l.startsWith('XXX'))!;
    expect(line).toMatch(/…\s+1234567\.89$/);
    expect(line.length).toBe(48);
  });
});

describe('SMTP settings', () => {
  it('reads smtp:// and smtps:// URLs, with encoded credentials and TLS options', () => {
    expect(smtpFromUrl('smtps://shop%40example.sk:p%3Ass@mail.example.sk')).toEqual({
      host: 'mail.example.sk',
      port: 465,
      tls: 'Implicit',
      user: 'shop@example.sk',
      password: 'p:ss',
      from: null,
    });
    expect(smtpFromUrl('smtp://127.0.0.1:2525')).toMatchObject({ host: '127.0.0.1', port: 2525, tls: 'Opportunistic', user: null, password: null });
    expect(smtpFromUrl('smtp://relay?requireTLS=true')).toMatchObject({ port: 587, tls: 'Required' });
    expect(smtpFromUrl('smtp://relay:25?ignoreTLS=true')).toMatchObject({ port: 25, tls: 'Off' });
  });

  it('take the environment until settings are stored, which then win as a whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'poshub-mail-'));
    const db = openDb(join(dir, 'hub.sqlite'));
    try {
      const settings = new MailSettings(db, new FakeClock(), { smtpUrl: 'smtp://bob:pw@mail.example.sk:2525', smtpFrom: 'Bistro <b@example.sk>', shopName: 'Bistro' });
      // A body as PUT /api/receipts/settings reads it (its defaults applied) before the service gets it.
      const put = (body: unknown) => settings.put(settingsSchema.parse(body));
      expect(settings.smtp()).toEqual({ host: 'mail.example.sk', port: 2525, tls: 'Opportunistic', user: 'bob', password: 'pw', from: 'Bistro <b@example.sk>' });
      expect(settings.shop()).toEqual({ name: 'Bistro', addressLines: [], footerLines: [] });
      const shown = settings.present();
      expect(shown).toMatchObject({ smtp: null, effective: { smtpSource: 'Environment', shopName: 'Bistro', smtp: { user: 'bob', passwordSet: true } }, _v: 0 });
      expect(JSON.stringify(shown)).not.toContain('pw"');
      put({ shopName: 'Bistro 2', smtp: { host: 'relay.example.sk', user: 'alice@example.sk', password: 'x' } });
      // The environment's credentials never mix into the stored server; its From still serves as the default From.
      expect(settings.smtp()).toEqual({ host: 'relay.example.sk', port: 587, tls: 'Opportunistic', user: 'alice@example.sk', password: 'x', from: 'Bistro <b@example.sk>' });
      put({ smtp: { host: 'relay.example.sk', user: 'alice', password: 'x' } });
      expect(settings.shop().name).toBe('Bistro');
      // A left-out password is kept for the same host and user, and dropped for another server or login.
      put({ smtp: { host: 'relay.example.sk', user: 'alice' } });
      expect(settings.smtp()?.password).toBe('x');
      put({ smtp: { host: 'other.example.sk', user: 'alice' } });
      expect(settings.smtp()?.password).toBeNull();
      expect(settings.present()).toMatchObject({ smtp: { passwordSet: false } });
      put({ smtp: { host: 'other.example.sk', user: 'alice', password: 'y' } });
      put({ smtp: { host: 'other.example.sk', user: 'bob' } });
      expect(settings.smtp()?.password).toBeNull();
      // …and for another port or TLS mode (CONTRACT §12): a port left out is the TLS mode's default.
      const server = { host: 'other.example.sk', user: 'alice', tls: 'Required', port: 587 };
      for (const [moved, kept] of [
        [{ port: null }, true],
        [{ port: 2525 }, false],
        [{ tls: 'Off' }, false],
        [{ tls: 'Opportunistic' }, false],
        [{ tls: 'Implicit', port: 587 }, false],
        [{ host: 'OTHER.example.sk' }, false],
        [{ user: null }, false],
      ] as const) {
        put({ smtp: { ...server, password: 'z' } });
        put({ smtp: { ...server, ...moved } });
        expect([moved, settings.smtp()?.password ?? null]).toEqual([moved, kept ? 'z' : null]);
      }
      put({ smtp: null });
      expect(settings.smtp()?.host).toBe('mail.example.sk');
      expect(new MailSettings(db, new FakeClock(), {}).put(settingsSchema.parse({ smtp: null }))).toMatchObject({ effective: { smtpSource: 'None', smtp: null, shopName: 'POS Hub' } });
    } finally {
      closeDb(db);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('POS_HUB_MAIL_RETRY and POS_HUB_MAIL_GIVE_UP are durations within bounds', () => {
    expect(loadConfig({})).toMatchObject({ mailRetryMs: 15_000, mailGiveUpMs: 48 * 3_600_000 });
    expect(loadConfig({ POS_HUB_MAIL_RETRY: '250ms', POS_HUB_MAIL_GIVE_UP: '3d' })).toMatchObject({ mailRetryMs: 250, mailGiveUpMs: 3 * 86_400_000 });
    for (const [name, value] of [
      ['POS_HUB_MAIL_RETRY', '10ms'],
      ['POS_HUB_MAIL_RETRY', '2h'],
      ['POS_HUB_MAIL_RETRY', 'soon'],
      ['POS_HUB_MAIL_GIVE_UP', '30s'],
      ['POS_HUB_MAIL_GIVE_UP', '31d'],
    ]) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(name);
    }
  });
});

describe('delivery details', () => {
  it('classifies SMTP errors: 5xx permanent (not 503), 4xx and connection errors temporary, a refused login the server\'s', () => {
    expect(classifySendError({ responseCode: 550, response: '550 No such user' })).toEqual({ permanent: true, serverWide: false, message: '550 No such user' });
    expect(classifySendError({ responseCode: 503, response: '503 Bad sequence' })).toMatchObject({ permanent: false, serverWide: false });
    expect(classifySendError({ responseCode: 452, response: '452 Mailbox full' })).toMatchObject({ permanent: false, serverWide: false });
    expect(classifySendError({ responseCode: 421, response: '421 Closing' })).toMatchObject({ permanent: false, serverWide: true });
    expect(classifySendError({ code: 'EAUTH', responseCode: 535, response: '535 Bad login' })).toMatchObject({ permanent: false, serverWide: true });
    expect(classifySendError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ESOCKET' }))).toMatchObject({ permanent: false, serverWide: true });
    expect(classifySendError(Object.assign(new Error('the hub is shutting down'), { code: 'EABORT' }))).toMatchObject({ permanent: false, serverWide: false });
  });

  it('derives the Message-ID from the outbox id, the resend round and the From domain', () => {
    expect(messageIdOf({ id: 'abc', round: 0 }, 'Bistro <pokladna@bistro.example>')).toBe('<abc@bistro.example>');
    expect(messageIdOf({ id: 'abc', round: 2 }, 'pokladna@bistro.example')).toBe('<abc.2@bistro.example>');
  });
});
