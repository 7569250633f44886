/** The 25 filters of GET /api/tickets (seed §4, CONTRACT §4, §11), sorting by closeInfo.number, and the indexes behind them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorFiscalDevice } from '../../drivers/fiscal/simulator/driver.js';
import { startHub, type TestHub } from '../support/hub.js';
import { plansOf as plansOfRequest } from '../support/plans.js';
import { expect2xx, item, register, restaurant } from './fixture.js';

let hub: TestHub;
let a: Awaited<ReturnType<typeof register>>;
let b: Awaited<ReturnType<typeof register>>;
let serial: string;

const at = (iso: string) => hub.clock.set(iso);
const put = (who: { token: string }, id: string, body: Record<string, unknown>) => expect2xx(hub.call('PUT', `/api/tickets/${id}`, body, { token: who.token }));
const close = (who: { token: string }, id: string, amount: number) =>
  expect2xx(hub.call('POST', `/api/tickets/${id}/close`, { payments: [{ paymentTypeNumber: 1, amount }] }, { token: who.token }));

/**
 * t1 open on A at table 5 (customer, discount, take-away, EUR); t2 opened on A, closed from B;
 * t3 open on B with a returned item; t4 opened and closed on B with a negative-priced coupon and a
 * drink; t5 opened and closed on A in the evening, after a Z report, with an item discount.
 */
beforeAll(async () => {
  hub = await startHub();
  await restaurant(hub);
  await expect2xx(hub.call('POST', '/api/stocks', { name: 'Drinks' }));
  await expect2xx(hub.call('POST', '/api/plus', { code: 1, stockName: 'Drinks', name: 'Kofola', type: 'Service', unitPrice: { amount: 1.5 } }));
  await expect2xx(hub.call('POST', '/api/customers', { id: 'novak', firstName: 'Ján', lastName: 'Novák', cards: [{ serialNumber: 'CARD-1' }] }));
  a = await register(hub);
  b = await register(hub);

  at('2026-11-21T10:00:00Z');
  await put(a, 't1', {
    name: 'Window',
    externalId: 'ext-1',
    purchaseType: 'TakeAway',
    currencyLabel: 'EUR',
    discountRate: 10,
    location: { tableName: '5', zoneName: 'Terrace' },
    customer: { cardSerialNumber: 'CARD-1' },
    items: [item(1, 1)],
  });
  at('2026-11-21T11:00:00Z');
  await put(a, 't2', { location: { tableName: '7', zoneName: 'Hall' }, items: [item(3, 2)] });
  at('2026-11-21T11:30:00Z');
  await close(b, 't2', 4.4);
  at('2026-11-21T12:00:00Z');
  await put(b, 't3', { location: { tableName: '5', zoneName: 'Hall' }, items: [item(4, 1, { type: 'Negative' })] });
  at('2026-11-21T12:30:00Z');
  await put(b, 't4', { items: [item(1, 1), item(4, 1, { unitPrice: { amount: -1 }, comment: 'coupon' }), { plu: { code: 1, stockName: 'Drinks' }, quantity: 1 }] });
  at('2026-11-21T13:00:00Z');
  await close(b, 't4', 7.4);
  const fp1 = hub.fiscal.peek('FP1') as SimulatorFiscalDevice;
  await fp1.zReport();
  serial = (await fp1.info()).fiscalMemorySerialNumber;
  at('2026-11-21T20:00:00Z');
  await put(a, 't5', { items: [{ plu: { code: 1, stockName: 'Drinks' }, quantity: 2, discountRate: 10 }] });
  await close(a, 't5', 2.7);
});
afterAll(() => hub.close());

async function ids(query: string): Promise<string[]> {
  const r = await hub.call('GET', `/api/tickets?${query}`);
  if (r.status !== 200) throw new Error(`${query}: ${r.status} ${JSON.stringify(r.body)}`);
  if (!query.includes('$take')) expect(r.body.totalCount).toBe(r.body.items.length);
  return r.body.items.map((t: any) => t.id);
}

describe('the data set', () => {
  it('is as the filters below assume', async () => {
    const all = (await hub.call('GET', '/api/tickets')).body.items;
    expect(all.map((t: any) => [t.id, t.state, t.originDeviceName, t.closeInfo?.deviceName ?? null, t.closeInfo?.number ?? null])).toEqual([
      ['t1', 'Opened', a.device, null, null],
      ['t2', 'Closed', a.device, b.device, 1],
      ['t3', 'Opened', b.device, null, null],
      ['t4', 'Closed', b.device, b.device, 2],
      ['t5', 'Closed', a.device, a.device, 3],
    ]);
    expect(all.find((t: any) => t.id === 't5').closeInfo).toMatchObject({ dailySalesReportNumber: 2, fiscalName: 'FP1', fiscalMemorySerialNumber: serial });
  });
});

// [filter, query that matches, expected ids, query that matches none of them or others]
const cases: Array<[string, string, string[], string, string[]]> = [
  ['IsClosed', 'IsClosed=true', ['t2', 't4', 't5'], 'IsClosed=false', ['t1', 't3']],
  ['HasCustomer', 'HasCustomer=true', ['t1'], 'HasCustomer=false', ['t2', 't3', 't4', 't5']],
  ['HasDiscount', 'HasDiscount=true', ['t1', 't5'], 'HasDiscount=false', ['t2', 't3', 't4']],
  ['HasNegativeItem', 'HasNegativeItem=true', ['t3', 't4'], 'HasNegativeItem=false', ['t1', 't2', 't5']],
  ['HasReturnedItem', 'HasReturnedItem=true', ['t3'], 'HasReturnedItem=false', ['t1', 't2', 't4', 't5']],
  ['Id', 'Id=t2', ['t2'], 'Id=t9', []],
  ['ExternalId', 'ExternalId=ext-1', ['t1'], 'ExternalId=ext-2', []],
  ['Name', 'Name=Window', ['t1'], 'Name=Door', []],
  ['PurchaseType', 'PurchaseType=TakeAway', ['t1'], 'PurchaseType=Delivery', []],
  ['OriginDeviceName', 'OriginDeviceName=REG_A', ['t1', 't2', 't5'], 'OriginDeviceName=NoSuchRegister', []],
  ['CurrencyLabel', 'CurrencyLabel=EUR', ['t1'], 'CurrencyLabel=CZK', []],
  ['DiscountRate', 'DiscountRate=10', ['t1'], 'DiscountRate=5', []],
  ['OpenDate', 'OpenDate=ge:2026-11-21T11:00:00Z;lt:2026-11-21T12:30:00Z', ['t2', 't3'], 'OpenDate=lt:2026-11-21T10:00:00Z', []],
  ['CloseDate', 'CloseDate=ge:2026-11-21T19:00:00Z', ['t5'], 'CloseDate=lt:2026-11-21T11:30:00Z', []],
  ['CloseInfoDeviceName', 'CloseInfoDeviceName=REG_B', ['t2', 't4'], 'CloseInfoDeviceName=NoSuchRegister', []],
  ['CloseInfoFiscalName', 'CloseInfoFiscalName=FP1', ['t2', 't4', 't5'], 'CloseInfoFiscalName=FP2', []],
  ['CloseInfoNumber', 'CloseInfoNumber=2', ['t4'], 'CloseInfoNumber=4', []],
  ['CloseInfoDailySalesReportNumber', 'CloseInfoDailySalesReportNumber=1', ['t2', 't4'], 'CloseInfoDailySalesReportNumber=3', []],
  ['CloseInfoFiscalMemorySerialNumber', 'CloseInfoFiscalMemorySerialNumber=SERIAL', ['t2', 't4', 't5'], 'CloseInfoFiscalMemorySerialNumber=OTHER', []],
  ['LocationTableName', 'LocationTableName=5', ['t1', 't3'], 'LocationTableName=9', []],
  ['LocationZoneName', 'LocationZoneName=Hall', ['t2', 't3'], 'LocationZoneName=Roof', []],
  ['CustomerCardSerialNumber', 'CustomerCardSerialNumber=CARD-1', ['t1'], 'CustomerCardSerialNumber=CARD-2', []],
  ['CustomerId', 'CustomerId=novak', ['t1'], 'CustomerId=svoboda', []],
  ['EmployeeUserName', 'EmployeeUserName=USER_B', ['t3', 't4'], 'EmployeeUserName=nobody', []],
  ['ItemPluCode', 'ItemPluCode=1', ['t1', 't4', 't5'], 'ItemPluCode=2', []],
  ['ItemPluStockName', 'ItemPluStockName=Drinks', ['t4', 't5'], 'ItemPluStockName=Cellar', []],
];

describe('GET /api/tickets filters', () => {
  for (const [name, hit, hitIds, miss, missIds] of cases) {
    it(`${name}: a match and a miss`, async () => {
      const q = hit.replace('SERIAL', serial).replace('REG_A', a.device).replace('REG_B', b.device).replace('USER_B', b.userName);
      expect(await ids(q)).toEqual(hitIds);
      expect(await ids(miss)).toEqual(missIds);
    });
  }

  it('DeviceName: originDeviceName while open, closeInfo.deviceName once closed; comma-separated values', async () => {
    // t2 was opened on A and closed from B: it is B's now.
    expect(await ids(`DeviceName=${a.device}`)).toEqual(['t1', 't5']);
    expect(await ids(`DeviceName=${b.device}`)).toEqual(['t2', 't3', 't4']);
    expect(await ids(`DeviceName=${a.device},${b.device}`)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(await ids(`DeviceName=NoSuchRegister,${a.device}`)).toEqual(['t1', 't5']);
    expect(await ids('DeviceName=NoSuchRegister')).toEqual([]);
    expect(await ids(`DeviceName=nin:${a.device}`)).toEqual(['t2', 't3', 't4']);
  });

  it('more operators a register uses', async () => {
    expect(await ids('ExternalId=null')).toEqual(['t2', 't3', 't4', 't5']);
    expect(await ids('CloseDate=null')).toEqual(['t1', 't3']);
    expect(await ids('CloseInfoNumber=ge:2')).toEqual(['t4', 't5']);
    expect(await ids('DiscountRate=gt:0')).toEqual(['t1']);
    expect(await ids('PurchaseType=walkin')).toEqual(['t2', 't3', 't4', 't5']);
    expect(await ids('ItemPluCode=1&ItemPluStockName=Drinks')).toEqual(['t4', 't5']);
    expect(await ids('ItemPluCode=ne:1')).toEqual(['t2', 't3']);
    expect(await ids('Name=contains:WIN')).toEqual(['t1']);
    expect(await ids(`IsClosed=false&LocationTableName=5&DeviceName=${a.device}`)).toEqual(['t1']);
  });

  it('refuses a value of the wrong type with 400 naming the filter', async () => {
    for (const q of ['IsClosed=maybe', 'CloseInfoNumber=two', 'OpenDate=yesterday', 'PurchaseType=Drone', 'DiscountRate=1.00001']) {
      const r = await hub.call('GET', `/api/tickets?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.errors[0].memberName).toBe(q.split('=')[0]);
    }
  });
});

describe('sorting by closeInfo.number', () => {
  it('sorts descending and ascending, missing values first', async () => {
    expect(await ids('IsClosed=true&$sort=closeInfo.number:desc')).toEqual(['t5', 't4', 't2']);
    expect(await ids('$sort=closeInfo.number')).toEqual(['t1', 't3', 't2', 't4', 't5']);
    expect(await ids('$sort=-CloseInfoNumber&$take=2')).toEqual(['t5', 't4']);
    expect(await ids('IsClosed=true&$sort=closeInfo.number:desc&$skip=1&$take=1')).toEqual(['t4']);
  });
});

describe('indexes', () => {
  /**
   * The plan of each SELECT a ticket list ran to find its page and count. The page's documents are
   * then read by rowid, which must stay a primary-key lookup.
   */
  async function plansOf(query: string): Promise<Array<{ sql: string; plan: string[] }>> {
    const plans = await plansOfRequest(hub, `/api/tickets?${query}`, 'tickets');
    const [byRowid, finding] = [plans.filter((p) => /WHERE rowid IN/.test(p.sql)), plans.filter((p) => !/WHERE rowid IN/.test(p.sql))];
    for (const { plan } of byRowid) expect(plan.join(' | ')).toMatch(/^SEARCH tickets USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    expect(finding.length).toBeGreaterThanOrEqual(2);
    return finding;
  }

  it('serves the open tickets of one table from an index', async () => {
    for (const { sql, plan } of await plansOf('IsClosed=false&LocationTableName=5')) {
      expect(plan.join(' | '), sql).toMatch(/SEARCH tickets USING (COVERING )?INDEX tickets_closed_table \(is_closed=\? AND table_name=\?\)/);
      expect(plan.join(' | ')).not.toMatch(/SCAN tickets\b/);
    }
  });

  it("serves one device's closed tickets of one day from an index", async () => {
    const day = 'CloseDate=ge:2026-11-21T00:00:00Z;lt:2026-11-22T00:00:00Z';
    for (const { sql, plan } of await plansOf(`IsClosed=true&DeviceName=${b.device}&${day}&$sort=closeInfo.number`)) {
      expect(plan.join(' | '), sql).toMatch(/SEARCH tickets USING (COVERING )?INDEX tickets_device_close \(device_name=\? AND close_date>\? AND close_date<\?\)/);
      expect(plan.join(' | ')).not.toMatch(/SCAN tickets\b/);
    }
    expect(await ids(`IsClosed=true&DeviceName=${b.device}&${day}`)).toEqual(['t2', 't4']);
  });

  // These indexes leave out open tickets (where the column is empty), so a ticket write skips
  // them; a filter on the column must still find its index.
  it.each([
    ['CloseDate=ge:2026-11-21T00:00:00Z;lt:2026-11-22T00:00:00Z', /INDEX tickets_close_date \(close_date>\? AND close_date<\?\)/, ['t2', 't4', 't5']],
    ['ExternalId=ext-1', /INDEX tickets_external_id \(external_id=\?\)/, ['t1']],
    ['CustomerCardSerialNumber=CARD-1', /INDEX tickets_customer_card \(customer_card_serial_number=\?\)/, ['t1']],
    ['CustomerId=novak', /INDEX tickets_customer \(customer_id=\?\)/, ['t1']],
    ['CloseInfoFiscalName=FP1', /INDEX tickets_close_number \(close_fiscal_name=\?\)/, null],
  ])('serves %s from a partial index', async (query, index, expected) => {
    for (const { sql, plan } of await plansOf(query)) {
      expect(plan.join(' | '), sql).toMatch(index);
      expect(plan.join(' | ')).not.toMatch(/SCAN tickets\b/);
    }
    if (expected) expect(await ids(query)).toEqual(expected);
  });
});
