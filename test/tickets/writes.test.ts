/** Ticket writes and their rights (CONTRACT §3, §5, §6, §11): Sale environment, PORTOS rights, versions. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from './fixture.js';

let hub: TestHub;
type Cashier = Awaited<ReturnType<typeof register>>;
let owner: Cashier;
let full: Cashier;

beforeAll(async () => {
  hub = await startHub();
  await restaurant(hub);
  owner = await register(hub, ['TicketCreate', 'TicketUpdate']);
  full = await register(hub);
  await expect2xx(
    hub.call('POST', '/api/customers', { id: 'novak', firstName: 'Ján', lastName: 'Novák', discountRate: 5, cards: [{ serialNumber: 'CARD-1' }] }),
  );
  await expect2xx(hub.call('POST', '/api/customers', { id: 'horak', firstName: 'Eva', lastName: 'Horáková', discountRate: 0 }));
});
afterAll(() => hub.close());

const as = (c: Cashier | string) => ({ token: typeof c === 'string' ? c : c.token });
const create = (c: Cashier, body: Record<string, unknown> = {}) => expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 1)], ...body }, as(c)));
const put = (c: Cashier, t: any, changes: Record<string, unknown>) => hub.call('PUT', `/api/tickets/${t.id}`, { ...t, ...changes }, as(c));
function forbidden(r: { status: number; body: any }, code: number, right?: string): void {
  expect(r.status, JSON.stringify(r.body)).toBe(403);
  expect(r.body.errorCode).toBe(code);
  if (right) expect(r.body.detail).toContain(right);
}

describe('Sale environment', () => {
  it('refuses every ticket write from a BackOffice login with 403 errorCode 2, and allows reading', async () => {
    const t = await create(full);
    // The admin holds every right, but BackOffice is not a sale device.
    const admin = { token: hub.adminToken };
    forbidden(await hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, admin), 2);
    forbidden(await hub.call('PUT', `/api/tickets/${t.id}`, t, admin), 2);
    forbidden(await hub.call('PUT', '/api/tickets/from-backoffice', { items: [] }, admin), 2);
    forbidden(await hub.call('PATCH', '/api/tickets?action=Takeover', { ids: [t.id] }, admin), 2);
    forbidden(await hub.call('DELETE', `/api/tickets/${t.id}`, undefined, admin), 2);
    forbidden(await hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 10 }] }, admin), 2);
    forbidden(await hub.call('POST', `/api/tickets/${t.id}/print_preliminary_ticket`, {}, admin), 2);
    expect((await hub.call('GET', `/api/tickets/${t.id}`, undefined, admin)).status).toBe(200);
    expect((await hub.call('GET', '/api/tickets', undefined, admin)).status).toBe(200);
    expect((await hub.call('GET', '/api/tickets/from-backoffice', undefined, admin)).status).toBe(404);
  });

  it('allows a PDA (also a sale device)', async () => {
    await expect2xx(hub.call('POST', '/api/devices', { name: 'Pda1', envName: 'PDA' }));
    const token = await hub.userWith(['TicketCreate'], 'Pda1');
    const r = await hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, { token });
    expect(r.status).toBe(201);
    expect(r.body.originDeviceName).toBe('Pda1');
  });
});

describe('TicketCreate', () => {
  it('POST and PUT with a new id create (201 with Location) with TicketCreate', async () => {
    const post = await hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, as(owner));
    expect(post.status).toBe(201);
    expect(post.headers.get('location')).toBe(`/api/tickets/${post.body.id}`);
    const offline = await hub.call('PUT', '/api/tickets/reg1-0001', { name: 'Made offline', items: [item(3, 2)] }, as(owner));
    expect(offline.status).toBe(201);
    expect(offline.headers.get('location')).toBe('/api/tickets/reg1-0001');
    expect(offline.body).toMatchObject({ id: 'reg1-0001', state: 'Opened', _v: 1, employee: { userName: owner.userName } });
    const again = await hub.call('PUT', '/api/tickets/reg1-0001', offline.body, as(owner));
    expect(again.status).toBe(200);
    expect(again.body._v).toBe(2);
  });

  it('refuses POST and a creating PUT without TicketCreate (403 errorCode 2 naming it)', async () => {
    const waiter = await register(hub, ['TicketUpdate', 'TicketUpdateAny']);
    forbidden(await hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, as(waiter)), 2, 'TicketCreate');
    forbidden(await hub.call('PUT', '/api/tickets/waiter-new', { items: [item(1, 1)] }, as(waiter)), 2, 'TicketCreate');
    expect((await hub.call('GET', '/api/tickets/waiter-new')).status).toBe(404);
  });

  it('a POST of an id that exists is 400 Unique', async () => {
    const t = await create(full);
    const r = await hub.call('POST', '/api/tickets', { id: t.id, items: [] }, as(full));
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({ memberName: 'id', code: 'Unique' });
  });
});

describe('TicketUpdate and TicketUpdateAny', () => {
  it('TicketUpdate lets the owner change their own open ticket', async () => {
    const t = await create(owner);
    const r = await put(owner, t, { items: [item(1, 1), item(3, 1)] });
    expect(r.status).toBe(200);
    expect(r.body.totalPrice.amount).toBe(9.1);
  });

  it("refuses another's ticket with only TicketUpdate; TicketUpdateAny allows it", async () => {
    const t = await create(owner);
    const colleague = await register(hub, ['TicketCreate', 'TicketUpdate']);
    forbidden(await put(colleague, t, { items: [item(1, 2)] }), 2, 'TicketUpdateAny');
    const manager = await register(hub, ['TicketUpdateAny']);
    const r = await put(manager, t, { items: [item(1, 2)] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // The ticket stays the owner's.
    expect(r.body.employee.userName).toBe(owner.userName);
  });

  it('an update needs no TicketCreate', async () => {
    const t = await create(full);
    const updater = await register(hub, ['TicketUpdateAny', 'TicketRename']);
    const r = await put(updater, t, { name: 'Renamed by a waiter' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });

  it("refuses the owner's own ticket without TicketUpdate or TicketUpdateAny", async () => {
    const creator = await register(hub, ['TicketCreate']);
    const t = await create(creator);
    forbidden(await put(creator, t, { items: [item(1, 2)] }), 2, 'TicketUpdate');
  });
});

describe('TicketRename', () => {
  it('needs no right for a name on create', async () => {
    const t = await create(owner, { name: 'Table 5' });
    expect(t.name).toBe('Table 5');
  });

  it('refuses a name change on update without TicketRename; allows it with; an unchanged name needs none', async () => {
    const t = await create(owner, { name: 'Table 5' });
    forbidden(await put(owner, t, { name: 'Table 6' }), 2, 'TicketRename');
    forbidden(await put(owner, t, { name: undefined }), 2, 'TicketRename');
    expect((await put(owner, t, { note: 'no onions' })).status).toBe(200);
    const renamer = await register(hub, ['TicketCreate', 'TicketUpdate', 'TicketRename']);
    const own = await create(renamer, { name: 'A' });
    const r = await put(renamer, own, { name: 'B' });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('B');
  });
});

describe('TicketSetDiscount', () => {
  it('refuses a discount rate on create or a change on update without it', async () => {
    forbidden(await hub.call('POST', '/api/tickets', { discountRate: 10, items: [item(1, 1)] }, as(owner)), 2, 'TicketSetDiscount');
    const t = await create(owner);
    forbidden(await put(owner, t, { discountRate: 10 }), 2, 'TicketSetDiscount');
    forbidden(await put(owner, t, { items: [item(1, 1, { discountRate: 10 })] }), 2, 'TicketSetDiscount');
  });

  it('allows it with TicketSetDiscount', async () => {
    const t = await create(full);
    const r = await put(full, t, { discountRate: 10 });
    expect(r.status).toBe(200);
    expect(r.body.totalPrice.amount).toBe(6.21);
  });

  it("needs no right when the rate equals the customer's discount rate", async () => {
    const loyal = await register(hub, ['TicketCreate', 'TicketUpdate', 'TicketSetCustomer']);
    const t = await create(loyal, { customer: { id: 'novak' }, discountRate: 5 });
    expect(t.discountRate).toBe(5);
    expect(t.totalPrice.amount).toBe(6.56);
    forbidden(await put(loyal, t, { discountRate: 6 }), 2, 'TicketSetDiscount');
    // Keeping the stored rate is no change.
    expect((await put(loyal, t, { note: 'regular' })).status).toBe(200);
  });

  it("gives an expired (or not yet valid) customer's rate only with TicketSetDiscount: their discount is not in force", async () => {
    const now = hub.clock.now().getTime();
    await expect2xx(hub.call('POST', '/api/customers', { id: 'lapsed', firstName: 'Ivan', lastName: 'Starý', discountRate: 15, expirationTime: new Date(now - 86_400_000).toISOString() }));
    await expect2xx(hub.call('POST', '/api/customers', { id: 'future', firstName: 'Oto', lastName: 'Nový', discountRate: 15, activationTime: new Date(now + 86_400_000).toISOString() }));
    const loyal = await register(hub, ['TicketCreate', 'TicketUpdate', 'TicketSetCustomer']);
    for (const id of ['lapsed', 'future']) {
      forbidden(await hub.call('POST', '/api/tickets', { customer: { id }, discountRate: 15, items: [item(1, 1)] }, as(loyal)), 2, 'TicketSetDiscount');
      // The customer alone is still welcome (an invoice, a name on the bill).
      expect((await hub.call('POST', '/api/tickets', { customer: { id }, items: [item(1, 1)] }, as(loyal))).status).toBe(201);
    }
    expect((await hub.call('POST', '/api/tickets', { customer: { id: 'lapsed' }, discountRate: 15, items: [item(1, 1)] }, as(full))).status).toBe(201);
  });
});

describe('TicketSetCustomer', () => {
  it('completes a customer given by {id} from the stored customer', async () => {
    const t = await create(full, { customer: { id: 'novak', fullName: 'forged', discountRate: 99 } });
    expect(t.customer).toMatchObject({ id: 'novak', fullName: 'Ján Novák', discountRate: 5 });
  });

  it('completes a customer given by {cardSerialNumber}', async () => {
    const t = await create(full, { customer: { cardSerialNumber: 'CARD-1' } });
    expect(t.customer).toMatchObject({ id: 'novak', fullName: 'Ján Novák', cardSerialNumber: 'CARD-1' });
  });

  it('refuses an unknown customer or card with 400', async () => {
    const byId = await hub.call('POST', '/api/tickets', { customer: { id: 'nobody' }, items: [] }, as(full));
    expect(byId.status).toBe(400);
    expect(byId.body.errors[0].memberName).toBe('customer.id');
    const byCard = await hub.call('POST', '/api/tickets', { customer: { cardSerialNumber: 'NO-CARD' }, items: [] }, as(full));
    expect(byCard.status).toBe(400);
    expect(byCard.body.errors[0].memberName).toBe('customer.cardSerialNumber');
  });

  it('refuses a card that belongs to another customer than the id given', async () => {
    const r = await hub.call('POST', '/api/tickets', { customer: { id: 'horak', cardSerialNumber: 'CARD-1' }, items: [] }, as(full));
    expect(r.status).toBe(400);
    expect(r.body.errors[0].memberName).toBe('customer.cardSerialNumber');
  });

  it('refuses a deactivated card (lost or stolen) with 400; a ticket that already holds it keeps it across edits', async () => {
    await expect2xx(
      hub.call('POST', '/api/customers', { id: 'kral', firstName: 'Peter', lastName: 'Kráľ', discountRate: 20, cards: [{ serialNumber: 'CARD-K' }, { serialNumber: 'CARD-LOST', isActive: false }] }),
    );
    const r = await hub.call('POST', '/api/tickets', { customer: { cardSerialNumber: 'CARD-LOST' }, discountRate: 20, items: [] }, as(full));
    expect(r.status).toBe(400);
    expect(r.body.errors[0].memberName).toBe('customer.cardSerialNumber');
    // A card deactivated while a ticket holds it: the waiter can still edit that ticket.
    const t = await create(full, { customer: { cardSerialNumber: 'CARD-K' }, discountRate: 20 });
    const customer = (await hub.call('GET', '/api/customers/kral')).body;
    await expect2xx(hub.call('PUT', '/api/customers/kral', { ...customer, cards: [{ serialNumber: 'CARD-K', isActive: false }] }));
    const edited = await put(full, t, { note: 'window seat' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.customer).toMatchObject({ id: 'kral', cardSerialNumber: 'CARD-K' });
  });

  it('needs TicketSetCustomer to set, change or remove a customer', async () => {
    forbidden(await hub.call('POST', '/api/tickets', { customer: { id: 'novak' }, items: [] }, as(owner)), 2, 'TicketSetCustomer');
    const t = await create(full, { customer: { id: 'novak' } });
    const handedOver = await expect2xx(hub.call('PATCH', '/api/tickets?action=Handover', { ids: [t.id], userName: owner.userName }, as(full)));
    const mine = handedOver[0];
    forbidden(await put(owner, mine, { customer: { id: 'horak' } }), 2, 'TicketSetCustomer');
    forbidden(await put(owner, mine, { customer: null }), 2, 'TicketSetCustomer');
    // The stored customer sent back as it came needs no right.
    expect((await put(owner, mine, { note: 'same customer' })).status).toBe(200);
  });
});

describe('Storno', () => {
  it('raising a quantity or adding an item needs no Storno', async () => {
    const t = await create(owner, { items: [item(1, 1)] });
    const r = await put(owner, t, { items: [{ ...t.items[0], quantity: 2 }, item(3, 1)] });
    expect(r.status).toBe(200);
  });

  it('refuses lowering or removing a stored item without Storno', async () => {
    const t = await create(owner, { items: [item(1, 2), item(3, 1)] });
    forbidden(await put(owner, t, { items: [{ ...t.items[0], quantity: 1 }, t.items[1]] }), 2, 'Storno');
    forbidden(await put(owner, t, { items: [t.items[0]] }), 2, 'Storno');
    forbidden(await put(owner, t, { items: [{ ...t.items[0], plu: { code: 2, stockName: 'Menu' } }, t.items[1]] }), 2, 'Storno');
    const stored = await hub.call('GET', `/api/tickets/${t.id}`);
    expect(stored.body._v).toBe(1);
  });

  it('allows it with Storno', async () => {
    const t = await create(full, { items: [item(1, 2), item(3, 1)] });
    const r = await put(full, t, { items: [{ ...t.items[0], quantity: 1 }] });
    expect(r.status).toBe(200);
    expect(r.body.items.map((i: any) => [i.id, i.quantity])).toEqual([[1, 1]]);
    expect(r.body.totalPrice.amount).toBe(6.9);
  });
});

describe('closed tickets and DELETE', () => {
  it('PUT on a closed ticket is 403 errorCode 8', async () => {
    const t = await create(full);
    const closed = await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 6.9 }] }, as(full)));
    forbidden(await put(full, closed, { note: 'too late' }), 8);
    forbidden(await put(full, { ...t, _v: undefined }, { note: 'too late' }), 8);
    // A copy from before the close carries a stale _v: the version check answers first (409), and the
    // register that re-reads the ticket finds it closed.
    expect((await put(full, t, { note: 'too late' })).status).toBe(409);
  });

  it('DELETE needs TicketDelete and answers the deleted ticket', async () => {
    const t = await create(owner);
    forbidden(await hub.call('DELETE', `/api/tickets/${t.id}`, undefined, as(owner)), 2, 'TicketDelete');
    const r = await hub.call('DELETE', `/api/tickets/${t.id}`, undefined, as(full));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: t.id, state: 'Opened', _v: 1 });
    expect((await hub.call('GET', `/api/tickets/${t.id}`)).status).toBe(404);
    expect((await hub.call('DELETE', `/api/tickets/${t.id}`, undefined, as(full))).status).toBe(404);
  });

  it('DELETE of a closed ticket is 403 errorCode 8', async () => {
    const t = await create(full);
    await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 6.9 }] }, as(full)));
    forbidden(await hub.call('DELETE', `/api/tickets/${t.id}`, undefined, as(full)), 8);
    expect((await hub.call('GET', `/api/tickets/${t.id}`)).status).toBe(200);
  });
});

describe('versions', () => {
  it('GET one answers ETag "<_v>"', async () => {
    const t = await create(full);
    const r = await hub.call('GET', `/api/tickets/${t.id}`);
    expect(r.headers.get('etag')).toBe('"1"');
    await expect2xx(put(full, t, { note: 'x' }));
    expect((await hub.call('GET', `/api/tickets/${t.id}`)).headers.get('etag')).toBe('"2"');
  });

  it('a stale _v is 409 errorCode 6 with the stored version; a current one or none passes', async () => {
    const t = await create(full);
    const v2 = await expect2xx(put(full, t, { note: 'first' }));
    const stale = await put(full, t, { note: 'second', _v: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ errorCode: 6, resource: { name: 'Ticket', id: t.id, version: 2 } });
    const ifMatch = await hub.call('PUT', `/api/tickets/${t.id}`, { ...v2, _v: undefined, note: 'third' }, { token: full.token, headers: { 'if-match': '"1"' } });
    expect(ifMatch.status).toBe(409);
    expect((await put(full, v2, { note: 'second' })).body._v).toBe(3);
    expect((await put(full, { ...v2, _v: undefined }, { note: 'blind' })).body._v).toBe(4);
  });

  it("a register's offline change to a ticket deleted meanwhile is 409 against version 0, not a new ticket with new kitchen orders", async () => {
    // The register sends `_v` only for a ticket the hub stored (its base); the body of an id it made
    // itself carries none, and creates as before.
    const t = await expect2xx(hub.call('PUT', '/api/tickets/offline-deleted', { items: [item(1, 1)] }, as(owner)));
    expect(t._v).toBe(1);
    await expect2xx(hub.call('DELETE', `/api/tickets/${t.id}`, undefined, as(full)));
    const ordersBefore = (await hub.call('GET', `/api/orders?ticketId=${t.id}`)).body.count;
    const stale = await hub.call('PUT', `/api/tickets/${t.id}`, { ...t, items: [item(1, 2)] }, { token: owner.token, headers: { 'idempotency-key': 'offline-deleted-1' } });
    expect(stale.status, JSON.stringify(stale.body)).toBe(409);
    expect(stale.body).toMatchObject({ errorCode: 6, resource: { name: 'Ticket', id: t.id, version: 0 } });
    expect((await hub.call('GET', `/api/tickets/${t.id}`)).status).toBe(404);
    expect((await hub.call('GET', `/api/orders?ticketId=${t.id}`)).body.count).toBe(ordersBefore);
    // Without `_v` (a blind write, or a new ticket) a PUT still creates.
    expect((await hub.call('PUT', '/api/tickets/offline-new', { items: [item(1, 1)] }, as(owner))).status).toBe(201);
    // `_v: 0` expects no ticket, and there is none: it creates.
    expect((await hub.call('PUT', '/api/tickets/offline-zero', { items: [item(1, 1)], _v: 0 }, as(owner))).status).toBe(201);
  });
});
