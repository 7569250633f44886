/**
 * POST /api/fiscaldevices/{name}/reports/x and /reports/z (CONTRACT §8, §11): the right
 * FiscalReport, the report in the answer, a Z closing the fiscal day so later receipts carry the next
 * dailySalesReportNumber, an X leaving it open; on the Datecs printer and on the in-process simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHub } from '../support/hub.js';
import { expect2xx } from '../tickets/fixture.js';
import { datecsHub, type DatecsRestaurant } from './fixture.js';

let hub: TestHub;
let r: DatecsRestaurant;
let stop: () => Promise<void>;

beforeAll(async () => ({ hub, r, stop } = await datecsHub()));
afterAll(() => stop());

const report = (name: string, kind: string, token?: string) => hub.call('POST', `/api/fiscaldevices/${name}/reports/${kind}`, undefined, token ? { token } : {});

describe('reports on a Datecs printer', () => {
  it('X reports the open day and leaves it open; Z closes it and the next receipt carries the next day number', async () => {
    const a = await r.open();
    expect((await r.close(a.id)).body.closeInfo.dailySalesReportNumber).toBe(1);

    const x = await report('DT1', 'x');
    expect(x.status).toBe(200);
    expect(x.body).toMatchObject({ fiscalName: 'DT1', kind: 'X', number: 1, total: 16, receipts: 1 });
    const b = await r.open();
    expect((await r.close(b.id)).body.closeInfo.dailySalesReportNumber).toBe(1);

    const z = await report('DT1', 'Z');
    expect(z.status).toBe(200);
    expect(z.body).toMatchObject({ fiscalName: 'DT1', kind: 'Z', number: 1, total: 32, receipts: 2 });
    expect(r.sim.memory.reports.map((rep) => [rep.kind, rep.number])).toEqual([
      ['X', 1],
      ['Z', 1],
    ]);
    expect(r.sim.memory.zNumber).toBe(1);
    expect((await r.device()).status.dailySalesReportNumber).toBe(2);

    const c = await r.open();
    // The printer numbers every document it completes (receipts and reports alike): 1, X 2, 3, Z 4, 5.
    expect((await r.close(c.id)).body.closeInfo).toMatchObject({ dailySalesReportNumber: 2, number: 5 });
    expect(r.receiptsOf(c.id)[0].number).toBe(5);
    expect((await report('DT1', 'z')).body).toMatchObject({ number: 2, total: 16, receipts: 1 });
  });

  it('needs FiscalReport', async () => {
    const token = await hub.userWith(['FiscalDeviceUpdate']);
    const res = await report('DT1', 'z', token);
    expect(res.status).toBe(403);
    expect(res.body.errorCode).toBe(2);
    expect(res.body.detail).toMatch(/FiscalReport/);
    const allowed = await hub.userWith(['FiscalReport']);
    expect((await report('DT1', 'x', allowed)).status).toBe(200);
  });

  it('unknown device 404, unknown report 404, inactive device 403 errorCode 8', async () => {
    expect((await report('Nope', 'x')).status).toBe(404);
    expect((await report('DT1', 'y')).status).toBe(404);
    await expect2xx(hub.call('POST', '/api/fiscaldevices', { name: 'Off', driver: 'simulator', address: 'sim:off', isActive: false }));
    const off = await report('Off', 'z');
    expect(off.status).toBe(403);
    expect(off.body.errorCode).toBe(8);
  });

  it('a printer that is off or out of paper answers 503 errorCode 9 with Retry-After and closes no day', async () => {
    const z = r.sim.memory.zNumber;
    r.sim.paper = 'out';
    const paper = await report('DT1', 'z');
    r.sim.paper = 'ok';
    expect(paper.status).toBe(503);
    expect(paper.body).toMatchObject({ errorCode: 9, detail: expect.stringMatching(/PAPER_OUT/) });
    await r.sim.setPower(false);
    const off = await report('DT1', 'x');
    await r.sim.setPower(true);
    expect(off.status).toBe(503);
    expect(off.headers.get('retry-after')).toBeTruthy();
    expect(r.sim.memory.zNumber).toBe(z);
  });

  it('a Z retried with its Idempotency-Key prints once', async () => {
    await new Promise((res) => setTimeout(res, 60)); // the reconnect backoff after the power cut
    const before = r.sim.memory.zNumber;
    const headers = { 'idempotency-key': 'z-report-1' };
    const first = await hub.call('POST', '/api/fiscaldevices/DT1/reports/z', undefined, { headers });
    const again = await hub.call('POST', '/api/fiscaldevices/DT1/reports/z', undefined, { headers });
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(r.sim.memory.zNumber).toBe(before + 1);
  });
});

describe('API description', () => {
  it('documents the report route with every error it answers', async () => {
    const doc = (await hub.call('GET', '/api/openapi.json', undefined, { token: null })).body;
    const op = doc.paths['/api/fiscaldevices/{name}/reports/{kind}'].post;
    for (const status of ['200', '401', '403', '404', '409', '503']) expect(Object.keys(op.responses)).toContain(status);
    expect(op.description).toMatch(/FiscalReport/);
    const status = doc.components.schemas.FiscalDevice.properties.status;
    expect(JSON.stringify(status)).toMatch(/neither `_v`/);
  });
});

describe('reports on the in-process simulator', () => {
  it('Z closes the day: the next receipt carries the next day number', async () => {
    const x = await report('FP1', 'x');
    expect(x.body).toMatchObject({ kind: 'X', number: 1 });
    const z = await report('FP1', 'z');
    expect(z.body).toMatchObject({ kind: 'Z', number: 1 });
    const t = await r.open();
    const closed = await hub.call('POST', `/api/tickets/${t.id}/close`, { fiscalName: 'FP1', payments: [{ paymentTypeNumber: 1, amount: 20 }] }, { token: r.cashier.token });
    expect(closed.body.closeInfo).toMatchObject({ fiscalName: 'FP1', dailySalesReportNumber: 2 });
    expect((await hub.call('GET', '/api/fiscaldevices/FP1')).body.status).toMatchObject({ online: true, dailySalesReportNumber: 2 });
  });
});
