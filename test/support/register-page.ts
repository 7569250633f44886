/**
 * The register (hub/web/register, issue 29) in a browser tab, for its browser tests: a tab of a given
 * size in a Slovak shop, read in Slovak (the shop's language) or in English (this browser's own
 * choice, as the language picker keeps it), and the words its tests look for.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect2xx } from '../tickets/fixture.js';
import type { TestHub } from './hub.js';

export type Lang = 'sk' | 'en';

export const SIZES = {
  laptop: { width: 1366, height: 768 },
  tablet: { width: 800, height: 1280 },
  phone: { width: 360, height: 640 },
};

/** What the tests read and tap, in both languages (the catalogs' texts). */
export const WORDS = {
  sk: {
    noCode: 'Nemáte kód? Prihláste sa heslom na pokladni, ktorú vytvoril vedúci',
    register: 'Pokladňa (názov zariadenia)',
    user: 'Používateľské meno',
    password: 'Heslo',
    useIt: 'Používať ako túto pokladňu',
    logIn: 'Prihlásiť sa',
    pairingCode: 'Párovací kód',
    pair: 'Spárovať',
    online: 'Online',
    offline: 'Offline',
    tableByName: 'Stôl…',
    tableName: 'Názov alebo číslo stola',
    open: 'Otvoriť',
    quickSale: 'Rýchly predaj',
    add: 'Pridať',
    more: 'Viac',
    bill: 'Vytlačiť účet',
    split: 'Rozdeliť alebo presunúť položky',
    stornoLine: 'Storno (kuchyňa dostane zrušenie)',
    done: 'Hotovo',
    returns: 'Vrátenie',
    day: 'Zmena a uzávierka',
    comment: 'Poznámka pre kuchyňu',
    paid: 'Zaplatené',
    retry: 'Skúsiť znova',
    paperOut: 'došiel papier',
    waiting: 'na odoslanie čaká',
    payNeedsHub: 'Platba potrebuje hub',
    who: 'Kto pracuje?',
    locked: 'Zamknuté — ťuknite na svoje meno',
    lockedPassword: 'Zamknuté — prihláste sa a pokračujte',
    wrongPin: 'Nesprávny PIN. Skúste znova.',
    conflict: 'Iná pokladňa tento účet medzitým zmenila',
    addToTheirs: 'Pridať moje k ich zmenám',
    new: 'nové',
    sent: 'odoslané',
    storno: 'storno',
    minutes: (n: number) => `${n} min`,
  },
  en: {
    noCode: 'No code? Log in with a password on a register the manager made',
    register: 'Register (device name)',
    user: 'User name',
    password: 'Password',
    useIt: 'Use as this register',
    logIn: 'Log in',
    pairingCode: 'Pairing code',
    pair: 'Pair',
    online: 'Online',
    offline: 'Offline',
    tableByName: 'Table…',
    tableName: 'Table name or number',
    open: 'Open',
    quickSale: 'Quick sale',
    add: 'Add',
    more: 'More',
    bill: 'Print the bill',
    split: 'Split or move items',
    stornoLine: 'Storno (the kitchen gets a cancel)',
    done: 'Done',
    returns: 'Returns',
    day: 'Shift & end of day',
    comment: 'Comment for the kitchen',
    paid: 'Paid',
    retry: 'Try again',
    paperOut: 'out of paper',
    waiting: 'waiting to send',
    payNeedsHub: 'Paying needs the hub',
    who: 'Who is working?',
    locked: 'Locked — tap your name',
    lockedPassword: 'Locked — log in to go on',
    wrongPin: 'Wrong PIN. Try again.',
    conflict: 'Another register changed this ticket while you were typing',
    addToTheirs: 'Add mine to theirs',
    new: 'new',
    sent: 'sent',
    storno: 'storno',
    minutes: (n: number) => `${n} min`,
  },
};

/** The shop's waiters, as the register shows them and as they log in. */
export const WAITERS = {
  jana: { userName: 'jana', name: 'Jana Kováčová', password: 'pw-jana' },
  peter: { userName: 'peter', name: 'Peter Horváth', password: 'pw-peter' },
};

/** Adds waiter `who` to the hub's users, with `rights`. */
export function addWaiter(hub: TestHub, who: keyof typeof WAITERS, rights: readonly string[]): Promise<any> {
  return expect2xx(hub.call('POST', '/api/users', { ...WAITERS[who], rights: [...rights] }));
}

export interface RegisterTab {
  context: BrowserContext;
  page: Page;
  lang: Lang;
  words: (typeof WORDS)[Lang];
}

/**
 * A new browser (its own storage: a register of its own) at `url`/pos/ in `lang`. `clock`: the page's
 * timers and Date on Playwright's clock, installed before the page loads at this time (flowing).
 */
export async function openRegister(
  browser: Browser,
  url: string,
  lang: Lang,
  size: { width: number; height: number },
  opts: { errors?: string[]; clock?: number; context?: BrowserContext } = {},
): Promise<RegisterTab> {
  const context =
    opts.context ?? (await browser.newContext({ viewport: size, locale: lang === 'en' ? 'en-GB' : 'sk-SK', hasTouch: true, reducedMotion: 'reduce', serviceWorkers: 'block' }));
  if (lang === 'en' && !opts.context) await context.addInitScript(() => localStorage.setItem('poshub.language', 'en'));
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  if (opts.errors) page.on('pageerror', (e) => opts.errors!.push(e.message));
  if (opts.clock !== undefined) await page.clock.install({ time: opts.clock });
  await page.goto(`${url}/pos/`);
  return { context, page, lang, words: WORDS[lang] };
}

/** Sets the tab up as register `device` with a password login (no pairing code), which also logs `userName` in. */
export async function setUpWithPassword(tab: RegisterTab, device: string, userName: string, password: string): Promise<void> {
  const { page, words } = tab;
  await page.getByText(words.noCode).click();
  await page.getByLabel(words.register).fill(device);
  await page.getByLabel(words.user).fill(userName);
  await page.getByLabel(words.password).fill(password);
  await page.getByRole('button', { name: words.useIt }).click();
  await page.getByTestId('tables').waitFor();
  await page.locator('[data-testid=conn]', { hasText: words.online }).waitFor();
}

/** Opens (or creates) a ticket at the table typed by name. */
export async function openTable(tab: RegisterTab, table: string): Promise<void> {
  const { page, words } = tab;
  await page.getByRole('button', { name: words.tableByName }).click();
  await page.getByLabel(words.tableName).fill(table);
  await page.getByRole('button', { name: words.open, exact: true }).click();
  await page.getByTestId('order').waitFor();
}

/** The lines of the open ticket as the register shows them: [quantity, name, state]. */
export async function shownLines(page: Page): Promise<Array<[string, string, string]>> {
  return page.locator('[data-testid=lines] li').evaluateAll((items) =>
    items.map((li) => [
      (li.querySelector('.line-qty')?.textContent ?? '').trim(),
      (li.querySelector('.line-name')?.childNodes[0]?.textContent ?? '').trim(),
      li.getAttribute('data-state') ?? '',
    ]),
  ) as Promise<Array<[string, string, string]>>;
}

/** True when nothing on the page is wider than the viewport (no sideways scrolling on a phone). */
export async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
}
