/**
 * Secret settings of devices, order endpoints and fiscal devices (issue 30 point 8, CONTRACT §12
 * "Secrets"): never answered (SettingsRead included) nor carried in a session's device; a PUT that
 * leaves one out keeps it only while the address, driver or type and the settings naming a place stay
 * the same; "" removes it. A fiscal printer's operator password never reaches a printer an editor
 * pointed the device at without sending it.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CMD } from '../../drivers/fiscal/datecs/commands.js';
import { FakeDatecsDevice } from '../support/fake-datecs-device.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { FAST_SETTINGS } from '../fiscal/fixture.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub();
  await restaurant(hub);
});
afterAll(async () => {
  await hub.fiscal.closeAll();
  await hub.close();
});

/** The settings as stored (what drivers and the hub itself use). */
const stored = (table: 'devices' | 'order_endpoints' | 'fiscal_devices', name: string): Record<string, string> =>
  JSON.parse(hub.db.get<{ s: string }>(sql`SELECT json_extract(doc, '$.settings') AS s FROM ${sql.identifier(table)} WHERE name = ${name}`)!.s);

describe('a device with secret settings', () => {
  const SETTINGS = { ApiKey: 'sk-live-123', TerminalPin: 'tp-4321x', TerminalHost: '127.0.0.1', Language: 'sk' };

  it('answers their names, never their values, to anyone — SettingsRead and the session on it included', async () => {
    const created = await expect2xx(hub.call('POST', '/api/devices', { name: 'Terminal', envName: 'PDA', settings: SETTINGS }));
    expect(created).toMatchObject({ settings: { TerminalHost: '127.0.0.1', Language: 'sk' }, secretSettings: ['ApiKey', 'TerminalPin'] });
    const reader = await hub.userWith(['SettingsRead']);
    for (const token of [hub.adminToken, reader]) {
      const one = await expect2xx(hub.call('GET', '/api/devices/Terminal', undefined, { token }));
      const list = await expect2xx(hub.call('GET', '/api/devices?Name=Terminal', undefined, { token }));
      for (const doc of [one, list.items[0]]) {
        expect(doc.settings).toEqual({ TerminalHost: '127.0.0.1', Language: 'sk' });
        expect(doc.secretSettings).toEqual(['ApiKey', 'TerminalPin']);
      }
    }
    // A waiter logged in on it does not get them with the session either.
    const waiter = await hub.call('POST', '/api/users', { userName: 'waiter-t', password: 'pw', rights: [] });
    expect(waiter.status).toBe(201);
    const login = await hub.call('POST', '/api/auth', { userName: 'waiter-t', password: 'pw', deviceName: 'Terminal' }, { token: null });
    expect(login.status).toBe(200);
    const session = await hub.call('GET', '/api/auth', undefined, { token: login.body.tokenId });
    for (const answer of [login.body, session.body, created]) {
      expect(JSON.stringify(answer)).not.toContain('sk-live-123');
      expect(JSON.stringify(answer)).not.toContain('tp-4321x');
    }
    expect(stored('devices', 'Terminal')).toEqual(SETTINGS);
  });

  it('keeps them through a PUT of what was answered, while nothing they are tied to moves', async () => {
    const doc = await expect2xx(hub.call('GET', '/api/devices/Terminal'));
    const put = await expect2xx(hub.call('PUT', '/api/devices/Terminal', { ...doc, description: 'at the bar', settings: { ...doc.settings, Language: 'cs' } }));
    expect(put.secretSettings).toEqual(['ApiKey', 'TerminalPin']);
    expect(stored('devices', 'Terminal')).toEqual({ ...SETTINGS, Language: 'cs' });
    // One sent again replaces it; one sent as "" is removed.
    await expect2xx(hub.call('PUT', '/api/devices/Terminal', { ...put, settings: { ...put.settings, ApiKey: 'sk-live-456', TerminalPin: '' } }));
    expect(stored('devices', 'Terminal')).toEqual({ ApiKey: 'sk-live-456', TerminalHost: '127.0.0.1', Language: 'cs' });
  });

  it('drops them when a setting naming a place moves without them', async () => {
    const doc = await expect2xx(hub.call('GET', '/api/devices/Terminal'));
    const put = await expect2xx(hub.call('PUT', '/api/devices/Terminal', { ...doc, settings: { ...doc.settings, TerminalHost: '10.9.9.9' } }));
    expect(put.secretSettings).toEqual([]);
    expect(stored('devices', 'Terminal')).toEqual({ TerminalHost: '10.9.9.9', Language: 'cs' });
  });
});

describe('a secret tied to a setting that holds a place under another name', () => {
  it('is dropped when a setting whose value is a URL, an IP address or a host name appears or moves without it', async () => {
    const name = 'Gateway';
    const secret = { TerminalPin: 'pin-9876' };
    await expect2xx(hub.call('POST', '/api/devices', { name, envName: 'PDA', settings: { ...secret, PaymentEndpoint: 'https://pay.example.com/v1', Language: 'sk' } }));
    const { _v, ...doc } = await expect2xx(hub.call('GET', `/api/devices/${name}`));
    // A change elsewhere keeps it.
    await expect2xx(hub.call('PUT', `/api/devices/${name}`, { ...doc, settings: { ...doc.settings, Language: 'cs' } }));
    expect(stored('devices', name)).toEqual({ ...secret, PaymentEndpoint: 'https://pay.example.com/v1', Language: 'cs' });
    // Before: only names holding address, host, URL, port, server or IP counted, so an editor who was
    // never told the PIN could point the endpoint at a server of theirs and the PIN went with it.
    for (const [setting, value] of [
      ['PaymentEndpoint', 'https://evil.example.net/collect'],
      ['Gateway', 'evil.example.net'],
      ['Relay', '203.0.113.7:9100'],
    ]) {
      await expect2xx(hub.call('PUT', `/api/devices/${name}`, { ...doc, settings: { ...doc.settings, ...secret, PaymentEndpoint: 'https://pay.example.com/v1' } }));
      const put = await expect2xx(hub.call('PUT', `/api/devices/${name}`, { ...doc, settings: { ...doc.settings, PaymentEndpoint: 'https://pay.example.com/v1', [setting]: value } }));
      expect(put.secretSettings, setting).toEqual([]);
      expect(stored('devices', name).TerminalPin, setting).toBeUndefined();
    }
  });
});

describe('an order endpoint with secret settings', () => {
  it('keeps them while type and address stay, drops them when either moves', async () => {
    const answered = await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Cloud', type: 'TM88', address: 'tcp://127.0.0.1:9', settings: { CloudToken: 't-1', IsBeepEnabled: 'true' } }));
    expect(answered).toMatchObject({ settings: { IsBeepEnabled: 'true' }, secretSettings: ['CloudToken'] });
    const { _v, ...made } = answered;
    await expect2xx(hub.call('PUT', '/api/orderendpoints/Cloud', { ...made, settings: { IsBeepEnabled: 'false' } }));
    expect(stored('order_endpoints', 'Cloud')).toEqual({ CloudToken: 't-1', IsBeepEnabled: 'false' });
    await expect2xx(hub.call('PUT', '/api/orderendpoints/Cloud', { ...made, address: 'tcp://127.0.0.1:19' }));
    expect(stored('order_endpoints', 'Cloud')).toEqual({ IsBeepEnabled: 'true' });
    await expect2xx(hub.call('PUT', '/api/orderendpoints/Cloud', { ...made, settings: { CloudToken: 't-2' } }));
    await expect2xx(hub.call('PUT', '/api/orderendpoints/Cloud', { ...made, type: 'Generic', settings: {} }));
    expect(stored('order_endpoints', 'Cloud')).toEqual({});
  });
});

describe('a list sorted by settings', () => {
  it('is refused where the order would give away a secret setting (by it, or by the whole settings object), and works on the others', async () => {
    for (const [name, key] of [['SortA', 'mmm'], ['SortB', 'aaa'], ['SortC', 'zzz']]) {
      await expect2xx(hub.call('POST', '/api/orderendpoints', { name, type: 'Tablet', settings: { ApiKey: key, Station: key } }));
    }
    // Before: any reader of the catalog got SortB, SortA, SortC here — the order of the secret keys.
    const reader = await hub.userWith([]);
    for (const [resource, sort] of [
      ['orderendpoints', 'settings.ApiKey'],
      ['orderendpoints', 'Settings.apikey:desc'],
      ['orderendpoints', 'settings'],
      ['devices', 'settings.TerminalPin'],
      ['fiscaldevices', '-settings.OperatorPassword'],
    ]) {
      const r = await hub.call('GET', `/api/${resource}?$sort=${encodeURIComponent(sort)}`, undefined, { token: reader });
      expect([r.status, r.body.errors?.[0]?.memberName, r.body.errors?.[0]?.code], `${resource} ${sort}`).toEqual([400, '$sort', 'Unknown']);
    }
    const plain = await expect2xx(hub.call('GET', '/api/orderendpoints?name=startswith:Sort&$sort=settings.Station', undefined, { token: reader }));
    expect(plain.items.map((e: { name: string }) => e.name)).toEqual(['SortB', 'SortA', 'SortC']);
    // A member of a free-form object without secrets (a device's preferences) still sorts (the object
    // itself is no scalar, so no sort key: CONTRACT §11).
    expect((await hub.call('GET', '/api/devices?$sort=preferences.theme', undefined, { token: reader })).status).toBe(200);
  });
});

describe("a fiscal printer's operator password", () => {
  let shop: FakeDatecsDevice;
  let rogue: FakeDatecsDevice;
  let cashier: Awaited<ReturnType<typeof register>>;
  beforeAll(async () => {
    shop = new FakeDatecsDevice({ clock: () => hub.clock.now(), password: '4711' });
    rogue = new FakeDatecsDevice({ clock: () => hub.clock.now(), serialNumber: 'DT000666' });
    await shop.listen();
    await rogue.listen();
    cashier = await register(hub);
  });
  afterAll(async () => {
    await hub.fiscal.closeAll();
    await shop.close();
    await rogue.close();
  });

  const passwordsSentTo = (device: FakeDatecsDevice) =>
    device.requests.filter((r) => r.cmd === CMD.openFiscalReceipt).map((r) => r.data.toString('latin1').split(',')[1]);
  const sell = async () => {
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(3, 1)] }, { token: cashier.token }));
    return hub.call('POST', `/api/tickets/${t.id}/close`, { fiscalName: 'DT9', payments: [{ paymentTypeNumber: 1, amount: 5 }] }, { token: cashier.token });
  };

  it('is never answered, and never sent to a printer an editor moved the device to without it', async () => {
    const made = await expect2xx(hub.call('POST', '/api/fiscaldevices', { name: 'DT9', driver: 'datecs', address: shop.address, settings: { ...FAST_SETTINGS, OperatorPassword: '4711' } }));
    expect(made.secretSettings).toEqual(['OperatorPassword']);
    expect(JSON.stringify(made)).not.toContain('4711');
    expect((await sell()).status).toBe(200);
    expect(passwordsSentTo(shop)).toContain('4711');

    // Someone who may change fiscal devices but was never told the password points DT9 at their own printer.
    const editor = await hub.userWith(['FiscalDeviceUpdate']);
    const moved = await hub.call('PUT', '/api/fiscaldevices/DT9', { driver: 'datecs', address: rogue.address, settings: FAST_SETTINGS }, { token: editor });
    expect(moved.status).toBe(200);
    expect(stored('fiscal_devices', 'DT9')).toEqual(FAST_SETTINGS);
    await sell();
    expect(passwordsSentTo(rogue).length).toBeGreaterThan(0);
    expect(passwordsSentTo(rogue)).not.toContain('4711');
  });
});
