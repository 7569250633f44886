/**
 * Debian's Chromium headless shell (package chromium-headless-shell) for the browser tests: the same
 * Blink and V8 as the chromium package, without the browser's windows, toolbar and profile machinery.
 * Playwright drives it (`npx playwright install` does not work on these machines) as it drives its
 * own headless shell, its default for headless runs. The full browser in headless mode cost a third
 * more CPU for the same pages (test/web/manager.test.ts and kds.test.ts: 16.7 s of the browser's
 * processes against 11.1 s), and a WebUI renderer per window for the omnibox popup nobody sees
 * unless turned off by name. A machine with only the full browser (package chromium, as the README
 * once asked for) runs the tests on it in headless mode, slower. Neither on a developer's machine:
 * those tests skip with a word; in CI (CI=true, as .ci/run sets, which installs the headless shell)
 * a missing browser fails instead of skipping.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page, type PageScreenshotOptions } from 'playwright-core';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const FULL_BROWSER = '/usr/bin/chromium';
const CHROMIUM = existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_BROWSER;

async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

export function chromiumAvailable(what: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true') throw new Error(`${HEADLESS_SHELL} is missing: ${what} needs it (apt-get install -y chromium-headless-shell; .ci/run does).`);
  console.warn(`${what} skipped: ${HEADLESS_SHELL} is missing. Install Debian's Chromium headless shell (apt-get install -y chromium-headless-shell); .ci/run does.`);
  return false;
}

let shared: Promise<Browser> | undefined;

/**
 * One Chromium per test worker, shared by the browser test files it runs one after another (a launch
 * costs ~0.5 s of a core). Each file gets a handle whose close() closes the contexts — windows,
 * cookies, storage — still open, and leaves the browser running for the next file; a browser that
 * has gone (crashed, killed) is launched again. Playwright ends it with the worker.
 */
export async function launchChromium(): Promise<Browser> {
  let browser = shared && (await shared.catch(() => undefined));
  if (!browser?.isConnected()) {
    shared = launch();
    browser = await shared;
  }
  const real = browser;
  return new Proxy(real, {
    get(target, prop) {
      if (prop === 'close') return async () => void (await Promise.all(target.contexts().map((c) => c.close())));
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Closes every context (window) the shared browser still has open: after each test (setup.ts), so
 * a page one test opened does not go on running its timers, streams and renders, on a core the
 * next tests need, until the file ends.
 */
export async function closeOpenContexts(): Promise<void> {
  const browser = shared && (await shared.catch(() => undefined));
  if (browser?.isConnected()) await Promise.all(browser.contexts().map((c) => c.close().catch(() => undefined)));
}

/**
 * Ends the shared browser for good: for a script (`npm run screenshots`, the register's bench), whose
 * process would otherwise wait on the Chromium a test worker leaves to Playwright to end.
 */
export async function endChromium(): Promise<void> {
  const browser = shared && (await shared.catch(() => undefined));
  shared = undefined;
  if (browser?.isConnected()) await browser.close();
}

/**
 * A browser test's screenshot, for a person to look at (test/web/screenshots, git-ignored): taken when
 * asked, `POS_TEST_SCREENSHOTS=1 npx vitest run --config test/vitest.config.ts test/web`, and not in
 * every `npm test`, where the seventy-odd of them cost ~3 s of a core (Chromium encodes each PNG)
 * and nobody looks. A screenshot asserts nothing; the test around it asserts the same either way.
 */
export async function screenshot(page: Page, options: PageScreenshotOptions & { path: string }): Promise<void> {
  if (process.env.POS_TEST_SCREENSHOTS === '1') await page.screenshot(options);
}
