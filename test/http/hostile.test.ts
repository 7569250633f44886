/**
 * Hostile input: wrong types everywhere, over-long strings, prototype keys, deep nesting, huge
 * arrays, awkward numbers, SQL-looking values and paths. After each request nothing is stored
 * that should not be, and the hub still answers /api/health.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type Reply, type TestHub } from '../support/hub.js';

let hub: TestHub;
/**
 * A Slovak shop: every refusal's messages are said through zod's Slovak locale and the catalog, so
 * the hostile input here also shows that saying them never fails (English is zod's own text).
 */
const HOSTILE_LOCALE = 'sk';
beforeAll(async () => {
  hub = await startHub({ locale: HOSTILE_LOCALE });
  expect((await hub.call('POST', '/api/stocks', { name: 'Main' })).status).toBe(201);
});
afterAll(() => hub.close());
afterEach(async () => {
  const health = await hub.call('GET', '/api/health', undefined, { token: null });
  expect(health.status).toBe(200);
  expect(health.body.status).toBe('ok');
});

/** A valid body of each resource, and the top-level members a client may send. */
const VALID: Record<string, Record<string, unknown>> = {
  customers: {
    firstName: 'Ján',
    lastName: 'Novák',
    isActive: true,
    email: 'jan@example.sk',
    isCompany: false,
    company: { name: 'Firma' },
    address: { street: 'Hlavná 1' },
    credit: { amount: 0, currencyLabel: 'EUR' },
    cards: [{ serialNumber: 'S-1' }],
    creditRate: 1.5,
    discountRate: 2,
    meta: {},
  },
  stocktransfernumberings: { type: 'Income', format: 'H-{i4}', isActive: false, repeat: false, numberings: [] },
  devices: { name: 'Hostile dev', envName: 'Tool', isActive: true, description: 'x', roles: ['a'], preferences: {}, settings: {} },
  modifiers: { name: 'Sauce', displayName: 'Sauce', minimumSelectedOptionsCount: 0, maximumSelectedOptionsCount: 1, options: [] },
  orderendpoints: { name: 'Hostile kds', type: 'Tablet', isActive: true, address: 'kds', settings: {} },
  stocks: { name: 'Hostile stock', description: 'x' },
  paymenttypes: { number: 55, name: 'Card', category: 'CreditCard', isActive: true, isChangeable: false },
  plus: { code: 1, stockName: 'Main', name: 'Beer', type: 'StockItem', unitPrice: { amount: 1.5 }, orderEndpointNames: [], receipt: [], isActive: true },
  fiscaldevices: { name: 'Hostile fiscal', driver: 'simulator', address: 'sim:1', isActive: true, settings: {} },
  users: { userName: 'hostile', name: 'x', password: 'pw', rights: [], isActive: true },
};
const KEYED_BY_NAME = new Set(['devices', 'orderendpoints', 'stocks', 'fiscaldevices']);
const RESOURCES = Object.keys(VALID);

async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const r of RESOURCES) {
    const res = await hub.call('GET', `/api/${r}?$count=true`);
    expect(res.status).toBe(200);
    out[r] = res.body.totalCount;
  }
  return out;
}

function expect400(r: Reply, memberPrefix?: string): void {
  expect(r.status, JSON.stringify(r.body)?.slice(0, 500)).toBe(400);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body.errorCode).toBe(3);
  if (memberPrefix !== undefined) {
    const names = (r.body.errors as Array<{ memberName: string }>).map((e) => e.memberName);
    expect(names.some((n) => n.startsWith(memberPrefix)), `${names.join(', ')} name ${memberPrefix}`).toBe(true);
  }
}

/** Values of another JSON type than `v`. */
function wrongTypes(v: unknown): unknown[] {
  if (typeof v === 'string') return [1, true, [], {}];
  if (typeof v === 'number') return ['1', true, [], {}, null];
  if (typeof v === 'boolean') return ['true', 1, [], {}, null];
  if (Array.isArray(v)) return ['x', 1, {}, true, null];
  return ['x', 1, [], true];
}

describe('wrong types', () => {
  it.each(RESOURCES)('every member of %s refuses a value of another type', async (resource) => {
    const before = await counts();
    const base = VALID[resource];
    let n = 0;
    for (const [member, value] of Object.entries(base)) {
      for (const wrong of wrongTypes(value)) {
        expect400(await hub.call('POST', `/api/${resource}`, { ...base, [member]: wrong }), member);
        n++;
      }
    }
    expect(n).toBeGreaterThanOrEqual(4);
    expect(await counts()).toEqual(before);
  });

  it.each(RESOURCES)('the key of %s refuses a value of another type', async (resource) => {
    const before = await counts();
    const key = KEYED_BY_NAME.has(resource) ? 'name' : resource === 'paymenttypes' ? 'number' : 'id';
    const wrongs = key === 'number' ? ['5', 1.5, true, [], {}, -3, 0] : [5, true, [], {}, ''];
    for (const wrong of wrongs) expect400(await hub.call('POST', `/api/${resource}`, { ...VALID[resource], [key]: wrong }), key);
    expect(await counts()).toEqual(before);
  });

  it('nested members refuse wrong types too', async () => {
    const before = await counts();
    for (const body of [
      { lastName: 'X', cards: [{ serialNumber: 'S', isActive: 'yes' }] },
      { lastName: 'X', cards: ['S-1'] },
      { lastName: 'X', credit: { amount: '10' } },
      { lastName: 'X', company: { name: 5 } },
      { lastName: 'X', cards: [{ serialNumber: 'S', expirationTime: 'tomorrow' }] },
      { lastName: 'X', activationTime: 1700000000 },
    ]) {
      expect400(await hub.call('POST', '/api/customers', body));
    }
    expect400(await hub.call('POST', '/api/plus', { ...VALID.plus, unitPrice: { amount: [1] } }), 'unitPrice.amount');
    expect400(await hub.call('POST', '/api/plus', { ...VALID.plus, receipt: [{ pluId: 'beer', quantity: 1 }] }), 'receipt[0].pluId');
    expect400(await hub.call('POST', '/api/modifiers', { ...VALID.modifiers, options: [{ id: 'o', unitPrice: 'free' }] }), 'options[0].unitPrice');
    expect400(await hub.call('POST', '/api/stocktransfernumberings', { ...VALID.stocktransfernumberings, numberings: [{ startAt: 'soon', period: { unit: 'Day', amount: 1 } }] }), 'numberings[0].startAt');
    expect(await counts()).toEqual(before);
  });
});

describe('long strings', () => {
  const long = 'x'.repeat(4001);
  it.each([
    ['customers', 'firstName'],
    ['customers', 'lastName'],
    ['customers', 'email'],
    ['customers', 'note'],
    ['customers', 'externalId'],
    ['stocks', 'description'],
    ['devices', 'description'],
    ['modifiers', 'name'],
    ['modifiers', 'displayName'],
    ['orderendpoints', 'address'],
    ['paymenttypes', 'name'],
    ['plus', 'name'],
    ['users', 'name'],
    ['fiscaldevices', 'address'],
  ])('%s.%s over 4,000 characters is 400 OutOfRange', async (resource, member) => {
    const before = await counts();
    const r = await hub.call('POST', `/api/${resource}`, { ...VALID[resource], [member]: long });
    expect400(r, member);
    expect(r.body.errors[0].code).toBe('OutOfRange');
    expect(await counts()).toEqual(before);
  });

  it('exactly 4,000 characters is accepted, names and user names too; only id keys are shorter (1-64, CONTRACT §3)', async () => {
    const ok = await hub.call('POST', '/api/stocks', { name: 'Long', description: 'y'.repeat(4000) });
    expect(ok.status).toBe(201);
    expect(ok.body.description).toHaveLength(4000);
    // No bound of the hub's own on name keys, user names or passwords: the contract's 4,000 holds.
    const named = await hub.call('POST', '/api/stocks', { name: 'n'.repeat(4000) });
    expect(named.status).toBe(201);
    expect((await hub.call('GET', `/api/stocks/${'n'.repeat(4000)}`)).status).toBe(200);
    const user = await hub.call('POST', '/api/users', { userName: 'u'.repeat(4000), password: 'p'.repeat(4000) });
    expect(user.status).toBe(201);
    expect((await hub.call('POST', '/api/auth', { userName: 'u'.repeat(4000), password: 'p'.repeat(4000), deviceName: 'BackOffice' }, { token: null })).status).toBe(200);
    const before = await counts();
    expect400(await hub.call('POST', '/api/stocks', { name: 'n'.repeat(4001) }), 'name');
    expect400(await hub.call('POST', '/api/customers', { id: 'i'.repeat(65), lastName: 'X' }), 'id');
    expect400(await hub.call('POST', '/api/users', { userName: 'u'.repeat(4001), password: 'pw' }), 'userName');
    expect400(await hub.call('POST', '/api/users', { userName: 'long-pw', password: 'p'.repeat(4001) }), 'password');
    expect400(await hub.call('POST', '/api/auth', { userName: 'admin', password: 'p'.repeat(100_000), deviceName: 'BackOffice' }, { token: null }), 'password');
    expect(await counts()).toEqual(before);
  });
});

describe('prototype keys', () => {
  const bodies: Array<[string, string, string]> = [
    ['top-level __proto__', '/api/stocks', '{"name":"Proto1","__proto__":{"polluted":true}}'],
    ['top-level constructor', '/api/stocks', '{"name":"Proto2","constructor":{"prototype":{"polluted":true}}}'],
    ['top-level prototype', '/api/stocks', '{"name":"Proto3","prototype":{"polluted":true}}'],
    ['nested __proto__', '/api/customers', '{"lastName":"P","meta":{"a":{"__proto__":{"polluted":true}}}}'],
    ['nested constructor', '/api/customers', '{"lastName":"P","meta":{"constructor":{"prototype":{"polluted":true}}}}'],
    ['__proto__ in an array', '/api/customers', '{"lastName":"P","cards":[{"serialNumber":"x","__proto__":{"polluted":true}}]}'],
    ['__proto__ in settings', '/api/devices', '{"name":"Proto4","envName":"Tool","settings":{"__proto__":"x"}}'],
    ['__proto__ in a login', '/api/auth', '{"userName":"admin","password":"x","deviceName":"BackOffice","__proto__":{"isAdmin":true}}'],
  ];
  it.each(bodies)('%s is 400', async (_what, path, raw) => {
    const before = await counts();
    const r = await hub.call('POST', path, undefined, { raw, headers: { 'content-type': 'application/json' } });
    expect400(r);
    expect(r.body.errors[0].memberName).toMatch(/__proto__|constructor|prototype/);
    expect(await counts()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('PUT with a prototype key is 400 too', async () => {
    const r = await hub.call('PUT', '/api/stocks/Proto5', undefined, { raw: '{"__proto__":{"description":"x"}}', headers: { 'content-type': 'application/json' } });
    expect400(r);
    expect((await hub.call('GET', '/api/stocks/Proto5')).status).toBe(404);
  });
});

describe('deep nesting and huge arrays', () => {
  it.each([10, 100, 10_000, 100_000])('%i levels of objects and arrays are 400, not a crash', async (depth) => {
    const before = await counts();
    const objects = `{"lastName":"Deep","meta":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    const arrays = `{"lastName":"Deep","meta":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    for (const raw of [objects, arrays]) {
      const r = await hub.call('POST', '/api/customers', undefined, { raw, headers: { 'content-type': 'application/json' } });
      if (depth <= 10) {
        expect(r.status).toBe(201);
        await hub.call('DELETE', r.headers.get('location')!);
      } else {
        expect(r.status, String(r.status)).toBe(400 as number);
        expect(r.body.errorCode).toBe(3);
      }
    }
    expect(await counts()).toEqual(before);
  });

  it('huge arrays in named members are 400', async () => {
    const before = await counts();
    expect400(await hub.call('POST', '/api/users', { userName: 'arr', password: 'pw', rights: Array(50_000).fill('StockCreate') }), 'rights');
    expect400(await hub.call('POST', '/api/customers', { lastName: 'Arr', cards: Array.from({ length: 101 }, (_, i) => ({ serialNumber: `s${i}` })) }), 'cards');
    expect400(await hub.call('POST', '/api/devices', { name: 'Arr', envName: 'Tool', roles: Array(50_000).fill('r') }), 'roles');
    expect400(await hub.call('POST', '/api/plus', { ...VALID.plus, orderEndpointNames: Array(10_000).fill('K') }), 'orderEndpointNames');
    expect400(await hub.call('POST', '/api/modifiers', { name: 'Arr', options: Array(1000).fill({ id: 'o' }) }), 'options');
    expect400(await hub.call('POST', '/api/stocks', Array(200_000).fill(0)), '$body');
    expect(await counts()).toEqual(before);
  });
});

describe('numbers', () => {
  it.each([
    ['1e308', 1e308, 'OutOfRange'],
    ['-1e308', -1e308, 'OutOfRange'],
    ['1e12', 1e12, 'OutOfRange'],
    ['5 decimal places', 1.23456, 'Invalid'],
    ['1e-5', 1e-5, 'Invalid'],
    ['a numeric string', '10', 'Invalid'],
    ['"NaN"', 'NaN', 'Invalid'],
    ['"Infinity"', 'Infinity', 'Invalid'],
    ['null', null, 'Invalid'],
  ])('a decimal of %s is 400', async (_what, amount, code) => {
    const before = await counts();
    const r = await hub.call('POST', '/api/customers', { lastName: 'Num', credit: { amount } });
    expect400(r, 'credit.amount');
    expect(r.body.errors[0].code).toBe(code);
    expect400(await hub.call('POST', '/api/plus', { ...VALID.plus, unitPrice: { amount } }), 'unitPrice.amount');
    expect(await counts()).toEqual(before);
  });

  it('numbers JSON cannot carry (1e400, NaN literals) are 400', async () => {
    const before = await counts();
    for (const raw of ['{"lastName":"N","discountRate":1e400}', '{"lastName":"N","discountRate":-1e400}', '{"lastName":"N","discountRate":NaN}', '{"lastName":"N","discountRate":Infinity}']) {
      expect400(await hub.call('POST', '/api/customers', undefined, { raw, headers: { 'content-type': 'application/json' } }));
    }
    expect(await counts()).toEqual(before);
  });

  it('-0 is stored as 0, 4 decimal places are kept exactly', async () => {
    const r = await hub.call('POST', '/api/customers', { id: 'negzero', lastName: 'Zero', discountRate: -0, creditRate: 12.3456 });
    expect(r.status).toBe(201);
    const text = JSON.stringify((await hub.call('GET', '/api/customers/negzero')).body);
    expect(text).toContain('"discountRate":0');
    expect(text).toContain('"creditRate":12.3456');
    expect((await hub.call('GET', '/api/customers?DiscountRate=0&id=negzero')).body.totalCount).toBe(1);
  });

  it.each([
    ['1.5', 1.5],
    ['2^53', 2 ** 53],
    ['1e308', 1e308],
    ['-1', -1],
    ['a string', '1'],
  ])('an integer member given %s is 400', async (_what, value) => {
    const before = await counts();
    expect400(await hub.call('POST', '/api/plus', { ...VALID.plus, code: value }), 'code');
    expect400(await hub.call('POST', '/api/paymenttypes', { ...VALID.paymenttypes, number: value }), 'number');
    expect400(await hub.call('POST', '/api/modifiers', { ...VALID.modifiers, maximumSelectedOptionsCount: value }), 'maximumSelectedOptionsCount');
    expect(await counts()).toEqual(before);
  });

  it.each(['1.5', '1e3', '0', '-1', '99999999999999999999', 'NaN', '0x10', '%20'])('a payment type path key of %s is 400', async (key) => {
    const before = await counts();
    expect400(await hub.call('GET', `/api/paymenttypes/${key}`), 'number');
    expect400(await hub.call('PUT', `/api/paymenttypes/${key}`, VALID.paymenttypes), 'number');
    expect400(await hub.call('DELETE', `/api/paymenttypes/${key}`), 'number');
    expect(await counts()).toEqual(before);
  });
});

describe('SQL-looking values', () => {
  /** A filter argument in double quotes, CSV style, so `;` and `"` inside it are data. */
  const quoted = (v: string) => encodeURIComponent(`"${v.replaceAll('"', '""')}"`);
  const SQL = ["Robert'); DROP TABLE customers;--", "' OR '1'='1", '1; DELETE FROM users', '"; UPDATE users SET is_active=0; --', "x' UNION SELECT password_hash FROM users --"];

  it.each(SQL)('a body value %s is stored as given', async (value) => {
    const r = await hub.call('POST', '/api/customers', { lastName: value, note: value, company: { name: value }, meta: { [value]: value } });
    expect(r.status).toBe(201);
    const got = (await hub.call('GET', r.headers.get('location')!)).body;
    expect(got).toMatchObject({ lastName: value, note: value, company: { name: value }, meta: { [value]: value } });
    const search = await hub.call('GET', `/api/customers?Search=${quoted(value)}`);
    expect(search.status).toBe(200);
    expect(search.body.items.map((c: { id: string }) => c.id)).toContain(r.body.id);
    expect((await hub.call('GET', '/api/users/admin')).body.isActive).toBe(true);
  });

  it.each(SQL)('a stock named %s is stored and found by its name', async (value) => {
    const name = value.replace(/^\W+/, '').trim();
    const r = await hub.call('PUT', `/api/stocks/${encodeURIComponent(name)}`, { description: value });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const got = await hub.call('GET', `/api/stocks/${encodeURIComponent(name)}`);
    expect(got.body).toEqual({ name, description: value, _v: 1 });
    const filtered = await hub.call('GET', `/api/stocks?name=${quoted(name)}`);
    expect(filtered.body.totalCount).toBe(1);
    expect((await hub.call('DELETE', `/api/stocks/${encodeURIComponent(name)}`)).status).toBe(200);
  });

  it.each(SQL)('a path key %s is refused or not found, never executed', async (value) => {
    const before = await counts();
    const key = encodeURIComponent(value);
    expect((await hub.call('GET', `/api/customers/${key}`)).status).toBe(404);
    expect((await hub.call('DELETE', `/api/customers/${key}`)).status).toBe(404);
    expect400(await hub.call('PUT', `/api/customers/${key}`, { lastName: 'X' }), 'id');
    expect400(await hub.call('PUT', `/api/users/${key}`, { userName: 'sql', password: 'pw' }), 'id');
    const filter = await hub.call('GET', `/api/users?userName=${quoted(value)}`);
    expect(filter.status).toBe(200);
    expect(filter.body.totalCount).toBe(0);
    const login = await hub.call('POST', '/api/auth', { userName: value, password: value, deviceName: value }, { token: null });
    expect(login.status).toBe(401);
    expect(await counts()).toEqual(before);
    expect((await hub.call('GET', '/api/users/admin')).status).toBe(200);
  });
});

describe('hostile paths and headers', () => {
  it('malformed percent-encoding, control characters and slashes in keys', async () => {
    const before = await counts();
    expect400(await hub.call('GET', '/api/customers/%E0%A4%A'));
    expect400(await hub.call('PUT', '/api/stocks/%FF', { description: 'x' }));
    expect400(await hub.call('PUT', '/api/stocks/a%00b', { description: 'x' }), 'name');
    expect400(await hub.call('PUT', '/api/stocks/a%2Fb', { description: 'x' }), 'name');
    expect400(await hub.call('PUT', '/api/stocks/%20padded', { description: 'x' }), 'name');
    expect((await hub.call('GET', '/api/stocks/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    expect((await hub.call('GET', '/api/../api/stocks')).status).toBe(200);
    expect(await counts()).toEqual(before);
  });

  it('keys a URL cannot address (. and ..) are refused', async () => {
    const before = await counts();
    for (const name of ['.', '..']) {
      expect400(await hub.call('POST', '/api/stocks', { name }), 'name');
      expect400(await hub.call('POST', '/api/devices', { name, envName: 'Tool' }), 'name');
      expect400(await hub.call('POST', '/api/customers', { id: name, lastName: 'Dot' }), 'id');
      expect400(await hub.call('POST', '/api/users', { id: name, userName: 'dot', password: 'pw' }), 'id');
    }
    expect(await counts()).toEqual(before);
    // Dots inside a key are fine.
    expect((await hub.call('POST', '/api/customers', { id: 'a..b', lastName: 'Dot' })).status).toBe(201);
    expect((await hub.call('GET', '/api/customers/a..b')).status).toBe(200);
  });

  it('device addresses cannot climb out of /dev', async () => {
    const before = await counts();
    for (const address of ['serial:/dev/../etc/passwd', 'serial:/dev/../../root/.ssh/authorized_keys?baudRate=9600', 'serial:/dev/./../tmp/x']) {
      expect400(await hub.call('POST', '/api/fiscaldevices', { name: 'Climb', driver: 'datecs', address }), 'address');
      expect400(await hub.call('POST', '/api/orderendpoints', { name: 'Climb', type: 'TM88', address }), 'address');
    }
    expect(await counts()).toEqual(before);
    expect((await hub.call('POST', '/api/orderendpoints', { name: 'Serial ok', type: 'TM88', address: 'serial:/dev/serial/by-id/usb-Epson_TM-T88V-if00?baudRate=19200' })).status).toBe(201);
  });

  it('a huge or odd Authorization header is a 401, not a crash', async () => {
    for (const authorization of ['Bearer ' + 'a'.repeat(8000), 'Bearer', 'Bearer a b', '\u00ff\u00fe', "Bearer ' OR 1=1 --"]) {
      const r = await hub.call('GET', '/api/stocks', undefined, { token: null, headers: { authorization } });
      expect(r.status, authorization.slice(0, 20)).toBe(401);
    }
  });

  it('odd query strings on lists are 400 or ignored, never a crash', async () => {
    for (const q of ['$take=abc', '$take=-1', '$take=1e9', '$skip=-5', '$sort=__proto__', '__proto__=1', 'constructor=1', '$take=1&$take=2', 'name[]=x', 'name[a]=b']) {
      const r = await hub.call('GET', `/api/stocks?${q}`);
      expect([200, 400], `${q}: ${r.status}`).toContain(r.status);
      expect(r.headers.get('content-type')).toMatch(r.status === 200 ? /^application\/json/ : /^application\/problem\+json/);
    }
  });
});
