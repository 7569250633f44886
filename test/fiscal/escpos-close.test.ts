/**
 * A shop without fiscal hardware (CONTRACT §8 `escpos`): tickets close on a plain ESC/POS printer
 * (the fake one on 127.0.0.1), numbered by the hub, fiscalMemorySerialNumber the hub's id; a printer
 * that cannot print answers 503 with nothing numbered; X and Z reports keep the hub's day count.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeEscPosPrinter } from '../support/fake-escpos-printer.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';

let hub: TestHub;
let printer: FakeEscPosPrinter;
let cashier: Awaited<ReturnType<typeof register>>;

beforeAll(async () => {
  hub = await startHub();
  printer = await FakeEscPosPrinter.start();
  await restaurant(hub);
  await expect2xx(hub.call('POST', '/api/fiscaldevices', { name: 'Paper', driver: 'escpos', address: printer.address, settings: { Header: 'Bistro', ReconnectMaxMs: '20' } }));
  cashier = await register(hub);
});
afterAll(async () => {
  await hub.fiscal.closeAll();
  await printer.close();
  await hub.close();
});

const open = async () => expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, { token: cashier.token }));
const close = (id: string) => hub.call('POST', `/api/tickets/${id}/close`, { fiscalName: 'Paper', payments: [{ paymentTypeNumber: 1, amount: 10 }] }, { token: cashier.token });
const hubIdentity = () => hub.db.get<{ value: string }>(sql`SELECT value FROM meta WHERE key = 'hub.id'`)!.value;

describe('closing on a plain ESC/POS printer', () => {
  it('numbers receipts consecutively with the hub id as fiscal memory serial, and prints them', async () => {
    const a = await close((await open()).id);
    const b = await close((await open()).id);
    expect(a.status).toBe(200);
    expect(a.body.closeInfo).toMatchObject({ fiscalName: 'Paper', number: 1, dailySalesReportNumber: 1, fiscalMemorySerialNumber: hubIdentity() });
    expect(b.body.closeInfo.number).toBe(2);
    await printer.waitFor(() => printer.cutTickets().length === 2);
    // On the shop's clock: the hub's 10:00 UTC is 11:00 in its time zone, Europe/Bratislava.
    expect(printer.cutTickets()[1].join('\n')).toMatch(/Receipt 2 +2026-11-21 11:00/);
  });

  it('a printer out of paper answers 503 and numbers nothing; with paper the next receipt takes the next number', async () => {
    const t = await open();
    printer.setPaperOut(true);
    const refused = await close(t.id);
    printer.setPaperOut(false);
    expect(refused.status).toBe(503);
    expect(refused.body.errorCode).toBe(9);
    expect((await hub.call('GET', `/api/tickets/${t.id}`)).body.state).toBe('Opened');
    expect((await close(t.id)).body.closeInfo.number).toBe(3);
  });

  it('Z closes the hub-kept day: the next receipt carries the next dailySalesReportNumber', async () => {
    const z = await hub.call('POST', '/api/fiscaldevices/Paper/reports/z');
    expect(z.status).toBe(200);
    expect(z.body).toMatchObject({ kind: 'Z', number: 1, receipts: 3 });
    const next = await close((await open()).id);
    expect(next.body.closeInfo).toMatchObject({ number: 4, dailySalesReportNumber: 2 });
    expect((await hub.call('GET', '/api/fiscaldevices/Paper')).body.status).toMatchObject({ online: true, dailySalesReportNumber: 2, fiscalMemorySerialNumber: hubIdentity() });
  });

  it('refuses an unknown printer model or a QrCode naming an unknown placeholder in settings with 400', async () => {
    for (const settings of [{ Model: 'TM99' }, { Model: 'TSP650', QrCode: 'https://x.example/{ticket}' }]) {
      const bad = await hub.call('POST', '/api/fiscaldevices', { name: 'Bad', driver: 'escpos', address: printer.address, settings });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].memberName).toBe('settings');
    }
  });
});
