/** PATCH /api/tickets?action=Handover|Takeover|Relocate|Split (CONTRACT §6, §11; Split: issue 29): rights, all or nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from './fixture.js';

let hub: TestHub;
type Cashier = Awaited<ReturnType<typeof register>>;
let anna: Cashier; // every ticket right
let ben: Cashier; // a waiter: own tickets only
let eva: Cashier; // a waiter who may hand over her own tickets

beforeAll(async () => {
  hub = await startHub();
  await restaurant(hub);
  anna = await register(hub);
  ben = await register(hub, ['TicketCreate', 'TicketUpdate']);
  eva = await register(hub, ['TicketCreate', 'TicketUpdate', 'TicketHandover']);
});
afterAll(() => hub.close());

const open = (c: Cashier, table = '1') =>
  expect2xx(hub.call('POST', '/api/tickets', { location: { tableName: table, zoneName: 'Hall' }, items: [item(1, 1)] }, { token: c.token }));
const patch = (c: Cashier, action: string, body: unknown) => hub.call('PATCH', `/api/tickets?action=${action}`, body, { token: c.token });
const stored = async (id: string) => (await hub.call('GET', `/api/tickets/${id}`)).body;

describe('Handover', () => {
  it('hands own tickets to another user and returns the affected tickets', async () => {
    const t1 = await open(eva);
    const t2 = await open(eva);
    const r = await patch(eva, 'Handover', { ids: [t2.id, t1.id], userName: ben.userName });
    expect(r.status).toBe(200);
    expect(r.body.map((t: any) => [t.id, t.employee.userName, t._v])).toEqual([
      [t2.id, ben.userName, 2],
      [t1.id, ben.userName, 2],
    ]);
    expect((await stored(t1.id)).employee).toEqual({ userName: ben.userName, name: expect.stringMatching(/^Cashier/) });
    // Ben may now work on it as his own.
    const t = await stored(t1.id);
    expect((await hub.call('PUT', `/api/tickets/${t.id}`, { ...t, items: [...t.items, item(3, 1)] }, { token: ben.token })).status).toBe(200);
  });

  it('matches the user name case-insensitively and refuses an unknown user with 400', async () => {
    const t = await open(anna);
    const r = await patch(anna, 'handover', { ids: [t.id], userName: eva.userName.toUpperCase() });
    expect(r.status).toBe(200);
    expect(r.body[0].employee.userName).toBe(eva.userName);
    const unknown = await patch(anna, 'Handover', { ids: [t.id], userName: 'nobody' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].memberName).toBe('userName');
  });

  it('matches a name beyond ASCII in any letter case, as the login does (Šimon is šimon)', async () => {
    await expect2xx(hub.call('POST', '/api/users', { userName: 'Šimon', name: 'Šimon Čierny', password: 'pw-simon', rights: ['TicketCreate', 'TicketUpdate'] }));
    const t = await open(anna);
    const r = await patch(anna, 'Handover', { ids: [t.id], userName: 'šIMON' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body[0].employee).toEqual({ userName: 'Šimon', name: 'Šimon Čierny' });
  });

  it('needs TicketHandover, and TicketUpdateAny for another\'s ticket', async () => {
    const bens = await open(ben);
    const r = await patch(ben, 'Handover', { ids: [bens.id], userName: eva.userName });
    expect(r.status).toBe(403);
    expect(r.body.errorCode).toBe(2);
    expect(r.body.detail).toContain('TicketHandover');
    // Without the right, the answer does not tell whether a user exists (least privilege): 403 first, not 400 naming userName.
    const nobody = await patch(ben, 'Handover', { ids: [bens.id], userName: 'nobody' });
    expect([nobody.status, nobody.body.errorCode]).toEqual([403, 2]);
    expect(nobody.body.detail).toContain('TicketHandover');
    const others = await patch(eva, 'Handover', { ids: [bens.id], userName: eva.userName });
    expect(others.status).toBe(403);
    expect(others.body.detail).toContain('TicketUpdateAny');
    const byAnna = await patch(anna, 'Handover', { ids: [bens.id], userName: eva.userName });
    expect(byAnna.status).toBe(200);
  });
});

describe('Takeover', () => {
  it('takes tickets over with TicketTakeover and TicketUpdateAny', async () => {
    const t1 = await open(ben);
    const t2 = await open(eva);
    const r = await patch(anna, 'Takeover', { ids: [t1.id, t2.id] });
    expect(r.status).toBe(200);
    expect(r.body.map((t: any) => t.employee.userName)).toEqual([anna.userName, anna.userName]);
    expect((await stored(t2.id)).employee.userName).toBe(anna.userName);
  });

  it('refuses without TicketTakeover or without TicketUpdateAny', async () => {
    const t = await open(anna);
    const takerOnly = await register(hub, ['TicketTakeover']);
    const anyOnly = await register(hub, ['TicketUpdateAny']);
    for (const c of [takerOnly, anyOnly, ben]) {
      const r = await patch(c, 'Takeover', { ids: [t.id] });
      expect(r.status).toBe(403);
      expect(r.body.errorCode).toBe(2);
    }
    expect((await stored(t.id))._v).toBe(1);
  });
});

describe('Relocate', () => {
  it('moves own tickets with TicketUpdate', async () => {
    const t = await open(ben, '1');
    const r = await patch(ben, 'Relocate', { ids: [t.id], location: { tableName: '12', zoneName: 'Terrace' } });
    expect(r.status).toBe(200);
    expect(r.body[0].location).toEqual({ tableName: '12', zoneName: 'Terrace' });
    const list = await hub.call('GET', '/api/tickets?IsClosed=false&LocationTableName=12');
    expect(list.body.items.map((x: any) => x.id)).toEqual([t.id]);
  });

  it("needs TicketUpdateAny for another's ticket", async () => {
    const t = await open(eva);
    const r = await patch(ben, 'Relocate', { ids: [t.id], location: { tableName: '3' } });
    expect(r.status).toBe(403);
    expect(r.body.detail).toContain('TicketUpdateAny');
    expect((await patch(anna, 'Relocate', { ids: [t.id], location: { tableName: '3' } })).status).toBe(200);
  });

  it('refuses a body without location', async () => {
    const t = await open(ben);
    const r = await patch(ben, 'Relocate', { ids: [t.id] });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].memberName).toBe('location');
  });
});

describe('Split (issue 29)', () => {
  const orders = async (id: string) =>
    (await hub.call('GET', `/api/orders?ticketId=${id}&$sort=createdAt`)).body.items.map((o: any) => [o.kind, o.items.map((i: any) => `${i.quantity}× ${i.name}`).join(', ')]);
  const voids = () => (hub.db.$client.prepare("SELECT total(void_quantity) AS n FROM sales_totals WHERE dimension = 'total'").get() as { n: number }).n;

  it('moves items by quantity to a new ticket under the register\'s id: totals exact, no kitchen order, no void, no Storno', async () => {
    // Ben holds neither Storno nor TicketSetDiscount: moving items is neither.
    const t = await expect2xx(
      hub.call('POST', '/api/tickets', { name: 'Stôl 4', location: { tableName: '4', zoneName: 'Hall' }, items: [item(1, 2), item(3, 3, { comment: 'cold' }), item(2, 1)] }, { token: ben.token }),
    );
    expect(t.totalPrice.amount).toBe(24.9);
    const before = await orders(t.id);
    const r = await patch(ben, 'Split', { ids: [t.id], items: [{ id: 1, quantity: 1 }, { id: 2, quantity: 3 }], target: { id: 'reg1-split-0001', name: 'Stôl 4 / 2', location: { tableName: '4', zoneName: 'Hall' } } });
    expect(r.status).toBe(200);
    const [source, target] = r.body;
    expect(source.items.map((i: any) => [i.id, i.plu.code, i.quantity])).toEqual([
      [1, 1, 1],
      [3, 2, 1],
    ]);
    expect(target).toMatchObject({ id: 'reg1-split-0001', name: 'Stôl 4 / 2', location: { tableName: '4' }, employee: { userName: ben.userName }, state: 'Opened' });
    expect(target.items.map((i: any) => [i.id, i.plu.code, i.quantity, i.comment])).toEqual([
      [1, 1, 1, null],
      [2, 3, 3, 'cold'],
    ]);
    expect([source.totalPrice.amount, target.totalPrice.amount]).toEqual([11.4, 13.5]);
    expect(source.totalPrice.amount + target.totalPrice.amount).toBeCloseTo(t.totalPrice.amount, 10);
    // The kitchen cooks nothing again and cancels nothing.
    expect(await orders(t.id)).toEqual(before);
    expect(await orders(target.id)).toEqual([]);
    expect((await stored(t.id))._v).toBe(2);
  });

  it('joins tables: everything onto an open ticket deletes the emptied source; voids and orders untouched', async () => {
    const a = await open(anna, '7');
    const b = await open(anna, '8');
    const voidsBefore = voids();
    const r = await patch(anna, 'Split', { ids: [a.id], items: [{ id: 1, quantity: 1 }], target: { id: b.id } });
    expect(r.status).toBe(200);
    expect(r.body.map((x: any) => [x.id, x.items.length, x.totalPrice.amount])).toEqual([[b.id, 2, 13.8]]);
    expect((await hub.call('GET', `/api/tickets/${a.id}`)).status).toBe(404);
    expect(voids()).toBe(voidsBefore);
  });

  it('moved items order nothing: a new ticket keeps the time they were ordered, a joined table the later of its own and theirs (lastOrderDate)', async () => {
    const orderedAt = hub.clock.now().toISOString();
    const a = await open(anna, '11');
    hub.clock.advance(10 * 60_000);
    const b = await open(anna, '12');
    hub.clock.advance(5 * 60_000);
    const [, part] = (await patch(anna, 'Split', { ids: [a.id], items: [{ id: 1, quantity: 0.5 }], target: { id: 'reg1-split-time-1', location: { tableName: '11' } } })).body;
    expect(part.lastOrderDate).toBe(orderedAt);
    expect((await stored(a.id)).lastOrderDate).toBe(orderedAt);
    // Table 12 joins table 11: its items were ordered 10 minutes after table 11's.
    const [joined] = (await patch(anna, 'Split', { ids: [b.id], items: [{ id: 1, quantity: 1 }], target: { id: a.id } })).body;
    expect(joined.lastOrderDate).toBe(b.lastOrderDate);
    expect(joined.lastOrderDate > orderedAt).toBe(true);
    // A ticket stored before lastOrderDate existed: its items were ordered when it was opened.
    const old = await open(anna, '13');
    hub.db.$client.prepare(`UPDATE tickets SET doc = json_remove(doc, '$.lastOrderDate') WHERE id = ?`).run(old.id);
    hub.clock.advance(60_000);
    // (All of it moves: the emptied source is gone, the answer is the new ticket alone.)
    const [fromOld] = (await patch(anna, 'Split', { ids: [old.id], items: [{ id: 1, quantity: 1 }], target: { id: 'reg1-split-time-2' } })).body;
    expect([fromOld.id, fromOld.lastOrderDate]).toEqual(['reg1-split-time-2', old.openDate]);
  });

  it("needs TicketUpdateAny for another's ticket and TicketCreate for a new one; refuses more than an item holds, all or nothing", async () => {
    const evas = await open(eva);
    const others = await patch(ben, 'Split', { ids: [evas.id], items: [{ id: 1, quantity: 1 }], target: { id: 'reg1-split-0002' } });
    expect([others.status, others.body.errorCode]).toEqual([403, 2]);
    expect(others.body.detail).toContain('TicketUpdateAny');
    const cannotCreate = await register(hub, ['TicketUpdate', 'TicketUpdateAny']);
    const noCreate = await patch(cannotCreate, 'Split', { ids: [evas.id], items: [{ id: 1, quantity: 1 }], target: { id: 'reg1-split-0003' } });
    expect(noCreate.status).toBe(403);
    expect(noCreate.body.detail).toContain('TicketCreate');
    const tooMuch = await patch(anna, 'Split', { ids: [evas.id], items: [{ id: 1, quantity: 2 }], target: { id: 'reg1-split-0004' } });
    expect([tooMuch.status, tooMuch.body.errors[0].memberName]).toEqual([400, 'items[0].quantity']);
    const noItem = await patch(anna, 'Split', { ids: [evas.id], items: [{ id: 9, quantity: 1 }], target: { id: 'reg1-split-0004' } });
    expect([noItem.status, noItem.body.errors[0].memberName]).toEqual([400, 'items[0].id']);
    const itself = await patch(anna, 'Split', { ids: [evas.id], items: [{ id: 1, quantity: 1 }], target: { id: evas.id } });
    expect([itself.status, itself.body.errors[0].memberName]).toEqual([400, 'target.id']);
    expect(await stored(evas.id)).toMatchObject({ _v: 1, items: [{ id: 1, quantity: 1 }] });
    expect((await hub.call('GET', '/api/tickets/reg1-split-0004')).status).toBe(404);
  });
});

describe('all or nothing', () => {
  it('one unknown id: 400 naming it, nothing changed', async () => {
    const t = await open(anna);
    const r = await patch(anna, 'Relocate', { ids: [t.id, 'no-such-ticket'], location: { tableName: '9' } });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].memberName).toBe('ids[1]');
    expect(await stored(t.id)).toMatchObject({ _v: 1, location: { tableName: '1' } });
  });

  it('one closed ticket: 403 errorCode 8, nothing changed', async () => {
    const t = await open(anna);
    const closed = await open(anna);
    await expect2xx(hub.call('POST', `/api/tickets/${closed.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 6.9 }] }, { token: anna.token }));
    for (const [action, body] of [
      ['Relocate', { location: { tableName: '9' } }],
      ['Takeover', {}],
      ['Handover', { userName: ben.userName }],
    ] as const) {
      const r = await patch(anna, action, { ids: [t.id, closed.id], ...body });
      expect(r.status, action).toBe(403);
      expect(r.body.errorCode).toBe(8);
    }
    expect(await stored(t.id)).toMatchObject({ _v: 1, location: { tableName: '1' }, employee: { userName: anna.userName } });
  });

  it('one ticket the caller may not change: 403, the others unchanged', async () => {
    const mine = await open(ben);
    const hers = await open(eva);
    const r = await patch(ben, 'Relocate', { ids: [mine.id, hers.id], location: { tableName: '9' } });
    expect(r.status).toBe(403);
    expect(await stored(mine.id)).toMatchObject({ _v: 1, location: { tableName: '1' } });
  });

  it('refuses an empty or repeated id list', async () => {
    const t = await open(anna);
    expect((await patch(anna, 'Takeover', { ids: [] })).status).toBe(400);
    const twice = await patch(anna, 'Takeover', { ids: [t.id, t.id] });
    expect(twice.status).toBe(400);
    expect(twice.body.errors[0]).toMatchObject({ memberName: 'ids', code: 'Unique' });
  });
});

describe('actions', () => {
  it('an unknown or missing action is 400 naming action', async () => {
    const t = await open(anna);
    for (const path of ['/api/tickets?action=Close', '/api/tickets?action=', '/api/tickets']) {
      const r = await hub.call('PATCH', path, { ids: [t.id] }, { token: anna.token });
      expect(r.status, path).toBe(400);
      expect(r.body.errorCode).toBe(3);
      expect(r.body.errors[0].memberName).toBe('action');
    }
  });

  it('needs the Sale environment', async () => {
    const t = await open(anna);
    const r = await hub.call('PATCH', '/api/tickets?action=Relocate', { ids: [t.id], location: { tableName: '2' } });
    expect(r.status).toBe(403);
    expect(r.body.errorCode).toBe(2);
  });
});
