/**
 * The API's readable docs in Debian's Chromium (issue 21): /api/docs/ lists every operation of the
 * document within 2 s (Swagger UI took 8–20 s on a shop's tablet), opens one on a click, filters,
 * and links to Swagger UI for trying requests out.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';

const haveChromium = chromiumAvailable('test/web/docs');

describe.skipIf(!haveChromium)('the API docs page', () => {
  let hub: TestHub;
  let browser: Browser;
  beforeAll(async () => {
    hub = await startHub();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('shows every operation, opens one with its rights and answers, and filters', async () => {
    const doc = (await hub.call('GET', '/api/openapi.json', undefined, { token: null })).body;
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      ['get', 'post', 'put', 'patch', 'delete'].filter((m) => item[m]).map((m) => `${m} ${path}`),
    );
    const context = await browser.newContext({ viewport: { width: 800, height: 1280 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${hub.url}/api/docs/`);
    await page.locator('#docs[data-ready]').waitFor({ timeout: 20_000 });
    expect(await page.locator('details.op').count()).toBe(operations.length);

    const close = page.locator('details.op', { has: page.locator('code.path', { hasText: /^\/api\/tickets\/\{id\}\/close$/ }) });
    await close.locator('summary').click();
    await expect.poll(() => close.locator('.rights').textContent()).toContain('TicketClose');
    expect(await close.locator('details.response summary').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^200 /), expect.stringMatching(/^409 /)]));

    await page.locator('input[type=search]').fill('/api/backups');
    const backups = operations.filter((o) => o.includes('/api/backups')).length;
    expect(backups).toBeGreaterThan(1);
    await expect.poll(() => page.locator('details.op:visible').count()).toBe(backups);
    expect(await page.getByRole('link', { name: /Swagger UI/ }).getAttribute('href')).toBe('swagger/');
    expect(errors).toEqual([]);
    await context.close();
  });
});
