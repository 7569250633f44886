/**
 * GET /api/registers/colleagues: whom a waiter on a register may hand a ticket over to. A register
 * logged in with a password has no X-Register-Key to list the users with (GET /api/registers/users),
 * so its session reads them here — a session on a sale device holding TicketHandover, as the Handover
 * itself needs; names and user names only (least privilege, CONTRACT §12).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, restaurant } from '../tickets/fixture.js';

let hub: TestHub;
const WAITER = ['TicketCreate', 'TicketUpdate', 'TicketHandover', 'TicketTakeover'];

beforeAll(async () => {
  hub = await startHub({ locale: 'sk' });
  await restaurant(hub);
  await expect2xx(hub.call('POST', '/api/devices', { name: 'Pokladňa 1', envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1' } }));
  await expect2xx(hub.call('POST', '/api/devices', { name: 'PDA Jana', envName: 'PDA' }));
  await expect2xx(hub.call('POST', '/api/devices', { name: 'Nástroj', envName: 'Tool' }));
  await expect2xx(hub.call('POST', '/api/users', { userName: 'zuzana', name: 'Zuzana', password: 'zuzana-pw', pin: '1357', rights: WAITER }));
  await expect2xx(hub.call('POST', '/api/users', { userName: 'cyril', name: 'Čestmír', password: 'cyril-pw', rights: WAITER }));
  await expect2xx(hub.call('POST', '/api/users', { userName: 'adam', name: 'Adam', password: 'adam-pw', rights: ['TicketCreate', 'TicketUpdate'] }));
  await expect2xx(hub.call('POST', '/api/users', { userName: 'spiaci', name: 'Spiaci', password: 'x', rights: WAITER, isActive: false }));
  await expect2xx(hub.call('POST', '/api/users', { userName: 'kuchar', name: 'Kuchár', password: 'kuchar-pw', rights: ['OrderProcess'] }));
});
afterAll(() => hub.close());

const colleagues = (token: string | null) => hub.call('GET', '/api/registers/colleagues', undefined, { token });

describe('GET /api/registers/colleagues', () => {
  it('answers a waiter on a register (password login, no key) the active users who may sell, by name, with their names only', async () => {
    for (const deviceName of ['Pokladňa 1', 'PDA Jana']) {
      const token = await hub.login('zuzana', 'zuzana-pw', deviceName);
      const r = await colleagues(token);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      // Slovak order (Č after C); the inactive waiter and the cook are not listed; the caller is.
      expect(r.body.items).toEqual([
        { userName: 'adam', name: 'Adam' },
        { userName: 'admin', name: expect.any(String) },
        { userName: 'cyril', name: 'Čestmír' },
        { userName: 'zuzana', name: 'Zuzana' },
      ]);
      expect([r.body.count, r.body.totalCount]).toEqual([4, 4]);
      // Nothing else about them: no rights, no PIN, no id.
      for (const u of r.body.items) expect(Object.keys(u).sort()).toEqual(['name', 'userName']);
      // Paged as every list (CONTRACT §4); only its own members sort it.
      expect((await hub.call('GET', '/api/registers/colleagues?$take=2', undefined, { token })).body).toMatchObject({ count: 2, totalCount: 4 });
      expect((await hub.call('GET', '/api/registers/colleagues?$sort=rights', undefined, { token })).body.errors[0].memberName).toBe('$sort');
      expect(JSON.stringify(r.body)).not.toMatch(/hasPin|rights|pin|password|"id"/i);
    }
  });

  it('a name from it is what a Handover takes', async () => {
    const token = await hub.login('zuzana', 'zuzana-pw', 'Pokladňa 1');
    await expect2xx(hub.call('PUT', '/api/tickets/col-1', { name: 'Stôl 1', items: [item(1, 1)] }, { token }));
    const to = (await colleagues(token)).body.items.find((u: { name: string }) => u.name === 'Čestmír');
    const r = await hub.call('PATCH', '/api/tickets?action=Handover', { ids: ['col-1'], userName: to.userName }, { token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body[0].employee).toEqual({ userName: 'cyril', name: 'Čestmír' });
  });

  it('refuses a session outside the Sale environment, even one holding every right (403, errorCode 2)', async () => {
    const tool = await hub.login('zuzana', 'zuzana-pw', 'Nástroj');
    for (const token of [tool, hub.adminToken]) {
      const r = await colleagues(token);
      expect([r.status, r.body.errorCode], JSON.stringify(r.body)).toEqual([403, 2]);
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(JSON.stringify(r.body)).not.toMatch(/Čestmír|cyril/);
    }
  });

  it('refuses a waiter on a register without TicketHandover, naming it (403)', async () => {
    const r = await colleagues(await hub.login('adam', 'adam-pw', 'Pokladňa 1'));
    expect([r.status, r.body.errorCode]).toEqual([403, 2]);
    expect(r.body.detail).toContain('TicketHandover');
    expect(JSON.stringify(r.body)).not.toMatch(/Čestmír|cyril/);
  });

  it('refuses no token, an unknown one and a logged-out session (401)', async () => {
    const token = await hub.login('cyril', 'cyril-pw', 'Pokladňa 1');
    expect((await colleagues(token)).status).toBe(200);
    expect((await hub.call('DELETE', '/api/auth', undefined, { token })).status).toBe(204);
    for (const t of [token, null, 'not-a-token']) {
      const r = await colleagues(t);
      expect([r.status, r.body.errorCode], String(t)).toEqual([401, 1]);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });
});
