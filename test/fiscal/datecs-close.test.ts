/**
 * POST /api/tickets/{id}/close through the datecs driver and the byte-level simulator on 127.0.0.1,
 * with every fault: a reply lost after fiscalization, a device that is off, paper out mid-receipt,
 * a printer gone silent mid-receipt; and the device's status in the API and /api/health.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CMD } from '../../drivers/fiscal/datecs/commands.js';
import type { TestHub } from '../support/hub.js';
import { item } from '../tickets/fixture.js';
import { datecsHub, jobStates, type DatecsRestaurant } from './fixture.js';

let hub: TestHub;
let r: DatecsRestaurant;
let stop: () => Promise<void>;

beforeAll(async () => ({ hub, r, stop } = await datecsHub()));
afterAll(() => stop());

function expect503(res: { status: number; headers: Headers; body: any }): void {
  expect(res.status).toBe(503);
  expect(res.body.errorCode).toBe(9);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe('close through a Datecs printer', () => {
  it('prints the receipt and stores its number, day number and fiscal memory serial', async () => {
    const t = await r.open();
    const res = await r.close(t.id);
    expect(res.status).toBe(200);
    const [receipt] = r.receiptsOf(t.id);
    expect(res.body).toMatchObject({
      state: 'Closed',
      closeInfo: { deviceName: r.cashier.device, fiscalName: 'DT1', number: receipt.number, dailySalesReportNumber: 1, fiscalMemorySerialNumber: '02000001' },
    });
    expect(receipt).toMatchObject({ total: '16.00', change: '4.00', payments: [{ mode: 'P', amount: '20.00' }] });
    expect(receipt.lines.map((l) => [l.text, l.quantity, l.total])).toEqual([
      ['Gulyas', '2', '13.80'],
      ['Pivo', '1', '2.20'],
    ]);
    expect(jobStates(hub, t.id)).toEqual(['Done']);
  });

  it('numbers receipts consecutively, the same as the printer', async () => {
    const numbers: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = await r.open([item(3, i + 1)]);
      numbers.push((await r.close(t.id)).body.closeInfo.number);
      expect(r.receiptsOf(t.id).map((x) => x.number)).toEqual([numbers[i]]);
    }
    expect(numbers[1] - numbers[0]).toBe(1);
    expect(numbers[2] - numbers[1]).toBe(1);
  });
});

describe('faults', () => {
  it('every reply to the close command lost after fiscalization: one receipt, the close completes in the same request', async () => {
    const t = await r.open();
    r.sim.dropReplies({ cmd: CMD.closeFiscalReceipt, count: 10 });
    const res = await r.close(t.id);
    expect(res.status).toBe(200);
    expect(r.receiptsOf(t.id)).toHaveLength(1);
    expect(res.body.closeInfo.number).toBe(r.receiptsOf(t.id)[0].number);
    expect(jobStates(hub, t.id)).toEqual(['Done']);
    // A retry issues nothing.
    const again = await r.close(t.id);
    expect(again.body).toEqual(res.body);
    expect(r.receiptsOf(t.id)).toHaveLength(1);
  });

  it('the line drops after the close command: the printer repeats its answer, one receipt', async () => {
    const t = await r.open();
    r.sim.failAfter(CMD.closeFiscalReceipt, 'disconnect');
    const res = await r.close(t.id);
    expect(res.status).toBe(200);
    expect(r.receiptsOf(t.id)).toHaveLength(1);
    expect(res.body.closeInfo.number).toBe(r.receiptsOf(t.id)[0].number);
  });

  it('silent after fiscalizing until the retry: 503 with the job pending, then the retry records the receipt without printing again', async () => {
    const t = await r.open();
    r.sim.failAfter(CMD.closeFiscalReceipt, 'silence');
    const res = await r.close(t.id);
    expect503(res);
    expect((await r.ticket(t.id)).state).toBe('Opened');
    expect(jobStates(hub, t.id)).toEqual(['Pending']);
    expect(r.receiptsOf(t.id)).toHaveLength(1);
    r.sim.resume();
    const retry = await r.close(t.id);
    expect(retry.status).toBe(200);
    expect(retry.body.closeInfo.number).toBe(r.receiptsOf(t.id)[0].number);
    expect(r.receiptsOf(t.id)).toHaveLength(1);
    expect(jobStates(hub, t.id)).toEqual(['Done']);
  });

  it('device off: 503, ticket open, nothing pending; once it is on the close succeeds', async () => {
    const t = await r.open();
    const before = r.sim.memory.receipts.length;
    await r.sim.setPower(false);
    const res = await r.close(t.id);
    expect503(res);
    expect(await r.ticket(t.id)).toMatchObject({ state: 'Opened', closeInfo: null, _v: t._v });
    expect(jobStates(hub, t.id)).toEqual([]);
    expect((await r.device()).status).toMatchObject({ online: false, lastError: expect.stringMatching(/^OFFLINE/) });
    await r.sim.setPower(true);
    await new Promise((res) => setTimeout(res, 60)); // the reconnect backoff
    const retry = await r.close(t.id);
    expect(retry.status).toBe(200);
    expect(r.sim.memory.receipts).toHaveLength(before + 1);
    expect((await r.device()).status).toMatchObject({ online: true, lastError: null });
  });

  it('paper out mid-receipt: the half-open receipt is voided, 503, nothing recorded; with paper the close succeeds', async () => {
    const t = await r.open();
    const before = { receipts: r.sim.memory.receipts.length, voided: r.sim.memory.day.voided };
    r.sim.paperOutAfterLines(1);
    const res = await r.close(t.id);
    expect503(res);
    expect(res.body.detail).toMatch(/PAPER_OUT/);
    expect(r.sim.openReceipt).toBeNull();
    expect(r.sim.memory.day.voided).toBe(before.voided + 1);
    expect(r.sim.memory.receipts).toHaveLength(before.receipts);
    expect(await r.ticket(t.id)).toMatchObject({ state: 'Opened', closeInfo: null, _v: t._v });
    expect(jobStates(hub, t.id)).toEqual(['Failed']);
    expect((await r.device()).status).toMatchObject({ online: true, paper: 'out' });
    // Out of paper before anything prints: refused at once.
    expect503(await r.close(t.id));
    r.sim.paper = 'ok';
    const retry = await r.close(t.id);
    expect(retry.status).toBe(200);
    expect(r.receiptsOf(t.id)).toHaveLength(1);
    expect((await r.device()).status).toMatchObject({ paper: 'ok' });
  });

  it('silent mid-receipt: 503; the receipt left open is voided before the next close prints it once', async () => {
    const t = await r.open();
    const voided = r.sim.memory.day.voided;
    r.sim.failAfter(CMD.sale, 'silence');
    expect503(await r.close(t.id));
    expect(r.sim.openReceipt).not.toBeNull();
    expect((await r.ticket(t.id)).state).toBe('Opened');
    r.sim.resume();
    const retry = await r.close(t.id);
    expect(retry.status).toBe(200);
    expect(r.receiptsOf(t.id)).toHaveLength(1);
    expect(r.sim.memory.day.voided).toBe(voided + 1);
  });

  it('a line whose VAT category has no tax group on the printer: 403 REJECTED (refused for good, errorCode 8) before anything prints', async () => {
    await hub.call('POST', '/api/plus', { code: 9, stockName: 'Menu', name: 'No VAT', type: 'Service', unitPrice: { amount: 1 } });
    const t = await r.open([item(9, 1)]);
    const sent = r.sim.requests.length;
    const res = await r.close(t.id);
    expect(res.status).toBe(403);
    expect(res.body.errorCode).toBe(8);
    expect(res.body.detail).toMatch(/REJECTED.*VAT category/);
    expect(r.sim.requests.slice(sent).some((q) => q.cmd === CMD.openFiscalReceipt)).toBe(false);
  });

  it('closes on one printer under load with lost replies: every ticket its own receipt', async () => {
    r.sim.dropRate = 0.2;
    try {
      const tickets = await Promise.all([1, 2, 3, 4, 5].map((n) => r.open([item(3, n)])));
      const closed = await Promise.all(
        tickets.map(async (t) => {
          for (;;) {
            const res = await r.close(t.id);
            if (res.status === 200) return res.body;
            expect([503, 423]).toContain(res.status);
          }
        }),
      );
      for (const [i, t] of tickets.entries()) {
        expect(r.receiptsOf(t.id)).toHaveLength(1);
        expect(closed[i].closeInfo.number).toBe(r.receiptsOf(t.id)[0].number);
      }
    } finally {
      r.sim.dropRate = 0;
    }
  });
});

describe('status', () => {
  it('is kept up to date without changing _v: a PUT with the _v read earlier is not refused', async () => {
    const read = await hub.call('GET', '/api/fiscaldevices/DT1');
    await r.sim.setPower(false);
    await hub.services.fiscalMonitor.poll();
    const offline = await hub.call('GET', '/api/fiscaldevices/DT1');
    expect(offline.body.status).toMatchObject({ online: false });
    expect(offline.body._v).toBe(read.body._v);
    expect(offline.headers.get('etag')).toBe(read.headers.get('etag'));
    await r.sim.setPower(true);
    await new Promise((res) => setTimeout(res, 60));
    await hub.services.fiscalMonitor.poll();
    const { status: _status, ...config } = read.body;
    const put = await hub.call('PUT', '/api/fiscaldevices/DT1', { ...config, settings: { ...config.settings, TillNumber: '2' } });
    expect(put.status).toBe(200);
    expect(put.body._v).toBe(read.body._v + 1);
    expect(put.body.status).toMatchObject({ online: true, paper: 'ok', lastError: null, fiscalMemorySerialNumber: '02000001', dailySalesReportNumber: 1 });
  });

  it('shows in /api/health, in the list and in /metrics', async () => {
    expect((await hub.call('GET', '/api/health', undefined, { token: null })).body.fiscalDevices).toBeUndefined();
    const health = await hub.call('GET', '/api/health');
    expect(health.body.fiscalDevices).toContainEqual({
      name: 'DT1',
      driver: 'datecs',
      isActive: true,
      status: { online: true, paper: 'ok', lastError: null, fiscalMemorySerialNumber: '02000001', dailySalesReportNumber: 1 },
    });
    const list = await hub.call('GET', '/api/fiscaldevices?name=DT1');
    expect(list.body.items[0].status.online).toBe(true);
    const metrics = await (await fetch(`${hub.url}/metrics`, { headers: { authorization: `Bearer ${hub.adminToken}` } })).text();
    expect(metrics).toContain('poshub_fiscal_device_online{device="DT1"} 1');
  });

  it('a device never asked shows unknown; deleting a device forgets its status', async () => {
    await hub.call('POST', '/api/fiscaldevices', { name: 'DT9', driver: 'datecs', address: 'tcp://127.0.0.1:9' });
    expect((await hub.call('GET', '/api/fiscaldevices/DT9')).body.status).toEqual({
      online: null,
      paper: 'unknown',
      lastError: null,
      fiscalMemorySerialNumber: null,
      dailySalesReportNumber: null,
    });
    await hub.services.fiscalMonitor.poll();
    expect((await hub.call('GET', '/api/fiscaldevices/DT9')).body.status.online).toBe(false);
    await hub.call('DELETE', '/api/fiscaldevices/DT9');
    await hub.call('POST', '/api/fiscaldevices', { name: 'DT9', driver: 'datecs', address: 'tcp://127.0.0.1:9' });
    expect((await hub.call('GET', '/api/fiscaldevices/DT9')).body.status.online).toBeNull();
    await hub.call('DELETE', '/api/fiscaldevices/DT9');
  });

  it('refuses malformed datecs settings with 400', async () => {
    const bad = await hub.call('POST', '/api/fiscaldevices', { name: 'DTX', driver: 'datecs', address: r.sim.address, settings: { TaxGroups: '1=Q' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].memberName).toBe('settings');
    const retries = await hub.call('POST', '/api/fiscaldevices', { name: 'DTX', driver: 'datecs', address: r.sim.address, settings: { Retries: 'many' } });
    expect(retries.status).toBe(400);
  });
});

describe('the open guard (issue 27, point 9)', () => {
  it('a Z report overdue: a 403 (the device refuses until someone acts) and lastError name it; after the Z report the close goes through, not blocked until the device is saved again', async () => {
    const t = await r.open();
    r.sim.zOverdue = true;
    for (let i = 0; i < 3; i++) {
      const res = await r.close(t.id);
      expect(res.status).toBe(403);
      expect(res.body.errorCode).toBe(8);
      expect(res.body.detail).toMatch(/Z report is overdue/);
    }
    expect((await r.device()).status.lastError).toMatch(/^REJECTED: .*Z report is overdue/);
    expect(r.sim.wrongPasswords).toBe(0);
    expect((await hub.call('POST', '/api/fiscaldevices/DT1/reports/z')).status).toBe(200);
    const res = await r.close(t.id);
    expect(res.status).toBe(200);
    expect(r.receiptsOf(t.id)).toHaveLength(1);
  });
});
