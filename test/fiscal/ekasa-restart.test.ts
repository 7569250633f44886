/**
 * A hub stopped while its eKasa registration was under way, then started again on the same data
 * directory: the registration the service stored is found by its externalId and closes its ticket
 * (at start, or at the next close); one the service never stored is registered once by the next
 * close; while the service cannot be asked, the job stays pending and nothing is sent again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeEkasaService } from '../support/fake-ekasa-service.js';
import { startHub, type TestHub } from '../support/hub.js';
import { CASH_REGISTER_CODE, ekasaRestaurant, type EkasaRestaurant } from './ekasa-fixture.js';
import { allJobs, until } from './fixture.js';

let dataDir: string;
let first: TestHub;
let second: TestHub | undefined;
let svc: FakeEkasaService;
let r: EkasaRestaurant;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'poshub-ekasa-restart-'));
  first = await startHub({ dataDir });
  svc = new FakeEkasaService(() => first.clock.now());
  await svc.listen();
  // The first hub waits a minute for the service's answer: its close hangs on it.
  r = await ekasaRestaurant(first, svc, { CashRegisterCode: CASH_REGISTER_CODE, TimeoutMs: '60000' });
});

afterEach(async () => {
  await second?.fiscal.closeAll();
  await second?.close();
  second = undefined;
  await svc.close(); // also drops the first hub's waiting connection
  rmSync(dataDir, { recursive: true, force: true });
});

const closeOn = (hub: TestHub, id: string) => hub.call('POST', `/api/tickets/${id}/close`, { fiscalName: 'EK1', payments: [{ paymentTypeNumber: 1, amount: 20 }] }, { token: r.cashier.token });

/** Starts a close that hangs at the service (`hold`: before or after it stores the receipt), "kills" the first hub, starts the second. */
async function killedDuringClose(hold: 'answer' | 'request'): Promise<string> {
  const t = await r.open();
  if (hold === 'answer') svc.holdAnswers = true;
  else svc.holdRequests = true;
  const hanging = r.close(t.id).catch(() => undefined);
  await until(() => svc.requests.some((q) => q.startsWith('POST')));
  expect(allJobs(first).map((j) => j.state)).toEqual(['Pending']);
  await first.close();
  void hanging;
  // Whatever was held dies with the first hub's connection.
  svc.reset();
  second = await startHub({ dataDir });
  await second.call('PUT', '/api/fiscaldevices/EK1', { driver: 'ekasa', address: svc.address, settings: { CashRegisterCode: CASH_REGISTER_CODE, TimeoutMs: '2000' } });
  return t.id;
}

describe('a hub stopped mid-registration (eKasa)', () => {
  it('the service stored it: settled at start by the lookup; the retry answers the closed ticket; one registration', async () => {
    const id = await killedDuringClose('answer');
    expect(svc.service.registrations).toHaveLength(1);
    await second!.services.fiscalMonitor.poll();
    const ticket = (await second!.call('GET', `/api/tickets/${id}`)).body;
    const [reg] = svc.service.registrations;
    expect(ticket).toMatchObject({ state: 'Closed', closeInfo: { fiscalName: 'EK1', number: reg.request.data.receiptNumber, ekasa: { uuid: reg.response!.data.id, okp: reg.request.data.okp } } });
    expect(allJobs(second!).map((j) => j.state)).toEqual(['Done']);
    const retry = await closeOn(second!, id);
    expect(retry.status).toBe(200);
    expect(retry.body.closeInfo).toEqual(ticket.closeInfo);
    expect(svc.service.registrations).toHaveLength(1);
  });

  it('the service never stored it: the lookup says none, the next close registers it once', async () => {
    const id = await killedDuringClose('request');
    expect(svc.service.registrations).toHaveLength(0);
    await second!.services.fiscalMonitor.poll();
    expect(allJobs(second!).map((j) => j.state)).toEqual(['Failed']);
    expect((await second!.call('GET', `/api/tickets/${id}`)).body.state).toBe('Opened');
    const retry = await closeOn(second!, id);
    expect(retry.status).toBe(200);
    expect(svc.service.registrations).toHaveLength(1);
    expect(retry.body.closeInfo.number).toBe(svc.service.registrations[0].request.data.receiptNumber);
  });

  it('the service is off at restart: the job stays pending (503) and nothing is sent; once it answers, the retry settles it', async () => {
    const id = await killedDuringClose('answer');
    await svc.setPower(false);
    await second!.services.fiscalMonitor.poll();
    const refused = await closeOn(second!, id);
    expect(refused.status).toBe(503);
    expect(allJobs(second!).map((j) => j.state)).toEqual(['Pending']);
    await svc.setPower(true);
    const retry = await closeOn(second!, id);
    expect(retry.status).toBe(200);
    expect(retry.body.closeInfo.number).toBe(svc.service.registrations[0].request.data.receiptNumber);
    expect(svc.service.registrations).toHaveLength(1);
  });
});

describe('a hub restarted while the service is still working on the registration (eKasa)', () => {
  it('the service stores it a moment after the restarted hub first asks: "none" is believed only once the service had its time since the job was sent; one registration', async () => {
    const t = await r.open();
    svc.holdRequests = true;
    const hanging = r.close(t.id).catch(() => undefined);
    await until(() => svc.requests.some((q) => q.startsWith('POST')));
    await first.close();
    void hanging;
    // The service has the whole request and goes on with it although the first hub is gone.
    svc.holdRequests = false;
    second = await startHub({ dataDir });
    await second.call('PUT', '/api/fiscaldevices/EK1', { driver: 'ekasa', address: svc.address, settings: { CashRegisterCode: CASH_REGISTER_CODE, TimeoutMs: '2000' } });
    const settling = second.services.fiscalMonitor.poll();
    // The restarted hub's first lookup has gone out (and found nothing); then the service stores it.
    await until(() => svc.requests.some((q) => q.startsWith('GET /api/v1/requests/receipts/receipt')));
    svc.release();
    expect(svc.service.registrations).toHaveLength(1);
    await settling;
    expect(allJobs(second).map((j) => j.state)).toEqual(['Done']);
    const [reg] = svc.service.registrations;
    expect((await second.call('GET', `/api/tickets/${t.id}`)).body).toMatchObject({ state: 'Closed', closeInfo: { number: reg.request.data.receiptNumber, ekasa: { okp: reg.request.data.okp } } });
    expect((await closeOn(second, t.id)).status).toBe(200);
    expect(svc.service.registrations).toHaveLength(1);
  });
});
