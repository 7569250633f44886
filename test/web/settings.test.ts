/**
 * The Settings tabs of issue 21 in Debian's Chromium, in a Slovak shop: receipt and e-mail settings
 * saved on the page reach the hub (the password write-only: left empty, the stored one stays), the
 * outbox's Resend reaches the hub, a backup made on the page is listed and downloads, the registers
 * tab shows each device's last contact and flags a silent one; a fiscal printer's secret setting is
 * a password field that shows nothing (issue 30); a user without SettingsRead sees none of it and
 * the hub is not asked. In Slovak on a laptop and English on a portrait tablet.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../hub/core/clock.js';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { ensureWebBuild } from './build.js';
import { chromiumAvailable, launchChromium, screenshot } from '../support/chromium.js';
import { openManagerPage, VARIANTS, type Lang } from '../support/manager-page.js';

const haveChromium = chromiumAvailable('test/web/settings');
const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

const WORDS = {
  sk: { tabs: ['Doklady a e-mail', 'Odoslané e-maily', 'Zálohy', 'Pokladne'], save: 'Uložiť zmeny', resend: 'Poslať znova', inTouch: 'Spojené', silent: 'Bez spojenia', recent: /^(práve teraz|pred \d min)/, old: /^pred 2\d min/, stored: 'Heslo je uložené' },
  en: { tabs: ['Receipts & e-mail', 'E-mail outbox', 'Backups', 'Registers'], save: 'Save changes', resend: 'Resend', inTouch: 'In touch', silent: 'Silent', recent: /^(just now|\d min ago)/, old: /^2\d min ago/, stored: 'A password is stored' },
};

describe.skipIf(!haveChromium)('the Settings tabs for receipts, e-mails, backups and registers', () => {
  let hub: TestHub;
  let browser: Browser;
  let emailId: string;
  let registerName: string; // numbered by the fixture, which counts across the files of one worker

  beforeAll(async () => {
    await ensureWebBuild();
    const now = new Date();
    hub = await startHub({ locale: 'sk', clock: new FakeClock(now) });
    browser = await launchChromium();
    await restaurant(hub);
    // A register that was heard from 25 minutes ago, and one heard from now.
    await expect2xx(hub.call('POST', '/api/devices', { name: 'Terasa', envName: 'PDA' }));
    hub.clock.set(new Date(now.getTime() - 25 * 60_000));
    await hub.login('admin', ADMIN_PASSWORD, 'Terasa');
    hub.clock.set(now);
    const cashier = await register(hub);
    registerName = cashier.device;
    // A ticket closed with the guest's address queues an e-mail receipt.
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, { token: cashier.token }));
    await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 6.9 }], receipt: { email: 'host@example.sk' } }, { token: cashier.token }));
    emailId = (await expect2xx(hub.call('GET', '/api/receipts/emails'))).items[0].id;
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  const open = (lang: Lang, size: { width: number; height: number }, user = { name: 'admin', password: ADMIN_PASSWORD }): Promise<Page> =>
    openManagerPage(browser, hub.url, lang, size, { user, timezoneId: 'Europe/Bratislava' });

  const tab = async (page: Page, label: string) => {
    await page.locator('.tabs a', { hasText: label }).click();
  };

  for (const { lang, size } of VARIANTS) {
    it(`saves the receipt settings, resends an e-mail, makes and downloads a backup, shows the registers' contact (${lang}, ${size.name})`, async () => {
      const page = await open(lang, size);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${hub.url}/settings`);
      const [receipts, outbox, backups, registers] = WORDS[lang].tabs;

      // --- Receipts & e-mail
      await tab(page, receipts);
      await page.getByTestId('rs-shopName').waitFor();
      if (lang === 'sk') {
        await page.getByTestId('rs-shopName').fill('Bistro Tatra');
        await page.getByTestId('rs-addressLines').fill('Hlavná 1\nBratislava');
        await page.getByTestId('rs-footerLines').fill('Ďakujeme za návštevu');
        await page.getByTestId('rs-ownServer').check();
        await page.getByTestId('rs-host').fill('smtp.bistro.sk');
        await page.getByTestId('rs-port').fill('2525');
        await page.getByTestId('rs-tls').selectOption('Required');
        await page.getByTestId('rs-user').fill('pokladna');
        await page.getByTestId('rs-password').fill('tajne-heslo');
        await page.getByTestId('rs-from').fill('Bistro <pokladna@bistro.sk>');
      } else {
        // What the Slovak manager stored is on the form; the password is not, and stays stored.
        await expect.poll(() => page.getByTestId('rs-host').inputValue()).toBe('smtp.bistro.sk');
        expect(await page.getByTestId('rs-password').inputValue()).toBe('');
        await page.getByText(WORDS[lang].stored).waitFor();
        await page.getByTestId('rs-footerLines').fill('Thank you\nCome again');
      }
      await screenshot(page, { path: `${SHOTS}settings-receipts-${lang}-${size.name}.png`, fullPage: true });
      const put = page.waitForResponse((r) => r.url().endsWith('/api/receipts/settings') && r.request().method() === 'PUT');
      await page.getByRole('button', { name: WORDS[lang].save }).click();
      expect((await put).status()).toBe(200);
      const stored = (await expect2xx(hub.call('GET', '/api/receipts/settings'))) as Record<string, any>;
      expect(stored.shopName).toBe('Bistro Tatra');
      expect(stored.addressLines).toEqual(['Hlavná 1', 'Bratislava']);
      expect(stored.footerLines).toEqual(lang === 'sk' ? ['Ďakujeme za návštevu'] : ['Thank you', 'Come again']);
      expect(stored.smtp).toMatchObject({ host: 'smtp.bistro.sk', port: 2525, tls: 'Required', user: 'pokladna', from: 'Bistro <pokladna@bistro.sk>', passwordSet: true });

      // --- E-mail outbox: the queued receipt, and Resend reaching the hub
      await tab(page, outbox);
      const row = page.locator('[data-testid="table-receipts/emails"] tbody tr', { hasText: 'host@example.sk' });
      await row.waitFor();
      const resend = page.waitForResponse((r) => r.url().endsWith(`/api/receipts/emails/${emailId}/resend`) && r.request().method() === 'POST');
      await row.getByRole('button', { name: WORDS[lang].resend }).click();
      // The hub took it (a waiting e-mail is tried at once, a sent or failed one queued again) and answered the e-mail.
      const answer = await resend;
      expect(answer.status()).toBe(200);
      expect(((await answer.json()) as { id: string; to: string })).toMatchObject({ id: emailId, to: 'host@example.sk' });
      await screenshot(page, { path: `${SHOTS}settings-outbox-${lang}-${size.name}.png`, fullPage: true });

      // --- Backups: made on the page, listed, downloaded
      await tab(page, backups);
      const had = new Set(((await expect2xx(hub.call('GET', '/api/backups'))).items as Array<{ file: string }>).map((x) => x.file));
      await page.getByTestId('backup-now').click();
      await expect.poll(async () => (await hub.call('GET', '/api/backups')).body.items.length).toBe(had.size + 1);
      const newest = ((await expect2xx(hub.call('GET', '/api/backups'))).items as Array<{ file: string; size: number }>).find((x) => !had.has(x.file))!;
      const line = page.locator(`[data-testid=backups] tr[data-file="${newest.file}"]`);
      await line.waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), line.getByRole('button').click()]);
      expect(download.suggestedFilename()).toBe(newest.file);
      const bytes = readFileSync((await download.path())!);
      expect(bytes.length).toBe(newest.size);
      expect(bytes.subarray(0, 15).toString('latin1')).toBe('SQLite format 3');
      await screenshot(page, { path: `${SHOTS}settings-backups-${lang}-${size.name}.png`, fullPage: true });

      // --- Registers: the one just heard from, and the silent one flagged
      await tab(page, registers);
      const reg = page.locator(`[data-testid=registers] tr[data-device="${registerName}"]`);
      await reg.waitFor();
      expect((await reg.locator('[data-col=contact]').textContent())?.trim()).toMatch(WORDS[lang].recent);
      expect((await reg.locator('[data-col=state]').textContent())?.trim()).toBe(WORDS[lang].inTouch);
      const old = page.locator('[data-testid=registers] tr[data-device="Terasa"]');
      expect((await old.locator('[data-col=contact]').textContent())?.trim()).toMatch(WORDS[lang].old);
      expect((await old.locator('[data-col=state]').textContent())?.trim()).toBe(WORDS[lang].silent);
      await screenshot(page, { path: `${SHOTS}settings-registers-${lang}-${size.name}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  it("a fiscal printer's secret setting: a password field that shows nothing; left empty it stays, typed it is replaced", async () => {
    await expect2xx(hub.call('POST', '/api/fiscaldevices', { name: 'DT9', driver: 'datecs', address: 'tcp://127.0.0.1:9', settings: { OperatorPassword: '4711', TillNumber: '1' } }));
    const settingsOf = async () => JSON.parse(hub.db.get<{ s: string }>(sql`SELECT json_extract(doc, '$.settings') AS s FROM fiscal_devices WHERE name = 'DT9'`)!.s);
    const page = await open('en', { width: 1366, height: 768 });
    await page.goto(`${hub.url}/settings/devices?kind=fiscal&edit=DT9`);
    const secret = page.getByLabel('OperatorPassword');
    await secret.waitFor();
    expect(await secret.getAttribute('type')).toBe('password');
    expect(await secret.inputValue()).toBe('');
    expect(await page.content()).not.toContain('4711');
    // Another setting changed, the password left empty: it stays.
    await page.getByLabel('TillNumber').fill('2');
    await page.getByTestId('save').click();
    await expect.poll(async () => (await settingsOf()).TillNumber).toBe('2');
    expect(await settingsOf()).toEqual({ OperatorPassword: '4711', TillNumber: '2' });
    // Typed, it replaces the stored one.
    await page.goto(`${hub.url}/settings/devices?kind=fiscal&edit=DT9`);
    await page.getByLabel('OperatorPassword').fill('1234');
    await page.getByTestId('save').click();
    await expect.poll(async () => (await settingsOf()).OperatorPassword).toBe('1234');
    await page.context().close();
  });

  it('shows none of it to a user without SettingsRead, and asks the hub nothing; without the write rights, reading only', async () => {
    await expect2xx(hub.call('POST', '/api/users', { userName: 'jozo', password: 'pw-jozo', rights: ['TicketCreate', 'ReportRead'] }));
    let page = await open('sk', { width: 1366, height: 768 }, { name: 'jozo', password: 'pw-jozo' });
    const asked: Array<{ url: string; status: number }> = [];
    page.on('response', (r) => asked.push({ url: r.url(), status: r.status() }));
    expect(await page.getByRole('navigation').getByText('Nastavenia', { exact: true }).count()).toBe(0);
    for (const path of ['/settings/receipts', '/settings/outbox', '/settings/backups', '/settings/registers']) {
      await page.goto(`${hub.url}${path}`);
      await page.getByText('Táto stránka nie je súčasťou vašej práce').waitFor();
    }
    expect(asked.filter((a) => /\/api\/(receipts|backups|health)/.test(a.url))).toEqual([]);
    expect(asked.filter((a) => a.status === 403)).toEqual([]);
    await page.context().close();

    // SettingsRead alone: the settings are shown, the buttons that write are not.
    await expect2xx(hub.call('POST', '/api/users', { userName: 'eva', password: 'pw-eva', rights: ['SettingsRead'] }));
    await expect2xx(hub.call('POST', '/api/backups'));
    page = await open('en', { width: 1366, height: 768 }, { name: 'eva', password: 'pw-eva' });
    await page.goto(`${hub.url}/settings/receipts`);
    await expect.poll(() => page.getByTestId('rs-shopName').inputValue()).toBe('Bistro Tatra');
    expect(await page.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    await page.goto(`${hub.url}/settings/outbox`);
    await page.locator('[data-testid="table-receipts/emails"] tbody tr', { hasText: 'host@example.sk' }).waitFor();
    expect(await page.getByRole('button', { name: 'Resend' }).count()).toBe(0);
    await page.goto(`${hub.url}/settings/backups`);
    await page.locator('[data-testid=backups]').waitFor();
    expect(await page.getByTestId('backup-now').count()).toBe(0);
    expect(await page.locator('[data-testid=backups]').getByRole('button').count()).toBe(0);
    await page.context().close();
  });
});
