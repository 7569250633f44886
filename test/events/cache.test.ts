/**
 * In-memory copies of documents (issue 31) never outlive their documents: a session's user and
 * device, and the catalog a ticket write and a close read (plus, modifiers, payment types, VAT, the
 * order endpoints), are dropped by the change log's entries; a rolled-back write leaves no copy of
 * what never happened; a commit from another process drops everything. Each case first reads
 * (so the copy is kept), then changes the document, then reads again.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, inTransaction, openDb, type Db } from '../../db/client.js';
import { ChangeCache } from '../../hub/events/cache.js';
import { getStored, putStored } from '../../hub/engine/repo.js';
import { stocks } from '../../hub/resources/stocks/resource.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';

describe('ChangeCache', () => {
  let dir: string;
  let db: Db;
  afterEach(() => {
    closeDb(db);
    rmSync(dir, { recursive: true, force: true });
  });
  const open = () => {
    dir = mkdtempSync(join(tmpdir(), 'poshub-cache-'));
    db = openDb(join(dir, 'hub.sqlite'), { groupSync: true });
  };
  const describeOf = (name: string) => getStored(db, stocks, name)?.doc.description;
  const put = (name: string, description: string) =>
    inTransaction(db, () => putStored(db, stocks, name, { name, description }, (getStored(db, stocks, name)?.v ?? 0) + 1, 0));

  it('drops a copy when the change log says its document changed', () => {
    open();
    const cache = new ChangeCache<string>(db, { resources: ['stocks'] });
    put('Bar', 'first');
    expect(cache.get('Bar', () => describeOf('Bar') as string)).toBe('first');
    put('Bar', 'second');
    expect(cache.get('Bar', () => describeOf('Bar') as string)).toBe('second');
  });

  it('keeps nothing of a write that rolled back, even what that write read after changing it', () => {
    open();
    const cache = new ChangeCache<string>(db, { resources: ['stocks'] });
    put('Bar', 'committed');
    expect(() =>
      inTransaction(db, () => {
        putStored(db, stocks, 'Bar', { name: 'Bar', description: 'rolled back' }, 2, 0);
        // Read (and kept) inside the write that is about to fail.
        expect(cache.get('Bar', () => describeOf('Bar') as string)).toBe('rolled back');
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(cache.get('Bar', () => describeOf('Bar') as string)).toBe('committed');
  });

  it('a savepoint rolled back inside a write that goes on drops what it changed too', () => {
    open();
    const cache = new ChangeCache<string>(db, { resources: ['stocks'] });
    put('Bar', 'committed');
    inTransaction(db, () => {
      try {
        inTransaction(db, () => {
          putStored(db, stocks, 'Bar', { name: 'Bar', description: 'inner' }, 2, 0);
          cache.get('Bar', () => describeOf('Bar') as string);
          throw new Error('inner refused');
        });
      } catch {
        /* the outer write goes on */
      }
    });
    expect(cache.get('Bar', () => describeOf('Bar') as string)).toBe('committed');
  });

  it('does not keep a miss: a document made later is found', () => {
    open();
    const cache = new ChangeCache<string>(db, { resources: ['stocks'] });
    expect(cache.get('New', () => describeOf('New') as string | undefined)).toBeUndefined();
    // Written without a change-log entry the cache would hear of: only the miss not being kept finds it.
    db.$client.prepare("INSERT INTO stocks (name, v, doc) VALUES ('New', 1, '{\"name\":\"New\",\"description\":\"made\"}')").run();
    expect(cache.get('New', () => describeOf('New') as string | undefined)).toBe('made');
  });

  it('drops everything when another process commits to the file', async () => {
    open();
    const cache = new ChangeCache<string>(db, { resources: ['stocks'] });
    put('Bar', 'mine');
    await new Promise((r) => setTimeout(r, 20)); // the batch commits
    expect(cache.get('Bar', () => describeOf('Bar') as string)).toBe('mine');
    const other = new Database(join(dir, 'hub.sqlite'));
    try {
      other.prepare(`UPDATE stocks SET doc = '{"name":"Bar","description":"theirs"}' WHERE name = 'Bar'`).run();
    } finally {
      other.close();
    }
    // Looked at once per turn of the event loop (a request's reads are one turn).
    await new Promise((r) => setImmediate(r));
    expect(cache.get('Bar', () => describeOf('Bar') as string)).toBe('theirs');
  });
});

describe('the copies the hub keeps follow every change', () => {
  let hub: TestHub;
  let cashier: { token: string; device: string; userName: string };
  beforeAll(async () => {
    hub = await startHub();
    await restaurant(hub);
    cashier = await register(hub);
  });
  afterAll(async () => hub.close());
  const sell = async (items: unknown[]) => expect2xx(hub.call('POST', '/api/tickets', { items }, { token: cashier.token }));
  const pluId = async (code: number) => (await expect2xx(hub.call('GET', `/api/plus?code=${code}`))).items[0];

  it("a right taken away, a user or a device made inactive, a logout: the very next request knows", async () => {
    const token = await hub.userWith(['StockCreate', 'StockRead']);
    expect((await hub.call('POST', '/api/stocks', { name: 'Cache 1' }, { token })).status).toBe(201);
    const user = (await expect2xx(hub.call('GET', '/api/auth', undefined, { token }))).user;
    await expect2xx(hub.call('PUT', `/api/users/${user.id}`, { userName: user.userName, rights: ['StockRead'] }));
    expect((await hub.call('POST', '/api/stocks', { name: 'Cache 2' }, { token })).status).toBe(403);
    await expect2xx(hub.call('PUT', `/api/users/${user.id}`, { userName: user.userName, rights: ['StockRead', 'StockCreate'] }));
    expect((await hub.call('POST', '/api/stocks', { name: 'Cache 2' }, { token })).status).toBe(201);
    await expect2xx(hub.call('PUT', `/api/users/${user.id}`, { userName: user.userName, rights: ['StockRead'], isActive: false }));
    expect((await hub.call('GET', '/api/stocks', undefined, { token })).status).toBe(401);

    const device = await expect2xx(hub.call('GET', `/api/devices/${cashier.device}`));
    expect((await hub.call('GET', '/api/auth', undefined, { token: cashier.token })).status).toBe(200);
    await expect2xx(hub.call('PUT', `/api/devices/${cashier.device}`, { ...device, isActive: false }));
    expect((await hub.call('GET', '/api/auth', undefined, { token: cashier.token })).status).toBe(401);
    await expect2xx(hub.call('PUT', `/api/devices/${cashier.device}`, { ...device, isActive: true, _v: undefined }));
    cashier.token = await hub.login(cashier.userName, 'pw', cashier.device);

    const other = await hub.userWith(['StockRead']);
    expect((await hub.call('GET', '/api/stocks', undefined, { token: other })).status).toBe(200);
    expect((await hub.call('DELETE', '/api/auth', undefined, { token: other })).status).toBe(204);
    expect((await hub.call('GET', '/api/stocks', undefined, { token: other })).status).toBe(401);
  });

  it("a device's settings: the next close uses its new default fiscal device", async () => {
    const t = await sell([item(1, 1)]);
    const device = await expect2xx(hub.call('GET', `/api/devices/${cashier.device}`));
    await expect2xx(hub.call('PUT', `/api/devices/${cashier.device}`, { ...device, settings: { ...device.settings, DefaultFiscalName: 'Nowhere' } }));
    const refused = await hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 10 }] }, { token: cashier.token });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].memberName).toBe('fiscalName');
    const now = await expect2xx(hub.call('GET', `/api/devices/${cashier.device}`));
    await expect2xx(hub.call('PUT', `/api/devices/${cashier.device}`, { ...now, settings: { ...now.settings, DefaultFiscalName: 'FP1' } }));
    await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 10 }] }, { token: cashier.token }));
  });

  it("a plu's price, VAT rate and kitchen routing: the next ticket write uses the new ones", async () => {
    expect((await sell([item(3, 1)])).items[0].unitPrice.amount).toBe(2.2);
    const plu = await pluId(3);
    await expect2xx(hub.call('PUT', `/api/plus/${plu.id}`, { ...plu, unitPrice: { amount: 2.5 }, vatInfo: { category: 2, rate: 10 }, orderEndpointNames: ['Kitchen'] }));
    const after = await sell([item(3, 1)]);
    expect(after.items[0].unitPrice.amount).toBe(2.5);
    expect(after.vatBreakdown).toEqual([{ rate: 10, base: 2.27, vat: 0.23, gross: 2.5 }]);
    const orders = await expect2xx(hub.call('GET', `/api/orders?ticketId=${after.id}`));
    expect(orders.items.map((o: { orderEndpointName: string }) => o.orderEndpointName)).toEqual(['Kitchen']);
  });

  it('a plu removed or its code changed is no longer sold under its old code', async () => {
    await sell([item(5, 1)]);
    const plu = await pluId(5);
    await expect2xx(hub.call('PUT', `/api/plus/${plu.id}`, { ...plu, code: 55 }));
    const refused = await hub.call('POST', '/api/tickets', { items: [item(5, 1)] }, { token: cashier.token });
    expect(refused.status).toBe(400);
    expect((await sell([item(55, 1)])).items[0].plu.name).toBe('Čaj');
  });

  it("a modifier's options: the next ticket write prices them anew", async () => {
    await expect2xx(hub.call('POST', '/api/modifiers', { id: 'side', name: 'Side', options: [{ id: 'fries', name: 'Fries', unitPrice: { amount: 1 } }] }));
    const chosen = { modifiers: [{ modifierId: 'side', optionId: 'fries' }] };
    expect((await sell([item(1, 1, chosen)])).items[0].totalPrice.amount).toBe(7.9);
    const side = await expect2xx(hub.call('GET', '/api/modifiers/side'));
    await expect2xx(hub.call('PUT', '/api/modifiers/side', { ...side, options: [{ id: 'fries', name: 'Fries', unitPrice: { amount: 1.5 } }] }));
    expect((await sell([item(1, 1, chosen)])).items[0].totalPrice.amount).toBe(8.4);
  });

  it('a payment type made inactive: the next close refuses it', async () => {
    const t = await sell([item(4, 1)]);
    await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 2, amount: 0.1 }] }, { token: cashier.token }));
    const card = await expect2xx(hub.call('GET', '/api/paymenttypes/2'));
    await expect2xx(hub.call('PUT', '/api/paymenttypes/2', { ...card, isActive: false }));
    const u = await sell([item(4, 1)]);
    const refused = await hub.call('POST', `/api/tickets/${u.id}/close`, { payments: [{ paymentTypeNumber: 2, amount: 0.1 }] }, { token: cashier.token });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].memberName).toBe('payments[0].paymentTypeNumber');
  });

  it('an order endpoint made inactive: the next ticket write sends it nothing', async () => {
    const first = await sell([item(1, 1)]);
    expect((await expect2xx(hub.call('GET', `/api/orders?ticketId=${first.id}`))).items).toHaveLength(1);
    const kitchen = await expect2xx(hub.call('GET', '/api/orderendpoints/Kitchen'));
    await expect2xx(hub.call('PUT', '/api/orderendpoints/Kitchen', { ...kitchen, isActive: false }));
    const second = await sell([item(1, 1)]);
    expect((await expect2xx(hub.call('GET', `/api/orders?ticketId=${second.id}`))).items).toHaveLength(0);
  });
});
