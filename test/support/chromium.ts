/**
 * Debian's Chromium for the browser tests (playwright-core drives it; `npx playwright install` does
 * not work on these machines). Missing on a developer's machine: those tests skip with a word; in CI
 * (CI=true, as .ci/run sets, which installs it) a missing browser fails instead of skipping.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

/**
 * Chromium (156) gives every window — each test's context is one — a toolbar whose omnibox popup is
 * a WebUI page in a renderer of its own, made up front: over a third of the browser's CPU in the
 * suite (37 of ~110 s of a 270 s run), for a toolbar nobody sees. Chromium takes only the last
 * --disable-features, so ours repeats Playwright's own (playwright-core 1.65, chromiumSwitches.ts);
 * launchChromium checks that it still does, and otherwise launches again with both.
 */
const OMNIBOX_POPUP = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];
const PLAYWRIGHT_DISABLED = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/** Each --disable-features list the Chromium processes this process started run with, in order, per process. */
function disabledFeatureLists(): string[][][] {
  const lists: string[][][] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== process.pid) continue;
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!args[0].includes('chromium')) continue;
      lists.push(args.filter((a) => a.startsWith('--disable-features=')).map((a) => a.slice('--disable-features='.length).split(',')));
    } catch {
      /* gone meanwhile */
    }
  }
  return lists;
}

async function launch(disabled: string[]): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', `--disable-features=${disabled.join(',')}`],
  });
}

/** Chromium without the omnibox popups, and with every feature Playwright itself turns off still off. */
async function launchWithoutOmniboxPopups(): Promise<Browser> {
  const ours = [...PLAYWRIGHT_DISABLED, ...OMNIBOX_POPUP];
  const browser = await launch(ours);
  // Playwright's list came first on the command line; one it has that ours lacks would be back on.
  const missing = [...new Set(disabledFeatureLists().flatMap((lists) => (lists.length > 1 ? lists[0] : [])))].filter((f) => !ours.includes(f));
  if (!missing.length) return browser;
  await browser.close();
  return launch([...ours, ...missing]);
}

export function chromiumAvailable(what: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: ${what} needs it (apt-get install -y chromium; .ci/run does).`);
  console.warn(`${what} skipped: ${CHROMIUM} is missing. Install Debian's Chromium (apt-get install -y chromium); .ci/run does.`);
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
    shared = launchWithoutOmniboxPopups();
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
