/**
 * Pairing a kitchen display (issue 10): the manager's code, the tablet's exchange, and what the
 * session it gets may and may not do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { postFrom } from '../support/from-address.js';

let hub: TestHub;
let waiter: Awaited<ReturnType<typeof register>>;
let manager: string;

beforeAll(async () => {
  hub = await startHub();
  await restaurant(hub);
  await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Pass', type: 'Tablet', address: 'wall by the pass', settings: { IsBeepEnabled: 'true' } }));
  await expect2xx(hub.call('PUT', '/api/plus/' + (await plu(1)), { ...(await pluDoc(1)), orderEndpointNames: ['Kitchen', 'Pass'] }));
  waiter = await register(hub);
  manager = await hub.userWith(['OrderEndpointUpdate', 'OrderProcess']);
});
afterAll(() => hub.close());

async function pluDoc(code: number): Promise<any> {
  return (await hub.call('GET', `/api/plus?code=${code}&stockName=Menu`)).body.items[0];
}
async function plu(code: number): Promise<string> {
  return (await pluDoc(code)).id;
}

const pairing = (orderEndpointName: string, token = manager) => hub.call('POST', '/api/kds/pairings', { orderEndpointName }, { token });
const pair = (code: unknown) => hub.call('POST', '/api/kds/pair', { code }, { token: null });

/** Wrong guesses are throttled per hub; each test that guesses wrong starts with a clean slate. */
function forgetGuesses(): void {
  hub.clock.advance(16 * 60_000);
}

describe('POST /api/kds/pairings', () => {
  it('gives a manager with OrderEndpointUpdate (and OrderProcess) a 6-digit code for 10 minutes', async () => {
    const r = await pairing('Pass');
    expect(r.status).toBe(201);
    expect(r.body.code).toMatch(/^\d{6}$/);
    expect(r.body.orderEndpointName).toBe('Pass');
    expect(Date.parse(r.body.expiresAt) - hub.clock.now().getTime()).toBe(10 * 60_000);
    expect(r.headers.get('location')).toBe(`/api/kds/pairings/${r.body.id}`);
    // Listed and readable without the code: it is shown once, to the manager who asked.
    const one = await hub.call('GET', `/api/kds/pairings/${r.body.id}`);
    expect(one.body).toEqual({ id: r.body.id, orderEndpointName: 'Pass', createdAt: r.body.createdAt, createdBy: expect.any(String), expiresAt: r.body.expiresAt });
    const list = await hub.call('GET', '/api/kds/pairings');
    expect(list.body.items.map((p: any) => p.id)).toContain(r.body.id);
    expect(JSON.stringify(list.body)).not.toContain(r.body.code);
  });

  it('needs the right, a known endpoint, and an active Tablet', async () => {
    const cook = await hub.userWith(['OrderProcess']);
    const refused = await pairing('Pass', cook);
    expect([refused.status, refused.body.errorCode]).toEqual([403, 2]);
    expect(refused.body.detail).toMatch(/OrderEndpointUpdate/);
    // Pairing hands the display OrderProcess: a manager without it cannot hand it out (it would raise their own rights).
    const noProcess = await pairing('Pass', await hub.userWith(['OrderEndpointUpdate']));
    expect([noProcess.status, noProcess.body.errorCode]).toEqual([403, 2]);
    expect(noProcess.body.detail).toMatch(/OrderProcess/);
    const unknown = await pairing('Nowhere');
    expect([unknown.status, unknown.body.errorCode, unknown.body.errors[0].memberName]).toEqual([400, 3, 'orderEndpointName']);
    const printer = await pairing('Kitchen');
    expect([printer.status, printer.body.errorCode]).toEqual([403, 8]);
    await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Old screen', type: 'Tablet', isActive: false }));
    const inactive = await pairing('Old screen');
    expect([inactive.status, inactive.body.errorCode]).toEqual([403, 8]);
    expect((await hub.call('POST', '/api/kds/pairings', {}, { token: manager })).status).toBe(400);
    expect((await hub.call('POST', '/api/kds/pairings', { orderEndpointName: 'Pass' }, { token: null })).status).toBe(401);
  });

  it('can be withdrawn before use, with the right', async () => {
    const p = (await pairing('Pass')).body;
    const cook = await hub.userWith(['OrderProcess']);
    expect((await hub.call('DELETE', `/api/kds/pairings/${p.id}`, undefined, { token: cook })).status).toBe(403);
    const gone = await hub.call('DELETE', `/api/kds/pairings/${p.id}`, undefined, { token: manager });
    expect(gone.status).toBe(200);
    expect(gone.body.id).toBe(p.id);
    expect((await hub.call('GET', `/api/kds/pairings/${p.id}`)).status).toBe(404);
    expect((await pair(p.code)).status).toBe(401);
    forgetGuesses();
  });
});

describe('POST /api/kds/pair', () => {
  it('trades a code once, without a token, for a session of the display user on a Tool device', async () => {
    const { code } = (await pairing('Pass')).body;
    const r = await pair(code);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      tokenId: expect.any(String),
      refreshToken: expect.any(String),
      orderEndpointName: 'Pass',
      user: { userName: 'kds-Pass', rights: ['OrderProcess'], device: { name: 'KDS Pass', envName: 'Tool' } },
    });
    expect(Date.parse(r.body.expiresAt) - hub.clock.now().getTime()).toBe(12 * 3600_000);
    const session = await hub.call('GET', '/api/auth', undefined, { token: r.body.tokenId });
    expect(session.body.user.userName).toBe('kds-Pass');
    // Single use: the same code again is a wrong code.
    const again = await pair(code);
    expect([again.status, again.body.errorCode]).toEqual([401, 1]);
    expect(again.headers.get('www-authenticate')).toBe('Bearer');
    // The user's password was never shown; nobody can log in with a guess of it.
    const users = (await hub.call('GET', '/api/users?userName=kds-Pass')).body.items;
    expect(users).toHaveLength(1);
    expect(users[0]).not.toHaveProperty('password');
    expect(users[0]).not.toHaveProperty('passwordHash');
    forgetGuesses();
  });

  it('reuses the display user and device for a second tablet, and both stay logged in', async () => {
    const a = await pair((await pairing('Pass')).body.code);
    const b = await pair((await pairing('Pass')).body.code);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.user.id).toBe(b.body.user.id);
    expect((await hub.call('GET', '/api/users?userName=kds-Pass')).body.totalCount).toBe(1);
    expect((await hub.call('GET', '/api/devices?name=KDS Pass')).body.totalCount).toBe(1);
    // A Tool device is not a sale device: a second session does not end the first.
    expect((await hub.call('GET', '/api/auth', undefined, { token: a.body.tokenId })).status).toBe(200);
    expect((await hub.call('GET', '/api/auth', undefined, { token: b.body.tokenId })).status).toBe(200);
    // It refreshes like any session.
    const refreshed = await hub.call('POST', '/api/auth/refresh', { tokenId: a.body.tokenId, refreshToken: a.body.refreshToken }, { token: null });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user.userName).toBe('kds-Pass');
  });

  it('pairs a display whatever name its endpoint was stored with: 4,000 characters, or an emoji where the names are cut', async () => {
    // The device's description and the user's name quote the endpoint's name: at its longest they must still fit.
    const longest = `Kitchen ${'W'.repeat(4000)}`.slice(0, 4000);
    // `KDS ` and 59 letters, then an emoji across the 64th character: the cut must not keep half of it.
    const emoji = `${'A'.repeat(59)}🍺 bar`;
    for (const name of [longest, emoji]) {
      await expect2xx(hub.call('POST', '/api/orderendpoints', { name, type: 'Tablet' }));
      const r = await pair((await pairing(name)).body.code);
      expect(r.status, name.slice(0, 20)).toBe(200);
      expect(r.body.orderEndpointName).toBe(name);
      const device = (await hub.call('GET', `/api/devices/${encodeURIComponent(r.body.user.device.name)}`)).body;
      expect(device.description.length).toBeLessThanOrEqual(4000);
      expect((await hub.call('GET', '/api/orders', undefined, { token: r.body.tokenId })).status).toBe(200);
    }
    // Cut names carry a tag of the whole name; none holds half an emoji.
    const displays = (await hub.call('GET', `/api/users?userName=startswith:${encodeURIComponent(`kds-${'A'.repeat(51)}`)}`)).body.items.map((u: any) => u.userName);
    expect(displays).toEqual([expect.stringMatching(new RegExp(`^kds-A{51}~[0-9a-f]{8}$`))]);
    forgetGuesses();
  });

  it('gives two endpoints whose names share their first 60 characters a display device each: each reads its own orders', async () => {
    const stem = `Station ${'S'.repeat(60)}`;
    const [first, second] = [`${stem} hot`, `${stem} cold`];
    const read: string[] = [];
    for (const name of [first, second]) {
      await expect2xx(hub.call('POST', '/api/orderendpoints', { name, type: 'Tablet' }));
      const r = await expect2xx(pair((await pairing(name)).body.code));
      expect(r.orderEndpointName).toBe(name);
      const device = (await hub.call('GET', `/api/devices/${encodeURIComponent(r.user.device.name)}`)).body;
      expect(device.settings.OrderEndpointName).toBe(name);
      read.push(r.user.device.name);
    }
    expect(new Set(read).size).toBe(2);
    // A device of that name made by hand for another endpoint is not taken over: the code stays usable once it is corrected.
    await expect2xx(hub.call('POST', '/api/devices', { name: 'KDS Bar screen', envName: 'Tool', settings: { OrderEndpointName: 'Pass' } }));
    await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Bar screen', type: 'Tablet' }));
    const code = (await pairing('Bar screen')).body.code;
    const refused = await pair(code);
    expect([refused.status, refused.body.errorCode]).toEqual([403, 8]);
    expect(refused.body.detail).toContain("'Pass'");
    forgetGuesses();
  });

  it('expires after 10 minutes (the hub clock)', async () => {
    const { code } = (await pairing('Pass')).body;
    hub.clock.advance(10 * 60_000 - 1);
    const early = (await pairing('Pass')).body.code;
    hub.clock.advance(1);
    expect((await pair(code)).status).toBe(401);
    expect((await pair(early)).status).toBe(200);
    forgetGuesses();
  });

  it('refuses a wrong code with 401 and a malformed one with 400', async () => {
    const { code } = (await pairing('Pass')).body;
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const r = await pair(wrong);
    expect([r.status, r.body.errorCode]).toEqual([401, 1]);
    const bad = await pair('12345');
    expect([bad.status, bad.body.errorCode, bad.body.errors[0].memberName]).toEqual([400, 3, 'code']);
    expect((await pair(123456)).status).toBe(400);
    expect((await hub.call('POST', '/api/kds/pair', undefined, { token: null })).status).toBe(400);
    // People type codes in groups: "123 456" and "123-456" are the code.
    expect((await pair(`${code.slice(0, 3)} ${code.slice(3)}`)).status).toBe(200);
    forgetGuesses();
  });

  it('throttles guessing: after 10 wrong codes even the right one waits (429, Retry-After)', async () => {
    const { code } = (await pairing('Pass')).body;
    const wrongs = new Set<string>();
    for (let n = 0; wrongs.size < 10; n++) if (String(n).padStart(6, '0') !== code) wrongs.add(String(n).padStart(6, '0'));
    for (const w of wrongs) expect((await pair(w)).status).toBe(401);
    const blocked = await pair(code);
    expect([blocked.status, blocked.body.errorCode]).toEqual([429, 10]);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // The code survives the refusal; once the window passes a fresh code works.
    hub.clock.advance(15 * 60_000);
    expect((await pair((await pairing('Pass')).body.code)).status).toBe(200);
    // A password login on the same address is not throttled by code guesses.
    expect((await hub.call('POST', '/api/auth', { userName: 'admin', password: ADMIN_PASSWORD, deviceName: 'BackOffice' }, { token: null })).status).toBe(200);
  });

  it('throttles per address (issue 30 point 12): 10 wrong codes from one machine do not stop another from pairing', async () => {
    forgetGuesses();
    const guesser = '127.0.0.2';
    const { code } = (await pairing('Pass')).body;
    let sent = 0;
    for (let n = 0; sent < 10; n++) {
      const guess = String(n).padStart(6, '0');
      if (guess === code) continue;
      expect((await postFrom(hub.url, guesser, '/api/kds/pair', { code: guess })).status).toBe(401);
      sent++;
    }
    const locked = await postFrom(hub.url, guesser, '/api/kds/pair', { code });
    expect([locked.status, locked.body.errorCode]).toEqual([429, 10]);
    // The tablet at another address pairs with the same code.
    expect((await postFrom(hub.url, '127.0.0.3', '/api/kds/pair', { code })).status).toBe(200);
    forgetGuesses();
  });

  it('voids a code that 50 wrong codes from many machines were tried against, and only that code', async () => {
    forgetGuesses();
    const { code, id } = (await pairing('Pass')).body;
    const guesses: string[] = [];
    for (let n = 0; guesses.length < 50; n++) if (String(n).padStart(6, '0') !== code) guesses.push(String(n).padStart(6, '0'));
    // Ten addresses, five wrong codes each: no address reaches its own limit.
    for (const [i, guess] of guesses.entries()) {
      expect((await postFrom(hub.url, `127.0.1.${10 + (i % 10)}`, '/api/kds/pair', { code: guess })).status).toBe(401);
    }
    const voided = await postFrom(hub.url, '127.0.0.4', '/api/kds/pair', { code });
    expect([voided.status, voided.body.errorCode]).toEqual([429, 10]);
    expect(voided.body.detail).toMatch(/new one/);
    expect((await hub.call('GET', '/api/kds/pairings')).body.items.map((p: any) => p.id)).not.toContain(id);
    // A code made now starts afresh, and the same machine pairs with it.
    const fresh = (await pairing('Pass')).body.code;
    expect((await postFrom(hub.url, '127.0.0.4', '/api/kds/pair', { code: fresh })).status).toBe(200);
    forgetGuesses();
  });

  it('will not hand out a display user that someone gave more rights, nor use a non-Tool device', async () => {
    await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Grill', type: 'Tablet' }));
    await expect2xx(hub.call('POST', '/api/users', { userName: 'kds-Grill', password: 'x', rights: ['OrderProcess', 'UserCreate'] }));
    const { code } = (await pairing('Grill')).body;
    const refused = await pair(code);
    expect([refused.status, refused.body.errorCode]).toEqual([403, 8]);
    expect(refused.body.detail).toMatch(/UserCreate/);
    // Fixed by the manager, the same code still works: a refusal does not spend it.
    const user = (await hub.call('GET', '/api/users?userName=kds-Grill')).body.items[0];
    await expect2xx(hub.call('PUT', `/api/users/${user.id}`, { ...user, rights: ['OrderProcess'] }));
    expect((await pair(code)).status).toBe(200);

    await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Salad', type: 'Tablet' }));
    await expect2xx(hub.call('POST', '/api/devices', { name: 'KDS Salad', envName: 'CashRegister' }));
    const sale = await pair((await pairing('Salad')).body.code);
    expect([sale.status, sale.body.errorCode]).toEqual([403, 8]);
  });

  it('locks out a lost tablet when its device is switched off, until the manager deletes it and pairs again', async () => {
    await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Fryer', type: 'Tablet' }));
    const lost = (await pair((await pairing('Fryer')).body.code)).body;
    const device = (await hub.call('GET', `/api/devices/${encodeURIComponent('KDS Fryer')}`)).body;
    await expect2xx(hub.call('PUT', `/api/devices/${encodeURIComponent('KDS Fryer')}`, { ...device, isActive: false }));
    expect((await hub.call('GET', '/api/auth', undefined, { token: lost.tokenId })).status).toBe(401);
    // Pairing does not quietly switch the device back on (that would revive the lost tablet too).
    const code = (await pairing('Fryer')).body.code;
    expect((await pair(code)).status).toBe(403);
    await expect2xx(hub.call('DELETE', `/api/devices/${encodeURIComponent('KDS Fryer')}`));
    const fresh = await pair(code);
    expect(fresh.status).toBe(200);
    expect((await hub.call('GET', '/api/auth', undefined, { token: lost.tokenId })).status).toBe(401);
    expect((await hub.call('GET', '/api/auth', undefined, { token: fresh.body.tokenId })).status).toBe(200);
  });
});

describe('a code whose endpoint changed meanwhile', () => {
  it('is refused with 403 when the endpoint was deleted (and spent), or turned into a printer (and kept)', async () => {
    await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Temp', type: 'Tablet' }));
    const gone = (await pairing('Temp')).body.code;
    await expect2xx(hub.call('DELETE', '/api/orderendpoints/Temp'));
    const r = await pair(gone);
    expect([r.status, r.body.errorCode]).toEqual([403, 8]);
    expect(r.body.detail).toMatch(/no longer exists/);
    await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Temp', type: 'Tablet' }));
    expect((await pair(gone)).status).toBe(401);

    const printer = (await pairing('Temp')).body.code;
    const ep = (await hub.call('GET', '/api/orderendpoints/Temp')).body;
    await expect2xx(hub.call('PUT', '/api/orderendpoints/Temp', { ...ep, type: 'Generic', address: 'tcp://127.0.0.1:9' }));
    expect((await pair(printer)).status).toBe(403);
    await expect2xx(hub.call('PUT', '/api/orderendpoints/Temp', { ...ep, _v: undefined, type: 'Tablet' }));
    expect((await pair(printer)).status).toBe(200);
    forgetGuesses();
  });
});

describe("the display's session", () => {
  it('moves orders on but cannot write tickets or anything else', async () => {
    const display = (await pair((await pairing('Pass')).body.code)).body.tokenId;
    const ticket = await expect2xx(hub.call('POST', '/api/tickets', { name: 'Stôl 3', location: { tableName: '3' }, items: [item(1, 2)] }, { token: waiter.token }));
    const orders = (await hub.call('GET', `/api/orders?ticketId=${ticket.id}&orderEndpointName=Pass`, undefined, { token: display })).body.items;
    expect(orders).toHaveLength(1);
    // A Tablet endpoint's order is shown, never printed.
    expect(orders[0].print.state).toBe('NotPrinted');
    const moved = await hub.call('POST', `/api/orders/${orders[0].id}/state`, { state: 'InProgress' }, { token: display });
    expect([moved.status, moved.body.state]).toEqual([200, 'InProgress']);
    expect(moved.body.stateHistory.at(-1).userName).toBe('kds-Pass');

    const write = await hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, { token: display });
    expect([write.status, write.body.errorCode]).toEqual([403, 2]);
    const put = await hub.call('PUT', `/api/tickets/${ticket.id}`, ticket, { token: display });
    expect(put.status).toBe(403);
    expect((await hub.call('POST', '/api/users', { userName: 'evil', password: 'x', rights: [] }, { token: display })).status).toBe(403);
    expect((await hub.call('POST', '/api/kds/pairings', { orderEndpointName: 'Pass' }, { token: display })).status).toBe(403);
  });
});

describe('AuthService.openSession', () => {
  it('opens a session for a known active user and device, and refuses an inactive or unknown one', async () => {
    const auth = hub.services.auth;
    const s = auth.openSession('admin', 'BackOffice');
    expect(s.user.userName).toBe('admin');
    expect((await hub.call('GET', '/api/auth', undefined, { token: s.tokenId })).status).toBe(200);
    expect(() => auth.openSession('admin', 'No such device')).toThrow(expect.objectContaining({ status: 401 }));
    expect(() => auth.openSession('nobody', 'BackOffice')).toThrow(expect.objectContaining({ status: 401 }));
    const u = await expect2xx(hub.call('POST', '/api/users', { userName: 'sleeper', password: 'x', isActive: false }));
    expect(() => auth.openSession(u.id, 'BackOffice')).toThrow(expect.objectContaining({ status: 401 }));
  });
});
