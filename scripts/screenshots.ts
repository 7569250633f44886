/**
 * `npm run screenshots`: the manager's page at laptop and tablet sizes, every view, into
 * test/web/screenshots/<size>/ (git-ignored), and the register's screens on a phone, a tablet and a
 * laptop into test/web/screenshots/register/<size>/ (scripts/screenshots-register.ts), for a person to look at. Not a test: it used to be
 * one (test/web/manager.test.ts), where it took two minutes of browser time; the suite keeps the
 * cheap part, every view rendering without a page error at one size.
 *   npm run screenshots [-- --out=/tmp/shots]
 * Needs Debian's Chromium headless shell (/usr/bin/chromium-headless-shell), as the browser tests do. Runs the real app
 * in-process on 127.0.0.1 with a small restaurant, a stock count and two customers.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { FakeClock } from '../hub/core/clock.js';
import { ADMIN_PASSWORD, startHub } from '../test/support/hub.js';
import { expect2xx, item, register, restaurant } from '../test/tickets/fixture.js';
import { ensureWebBuild } from '../test/web/build.js';
import { chromiumAvailable, endChromium, launchChromium } from '../test/support/chromium.js';
import { managerViews } from '../test/support/manager-views.js';
import { registerTour } from './screenshots-register.js';

const out = process.argv.find((a) => a.startsWith('--out='))?.slice('--out='.length);
const SHOTS = out ? `${resolve(out)}/` : fileURLToPath(new URL('../test/web/screenshots/', import.meta.url));
const SIZES = [
  { name: 'laptop-1366x768', width: 1366, height: 768 },
  { name: 'tablet-1280x800', width: 1280, height: 800 },
  { name: 'tablet-portrait-800x1280', width: 800, height: 1280 },
];
const say = (s: string) => process.stdout.write(`${s}\n`);

async function main(): Promise<void> {
  if (!chromiumAvailable('npm run screenshots')) process.exit(1);
  await ensureWebBuild();
  const hub = await startHub({ clock: new FakeClock(new Date()) });
  const browser = await launchChromium();
  const errors: string[] = [];
  try {
    await restaurant(hub);
    const cashier = await register(hub);
    await expect2xx(hub.call('POST', '/api/stocks', { name: 'Sklad' }));
    for (const [code, name] of [
      [501, 'Bryndza'],
      [502, 'Zemiaky'],
      [503, 'Kyslá kapusta'],
    ] as const) {
      await expect2xx(hub.call('POST', '/api/plus', { code, name, stockName: 'Sklad', type: 'StockItem' }));
    }
    await expect2xx(hub.call('POST', '/api/stocktakings', { items: [{ plu: { code: 501, stockName: 'Sklad' }, actualQuantity: 9.5 }, { plu: { code: 502, stockName: 'Sklad' }, actualQuantity: 21 }] }));
    await expect2xx(hub.call('POST', '/api/customers', { id: 'stastny', firstName: 'Ľubomír', lastName: 'Šťastný', email: 'lubo@example.sk', cards: [{ serialNumber: '1001' }] }));
    await expect2xx(hub.call('POST', '/api/customers', { id: 'dvorak', firstName: 'Jiří', lastName: 'Dvořák', cards: [{ serialNumber: '1003' }] }));
    const ticket = (body: Record<string, unknown>) => expect2xx(hub.call('POST', '/api/tickets', body, { token: cashier.token }));
    const closed = await ticket({ name: 'Stôl 5', location: { tableName: '5' }, items: [item(1, 2)] });
    await expect2xx(hub.call('POST', `/api/tickets/${closed.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 20 }] }, { token: cashier.token }));
    await ticket({ name: 'Stôl 7', location: { tableName: '7' }, items: [item(2, 1)], discountRate: 10 });
    const t = await ticket({ name: 'Stôl 3', location: { tableName: '3', zoneName: 'Terasa' }, items: [item(1, 2), item(2, 1), item(3, 2)] });
    const takings = (await hub.call('GET', '/api/stocktakings')).body.items;

    for (const size of SIZES) {
      const dir = `${SHOTS}${size.name}/`;
      mkdirSync(dir, { recursive: true });
      const context = await browser.newContext({ viewport: size, locale: 'en-US', reducedMotion: 'reduce' });
      const page: Page = await context.newPage();
      page.setDefaultTimeout(20_000);
      page.on('pageerror', (e) => errors.push(`${size.name}: ${e.message}`));
      await page.goto(`${hub.url}/`);
      await page.getByRole('button', { name: 'Log in' }).waitFor();
      await page.screenshot({ path: `${dir}login.png` });
      await page.getByLabel('User name').fill('admin');
      await page.getByLabel('Password').fill(ADMIN_PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.locator('.shell').waitFor();
      for (const [name, url, ready] of managerViews({ ticketId: t.id, stocktakingId: takings[0].id })) {
        await page.evaluate((to) => {
          history.pushState(null, '', to);
          dispatchEvent(new PopStateEvent('popstate'));
        }, url);
        await page.getByTestId(ready).first().waitFor();
        await page.waitForFunction(() => !document.querySelector('[aria-busy=true], .loading, .table-placeholder'));
        await page.screenshot({ path: `${dir}${name}.png` });
      }
      await context.close();
      say(`${dir}: ${managerViews({ ticketId: '', stocktakingId: '' }).length + 1} screenshots`);
    }
    await registerTour(hub, browser, SHOTS, errors, say);
  } finally {
    await browser.close();
    await endChromium();
    await hub.close();
  }
  if (errors.length) {
    say(`page errors:\n${errors.join('\n')}`);
    process.exit(1);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
