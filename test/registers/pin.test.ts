/**
 * A user's PIN (issue 29, CONTRACT §5): write-only and hashed like the password; set by a manager
 * under the user rules, or by the user with their own password; refused at login everywhere but on a
 * paired register (test/registers/pairing.test.ts logs in with one there), and counted with the
 * password's failures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { rawSql } from '../../db/client.js';
import { createLogger } from '../../hub/core/log.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx } from '../tickets/fixture.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub();
  await expect2xx(hub.call('POST', '/api/devices', { name: 'Till', envName: 'CashRegister' }));
});
afterAll(() => hub.close());

/** The throttle's window is 15 minutes: a test that fails logins on purpose leaves it behind. */
const forgetFailures = () => hub.clock.advance(16 * 60_000);

const pinLogin = (userName: string, pin: string, deviceName: string, headers: Record<string, string> = {}) =>
  hub.call('POST', '/api/auth', { userName, pin, deviceName }, { token: null, headers });

function storedDoc(id: string): Record<string, unknown> {
  return JSON.parse(rawSql.get<{ doc: string }>(hub.db, 'SELECT doc FROM users WHERE id = ?', [id])!.doc);
}

describe('pin on /api/users', () => {
  it('is write-only: answered as hasPin, never as the PIN or its hash, in any read', async () => {
    const created = await hub.call('POST', '/api/users', { id: 'eva', userName: 'eva', name: 'Eva', password: 'eva-pw', pin: '4821', rights: ['TicketCreate'] });
    expect(created.status).toBe(201);
    expect(created.body.hasPin).toBe(true);
    const one = (await hub.call('GET', '/api/users/eva')).body;
    const list = (await hub.call('GET', '/api/users?userName=eva')).body.items[0];
    for (const answer of [created.body, one, list]) {
      expect(answer).not.toHaveProperty('pin');
      expect(answer).not.toHaveProperty('pinHash');
      expect(JSON.stringify(answer)).not.toContain('4821');
    }
    expect(one.hasPin).toBe(true);
    // Nor in the change log a chain publishes, which presents documents as the API does.
    const changes = await hub.call('GET', '/api/changes?since=0&$take=1000');
    expect(JSON.stringify(changes.body)).not.toContain('scrypt$');
  });

  it('is stored as a salted scrypt hash, like the password', async () => {
    await expect2xx(hub.call('POST', '/api/users', { id: 'ema', userName: 'ema', password: 'ema-pw', pin: '4821' }));
    const a = storedDoc('eva').pinHash as string;
    const b = storedDoc('ema').pinHash as string;
    expect(a).toMatch(/^scrypt\$\d+\$8\$1\$/);
    expect(a).not.toContain('4821');
    // The same PIN, two salts: two hashes.
    expect(a).not.toBe(b);
  });

  it('is kept by a PUT without it, removed by null, replaced by new digits', async () => {
    const before = storedDoc('eva').pinHash;
    const doc = (await hub.call('GET', '/api/users/eva')).body;
    const kept = await expect2xx(hub.call('PUT', '/api/users/eva', { ...doc, name: 'Eva K.' }));
    expect(kept.hasPin).toBe(true);
    expect(storedDoc('eva').pinHash).toBe(before);
    // A client sending hasPin or a hash back changes nothing by it.
    const forged = await expect2xx(hub.call('PUT', '/api/users/eva', { ...kept, hasPin: false, pinHash: 'scrypt$1$8$1$x$y' }));
    expect(forged.hasPin).toBe(true);
    expect(storedDoc('eva').pinHash).toBe(before);
    const removed = await expect2xx(hub.call('PUT', '/api/users/eva', { ...forged, pin: null }));
    expect(removed.hasPin).toBe(false);
    expect(storedDoc('eva')).not.toHaveProperty('pinHash');
    const again = await expect2xx(hub.call('PUT', '/api/users/eva', { ...removed, pin: '99887766' }));
    expect(again.hasPin).toBe(true);
    expect(storedDoc('eva').pinHash).not.toBe(before);
  });

  it.each([['123'], ['123456789'], ['12a4'], [' 1234'], [1234], ['']])('refuses %j with 400 naming pin', async (pin) => {
    const r = await hub.call('POST', '/api/users', { userName: `bad${String(pin).trim() || 'empty'}`, password: 'x', pin });
    expect([r.status, r.body.errorCode]).toEqual([400, 3]);
    expect(r.body.errors.map((e: any) => e.memberName)).toEqual(['pin']);
  });

  it("follows the user rules: another user's PIN needs UserUpdate and every right that user holds", async () => {
    await expect2xx(hub.call('POST', '/api/users', { id: 'boss', userName: 'boss', password: 'boss-pw', rights: ['TicketCreate', 'TicketClose', 'UserUpdate', 'UserRead'] }));
    const reader = await hub.userWith(['UserRead']);
    const shiftLead = await hub.userWith(['UserRead', 'UserUpdate', 'TicketCreate']);
    const eva = (await hub.call('GET', '/api/users/eva')).body;
    const boss = (await hub.call('GET', '/api/users/boss')).body;

    const noRight = await hub.call('PUT', '/api/users/eva', { ...eva, pin: '1111' }, { token: reader });
    expect([noRight.status, noRight.body.errorCode]).toEqual([403, 2]);
    expect(noRight.body.detail).toContain('UserUpdate');
    // boss holds TicketClose, which the shift lead lacks: the lead may not set boss's PIN.
    const outranked = await hub.call('PUT', '/api/users/boss', { ...boss, pin: '1111' }, { token: shiftLead });
    expect([outranked.status, outranked.body.errorCode]).toEqual([403, 2]);
    expect(outranked.body.detail).toContain('TicketClose');
    expect((await hub.call('GET', '/api/users/boss')).body.hasPin).toBe(false);
    // eva holds only TicketCreate: the lead may.
    const allowed = await hub.call('PUT', '/api/users/eva', { ...eva, pin: '1111' }, { token: shiftLead });
    expect(allowed.status).toBe(200);
    expect(allowed.body.hasPin).toBe(true);
  });

  it("set by someone else ends that user's sessions, as a password reset does", async () => {
    const evaToken = await hub.login('eva', 'eva-pw', 'BackOffice');
    const eva = (await hub.call('GET', '/api/users/eva')).body;
    await expect2xx(hub.call('PUT', '/api/users/eva', { ...eva, pin: '2468' }));
    expect((await hub.call('GET', '/api/auth', undefined, { token: evaToken })).status).toBe(401);
  });
});

describe('POST /api/auth with a pin, away from a paired register', () => {
  it('is refused as a bad login (401) on the back office and on a sale device nobody paired', async () => {
    for (const device of ['BackOffice', 'Till']) {
      const r = await pinLogin('eva', '2468', device);
      expect([r.status, r.body.errorCode]).toEqual([401, 1]);
      expect(r.headers.get('www-authenticate')).toBe('Bearer');
      expect(r.body.detail).toMatch(/paired/);
    }
    // A made-up key does not make a device a register.
    expect((await pinLogin('eva', '2468', 'Till', { 'X-Register-Key': 'made-up-key' })).status).toBe(401);
    forgetFailures();
  });

  it("counts with the password's failures: PIN tries and wrong passwords together reach the 10 that lock the user name", async () => {
    for (let i = 0; i < 5; i++) expect((await pinLogin('eva', '2468', 'Till')).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await hub.call('POST', '/api/auth', { userName: 'eva', password: `wrong-${i}`, deviceName: 'BackOffice' }, { token: null })).status).toBe(401);
    const locked = await hub.call('POST', '/api/auth', { userName: 'eva', password: 'eva-pw', deviceName: 'BackOffice' }, { token: null });
    expect([locked.status, locked.body.errorCode]).toEqual([429, 10]);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    forgetFailures();
    expect((await hub.call('POST', '/api/auth', { userName: 'eva', password: 'eva-pw', deviceName: 'BackOffice' }, { token: null })).status).toBe(200);
  });

  it('takes the password or the PIN, exactly one (400 otherwise)', async () => {
    const both = await hub.call('POST', '/api/auth', { userName: 'eva', password: 'eva-pw', pin: '2468', deviceName: 'BackOffice' }, { token: null });
    expect([both.status, both.body.errors[0].memberName]).toEqual([400, 'pin']);
    const neither = await hub.call('POST', '/api/auth', { userName: 'eva', deviceName: 'BackOffice' }, { token: null });
    expect([neither.status, neither.body.errors[0].memberName, neither.body.errors[0].code]).toEqual([400, 'password', 'Required']);
    const short = await hub.call('POST', '/api/auth', { userName: 'eva', pin: '12', deviceName: 'Till' }, { token: null });
    expect([short.status, short.body.errors[0].memberName]).toEqual([400, 'pin']);
    // The full password still works, on a register too.
    expect((await hub.call('POST', '/api/auth', { userName: 'eva', password: 'eva-pw', deviceName: 'Till' }, { token: null })).status).toBe(200);
  });
});

describe('POST /api/auth/pin (one’s own PIN)', () => {
  it('sets and removes the caller’s PIN with their password and no right', async () => {
    await expect2xx(hub.call('POST', '/api/users', { id: 'ivo', userName: 'ivo', password: 'ivo-pw', rights: ['TicketCreate'] }));
    const ivo = await hub.login('ivo', 'ivo-pw', 'BackOffice');
    const set = await hub.call('POST', '/api/auth/pin', { password: 'ivo-pw', pin: '5555' }, { token: ivo });
    expect(set.status).toBe(204);
    const stored = (await hub.call('GET', '/api/users/ivo')).body;
    expect(stored.hasPin).toBe(true);
    expect(stored._v).toBe(2);
    // The session that set it stays.
    expect((await hub.call('GET', '/api/auth', undefined, { token: ivo })).status).toBe(200);
    expect((await hub.call('POST', '/api/auth/pin', { password: 'ivo-pw', pin: null }, { token: ivo })).status).toBe(204);
    expect((await hub.call('GET', '/api/users/ivo')).body.hasPin).toBe(false);
  });

  it('refuses a wrong password (400 naming it), throttled like a login, and needs a session', async () => {
    const ivo = await hub.login('ivo', 'ivo-pw', 'BackOffice');
    const wrong = await hub.call('POST', '/api/auth/pin', { password: 'not-it', pin: '5555' }, { token: ivo });
    expect([wrong.status, wrong.body.errorCode, wrong.body.errors[0].memberName]).toEqual([400, 3, 'password']);
    expect((await hub.call('GET', '/api/users/ivo')).body.hasPin).toBe(false);
    for (let i = 0; i < 9; i++) expect((await hub.call('POST', '/api/auth/pin', { password: `not-it-${i}`, pin: '5555' }, { token: ivo })).status).toBe(400);
    const locked = await hub.call('POST', '/api/auth/pin', { password: 'ivo-pw', pin: '5555' }, { token: ivo });
    expect([locked.status, locked.body.errorCode]).toEqual([429, 10]);
    forgetFailures();
    const ivo2 = await hub.login('ivo', 'ivo-pw', 'BackOffice');
    expect((await hub.call('POST', '/api/auth/pin', { password: 'ivo-pw', pin: 'x' }, { token: ivo2 })).status).toBe(400);
    expect((await hub.call('POST', '/api/auth/pin', { password: 'ivo-pw', pin: '5555' }, { token: null })).status).toBe(401);
  });
});

describe('the log', () => {
  it('never holds a PIN, whatever the hub logs (trace level), and redacts one handed to it', async () => {
    const lines: string[] = [];
    const log = createLogger('trace', new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) }), false);
    const logged = await startHub({ log });
    try {
      const pin = '73915046';
      await expect2xx(logged.call('POST', '/api/users', { id: 'lia', userName: 'lia', password: 'lia-pw', pin }));
      await logged.call('POST', '/api/auth', { userName: 'lia', pin, deviceName: 'BackOffice' }, { token: null });
      const lia = await logged.login('lia', 'lia-pw', 'BackOffice');
      await logged.call('POST', '/api/auth/pin', { password: 'lia-pw', pin: '40617258' }, { token: lia });
      log.info({ body: { userName: 'lia', pin } }, 'a careless line');
      expect(lines.length).toBeGreaterThan(4);
      expect(lines.join('')).not.toMatch(/73915046|40617258/);
    } finally {
      await logged.close();
    }
  });
});
