/**
 * Authentication (CONTRACT §5, §11): login, tokens, refresh, logout, expiry, one session per sale
 * device, rights read fresh, login throttling, and what is (not) stored or returned about secrets.
 * The tests share one hub and its fake clock; the throttling tests move the clock past their windows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startHub, type Reply, type TestHub } from '../support/hub.js';
import { PASSWORD_COST, setPasswordCostForTests } from '../../hub/core/passwords.js';
import { TEST_PASSWORD_COST } from '../support/setup.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub();
  expect((await hub.call('POST', '/api/devices', { name: 'Till 1', envName: 'CashRegister' })).status).toBe(201);
  expect((await hub.call('POST', '/api/devices', { name: 'Old till', envName: 'CashRegister', isActive: false })).status).toBe(201);
  expect((await hub.call('POST', '/api/users', { id: 'anna', userName: 'anna', name: 'Anna', password: 'anna-pw', rights: ['TicketCreate'] })).status).toBe(201);
  expect((await hub.call('POST', '/api/users', { id: 'gone', userName: 'gone', name: 'Gone', password: 'gone-pw', isActive: false })).status).toBe(201);
});
afterAll(() => hub.close());

const MINUTE = 60_000;
const login = (userName: string, password: string, deviceName = 'BackOffice') =>
  hub.call('POST', '/api/auth', { userName, password, deviceName }, { token: null });

function expect401(r: Reply): void {
  expect(r.status, JSON.stringify(r.body)).toBe(401);
  expect(r.headers.get('www-authenticate')).toBe('Bearer');
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body.errorCode).toBe(1);
}

describe('login', () => {
  it('answers 200 with the token pair and the session', async () => {
    const r = await login('anna', 'anna-pw');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      tokenId: expect.any(String),
      refreshToken: expect.any(String),
      expiresAt: new Date(hub.clock.now().getTime() + 12 * 3600_000).toISOString(),
      // The shop's zone (POS_HUB_TIMEZONE): the manager's page counts its days in it.
      timeZone: 'Europe/Bratislava',
      user: {
        id: 'anna',
        userName: 'anna',
        name: 'Anna',
        rights: ['TicketCreate'],
        language: null,
        device: expect.objectContaining({ name: 'BackOffice', envName: 'BackOffice' }),
        // The back office closes no tickets: no DefaultFiscalName, no fiscal printer of its own.
        fiscalDevice: null,
      },
    });
    // ≥128 random bits each, and two different secrets.
    expect(r.body.tokenId.length).toBeGreaterThanOrEqual(22);
    expect(r.body.refreshToken.length).toBeGreaterThanOrEqual(22);
    expect(r.body.tokenId).not.toBe(r.body.refreshToken);
    // Tokens are kept by no browser or proxy (RFC 6749 §5.1), nor is any other API answer.
    expect(r.headers.get('cache-control')).toBe('no-store');
    const refreshed = await hub.call('POST', '/api/auth/refresh', { tokenId: r.body.tokenId, refreshToken: r.body.refreshToken }, { token: null });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.get('cache-control')).toBe('no-store');
    expect((await hub.call('GET', '/api/customers')).headers.get('cache-control')).toBe('no-store');
    expect401(await hub.call('GET', '/api/customers', undefined, { token: null }));
    expect((await hub.call('GET', '/api/customers', undefined, { token: null })).headers.get('cache-control')).toBe('no-store');
  });

  it("names the shop's time zone (POS_HUB_TIMEZONE), whatever it is, in the login, the session and a refresh", async () => {
    const far = await startHub({ timeZone: 'America/Santiago' });
    try {
      const r = await far.call('POST', '/api/auth', { userName: 'admin', password: ADMIN_PASSWORD, deviceName: 'BackOffice' }, { token: null });
      expect(r.body.timeZone).toBe('America/Santiago');
      expect((await far.call('GET', '/api/auth', undefined, { token: r.body.tokenId })).body.timeZone).toBe('America/Santiago');
      const renewed = await far.call('POST', '/api/auth/refresh', { tokenId: r.body.tokenId, refreshToken: r.body.refreshToken }, { token: null });
      expect(renewed.body.timeZone).toBe('America/Santiago');
    } finally {
      await far.close();
    }
  });

  it('matches the user name case-insensitively', async () => {
    expect((await login('ANNA', 'anna-pw')).status).toBe(200);
  });

  it('matches the user name in any letter case beyond ASCII too, and keeps names unique so ("Šimon" is "šimon", not "Simon")', async () => {
    expect((await hub.call('POST', '/api/users', { userName: 'Šimon', password: 'simon-pw' })).status).toBe(201);
    for (const taken of ['šimon', 'ŠIMON']) {
      const r = await hub.call('POST', '/api/users', { userName: taken, password: 'another-pw' });
      expect(r.status, taken).toBe(400);
      expect(r.body.errors).toEqual([expect.objectContaining({ memberName: 'userName', code: 'Unique' })]);
    }
    // A rename onto another user's name in another case is refused the same way.
    expect((await hub.call('POST', '/api/users', { id: 'lubo', userName: 'Lubo', password: 'lubo-pw' })).status).toBe(201);
    expect((await hub.call('PUT', '/api/users/lubo', { userName: 'ŠIMON' })).status).toBe(400);
    expect((await login('šimon', 'simon-pw')).body.user).toMatchObject({ userName: 'Šimon' });
    expect((await login('ŠIMON', 'simon-pw')).status).toBe(200);
    // Accents are not case: "Simon" is another name.
    expect((await hub.call('POST', '/api/users', { userName: 'Simon', password: 'other-simon-pw' })).status).toBe(201);
    expect((await login('simon', 'other-simon-pw')).body.user).toMatchObject({ userName: 'Simon' });
    expect401(await login('simon', 'simon-pw'));
    // The users list finds a name as the login does.
    const names = async (query: string) => (await hub.call('GET', `/api/users?${encodeURI(query)}&$sort=userName`)).body.items.map((u: any) => u.userName);
    expect(await names('userName=šIMON')).toEqual(['Šimon']);
    expect(await names('USERNAME=in:ŠIMON,ANNA')).toEqual(['anna', 'Šimon']);
    expect(await names('userName=ne:šimon;startswith:s')).toEqual(['Simon']);
  });

  it('two names that differ in case alone, stored before uniqueness looked beyond ASCII, stay editable and each logs in by its own spelling', async () => {
    expect((await hub.call('POST', '/api/users', { id: 'zofia1', userName: 'Žofia', password: 'zofia-1-pw' })).status).toBe(201);
    expect((await hub.call('POST', '/api/users', { id: 'zofia2', userName: 'Zofia-2', password: 'zofia-2-pw' })).status).toBe(201);
    // As an older hub let it be stored.
    hub.db.$client.prepare("UPDATE users SET user_name = 'žofia', doc = json_set(doc, '$.userName', 'žofia') WHERE id = 'zofia2'").run();
    expect((await login('Žofia', 'zofia-1-pw')).body.user).toMatchObject({ id: 'zofia1' });
    expect((await login('žofia', 'zofia-2-pw')).body.user).toMatchObject({ id: 'zofia2' });
    // Either can be changed (deactivated, say) without a rename; a rename onto them is refused.
    expect((await hub.call('PUT', '/api/users/zofia2', { userName: 'žofia', isActive: false })).status).toBe(200);
    expect((await hub.call('PUT', '/api/users/zofia1', { userName: 'Žofia', name: 'Žofia' })).status).toBe(200);
    expect((await hub.call('PUT', '/api/users/lubo', { userName: 'ŽOFIA' })).status).toBe(400);
  });

  it.each([
    ['a wrong password', 'anna', 'wrong-pw-7', 'BackOffice'],
    ['an unknown user', 'nobody-here', 'anna-pw', 'BackOffice'],
    ['an unknown device', 'anna', 'anna-pw', 'No such till'],
    ['an inactive user', 'gone', 'gone-pw', 'BackOffice'],
    ['an inactive device', 'anna', 'anna-pw', 'Old till'],
  ])('answers 401 with WWW-Authenticate for %s', async (_what, userName, password, deviceName) => {
    const r = await login(userName, password, deviceName);
    expect401(r);
    expect(JSON.stringify(r.body)).not.toContain(password);
  });

  it('answers 400 for a body without the members', async () => {
    const r = await hub.call('POST', '/api/auth', { userName: 'anna' }, { token: null });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { memberName: string }) => e.memberName).sort()).toEqual(['deviceName', 'password']);
  });
});

describe('tokens', () => {
  it('are accepted as Bearer and bare, and GET /api/auth answers the session', async () => {
    const { body } = await login('anna', 'anna-pw');
    for (const authorization of [`Bearer ${body.tokenId}`, `bearer ${body.tokenId}`, body.tokenId]) {
      const r = await hub.call('GET', '/api/auth', undefined, { token: null, headers: { authorization } });
      expect(r.status, authorization).toBe(200);
      expect(r.body).toEqual({ expiresAt: body.expiresAt, timeZone: 'Europe/Bratislava', user: body.user });
    }
    expect401(await hub.call('GET', '/api/auth', undefined, { token: null }));
    expect401(await hub.call('GET', '/api/auth', undefined, { token: null, headers: { authorization: `Basic ${body.tokenId}` } }));
    expect401(await hub.call('GET', '/api/auth', undefined, { token: body.refreshToken }));
  });

  it('refresh gives a new pair and kills the old token and refresh token', async () => {
    const first = (await login('anna', 'anna-pw')).body;
    const r = await hub.call('POST', '/api/auth/refresh', { tokenId: first.tokenId, refreshToken: first.refreshToken }, { token: null });
    expect(r.status).toBe(200);
    expect(r.body.tokenId).not.toBe(first.tokenId);
    expect(r.body.refreshToken).not.toBe(first.refreshToken);
    expect(r.body.user).toEqual(first.user);
    expect((await hub.call('GET', '/api/auth', undefined, { token: r.body.tokenId })).status).toBe(200);
    expect401(await hub.call('GET', '/api/auth', undefined, { token: first.tokenId }));
    expect401(await hub.call('POST', '/api/auth/refresh', { tokenId: first.tokenId, refreshToken: first.refreshToken }, { token: null }));
    // A refresh token belongs to its own access token.
    const other = (await login('anna', 'anna-pw')).body;
    expect401(await hub.call('POST', '/api/auth/refresh', { tokenId: other.tokenId, refreshToken: r.body.refreshToken }, { token: null }));
    expect((await hub.call('GET', '/api/auth', undefined, { token: r.body.tokenId })).status).toBe(200);
  });

  it('DELETE /api/auth answers 204 and the token is dead', async () => {
    const { tokenId, refreshToken } = (await login('anna', 'anna-pw')).body;
    const r = await hub.call('DELETE', '/api/auth', undefined, { token: tokenId });
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();
    expect401(await hub.call('GET', '/api/auth', undefined, { token: tokenId }));
    expect401(await hub.call('GET', '/api/customers', undefined, { token: tokenId }));
    expect401(await hub.call('POST', '/api/auth/refresh', { tokenId, refreshToken }, { token: null }));
  });

  it('expire after 12 h; the refresh token still renews them', async () => {
    const { tokenId, refreshToken } = (await login('anna', 'anna-pw')).body;
    hub.clock.advance(12 * 3600_000 - 1000);
    expect((await hub.call('GET', '/api/auth', undefined, { token: tokenId })).status).toBe(200);
    hub.clock.advance(2000);
    expect401(await hub.call('GET', '/api/auth', undefined, { token: tokenId }));
    expect401(await hub.call('GET', '/api/stocks', undefined, { token: tokenId }));
    const renewed = await hub.call('POST', '/api/auth/refresh', { tokenId, refreshToken }, { token: null });
    expect(renewed.status).toBe(200);
    expect(renewed.body.expiresAt).toBe(new Date(hub.clock.now().getTime() + 12 * 3600_000).toISOString());
    expect((await hub.call('GET', '/api/auth', undefined, { token: renewed.body.tokenId })).status).toBe(200);
    // The admin's token of the harness expired with it.
    expect401(await hub.call('GET', '/api/auth'));
    hub.adminToken = await hub.login('admin', ADMIN_PASSWORD, 'BackOffice');
  });
});

describe('sessions', () => {
  it('a sale device holds one session: a second login on it ends the first', async () => {
    const first = (await login('anna', 'anna-pw', 'Till 1')).body;
    expect(first.user.device).toMatchObject({ name: 'Till 1', envName: 'CashRegister' });
    const second = (await login('admin', ADMIN_PASSWORD, 'Till 1')).body;
    expect401(await hub.call('GET', '/api/auth', undefined, { token: first.tokenId }));
    expect401(await hub.call('POST', '/api/auth/refresh', { tokenId: first.tokenId, refreshToken: first.refreshToken }, { token: null }));
    expect((await hub.call('GET', '/api/auth', undefined, { token: second.tokenId })).body.user.userName).toBe('admin');
  });

  it('BackOffice allows several sessions at once', async () => {
    const a = (await login('anna', 'anna-pw')).body.tokenId;
    const b = (await login('anna', 'anna-pw')).body.tokenId;
    const c = (await login('admin', ADMIN_PASSWORD)).body.tokenId;
    for (const token of [a, b, c, hub.adminToken]) expect((await hub.call('GET', '/api/auth', undefined, { token })).status).toBe(200);
  });

  it('rights changes and deactivation apply at once to an existing session', async () => {
    const u = await hub.call('POST', '/api/users', { id: 'rita', userName: 'rita', password: 'rita-pw', rights: [] });
    expect(u.status).toBe(201);
    const token = (await login('rita', 'rita-pw')).body.tokenId;
    expect((await hub.call('POST', '/api/stocks', { name: 'Rita 1' }, { token })).status).toBe(403);
    expect((await hub.call('PUT', '/api/users/rita', { userName: 'rita', rights: ['StockCreate'] })).status).toBe(200);
    expect((await hub.call('POST', '/api/stocks', { name: 'Rita 1' }, { token })).status).toBe(201);
    expect((await hub.call('GET', '/api/auth', undefined, { token })).body.user.rights).toEqual(['StockCreate']);
    expect((await hub.call('PUT', '/api/users/rita', { userName: 'rita', rights: [] })).status).toBe(200);
    expect((await hub.call('POST', '/api/stocks', { name: 'Rita 2' }, { token })).status).toBe(403);
    expect((await hub.call('PUT', '/api/users/rita', { userName: 'rita', isActive: false })).status).toBe(200);
    expect401(await hub.call('GET', '/api/stocks', undefined, { token }));
  });

  it('a deactivated device ends its sessions', async () => {
    expect((await hub.call('POST', '/api/devices', { name: 'PDA 1', envName: 'PDA' })).status).toBe(201);
    const token = (await login('anna', 'anna-pw', 'PDA 1')).body.tokenId;
    expect((await hub.call('GET', '/api/auth', undefined, { token })).status).toBe(200);
    expect((await hub.call('PUT', '/api/devices/PDA 1', { envName: 'PDA', isActive: false })).status).toBe(200);
    expect401(await hub.call('GET', '/api/auth', undefined, { token }));
  });

  it('a deleted device ends its sessions for good: a device made again under its name does not bring them back', async () => {
    // A Tool keeps several sessions, and its sessions are not ended by the next login on it.
    expect((await hub.call('POST', '/api/devices', { name: 'Lost tablet', envName: 'Tool' })).status).toBe(201);
    const lost = (await login('anna', 'anna-pw', 'Lost tablet')).body;
    expect((await hub.call('GET', '/api/auth', undefined, { token: lost.tokenId })).status).toBe(200);
    expect((await hub.call('DELETE', '/api/devices/Lost tablet')).status).toBe(200);
    expect401(await hub.call('GET', '/api/auth', undefined, { token: lost.tokenId }));
    expect((await hub.call('POST', '/api/devices', { name: 'Lost tablet', envName: 'Tool' })).status).toBe(201);
    expect401(await hub.call('GET', '/api/auth', undefined, { token: lost.tokenId }));
    expect401(await hub.call('POST', '/api/auth/refresh', { tokenId: lost.tokenId, refreshToken: lost.refreshToken }, { token: null }));
    // A new login on the new device works.
    const fresh = (await login('anna', 'anna-pw', 'Lost tablet')).body.tokenId;
    expect((await hub.call('GET', '/api/auth', undefined, { token: fresh })).status).toBe(200);
  });
});

describe('secrets', () => {
  it('passwords are never returned by /api/users and a PUT without password keeps it', async () => {
    const password = 'very-secret-pw';
    const created = await hub.call('POST', '/api/users', { id: 'sam', userName: 'sam', password, rights: [] });
    expect(created.status).toBe(201);
    const replies = [
      created,
      await hub.call('GET', '/api/users/sam'),
      await hub.call('GET', '/api/users'),
      await hub.call('PUT', '/api/users/sam', { userName: 'sam', name: 'Sam' }),
    ];
    for (const r of replies) {
      expect(r.status).toBeLessThan(300);
      const text = JSON.stringify(r.body);
      expect(text).not.toContain(password);
      expect(text).not.toMatch(/password/i);
      expect(text).not.toContain('scrypt');
    }
    expect(replies[3].body).toMatchObject({ name: 'Sam', _v: 2 });
    expect((await login('sam', password)).status).toBe(200);
    // A PUT with a password changes it.
    expect((await hub.call('PUT', '/api/users/sam', { userName: 'sam', password: 'new-pw-1' })).status).toBe(200);
    expect401(await login('sam', password));
    expect((await login('sam', 'new-pw-1')).status).toBe(200);
  });

  it('a new user needs a password', async () => {
    const r = await hub.call('PUT', '/api/users/nopw', { userName: 'nopw' });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([expect.objectContaining({ memberName: 'password', code: 'Required' })]);
    expect((await hub.call('GET', '/api/users/nopw')).status).toBe(404);
  });

  it('tokens are stored only as hashes', async () => {
    const { tokenId, refreshToken } = (await login('anna', 'anna-pw')).body;
    const rows = hub.db.$client.prepare('SELECT * FROM sessions').all() as Array<Record<string, unknown>>;
    expect(rows.length).toBeGreaterThan(0);
    const dump = JSON.stringify(rows);
    for (const secret of [tokenId, refreshToken, hub.adminToken]) expect(dump).not.toContain(secret);
    for (const row of rows) {
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.refresh_hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('passwords are stored as salted scrypt hashes', async () => {
    expect((await hub.call('POST', '/api/users', { id: 'twin1', userName: 'twin1', password: 'same-pw' })).status).toBe(201);
    expect((await hub.call('POST', '/api/users', { id: 'twin2', userName: 'twin2', password: 'same-pw' })).status).toBe(201);
    const rows = hub.db.$client.prepare("SELECT * FROM users WHERE id IN ('twin1', 'twin2', 'admin')").all() as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
      const dump = JSON.stringify(row);
      expect(dump).not.toContain('same-pw');
      expect(dump).not.toContain(ADMIN_PASSWORD);
    }
    expect(rows[0].password_hash).not.toBe(rows[1].password_hash);
  });

  it('hashes at the real cost, N = 2^14, r = 8, p = 1, unless the test suite lowered it (test/support/setup.ts)', async () => {
    setPasswordCostForTests(PASSWORD_COST.N);
    try {
      expect((await hub.call('POST', '/api/users', { id: 'costly', userName: 'costly', password: 'costly-pw' })).status).toBe(201);
    } finally {
      setPasswordCostForTests(TEST_PASSWORD_COST);
    }
    const row = hub.db.$client.prepare("SELECT password_hash FROM users WHERE id = 'costly'").get() as { password_hash: string };
    expect(row.password_hash.startsWith('scrypt$16384$8$1$')).toBe(true);
    // A hash keeps its own cost: it verifies whatever cost new hashes are made with now.
    expect((await hub.call('POST', '/api/auth', { userName: 'costly', password: 'costly-pw', deviceName: 'BackOffice' })).status).toBe(200);
  });
});

describe('the users list (CONTRACT §4, §5)', () => {
  it('sorts by hasPin, refuses the write-only password and pin as sort keys, and takes a language in any letter case', async () => {
    expect((await hub.call('POST', '/api/users', { id: 'pinned', userName: 'pinned', password: 'pinned-pw', pin: '2468', language: 'SK' })).body).toMatchObject({ hasPin: true, language: 'sk' });
    const order = async (sort: string) => (await hub.call('GET', `/api/users?$take=1000&$sort=${sort}`)).body.items.map((u: any) => u.hasPin);
    const withPin = (await hub.call('GET', '/api/users?$take=1000')).body.items.filter((u: any) => u.hasPin).length;
    expect(withPin).toBeGreaterThan(0);
    const asc = await order('hasPin');
    expect(asc.slice(asc.length - withPin)).toEqual(Array(withPin).fill(true));
    expect((await order('HASPIN:desc')).slice(0, withPin)).toEqual(Array(withPin).fill(true));
    for (const sort of ['password', 'pin', 'PIN:desc']) {
      const r = await hub.call('GET', `/api/users?$sort=${sort}`);
      expect(r.status, sort).toBe(400);
      expect(r.body.errors).toEqual([expect.objectContaining({ memberName: '$sort', code: 'Unknown' })]);
    }
  });
});

describe('login throttling', () => {
  it('refuses the 11th attempt after 10 failures for one user, even with the right password, until the window passes', async () => {
    hub.clock.advance(16 * MINUTE); // forget earlier failures of this file
    expect((await hub.call('POST', '/api/users', { userName: 'victim', password: 'victim-pw' })).status).toBe(201);
    for (let i = 0; i < 10; i++) expect401(await login('victim', `guess-${i}`));
    const refused = await login('victim', 'victim-pw');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.body.errorCode).toBe(10);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // The user name in any case is the same user; other users are not affected.
    expect((await login('VICTIM', 'victim-pw')).status).toBe(429);
    expect((await login('anna', 'anna-pw')).status).toBe(200);
    hub.clock.advance(retryAfter * 1000 - 2000);
    expect((await login('victim', 'victim-pw')).status).toBe(429);
    hub.clock.advance(2000);
    expect((await login('victim', 'victim-pw')).status).toBe(200);
  });

  it('a success resets the count for that user', async () => {
    hub.clock.advance(16 * MINUTE);
    for (let i = 0; i < 9; i++) expect401(await login('anna', `guess-${i}`));
    expect((await login('anna', 'anna-pw')).status).toBe(200);
    for (let i = 0; i < 9; i++) expect401(await login('anna', `guess-${i}`));
    expect((await login('anna', 'anna-pw')).status).toBe(200);
  });

  it('refuses logins from an address after 50 failures there', async () => {
    hub.clock.advance(16 * MINUTE);
    for (let i = 0; i < 50; i++) expect401(await login(`ghost${i}`, 'x'));
    const refused = await login('admin', ADMIN_PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body.errorCode).toBe(10);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login('someone-new', 'x')).status).toBe(429);
    // Sessions already open keep working.
    expect((await hub.call('GET', '/api/auth')).status).toBe(200);
    hub.clock.advance(15 * MINUTE + 1000);
    expect((await login('admin', ADMIN_PASSWORD)).status).toBe(200);
  });
});
