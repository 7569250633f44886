/**
 * A catalog a manager can use (issue 21): categories (filter, kitchen routing), cost price and the
 * margin the hub computes, EAN barcodes with their check digit and lookup, low-stock alerts, and
 * recipe parts that carry their plu's name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eanCheckDigitOk } from '../../hub/engine/fields.js';
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

describe('categories for a register\'s menu grid (issue 28)', () => {
  const cat = (name: string) => `/api/categories/${encodeURIComponent(name)}`;

  it('carry a colour (#rrggbb, answered in lower case) and an order (an integer); anything else is a 400 naming the field', async () => {
    const made = await expect2xx(hub.call('POST', '/api/categories', { name: 'Dezerty', color: '#FFAA00', order: 3 }));
    expect(made).toMatchObject({ name: 'Dezerty', color: '#ffaa00', order: 3, _v: 1 });
    expect(await expect2xx(hub.call('POST', '/api/categories', { name: 'Polievky' }))).toMatchObject({ color: null, order: 0 });
    for (const [field, value] of [
      ['color', 'red'],
      ['color', '#ffaa0'],
      ['color', '#ggaa00'],
      ['color', 12],
      ['order', 1.5],
      ['order', -1],
      ['order', '2'],
    ] as const) {
      const bad = await hub.call('POST', '/api/categories', { name: `Zlá ${field} ${String(value)}`, [field]: value });
      expect([bad.status, bad.body.errors?.[0]?.memberName], `${field}=${String(value)}`).toEqual([400, field]);
    }
    // The grid's order: ascending, ties by name.
    await expect2xx(hub.call('PUT', cat('Polievky'), { name: 'Polievky', order: 3, color: '#00aa55' }));
    const list = (await expect2xx(hub.call('GET', '/api/categories?$sort=order,name&name=in:Dezerty,Polievky,Jedlá'))).items;
    expect(list.map((c: any) => [c.name, c.order, c.color])).toEqual([
      ['Jedlá', 0, null],
      ['Dezerty', 3, '#ffaa00'],
      ['Polievky', 3, '#00aa55'],
    ]);
  });

  it('a rename moves its plus and routings in one transaction, through the change log with _v following on', async () => {
    await expect2xx(hub.call('POST', '/api/categories', { name: 'Pivo', color: '#d4a017', order: 5 }));
    const a = await expect2xx(plu({ code: 150, name: 'Šariš 10', category: 'Pivo' }));
    const b = await expect2xx(plu({ code: 151, name: 'Smädný mních', category: 'Pivo' }));
    const other = await expect2xx(plu({ code: 152, name: 'Vínko', category: 'Nápoje' }));
    await expect2xx(hub.call('PUT', '/api/orderendpoints/Tap', { name: 'Tap', type: 'Generic', address: 'tcp://127.0.0.1:9', categoryNames: ['Pivo', 'Nápoje'] }));
    const since = (await expect2xx(hub.call('GET', '/api/changes?since=0&$take=1000'))).lastSeq as number;
    const stored = await expect2xx(hub.call('GET', cat('Pivo')));

    const renamed = await expect2xx(hub.call('POST', `${cat('Pivo')}/rename`, { name: 'Pivá', _v: stored._v }));
    expect(renamed).toMatchObject({ name: 'Pivá', color: '#d4a017', order: 5, _v: stored._v + 1 });
    expect((await hub.call('GET', cat('Pivo'))).status).toBe(404);
    for (const p of [a, b]) expect(await expect2xx(hub.call('GET', `/api/plus/${p.id}`))).toMatchObject({ category: 'Pivá', _v: p._v + 1 });
    expect(await expect2xx(hub.call('GET', `/api/plus/${other.id}`))).toMatchObject({ category: 'Nápoje', _v: other._v });
    expect((await expect2xx(hub.call('GET', '/api/orderendpoints/Tap'))).categoryNames).toEqual(['Pivá', 'Nápoje']);
    expect((await expect2xx(hub.call('GET', `/api/plus?Category=${encodeURIComponent('Pivá')}&$sort=code`))).items.map((p: any) => p.code)).toEqual([150, 151]);

    const log = (await expect2xx(hub.call('GET', `/api/changes?since=${since}`))).items.map((c: any) => [c.resource, c.key, c.op, c._v]);
    expect(log).toEqual(
      expect.arrayContaining([
        ['categories', 'Pivá', 'upsert', stored._v + 1],
        ['plus', a.id, 'upsert', a._v + 1],
        ['plus', b.id, 'upsert', b._v + 1],
        ['orderendpoints', 'Tap', 'upsert', expect.any(Number)],
        ['categories', 'Pivo', 'delete', stored._v + 1],
      ]),
    );
    expect(log).toHaveLength(5);

    // A new ticket still routes the renamed category.
    const cashier = await register(hub);
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(150, 1)] }, { token: cashier.token }));
    const orders = (await expect2xx(hub.call('GET', `/api/orders?ticketId=${t.id}`))).items;
    expect(orders.map((o: any) => o.orderEndpointName)).toEqual(['Tap']);
  });

  it('a rename refuses a taken name, a stale _v, an unknown category and a caller without the rights, changing nothing', async () => {
    await expect2xx(hub.call('POST', '/api/categories', { name: 'Víno' }));
    const p = await expect2xx(plu({ code: 160, name: 'Frankovka', category: 'Víno' }));
    const taken = await hub.call('POST', `${cat('Víno')}/rename`, { name: 'Nápoje' });
    expect([taken.status, taken.body.errors[0].memberName, taken.body.errors[0].code]).toEqual([400, 'name', 'Unique']);
    const stale = await hub.call('POST', `${cat('Víno')}/rename`, { name: 'Vína', _v: 99 });
    expect([stale.status, stale.body.errorCode]).toEqual([409, 6]);
    expect((await hub.call('POST', `${cat('Nikde')}/rename`, { name: 'Tu' })).status).toBe(404);
    const badName = await hub.call('POST', `${cat('Víno')}/rename`, { name: 'a/b' });
    expect([badName.status, badName.body.errors[0].memberName]).toEqual([400, 'name']);
    const plusOnly = await hub.userWith(['PluUpdate']);
    // Routed to an order endpoint: the rename changes it too, which needs OrderEndpointUpdate.
    const denied = await hub.call('POST', `${cat('Nápoje')}/rename`, { name: 'Nealko' }, { token: plusOnly });
    expect([denied.status, denied.body.detail]).toEqual([403, expect.stringContaining('OrderEndpointUpdate')]);
    const none = await hub.call('POST', `${cat('Víno')}/rename`, { name: 'Vína' }, { token: await hub.userWith([]) });
    expect([none.status, none.body.detail]).toEqual([403, expect.stringContaining('PluUpdate')]);
    expect(await expect2xx(hub.call('GET', `/api/plus/${p.id}`))).toMatchObject({ category: 'Víno', _v: p._v });
    expect((await expect2xx(hub.call('GET', cat('Nápoje')))).name).toBe('Nápoje');
    // Not routed: PluUpdate alone renames it.
    expect((await expect2xx(hub.call('POST', `${cat('Víno')}/rename`, { name: 'Vína' }, { token: plusOnly }))).name).toBe('Vína');
  });
});

describe('a display that mirrors a printer (issue 28)', () => {
  it('gets every order the printer gets, by plu and by category, as the menu changes; not itself, not an unknown one', async () => {
    await expect2xx(hub.call('POST', '/api/categories', { name: 'Pizza' }));
    await expect2xx(hub.call('PUT', '/api/orderendpoints/Pec', { name: 'Pec', type: 'Generic', address: 'tcp://127.0.0.1:9', categoryNames: ['Pizza'] }));
    await expect2xx(hub.call('PUT', '/api/orderendpoints/Obrazovka', { name: 'Obrazovka', type: 'Tablet', mirrorOf: 'Pec' }));
    await expect2xx(plu({ code: 170, name: 'Margherita', category: 'Pizza' }));
    await expect2xx(plu({ code: 171, name: 'Cesnakový chlieb', orderEndpointNames: ['Pec'] }));
    await expect2xx(plu({ code: 172, name: 'Tiramisu', orderEndpointNames: ['Kitchen'] }));
    const cashier = await register(hub);
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(170, 1), item(171, 2), item(172, 1)] }, { token: cashier.token }));
    const orders = (await expect2xx(hub.call('GET', `/api/orders?ticketId=${t.id}&$sort=orderEndpointName`))).items;
    expect(orders.map((o: any) => [o.orderEndpointName, o.items.map((i: any) => i.name), o.print.state])).toEqual([
      ['Kitchen', ['Tiramisu'], 'Queued'],
      ['Obrazovka', ['Margherita', 'Cesnakový chlieb'], 'NotPrinted'],
      ['Pec', ['Margherita', 'Cesnakový chlieb'], 'Queued'],
    ]);
    const self = await hub.call('PUT', '/api/orderendpoints/Obrazovka', { name: 'Obrazovka', type: 'Tablet', mirrorOf: 'Obrazovka' });
    expect([self.status, self.body.errors[0].memberName]).toEqual([400, 'mirrorOf']);
    const unknown = await hub.call('PUT', '/api/orderendpoints/Obrazovka', { name: 'Obrazovka', type: 'Tablet', mirrorOf: 'Nikde' });
    expect([unknown.status, unknown.body.errors[0].memberName]).toEqual([400, 'mirrorOf']);
  });
});

describe('an order endpoint in use', () => {
  it('cannot be deleted while a plu routes to it or another endpoint mirrors it (403, errorCode 8); unused, it can', async () => {
    await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Gril', type: 'Generic', address: 'tcp://127.0.0.1:9' }));
    await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Gril displej', type: 'Tablet', mirrorOf: 'Gril' }));
    const steak = await expect2xx(plu({ code: 180, name: 'Steak', orderEndpointNames: ['Gril'] }));
    const routed = await hub.call('DELETE', '/api/orderendpoints/Gril');
    expect([routed.status, routed.body.errorCode]).toEqual([403, 8]);
    expect(routed.body.detail).toContain("'Gril'");
    // The plu still orders there and can be saved as it is.
    expect((await hub.call('PUT', `/api/plus/${steak.id}`, steak)).status).toBe(200);
    await expect2xx(hub.call('PUT', `/api/plus/${steak.id}`, { ...steak, _v: undefined, orderEndpointNames: [] }));
    const mirrored = await hub.call('DELETE', '/api/orderendpoints/Gril');
    expect([mirrored.status, mirrored.body.errorCode]).toEqual([403, 8]);
    expect(mirrored.body.detail).toContain('Gril displej');
    await expect2xx(hub.call('DELETE', `/api/orderendpoints/${encodeURIComponent('Gril displej')}`));
    expect((await hub.call('DELETE', '/api/orderendpoints/Gril')).status).toBe(200);
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

describe('prices answer the seed\'s model', () => {
  it('a modifier option\'s and a plu\'s unitPrice always carry currencyLabel (null when none was given), also when stored before', async () => {
    const made = await expect2xx(hub.call('POST', '/api/modifiers', { id: 'sauce', name: 'Omáčka', options: [{ id: 'ketchup', name: 'Kečup', unitPrice: { amount: 0.5 } }, { id: 'none', name: 'Bez' }] }));
    expect(made.options.map((o: { unitPrice: unknown }) => o.unitPrice)).toEqual([{ amount: 0.5, currencyLabel: null }, null]);
    const p = await expect2xx(plu({ code: 190, name: 'Polievka' }));
    expect(p.unitPrice).toEqual({ amount: 2, currencyLabel: null });
    expect((await expect2xx(plu({ code: 191, name: 'Voda', unitPrice: undefined }))).unitPrice).toEqual({ amount: 0, currencyLabel: null });
    // A document stored before currencyLabel was kept lacks it: the answer still carries it.
    hub.db.$client.prepare("UPDATE modifiers SET doc = json_remove(doc, '$.options[0].unitPrice.currencyLabel') WHERE id = 'sauce'").run();
    hub.db.$client.prepare("UPDATE plus SET doc = json_remove(doc, '$.unitPrice.currencyLabel') WHERE id = ?").run(p.id);
    expect((await expect2xx(hub.call('GET', '/api/modifiers/sauce'))).options[0].unitPrice).toEqual({ amount: 0.5, currencyLabel: null });
    expect((await expect2xx(hub.call('GET', `/api/plus/${p.id}`))).unitPrice).toEqual({ amount: 2, currencyLabel: null });
    const listed = await expect2xx(hub.call('GET', '/api/modifiers?id=sauce'));
    expect(listed.items[0].options[0].unitPrice).toEqual({ amount: 0.5, currencyLabel: null });
  });
});
