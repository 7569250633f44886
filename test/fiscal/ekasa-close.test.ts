/**
 * POST /api/tickets/{id}/close through the `ekasa` driver and the fake PORTOS eKasa service on
 * 127.0.0.1, through every outcome the service can give: online (200), offline (202: stored in its
 * CHDÚ and printed, sent later), refusals before storage, failures after storage, a lost answer, a
 * malformed answer. One registration per sale, always (issue 27).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestHub } from '../support/hub.js';
import { expect2xx, item } from '../tickets/fixture.js';
import { EKASA_SETTINGS, ekasaSuite, type EkasaRestaurant } from './ekasa-fixture.js';
import { jobStates } from './fixture.js';

let hub: TestHub;
let r: EkasaRestaurant;
ekasaSuite((started) => ({ hub, r } = started));

/** EK1 saved again with these settings (a PUT of its configuration). */
async function saveEK1(settings: Record<string, string>): Promise<void> {
  const { status: _status, ...config } = (await hub.call('GET', '/api/fiscaldevices/EK1')).body;
  await expect2xx(hub.call('PUT', '/api/fiscaldevices/EK1', { ...config, settings }));
}

describe('offline registration (HTTP 202) is a receipt', () => {
  it('closes with offline: true and the OKP; a retry answers the closed ticket and registers nothing', async () => {
    r.svc.service.online = false;
    const t = await r.open();
    const answered = r.svc.registrationStatuses.length;
    const first = await r.close(t.id);
    // The service answered as PORTOS does for a receipt registered offline: HTTP 202, not 200.
    expect(r.svc.registrationStatuses.slice(answered)).toEqual([202]);
    // The waiter taps "close" again (after a 503 on the old reading, every offline receipt came twice).
    const again = await r.close(t.id);
    expect(r.registrationsOf(t.id)).toHaveLength(1);
    expect(first.status).toBe(200);
    const [reg] = r.registrationsOf(t.id);
    expect(first.body.closeInfo).toMatchObject({ fiscalName: 'EK1', number: reg.request.data.receiptNumber, ekasa: { offline: true, okp: reg.request.data.okp, receiptNumber: reg.request.data.receiptNumber } });
    expect(first.body.closeInfo.ekasa.uuid).toBeUndefined();
    expect(jobStates(hub, t.id)).toEqual(['Done']);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });
});

describe('outcomes: only a refusal before storage is "not issued"; anything else is settled by looking the registration up', () => {
  it('a refusal before storage (validation): nothing registered, the job failed, the ticket open; the next close registers once', async () => {
    const t = await r.open();
    r.svc.service.refuseNext = { status: 400, title: 'The request is not valid.', errorCode: -900 };
    const res = await r.close(t.id);
    // Refused for good: 403 (errorCode 8), not a 503 "try again".
    expect(res.status).toBe(403);
    expect(res.body.errorCode).toBe(8);
    expect(r.registrationsOf(t.id)).toHaveLength(0);
    expect(jobStates(hub, t.id)).toEqual(['Failed']);
    expect((await r.ticket(t.id)).state).toBe('Opened');
    // Whatever was wrong is put right (here: the service takes it now): the next close registers it once.
    expect((await r.close(t.id)).status).toBe(200);
    expect(r.registrationsOf(t.id)).toHaveLength(1);
  });

  it('a refusal of authentication (401) is a refusal before storage too: 403 naming it, nothing registered; once accepted, registered once', async () => {
    const t = await r.open();
    r.svc.service.refuseNext = { status: 401, title: 'Unauthenticated', errorCode: -1000 };
    const res = await r.close(t.id);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ errorCode: 8, detail: expect.stringMatching(/REJECTED: eKasa: Unauthenticated/) });
    expect(r.svc.requests.at(-1)).toBe('POST /api/v1/requests/receipts/cash_register');
    expect(r.registrationsOf(t.id)).toHaveLength(0);
    expect(jobStates(hub, t.id)).toEqual(['Failed']);
    expect((await r.close(t.id)).status).toBe(200);
    expect(r.registrationsOf(t.id)).toHaveLength(1);
  });

  it('a printer fault after the receipt was stored (503): the same request finds it and closes the ticket with it', async () => {
    const t = await r.open();
    r.svc.service.failAfterStoringNext = { status: 503, title: 'Printer is not ready', errorCode: -503 };
    const res = await r.close(t.id);
    expect(res.status).toBe(200);
    const [reg] = r.registrationsOf(t.id);
    expect(res.body.closeInfo).toMatchObject({ number: reg.request.data.receiptNumber, ekasa: { uuid: reg.response!.data.id, okp: reg.request.data.okp, offline: false } });
    expect(r.registrationsOf(t.id)).toHaveLength(1);
    expect(jobStates(hub, t.id)).toEqual(['Done']);
  });

  it('a 5xx before anything was stored: the lookup says none, the close answers 503, the retry registers once', async () => {
    const t = await r.open();
    r.svc.service.refuseNext = { status: 500, title: 'Internal error', errorCode: -100 };
    const res = await r.close(t.id);
    expect(res.status).toBe(503);
    expect(jobStates(hub, t.id)).toEqual(['Failed']);
    expect(r.svc.requests.slice(-2).map((q) => q.split('?')[0])).toEqual(['POST /api/v1/requests/receipts/cash_register', 'GET /api/v1/requests/receipts/receipt']);
    expect((await r.close(t.id)).status).toBe(200);
    expect(r.registrationsOf(t.id)).toHaveLength(1);
  });

  it('isSuccessful: false: stored in the CHDÚ all the same, so the ticket closes with it (offline, OKP), once', async () => {
    const t = await r.open();
    r.svc.service.rejectOnlineNext = { message: 'Chyba overenia', code: -100 };
    const res = await r.close(t.id);
    expect(res.status).toBe(200);
    expect(res.body.closeInfo.ekasa).toMatchObject({ offline: true, okp: r.registrationsOf(t.id)[0].request.data.okp });
    expect(r.registrationsOf(t.id)).toHaveLength(1);
  });

  it('a lost answer and a slow one (past TimeoutMs): settled by the lookup in the same request, once', async () => {
    const lost = await r.open();
    r.svc.loseAnswers = 1;
    expect((await r.close(lost.id)).status).toBe(200);
    r.svc.delayMs = 2500;
    const slow = await r.open();
    expect((await r.close(slow.id)).status).toBe(200);
    expect(r.registrationsOf(lost.id)).toHaveLength(1);
    expect(r.registrationsOf(slow.id)).toHaveLength(1);
  });

  it('a cut connection the service handles a moment later: "none" is believed only once the service had its TimeoutMs to store it; one registration', async () => {
    const t = await r.open();
    r.svc.arriveLateMs = 300;
    const res = await r.close(t.id);
    expect(r.registrationsOf(t.id)).toHaveLength(1);
    expect(res.status).toBe(200);
    expect(res.body.closeInfo.number).toBe(r.registrationsOf(t.id)[0].request.data.receiptNumber);
    // The cashier's retry answers the closed ticket.
    expect((await r.close(t.id)).status).toBe(200);
    expect(r.registrationsOf(t.id)).toHaveLength(1);
  });

  it('a service slower than TimeoutMs before it even stores the receipt: "none" is believed only once it has had TimeoutMs more since the driver stopped waiting; one registration', async () => {
    await saveEK1({ ...EKASA_SETTINGS, TimeoutMs: '400' });
    try {
      const t = await r.open();
      // The driver stops waiting at 400 ms; the service stores the receipt at 600 ms.
      r.svc.storeAfterMs = 600;
      const res = await r.close(t.id);
      // The waiter retries whatever the first answer was.
      const retry = await r.close(t.id);
      await r.svc.late;
      expect(r.registrationsOf(t.id)).toHaveLength(1);
      expect(res.status).toBe(200);
      expect(retry.body).toEqual(res.body);
      expect(res.body.closeInfo.number).toBe(r.registrationsOf(t.id)[0].request.data.receiptNumber);
    } finally {
      await saveEK1(EKASA_SETTINGS);
    }
  });

  it('the same, with the device saved again between the lost answer and the retry: the new driver instance still gives the service its time; one registration', async () => {
    await saveEK1({ ...EKASA_SETTINGS, TimeoutMs: '400' });
    try {
      const t = await r.open();
      r.svc.storeAfterMs = 600;
      // The lookup after the timeout cannot answer: the job stays pending (503).
      r.svc.failLookups = 1;
      expect((await r.close(t.id)).status).toBe(503);
      // Someone saves the device (its header text) before the waiter retries: a new driver instance.
      await saveEK1({ ...EKASA_SETTINGS, TimeoutMs: '400', HeaderText: 'Bistro' });
      const retry = await r.close(t.id);
      await r.svc.late;
      expect(r.registrationsOf(t.id)).toHaveLength(1);
      expect(retry.status).toBe(200);
      expect(retry.body.closeInfo.number).toBe(r.registrationsOf(t.id)[0].request.data.receiptNumber);
    } finally {
      await saveEK1(EKASA_SETTINGS);
    }
  });

  it('a malformed 2xx: no 500, nothing of it stored; the lookup settles it', async () => {
    const t = await r.open();
    r.svc.malformNext = (a: any) => ({ status: 200, text: JSON.stringify({ ...a.body, request: { ...a.body.request, data: { ...a.body.request.data, okp: '<img src=x onerror=alert(1)>', receiptNumber: { n: 1 } } } }) });
    const res = await r.close(t.id);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body.closeInfo)).not.toMatch(/[<>]|\\u0000|onerror/);
    expect(res.body.closeInfo.number).toBe(r.registrationsOf(t.id)[0].request.data.receiptNumber);
    expect(r.registrationsOf(t.id)).toHaveLength(1);
  });

  it('a lookup that cannot answer keeps the job pending and the ticket locked (503, edits 423) — then settles it before anything else is sent', async () => {
    const t = await r.open();
    const other = await r.open([item(3, 1)]);
    // The receipt is stored, its answer lost, and the lookup fails.
    r.svc.loseAnswers = 1;
    r.svc.failLookups = 1;
    const res = await r.close(t.id);
    expect(res.status).toBe(503);
    expect(res.body.errorCode).toBe(9);
    expect(jobStates(hub, t.id)).toEqual(['Pending']);
    expect((await hub.call('PUT', `/api/tickets/${t.id}`, { items: [item(1, 1)] }, { token: r.cashier.token })).status).toBe(423);
    // A retry of this close while the lookup still fails: still pending, nothing sent again.
    r.svc.failLookups = 1;
    expect((await r.close(t.id)).status).toBe(503);
    expect(jobStates(hub, t.id)).toEqual(['Pending']);
    // Another ticket on the same device: the pending one is looked up before the new one goes out.
    const mark = r.svc.requests.length;
    expect((await r.close(other.id)).status).toBe(200);
    const [job] = hub.db.all<{ id: string }>(sql`SELECT id FROM fiscal_jobs WHERE ticket_id = ${t.id}`);
    expect(r.svc.requests.slice(mark).map((q) => q.split('?')[0])).toEqual(['GET /api/v1/requests/receipts/receipt', 'POST /api/v1/requests/receipts/cash_register']);
    expect(r.svc.requests[mark]).toContain(`ExternalId=${job.id}`);
    const closed = await r.ticket(t.id);
    expect(closed).toMatchObject({ state: 'Closed', closeInfo: { number: r.registrationsOf(t.id)[0].request.data.receiptNumber } });
    expect(r.registrationsOf(t.id)).toHaveLength(1);
    expect(r.registrationsOf(other.id)).toHaveLength(1);
  });

  it("the cash register code changed while a receipt's outcome is unknown: the lookup still asks under the code it was sent with; one registration", async () => {
    const t = await r.open();
    r.svc.loseAnswers = 1;
    r.svc.failLookups = 1;
    expect((await r.close(t.id)).status).toBe(503);
    expect(jobStates(hub, t.id)).toEqual(['Pending']);
    await saveEK1({ ...EKASA_SETTINGS, CashRegisterCode: '88812345678900002' });
    try {
      const mark = r.svc.requests.length;
      const res = await r.close(t.id);
      expect(res.status).toBe(200);
      expect(r.svc.requests[mark]).toContain(`CashRegisterCode=${EKASA_SETTINGS.CashRegisterCode}`);
      expect(r.registrationsOf(t.id)).toHaveLength(1);
      expect(res.body.closeInfo.number).toBe(r.registrationsOf(t.id)[0].request.data.receiptNumber);
      expect(jobStates(hub, t.id)).toEqual(['Done']);
    } finally {
      await saveEK1(EKASA_SETTINGS);
    }
  });
});

describe('what the hub shows of the service', () => {
  it("the device's status comes from the service's CHDÚ, printer and connectivity: offline registration is a notice, no CHDÚ is offline", async () => {
    r.svc.service.online = false;
    await hub.services.fiscalMonitor.poll();
    expect((await hub.call('GET', '/api/fiscaldevices/EK1')).body.status).toMatchObject({ online: true, paper: 'ok', lastError: expect.stringMatching(/registered offline/) });
    r.svc.service.online = true;
    r.svc.service.printer = { state: 'Ready', paperState: 'NearEnd' };
    await hub.services.fiscalMonitor.poll();
    expect((await hub.call('GET', '/api/fiscaldevices/EK1')).body.status).toMatchObject({ online: true, paper: 'low', lastError: null });
    r.svc.service.chdu = false;
    await hub.services.fiscalMonitor.poll();
    expect((await hub.call('GET', '/api/fiscaldevices/EK1')).body.status).toMatchObject({ online: false, lastError: expect.stringMatching(/CHDÚ/) });
  });

  it('the receipt number starts from 1 again in a new month: two closed tickets with number 1, told apart by their OKP', async () => {
    const before = hub.clock.now();
    /** Opens and closes a ticket at `at`, logged in afresh (a day later the cashier's token has expired). */
    const closeAt = async (at: string) => {
      hub.clock.set(at);
      const token = await hub.login(r.cashier.userName, 'pw', r.cashier.device);
      const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(3, 1)] }, { token }));
      return (await expect2xx(hub.call('POST', `/api/tickets/${t.id}/close`, { fiscalName: 'EK1', payments: [{ paymentTypeNumber: 1, amount: 5 }] }, { token }))).closeInfo;
    };
    try {
      const a = await closeAt('2027-01-31T20:00:00Z');
      const b = await closeAt('2027-02-01T08:00:00Z');
      expect(b.number).toBe(1);
      expect(a.number).toBe(a.ekasa.receiptNumber);
      expect(b.ekasa.okp).not.toBe(a.ekasa.okp);
      const c = await closeAt('2027-03-01T08:00:00Z');
      expect(c.number).toBe(1);
      expect(c.ekasa.okp).not.toBe(b.ekasa.okp);
    } finally {
      hub.clock.set(before);
    }
  });
});
