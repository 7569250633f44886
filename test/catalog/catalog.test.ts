/**
 * A catalog a manager can use (issue 21): categories (filter, kitchen routing), cost price and the
 * margin the hub computes, EAN barcodes with their check digit and lookup, low-stock alerts, and
 * recipe parts that carry their plu's name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eanCheckDigitOk } from '../../hub/resources/engine/fields.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';

let hub: TestHub;

beforeAll(async () => {
  hub = await startHub();
  await restaurant(hub);
  await expect2xx(hub.call('POST', '/api/stocks', { name: 'Sklad' }));
  for (const name of ['Nápoje', 'Jedlá', 'Prázdna']) await expect2xx(hub.call('POST', '/api/categories', { name }));
});
afterAll(() => hub.close());

const plu = (body: Record<string, unknown>) => hub.call('POST', '/api/plus', { stockName: 'Menu', type: 'Service', unitPrice: { amount: 2 }, ...body });

describe('categories', () => {
  it('a plu names an existing category (else 400), and Category= filters by it', async () => {
    await expect2xx(plu({ code: 100, name: 'Kofola', category: 'Nápoje' }));
    await expect2xx(plu({ code: 101, name: 'Halušky', category: 'Jedlá' }));
    const bad = await plu({ code: 102, name: 'X', category: 'Nikde' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].memberName).toBe('category');
    const list = await expect2xx(hub.call('GET', '/api/plus?Category=N%C3%A1poje'));
    expect(list.items.map((p: any) => p.code)).toEqual([100]);
    expect((await expect2xx(hub.call('GET', '/api/plus?Category=null&$count=true'))).totalCount).toBeGreaterThan(0);
  });

  it('an order endpoint routes a category: a new plu in it is ordered there, once even when it also names it', async () => {
    await expect2xx(hub.call('PUT', '/api/orderendpoints/Bar', { name: 'Bar', type: 'Generic', address: 'tcp://127.0.0.1:9', categoryNames: ['Nápoje'] }));
    await expect2xx(plu({ code: 103, name: 'Malinovka', category: 'Nápoje' }));
    await expect2xx(plu({ code: 104, name: 'Pivo 10', category: 'Nápoje', orderEndpointNames: ['Bar', 'Kitchen'] }));
    const cashier = await register(hub);
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(103, 1), item(104, 2)] }, { token: cashier.token }));
    const orders = (await expect2xx(hub.call('GET', `/api/orders?ticketId=${t.id}&$sort=orderEndpointName`))).items;
    expect(orders.map((o: any) => [o.orderEndpointName, o.items.map((i: any) => [i.name, i.quantity])])).toEqual([
      ['Bar', [['Malinovka', 1], ['Pivo 10', 2]]],
      ['Kitchen', [['Pivo 10', 2]]],
    ]);
    const unknown = await hub.call('PUT', '/api/orderendpoints/Bar', { name: 'Bar', type: 'Generic', address: 'tcp://127.0.0.1:9', categoryNames: ['Nikde'] });
    expect([unknown.status, unknown.body.errors[0].memberName]).toEqual([400, 'categoryNames[0]']);
  });

  it('a category in use cannot be deleted (403, errorCode 8); an unused one can', async () => {
    const used = await hub.call('DELETE', `/api/categories/${encodeURIComponent('Jedlá')}`);
    expect([used.status, used.body.errorCode]).toEqual([403, 8]);
    const routed = await hub.call('DELETE', `/api/categories/${encodeURIComponent('Nápoje')}`);
    expect([routed.status, routed.body.errorCode]).toEqual([403, 8]);
    expect((await hub.call('DELETE', `/api/categories/${encodeURIComponent('Prázdna')}`)).status).toBe(200);
  });

  it('categories are written with the plu rights and read by everyone logged in', async () => {
    const reader = await hub.userWith([]);
    expect((await hub.call('GET', '/api/categories', undefined, { token: reader })).status).toBe(200);
    const denied = await hub.call('POST', '/api/categories', { name: 'Dezerty' }, { token: reader });
    expect([denied.status, denied.body.detail]).toEqual([403, expect.stringContaining('PluCreate')]);
  });
});

describe('cost price and margin', () => {
  it('margin = price without VAT − cost, and its rate; read-only, null without a cost', async () => {
    const p = await expect2xx(plu({ code: 110, name: 'Steak', unitPrice: { amount: 24 }, vatInfo: { category: 1, rate: 20 }, costPrice: { amount: 8.5 } }));
    // 24 / 1.2 = 20.00 net; 20 − 8.5 = 11.50; 11.5 / 20 = 57.5 %.
    expect(p.margin).toEqual({ amount: 11.5, rate: 57.5 });
    const again = await expect2xx(hub.call('PUT', `/api/plus/${p.id}`, { ...p, margin: { amount: 999, rate: 1 }, unitPrice: { amount: 10 } }));
    // 10 / 1.2 = 8.3333…; 8.3333 − 8.5 = −0.17; −0.1667 / 8.3333 = −2 %.
    expect(again.margin).toEqual({ amount: -0.17, rate: -2 });
    const none = await expect2xx(plu({ code: 111, name: 'Bez ceny' }));
    expect(none.margin).toBeNull();
    const free = await expect2xx(plu({ code: 112, name: 'Zadarmo', unitPrice: { amount: 0 }, costPrice: { amount: 1 } }));
    expect(free.margin).toEqual({ amount: -1, rate: null });
    expect((await plu({ code: 113, name: 'Záporná', costPrice: { amount: -1 } })).status).toBe(400);
  });
});

describe('barcodes', () => {
  it('checks the EAN check digit', () => {
    expect(eanCheckDigitOk('4006381333931')).toBe(true);
    expect(eanCheckDigitOk('96385074')).toBe(true);
    expect(eanCheckDigitOk('4006381333932')).toBe(false);
    expect(eanCheckDigitOk('96385075')).toBe(false);
    expect(eanCheckDigitOk('123456789012')).toBe(false);
    expect(eanCheckDigitOk('40063813339a1')).toBe(false);
  });

  it('a plu takes a valid EAN (else 400 naming barcode), unique in its stock, found by Barcode=', async () => {
    await expect2xx(plu({ code: 120, name: 'Minerálka', barcode: '4006381333931' }));
    const bad = await plu({ code: 121, name: 'Zlý kód', barcode: '4006381333932' });
    expect([bad.status, bad.body.errors[0].memberName]).toEqual([400, 'barcode']);
    const twice = await plu({ code: 122, name: 'Dvakrát', barcode: '4006381333931' });
    expect([twice.status, twice.body.errors[0].code]).toEqual([400, 'Unique']);
    await expect2xx(hub.call('POST', '/api/plus', { code: 120, stockName: 'Sklad', name: 'Minerálka (sklad)', type: 'StockItem', barcode: '4006381333931' }));
    const found = await expect2xx(hub.call('GET', '/api/plus?Barcode=4006381333931&$sort=stockName'));
    expect(found.items.map((p: any) => [p.stockName, p.name])).toEqual([
      ['Menu', 'Minerálka'],
      ['Sklad', 'Minerálka (sklad)'],
    ]);
  });
});

describe('low stock', () => {
  it('IsBelowMinimum=true lists the StockItems under their minimum quantity, following stock movements', async () => {
    const flour = await expect2xx(hub.call('POST', '/api/plus', { code: 1, stockName: 'Sklad', name: 'Múka', type: 'StockItem', minimumQuantity: 5 }));
    await expect2xx(hub.call('POST', '/api/plus', { code: 2, stockName: 'Sklad', name: 'Cukor', type: 'StockItem', minimumQuantity: 1 }));
    await expect2xx(hub.call('POST', '/api/plus', { code: 3, stockName: 'Sklad', name: 'Soľ', type: 'StockItem' }));
    const low = async () => (await expect2xx(hub.call('GET', '/api/plus?StockName=Sklad&IsBelowMinimum=true&$sort=code'))).items.map((p: any) => p.name);
    expect(await low()).toEqual(['Múka', 'Cukor']);
    await expect2xx(hub.call('POST', '/api/stocktransfers', { type: 'Income', targetStockName: 'Sklad', items: [{ plu: { code: 1, stockName: 'Sklad' }, quantity: 5 }, { plu: { code: 2, stockName: 'Sklad' }, quantity: 0.5 }] }));
    expect(await low()).toEqual(['Cukor']);
    expect((await expect2xx(hub.call('GET', `/api/plus/${flour.id}`))).stockQuantity).toBe(5);
    const service = await plu({ code: 130, name: 'Služba', minimumQuantity: 1 });
    expect([service.status, service.body.errors[0].memberName]).toEqual([400, 'minimumQuantity']);
  });
});

describe('recipes read as words', () => {
  it('each part carries its plu name', async () => {
    const r = await expect2xx(plu({ code: 140, name: 'Palacinka', type: 'Recipe', receipt: [{ pluId: { code: 1, stockName: 'Sklad', name: 'ignored' }, quantity: 0.1 }] }));
    expect(r.receipt).toEqual([{ pluId: { code: 1, stockName: 'Sklad', name: 'Múka' }, quantity: 0.1 }]);
  });
});

describe('modifiers of a plu (issue 29)', () => {
  it('a plu lists the modifiers a register offers with it: existing ones, each once (else 400 naming the entry)', async () => {
    await expect2xx(hub.call('POST', '/api/modifiers', { id: 'side', name: 'Príloha', minimumSelectedOptionsCount: 1, maximumSelectedOptionsCount: 1, options: [{ id: 'fries', name: 'Hranolky' }] }));
    await expect2xx(hub.call('POST', '/api/modifiers', { id: 'extra', name: 'Navyše', maximumSelectedOptionsCount: 2, options: [{ id: 'bacon', name: 'Slanina' }] }));
    const made = await expect2xx(plu({ code: 130, name: 'Rezeň', modifierIds: ['side', 'extra'] }));
    expect(made.modifierIds).toEqual(['side', 'extra']);
    expect((await expect2xx(plu({ code: 131, name: 'Čaj' }))).modifierIds).toEqual([]);
    const unknown = await plu({ code: 132, name: 'X', modifierIds: ['side', 'nowhere'] });
    expect([unknown.status, unknown.body.errors[0].memberName]).toEqual([400, 'modifierIds[1]']);
    const twice = await plu({ code: 133, name: 'Y', modifierIds: ['side', 'side'] });
    expect([twice.status, twice.body.errors[0].memberName]).toEqual([400, 'modifierIds[1]']);
  });
});
