/**
 * The manager's page in a browser tab, for the browser tests of its views (reports, settings,
 * tickets and customers, catalog and stock): logged in through the login screen in the page's
 * language, in a Slovak shop, as a Slovak or an English reader at a laptop's or a tablet's size.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ADMIN_PASSWORD } from './hub.js';

export type Lang = 'sk' | 'en';
export interface Size {
  name: string;
  width: number;
  height: number;
}

/** Each flow once in Slovak on a laptop and once in English on a tablet held upright. */
export const VARIANTS: Array<{ lang: Lang; size: Size }> = [
  { lang: 'sk', size: { name: 'laptop', width: 1366, height: 768 } },
  { lang: 'en', size: { name: 'tablet', width: 800, height: 1280 } },
];

/** The login screen's words. */
export const LOGIN = {
  sk: { user: 'Používateľské meno', password: 'Heslo', button: 'Prihlásiť sa' },
  en: { user: 'User name', password: 'Password', button: 'Log in' },
};

/** A text as the page shows it: its no-break and narrow no-break spaces (in figures) plain, trimmed. */
export const plain = (s: string | null): string => (s ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

/** An amount in euros as a Slovak page writes it ("1 234,50 €"), its spaces plain. */
export const skMoney = (euros: number): string => plain(`${new Intl.NumberFormat('sk', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(euros)} €`);

/** A field by its label, with or without the asterisk of a required one. */
export const label = (text: string): RegExp => new RegExp(`^${text}( \\*)?$`);

/** The pairing card's words (Devices, after adding a register or a kitchen display). */
const PAIRING = {
  sk: { codeFor: 'Párovací kód pre', validUntil: /^Platí do \d{1,2}:\d{2}, jedenkrát/ },
  en: { codeFor: 'Pairing code for', validUntil: /^Valid until \d{2}:\d{2}, once/ },
};

export interface OpenOptions {
  user?: { name: string; password: string };
  /** The browser's own clock zone (reports count local days). */
  timezoneId?: string;
  /** Collects the page's uncaught errors. */
  errors?: string[];
  /** The browser's clock starts at this instant and runs on from there (the page's own "today"). */
  clock?: Date;
}

/**
 * A new tab logged in to the page at `hub` (a Slovak shop) in `lang`: English is this browser's own
 * choice (the language picker's, kept in localStorage), as an English-speaking manager would make it.
 */
export async function openManagerPage(browser: Browser, url: string, lang: Lang, size: { width: number; height: number }, opts: OpenOptions = {}): Promise<Page> {
  const context: BrowserContext = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    locale: 'en-US',
    reducedMotion: 'reduce',
    acceptDownloads: true,
    ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
  });
  if (lang === 'en') await context.addInitScript(() => localStorage.setItem('poshub.language', 'en'));
  const page = await context.newPage();
  if (opts.clock) await page.clock.install({ time: opts.clock });
  // Generous: CI runs these beside the heaviest e2e files on two cores.
  page.setDefaultTimeout(20_000);
  if (opts.errors) page.on('pageerror', (e) => opts.errors!.push(e.message));
  await page.goto(`${url}/`);
  const user = opts.user ?? { name: 'admin', password: ADMIN_PASSWORD };
  await page.getByLabel(LOGIN[lang].user).fill(user.name);
  await page.getByLabel(LOGIN[lang].password).fill(user.password);
  await page.getByRole('button', { name: LOGIN[lang].button }).click();
  await page.locator('.shell').waitFor();
  return page;
}

/** Navigation inside the page (no reload), as a click on a link does. */
export async function go(page: Page, to: string): Promise<void> {
  await page.evaluate((url) => {
    history.pushState(null, '', url);
    dispatchEvent(new PopStateEvent('popstate'));
  }, to);
}

/**
 * The pairing card Devices shows once a register or a kitchen display is added, and its code: the
 * card names the device (`name`), the code has six digits and is valid once until a time.
 */
export async function pairingCard(page: Page, lang: Lang, name: string): Promise<{ pairing: Locator; code: string }> {
  const pairing = page.getByTestId('pairing');
  await pairing.getByTestId('pairing-code').waitFor();
  expect(await pairing.textContent()).toContain(`${PAIRING[lang].codeFor} ${name}`);
  const code = (await pairing.getByTestId('pairing-code').textContent())!.replace(/\s/g, '');
  expect(code).toMatch(/^\d{6}$/);
  expect(await pairing.getByTestId('pairing-expiry').textContent()).toMatch(PAIRING[lang].validUntil);
  return { pairing, code };
}
