/**
 * Issue 28, point 1: the running sales totals count each closed ticket exactly once, whatever the
 * history. Random histories, each replayable by its seed, on a real hub (a SQLite file, the HTTP API,
 * the simulator fiscal device): sales with item and ticket discounts, options with prices, own prices
 * and change; stornos and deleted tickets (voids); returns; X and Z reports on two fiscal devices;
 * the clock jumping forward and back, and tickets closed long before the hub's first start (as
 * `seed:demo` does); restarts of the hub, some of them in the middle of counting earlier tickets after
 * the totals were rebuilt as migration 0016 rebuilds them (from a store whose totals were doubled).
 *
 * The property, at every X report and at the end: every grouping of the sales report (product,
 * category, waiter, register, VAT rate, payment type, hour, day, month) over whole months and over
 * day ranges equals a plain sum over the closed tickets as the API lists them (./sums.ts); the voids
 * equal what the history voided; and each fiscal day's figures equal the device's own X report, the
 * Z reports it printed, and the plain sums of the tickets closed on that day.
 *
 * POSHUB_PROPERTY_SEEDS=1-200 runs more histories (a failing seed is named in the failure).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Decimal } from 'decimal.js';
import { afterEach, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/client.js';
import { FakeClock } from '../../hub/core/clock.js';
import { createLogger } from '../../hub/core/log.js';
import { backfillBatch } from '../../hub/reports/store.js';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';
import { Random } from '../support/random.js';
import { ALL_TICKET_RIGHTS, expect2xx, item, register, restaurant } from '../tickets/fixture.js';
import { asRows, D, localDay, localHour, paidByType, r2, shares, sumBy, total, vatByRate } from './sums.js';
import { salesRepairStatements } from '../support/sales-repair.js';

const TZ = 'Europe/Bratislava';
const START = '2026-11-21T08:00:00Z';
const silent = createLogger('silent');

function seeds(): number[] {
  const m = /^(\d+)-(\d+)$/.exec(process.env.POSHUB_PROPERTY_SEEDS ?? '');
  if (!m) return [1, 2, 3, 4];
  return Array.from({ length: Number(m[2]) - Number(m[1]) + 1 }, (_, i) => Number(m[1]) + i);
}

/** The menu: price, VAT rate and category of each plu (codes 1-5 come from the ticket fixture). */
const MENU: Record<number, { price: number; rate: number; category: string | null }> = {
  1: { price: 6.9, rate: 20, category: null },
  2: { price: 4.5, rate: 20, category: null },
  3: { price: 2.2, rate: 20, category: null },
  4: { price: 0.1, rate: 20, category: null },
  5: { price: 0.2, rate: 20, category: null },
  10: { price: 7.5, rate: 20, category: 'Jedlá' },
  11: { price: 1.9, rate: 10, category: 'Nápoje' },
  12: { price: 1.8, rate: 10, category: 'Nápoje' },
  13: { price: 3.33, rate: 5, category: 'Nápoje' },
};
const CODES = Object.keys(MENU).map(Number);

interface Void {
  kind: 'Void' | 'Delete';
  at: string;
  userName: string;
  device: string;
  plu: string;
  quantity: Decimal;
  amount: Decimal;
}

type Register = Awaited<ReturnType<typeof register>>;

class History {
  hub!: TestHub;
  readonly clock = new FakeClock(START);
  // In memory where the system has it: a history makes a few hundred commits, each synced to disk
  // elsewhere (what this test is about is counting; test/db and test/e2e prove durability).
  readonly dataDir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'poshub-property-'));
  regs: Register[] = [];
  readonly voids: Void[] = [];
  readonly zReports: Array<{ fiscalName: string; number: number; total: string; receipts: number }> = [];
  /** Closed sales a return may take back from. */
  readonly sales: string[] = [];
  /** The backfill a (re)started hub runs beside its requests, as hub/main.ts does. */
  backfilling: Promise<void> = Promise.resolve();
  readonly log: string[] = [];

  constructor(readonly random: Random) {}

  async start(): Promise<void> {
    this.hub = await startHub({ clock: this.clock, dataDir: this.dataDir, timeZone: TZ });
  }

  async setUp(): Promise<void> {
    await this.start();
    const call = this.hub.call;
    await restaurant(this.hub);
    await expect2xx(call('POST', '/api/fiscaldevices', { name: 'FP2', driver: 'simulator', address: 'sim:fp2' }));
    for (const name of ['Jedlá', 'Nápoje']) await expect2xx(call('POST', '/api/categories', { name }));
    await expect2xx(call('POST', '/api/modifiers', { id: 'mlieko', options: [{ id: 'm', name: 'Mlieko', unitPrice: { amount: 0.3 } }] }));
    for (const code of [10, 11, 12, 13]) {
      const m = MENU[code];
      await expect2xx(call('POST', '/api/plus', { code, stockName: 'Menu', name: `P${code}`, type: 'Service', unitPrice: { amount: m.price }, vatInfo: { category: m.rate === 20 ? 1 : m.rate === 10 ? 2 : 3, rate: m.rate }, category: m.category }));
    }
    for (let i = 0; i < 2; i++) this.regs.push(await register(this.hub, [...ALL_TICKET_RIGHTS, 'TicketReadAll']));
  }

  /** Logs everyone in again (after a restart, or a clock jump past the sessions' 12 hours). */
  async relogin(): Promise<void> {
    // Logged out first: at most 20 live sessions a user, and after a jump back the new one would be the oldest.
    await this.hub.call('DELETE', '/api/auth');
    this.hub.adminToken = await this.hub.login('admin', ADMIN_PASSWORD, 'BackOffice');
    for (const r of this.regs) r.token = await this.hub.login(r.userName, 'pw', r.device);
  }

  private lines(): Array<Record<string, unknown>> {
    const r = this.random;
    return Array.from({ length: r.int(1, 4) }, () => {
      const code = r.pick(CODES);
      const extra: Record<string, unknown> = {};
      if (r.chance(0.2)) extra.discountRate = r.pick([10, 15, 33]);
      if (code === 12 && r.chance(0.5)) extra.modifiers = [{ modifierId: 'mlieko', optionId: 'm' }];
      // An own price (TicketSetPrice): the reports take the price sold at.
      if (r.chance(0.1)) extra.unitPrice = { amount: new D(MENU[code].price).plus(0.4).toNumber() };
      return item(code, r.pick([1, 1, 1, 2, 3, 0.5, 1.25]), extra);
    });
  }

  private payments(totalAmount: number): Array<{ paymentTypeNumber: number; amount: number }> {
    const t = new D(totalAmount);
    const kind = this.random.weighted({ exact: 3, change: 3, card: 3, split: 2 });
    if (kind === 'card') return [{ paymentTypeNumber: 2, amount: t.toNumber() }];
    if (kind === 'change') return [{ paymentTypeNumber: 1, amount: t.plus(this.random.pick([0.05, 1, 5, 10.5])).toNumber() }];
    if (kind === 'split' && t.gt(0.02)) {
      const card = r2(t.div(this.random.int(2, 4)));
      return [{ paymentTypeNumber: 2, amount: card.toNumber() }, { paymentTypeNumber: 1, amount: t.minus(card).plus(this.random.pick([0, 2])).toNumber() }];
    }
    return [{ paymentTypeNumber: 1, amount: t.toNumber() }];
  }

  private async close(reg: Register, ticket: { id: string; totalPrice: { amount: number } }): Promise<any> {
    const fiscalName = this.random.pick(['FP1', 'FP1', 'FP2']);
    const c = await expect2xx(this.hub.call('POST', `/api/tickets/${ticket.id}/close`, { fiscalName, payments: this.payments(ticket.totalPrice.amount) }, { token: reg.token }));
    expect(c.state).toBe('Closed');
    return c;
  }

  private voided(reg: Register, item: any, gone: Decimal, kind: Void['kind'] = 'Void'): void {
    const was = new D(item.quantity);
    this.voids.push({
      kind,
      at: this.clock.now().toISOString(),
      userName: reg.userName,
      device: reg.device,
      plu: `${item.plu.stockName}/${item.plu.code}`,
      quantity: gone,
      amount: r2(new D(item.totalPrice.amount).times(gone).div(was)),
    });
  }

  async sell(storno: boolean): Promise<void> {
    const reg = this.random.pick(this.regs);
    const body: Record<string, unknown> = { items: this.lines() };
    if (this.random.chance(0.3)) body.discountRate = this.random.pick([5, 10, 33, 75]);
    let t = await expect2xx(this.hub.call('POST', '/api/tickets', body, { token: reg.token }));
    if (storno) {
      // Lowers the first item by one, or takes it off when it was one or less (a second item stays).
      const [first, ...rest] = t.items;
      const q = new D(first.quantity);
      if (q.gt(1)) {
        t = await expect2xx(this.hub.call('PUT', `/api/tickets/${t.id}`, { ...t, items: [{ ...first, quantity: q.minus(1).toNumber() }, ...rest] }, { token: reg.token }));
        this.voided(reg, first, new D(1));
      } else if (rest.length) {
        t = await expect2xx(this.hub.call('PUT', `/api/tickets/${t.id}`, { ...t, items: rest }, { token: reg.token }));
        this.voided(reg, first, q);
      }
    }
    const c = await this.close(reg, t);
    this.sales.push(c.id);
    this.log.push(`sell ${c.id} ${c.totalPrice.amount} at ${c.closeDate}`);
  }

  async remove(): Promise<void> {
    const reg = this.random.pick(this.regs);
    const t = await expect2xx(this.hub.call('POST', '/api/tickets', { items: this.lines() }, { token: reg.token }));
    await expect2xx(this.hub.call('DELETE', `/api/tickets/${t.id}`, undefined, { token: reg.token }));
    for (const i of t.items) this.voided(reg, i, new D(i.quantity), 'Delete');
    this.log.push(`delete ${t.id}`);
  }

  async giveBack(): Promise<void> {
    if (!this.sales.length) return;
    const reg = this.random.pick(this.regs);
    const of = this.random.pick(this.sales);
    const sold = await expect2xx(this.hub.call('GET', `/api/tickets/${of}`, undefined, { token: reg.token }));
    const one = this.random.pick(sold.items as any[]);
    const body = this.random.chance(0.5) ? { items: [{ id: one.id, quantity: Math.min(1, one.quantity) }] } : {};
    const r = await this.hub.call('POST', `/api/tickets/${of}/return`, body, { token: reg.token });
    if (r.status === 400) return; // all of it came back already
    expect(r.status).toBe(201);
    const c = await expect2xx(this.hub.call('POST', `/api/tickets/${r.body.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: r.body.totalPrice.amount }] }, { token: reg.token }));
    this.log.push(`return ${c.id} of ${of} ${c.totalPrice.amount}`);
  }

  async jump(kind = this.random.weighted({ minutes: 6, days: 2, back: 2, backdate: 1 })): Promise<void> {
    const now = this.clock.now().getTime();
    const H = 3600_000;
    const to =
      kind === 'minutes'
        ? now + this.random.int(1, 300) * 60_000
        : kind === 'days'
          ? now + this.random.int(20, 60) * H
          : kind === 'back'
            ? now - this.random.int(1, 30) * H
            : // Before the hub's first start: the demo's back-dated tickets, a clock that was ahead at an upgrade.
              Date.parse(START) - this.random.int(1, 40) * 24 * H;
    this.clock.set(new Date(to));
    this.log.push(`clock ${kind} to ${this.clock.now().toISOString()}`);
    await this.relogin();
  }

  async report(kind: 'X' | 'Z'): Promise<void> {
    const fiscalName = this.random.pick(['FP1', 'FP2']);
    await this.backfilling;
    const r = await expect2xx(this.hub.call('POST', `/api/fiscaldevices/${fiscalName}/reports/${kind.toLowerCase()}`));
    this.log.push(`${kind} ${fiscalName} ${r.number}: ${r.total} in ${r.receipts}`);
    if (kind === 'Z') this.zReports.push({ fiscalName, number: r.number, total: r.total, receipts: r.receipts });
    else await this.holdsTheFiscalDay(fiscalName, r);
  }

  /**
   * Stops and starts the hub on its data directory. `rebuild`: first, as a store of an earlier version
   * left them, some tickets are counted a second time; then the totals are rebuilt as migration 0016
   * rebuilds them, and a few of the tickets are counted again before the stop (a restart mid-backfill).
   */
  async restart(rebuild: boolean): Promise<void> {
    await this.backfilling;
    const db = this.hub.db;
    if (rebuild) {
      db.$client.exec('UPDATE tickets SET sales_counted = 0 WHERE is_closed = 1 AND abs(random()) % 2 = 0');
      await this.hub.services.reports.backfill(silent);
      // Its ALTER TABLE and CREATE INDEX this database has; the column's default leaves every ticket uncounted.
      for (const part of salesRepairStatements()) db.$client.exec(part);
      db.$client.exec('UPDATE tickets SET sales_counted = 0');
      for (let n = this.random.int(0, 3); n > 0; n--) inTransaction(db, () => backfillBatch(db, TZ, 2));
    }
    this.log.push(`restart${rebuild ? ' after a rebuild of the totals' : ''}`);
    await this.hub.close();
    await this.start();
    await this.relogin();
    // Counted beside the requests that follow, a ticket at a time, as at a real start.
    this.backfilling = this.hub.services.reports.backfill(silent, 1);
  }

  /** The fiscal day's figures against the device's X report, and against the tickets of that day. */
  async holdsTheFiscalDay(fiscalName: string, x: { number: number; total: string; receipts: number }): Promise<void> {
    const day = await expect2xx(this.hub.call('GET', `/api/reports/fiscalday?fiscalName=${fiscalName}`));
    expect([day.dailySalesReportNumber, day.tickets, day.total, day.isOpen]).toEqual([x.number, x.receipts, Number(x.total), true]);
  }

  async closedTickets(): Promise<any[]> {
    const out: any[] = [];
    for (let skip = 0; ; skip += 1000) {
      const page = await expect2xx(this.hub.call('GET', `/api/tickets?IsClosed=true&$sort=id&$take=1000&$skip=${skip}`));
      out.push(...page.items);
      if (page.items.length < 1000) return out;
    }
  }

  /** The property: every figure the hub reports is a plain sum over the closed tickets (and the voids made). */
  async check(): Promise<void> {
    await this.backfilling;
    const tickets = await this.closedTickets();
    const days = [...tickets.map((t) => localDay(t.closeDate, TZ)), ...this.voids.map((v) => localDay(v.at, TZ))].sort();
    if (!days.length) return;
    const first = days[0];
    const last = days[days.length - 1];
    const monthEnd = (d: string) => new Date(Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)), 0)).toISOString().slice(0, 10);
    const middle = days[Math.floor(days.length / 2)];
    const ranges: Array<[string, string]> = [
      // Whole months (their month rows), and days (their day rows).
      [`${first.slice(0, 7)}-01`, monthEnd(last)],
      [middle, last],
    ];
    for (const [from, to] of ranges) await this.checkRange(tickets.filter((t) => localDay(t.closeDate, TZ) >= from && localDay(t.closeDate, TZ) <= to), from, to);
    await this.checkFiscalDays(tickets);
    await this.checkAudit(tickets, first, last);
  }

  /** The audit per day and user: the voids and deletes made, and the returns, discounts and own prices of the closed tickets. */
  private async checkAudit(tickets: any[], from: string, to: string): Promise<void> {
    const FIELDS = { Void: 'voids', Delete: 'deletes', Return: 'returns', Discount: 'discounts', PriceOverride: 'priceOverrides' } as const;
    const want = new Map<string, Record<string, { events: number; quantity: Decimal; amount: Decimal }>>();
    const add = (day: string, user: string, kind: keyof typeof FIELDS, quantity: Decimal.Value, amount: Decimal.Value) => {
      const row = want.get(`${day} ${user}`) ?? {};
      const f = (row[FIELDS[kind]] ??= { events: 0, quantity: new D(0), amount: new D(0) });
      f.events += 1;
      f.quantity = f.quantity.plus(quantity);
      f.amount = f.amount.plus(amount);
      want.set(`${day} ${user}`, row);
    };
    for (const v of this.voids) add(localDay(v.at, TZ), v.userName, v.kind, v.quantity, v.amount);
    for (const t of tickets) {
      const day = localDay(t.closeDate, TZ);
      const s = shares(t);
      let discounts = new D(0);
      t.items.forEach((i: any, k: number) => {
        if (i.type === 'Negative') return add(day, t.employee.userName, 'Return', i.quantity, s[k].negated());
        const options = (i.modifiers ?? []).reduce((x: Decimal, m: any) => x.plus(new D(m.unitPrice).times(m.quantity)), new D(0));
        discounts = discounts.plus(r2(new D(i.quantity).times(new D(i.unitPrice.amount).plus(options))).minus(s[k]));
        const list = MENU[i.plu.code].price;
        if (list !== i.unitPrice.amount) add(day, t.employee.userName, 'PriceOverride', i.quantity, r2(new D(list).minus(i.unitPrice.amount).times(i.quantity)));
      });
      if (!discounts.isZero()) add(day, t.employee.userName, 'Discount', 0, discounts);
    }
    const r = await expect2xx(this.hub.call('GET', `/api/reports/audit?from=${from}&to=${to}`));
    const got = Object.fromEntries(
      r.rows.map((row: any) => [`${row.day} ${row.userName}`, Object.fromEntries(Object.values(FIELDS).filter((f) => row[f].events > 0).map((f) => [f, row[f]]))]),
    );
    const expected = Object.fromEntries(
      [...want].map(([k, row]) => [k, Object.fromEntries(Object.entries(row).map(([f, v]) => [f, { events: v.events, quantity: v.quantity.toNumber(), amount: v.amount.toNumber() }]))]),
    );
    expect(got, 'audit').toEqual(expected);
  }

  private async checkRange(tickets: any[], from: string, to: string): Promise<void> {
    const report = async (groupBy: string) => {
      const r = await expect2xx(this.hub.call('GET', `/api/reports/sales?from=${from}&to=${to}&groupBy=${groupBy}`));
      expect(r.upToDate, `${groupBy} ${from}..${to}`).toBe(true);
      return r;
    };
    const sales = (rows: any[]) =>
      Object.fromEntries(
        rows
          .filter((r) => r.tickets > 0)
          .map((r) => [r.key, { tickets: r.tickets, quantity: r.quantity, gross: r.gross, discounts: r.discounts, returnsQuantity: r.returnsQuantity, returns: r.returns, net: r.net }]),
      );
    const keys: Record<string, (t: any, i: any) => string> = {
      product: (_t, i) => `${i.plu.stockName}/${i.plu.code}`,
      category: (_t, i) => MENU[i.plu.code].category ?? '',
      waiter: (t) => t.employee.userName,
      register: (t) => t.closeInfo.deviceName,
      hour: (t) => localHour(t.closeDate, TZ),
      day: (t) => localDay(t.closeDate, TZ),
      month: (t) => localDay(t.closeDate, TZ).slice(0, 7),
    };
    const reports: Record<string, any> = {};
    for (const [groupBy, keyOf] of Object.entries(keys)) {
      const r = (reports[groupBy] = await report(groupBy));
      expect(sales(r.rows), `${groupBy} ${from}..${to}`).toEqual(asRows(sumBy(tickets, keyOf)));
      const whole = asRows(sumBy(tickets, () => ''))[''] ?? { tickets: 0, quantity: 0, gross: 0, discounts: 0, returnsQuantity: 0, returns: 0, net: 0 };
      expect(r.totals, `totals by ${groupBy} ${from}..${to}`).toMatchObject(whole);
      expect(r.totals.net).toBe(total(tickets).toNumber());
    }
    const vat = await report('vat');
    const byRate = vatByRate(tickets);
    expect(vat.rows.map((r: any) => [r.rate, r.tickets, r.net, r.vat])).toEqual([...byRate].sort((a, b) => a[0] - b[0]).map(([rate, s]) => [rate, s.tickets, s.gross.toNumber(), s.vat.toNumber()]));
    expect(vat.totals.vat).toBe([...byRate.values()].reduce((s, v) => s.plus(v.vat), new D(0)).toNumber());
    const payment = await report('payment');
    const paid = paidByType(tickets, (n) => n === 1);
    expect(payment.rows.map((r: any) => [r.paymentTypeNumber, r.tickets, r.net])).toEqual([...paid].sort((a, b) => a[0] - b[0]).map(([n, p]) => [n, p.tickets.size, p.amount.toNumber()]));

    // Voids: recorded when made, by whom, on which day; never counted twice, never lost by a rebuild.
    const voids = this.voids.filter((v) => localDay(v.at, TZ) >= from && localDay(v.at, TZ) <= to);
    const sumVoids = (vs: Void[]) => [vs.reduce((s, v) => s.plus(v.quantity), new D(0)).toNumber(), vs.reduce((s, v) => s.plus(v.amount), new D(0)).toNumber()];
    const byWaiter = reports.waiter;
    expect([byWaiter.totals.voidQuantity, byWaiter.totals.voids]).toEqual(sumVoids(voids));
    for (const reg of this.regs) {
      const row = byWaiter.rows.find((r: any) => r.key === reg.userName);
      expect(row ? [row.voidQuantity, row.voids] : [0, 0]).toEqual(sumVoids(voids.filter((v) => v.userName === reg.userName)));
    }
    const byProduct = reports.product;
    for (const code of CODES) {
      const row = byProduct.rows.find((r: any) => r.key === `Menu/${code}`);
      expect(row ? [row.voidQuantity, row.voids] : [0, 0], `voids of Menu/${code}`).toEqual(sumVoids(voids.filter((v) => v.plu === `Menu/${code}`)));
    }
  }

  private async checkFiscalDays(tickets: any[]): Promise<void> {
    for (const fiscalName of ['FP1', 'FP2']) {
      const x = await expect2xx(this.hub.call('POST', `/api/fiscaldevices/${fiscalName}/reports/x`));
      await this.holdsTheFiscalDay(fiscalName, x);
      const numbers = new Set<number>(tickets.filter((t) => t.closeInfo.fiscalName === fiscalName).map((t) => t.closeInfo.dailySalesReportNumber));
      for (const number of numbers) {
        const ofDay = tickets.filter((t) => t.closeInfo.fiscalName === fiscalName && t.closeInfo.dailySalesReportNumber === number);
        const day = await expect2xx(this.hub.call('GET', `/api/reports/fiscalday?fiscalName=${fiscalName}&number=${number}`));
        const paid = paidByType(ofDay, (n) => n === 1);
        expect([day.tickets, day.total, day.cashSales], `${fiscalName} day ${number}`).toEqual([ofDay.length, total(ofDay).toNumber(), paid.get(1)?.amount.toNumber() ?? 0]);
        expect(day.payments.map((p: any) => [p.paymentTypeNumber, p.tickets, p.amount])).toEqual([...paid].sort((a, b) => a[0] - b[0]).map(([n, p]) => [n, p.tickets.size, p.amount.toNumber()]));
        const z = this.zReports.find((r) => r.fiscalName === fiscalName && r.number === number);
        if (z) expect([day.tickets, day.total, day.isOpen], `${fiscalName} Z ${number}`).toEqual([z.receipts, Number(z.total), false]);
      }
    }
  }

  async dispose(): Promise<void> {
    await this.backfilling.catch(() => undefined);
    await this.hub?.close();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

describe('the running totals count each closed ticket once, whatever the history', () => {
  let history: History | undefined;
  afterEach(async () => {
    await history?.dispose();
    history = undefined;
  });

  it.each(seeds())('seed %i', async (seed) => {
    const h = (history = new History(new Random(seed)));
    await h.setUp();
    try {
      for (let step = 0; step < 45; step++) {
        const op = h.random.weighted({ sell: 10, storno: 3, remove: 1, giveBack: 3, jump: 4, x: 1, z: 1, restart: 1, rebuild: 1 });
        if (op === 'sell' || op === 'storno') await h.sell(op === 'storno');
        else if (op === 'remove') await h.remove();
        else if (op === 'giveBack') await h.giveBack();
        else if (op === 'jump') await h.jump();
        else if (op === 'x' || op === 'z') await h.report(op === 'x' ? 'X' : 'Z');
        else await h.restart(op === 'rebuild');
      }
      // Always once: back-dated tickets, then a start that counts what it finds uncounted.
      await h.jump('backdate');
      await h.sell(false);
      await h.restart(false);
      await h.check();
    } catch (e) {
      throw new Error(`seed ${seed} failed after:\n  ${h.log.join('\n  ')}\n${e instanceof Error ? (e.stack ?? e.message) : String(e)}`, { cause: e });
    }
  });
});
