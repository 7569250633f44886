/**
 * Rights (seed §5 table, CONTRACT §5/§11/§12): every write verb of every configuration resource is
 * refused without its right (403, errorCode 2, nothing stored) and allowed with it; a PUT needs the
 * Create right when it creates and the Update right when it replaces; reading the catalog needs only
 * a valid token, reading the rest its read right. Customers add CustomerSetDiscount and CustomerSetCredit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type Reply, type TestHub } from '../support/hub.js';

let hub: TestHub;
/** Tokens of users holding every Create right, every Update right, every Delete right, and none. */
let creator: string;
let updater: string;
let deleter: string;
let nobody: string;

interface Case {
  path: string;
  rights: { create: string; update: string; delete: string };
  /** The right that reading needs (CONTRACT §12); none: everyone logged in reads it (the catalog). */
  read?: string;
  key: 'id' | 'name' | 'number';
  /** A valid body for a new resource with key `k` (the n-th of the test). */
  body(n: number): Record<string, unknown>;
  /** A visible change of the body. */
  change(body: Record<string, unknown>): Record<string, unknown>;
}

const CASES: Case[] = [
  {
    path: 'customers',
    read: 'CustomerRead',
    rights: { create: 'CustomerCreate', update: 'CustomerUpdate', delete: 'CustomerDelete' },
    key: 'id',
    body: (n) => ({ id: `c${n}`, firstName: 'Ján', lastName: `Novák${n}` }),
    change: (b) => ({ ...b, note: 'changed' }),
  },
  {
    path: 'stocktransfernumberings',
    read: 'StockRead',
    rights: { create: 'StockTransferNumberingCreate', update: 'StockTransferNumberingUpdate', delete: 'StockTransferNumberingDelete' },
    key: 'id',
    // The defaults hold the one active numbering per type, so these are inactive.
    body: (n) => ({ id: `n${n}`, type: 'Income', format: `X${n}-{i4}`, isActive: false }),
    change: (b) => ({ ...b, format: 'Y-{yyyy}{i5}' }),
  },
  {
    path: 'devices',
    rights: { create: 'DeviceCreate', update: 'DeviceUpdate', delete: 'DeviceDelete' },
    key: 'name',
    body: (n) => ({ name: `Dev ${n}`, envName: 'Tool' }),
    change: (b) => ({ ...b, description: 'changed' }),
  },
  {
    path: 'modifiers',
    rights: { create: 'ModifierCreate', update: 'ModifierUpdate', delete: 'ModifierDelete' },
    key: 'id',
    body: (n) => ({ id: `m${n}`, name: `Sauce ${n}` }),
    change: (b) => ({ ...b, displayName: 'changed' }),
  },
  {
    path: 'orderendpoints',
    rights: { create: 'OrderEndpointCreate', update: 'OrderEndpointUpdate', delete: 'OrderEndpointDelete' },
    key: 'name',
    body: (n) => ({ name: `Kitchen ${n}`, type: 'Tablet' }),
    change: (b) => ({ ...b, isActive: false }),
  },
  {
    path: 'stocks',
    rights: { create: 'StockCreate', update: 'StockUpdate', delete: 'StockDelete' },
    key: 'name',
    body: (n) => ({ name: `Stock ${n}` }),
    change: (b) => ({ ...b, description: 'changed' }),
  },
  {
    path: 'paymenttypes',
    rights: { create: 'PaymentTypeCreate', update: 'PaymentTypeUpdate', delete: 'PaymentTypeDelete' },
    key: 'number',
    body: (n) => ({ number: 100 + n, name: `Card ${n}`, category: 'CreditCard' }),
    change: (b) => ({ ...b, name: 'changed' }),
  },
  {
    path: 'plus',
    rights: { create: 'PluCreate', update: 'PluUpdate', delete: 'PluDelete' },
    key: 'id',
    body: (n) => ({ id: `p${n}`, code: n, stockName: 'Main', name: `Beer ${n}`, type: 'StockItem' }),
    change: (b) => ({ ...b, name: 'changed' }),
  },
  {
    path: 'fiscaldevices',
    read: 'SettingsRead',
    rights: { create: 'FiscalDeviceCreate', update: 'FiscalDeviceUpdate', delete: 'FiscalDeviceDelete' },
    key: 'name',
    body: (n) => ({ name: `Fiscal ${n}`, driver: 'simulator', address: `sim:${n}` }),
    change: (b) => ({ ...b, isActive: false }),
  },
  {
    path: 'zones',
    rights: { create: 'ZoneCreate', update: 'ZoneUpdate', delete: 'ZoneDelete' },
    key: 'name',
    body: (n) => ({ name: `Zone ${n}`, tables: [{ name: '1' }] }),
    change: (b) => ({ ...b, color: '#112233' }),
  },
  {
    path: 'users',
    read: 'UserRead',
    rights: { create: 'UserCreate', update: 'UserUpdate', delete: 'UserDelete' },
    key: 'id',
    body: (n) => ({ id: `u${n}`, userName: `waiter${n}`, name: 'Waiter', password: 'secret-1' }),
    change: (b) => ({ ...b, name: 'changed' }),
  },
];

beforeAll(async () => {
  hub = await startHub();
  expect((await hub.call('POST', '/api/stocks', { name: 'Main' })).status).toBe(201);
  creator = await hub.userWith(CASES.map((c) => c.rights.create));
  updater = await hub.userWith(CASES.map((c) => c.rights.update));
  deleter = await hub.userWith(CASES.map((c) => c.rights.delete));
  nobody = await hub.userWith([]);
});
afterAll(() => hub.close());

const url = (c: Case, key?: unknown) => `/api/${c.path}${key === undefined ? '' : `/${encodeURIComponent(String(key))}`}`;

function expectRefused(r: Reply, ...rights: string[]): void {
  expect(r.status, JSON.stringify(r.body)).toBe(403);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body.errorCode).toBe(2);
  for (const right of rights) expect(r.body.detail).toContain(right);
}

let seq = 0;

describe.each(CASES)('rights of /api/$path', (c) => {
  it('POST needs the create right', async () => {
    const body = c.body(++seq);
    const key = body[c.key];
    for (const token of [nobody, updater, deleter]) {
      expectRefused(await hub.call('POST', url(c), body, { token }), c.rights.create);
      expect((await hub.call('GET', url(c, key))).status).toBe(404);
    }
    const ok = await hub.call('POST', url(c), body, { token: creator });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body._v).toBe(1);
    expect((await hub.call('GET', url(c, key))).status).toBe(200);
  });

  it('PUT that creates needs the create right (the update right is not enough)', async () => {
    const refused = c.body(++seq);
    for (const token of [nobody, deleter, updater]) {
      expectRefused(await hub.call('PUT', url(c, refused[c.key]), refused, { token }), c.rights.create);
      expect((await hub.call('GET', url(c, refused[c.key]))).status).toBe(404);
    }
    const body = c.body(++seq);
    const ok = await hub.call('PUT', url(c, body[c.key]), body, { token: creator });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect((await hub.call('GET', url(c, body[c.key]))).body._v).toBe(1);
  });

  it('PUT that replaces needs the update right (the create right is not enough)', async () => {
    const body = c.body(++seq);
    const key = body[c.key];
    expect((await hub.call('PUT', url(c, key), body)).status).toBe(201);
    const before = (await hub.call('GET', url(c, key))).body;
    for (const token of [nobody, deleter, creator]) {
      expectRefused(await hub.call('PUT', url(c, key), c.change(body), { token }), c.rights.update);
      expect((await hub.call('GET', url(c, key))).body).toEqual(before);
    }
    const byUpdater = await hub.call('PUT', url(c, key), c.change(body), { token: updater });
    expect(byUpdater.status, JSON.stringify(byUpdater.body)).toBe(200);
    expect(byUpdater.body._v).toBe(2);
  });

  it('DELETE needs the delete right', async () => {
    const body = c.body(++seq);
    const key = body[c.key];
    expect((await hub.call('POST', url(c), body)).status).toBe(201);
    for (const token of [nobody, creator, updater]) {
      expectRefused(await hub.call('DELETE', url(c, key), undefined, { token }), c.rights.delete);
      expect((await hub.call('GET', url(c, key))).status).toBe(200);
    }
    const ok = await hub.call('DELETE', url(c, key), undefined, { token: deleter });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body[c.key]).toBe(key);
    expect((await hub.call('GET', url(c, key))).status).toBe(404);
  });

  it(c.read ? `reading needs ${c.read}` : 'reading needs a valid token and no right', async () => {
    const body = c.body(++seq);
    expect((await hub.call('POST', url(c), body)).status).toBe(201);
    const reader = c.read ? await hub.userWith([c.read]) : nobody;
    if (c.read) {
      expectRefused(await hub.call('GET', url(c), undefined, { token: nobody }), c.read);
      expectRefused(await hub.call('GET', url(c, body[c.key]), undefined, { token: nobody }), c.read);
    }
    const list = await hub.call('GET', url(c), undefined, { token: reader });
    expect(list.status).toBe(200);
    expect(list.body.totalCount).toBeGreaterThan(0);
    expect((await hub.call('GET', url(c, body[c.key]), undefined, { token: reader })).status).toBe(200);
    const anonymous = await hub.call('GET', url(c), undefined, { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errorCode).toBe(1);
    expect((await hub.call('GET', url(c, body[c.key]), undefined, { token: 'not-a-token' })).status).toBe(401);
  });
});

describe('customer discount and credit rights', () => {
  let plain: string; // CustomerCreate + CustomerUpdate
  let discounter: string; // CustomerUpdate + CustomerSetDiscount
  let banker: string; // CustomerCreate + CustomerSetCredit
  beforeAll(async () => {
    plain = await hub.userWith(['CustomerCreate', 'CustomerUpdate']);
    discounter = await hub.userWith(['CustomerUpdate', 'CustomerSetDiscount']);
    banker = await hub.userWith(['CustomerCreate', 'CustomerUpdate', 'CustomerSetCredit']);
  });

  it('a discountRate change of an existing customer needs CustomerSetDiscount', async () => {
    const created = await hub.call('POST', '/api/customers', { id: 'disc1', lastName: 'Kováč', discountRate: 5 }, { token: plain });
    expect(created.status, JSON.stringify(created.body)).toBe(201); // creating with a discount needs no extra right
    expect(created.body.discountRate).toBe(5);
    const refused = await hub.call('PUT', '/api/customers/disc1', { lastName: 'Kováč', discountRate: 10 }, { token: plain });
    expectRefused(refused, 'CustomerSetDiscount');
    expect((await hub.call('GET', '/api/customers/disc1')).body).toMatchObject({ discountRate: 5, _v: 1 });
    // Same rate, other changes: no extra right.
    const same = await hub.call('PUT', '/api/customers/disc1', { lastName: 'Kováčová', discountRate: 5 }, { token: plain });
    expect(same.status).toBe(200);
    const ok = await hub.call('PUT', '/api/customers/disc1', { lastName: 'Kováčová', discountRate: 10 }, { token: discounter });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ discountRate: 10, _v: 3 });
  });

  it('creating with a non-zero credit needs CustomerSetCredit', async () => {
    const refused = await hub.call('POST', '/api/customers', { id: 'cred1', lastName: 'Hudák', credit: { amount: 20 } }, { token: plain });
    expectRefused(refused, 'CustomerSetCredit');
    expect((await hub.call('GET', '/api/customers/cred1')).status).toBe(404);
    const viaPut = await hub.call('PUT', '/api/customers/cred1', { lastName: 'Hudák', credit: { amount: 20 } }, { token: plain });
    expectRefused(viaPut, 'CustomerSetCredit');
    expect((await hub.call('GET', '/api/customers/cred1')).status).toBe(404);
    const zero = await hub.call('POST', '/api/customers', { id: 'cred0', lastName: 'Hudák', credit: { amount: 0 } }, { token: plain });
    expect(zero.status).toBe(201);
    expect(zero.body.creditTransactions).toEqual([]);
  });

  it('a credit change needs CustomerSetCredit and the server appends a credit transaction', async () => {
    const created = await hub.call(
      'POST',
      '/api/customers',
      {
        id: 'cred2',
        firstName: 'Eva',
        lastName: 'Malá',
        credit: { amount: 50, currencyLabel: 'EUR' },
        creditTransactions: [{ at: '2020-01-01T00:00:00Z', amount: 1000, balance: 1000, userName: 'mallory' }],
        status: 'Expired',
        fullName: 'Somebody Else',
      },
      { token: banker },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.fullName).toBe('Eva Malá');
    expect(created.body.status).toBe('Valid');
    expect(created.body.creditTransactions).toHaveLength(1);
    expect(created.body.creditTransactions[0]).toMatchObject({ amount: 50, balance: 50, userName: expect.stringMatching(/^user/) });
    expect(created.body.creditTransactions[0].at).toBe(hub.clock.now().toISOString());

    const refused = await hub.call('PUT', '/api/customers/cred2', { firstName: 'Eva', lastName: 'Malá', credit: { amount: 80, currencyLabel: 'EUR' } }, { token: plain });
    expectRefused(refused, 'CustomerSetCredit');
    const stored = (await hub.call('GET', '/api/customers/cred2')).body;
    expect(stored.credit.amount).toBe(50);
    expect(stored.creditTransactions).toHaveLength(1);

    // Unchanged credit: no right needed and no transaction appended.
    const same = await hub.call('PUT', '/api/customers/cred2', { firstName: 'Eva', lastName: 'Malá', note: 'vip', credit: { amount: 50, currencyLabel: 'EUR' } }, { token: plain });
    expect(same.status).toBe(200);
    expect(same.body.creditTransactions).toHaveLength(1);

    hub.clock.advance(60_000);
    const lowered = await hub.call(
      'PUT',
      '/api/customers/cred2',
      { firstName: 'Eva', lastName: 'Malá', credit: { amount: 30.25, currencyLabel: 'EUR' }, creditTransactions: [] },
      { token: banker },
    );
    expect(lowered.status, JSON.stringify(lowered.body)).toBe(200);
    expect(lowered.body.credit.amount).toBe(30.25);
    expect(lowered.body.creditTransactions).toHaveLength(2);
    expect(lowered.body.creditTransactions[1]).toMatchObject({ amount: -19.75, balance: 30.25, at: hub.clock.now().toISOString() });
  });
});

describe('rights names in users', () => {
  it('are matched case-insensitively and answered in canonical spelling', async () => {
    const r = await hub.call('POST', '/api/users', { userName: 'casey', password: 'pw-casey', rights: ['customercreate', 'STOCKDELETE', 'StockDelete'] });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.rights).toEqual(['CustomerCreate', 'StockDelete']);
    expect((await hub.call('GET', `/api/users/${r.body.id}`)).body.rights).toEqual(['CustomerCreate', 'StockDelete']);
    const login = await hub.call('POST', '/api/auth', { userName: 'casey', password: 'pw-casey', deviceName: 'BackOffice' }, { token: null });
    expect(login.body.user.rights).toEqual(['CustomerCreate', 'StockDelete']);
    const token = login.body.tokenId as string;
    expect((await hub.call('POST', '/api/customers', { lastName: 'Case' }, { token })).status).toBe(201);
    expectRefused(await hub.call('POST', '/api/stocks', { name: 'Nope' }, { token }), 'StockCreate');
  });

  it('an unknown right is a 400 naming it', async () => {
    const r = await hub.call('POST', '/api/users', { userName: 'bad-rights', password: 'pw', rights: ['CustomerCreate', 'BeGod'] });
    expect(r.status).toBe(400);
    expect(r.body.errorCode).toBe(3);
    expect(r.body.errors).toEqual([expect.objectContaining({ memberName: 'rights[1]', code: 'Invalid' })]);
    expect(r.body.errors[0].message).toContain('BeGod');
    expect((await hub.call('GET', '/api/users?userName=bad-rights')).body.totalCount).toBe(0);
  });
});

describe('granting rights', () => {
  it('refuses to hand out a right the caller does not hold, and keeps rights the user had', async () => {
    const manager = await hub.userWith(['UserCreate', 'UserUpdate', 'CustomerCreate']);
    const escalate = await hub.call('POST', '/api/users', { userName: 'sneaky', password: 'pw', rights: ['CustomerCreate', 'UserDelete'] }, { token: manager });
    // The caller lacks a right: errorCode 2 naming it (CONTRACT §2), as for a change to a stronger user.
    expectRefused(escalate, 'UserDelete');
    // Nor to themselves.
    const me = (await hub.call('GET', '/api/auth', undefined, { token: manager })).body.user;
    const self = (await hub.call('GET', `/api/users/${me.id}`)).body;
    expectRefused(await hub.call('PUT', `/api/users/${me.id}`, { ...self, rights: [...self.rights, 'Backup'] }, { token: manager }), 'Backup');
    expect((await hub.call('GET', '/api/users?userName=sneaky')).body.totalCount).toBe(0);
    const ok = await hub.call('POST', '/api/users', { userName: 'helper', password: 'pw', rights: ['CustomerCreate'] }, { token: manager });
    expect(ok.status).toBe(201);
    // A user the admin gave a right beyond the manager's may no longer be changed by the manager (CONTRACT §5).
    const admin = await hub.call('PUT', `/api/users/${ok.body.id}`, { ...ok.body, rights: ['CustomerCreate', 'Backup'] });
    expect(admin.status).toBe(200);
    const edit = await hub.call('PUT', `/api/users/${ok.body.id}`, { ...admin.body, name: 'Helper' }, { token: manager });
    expectRefused(edit, 'Backup');
    expect((await hub.call('GET', `/api/users/${ok.body.id}`)).body).toMatchObject({ name: '', rights: ['CustomerCreate', 'Backup'], _v: 2 });
  });
});
