import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type Reply, type TestHub } from '../support/hub.js';
import { plansOf } from '../support/plans.js';

/**
 * List layer over HTTP (CONTRACT §4, §11): every filter of every configuration resource, paging,
 * $count, $sort and the 400s. One hub for the file; every record is made in beforeAll, so each
 * assertion names exactly which keys come back.
 */
let hub: TestHub;

type Params = Array<[string, string]> | Record<string, string>;

function path(resource: string, params: Params = []): string {
  const qs = new URLSearchParams(Array.isArray(params) ? params : Object.entries(params)).toString();
  return `/api/${resource}${qs ? `?${qs}` : ''}`;
}

async function list(resource: string, params: Params = []): Promise<Reply> {
  const r = await hub.call('GET', path(resource, params));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r;
}

/** The keys a list answers, in the order it answers them; checks count against the page. */
async function keys(resource: string, params: Params = [], key = 'id'): Promise<unknown[]> {
  const r = await list(resource, params);
  expect(r.body.count).toBe(r.body.items.length);
  return (r.body.items as Array<Record<string, unknown>>).map((i) => i[key]);
}

/** A 400 problem (errorCode 3) whose first error names `member`. */
async function bad(resource: string, params: Params, member: string): Promise<Reply> {
  const r = await hub.call('GET', path(resource, params));
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body.errorCode).toBe(3);
  expect(r.body.status).toBe(400);
  expect(r.body.errors?.[0]?.memberName).toBe(member);
  return r;
}

async function create(resource: string, body: Record<string, unknown>): Promise<void> {
  const r = await hub.call('POST', `/api/${resource}`, body);
  if (r.status !== 201) throw new Error(`POST ${resource} ${JSON.stringify(body)}: ${r.status} ${JSON.stringify(r.body)}`);
}

const NOW = '2026-11-21T10:00:00Z';

beforeAll(async () => {
  hub = await startHub();

  // Customers (clock at 2026-11-21T10:00:00Z).
  await create('customers', {
    id: 'c1',
    firstName: 'Ján',
    lastName: 'Novák',
    externalId: 'ext-1',
    creditRate: 12.5,
    discountRate: 5,
    expirationTime: '2026-11-21T12:00:00Z',
    cards: [{ serialNumber: 'CARD-001' }, { serialNumber: 'CARD-002' }],
    credit: { amount: 50, currencyLabel: 'EUR' },
    note: 'VIP guest',
  });
  await create('customers', {
    id: 'c2',
    firstName: 'Eva',
    lastName: 'Horváthová',
    externalId: 'ext-2',
    isActive: false,
    creditRate: 0.0001,
    discountRate: 10,
    expirationTime: '2027-01-01T00:00:00Z',
    isCompany: true,
    company: { name: 'Kaviareň s.r.o.', vatId: 'SK2020123456', taxId: '1122334455' },
    cards: [{ serialNumber: 'CARD-100' }],
    credit: { amount: 10.5, currencyLabel: 'EUR' },
  });
  await create('customers', {
    id: 'c3',
    company: { name: 'ACME 50% Off_Sale' },
    creditRate: 12.5001,
    activationTime: '2026-12-01T00:00:00Z',
  });
  await create('customers', {
    id: 'c4',
    lastName: 'Kováč',
    externalId: 'EXT-4',
    expirationTime: '2026-11-20T00:00:00Z',
    note: 'likes 100% arabica',
  });
  await create('customers', {
    id: 'c5',
    firstName: 'Peter',
    lastName: 'Malý',
    creditRate: 100,
    discountRate: 99.9999,
  });

  // Stocks, plus.
  for (const name of ['Bar', 'Kitchen', 'Main']) await create('stocks', { name });
  await create('plus', { id: 'p-cola', code: 1, stockName: 'Bar', name: 'Coca-Cola', type: 'StockItem' });
  await create('plus', { id: 'p-beer', code: 2, stockName: 'Bar', name: 'Pivo Šariš', type: 'StockItem', isActive: false });
  await create('plus', { id: 'p-goulash', code: 1, stockName: 'Kitchen', name: 'Guláš', type: 'Recipe' });
  await create('plus', { id: 'p-fee', code: 10, stockName: 'Kitchen', name: 'Delivery fee', type: 'Service' });

  // Devices (BackOffice exists from the first start).
  await create('devices', { name: 'POS 1', envName: 'CashRegister' });
  await create('devices', { name: 'PDA-1', envName: 'PDA', isActive: false });
  await create('devices', { name: 'Tool x', envName: 'Tool' });

  // Modifiers: a few for filters, 105 for paging.
  await create('modifiers', { id: 'mod-a', name: 'Sauce' });
  await create('modifiers', { id: 'mod-b', name: 'Size' });
  await create('modifiers', { id: 'mod-pct', name: 'a%b' });
  await create('modifiers', { id: 'mod-us', name: 'a_b' });
  await create('modifiers', { id: 'mod-x', name: 'axb' });
  await create('modifiers', { id: 'mod-pizza', name: '🍕 Pizza' });
  for (let i = 0; i < 105; i++) await create('modifiers', { id: `pg${String(i).padStart(3, '0')}`, name: `group-${i % 3}` });

  // Order endpoints.
  await create('orderendpoints', { name: 'Kitchen', type: 'TM88', address: 'tcp://127.0.0.1:9100' });
  await create('orderendpoints', { name: 'Bar', type: 'SRP350', address: 'tcp://127.0.0.1:9101', isActive: false });
  await create('orderendpoints', { name: 'KDS', type: 'Tablet' });

  // Payment types (1 Cash exists from the first start).
  await create('paymenttypes', { number: 2, name: 'Card', category: 'CreditCard' });
  await create('paymenttypes', { number: 3, name: 'Gift', category: 'Voucher', isActive: false });
  await create('paymenttypes', { number: 10, name: 'Meal ticket', category: 'Other', isChangeable: true });

  // Fiscal devices.
  await create('fiscaldevices', { name: 'FD1', driver: 'simulator', address: 'sim:a' });
  await create('fiscaldevices', { name: 'FD2', driver: 'simulator', address: 'sim:b', isActive: false });

  // Users (admin exists from the first start).
  await create('users', { id: 'u-anna', userName: 'Anna', password: 'pw-anna-123' });
  await create('users', { id: 'u-boris', userName: 'boris', password: 'pw-boris-123', isActive: false });

  // Numberings: the six defaults are active; extra ones must be inactive.
  await create('stocktransfernumberings', { id: 'inc-2027', type: 'Income', format: 'P2-{i4}', isActive: false });
  await create('stocktransfernumberings', { id: 'sale-old', type: 'Sale', format: 'SO-{i6}', isActive: false });
});
afterAll(() => hub?.close());

describe('customers filters', () => {
  it('id', async () => {
    expect(await keys('customers', { id: 'c2' })).toEqual(['c2']);
    expect(await keys('customers', { id: 'c9' })).toEqual([]);
    expect(await keys('customers', { id: 'in:c1,c3' })).toEqual(['c1', 'c3']);
    expect(await keys('customers', { id: 'ne:c1' })).toEqual(['c2', 'c3', 'c4', 'c5']);
  });

  it('CardSerialNumber: compared with the serial numbers of the cards', async () => {
    expect(await keys('customers', { CardSerialNumber: 'CARD-001' })).toEqual(['c1']);
    expect(await keys('customers', { CardSerialNumber: 'CARD-002' })).toEqual(['c1']);
    expect(await keys('customers', { CardSerialNumber: 'CARD-100' })).toEqual(['c2']);
    expect(await keys('customers', { CardSerialNumber: 'CARD-999' })).toEqual([]);
    expect(await keys('customers', { CardSerialNumber: 'in:CARD-002,CARD-100' })).toEqual(['c1', 'c2']);
    expect(await keys('customers', { CardSerialNumber: 'startswith:card-0' })).toEqual(['c1']);
    expect(await keys('customers', { CardSerialNumber: 'contains:10' })).toEqual(['c2']);
    // ne / nin: no card holds the value, so customers without cards match.
    expect(await keys('customers', { CardSerialNumber: 'ne:CARD-001' })).toEqual(['c2', 'c3', 'c4', 'c5']);
    expect(await keys('customers', { CardSerialNumber: 'nin:CARD-002,CARD-100' })).toEqual(['c3', 'c4', 'c5']);
    expect(await keys('customers', { CardSerialNumber: 'null' })).toEqual(['c3', 'c4', 'c5']);
    expect(await keys('customers', { CardSerialNumber: 'ne:null' })).toEqual(['c1', 'c2']);
  });

  it('ExternalId, with ne matching a missing value', async () => {
    expect(await keys('customers', { ExternalId: 'ext-1' })).toEqual(['c1']);
    expect(await keys('customers', { ExternalId: 'ext-9' })).toEqual([]);
    expect(await keys('customers', { ExternalId: 'ne:ext-1' })).toEqual(['c2', 'c3', 'c4', 'c5']);
    expect(await keys('customers', { ExternalId: 'nin:ext-1,ext-2' })).toEqual(['c3', 'c4', 'c5']);
    expect(await keys('customers', { ExternalId: 'eq:null' })).toEqual(['c3', 'c5']);
    expect(await keys('customers', { ExternalId: 'ne:null' })).toEqual(['c1', 'c2', 'c4']);
    expect(await keys('customers', { ExternalId: 'startswith:ext-' })).toEqual(['c1', 'c2', 'c4']);
    expect(await keys('customers', { ExternalId: 'contains:T-4' })).toEqual(['c4']);
  });

  it('CreditRate: exact decimals', async () => {
    expect(await keys('customers', { CreditRate: '12.5' })).toEqual(['c1']);
    expect(await keys('customers', { CreditRate: '12.50' })).toEqual(['c1']);
    expect(await keys('customers', { CreditRate: '12.5001' })).toEqual(['c3']);
    expect(await keys('customers', { CreditRate: '0.0001' })).toEqual(['c2']);
    expect(await keys('customers', { CreditRate: '12.4999' })).toEqual([]);
    expect(await keys('customers', { CreditRate: 'gt:12.5' })).toEqual(['c3', 'c5']);
    expect(await keys('customers', { CreditRate: 'ge:12.5' })).toEqual(['c1', 'c3', 'c5']);
    expect(await keys('customers', { CreditRate: 'lt:0.0001' })).toEqual(['c4']);
    expect(await keys('customers', { CreditRate: 'le:0.0001' })).toEqual(['c2', 'c4']);
    expect(await keys('customers', { CreditRate: 'in:0.0001,100' })).toEqual(['c2', 'c5']);
    expect(await keys('customers', { CreditRate: 'ne:0' })).toEqual(['c1', 'c2', 'c3', 'c5']);
    await bad('customers', { CreditRate: '12.50001' }, 'CreditRate');
    await bad('customers', { CreditRate: 'twelve' }, 'CreditRate');
  });

  it('DiscountRate: exact decimals', async () => {
    expect(await keys('customers', { DiscountRate: '5' })).toEqual(['c1']);
    expect(await keys('customers', { DiscountRate: '99.9999' })).toEqual(['c5']);
    expect(await keys('customers', { DiscountRate: '99.999' })).toEqual([]);
    expect(await keys('customers', { DiscountRate: 'ge:10' })).toEqual(['c2', 'c5']);
    expect(await keys('customers', { DiscountRate: 'eq:0' })).toEqual(['c3', 'c4']);
    expect(await keys('customers', { DiscountRate: 'in:5,10' })).toEqual(['c1', 'c2']);
    expect(await keys('customers', { DiscountRate: 'nin:5,10' })).toEqual(['c3', 'c4', 'c5']);
    await bad('customers', { DiscountRate: 'contains:5' }, 'DiscountRate');
  });

  it('IsActive, with names matched case-insensitively', async () => {
    expect(await keys('customers', { IsActive: 'true' })).toEqual(['c1', 'c3', 'c4', 'c5']);
    expect(await keys('customers', { IsActive: 'false' })).toEqual(['c2']);
    expect(await keys('customers', { isactive: 'true' })).toEqual(['c1', 'c3', 'c4', 'c5']);
    expect(await keys('customers', { ISACTIVE: 'FALSE' })).toEqual(['c2']);
    expect(await keys('customers', { IsActive: 'ne:true' })).toEqual(['c2']);
    await bad('customers', { IsActive: 'yes' }, 'IsActive');
    await bad('customers', { IsActive: 'gt:false' }, 'IsActive');
  });

  it('ExpirationTime: datetimes with and without an offset, null for none', async () => {
    expect(await keys('customers', { ExpirationTime: '2026-11-21T12:00:00Z' })).toEqual(['c1']);
    expect(await keys('customers', { ExpirationTime: '2026-11-21T12:00:01Z' })).toEqual([]);
    // Without an offset: the store zone (Bratislava, UTC+1 in November).
    expect(await keys('customers', { ExpirationTime: '2026-11-21T13:00:00' })).toEqual(['c1']);
    expect(await keys('customers', { ExpirationTime: 'eq:2026-11-21T14:00:00+02:00' })).toEqual(['c1']);
    expect(await keys('customers', { ExpirationTime: `ge:${NOW}` })).toEqual(['c1', 'c2']);
    expect(await keys('customers', { ExpirationTime: `lt:${NOW}` })).toEqual(['c4']);
    expect(await keys('customers', { ExpirationTime: 'gt:2026-11-21T12:00:00Z' })).toEqual(['c2']);
    expect(await keys('customers', { ExpirationTime: 'le:2026-11-21T12:00:00Z' })).toEqual(['c1', 'c4']);
    expect(await keys('customers', { ExpirationTime: 'null' })).toEqual(['c3', 'c5']);
    expect(await keys('customers', { ExpirationTime: 'ne:null' })).toEqual(['c1', 'c2', 'c4']);
    expect(await keys('customers', { ExpirationTime: 'ne:2026-11-21T12:00:00Z' })).toEqual(['c2', 'c3', 'c4', 'c5']);
    expect(await keys('customers', { ExpirationTime: 'ge:2026-11-21;lt:2026-11-22' })).toEqual(['c1']);
    await bad('customers', { ExpirationTime: 'ge:tomorrow' }, 'ExpirationTime');
  });

  it('IsExpired follows the clock and agrees with status', async () => {
    expect(await keys('customers', { IsExpired: 'true' })).toEqual(['c4']);
    expect(await keys('customers', { IsExpired: 'false' })).toEqual(['c1', 'c2', 'c3', 'c5']);
    expect(await keys('customers', { isexpired: 'ne:true' })).toEqual(['c1', 'c2', 'c3', 'c5']);
    try {
      hub.clock.set('2026-11-21T11:59:59.999Z');
      expect(await keys('customers', { IsExpired: 'true' })).toEqual(['c4']);
      hub.clock.set('2026-11-21T12:00:00Z');
      expect(await keys('customers', { IsExpired: 'true' })).toEqual(['c1', 'c4']);
      expect(await keys('customers', { IsExpired: 'false' })).toEqual(['c2', 'c3', 'c5']);
      const r = await list('customers', { IsExpired: 'true' });
      expect(r.body.items.map((c: { status: string }) => c.status)).toEqual(['Expired', 'Expired']);
    } finally {
      hub.clock.set(NOW);
    }
    // NotYetValid (c3) is not expired.
    const c3 = await list('customers', { id: 'c3' });
    expect(c3.body.items[0].status).toBe('NotYetValid');
    await bad('customers', { IsExpired: 'maybe' }, 'IsExpired');
  });

  it('Search counts its matches on the covering search_text index, not the rows with their documents', async () => {
    const plans = await plansOf(hub, '/api/customers?Search=nov', 'customers');
    const count = plans.find((p) => /count\(\*\)/.test(p.sql));
    expect(count?.plan.join(' | ')).toMatch(/SCAN customers USING COVERING INDEX customers_search_text/);
  });

  it("Search finds a company given with the seed's property names (Name, VatId, TaxId), answered in camelCase", async () => {
    const r = await hub.call('POST', '/api/customers', { id: 'pascal', company: { Name: 'Pekáreň Pascal', VatId: 'SK7070', TaxId: '9988', Branch: 'B1' } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    try {
      expect(r.body.company).toEqual({ name: 'Pekáreň Pascal', vatId: 'SK7070', taxId: '9988', Branch: 'B1' });
      expect(r.body.fullName).toBe('Pekáreň Pascal');
      expect(await keys('customers', { Search: 'pascal' })).toEqual(['pascal']);
      expect(await keys('customers', { Search: 'sk7070' })).toEqual(['pascal']);
      expect(await keys('customers', { Search: '998' })).toEqual(['pascal']);
    } finally {
      expect((await hub.call('DELETE', '/api/customers/pascal')).status).toBe(200);
    }
  });

  it('Search: partial, case-insensitive, over names, company and note', async () => {
    expect(await keys('customers', { Search: 'NOVÁK' })).toEqual(['c1']); // lastName
    expect(await keys('customers', { Search: 'ján' })).toEqual(['c1']); // firstName
    expect(await keys('customers', { Search: 'ovák' })).toEqual(['c1']);
    expect(await keys('customers', { Search: 'kaviareŇ' })).toEqual(['c2']); // company.name
    expect(await keys('customers', { Search: 'sk2020' })).toEqual(['c2']); // company.vatId
    expect(await keys('customers', { Search: '22334' })).toEqual(['c2']); // company.taxId
    expect(await keys('customers', { Search: 'vip' })).toEqual(['c1']); // note
    expect(await keys('customers', { Search: 'ARABICA' })).toEqual(['c4']);
    expect(await keys('customers', { Search: 'ová' })).toEqual(['c1', 'c2', 'c4']);
    expect(await keys('customers', { Search: 'eva' })).toEqual(['c2']);
    expect(await keys('customers', { Search: 'nobody' })).toEqual([]);
    expect(await keys('customers', { Search: 'in:VIP,arabica' })).toEqual(['c1', 'c4']);
    // A negated search also keeps customers whose searched fields are missing.
    expect(await keys('customers', { Search: 'ne:novák' })).toEqual(['c2', 'c3', 'c4', 'c5']);
    expect(await keys('customers', { Search: 'nin:novák,arabica' })).toEqual(['c2', 'c3', 'c5']);
    // % and _ are plain characters.
    expect(await keys('customers', { Search: '%' })).toEqual(['c3', 'c4']);
    expect(await keys('customers', { Search: '_' })).toEqual(['c3']);
    expect(await keys('customers', { Search: '50% off_' })).toEqual(['c3']);
  });

  it('Search takes the operators its meaning has; an order or a prefix is a 400 naming Search, not a silent contains', async () => {
    expect(await keys('customers', { Search: 'contains:ovák' })).toEqual(['c1']);
    expect(await keys('customers', { Search: 'CONTAINS:ovák' })).toEqual(['c1']);
    for (const v of ['gt:m', 'ge:m', 'lt:m', 'le:m', 'startswith:ová']) {
      const r = await bad('customers', { Search: v }, 'Search');
      expect(r.body.errors[0].message).toMatch(/operator/);
    }
  });

  it('filters combine with AND', async () => {
    expect(await keys('customers', { IsActive: 'true', ExpirationTime: 'ne:null' })).toEqual(['c1', 'c4']);
    expect(await keys('customers', { Search: 'ová', IsActive: 'true' })).toEqual(['c1', 'c4']);
    expect(await keys('customers', { Search: 'ová', IsActive: 'true', ExternalId: 'ext-1' })).toEqual(['c1']);
  });
});

describe('stocktransfernumberings filters', () => {
  const R = 'stocktransfernumberings';
  it('id', async () => {
    expect(await keys(R, { id: 'sale' })).toEqual(['sale']);
    expect(await keys(R, { id: 'nope' })).toEqual([]);
    expect(await keys(R, { id: 'startswith:in' })).toEqual(['inc-2027', 'income', 'invoice']);
  });

  it('isActive', async () => {
    expect(await keys(R, { isActive: 'false' })).toEqual(['inc-2027', 'sale-old']);
    expect(await keys(R, { isActive: 'true' })).toEqual(['correction', 'income', 'invoice', 'outcome', 'sale', 'transfer']);
  });

  it('type (an enum, matched case-insensitively)', async () => {
    expect(await keys(R, { type: 'income' })).toEqual(['inc-2027', 'income']);
    expect(await keys(R, { Type: 'in:Sale,INVOICE' })).toEqual(['invoice', 'sale', 'sale-old']);
    expect(await keys(R, { type: 'ne:Income;ne:Sale' })).toEqual(['correction', 'invoice', 'outcome', 'transfer']);
    expect(await keys(R, { type: 'Transfer', isActive: 'false' })).toEqual([]);
    await bad(R, { type: 'Gift' }, 'type');
  });
});

describe('devices filters', () => {
  it('name', async () => {
    expect(await keys('devices', { name: 'POS 1' }, 'name')).toEqual(['POS 1']);
    expect(await keys('devices', { name: 'POS 2' }, 'name')).toEqual([]);
    expect(await keys('devices', { name: 'contains:o' }, 'name')).toEqual(['BackOffice', 'POS 1', 'Tool x']);
  });

  it('isActive', async () => {
    expect(await keys('devices', { isActive: 'false' }, 'name')).toEqual(['PDA-1']);
    expect(await keys('devices', { isActive: 'true' }, 'name')).toEqual(['BackOffice', 'POS 1', 'Tool x']);
  });

  it('envName', async () => {
    expect(await keys('devices', { envName: 'cashregister' }, 'name')).toEqual(['POS 1']);
    expect(await keys('devices', { envName: 'in:PDA,Tool' }, 'name')).toEqual(['PDA-1', 'Tool x']);
    expect(await keys('devices', { envName: 'nin:PDA,Tool' }, 'name')).toEqual(['BackOffice', 'POS 1']);
    await bad('devices', { envName: 'Kiosk' }, 'envName');
  });
});

describe('modifiers filters', () => {
  it('Id', async () => {
    expect(await keys('modifiers', { Id: 'mod-a' })).toEqual(['mod-a']);
    expect(await keys('modifiers', { id: 'startswith:mod-' })).toEqual(['mod-a', 'mod-b', 'mod-pct', 'mod-pizza', 'mod-us', 'mod-x']);
    expect(await keys('modifiers', { Id: 'mod-z' })).toEqual([]);
  });

  it('Name', async () => {
    expect(await keys('modifiers', { Name: 'Sauce' })).toEqual(['mod-a']);
    expect(await keys('modifiers', { Name: 'sauce' })).toEqual([]);
    expect(await keys('modifiers', { name: 'startswith:s' })).toEqual(['mod-a', 'mod-b']);
    expect(await keys('modifiers', { Name: 'ne:Sauce', Id: 'startswith:mod-' })).toEqual(['mod-b', 'mod-pct', 'mod-pizza', 'mod-us', 'mod-x']);
  });

  it('contains and startswith take % and _ literally', async () => {
    expect(await keys('modifiers', { name: 'contains:%' })).toEqual(['mod-pct']);
    expect(await keys('modifiers', { name: 'contains:_' })).toEqual(['mod-us']);
    expect(await keys('modifiers', { name: 'startswith:a_' })).toEqual(['mod-us']);
    expect(await keys('modifiers', { name: 'startswith:a%' })).toEqual(['mod-pct']);
    expect(await keys('modifiers', { name: 'contains:a' })).toEqual(['mod-a', 'mod-pct', 'mod-pizza', 'mod-us', 'mod-x']);
  });

  it('startswith and contains count characters, not UTF-16 units', async () => {
    expect(await keys('modifiers', { name: 'startswith:🍕' })).toEqual(['mod-pizza']);
    expect(await keys('modifiers', { name: 'startswith:🍕 pi' })).toEqual(['mod-pizza']);
    expect(await keys('modifiers', { name: 'startswith:🍕 PIZZA' })).toEqual(['mod-pizza']);
    expect(await keys('modifiers', { name: 'startswith:🍕 pa' })).toEqual([]);
    expect(await keys('modifiers', { name: 'contains:🍕' })).toEqual(['mod-pizza']);
  });
});

describe('orderendpoints filters', () => {
  const R = 'orderendpoints';
  it('name', async () => {
    expect(await keys(R, { name: 'Kitchen' }, 'name')).toEqual(['Kitchen']);
    expect(await keys(R, { name: 'Grill' }, 'name')).toEqual([]);
  });

  it('isActive', async () => {
    expect(await keys(R, { isActive: 'true' }, 'name')).toEqual(['KDS', 'Kitchen']);
    expect(await keys(R, { isActive: 'false' }, 'name')).toEqual(['Bar']);
  });

  it('type', async () => {
    expect(await keys(R, { type: 'tm88' }, 'name')).toEqual(['Kitchen']);
    expect(await keys(R, { type: 'Tablet' }, 'name')).toEqual(['KDS']);
    expect(await keys(R, { type: 'Generic' }, 'name')).toEqual([]);
    expect(await keys(R, { type: 'ne:Tablet' }, 'name')).toEqual(['Bar', 'Kitchen']);
    await bad(R, { type: 'Laser' }, 'type');
  });

  it('address (a plain value holding colons is one eq value)', async () => {
    expect(await keys(R, { address: 'tcp://127.0.0.1:9100' }, 'name')).toEqual(['Kitchen']);
    expect(await keys(R, { address: 'tcp://127.0.0.1:9102' }, 'name')).toEqual([]);
    expect(await keys(R, { address: 'eq:tcp://127.0.0.1:9101' }, 'name')).toEqual(['Bar']);
    expect(await keys(R, { address: 'startswith:TCP://' }, 'name')).toEqual(['Bar', 'Kitchen']);
    expect(await keys(R, { address: 'eq:' }, 'name')).toEqual(['KDS']);
  });
});

describe('stocks filters', () => {
  it('name', async () => {
    expect(await keys('stocks', { name: 'Bar' }, 'name')).toEqual(['Bar']);
    expect(await keys('stocks', { name: 'Cellar' }, 'name')).toEqual([]);
    expect(await keys('stocks', { name: 'in:Bar,Main' }, 'name')).toEqual(['Bar', 'Main']);
    expect(await keys('stocks', { name: 'contains:IT' }, 'name')).toEqual(['Kitchen']);
    expect(await keys('stocks', { NAME: 'nin:Bar' }, 'name')).toEqual(['Kitchen', 'Main']);
  });
});

describe('paymenttypes filters', () => {
  const R = 'paymenttypes';
  it('number (an int: numeric, not text, comparison)', async () => {
    expect(await keys(R, { number: '2' }, 'number')).toEqual([2]);
    expect(await keys(R, { number: '4' }, 'number')).toEqual([]);
    expect(await keys(R, { number: 'gt:2' }, 'number')).toEqual([3, 10]);
    expect(await keys(R, { number: 'lt:10' }, 'number')).toEqual([1, 2, 3]);
    expect(await keys(R, { number: 'in:1,10' }, 'number')).toEqual([1, 10]);
    await bad(R, { number: 'two' }, 'number');
    await bad(R, { number: '2.5' }, 'number');
  });

  it('isActive', async () => {
    expect(await keys(R, { isActive: 'false' }, 'number')).toEqual([3]);
    expect(await keys(R, { isActive: 'true' }, 'number')).toEqual([1, 2, 10]);
  });

  it('category', async () => {
    expect(await keys(R, { category: 'creditcard' }, 'number')).toEqual([2]);
    expect(await keys(R, { category: 'in:Cash,Other' }, 'number')).toEqual([1, 10]);
    await bad(R, { category: 'Bitcoin' }, 'category');
  });

  it('isChangeable', async () => {
    expect(await keys(R, { isChangeable: 'true' }, 'number')).toEqual([1, 10]);
    expect(await keys(R, { isChangeable: 'false' }, 'number')).toEqual([2, 3]);
  });

  it('ANDs operations joined by ; and repeated parameters, whatever their case', async () => {
    expect(await keys(R, { number: 'ge:2;lt:10' }, 'number')).toEqual([2, 3]);
    expect(await keys(R, [['number', 'ge:2'], ['number', 'lt:10']], 'number')).toEqual([2, 3]);
    expect(await keys(R, [['NUMBER', 'ge:2'], ['number', 'lt:10'], ['IsActive', 'true']], 'number')).toEqual([2]);
    expect(await keys(R, { number: 'ge:3;le:2' }, 'number')).toEqual([]);
  });
});

describe('plus filters', () => {
  it('id', async () => {
    expect(await keys('plus', { id: 'p-fee' })).toEqual(['p-fee']);
    expect(await keys('plus', { id: 'p-none' })).toEqual([]);
  });

  it('code', async () => {
    expect(await keys('plus', { code: '1' })).toEqual(['p-cola', 'p-goulash']);
    expect(await keys('plus', { code: 'ge:2' })).toEqual(['p-beer', 'p-fee']);
    expect(await keys('plus', { code: '3' })).toEqual([]);
    await bad('plus', { code: 'one' }, 'code');
  });

  it('stockName', async () => {
    expect(await keys('plus', { stockName: 'Bar' })).toEqual(['p-beer', 'p-cola']);
    expect(await keys('plus', { stockName: 'Main' })).toEqual([]);
    expect(await keys('plus', { stockName: 'Kitchen', code: '1' })).toEqual(['p-goulash']);
  });

  it('type', async () => {
    expect(await keys('plus', { type: 'stockitem' })).toEqual(['p-beer', 'p-cola']);
    expect(await keys('plus', { type: 'in:Recipe,Service' })).toEqual(['p-fee', 'p-goulash']);
    expect(await keys('plus', { type: 'Container' })).toEqual([]);
    await bad('plus', { type: 'Drink' }, 'type');
  });

  it('name (text operators fold diacritics case)', async () => {
    expect(await keys('plus', { name: 'Coca-Cola' })).toEqual(['p-cola']);
    expect(await keys('plus', { name: 'contains:ŠARIŠ' })).toEqual(['p-beer']);
    expect(await keys('plus', { name: 'startswith:gulá' })).toEqual(['p-goulash']);
    expect(await keys('plus', { name: 'contains:pepsi' })).toEqual([]);
  });

  it('isActive', async () => {
    expect(await keys('plus', { isActive: 'false' })).toEqual(['p-beer']);
    expect(await keys('plus', { isActive: 'true' })).toEqual(['p-cola', 'p-fee', 'p-goulash']);
  });
});

describe('fiscaldevices filters', () => {
  const R = 'fiscaldevices';
  it('name', async () => {
    expect(await keys(R, { name: 'FD2' }, 'name')).toEqual(['FD2']);
    expect(await keys(R, { name: 'FD3' }, 'name')).toEqual([]);
  });

  it('isActive', async () => {
    expect(await keys(R, { isActive: 'true' }, 'name')).toEqual(['FD1']);
    expect(await keys(R, { isActive: 'false' }, 'name')).toEqual(['FD2']);
  });

  it('driver', async () => {
    expect(await keys(R, { driver: 'SIMULATOR' }, 'name')).toEqual(['FD1', 'FD2']);
    expect(await keys(R, { driver: 'datecs' }, 'name')).toEqual([]);
    await bad(R, { driver: 'epson' }, 'driver');
  });
});

describe('users filters', () => {
  it('id', async () => {
    expect(await keys('users', { id: 'u-anna' })).toEqual(['u-anna']);
    expect(await keys('users', { id: 'u-nobody' })).toEqual([]);
  });

  it('userName (user names are case-insensitive)', async () => {
    expect(await keys('users', { userName: 'ANNA' })).toEqual(['u-anna']);
    expect(await keys('users', { userName: 'Boris' })).toEqual(['u-boris']);
    expect(await keys('users', { userName: 'carla' })).toEqual([]);
    expect(await keys('users', { userName: 'in:ADMIN,anna' })).toEqual(['admin', 'u-anna']);
    expect(await keys('users', { userName: 'ne:BORIS' })).toEqual(['admin', 'u-anna']);
  });

  it('isActive', async () => {
    expect(await keys('users', { isActive: 'false' })).toEqual(['u-boris']);
    expect(await keys('users', { isActive: 'true' })).toEqual(['admin', 'u-anna']);
  });

  it('never answers a password or its hash', async () => {
    const r = await list('users');
    for (const u of r.body.items) {
      expect(u).not.toHaveProperty('password');
      expect(u).not.toHaveProperty('passwordHash');
    }
  });
});

describe('hostile and unknown filters', () => {
  it('SQL-looking values are plain strings', async () => {
    for (const v of ["' OR 1=1 --", "eq:' OR '1'='1", "in:a') OR ('1'='1", 'contains:%', "x\"; DROP TABLE stocks; --"]) {
      expect(await keys('stocks', { name: v }, 'name')).toEqual([]);
    }
    expect(await keys('customers', { Search: "' OR 1=1 --" })).toEqual([]);
    expect(await keys('customers', { CardSerialNumber: "' OR 1=1 --" })).toEqual([]);
    expect(await keys('stocks', {}, 'name')).toEqual(['Bar', 'Kitchen', 'Main']);
  });

  it('an unknown filter is a 400 naming it', async () => {
    await bad('customers', { Bogus: '1' }, 'Bogus');
    await bad('stocks', { description: 'x' }, 'description');
    await bad('customers', { "name' OR 1=1": 'x' }, "name' OR 1=1");
    await bad('devices', { $filter: 'x' }, '$filter');
  });

  it('a bad operator argument is a 400 naming the filter', async () => {
    await bad('paymenttypes', { isChangeable: 'contains:t' }, 'isChangeable');
    await bad('paymenttypes', { number: 'gt:null' }, 'number');
    await bad('stocks', { name: 'in:"Bar' }, 'name');
  });
});

describe('paging', () => {
  const PG = { id: 'startswith:pg' };
  const all = Array.from({ length: 105 }, (_, i) => `pg${String(i).padStart(3, '0')}`);

  it('defaults to $skip 0 and $take 100; count is the page, totalCount all matches', async () => {
    const r = await list('modifiers', PG);
    expect(r.body.count).toBe(100);
    expect(r.body.totalCount).toBe(105);
    expect(r.body.items.map((m: { id: string }) => m.id)).toEqual(all.slice(0, 100));
  });

  it('$skip and $take pick a page', async () => {
    const r = await list('modifiers', { ...PG, $skip: '100' });
    expect(r.body).toMatchObject({ count: 5, totalCount: 105 });
    expect(r.body.items.map((m: { id: string }) => m.id)).toEqual(all.slice(100));
    expect(await keys('modifiers', { ...PG, $skip: '10', $take: '3' })).toEqual(['pg010', 'pg011', 'pg012']);
    expect(await keys('modifiers', { ...PG, $SKIP: '10', $Take: '3' })).toEqual(['pg010', 'pg011', 'pg012']);
    const past = await list('modifiers', { ...PG, $skip: '500' });
    expect(past.body).toEqual({ items: [], count: 0, totalCount: 105 });
    const far = await list('modifiers', { ...PG, $skip: '100000000000' });
    expect(far.body).toEqual({ items: [], count: 0, totalCount: 105 });
    // Up to the bound the OpenAPI document declares (2^53 - 1, 16 digits), as a JSON number carries it.
    for (const skip of ['1000000000000000', String(Number.MAX_SAFE_INTEGER)]) {
      expect((await list('modifiers', { ...PG, $skip: skip })).body).toEqual({ items: [], count: 0, totalCount: 105 });
    }
    const none = await list('modifiers', { ...PG, $take: '0' });
    expect(none.body).toEqual({ items: [], count: 0, totalCount: 105 });
    const max = await list('modifiers', { ...PG, $take: '1000' });
    expect(max.body).toMatchObject({ count: 105, totalCount: 105 });
  });

  it('refuses $take outside 0..1000 and $skip below 0', async () => {
    for (const t of ['1001', '-1', 'ten', '', '1.5', '100000000000']) await bad('modifiers', { $take: t }, '$take');
    for (const s of ['-1', 'x', '', '2.5']) await bad('modifiers', { $skip: s }, '$skip');
    // A whole number past the bound is out of range, however many digits it has (it was "not a whole number").
    for (const s of [String(Number.MAX_SAFE_INTEGER + 1), '99999999999999999999']) {
      expect((await bad('modifiers', { $skip: s }, '$skip')).body.errors[0].code).toBe('OutOfRange');
    }
    expect((await bad('modifiers', { $take: '99999999999999999999' }, '$take')).body.errors[0].code).toBe('OutOfRange');
  });

  it('$count=true answers no items, count = what the page would hold', async () => {
    const c = await list('modifiers', { ...PG, $count: 'true' });
    expect(c.body).toEqual({ count: 100, totalCount: 105 });
    expect(c.body).not.toHaveProperty('items');
    expect((await list('modifiers', { ...PG, $count: 'TRUE', $take: '10' })).body).toEqual({ count: 10, totalCount: 105 });
    expect((await list('modifiers', { ...PG, $count: 'true', $skip: '100' })).body).toEqual({ count: 5, totalCount: 105 });
    expect((await list('modifiers', { ...PG, $count: 'true', $skip: '300' })).body).toEqual({ count: 0, totalCount: 105 });
    expect((await list('customers', { IsActive: 'true', $count: 'true' })).body).toEqual({ count: 4, totalCount: 4 });
    const f = await list('modifiers', { ...PG, $count: 'false', $take: '2' });
    expect(f.body).toMatchObject({ count: 2, totalCount: 105 });
    expect(f.body.items).toHaveLength(2);
    await bad('modifiers', { $count: 'yes' }, '$count');
  });

  it('pages stably when the sort key ties, ties broken on the key', async () => {
    const seen: string[] = [];
    for (let skip = 0; skip < 105; skip += 7) {
      seen.push(...((await keys('modifiers', { ...PG, $sort: 'name', $skip: String(skip), $take: '7' })) as string[]));
    }
    const expected = [0, 1, 2].flatMap((g) => all.filter((_, i) => i % 3 === g));
    expect(seen).toEqual(expected);
    // Descending on name still breaks ties on the key ascending.
    const desc = (await keys('modifiers', { ...PG, $sort: 'name:desc', $take: '3' })) as string[];
    expect(desc).toEqual(['pg002', 'pg005', 'pg008']);
  });
});

describe('$sort', () => {
  it('without $sort: the key ascending (numeric for number keys)', async () => {
    expect(await keys('paymenttypes', {}, 'number')).toEqual([1, 2, 3, 10]);
    expect(await keys('customers')).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
  });

  it('-key, key:desc and key:asc', async () => {
    expect(await keys('paymenttypes', { $sort: '-number' }, 'number')).toEqual([10, 3, 2, 1]);
    expect(await keys('paymenttypes', { $sort: 'number:desc' }, 'number')).toEqual([10, 3, 2, 1]);
    expect(await keys('paymenttypes', { $sort: 'number:asc' }, 'number')).toEqual([1, 2, 3, 10]);
    expect(await keys('paymenttypes', { $sort: 'NUMBER:DESC' }, 'number')).toEqual([10, 3, 2, 1]);
    expect(await keys('stocks', { $sort: 'name:desc' }, 'name')).toEqual(['Main', 'Kitchen', 'Bar']);
  });

  it('several keys, in one value or repeated', async () => {
    expect(await keys('plus', { $sort: 'code,stockName:desc' })).toEqual(['p-goulash', 'p-cola', 'p-beer', 'p-fee']);
    expect(await keys('plus', [['$sort', '-stockName'], ['$sort', 'code']])).toEqual(['p-goulash', 'p-fee', 'p-cola', 'p-beer']);
    expect(await keys('paymenttypes', { $sort: 'isChangeable:desc,-number' }, 'number')).toEqual([10, 1, 3, 2]);
  });

  it('filter members and top-level fields are sort keys, names case-insensitive', async () => {
    expect(await keys('customers', { $sort: '-CreditRate' })).toEqual(['c5', 'c3', 'c1', 'c2', 'c4']);
    expect(await keys('customers', { $sort: 'discountrate:desc' })).toEqual(['c5', 'c2', 'c1', 'c3', 'c4']);
    expect(await keys('customers', { $sort: 'lastName' })).toEqual(['c3', 'c2', 'c4', 'c5', 'c1']);
    expect(await keys('customers', { $sort: '-IsExpired,id:desc' })).toEqual(['c4', 'c5', 'c3', 'c2', 'c1']);
    expect(await keys('devices', { $sort: 'envName' }, 'name')).toEqual(['BackOffice', 'POS 1', 'PDA-1', 'Tool x']);
    expect(await keys('orderendpoints', { $sort: '-address' }, 'name')).toEqual(['Bar', 'Kitchen', 'KDS']);
    // User names sort alphabetically in the shop's collation (issue 21), not by code point ('A' before 'a').
    expect(await keys('users', { $sort: 'userName' })).toEqual(['admin', 'u-anna', 'u-boris']);
  });

  it('`_v`, a top-level scalar of every answer, sorts on every resource, ties on the key', async () => {
    const byKey: Record<string, string> = { devices: 'name', orderendpoints: 'name', stocks: 'name', paymenttypes: 'number' };
    for (const resource of ['customers', 'devices', 'orderendpoints', 'stocks', 'paymenttypes', 'plus', 'modifiers', 'users', 'tickets']) {
      const key = byKey[resource] ?? 'id';
      const r = await list(resource, { $sort: '-_V', $take: '1000' });
      expect(r.status, resource).toBe(200);
      const rows = (r.body.items as Array<Record<string, unknown>>).map((i) => [i._v as number, i[key] as string | number] as const);
      const sorted = [...rows].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
      expect(rows, resource).toEqual(sorted);
    }
    // Versions that differ: a customer changed twice comes first.
    const c = (await hub.call('GET', '/api/customers/c3')).body as Record<string, unknown>;
    await hub.call('PUT', '/api/customers/c3', { ...c, note: 'one' });
    await hub.call('PUT', '/api/customers/c3', { ...c, note: 'two' });
    try {
      expect((await keys('customers', { $sort: '_v:desc' }))[0]).toBe('c3');
      expect((await keys('customers', { $sort: '_v' })).at(-1)).toBe('c3');
    } finally {
      const now = (await hub.call('GET', '/api/customers/c3')).body as Record<string, unknown>;
      await hub.call('PUT', '/api/customers/c3', { ...c, _v: now._v });
    }
  });

  it('derived and child members sort too', async () => {
    // status: Expired < NotYetValid < Valid, by the clock.
    expect(await keys('customers', { $sort: 'status' })).toEqual(['c4', 'c3', 'c1', 'c2', 'c5']);
    try {
      hub.clock.set('2026-11-21T12:00:00Z'); // c1 expires
      expect(await keys('customers', { $sort: 'status' })).toEqual(['c1', 'c4', 'c3', 'c2', 'c5']);
      expect(await keys('customers', { $sort: 'status:desc' })).toEqual(['c2', 'c5', 'c3', 'c1', 'c4']);
    } finally {
      hub.clock.set(NOW);
    }
    // CardSerialNumber: by the lowest serial number a customer holds; none sorts first.
    expect(await keys('customers', { $sort: 'CardSerialNumber' })).toEqual(['c3', 'c4', 'c5', 'c1', 'c2']);
    expect(await keys('customers', { $sort: '-cardserialnumber' })).toEqual(['c2', 'c1', 'c3', 'c4', 'c5']);
  });

  it('missing values sort first ascending, last descending', async () => {
    expect(await keys('customers', { $sort: 'ExpirationTime' })).toEqual(['c3', 'c5', 'c4', 'c1', 'c2']);
    expect(await keys('customers', { $sort: 'expirationTime:desc' })).toEqual(['c2', 'c1', 'c4', 'c3', 'c5']);
    expect(await keys('customers', { $sort: 'externalId' })).toEqual(['c3', 'c5', 'c4', 'c1', 'c2']);
  });

  it('dotted paths reach nested fields', async () => {
    expect(await keys('customers', { $sort: 'credit.amount' })).toEqual(['c3', 'c4', 'c5', 'c2', 'c1']);
    expect(await keys('customers', { $sort: '-credit.amount' })).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    expect(await keys('customers', { $sort: 'company.name' })).toEqual(['c1', 'c4', 'c5', 'c3', 'c2']);
    // Every segment is matched case-insensitively (the same order as 'credit.amount', not the key order).
    expect(await keys('customers', { $sort: 'Credit.AMOUNT' })).toEqual(['c3', 'c4', 'c5', 'c2', 'c1']);
    expect(await keys('customers', { $sort: 'COMPANY.Name:desc' })).toEqual(['c2', 'c3', 'c1', 'c4', 'c5']);
    // Free-form objects may hold any member.
    expect(await keys('customers', { $sort: 'meta.tier' })).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
  });

  it('an unknown sort key is a 400 naming $sort', async () => {
    await bad('customers', { $sort: 'nope' }, '$sort');
    await bad('customers', { $sort: 'lastName,nope:desc' }, '$sort');
    await bad('customers', { $sort: 'credit.nope' }, '$sort');
    await bad('customers', { $sort: 'nope.amount' }, '$sort');
    await bad('customers', { $sort: 'cards.serialNumber' }, '$sort');
    await bad('customers', { $sort: 'credit.amount.x' }, '$sort');
    await bad('customers', { $sort: 'credit.amount)--' }, '$sort');
    await bad('users', { $sort: 'passwordHash' }, '$sort');
    await bad('stocks', { $sort: 'name; DROP TABLE stocks' }, '$sort');
    await bad('stocks', { $sort: 'name:sideways' }, '$sort');
    await bad('stocks', { $sort: 'name,' }, '$sort');
  });

  it('a top-level object or list is no sort key (CONTRACT §11: the scalar fields sort; its members by a dotted path)', async () => {
    for (const key of ['cards', 'company', 'credit', 'meta', 'company:desc']) await bad('customers', { $sort: key }, '$sort');
    await bad('plus', { $sort: 'unitPrice' }, '$sort');
    await bad('plus', { $sort: 'modifierIds' }, '$sort');
    // Their members and the scalar fields still sort.
    expect(await keys('customers', { $sort: 'company.name' })).toEqual(['c1', 'c4', 'c5', 'c3', 'c2']);
    expect(await keys('customers', { $sort: 'externalId' })).toEqual(['c3', 'c5', 'c4', 'c1', 'c2']);
  });
});

describe('documents as stored, `_v` spliced in', () => {
  it('a list and a GET answer the document the write answered, whatever characters it holds', async () => {
    // A PLU: a resource answered from its stored bytes (no read-time hook, unlike customers).
    const written = await hub.call('POST', '/api/plus', {
      id: 'p-bytes',
      code: 999,
      stockName: 'Main',
      name: 'Šopský šalát 🍕 ends with a brace }',
      type: 'Service',
      note: 'quotes " and \\ backslash, 4-byte 𝄞, combining é, tab\tand newline\n',
    });
    expect(written.status, JSON.stringify(written.body)).toBe(201);
    const one = await hub.call('GET', '/api/plus/p-bytes');
    expect(one.body).toEqual(written.body);
    expect(one.headers.get('etag')).toBe(`"${written.body._v}"`);
    const page = await list('plus', { id: 'p-bytes' });
    expect(page.body).toEqual({ items: [written.body], count: 1, totalCount: 1 });
    // _v once, as the last member.
    const text = await (await fetch(`${hub.url}/api/plus/p-bytes`, { headers: { authorization: `Bearer ${hub.adminToken}` } })).text();
    expect(text.endsWith(`,"_v":${written.body._v}}`)).toBe(true);
    expect(text.match(/"_v"/g)).toHaveLength(1);
    // A page in the order asked, every document whole.
    const sorted = await list('plus', { $sort: '-name', $take: '3' });
    const all = (await list('plus', { $take: '1000' })).body.items as Array<{ name: string }>;
    expect(sorted.body.items).toEqual([...all].sort((x, y) => (x.name < y.name ? 1 : x.name > y.name ? -1 : 0)).slice(0, 3));
  });
});
