import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeEscPosPrinter, type FakeDialect } from '../support/fake-escpos-printer.js';
import { startHub, type TestHub } from '../support/hub.js';
import { FAST_PRINTING, kitchen, ok, order, ordersOf, ticketsWith, until, type Kitchen } from './setup.js';

const hubs: TestHub[] = [];
const dirs: string[] = [];
/** A data directory that survives the hub's close, for restarts. */
function keptDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'poshub-print-'));
  dirs.push(d);
  return d;
}
const printers: FakeEscPosPrinter[] = [];

async function fake(dialect: FakeDialect = 'escpos'): Promise<FakeEscPosPrinter> {
  const p = await FakeEscPosPrinter.start(0, { dialect });
  printers.push(p);
  return p;
}
async function open(ps: Record<string, FakeEscPosPrinter>, opts: Parameters<typeof kitchen>[1] = {}): Promise<Kitchen> {
  const k = await kitchen(ps, opts);
  hubs.push(k.hub);
  return k;
}

afterEach(async () => {
  for (const h of hubs.splice(0)) await h.close();
  for (const p of printers.splice(0)) await p.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const printState = async (k: Kitchen, ticketId: string) => (await ordersOf(k, ticketId))[0]?.print;
const jobsOf = (hub: TestHub) => hub.db.$client.prepare('SELECT kind, state, attempts FROM print_jobs ORDER BY rowid').all() as Array<{ kind: string; state: string; attempts: number }>;

describe('print queue', () => {
  it("prints a ticket's dishes as a kitchen order and marks the order printed (seen in the change log)", async () => {
    const kp = await fake();
    const k = await open({ Kuchyňa: kp });
    const t = await order(k, 'Stôl 5', ['Kuchyňa'], 2);
    await kp.waitFor(() => kp.cutTickets().length === 1);
    const [ticket] = kp.cutTickets();
    expect(ticket[0]).toBe('Kuchyňa');
    expect(ticket).toContain('2 x Šopský šalát 1');
    expect(ticket.find((l) => l.startsWith('Table'))).toMatch(/5 \/ Terasa$/);
    expect(ticket.find((l) => l.startsWith('Waiter'))).toMatch(/Jana Kováčová$/);
    expect(ticket.find((l) => l.startsWith('Time'))).toMatch(/21\.11\.2026 11:00$/); // 10:00 UTC in Bratislava
    expect(ticket.some((l) => /REPRINT|COPY|CANCEL/.test(l))).toBe(false);
    const print = await until(() => printState(k, t.id), (p) => p.state === 'Printed');
    expect(print).toMatchObject({ state: 'Printed', attempts: 1, lastError: null, printedAt: '2026-11-21T10:00:00.000Z' });
    const changes = await ok(k.hub.call('GET', '/api/changes?since=0'));
    expect(changes.items.filter((c: any) => c.resource === 'orders').length).toBeGreaterThanOrEqual(3); // created, printing, printed
  });

  it("in a Slovak shop (POS_HUB_LOCALE=sk) the kitchen order and the bill come out in Slovak, amounts with a decimal comma", async () => {
    const kp = await fake();
    const k = await open({ Kuchyňa: kp }, { locale: 'sk' });
    const t = await order(k, 'Stôl 5', ['Kuchyňa'], 2);
    await kp.waitFor(() => kp.cutTickets().length === 1);
    const [ticket] = kp.cutTickets();
    expect(ticket.find((l) => l.startsWith('Objednávka'))).toMatch(/#[0-9A-F]{6}$/);
    expect(ticket.find((l) => l.startsWith('Stôl'))).toMatch(/5 \/ Terasa$/);
    expect(ticket.find((l) => l.startsWith('Čašník'))).toMatch(/Jana Kováčová$/);
    expect(ticket.some((l) => /^(Order|Table|Waiter|Time)\b/.test(l))).toBe(false);
    await ok(k.hub.call('POST', `/api/tickets/${t.id}/print_preliminary_ticket`, { orderEndpointName: 'Kuchyňa' }, { token: k.token }));
    await kp.waitFor(() => kp.cutTickets().length === 2);
    const bill = kp.cutTickets()[1];
    expect(bill.slice(0, 2)).toEqual(['ÚČET', 'Nie je pokladničný doklad']);
    expect(bill.find((l) => l.startsWith('SPOLU'))).toMatch(/9,00$/);
  });

  it('paper out at order time: the order waits visibly, and prints exactly once when refilled', async () => {
    const kp = await fake();
    kp.setPaperOut(true);
    const k = await open({ Kitchen: kp });
    const t = await order(k, 'Table 1', ['Kitchen']);
    const waiting = await until(() => printState(k, t.id), (p) => p.state === 'Waiting');
    expect(waiting).toMatchObject({ attempts: 0, lastError: expect.stringMatching(/^PAPER_OUT/) });
    const status = await ok(k.hub.call('GET', '/api/orderendpoints/Kitchen/status'));
    expect(status).toMatchObject({ name: 'Kitchen', online: false, paper: 'out', cover: 'closed', queueDepth: 1, lastError: expect.stringMatching(/PAPER_OUT/), worker: 'waiting' });
    await new Promise((r) => setTimeout(r, 150)); // several retries while out of paper
    expect(kp.tickets).toEqual([]);
    kp.setPaperOut(false);
    await until(() => printState(k, t.id), (p) => p.state === 'Printed');
    await new Promise((r) => setTimeout(r, 150));
    expect(ticketsWith(kp, ' Table 1')).toHaveLength(1);
    expect(kp.tickets).toHaveLength(1);
  });

  it('paper running out in the middle of a job: held inside the printer, finished once refilled, printed once and unmarked', async () => {
    const kp = await fake();
    kp.lineDelayMs = 10;
    const k = await open({ Kitchen: kp });
    kp.once('line', () => kp.setPaperOut(true));
    const t = await order(k, 'Table 2', ['Kitchen']);
    await until(() => printState(k, t.id), (p) => p.state === 'Waiting');
    expect(kp.cutTickets()).toEqual([]);
    kp.setPaperOut(false);
    const print = await until(() => printState(k, t.id), (p) => p.state === 'Printed');
    expect(print.attempts).toBe(1);
    expect(kp.tickets).toHaveLength(1);
    expect(kp.cutTickets()[0].some((l) => l.includes('REPRINT'))).toBe(false);
  });

  it('cover open: waits with COVER_OPEN, prints once when closed', async () => {
    const kp = await fake();
    kp.setCoverOpen(true);
    const k = await open({ Kitchen: kp });
    const t = await order(k, 'Table 3', ['Kitchen']);
    expect(await until(() => printState(k, t.id), (p) => p.state === 'Waiting')).toMatchObject({ lastError: expect.stringMatching(/^COVER_OPEN/) });
    expect((await ok(k.hub.call('GET', '/api/orderendpoints/Kitchen/status'))).cover).toBe('open');
    kp.setCoverOpen(false);
    await until(() => printState(k, t.id), (p) => p.state === 'Printed');
    expect(kp.cutTickets()).toHaveLength(1);
  });

  it('printer off at order time: the order waits as offline, and prints once when the printer is back', async () => {
    const kp = await fake();
    await kp.setRefusing(true);
    const k = await open({ Kitchen: kp });
    const t = await order(k, 'Table 4', ['Kitchen']);
    expect(await until(() => printState(k, t.id), (p) => p.state === 'Waiting')).toMatchObject({ attempts: 0, lastError: expect.stringMatching(/^OFFLINE/) });
    expect(await ok(k.hub.call('GET', '/api/orderendpoints/Kitchen/status'))).toMatchObject({ online: false, queueDepth: 1 });
    await kp.setRefusing(false);
    await until(() => printState(k, t.id), (p) => p.state === 'Printed', 3000);
    await new Promise((r) => setTimeout(r, 150));
    expect(kp.cutTickets()).toHaveLength(1);
    expect(await ok(k.hub.call('GET', '/api/orderendpoints/Kitchen/status'))).toMatchObject({ online: true, paper: 'ok', queueDepth: 0, lastError: null });
  });

  it('a printer that takes the connection but never reads: nothing is sent, the order waits', async () => {
    const kp = await fake();
    kp.setNeverRead(true);
    const k = await open({ Kitchen: kp });
    const t = await order(k, 'Table 5', ['Kitchen']);
    expect(await until(() => printState(k, t.id), (p) => p.state === 'Waiting')).toMatchObject({ attempts: 0, lastError: expect.stringMatching(/^TIMEOUT/) });
    kp.setNeverRead(false);
    await until(() => printState(k, t.id), (p) => p.state === 'Printed', 3000);
    expect(kp.cutTickets()).toHaveLength(1);
  });

  it('connection dropped mid-job: the job is printed again once, marked REPRINT', async () => {
    const kp = await fake();
    kp.dropAfter = 12 + 40; // the status request, then part of the ticket
    const k = await open({ Kitchen: kp });
    const t = await order(k, 'Table 6', ['Kitchen']);
    const print = await until(() => printState(k, t.id), (p) => p.state === 'Printed');
    expect(print.attempts).toBe(2);
    expect(kp.tickets.filter((x) => !x.cut)).toHaveLength(1); // the torn-off fragment
    const cut = kp.cutTickets();
    expect(cut).toHaveLength(1);
    expect(cut[0][0]).toBe(' ** REPRINT ** ');
    expect(cut[0][cut[0].length - 1]).toBe(' ** REPRINT ** ');
  });

  it('orders of one ticket write to two printers go to each printer once', async () => {
    const [a, b] = [await fake(), await fake()];
    const k = await open({ Kitchen: a, Bar: b });
    await order(k, 'Table 7', ['Kitchen', 'Bar']);
    await a.waitFor(() => a.cutTickets().length === 1);
    await b.waitFor(() => b.cutTickets().length === 1);
    expect(a.cutTickets()[0][0]).toBe('Kitchen');
    expect(b.cutTickets()[0][0]).toBe('Bar');
  });

  it('a cancel order (storno) prints with its CANCEL banners and minus quantities', async () => {
    const kp = await fake();
    const k = await open({ Kitchen: kp });
    const token = k.token;
    const t = await ok(k.hub.call('POST', '/api/tickets', { name: 'Table 8', items: [{ plu: { code: 1, stockName: 'Menu' }, quantity: 3 }] }, { token }));
    await ok(k.hub.call('PUT', `/api/tickets/${t.id}`, { ...t, items: [{ ...t.items[0], quantity: 1 }] }, { token }));
    await kp.waitFor(() => kp.cutTickets().length === 2);
    const cancel = kp.cutTickets()[1];
    expect(cancel[0]).toBe(' CANCEL ');
    expect(cancel).toContain('-2 x Šopský šalát 1');
  });

  it('hub restarted with jobs queued: every job prints once after the restart, in order', async () => {
    const kp = await fake();
    await kp.setRefusing(true);
    const dataDir = keptDir();
    const first = await kitchen({ Kitchen: kp }, { dataDir });
    const names = ['R1', 'R2', 'R3'];
    for (const n of names) await order(first, n, ['Kitchen']);
    await until(() => jobsOf(first.hub), (j) => j[0].state === 'Waiting'); // the later ones queue behind it
    await first.hub.close();

    await kp.setRefusing(false);
    const again = await startHub({ printing: FAST_PRINTING, dataDir });
    hubs.push(again);
    await kp.waitFor(() => kp.cutTickets().length === 3);
    await new Promise((r) => setTimeout(r, 150));
    expect(kp.cutTickets().map((t) => t.find((l) => l.startsWith('Ticket'))!.split(' ').pop())).toEqual(names);
    expect(jobsOf(again).map((j) => [j.state, j.attempts])).toEqual([['Printed', 1], ['Printed', 1], ['Printed', 1]]);
  });

  it('hub stopped while a job was printing: after the restart the job is unknown and printed again marked REPRINT', async () => {
    const kp = await fake();
    await kp.setRefusing(true);
    const dataDir = keptDir();
    const first = await kitchen({ Kitchen: kp }, { dataDir });
    const t = await order(first, 'U1', ['Kitchen']);
    await first.hub.close();
    // What a crash between "Printing" and the printer's reply leaves behind (a crash runs no handler).
    const { openDb, closeDb } = await import('../../db/client.js');
    const db = openDb(`${dataDir}/hub.sqlite`);
    db.$client.prepare("UPDATE print_jobs SET state = 'Printing', attempts = 1").run();
    closeDb(db);

    await kp.setRefusing(false);
    const again = await startHub({ printing: FAST_PRINTING, dataDir });
    hubs.push(again);
    await kp.waitFor(() => kp.cutTickets().length === 1);
    expect(kp.cutTickets()[0][0]).toBe(' ** REPRINT ** ');
    const print = (await ok(again.call('GET', `/api/orders?ticketId=${t.id}`))).items[0].print;
    expect(print).toMatchObject({ state: 'Printed', attempts: 2 });
    await new Promise((r) => setTimeout(r, 150));
    expect(kp.cutTickets()).toHaveLength(1);
  });

  it('100 orders to 3 printers at once: each printed exactly once, in order per printer', async () => {
    const ps = { A: await fake(), B: await fake(), C: await fake() };
    for (const p of Object.values(ps)) p.lineDelayMs = 0;
    const k = await open(ps);
    const names = Array.from({ length: 100 }, (_, i) => `N${String(i).padStart(3, '0')}`);
    const target = (i: number) => (['A', 'B', 'C'] as const)[i % 3];
    // Ten registers writing at once.
    for (let i = 0; i < names.length; i += 10) await Promise.all(names.slice(i, i + 10).map((n, j) => order(k, n, [target(i + j)])));
    await until(() => Object.values(ps).reduce((n, p) => n + p.cutTickets().length, 0), (n) => n === 100, 15_000);
    await new Promise((r) => setTimeout(r, 200));
    const written = k.hub.db.$client
      .prepare("SELECT j.endpoint_name AS e, json_extract(o.doc, '$.ticketName') AS name FROM print_jobs j JOIN orders o ON o.id = j.ref_id ORDER BY j.rowid")
      .all() as Array<{ e: string; name: string }>;
    for (const [name, p] of Object.entries(ps)) {
      const printed = p.cutTickets().map((t) => t.find((l) => l.startsWith('Ticket'))!.split(' ').pop());
      expect(printed).toEqual(written.filter((w) => w.e === name).map((w) => w.name));
      expect(new Set(printed).size).toBe(printed.length);
    }
    expect(jobsOf(k.hub).every((j) => j.state === 'Printed' && j.attempts === 1)).toBe(true);
  }, 30_000);
});

describe('Star printers (Star Line mode)', () => {
  it('order endpoints take the models TM88, SRP350, Generic, TSP650, TSP100 and Tablet; another type or a bad QrCode is 400', async () => {
    const hub = await startHub();
    hubs.push(hub);
    const put = (name: string, body: Record<string, unknown>) => hub.call('POST', '/api/orderendpoints', { name, address: 'tcp://127.0.0.1:9', isActive: false, ...body });
    for (const type of ['TM88', 'SRP350', 'Generic', 'TSP650', 'TSP100', 'tsp650', 'Tablet']) expect((await put(`P-${type}`, { type })).status).toBe(201);
    expect((await ok(hub.call('GET', '/api/orderendpoints/P-tsp650'))).type).toBe('TSP650');
    for (const type of ['TSP143', 'Star', 'TM99', '']) {
      const r = await put('Bad', { type });
      expect(r.status).toBe(400);
      expect(r.body.errors[0].memberName).toBe('type');
    }
    expect((await put('Q1', { type: 'TSP650', settings: { QrCode: 'https://pay.example/t/{ticket}?eur={total}' } })).status).toBe(201);
    for (const QrCode of ['https://pay.example/{number}', 'https://kuchyňa.sk/{ticket}']) {
      const r = await put('Q2', { type: 'TM88', settings: { QrCode } });
      expect(r.status).toBe(400);
      expect(r.body.errors[0]).toMatchObject({ memberName: 'settings', message: expect.stringMatching(/^QrCode: /) });
    }
  });

  it('a TSP650 endpoint prints a kitchen order the Star fake decodes, Printed once the printer counted the ETB after it', async () => {
    const sp = await fake('star');
    const k = await open({ Gril: sp }, { type: 'TSP650' });
    const t = await order(k, 'Stôl 7', ['Gril'], 2);
    await sp.waitFor(() => sp.cutTickets().length === 1);
    const [ticket] = sp.cutTickets();
    expect(ticket[0]).toBe('Gril');
    expect(ticket).toContain('2 x Šopský šalát 1');
    expect(ticket.find((l) => l.startsWith('Ticket'))).toBe('Ticket' + ' '.repeat(48 - 6 - 6) + 'Stôl 7'); // 48 columns
    expect(sp.tickets[0].lines[0]).toMatchObject({ align: 'center', bold: true });
    const print = await until(() => printState(k, t.id), (p) => p.state === 'Printed');
    expect(print).toMatchObject({ attempts: 1, lastError: null });
    expect(sp.etbCounter).toBe(1);
    expect(await ok(k.hub.call('GET', '/api/orderendpoints/Gril/status'))).toMatchObject({ type: 'TSP650', online: true, paper: 'ok', cover: 'closed' });
  });

  it('a TSP100 out of paper holds the order, visibly; refilled, it prints once', async () => {
    const sp = await fake('star');
    sp.setPaperOut(true);
    const k = await open({ Gril: sp }, { type: 'TSP100' });
    const t = await order(k, 'S2', ['Gril']);
    await until(() => printState(k, t.id), (p) => p.state === 'Waiting' && /PAPER_OUT/.test(p.lastError ?? ''));
    sp.setPaperOut(false);
    await until(() => printState(k, t.id), (p) => p.state === 'Printed');
    expect(sp.cutTickets()).toHaveLength(1);
  });
});

describe('reprint, status and health', () => {
  it('POST /api/orders/{id}/reprint prints a COPY and leaves the original order printed', async () => {
    const kp = await fake();
    const k = await open({ Kitchen: kp });
    const t = await order(k, 'Table 9', ['Kitchen']);
    const [o] = await ordersOf(k, t.id);
    await until(() => printState(k, t.id), (p) => p.state === 'Printed');
    const r = await k.hub.call('POST', `/api/orders/${o.id}/reprint`, undefined, { token: k.token });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ orderId: o.id, orderEndpointName: 'Kitchen', kind: 'reprint', state: 'Queued' });
    await kp.waitFor(() => kp.cutTickets().length === 2);
    const copy = kp.cutTickets()[1];
    expect(copy[0]).toBe(' ** COPY ** ');
    expect(copy).toContain('1 x Šopský šalát 1');
    expect(await printState(k, t.id)).toMatchObject({ state: 'Printed', attempts: 1 });
  });

  it('reprint needs a token, a known order and a printing endpoint', async () => {
    const kp = await fake();
    const k = await open({ Kitchen: kp });
    const t = await order(k, 'Table 10', ['Kitchen']);
    const [o] = await ordersOf(k, t.id);
    expect((await k.hub.call('POST', `/api/orders/${o.id}/reprint`, undefined, { token: null })).status).toBe(401);
    expect((await k.hub.call('POST', '/api/orders/nope/reprint', undefined, { token: k.token })).status).toBe(404);
    await ok(k.hub.call('PUT', '/api/orderendpoints/Kitchen', { type: 'TM88', address: kp.address, isActive: false }));
    expect((await k.hub.call('POST', `/api/orders/${o.id}/reprint`, undefined, { token: k.token })).status).toBe(403);
  });

  it('POST /api/orderendpoints/{name}/test prints a test page; it needs OrderEndpointUpdate and a printer', async () => {
    const kp = await fake();
    const k = await open({ Kitchen: kp });
    const r = await k.hub.call('POST', '/api/orderendpoints/Kitchen/test');
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ orderEndpointName: 'Kitchen', kind: 'test', state: 'Queued' });
    await kp.waitFor(() => kp.cutTickets().length === 1);
    expect(kp.cutTickets()[0].join('\n')).toContain('Test page: Kitchen');
    const waiter = await k.hub.call('POST', '/api/orderendpoints/Kitchen/test', undefined, { token: k.token });
    expect(waiter.status).toBe(403);
    expect(waiter.body.errorCode).toBe(2);
    expect((await k.hub.call('POST', '/api/orderendpoints/Nope/test')).status).toBe(404);
    await ok(k.hub.call('POST', '/api/orderendpoints', { name: 'Screen', type: 'Tablet', address: 'pass' }));
    expect((await k.hub.call('POST', '/api/orderendpoints/Screen/test')).status).toBe(403);
  });

  it('GET /api/orderendpoints/{name}/status and /api/health show each printer', async () => {
    const kp = await fake();
    const k = await open({ Kitchen: kp });
    await ok(k.hub.call('POST', '/api/orderendpoints', { name: 'KDS', type: 'Tablet', address: 'kitchen screen' }));
    await order(k, 'Table 11', ['Kitchen']);
    await kp.waitFor(() => kp.cutTickets().length === 1);
    const s = await until(() => ok(k.hub.call('GET', '/api/orderendpoints/Kitchen/status')), (x: any) => x.queueDepth === 0);
    expect(s).toEqual({ name: 'Kitchen', type: 'TM88', address: kp.address, isActive: true, online: true, paper: 'ok', cover: 'closed', queueDepth: 0, lastError: null, worker: 'idle' });
    expect(await ok(k.hub.call('GET', '/api/orderendpoints/KDS/status'))).toMatchObject({ online: null, worker: 'none', queueDepth: 0 });
    expect((await k.hub.call('GET', '/api/orderendpoints/Nope/status')).status).toBe(404);
    expect((await k.hub.call('GET', '/api/orderendpoints/Kitchen/status', undefined, { token: null })).status).toBe(401);
    expect((await ok(k.hub.call('GET', '/api/health', undefined, { token: null }))).printers).toBeUndefined();
    const health = await ok(k.hub.call('GET', '/api/health', undefined, { token: k.token }));
    expect(health.printers).toEqual([
      { name: 'KDS', type: 'Tablet', isActive: true, status: { online: null, paper: 'unknown', cover: 'unknown', lastError: null, worker: 'none' }, queueDepth: 0 },
      { name: 'Kitchen', type: 'TM88', isActive: true, status: { online: true, paper: 'ok', cover: 'closed', lastError: null, worker: 'idle' }, queueDepth: 0 },
    ]);
  });

  it('prints the preliminary bill on the asked endpoint', async () => {
    const kp = await fake();
    const k = await open({ Kitchen: kp });
    const t = await order(k, 'Table 12', ['Kitchen'], 2);
    await kp.waitFor(() => kp.cutTickets().length === 1);
    expect((await k.hub.call('POST', `/api/tickets/${t.id}/print_preliminary_ticket`, { orderEndpointName: 'Kitchen' }, { token: k.token })).status).toBe(204);
    await kp.waitFor(() => kp.cutTickets().length === 2);
    const bill = kp.cutTickets()[1];
    expect(bill.slice(0, 2)).toEqual(['BILL', 'Not a fiscal receipt']);
    expect(bill).toContain('Šopský šalát 1');
    expect(bill.find((l) => l.startsWith('TOTAL'))).toMatch(/ 9\.00$/);
  });

  it('prints a QR code of the ticket id at the foot of the bill when the endpoint has QrCode "true"', async () => {
    const kp = await fake();
    const k = await open({ Kitchen: kp }, { settings: { QrCode: 'true' } });
    const t = await order(k, 'Table 14', ['Kitchen']);
    await kp.waitFor(() => kp.cutTickets().length === 1);
    expect(kp.tickets[0].qr).toEqual([]); // kitchen orders carry none
    expect((await k.hub.call('POST', `/api/tickets/${t.id}/print_preliminary_ticket`, { orderEndpointName: 'Kitchen' }, { token: k.token })).status).toBe(204);
    await kp.waitFor(() => kp.cutTickets().length === 2);
    expect(kp.tickets[1].qr).toEqual([t.id]);
    expect(kp.cutTickets()[1].slice(-3)).toEqual(['Printed for jana', '', '']);
  });

  it('follows an endpoint edit without a restart', async () => {
    const [a, b] = [await fake(), await fake()];
    const k = await open({ Kitchen: a });
    await order(k, 'E1', ['Kitchen']);
    await a.waitFor(() => a.cutTickets().length === 1);
    await ok(k.hub.call('PUT', '/api/orderendpoints/Kitchen', { type: 'SRP350', address: b.address, settings: { HighlightOrderNumber: 'true' } }));
    await order(k, 'E2', ['Kitchen']);
    await b.waitFor(() => b.cutTickets().length === 1);
    expect(b.cutTickets()[0][1]).toMatch(/^#[0-9A-F]{6}$/);
    expect(a.cutTickets()).toHaveLength(1);
  });
});
