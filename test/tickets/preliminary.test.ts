/** POST /api/tickets/{id}/print_preliminary_ticket (CONTRACT §2, §6, §11; seed §3, §7). */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from './fixture.js';

let hub: TestHub;
let cashier: Awaited<ReturnType<typeof register>>;

beforeAll(async () => {
  hub = await startHub();
  await restaurant(hub);
  await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'OldPrinter', type: 'TM88', address: 'tcp://127.0.0.1:9', isActive: false }));
  await expect2xx(hub.call('POST', '/api/orderendpoints', { name: 'Pass', type: 'Tablet', address: 'kds-1' }));
  cashier = await register(hub);
});
afterAll(() => hub.close());

const open = () => expect2xx(hub.call('POST', '/api/tickets', { name: 'T7', items: [item(1, 2), item(3, 1)] }, { token: cashier.token }));
const print = (id: string, body?: unknown, token = cashier.token) => hub.call('POST', `/api/tickets/${id}/print_preliminary_ticket`, body, { token });
const jobs = (id: string) =>
  hub.db.all<{ endpoint_name: string; kind: string; state: string; payload: string }>(
    sql`SELECT endpoint_name, kind, state, payload FROM print_jobs WHERE ref_id = ${id} AND kind = 'preliminary' ORDER BY created_at`,
  );

describe('preliminary bill', () => {
  it("answers 204 and queues a 'preliminary' print job on the device's DefaultOrderEndpointName", async () => {
    const t = await open();
    const r = await print(t.id);
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();
    const [job] = jobs(t.id);
    expect(job).toMatchObject({ endpoint_name: 'Bar', kind: 'preliminary', state: 'Queued' });
    expect(JSON.parse(job.payload)).toMatchObject({ ticket: { id: t.id, totalPrice: { amount: 16 }, items: [{ plu: { name: 'Gulyás' } }, { plu: { name: 'Pivo' } }] }, deviceName: cashier.device });
    // The ticket itself is unchanged.
    expect((await hub.call('GET', `/api/tickets/${t.id}`)).body._v).toBe(1);
  });

  it('prints on the order endpoint named in the body', async () => {
    const t = await open();
    expect((await print(t.id, { orderEndpointName: 'Kitchen' })).status).toBe(204);
    expect(jobs(t.id).map((j) => j.endpoint_name)).toEqual(['Kitchen']);
  });

  it('refuses an unknown order endpoint with 400', async () => {
    const t = await open();
    const r = await print(t.id, { orderEndpointName: 'Nowhere' });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].memberName).toBe('orderEndpointName');
    expect(jobs(t.id)).toEqual([]);
  });

  it('refuses an inactive order endpoint and a kitchen display with 403 errorCode 8', async () => {
    const t = await open();
    for (const orderEndpointName of ['OldPrinter', 'Pass']) {
      const r = await print(t.id, { orderEndpointName });
      expect(r.status, orderEndpointName).toBe(403);
      expect(r.body.errorCode).toBe(8);
    }
    expect(jobs(t.id)).toEqual([]);
  });

  it('prints for a closed ticket too', async () => {
    const t = await open();
    await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 20 }] }, { token: cashier.token }));
    expect((await print(t.id, {})).status).toBe(204);
    expect(JSON.parse(jobs(t.id)[0].payload).ticket.state).toBe('Closed');
  });

  it("a closed ticket of another device and user is printed only with TicketReadAll, as reading it (CONTRACT §12)", async () => {
    const t = await open();
    await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 20 }] }, { token: cashier.token }));
    const stranger = await register(hub, ['TicketCreate', 'TicketPrintPreliminary']);
    expect((await hub.call('GET', `/api/tickets/${t.id}`, undefined, { token: stranger.token })).status).toBe(403);
    const r = await print(t.id, { orderEndpointName: 'Kitchen' }, stranger.token);
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ errorCode: 2, detail: expect.stringContaining('TicketReadAll') });
    expect(jobs(t.id)).toEqual([]);
    // With the right, or while the ticket is open (a table plan reads every open ticket), it prints.
    const manager = await register(hub, ['TicketPrintPreliminary', 'TicketReadAll']);
    expect((await print(t.id, { orderEndpointName: 'Kitchen' }, manager.token)).status).toBe(204);
    const o = await open();
    expect((await print(o.id, { orderEndpointName: 'Kitchen' }, stranger.token)).status).toBe(204);
  });

  it('needs TicketPrintPreliminary and the Sale environment', async () => {
    const t = await open();
    const waiter = await register(hub, ['TicketCreate', 'TicketUpdateAny']);
    const noRight = await print(t.id, {}, waiter.token);
    expect(noRight.status).toBe(403);
    expect(noRight.body.errorCode).toBe(2);
    expect(noRight.body.detail).toContain('TicketPrintPreliminary');
    const backOffice = await print(t.id, {}, hub.adminToken);
    expect(backOffice.status).toBe(403);
    expect(backOffice.body.errorCode).toBe(2);
    expect(jobs(t.id)).toEqual([]);
  });

  it('404 for an unknown ticket; 400 when neither the body nor the device names an endpoint', async () => {
    expect((await print('no-such-ticket')).status).toBe(404);
    await expect2xx(hub.call('POST', '/api/devices', { name: 'Bare', envName: 'CashRegister' }));
    const token = await hub.userWith(['TicketCreate', 'TicketPrintPreliminary'], 'Bare');
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, { token }));
    const r = await print(t.id, undefined, token);
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({ memberName: 'orderEndpointName', code: 'Required' });
  });
});
