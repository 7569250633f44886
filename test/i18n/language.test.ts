/**
 * Whose language (issue 21): the pages are served in the shop's (POS_HUB_LOCALE, as `<html lang>`), a
 * user may have one of their own (users.language, in their session), and the API's reports answer in it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx } from '../tickets/fixture.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub({ locale: 'sk' });
});
afterAll(() => hub.close());

const page = async (path: string) => (await fetch(`${hub.url}${path}`, { headers: { accept: 'text/html' } })).text();

describe('the language of the pages and of each user', () => {
  it('serves the manager\'s page and the kitchen display with the shop\'s language as <html lang>', async () => {
    expect(await page('/')).toMatch(/<html lang="sk">/);
    expect(await page('/tickets')).toMatch(/<html lang="sk">/);
    expect(await page('/kds/Kuchyna')).toMatch(/<html lang="sk">/);
  });

  it('a user\'s own language is stored, shown in their session, and null means the shop\'s', async () => {
    const created = await expect2xx(hub.call('POST', '/api/users', { userName: 'anna', password: 'pw-anna', rights: ['ReportRead'], language: 'en' }));
    expect(created.language).toBe('en');
    const plain = await expect2xx(hub.call('POST', '/api/users', { userName: 'jozef', password: 'pw-jozef', rights: ['ReportRead'] }));
    expect(plain.language).toBeNull();
    const login = await hub.call('POST', '/api/auth', { userName: 'anna', password: 'pw-anna', deviceName: 'BackOffice' }, { token: null });
    expect(login.body.user.language).toBe('en');
    const other = await hub.call('POST', '/api/auth', { userName: 'jozef', password: 'pw-jozef', deviceName: 'BackOffice' }, { token: null });
    expect(other.body.user.language).toBeNull();
    // A report's CSV follows the user's language, else the shop's: English headers for anna, Slovak for jozef.
    const csv = async (token: string) => (await fetch(`${hub.url}/api/reports/sales?from=2026-11-01&to=2026-11-30&groupBy=product&format=csv`, { headers: { authorization: `Bearer ${token}` } })).text();
    expect(await csv(login.body.tokenId)).toMatch(/^\uFEFF?Product,Name,/);
    expect(await csv(other.body.tokenId)).toMatch(/^\uFEFF?Produkt;Názov;/);
  });

  it('refuses a language the hub does not speak, naming the field', async () => {
    const r = await hub.call('POST', '/api/users', { userName: 'hans', password: 'pw', language: 'de' });
    expect(r.status).toBe(400);
    expect(r.body.errors?.map((e: any) => e.memberName)).toContain('language');
  });

  it('reads a user stored before the field existed as the shop\'s language', async () => {
    const body = await expect2xx(hub.call('POST', '/api/users', { userName: 'old', password: 'pw-old' }));
    hub.db.$client.prepare(`UPDATE users SET doc = json_remove(doc, '$.language') WHERE id = ?`).run(body.id);
    expect((await hub.call('GET', `/api/users/${body.id}`)).body.language).toBeNull();
  });
});

describe('error details in the caller\'s language', () => {
  it('says a catalog error in the user\'s language, else Accept-Language, else the shop\'s', async () => {
    const missing = async (headers: Record<string, string>, token?: string | null) => (await hub.call('GET', '/api/tickets/nope', undefined, { headers, token })).body;
    // The shop (sk) speaks when the caller says nothing.
    expect((await missing({})).detail).toBe("Ticket 'nope' neexistuje.");
    expect((await missing({ 'accept-language': 'en-GB,en;q=0.9' })).detail).toBe("Ticket 'nope' does not exist.");
    expect((await missing({ 'accept-language': 'cs-CZ' })).detail).toBe("Ticket 'nope' neexistuje.");
    // A user with English of their own hears English whatever the request asks.
    const anna = await hub.login('anna', 'pw-anna', 'BackOffice');
    expect((await missing({ 'accept-language': 'sk' }, anna)).detail).toBe("Ticket 'nope' does not exist.");
    // Without a token: Accept-Language, else the shop's.
    const noToken = await hub.call('GET', '/api/tickets', undefined, { token: null, headers: { 'accept-language': 'en' } });
    expect([noToken.status, noToken.body.detail]).toEqual([401, 'A valid access token is required.']);
    expect((await hub.call('GET', '/api/tickets', undefined, { token: null })).body.detail).toBe('Je potrebný platný prístupový token.');
  });
});
