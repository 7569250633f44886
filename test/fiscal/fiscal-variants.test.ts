/**
 * A close, an X and a Z report through the API on every Datecs firmware variant (the fake printer
 * of each, found by the driver from its model name) and on the eKasa service (online and offline),
 * each exactly once across a lost answer.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CMD } from '../../drivers/fiscal/datecs/commands.js';
import { startHub, type TestHub } from '../support/hub.js';
import { FakeEkasaService } from '../support/fake-ekasa-service.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { datecsHub, type DatecsRestaurant } from './fixture.js';

const report = (hub: TestHub, name: string, kind: string) => hub.call('POST', `/api/fiscaldevices/${name}/reports/${kind}`);

for (const variant of ['P', 'C', 'X'] as const) {
  describe(`Datecs ${variant} firmware`, () => {
    let hub: TestHub;
    let r: DatecsRestaurant;
    let stop: () => Promise<void>;
    beforeAll(async () => ({ hub, r, stop } = await datecsHub(undefined, variant)));
    afterAll(() => stop());

    it('closes a ticket, prints X and Z, and the next receipt carries the next day', async () => {
      const a = await r.open();
      const closed = await r.close(a.id);
      expect(closed.status).toBe(200);
      const [printed] = r.receiptsOf(a.id);
      expect(closed.body.closeInfo).toMatchObject({ fiscalName: 'DT1', number: printed.number, dailySalesReportNumber: 1, fiscalMemorySerialNumber: '02000001' });
      expect((await report(hub, 'DT1', 'x')).body).toMatchObject({ kind: 'X', number: 1, total: 16, receipts: 1 });
      expect((await report(hub, 'DT1', 'z')).body).toMatchObject({ kind: 'Z', number: 1, total: 16 });
      const b = await r.open();
      expect((await r.close(b.id)).body.closeInfo).toMatchObject({ dailySalesReportNumber: 2 });
      expect(r.sim.memory.reports.map((x) => x.kind)).toEqual(['X', 'Z']);
    });

    it('exactly once across a lost answer to the close command', async () => {
      const t = await r.open();
      // Every try of the close command (Retries 3: four) loses its reply.
      r.sim.dropReplies({ cmd: CMD.closeFiscalReceipt, count: 4 });
      const res = await r.close(t.id);
      expect(res.status).toBe(200);
      expect(r.receiptsOf(t.id)).toHaveLength(1);
      expect(res.body.closeInfo.number).toBe(r.receiptsOf(t.id)[0].number);
      expect((await r.close(t.id)).body).toEqual(res.body);
      expect(r.receiptsOf(t.id)).toHaveLength(1);
    });

    it('a receipt left open after a payment is finished before the next one, which keeps its own number', async () => {
      const t = await r.open();
      r.sim.failAfter(CMD.total, 'silence');
      expect((await r.close(t.id)).status).toBe(503);
      r.sim.resume();
      // The retry settles the job: the paid receipt was finished (pay the rest, close) and is this ticket's.
      const retry = await r.close(t.id);
      expect(retry.status).toBe(200);
      expect(r.receiptsOf(t.id)).toHaveLength(1);
      expect(retry.body.closeInfo.number).toBe(r.receiptsOf(t.id)[0].number);
      const next = await r.open([item(3, 1)]);
      const n = await r.close(next.id);
      expect(n.body.closeInfo.number).toBe(r.receiptsOf(next.id)[0].number);
    });
  });
}

describe('eKasa (PORTOS eKasa service, simulated over HTTP on 127.0.0.1)', () => {
  let hub: TestHub;
  let svc: FakeEkasaService;
  let cashier: Awaited<ReturnType<typeof register>>;
  const jobs = (id: string) => hub.db.all<{ state: string }>(sql`SELECT state FROM fiscal_jobs WHERE ticket_id = ${id}`).map((j) => j.state);
  const open = () => expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 2), item(3, 1)] }, { token: cashier.token }));
  const close = (id: string) => hub.call('POST', `/api/tickets/${id}/close`, { fiscalName: 'EK1', payments: [{ paymentTypeNumber: 1, amount: 20 }] }, { token: cashier.token });

  beforeAll(async () => {
    hub = await startHub();
    await restaurant(hub);
    svc = new FakeEkasaService(() => hub.clock.now());
    await svc.listen();
    await expect2xx(hub.call('POST', '/api/fiscaldevices', { name: 'EK1', driver: 'ekasa', address: svc.address, settings: { CashRegisterCode: '88812345678900001', TimeoutMs: '2000' } }));
    cashier = await register(hub);
  });
  afterAll(async () => {
    await hub.fiscal.closeAll();
    await svc.close();
    await hub.close();
  });

  it('closes online: closeInfo carries the receipt number, UUID, OKP and QR code', async () => {
    const t = await open();
    const res = await close(t.id);
    expect(res.status).toBe(200);
    expect(res.body.closeInfo).toMatchObject({ fiscalName: 'EK1', number: 1, fiscalMemorySerialNumber: '88812345678900001', ekasa: { receiptNumber: 1, offline: false, uuid: expect.stringMatching(/^O-/), okp: expect.any(String) } });
    expect(res.body.closeInfo.ekasa.qrCode).toBe(res.body.closeInfo.ekasa.uuid);
    const [reg] = svc.service.registrations;
    expect(reg.request.externalId).toBe(hub.db.get<{ id: string }>(sql`SELECT id FROM fiscal_jobs WHERE ticket_id = ${t.id}`)!.id);
  });

  it('closes offline: shown as such, OKP and the offline QR code, no UUID', async () => {
    svc.service.online = false;
    try {
      const res = await close((await open()).id);
      expect(res.status).toBe(200);
      expect(res.body.closeInfo.ekasa).toMatchObject({ offline: true, receiptNumber: 2 });
      expect(res.body.closeInfo.ekasa.uuid).toBeUndefined();
      expect(res.body.closeInfo.ekasa.qrCode).toMatch(/:88812345678900001:\d{12}:2:16\.00$/);
    } finally {
      svc.service.online = true;
    }
  });

  it('exactly once across a lost answer: the registration is found by its externalId, the same request closes', async () => {
    const t = await open();
    svc.loseAnswers = 1;
    const before = svc.service.registrations.length;
    const res = await close(t.id);
    expect(res.status).toBe(200);
    expect(svc.service.registrations).toHaveLength(before + 1);
    expect(res.body.closeInfo.ekasa.receiptNumber).toBe(svc.service.registrations.at(-1)!.request.data.receiptNumber);
    expect(jobs(t.id)).toEqual(['Done']);
    expect((await close(t.id)).body).toEqual(res.body);
    expect(svc.service.registrations).toHaveLength(before + 1);
  });

  it('a refusal of the service answers 503 with the fault, nothing registered, the ticket open', async () => {
    const t = await open();
    svc.service.refuseNext = { status: 503, title: 'Printer is not ready', errorCode: -503 };
    const res = await close(t.id);
    expect(res.status).toBe(503);
    expect(res.body.detail).toMatch(/PAPER_OUT/);
    expect(jobs(t.id)).toEqual(['Failed']);
    expect((await close(t.id)).status).toBe(200);
  });

  it('X and Z through the API: the day so far, then the next day number', async () => {
    const x = await report(hub, 'EK1', 'x');
    expect(x.body).toMatchObject({ kind: 'X', number: 1, receipts: 4, total: 64 });
    expect((await report(hub, 'EK1', 'z')).body).toMatchObject({ kind: 'Z', number: 1, receipts: 4 });
    expect((await close((await open()).id)).body.closeInfo).toMatchObject({ dailySalesReportNumber: 2 });
  });

  it('refuses an ekasa device without a cash register code, or at a non-HTTP address', async () => {
    expect((await hub.call('POST', '/api/fiscaldevices', { name: 'EK2', driver: 'ekasa', address: svc.address, settings: {} })).status).toBe(400);
    expect((await hub.call('POST', '/api/fiscaldevices', { name: 'EK2', driver: 'ekasa', address: 'tcp://1.2.3.4:1', settings: { CashRegisterCode: '88812345678900001' } })).status).toBe(400);
  });
});
