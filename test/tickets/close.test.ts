/** POST /api/tickets/{id}/close (CONTRACT §2, §6, §11): fiscal device choice, payments, device faults, exactly once. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SimulatorFiscalDevice } from '../../drivers/fiscal/simulator/driver.js';
import { startHub, type TestHub } from '../support/hub.js';
import { plansOf } from '../support/plans.js';
import { expect2xx, item, register, restaurant } from './fixture.js';

let hub: TestHub;
type Cashier = Awaited<ReturnType<typeof register>>;
let cashier: Cashier;
let other: Cashier;
let fp1: SimulatorFiscalDevice;

beforeAll(async () => {
  hub = await startHub();
  await restaurant(hub);
  await expect2xx(hub.call('POST', '/api/fiscaldevices', { name: 'FP2', driver: 'simulator', address: 'sim:fp2' }));
  await expect2xx(hub.call('POST', '/api/fiscaldevices', { name: 'FPOff', driver: 'simulator', address: 'sim:off', isActive: false }));
  await expect2xx(hub.call('POST', '/api/paymenttypes', { number: 3, name: 'Old voucher', category: 'Voucher', isActive: false }));
  cashier = await register(hub);
  other = await register(hub);
  // The very instance the hub will use for FP1 (same name and configuration).
  fp1 = hub.fiscal.get({ name: 'FP1', driver: 'simulator', address: 'sim:fp1', settings: {} }) as SimulatorFiscalDevice;
});
afterAll(() => hub.close());
beforeEach(() => {
  fp1.paper = 'ok';
  fp1.delayMs = 0;
});

const cash = (amount: number) => [{ paymentTypeNumber: 1, amount }];
const card = (amount: number) => [{ paymentTypeNumber: 2, amount }];
const open = (items = [item(1, 1)], c: Cashier = cashier) => expect2xx(hub.call('POST', '/api/tickets', { items }, { token: c.token }));
const closeT = (id: string, body: Record<string, unknown>, c: Cashier = cashier, headers?: Record<string, string>) =>
  hub.call('POST', `/api/tickets/${id}/close`, body, { token: c.token, headers });
const stored = async (id: string) => (await hub.call('GET', `/api/tickets/${id}`)).body;
const receiptsOf = (id: string) => fp1.journal.filter((j) => j.receipt.reference === id);
const jobsOf = (id: string) => hub.db.all<{ state: string }>(sql`SELECT state FROM fiscal_jobs WHERE ticket_id = ${id} ORDER BY created_at`);

function expectUnchanged(t: any, now: any): void {
  expect(now).toMatchObject({ state: 'Opened', closeInfo: null, closeDate: null, payments: [], _v: t._v });
}

describe('fiscal device', () => {
  it("uses the device's DefaultFiscalName and stores closeInfo, closeDate and payments", async () => {
    const t = await open([item(1, 2), item(3, 1)]);
    const before = fp1.journal.length;
    const r = await closeT(t.id, { payments: card(16) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      state: 'Closed',
      closeDate: hub.clock.now().toISOString(),
      payments: [{ paymentTypeNumber: 2, amount: 16 }],
      closeInfo: { deviceName: cashier.device, fiscalName: 'FP1', number: before + 1, dailySalesReportNumber: 1, fiscalMemorySerialNumber: expect.stringMatching(/^SIM/) },
      _v: 2,
    });
    expect(fp1.journal).toHaveLength(before + 1);
    const [receipt] = receiptsOf(t.id);
    expect(receipt.receipt).toMatchObject({ total: '16.00', change: '0.00', operator: cashier.userName, payments: [{ kind: 'CreditCard', amount: '16.00' }] });
    expect(receipt.receipt.lines.map((l) => [l.name, l.quantity, l.unitPrice, l.total])).toEqual([
      ['Gulyás', '2', '6.9', '13.80'],
      ['Pivo', '1', '2.2', '2.20'],
    ]);
    expect(await stored(t.id)).toMatchObject({ state: 'Closed', _v: 2 });
  });

  it('uses fiscalName when given', async () => {
    const t = await open();
    const r = await closeT(t.id, { fiscalName: 'FP2', payments: cash(10) });
    expect(r.status).toBe(200);
    expect(r.body.closeInfo).toMatchObject({ fiscalName: 'FP2', number: 1 });
    expect(receiptsOf(t.id)).toEqual([]);
  });

  it('refuses an unknown fiscal device with 400 and an inactive one with 403 errorCode 8', async () => {
    const t = await open();
    const unknown = await closeT(t.id, { fiscalName: 'FP9', payments: cash(10) });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].memberName).toBe('fiscalName');
    const inactive = await closeT(t.id, { fiscalName: 'FPOff', payments: cash(10) });
    expect(inactive.status).toBe(403);
    expect(inactive.body.errorCode).toBe(8);
    expectUnchanged(t, await stored(t.id));
  });

  it('refuses with 400 when no fiscalName is given and the device has no default', async () => {
    await expect2xx(hub.call('POST', '/api/devices', { name: 'Bare', envName: 'CashRegister' }));
    const token = await hub.userWith(['TicketCreate', 'TicketClose'], 'Bare');
    const t = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, { token }));
    const r = await hub.call('POST', `/api/tickets/${t.id}/close`, { payments: cash(10) }, { token });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({ memberName: 'fiscalName', code: 'Required' });
  });

  it('needs TicketClose and the Sale environment', async () => {
    const t = await open();
    const noRight = await register(hub, ['TicketCreate', 'TicketUpdateAny']);
    const r = await closeT(t.id, { payments: cash(10) }, noRight);
    expect(r.status).toBe(403);
    expect(r.body.detail).toContain('TicketClose');
    const backOffice = await hub.call('POST', `/api/tickets/${t.id}/close`, { payments: cash(10) });
    expect(backOffice.status).toBe(403);
    expect(backOffice.body.errorCode).toBe(2);
    expect((await closeT('no-such-ticket', { payments: cash(10) })).status).toBe(404);
  });
});

describe('device faults', () => {
  it('a device that is OFFLINE answers 503 errorCode 9 with Retry-After, the ticket stays open', async () => {
    const t = await open();
    const before = fp1.journal.length;
    fp1.inject({ kind: 'fail', code: 'OFFLINE' });
    const r = await closeT(t.id, { payments: cash(10) });
    expect(r.status).toBe(503);
    expect(r.body.errorCode).toBe(9);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expectUnchanged(t, await stored(t.id));
    expect(fp1.journal).toHaveLength(before);
    // The device is back: the retry closes it once.
    const retry = await closeT(t.id, { payments: cash(10) });
    expect(retry.status).toBe(200);
    expect(receiptsOf(t.id)).toHaveLength(1);
  });

  it('a device out of paper answers 503 errorCode 9, nothing changed', async () => {
    const t = await open();
    const before = fp1.journal.length;
    fp1.paper = 'out';
    const r = await closeT(t.id, { payments: cash(10) });
    expect(r.status).toBe(503);
    expect(r.body.errorCode).toBe(9);
    expect(r.headers.get('retry-after')).toBeTruthy();
    expectUnchanged(t, await stored(t.id));
    expect(fp1.journal).toHaveLength(before);
    fp1.paper = 'ok';
    expect((await closeT(t.id, { payments: cash(10) })).status).toBe(200);
    expect(receiptsOf(t.id)).toHaveLength(1);
  });
});

describe('payments', () => {
  it('refuses payments short of the total with 400', async () => {
    const t = await open([item(1, 1)]);
    const r = await closeT(t.id, { payments: [...cash(3), ...card(3.89)] });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].memberName).toBe('payments');
    expectUnchanged(t, await stored(t.id));
  });

  it('accepts split payments that cover the total exactly', async () => {
    const t = await open([item(4, 1), item(5, 1)]);
    const r = await closeT(t.id, { payments: [...card(0.1), ...cash(0.2)] });
    expect(r.status).toBe(200);
    expect(r.body.payments).toEqual([
      { paymentTypeNumber: 2, amount: 0.1 },
      { paymentTypeNumber: 1, amount: 0.2 },
    ]);
  });

  it('gives change only on a changeable type (Cash is, Card is not)', async () => {
    const t = await open([item(1, 1)]);
    const onCard = await closeT(t.id, { payments: card(10) });
    expect(onCard.status).toBe(400);
    expect(onCard.body.errors[0].memberName).toBe('payments');
    const r = await closeT(t.id, { payments: [...card(5), ...cash(5)] });
    expect(r.status).toBe(200);
    expect(receiptsOf(t.id)[0].receipt.change).toBe('3.10');
  });

  it('gives change only out of changeable payments: a card is never overpaid', async () => {
    const t = await open([item(1, 1)]);
    // 10 on the card and 0.10 in cash for 6.90: 3.20 of "change" would come off the card.
    const r = await closeT(t.id, { payments: [...card(10), ...cash(0.1)] });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].memberName).toBe('payments');
    const ok = await closeT(t.id, { payments: [...card(6), ...cash(5)] });
    expect(ok.status).toBe(200);
    expect(receiptsOf(t.id)[0].receipt.change).toBe('4.10');
  });

  it('refuses an unknown or inactive payment type with 400', async () => {
    const t = await open();
    const unknown = await closeT(t.id, { payments: [{ paymentTypeNumber: 42, amount: 10 }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].memberName).toBe('payments[0].paymentTypeNumber');
    const inactive = await closeT(t.id, { payments: [...cash(1), { paymentTypeNumber: 3, amount: 10 }] });
    expect(inactive.status).toBe(400);
    expect(inactive.body.errors[0].memberName).toBe('payments[1].paymentTypeNumber');
    expectUnchanged(t, await stored(t.id));
  });

  it('refuses a malformed body: no payments, bad amounts', async () => {
    const t = await open();
    for (const body of [{}, { payments: [] }, { payments: [{ paymentTypeNumber: 1, amount: 1.00001 }] }, { payments: cash(10), fiscalName: '' }]) {
      const r = await closeT(t.id, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expectUnchanged(t, await stored(t.id));
  });

  it('refuses a payment in fractions of a cent: the receipt prints cents, and its payments would not add up to the total', async () => {
    // Gulyás 6.90 paid 2.304 + 2.304 by card and 2.292 in cash: exact, but printed as 2.30 + 2.30 + 2.29 = 6.89.
    const t = await open();
    const before = fp1.journal.length;
    const r = await closeT(t.id, { payments: [...card(2.304), ...card(2.304), ...cash(2.292)] });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].memberName).toBe('payments[0].amount');
    const refund = await closeT((await open([item(1, 1, { type: 'Negative' })])).id, { payments: cash(-6.895) });
    expect(refund.status).toBe(400);
    expect(refund.body.errors[0].memberName).toBe('payments[0].amount');
    expect(fp1.journal).toHaveLength(before);
    expectUnchanged(t, await stored(t.id));
    // Cents close it.
    const ok = await closeT(t.id, { payments: [...card(2.3), ...card(2.3), ...cash(2.3)] });
    expect(ok.status).toBe(200);
    expect(ok.body.payments.map((p: any) => p.amount)).toEqual([2.3, 2.3, 2.3]);
  });

  it('refuses a malformed receipt.email before anything is fiscalized', async () => {
    const t = await open();
    const before = fp1.journal.length;
    const r = await closeT(t.id, { payments: cash(10), receipt: { email: 'not an address' } });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].memberName).toBe('receipt.email');
    expect(fp1.journal).toHaveLength(before);
    expect(jobsOf(t.id)).toEqual([]);
    expectUnchanged(t, await stored(t.id));
  });

  it('refuses to close a ticket without items', async () => {
    const t = await open([]);
    const r = await closeT(t.id, { payments: cash(0) });
    expect(r.status).toBe(400);
  });
});

describe('receipt numbers', () => {
  it('are consecutive per fiscal device', async () => {
    const numbers: Record<string, number[]> = { FP1: [], FP2: [] };
    for (const fiscalName of ['FP1', 'FP2', 'FP1', 'FP1', 'FP2']) {
      const t = await open();
      const r = await closeT(t.id, { fiscalName, payments: cash(6.9) });
      expect(r.status).toBe(200);
      numbers[fiscalName].push(r.body.closeInfo.number);
    }
    const consecutive = (ns: number[]) => ns.every((n, i) => i === 0 || n === ns[i - 1] + 1);
    expect(consecutive(numbers.FP1)).toBe(true);
    expect(consecutive(numbers.FP2)).toBe(true);
    expect(numbers.FP1.at(-1)).toBe(fp1.journal.at(-1)!.number);
  });
});

describe('exactly once', () => {
  it('a second close of a closed ticket answers 200 with the stored ticket and issues nothing', async () => {
    const t = await open();
    const first = await expect2xx(closeT(t.id, { payments: cash(10) }));
    const before = fp1.journal.length;
    const again = await closeT(t.id, { payments: cash(50), fiscalName: 'FP2' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first);
    expect(fp1.journal).toHaveLength(before);
  });

  it("a repeated close answers the closed ticket whoever retries it (CONTRACT §11: the waiter may retry from another register), issuing nothing", async () => {
    const t = await open();
    await expect2xx(closeT(t.id, { payments: cash(10) }));
    const before = fp1.journal.length;
    // The other register cannot read the closed sale of another device and user (CONTRACT §12)…
    expect((await hub.call('GET', `/api/tickets/${t.id}`, undefined, { token: other.token })).status).toBe(403);
    // …but its retry of the close is answered with the closed ticket, as §11 says, and issues nothing.
    const r = await closeT(t.id, { payments: cash(10) }, other);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: t.id, state: 'Closed' });
    expect(fp1.journal).toHaveLength(before);
  });

  it('a reply lost after printing: one receipt, the ticket ends closed', async () => {
    const t = await open();
    fp1.inject({ kind: 'dropReplyAfterPrint' });
    const r = await closeT(t.id, { payments: cash(10) });
    expect([200, 503]).toContain(r.status);
    const retry = await closeT(t.id, { payments: cash(10) });
    expect(retry.status).toBe(200);
    expect(retry.body.state).toBe('Closed');
    expect(receiptsOf(t.id)).toHaveLength(1);
    expect(retry.body.closeInfo.number).toBe(receiptsOf(t.id)[0].number);
  });

  it('a device that errs after printing: one receipt, the ticket ends closed', async () => {
    const t = await open();
    fp1.inject({ kind: 'failAfterPrint', code: 'PAPER_OUT' });
    const r = await closeT(t.id, { payments: cash(10) });
    expect([200, 503]).toContain(r.status);
    const retry = await closeT(t.id, { payments: cash(10) });
    expect(retry.status).toBe(200);
    expect(receiptsOf(t.id)).toHaveLength(1);
    expect(retry.body.closeInfo.number).toBe(receiptsOf(t.id)[0].number);
  });

  it('a lost reply the device cannot yet explain: 503, then the retry settles it without printing again', async () => {
    const t = await open();
    // printReceipt prints and loses its reply; asking the device about its last document then fails too.
    fp1.inject({ kind: 'dropReplyAfterPrint' });
    fp1.inject({ kind: 'fail', code: 'OFFLINE' });
    const r = await closeT(t.id, { payments: cash(10) });
    expect(r.status).toBe(503);
    expect(r.body.errorCode).toBe(9);
    expect(r.headers.get('retry-after')).toBeTruthy();
    expect((await stored(t.id)).state).toBe('Opened');
    expect(receiptsOf(t.id)).toHaveLength(1);
    expect(jobsOf(t.id).map((j) => j.state)).toEqual(['Pending']);
    // The receipt may be out: the ticket takes no edit that would make it differ from the receipt.
    const put = await hub.call('PUT', `/api/tickets/${t.id}`, { ...t, items: [item(1, 3)] }, { token: cashier.token });
    expect(put.status).toBe(423);
    expect(put.body.errorCode).toBe(5);
    expect((await hub.call('DELETE', `/api/tickets/${t.id}`, undefined, { token: cashier.token })).status).toBe(423);
    // The retry asks the device first and records the receipt it already issued.
    const retry = await closeT(t.id, { payments: cash(10) });
    expect(retry.status).toBe(200);
    expect(retry.body.closeInfo.number).toBe(receiptsOf(t.id)[0].number);
    expect(receiptsOf(t.id)).toHaveLength(1);
    expect(jobsOf(t.id).map((j) => j.state)).toEqual(['Done']);
  });

  it('a fiscal device holding a receipt still to settle cannot be deleted (403, errorCode 8) until a retry settled it', async () => {
    await expect2xx(hub.call('POST', '/api/fiscaldevices', { name: 'FP3', driver: 'simulator', address: 'sim:fp3' }));
    const fp3 = hub.fiscal.get({ name: 'FP3', driver: 'simulator', address: 'sim:fp3', settings: {} }) as SimulatorFiscalDevice;
    const t = await open();
    fp3.inject({ kind: 'dropReplyAfterPrint' });
    fp3.inject({ kind: 'fail', code: 'OFFLINE' });
    expect((await closeT(t.id, { fiscalName: 'FP3', payments: cash(10) })).status).toBe(503);
    const refused = await hub.call('DELETE', '/api/fiscaldevices/FP3');
    expect([refused.status, refused.body.errorCode]).toEqual([403, 8]);
    expect(refused.body.detail).toContain(t.id);
    // Still there, so the retry can ask it: the ticket closes with the receipt that was out.
    const retry = await closeT(t.id, { fiscalName: 'FP3', payments: cash(10) });
    expect(retry.body).toMatchObject({ state: 'Closed', closeInfo: { fiscalName: 'FP3' } });
    expect((await hub.call('DELETE', '/api/fiscaldevices/FP3')).status).toBe(200);
  });

  it('a receipt of another ticket printed between a lost reply and its retry does not take its number', async () => {
    const a = await open();
    fp1.inject({ kind: 'dropReplyAfterPrint' });
    fp1.inject({ kind: 'fail', code: 'OFFLINE' });
    expect((await closeT(a.id, { payments: cash(10) })).status).toBe(503);
    // The other register closes its ticket on the same printer before the first one retries.
    const b = await open([item(3, 1)], other);
    const closedB = await closeT(b.id, { payments: cash(10) }, other);
    expect(closedB.status).toBe(200);
    const closedA = await closeT(a.id, { payments: cash(10) });
    expect(closedA.status).toBe(200);
    expect(receiptsOf(a.id)).toHaveLength(1);
    expect(receiptsOf(b.id)).toHaveLength(1);
    expect(closedA.body.closeInfo.number).toBe(receiptsOf(a.id)[0].number);
    expect(closedB.body.closeInfo.number).toBe(receiptsOf(b.id)[0].number);
  });

  it('a retry naming other payments stores the payments the receipt was printed with', async () => {
    const t = await open();
    fp1.inject({ kind: 'dropReplyAfterPrint' });
    fp1.inject({ kind: 'fail', code: 'OFFLINE' });
    expect((await closeT(t.id, { payments: card(6.9) })).status).toBe(503);
    const retry = await closeT(t.id, { payments: cash(10) });
    expect(retry.status).toBe(200);
    expect(retry.body.payments).toEqual([{ paymentTypeNumber: 2, amount: 6.9 }]);
    expect(receiptsOf(t.id)).toHaveLength(1);
  });

  it('a retry naming another fiscal device settles the pending receipt on the first one', async () => {
    const t = await open();
    fp1.inject({ kind: 'dropReplyAfterPrint' });
    fp1.inject({ kind: 'fail', code: 'OFFLINE' });
    expect((await closeT(t.id, { payments: cash(10) })).status).toBe(503);
    const fp2 = hub.fiscal.get({ name: 'FP2', driver: 'simulator', address: 'sim:fp2', settings: {} }) as SimulatorFiscalDevice;
    const before2 = fp2.journal.length;
    const retry = await closeT(t.id, { fiscalName: 'FP2', payments: cash(10) });
    expect(retry.status).toBe(200);
    expect(retry.body.closeInfo).toMatchObject({ fiscalName: 'FP1', number: receiptsOf(t.id)[0].number });
    expect(fp2.journal).toHaveLength(before2);
  });

  it('concurrent closes of two tickets on one device, one reply lost: each ticket keeps its own receipt number', async () => {
    const a = await open();
    const b = await open([item(3, 1)], other);
    fp1.delayMs = 20;
    fp1.inject({ kind: 'dropReplyAfterPrint' });
    const [ra, rb] = await Promise.all([closeT(a.id, { payments: cash(10) }), closeT(b.id, { payments: cash(10) }, other)]);
    fp1.delayMs = 0;
    for (const [t, r] of [[a, ra], [b, rb]] as const) {
      const retried = r.status === 200 ? r : await closeT(t.id, { payments: cash(10) });
      expect(retried.status).toBe(200);
      expect(receiptsOf(t.id)).toHaveLength(1);
      expect(retried.body.closeInfo.number).toBe(receiptsOf(t.id)[0].number);
    }
  });

  it('the same Idempotency-Key after a lost HTTP reply returns the closed ticket, no second receipt', async () => {
    const t = await open();
    const key = { 'idempotency-key': `close-${t.id}` };
    const first = await closeT(t.id, { payments: cash(10) }, cashier, key);
    expect(first.status).toBe(200);
    const retry = await closeT(t.id, { payments: cash(10) }, cashier, key);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(receiptsOf(t.id)).toHaveLength(1);
  });

  it('two concurrent closes from two clients: one receipt, the other 423 or the closed ticket', async () => {
    const t = await open();
    fp1.delayMs = 60;
    const [x, y] = await Promise.all([closeT(t.id, { payments: cash(10) }, cashier), closeT(t.id, { payments: cash(10) }, other)]);
    fp1.delayMs = 0;
    const statuses = [x.status, y.status].sort();
    expect(statuses[0]).toBe(200);
    expect([200, 423]).toContain(statuses[1]);
    for (const r of [x, y]) {
      if (r.status === 423) expect(r.body.errorCode).toBe(5);
      else expect(r.body.state).toBe('Closed');
    }
    expect(receiptsOf(t.id)).toHaveLength(1);
  });

  it('a PUT, DELETE or batch action while the ticket is being closed answers 423', async () => {
    const t = await open();
    fp1.delayMs = 80;
    const closing = closeT(t.id, { payments: cash(10) });
    await new Promise((r) => setTimeout(r, 30));
    const put = await hub.call('PUT', `/api/tickets/${t.id}`, { ...t, items: [item(1, 2)] }, { token: other.token });
    const del = await hub.call('DELETE', `/api/tickets/${t.id}`, undefined, { token: other.token });
    const relocate = await hub.call('PATCH', '/api/tickets?action=Relocate', { ids: [t.id], location: { tableName: '9' } }, { token: other.token });
    const closed = await closing;
    fp1.delayMs = 0;
    for (const r of [put, del, relocate]) {
      expect(r.status).toBe(423);
      expect(r.body.errorCode).toBe(5);
    }
    expect(closed.status).toBe(200);
    expect(closed.body.items).toHaveLength(1);
    expect(closed.body.items[0].quantity).toBe(1);
  });
});

describe('fiscal jobs', () => {
  it("a close looks for its device's pending jobs on an index of pending jobs only, however many are done", async () => {
    const t = await open();
    const plans = await plansOf(hub, { method: 'POST', path: `/api/tickets/${t.id}/close`, body: { payments: cash(100) }, token: cashier.token }, 'fiscal_jobs');
    const pending = plans.filter((p) => /state = 'Pending' AND fiscal_name/.test(p.sql));
    expect(pending.length).toBeGreaterThan(0);
    for (const { sql: text, plan } of pending) {
      expect(plan.join(' | '), text).toMatch(/SEARCH fiscal_jobs USING INDEX fiscal_jobs_pending \(fiscal_name=\?\)/);
      expect(plan.join(' | ')).not.toMatch(/SCAN fiscal_jobs|TEMP B-TREE/);
    }
  });
});
