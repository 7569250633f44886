/**
 * A register's idle lock (issue 29 D): device setting LockAfterSeconds, a string of whole seconds
 * like every setting, checked when stored; the register reads it from its device (its session, or
 * GET /api/devices/{name}, which everyone logged in may read).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx } from '../tickets/fixture.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(() => hub.close());

describe('LockAfterSeconds', () => {
  it('is stored as given when whole seconds from 0 to a day', async () => {
    for (const [name, value] of [['Bar', '90'], ['Terasa', '0'], ['Sklad', '86400']]) {
      const r = await expect2xx(hub.call('POST', '/api/devices', { name, envName: 'CashRegister', settings: { LockAfterSeconds: value } }));
      expect(r.settings.LockAfterSeconds).toBe(value);
    }
  });

  it.each([['-1'], ['abc'], ['90s'], ['86401'], [''], ['1.5']])('refuses %j with 400 naming settings.LockAfterSeconds', async (value) => {
    const r = await hub.call('POST', '/api/devices', { name: 'Zlá', envName: 'CashRegister', settings: { LockAfterSeconds: value } });
    expect([r.status, r.body.errorCode]).toEqual([400, 3]);
    expect(r.body.errors.map((e: any) => e.memberName)).toEqual(['settings.LockAfterSeconds']);
  });

  it('is read by the register from its session and its device, without any right', async () => {
    await expect2xx(hub.call('POST', '/api/users', { userName: 'nika', password: 'nika-pw', rights: ['TicketCreate'] }));
    const login = await hub.call('POST', '/api/auth', { userName: 'nika', password: 'nika-pw', deviceName: 'Bar' }, { token: null });
    expect(login.body.user.device.settings.LockAfterSeconds).toBe('90');
    const device = await hub.call('GET', '/api/devices/Bar', undefined, { token: login.body.tokenId });
    expect([device.status, device.body.settings.LockAfterSeconds]).toEqual([200, '90']);
  });
});
