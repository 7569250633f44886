/**
 * Debian's Chromium for the browser tests (playwright-core drives it; `npx playwright install` does
 * not work on these machines). Missing on a developer's machine: those tests skip with a word; in CI
 * (CI=true, as .ci/run sets, which installs it) a missing browser fails instead of skipping.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

export function chromiumAvailable(what: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: ${what} needs it (apt-get install -y chromium; .ci/run does).`);
  console.warn(`${what} skipped: ${CHROMIUM} is missing. Install Debian's Chromium (apt-get install -y chromium); .ci/run does.`);
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}
