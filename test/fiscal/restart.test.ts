/**
 * A hub stopped between print and commit, then started again on the same data directory: the
 * receipt the printer issued is recorded for its ticket (at start, or at the next close), and one
 * the printer never issued is printed once. The first hub's device call never returns (the printer
 * went silent after fiscalizing and the link waits a minute), which is where a kill would find it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CMD } from '../../drivers/fiscal/datecs/commands.js';
import { startHub, type TestHub } from '../support/hub.js';
import { allJobs, datecsRestaurant, until, type DatecsRestaurant } from './fixture.js';

let dataDir: string;
let first: TestHub;
let second: TestHub | undefined;
let r: DatecsRestaurant;

/** The first hub's link waits a minute for an answer: its close hangs on the device. */
const PATIENT = { FrameTimeoutMs: '60000', Retries: '0', ReconnectMaxMs: '40' };

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'poshub-restart-'));
  first = await startHub({ dataDir });
  r = await datecsRestaurant(first, PATIENT);
});

afterEach(async () => {
  await second?.fiscal.closeAll();
  await second?.close();
  second = undefined;
  await r.sim.close(); // also drops the first hub's hanging connection
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts a close that hangs on the device after `cmd`; "kills" the first hub while it hangs. */
async function killedDuringClose(cmd: number): Promise<string> {
  const t = await r.open();
  r.sim.failAfter(cmd, 'silence');
  const hanging = r.close(t.id).catch(() => undefined);
  await until(() => r.sim.requests.some((q) => q.cmd === cmd));
  expect(allJobs(first).map((j) => j.state)).toEqual(['Pending']);
  // Killed: the server and the database go away with the device call still waiting.
  await first.close();
  void hanging;
  r.sim.resume();
  second = await startHub({ dataDir });
  // The restarted hub's link may be quick: the device answers again.
  await second.call('PUT', '/api/fiscaldevices/DT1', { driver: 'datecs', address: r.sim.address, settings: { FrameTimeoutMs: '40', Retries: '3', ReconnectMaxMs: '40' } });
  return t.id;
}

describe('a hub stopped between print and commit', () => {
  it('settles at start: the issued receipt closes the ticket with its real number, nothing printed again', async () => {
    const id = await killedDuringClose(CMD.closeFiscalReceipt);
    expect(r.sim.memory.receipts).toHaveLength(1);
    expect((await second!.call('GET', `/api/tickets/${id}`)).body.state).toBe('Opened');
    // What main.ts runs at start: poll every device and settle what was left pending.
    await second!.services.fiscalMonitor.poll();
    const ticket = (await second!.call('GET', `/api/tickets/${id}`)).body;
    expect(ticket).toMatchObject({ state: 'Closed', closeInfo: { fiscalName: 'DT1', number: r.sim.memory.receipts[0].number, deviceName: r.cashier.device } });
    expect(ticket.payments).toEqual([{ paymentTypeNumber: 1, amount: 20 }]);
    expect(allJobs(second!).map((j) => j.state)).toEqual(['Done']);
    expect(r.sim.memory.receipts).toHaveLength(1);
    // The cashier's retry answers the closed ticket.
    const retry = await second!.call('POST', `/api/tickets/${id}/close`, { fiscalName: 'DT1', payments: [{ paymentTypeNumber: 1, amount: 20 }] }, { token: r.cashier.token });
    expect(retry.status).toBe(200);
    expect(retry.body.closeInfo.number).toBe(ticket.closeInfo.number);
    expect(r.sim.memory.receipts).toHaveLength(1);
  });

  it('settles at the next close of that ticket when nothing ran at start', async () => {
    const id = await killedDuringClose(CMD.closeFiscalReceipt);
    const retry = await second!.call('POST', `/api/tickets/${id}/close`, { fiscalName: 'DT1', payments: [{ paymentTypeNumber: 1, amount: 20 }] }, { token: r.cashier.token });
    expect(retry.status).toBe(200);
    expect(retry.body.closeInfo.number).toBe(r.sim.memory.receipts[0].number);
    expect(r.sim.memory.receipts).toHaveLength(1);
  });

  it('settles before another ticket prints on the same device', async () => {
    const id = await killedDuringClose(CMD.closeFiscalReceipt);
    const other = (await second!.call('POST', '/api/tickets', { items: [{ plu: { code: 3, stockName: 'Menu' }, quantity: 1 }] }, { token: r.cashier.token })).body;
    const closed = await second!.call('POST', `/api/tickets/${other.id}/close`, { fiscalName: 'DT1', payments: [{ paymentTypeNumber: 1, amount: 5 }] }, { token: r.cashier.token });
    expect(closed.status).toBe(200);
    const first = (await second!.call('GET', `/api/tickets/${id}`)).body;
    expect(first.closeInfo.number).toBe(r.receiptsOf(id)[0].number);
    expect(closed.body.closeInfo.number).toBe(r.receiptsOf(other.id)[0].number);
    expect(r.sim.memory.receipts).toHaveLength(2);
  });

  it('a receipt the printer never issued (stopped mid-receipt) is printed once by the next close', async () => {
    const id = await killedDuringClose(CMD.sale);
    expect(r.sim.openReceipt).not.toBeNull();
    await second!.services.fiscalMonitor.poll();
    expect((await second!.call('GET', `/api/tickets/${id}`)).body.state).toBe('Opened');
    expect(allJobs(second!).map((j) => j.state)).toEqual(['Failed']);
    const retry = await second!.call('POST', `/api/tickets/${id}/close`, { fiscalName: 'DT1', payments: [{ paymentTypeNumber: 1, amount: 20 }] }, { token: r.cashier.token });
    expect(retry.status).toBe(200);
    expect(r.sim.memory.receipts).toHaveLength(1);
    expect(r.sim.memory.day.voided).toBe(1);
    expect(retry.body.closeInfo.number).toBe(r.sim.memory.receipts[0].number);
  });
});
