/**
 * Crash safety (issue 9): writes are driven at the real process, which is killed with SIGKILL at
 * random moments and restarted, several times. Every acknowledged write must be there afterwards,
 * the database must pass integrity_check, queued print jobs must survive, and no fiscal receipt may
 * be issued twice (closes cut off mid-way are retried and reconciled, not re-printed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDbFile, closeDb, openDb } from '../../db/client.js';
import { E2E_ADMIN_PASSWORD, startHubProcess, type HubProcess } from '../support/process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'poshub-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const ROUNDS = 4;

/** Every item of a list, page by page ($take is at most 1000, and a run may close more tickets). */
async function all<T>(hub: HubProcess, path: string, token: string): Promise<T[]> {
  const items: T[] = [];
  for (;;) {
    const page = (await hub.call('GET', `${path}&$take=1000&$skip=${items.length}`, undefined, { token })).body as { items: T[]; totalCount: number };
    items.push(...page.items);
    if (!page.items.length || items.length >= page.totalCount) return items;
  }
}

async function setup(hub: HubProcess): Promise<void> {
  const admin = await hub.login('admin', E2E_ADMIN_PASSWORD, 'BackOffice');
  const ok = async (method: string, path: string, body: unknown) => {
    const r = await hub.call(method, path, body, { token: admin });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  };
  await ok('POST', '/api/stocks', { name: 'Menu' });
  await ok('POST', '/api/orderendpoints', { name: 'Kitchen', type: 'TM88', address: 'tcp://127.0.0.1:9' });
  await ok('POST', '/api/plus', { code: 1, stockName: 'Menu', name: 'Gulyás', type: 'Service', unitPrice: { amount: 6.9 }, orderEndpointNames: ['Kitchen'] });
  await ok('POST', '/api/fiscaldevices', { name: 'FP1', driver: 'simulator', address: 'sim:fp1' });
  await ok('POST', '/api/devices', { name: 'Till', envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1' } });
  await ok('POST', '/api/users', { userName: 'eva', password: 'pw', rights: ['TicketCreate', 'TicketUpdate', 'TicketClose', 'CustomerCreate', 'CustomerRead'] });
}

describe('crash safety', () => {
  it('keeps every acknowledged write through repeated SIGKILLs and never fiscalizes twice', async () => {
    const ackedCustomers = new Set<string>();
    const ackedTickets = new Set<string>();
    const ackedCloses = new Map<string, number>();
    let hub = await startHubProcess({}, { dataDir });
    await setup(hub);
    for (let round = 0; round < ROUNDS; round++) {
      const token = await hub.login('eva', 'pw', 'Till');
      let stop = false;
      const writer = async (w: number) => {
        for (let i = 0; !stop; i++) {
          try {
            const c = await hub.call('POST', '/api/customers', { firstName: `R${round}`, lastName: `W${w}-${i}` }, { token });
            if (c.status === 201) ackedCustomers.add(c.body.id);
            const t = await hub.call('POST', '/api/tickets', { items: [{ plu: { code: 1, stockName: 'Menu' }, quantity: 1 }] }, { token });
            if (t.status !== 201) continue;
            ackedTickets.add(t.body.id);
            const closed = await hub.call('POST', `/api/tickets/${t.body.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 6.9 }] }, { token });
            if (closed.status === 200) ackedCloses.set(t.body.id, closed.body.closeInfo.number);
          } catch {
            return; // the process is gone
          }
        }
      };
      const writers = [0, 1, 2].map(writer);
      await new Promise((r) => setTimeout(r, 400 + Math.floor(Math.random() * 1200)));
      process.kill(-hub.child.pid!, 'SIGKILL');
      stop = true;
      await Promise.all(writers);
      await hub.exit;
      hub = await startHubProcess({}, { dataDir });
    }

    // Every close the crashes cut off is retried: it must settle against the device, not print again.
    const token = await hub.login('eva', 'pw', 'Till');
    const open = await all<{ id: string }>(hub, '/api/tickets?IsClosed=false', token);
    for (const t of open) {
      // Right after a start the hub settles receipts a crash left pending, so a close may be told to
      // come back (423, or 503 while the device is asked); a register retries, and so does this.
      let r = await hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 6.9 }] }, { token });
      for (let attempt = 0; attempt < 20 && (r.status === 423 || r.status === 503); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        r = await hub.call('POST', `/api/tickets/${t.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 6.9 }] }, { token });
      }
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }

    // Read back in pages, not one request per id (hundreds of them).
    const customers = new Set((await all<{ id: string }>(hub, '/api/customers?', token)).map((c) => c.id));
    expect([...ackedCustomers].filter((id) => !customers.has(id))).toEqual([]);
    const tickets = new Map((await all<{ id: string; state: string; closeInfo: { number: number } | null }>(hub, '/api/tickets?', token)).map((t) => [t.id, t]));
    expect([...ackedTickets].filter((id) => !tickets.has(id))).toEqual([]);
    for (const [id, number] of ackedCloses) expect({ id, state: tickets.get(id)?.state, number: tickets.get(id)?.closeInfo?.number }).toEqual({ id, state: 'Closed', number });
    const closed = await all<{ closeInfo: { number: number } }>(hub, '/api/tickets?IsClosed=true', token);
    const numbers = closed.map((t) => t.closeInfo.number).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect((await hub.stop()).code).toBe(0);

    expect(checkDbFile(join(dataDir, 'hub.sqlite'))).toBeNull();
    const db = openDb(join(dataDir, 'hub.sqlite'));
    try {
      // The simulator's fiscal memory: as many receipts issued as tickets closed, numbered 1..n.
      const sim = JSON.parse((db.$client.prepare(`SELECT value FROM meta WHERE key = 'device:simulator:FP1'`).get() as { value: string }).value);
      expect(sim.receiptNumber).toBe(closed.length);
      expect(numbers).toEqual(Array.from({ length: closed.length }, (_, i) => i + 1));
      // Every kitchen order of an acknowledged ticket kept its print job.
      const orphans = db.$client
        .prepare(`SELECT count(*) AS n FROM orders o WHERE o.kind = 'New' AND NOT EXISTS (SELECT 1 FROM print_jobs j WHERE j.ref_id = o.id)`)
        .get() as { n: number };
      expect(orphans.n).toBe(0);
    } finally {
      closeDb(db);
    }
    expect(ackedTickets.size).toBeGreaterThan(0);
  }, 240_000);
});
