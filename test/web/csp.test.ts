/**
 * The pages under their Content-Security-Policy in Debian's Chromium (issue 30 point 10): the
 * manager's page (login and a view), the kitchen display, the API docs and Swagger UI all work with
 * not one violation reported, and none of them can be framed (clickjacking).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { openManagerPage } from '../support/manager-page.js';
import { expect2xx } from '../tickets/fixture.js';

const haveChromium = chromiumAvailable('test/web/csp');

/** Every CSP violation the page reports, from its first script on (the listener is in place before any page script runs). */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    (window as unknown as { __violations: string[] }).__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __violations: string[] }).__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  const refused: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
  });
  return async () => [...refused, ...(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations))];
}

describe.skipIf(!haveChromium)('the pages under their CSP', () => {
  let hub: TestHub;
  let browser: Browser;
  beforeAll(async () => {
    hub = await startHub();
    await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Kitchen', type: 'Tablet' }));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it("the manager's page logs in and shows its views with no violation", async () => {
    const errors: string[] = [];
    const page = await openManagerPage(browser, hub.url, 'en', { width: 1366, height: 768 }, { errors });
    const violations = await watchViolations(page);
    await page.reload();
    await page.locator('.shell').waitFor();
    await page.goto(`${hub.url}/settings`);
    await page.locator('.shell').waitFor();
    await page.goto(`${hub.url}/reports`);
    await page.locator('.shell').waitFor();
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('the kitchen display, the API docs and Swagger UI work with no violation', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const violations = await watchViolations(page);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(`${hub.url}/kds/Kitchen`);
    await page.getByRole('button', { name: '1', exact: true }).waitFor();
    await page.goto(`${hub.url}/api/docs/`);
    await page.locator('#docs[data-ready]').waitFor();
    await page.goto(`${hub.url}/api/docs/swagger/`);
    await page.locator('.swagger-ui .opblock').first().waitFor();
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
    // The watch sees what the policy refuses: a script slipped into the page as markup does not run.
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__ran = true';
      document.body.append(s);
    });
    await expect.poll(async () => (await violations()).length).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
    await context.close();
  });

  it('no page can be framed by another page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (m) => refused.push(m.text()));
    // A page of another origin (about:blank here) framing the hub's pages, as a clickjacking page would.
    const paths = ['/', '/kds/Kitchen', '/api/docs/'];
    await page.setContent(paths.map((p) => `<iframe src="${hub.url}${p}" width="400" height="300"></iframe>`).join(''));
    await expect.poll(() => refused.filter((t) => /frame-ancestors/.test(t)).length, { timeout: 20_000 }).toBe(paths.length);
    for (const frame of page.frames().slice(1)) expect(await frame.locator('#app, #kds, #docs').count()).toBe(0);
    await context.close();
  });
});
