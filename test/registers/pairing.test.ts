/**
 * Pairing a register (issue 29): the manager's code and link, the tablet's exchange for a device key,
 * the users a paired register shows, and the PIN login that only a paired register with its key gets.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawSql } from '../../db/client.js';
import { startHub, type TestHub } from '../support/hub.js';
import { postFrom } from '../support/from-address.js';
import { expect2xx } from '../tickets/fixture.js';

let hub: TestHub;
let manager: string;

beforeAll(async () => {
  hub = await startHub({ locale: 'sk' });
  for (const [name, envName] of [['Pokladňa 1', 'CashRegister'], ['PDA Jana', 'PDA'], ['Pokladňa 2', 'CashRegister'], ['Tool 1', 'Tool']]) {
    await expect2xx(hub.call('POST', '/api/devices', { name, envName }));
  }
  await expect2xx(hub.call('POST', '/api/devices', { name: 'Stará', envName: 'CashRegister', isActive: false }));
  const waiter = ['TicketCreate', 'TicketUpdate'];
  await expect2xx(hub.call('POST', '/api/users', { id: 'zuzana', userName: 'zuzana', name: 'Zuzana', password: 'zuzana-pw', pin: '1357', rights: waiter }));
  await expect2xx(hub.call('POST', '/api/users', { id: 'cyril', userName: 'cyril', name: 'Čestmír', password: 'cyril-pw', rights: waiter }));
  await expect2xx(hub.call('POST', '/api/users', { id: 'adam', userName: 'adam', name: 'Adam', password: 'adam-pw', pin: '2468', rights: waiter }));
  await expect2xx(hub.call('POST', '/api/users', { id: 'spiaci', userName: 'spiaci', name: 'Spiaci', password: 'x', rights: waiter, isActive: false }));
  await expect2xx(hub.call('POST', '/api/users', { id: 'kuchar', userName: 'kuchar', name: 'Kuchár', password: 'x', rights: ['OrderProcess'] }));
  manager = await hub.userWith(['DeviceUpdate']);
});
afterAll(() => hub.close());

const pairing = (deviceName: string, token = manager) => hub.call('POST', '/api/registers/pairings', { deviceName }, { token });
const pair = (code: unknown) => hub.call('POST', '/api/registers/pair', { code }, { token: null });
const sellers = (key?: string) => hub.call('GET', '/api/registers/users', undefined, { token: null, headers: key === undefined ? {} : { 'X-Register-Key': key } });
const pinLogin = (userName: string, pin: string, deviceName: string, key?: string) =>
  hub.call('POST', '/api/auth', { userName, pin, deviceName }, { token: null, headers: key === undefined ? {} : { 'X-Register-Key': key } });
const device = async (name: string) => (await hub.call('GET', `/api/devices/${encodeURIComponent(name)}`)).body;

/** Wrong codes and logins are throttled per hub: each test that fails some on purpose leaves a clean slate. */
const forgetFailures = () => hub.clock.advance(16 * 60_000);

async function paired(deviceName: string): Promise<string> {
  const r = await pair((await pairing(deviceName)).body.code);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.deviceKey;
}

/** POST /api/registers/pairings with a Host header of our choosing (fetch will not send one). */
function pairingWithHost(host: string): Promise<{ status: number; body: any }> {
  const payload = JSON.stringify({ deviceName: 'Pokladňa 2' });
  const { port } = new URL(hub.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/api/registers/pairings', method: 'POST', headers: { host, authorization: `Bearer ${manager}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('POST /api/registers/pairings', () => {
  it('gives a manager with DeviceUpdate a 6-digit code for 10 minutes and the link for a QR code', async () => {
    const r = await pairing('Pokladňa 1');
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ deviceName: 'Pokladňa 1', code: expect.stringMatching(/^\d{6}$/), createdBy: expect.any(String) });
    expect(r.body.link).toBe(`${hub.url}/pos/#pair=${r.body.code}`);
    expect(Date.parse(r.body.expiresAt) - hub.clock.now().getTime()).toBe(10 * 60_000);
    expect(r.headers.get('location')).toBe(`/api/registers/pairings/${r.body.id}`);
    const one = await hub.call('GET', `/api/registers/pairings/${r.body.id}`, undefined, { token: manager });
    expect(one.body).toEqual({ id: r.body.id, deviceName: 'Pokladňa 1', createdAt: r.body.createdAt, createdBy: r.body.createdBy, expiresAt: r.body.expiresAt });
    const list = await hub.call('GET', '/api/registers/pairings', undefined, { token: manager });
    expect(list.body.items.map((p: any) => p.id)).toContain(r.body.id);
    expect(JSON.stringify(list.body)).not.toContain(r.body.code);
    expect((await hub.call('DELETE', `/api/registers/pairings/${r.body.id}`, undefined, { token: manager })).status).toBe(200);
    expect((await hub.call('GET', `/api/registers/pairings/${r.body.id}`, undefined, { token: manager })).status).toBe(404);
    expect((await pair(r.body.code)).status).toBe(401);
    forgetFailures();
  });

  it('lists the outstanding codes paged and sorted as every list (CONTRACT §4)', async () => {
    const made = [await pairing('Pokladňa 1'), await pairing('Pokladňa 2')].map((r) => r.body.id as string);
    const list = (query: string) => hub.call('GET', `/api/registers/pairings${query}`, undefined, { token: manager });
    const all = (await list('')).body;
    expect(all.items.map((p: any) => p.id)).toEqual(expect.arrayContaining(made));
    const one = (await list('?$take=1&$skip=1')).body;
    expect([one.count, one.totalCount, one.items[0].id]).toEqual([1, all.totalCount, all.items[1].id]);
    expect((await list('?$count=true')).body).toEqual({ count: all.totalCount, totalCount: all.totalCount });
    const byDevice = (await list('?$sort=-deviceName')).body.items.map((p: any) => p.deviceName);
    expect(byDevice).toEqual([...byDevice].sort().reverse());
    const refused = await list('?$sort=code');
    expect([refused.status, refused.body.errors[0].memberName]).toEqual([400, '$sort']);
    for (const id of made) await hub.call('DELETE', `/api/registers/pairings/${id}`, undefined, { token: manager });
  });

  it('links to the host the manager reached the hub at, or the hub\'s own address when the Host is not a plain host', async () => {
    const named = await pairingWithHost('pokladna-hub.local:8080');
    expect(named.body.link).toBe(`http://pokladna-hub.local:8080/pos/#pair=${named.body.code}`);
    const odd = await pairingWithHost('evil.example/"><script>');
    expect(odd.status).toBe(201);
    expect(odd.body.link).toBe(`${hub.url}/pos/#pair=${odd.body.code}`);
  });

  it('needs DeviceUpdate, a known device, and an active CashRegister or PDA', async () => {
    const reader = await hub.userWith(['DeviceCreate', 'SettingsRead']);
    const refused = await pairing('Pokladňa 1', reader);
    expect([refused.status, refused.body.errorCode]).toEqual([403, 2]);
    expect(refused.body.detail).toMatch(/DeviceUpdate/);
    const unknown = await pairing('Nikde');
    expect([unknown.status, unknown.body.errorCode, unknown.body.errors[0].memberName]).toEqual([400, 3, 'deviceName']);
    for (const name of ['BackOffice', 'Tool 1', 'Stará']) {
      const r = await pairing(name);
      expect([r.status, r.body.errorCode], name).toEqual([403, 8]);
    }
    expect((await pairing('PDA Jana')).status).toBe(201);
    expect((await hub.call('POST', '/api/registers/pairings', {}, { token: manager })).status).toBe(400);
    expect((await hub.call('POST', '/api/registers/pairings', { deviceName: 'Pokladňa 1' }, { token: null })).status).toBe(401);
    expect((await hub.call('GET', '/api/registers/pairings', undefined, { token: reader })).status).toBe(403);
  });
});

describe('POST /api/registers/pair', () => {
  it('trades a code once, without a token, for the device and its key, and marks the device paired', async () => {
    expect((await device('Pokladňa 1')).pairedAt).toBeNull();
    const { code } = (await pairing('Pokladňa 1')).body;
    hub.clock.advance(1000);
    const r = await pair(code);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ deviceName: 'Pokladňa 1', envName: 'CashRegister', deviceKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const stored = await device('Pokladňa 1');
    expect(stored.pairedAt).toBe(hub.clock.now().toISOString());
    // The key is the register's alone: no answer holds it nor its hash.
    const row = rawSql.get<{ doc: string; register_key_hash: string }>(hub.db, 'SELECT doc, register_key_hash FROM devices WHERE name = ?', ['Pokladňa 1'])!;
    expect(row.doc).not.toContain(r.body.deviceKey);
    expect(row.register_key_hash).toMatch(/^[0-9a-f]{64}$/);
    for (const answer of [stored, (await hub.call('GET', '/api/devices')).body, (await hub.call('GET', '/api/changes?since=0&$take=1000')).body]) {
      expect(JSON.stringify(answer)).not.toContain(row.register_key_hash);
      expect(JSON.stringify(answer)).not.toContain(r.body.deviceKey);
    }
    const again = await pair(code);
    expect([again.status, again.body.errorCode]).toEqual([401, 1]);
    forgetFailures();
  });

  it('keeps the pairing through a manager’s PUT of the device, and ignores pairedAt in a body', async () => {
    const key = await paired('PDA Jana');
    const before = await device('PDA Jana');
    const put = await expect2xx(hub.call('PUT', '/api/devices/PDA%20Jana', { ...before, description: 'Terasa', pairedAt: null, registerKeyHash: 'f'.repeat(64) }));
    expect(put.pairedAt).toBe(before.pairedAt);
    expect(put).not.toHaveProperty('registerKeyHash');
    expect((await sellers(key)).status).toBe(200);
    const created = await expect2xx(hub.call('POST', '/api/devices', { name: 'Nová', envName: 'PDA', pairedAt: '2020-01-01T00:00:00.000Z' }));
    expect(created.pairedAt).toBeNull();
  });

  it('expires after 10 minutes, refuses a wrong code (401) and a malformed one (400)', async () => {
    const { code } = (await pairing('Pokladňa 2')).body;
    hub.clock.advance(10 * 60_000);
    expect((await pair(code)).status).toBe(401);
    const fresh = (await pairing('Pokladňa 2')).body.code;
    expect((await pair(String((Number(fresh) + 1) % 1_000_000).padStart(6, '0'))).status).toBe(401);
    const bad = await pair('12345');
    expect([bad.status, bad.body.errors[0].memberName]).toEqual([400, 'code']);
    expect((await pair(`${fresh.slice(0, 3)}-${fresh.slice(3)}`)).status).toBe(200);
    forgetFailures();
  });

  it('refuses a code whose device was switched off (code kept) or deleted (code spent)', async () => {
    await expect2xx(hub.call('POST', '/api/devices', { name: 'Dočasná', envName: 'CashRegister' }));
    const { code } = (await pairing('Dočasná')).body;
    const doc = await device('Dočasná');
    await expect2xx(hub.call('PUT', '/api/devices/Do%C4%8Dasn%C3%A1', { ...doc, isActive: false }));
    expect((await pair(code)).status).toBe(403);
    const off = await device('Dočasná');
    await expect2xx(hub.call('PUT', '/api/devices/Do%C4%8Dasn%C3%A1', { ...off, isActive: true }));
    const gone = (await pairing('Dočasná')).body.code;
    expect((await pair(code)).status).toBe(200);
    // Pairing withdrew the device's other codes: they would pair it again behind the new tablet's back.
    expect((await pair(gone)).status).toBe(401);
    const last = (await pairing('Dočasná')).body.code;
    await expect2xx(hub.call('DELETE', '/api/devices/Do%C4%8Dasn%C3%A1'));
    const r = await pair(last);
    expect([r.status, r.body.errorCode]).toEqual([403, 8]);
    expect((await pair(last)).status).toBe(401);
    forgetFailures();
  });

  it('throttles wrong codes per address, like the kitchen displays: one guessing machine does not stop the tablet', async () => {
    const { code } = (await pairing('Pokladňa 2')).body;
    let sent = 0;
    for (let n = 0; sent < 10; n++) {
      const guess = String(n).padStart(6, '0');
      if (guess === code) continue;
      expect((await postFrom(hub.url, '127.0.0.2', '/api/registers/pair', { code: guess })).status).toBe(401);
      sent++;
    }
    const locked = await postFrom(hub.url, '127.0.0.2', '/api/registers/pair', { code });
    expect([locked.status, locked.body.errorCode]).toEqual([429, 10]);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await postFrom(hub.url, '127.0.0.3', '/api/registers/pair', { code })).status).toBe(200);
    forgetFailures();
  });
});

describe('GET /api/registers/users', () => {
  it('lists the active users who may sell, by name in the shop’s language, with hasPin, for the key of a paired register', async () => {
    const key = await paired('Pokladňa 1');
    const r = await sellers(key);
    expect(r.status).toBe(200);
    // Slovak order: Č after C; admin holds every right; the cook and the inactive waiter are not listed.
    expect(r.body.items.map((u: any) => u.userName)).toEqual(['adam', 'admin', 'cyril', 'zuzana']);
    expect(r.body.items.find((u: any) => u.userName === 'zuzana')).toEqual({ userName: 'zuzana', name: 'Zuzana', hasPin: true });
    expect(r.body.items.find((u: any) => u.userName === 'cyril')).toEqual({ userName: 'cyril', name: 'Čestmír', hasPin: false });
    expect(r.body.count).toBe(4);
    // Paged and sorted as every list (CONTRACT §4).
    const page = await hub.call('GET', '/api/registers/users?$skip=2&$take=1&$sort=-userName', undefined, { token: null, headers: { 'X-Register-Key': key } });
    expect([page.body.items.map((u: any) => u.userName), page.body.count, page.body.totalCount]).toEqual([['admin'], 1, 4]);
  });

  it('refuses no key, a wrong key, and the key of a register paired again, switched off or deleted (401)', async () => {
    for (const key of [undefined, '', 'not-a-key', 'x'.repeat(43)]) {
      const r = await sellers(key);
      expect([r.status, r.body.errorCode], String(key)).toEqual([401, 1]);
    }
    const old = await paired('Pokladňa 2');
    const current = await paired('Pokladňa 2');
    expect((await sellers(old)).status).toBe(401);
    expect((await sellers(current)).status).toBe(200);
    const doc = await device('Pokladňa 2');
    await expect2xx(hub.call('PUT', `/api/devices/${encodeURIComponent('Pokladňa 2')}`, { ...doc, isActive: false }));
    expect((await sellers(current)).status).toBe(401);
    await expect2xx(hub.call('PUT', `/api/devices/${encodeURIComponent('Pokladňa 2')}`, { ...doc, _v: undefined, isActive: true }));
    expect((await sellers(current)).status).toBe(200);
    await expect2xx(hub.call('POST', '/api/devices', { name: 'Pokladňa 3', envName: 'CashRegister' }));
    const deleted = await paired('Pokladňa 3');
    await expect2xx(hub.call('DELETE', `/api/devices/${encodeURIComponent('Pokladňa 3')}`));
    expect((await sellers(deleted)).status).toBe(401);
    // A new device of the same name is a new register: unpaired, the old key means nothing to it.
    await expect2xx(hub.call('POST', '/api/devices', { name: 'Pokladňa 3', envName: 'CashRegister' }));
    expect((await device('Pokladňa 3')).pairedAt).toBeNull();
    expect((await sellers(deleted)).status).toBe(401);
  });
});

describe('a PIN login on a paired register', () => {
  it('works with the register’s key, and the session is that register’s', async () => {
    const key = await paired('Pokladňa 1');
    const r = await pinLogin('zuzana', '1357', 'Pokladňa 1', key);
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ userName: 'zuzana', device: { name: 'Pokladňa 1', envName: 'CashRegister', pairedAt: expect.any(String) } });
    expect(JSON.stringify(r.body)).not.toMatch(/registerKeyHash/);
    // A sale device holds one session: switching user in two taps ends the earlier waiter's.
    const adam = await pinLogin('adam', '2468', 'Pokladňa 1', key);
    expect(adam.status).toBe(200);
    expect((await hub.call('GET', '/api/auth', undefined, { token: r.body.tokenId })).status).toBe(401);
  });

  it('is refused without the key, with another register’s key, with a key made stale by pairing again, and for a wrong PIN', async () => {
    const one = await paired('Pokladňa 1');
    const pda = await paired('PDA Jana');
    expect((await pinLogin('zuzana', '1357', 'Pokladňa 1')).status).toBe(401);
    expect((await pinLogin('zuzana', '1357', 'Pokladňa 1', pda)).status).toBe(401);
    expect((await pinLogin('zuzana', '0000', 'Pokladňa 1', one)).status).toBe(401);
    // A user without a PIN has none to guess.
    expect((await pinLogin('cyril', '0000', 'Pokladňa 1', one)).status).toBe(401);
    const session = (await pinLogin('zuzana', '1357', 'Pokladňa 1', one)).body.tokenId;
    const replaced = await paired('Pokladňa 1');
    // The old tablet loses its key and its session.
    expect((await pinLogin('zuzana', '1357', 'Pokladňa 1', one)).status).toBe(401);
    expect((await hub.call('GET', '/api/auth', undefined, { token: session })).status).toBe(401);
    expect((await pinLogin('zuzana', '1357', 'Pokladňa 1', replaced)).status).toBe(200);
    forgetFailures();
  });

  it('throttles wrong PINs with the password: 10 failures lock the user name, even for the right PIN', async () => {
    const key = await paired('Pokladňa 1');
    for (let i = 0; i < 10; i++) expect((await pinLogin('adam', String(1000 + i), 'Pokladňa 1', key)).status).toBe(401);
    const locked = await pinLogin('adam', '2468', 'Pokladňa 1', key);
    expect([locked.status, locked.body.errorCode]).toEqual([429, 10]);
    expect((await hub.call('POST', '/api/auth', { userName: 'adam', password: 'adam-pw', deviceName: 'BackOffice' }, { token: null })).status).toBe(429);
    forgetFailures();
    expect((await pinLogin('adam', '2468', 'Pokladňa 1', key)).status).toBe(200);
  });

  it('stops working when the register is switched off', async () => {
    const key = await paired('PDA Jana');
    expect((await pinLogin('zuzana', '1357', 'PDA Jana', key)).status).toBe(200);
    const doc = await device('PDA Jana');
    await expect2xx(hub.call('PUT', '/api/devices/PDA%20Jana', { ...doc, isActive: false }));
    expect((await pinLogin('zuzana', '1357', 'PDA Jana', key)).status).toBe(401);
    forgetFailures();
  });
});
