/**
 * Fills a data directory with a realistic store for benchmarks and demos of scale:
 *   npm run generate -- --data=<dir> [--tickets=1000000] [--seed=42]
 * 2,000 plus across 2 stocks, 30 modifiers, 5,000 customers with cards, 20 devices, 6 order
 * endpoints, a simulator fiscal device per register group, and N closed tickets spread over the
 * last year (plus a few open ones today). Configuration goes through the real resource services
 * (validation, hooks); tickets are written with the engine's own column mapping in large
 * transactions, which is what makes a million take minutes.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { closeDb, commitNow, openDb } from '../db/client.js';
import { FiscalRegistry } from '../drivers/fiscal/registry.js';
import { buildServices } from '../hub/app.js';
import { bootstrap } from '../hub/bootstrap.js';
import { SYSTEM_CALLER } from '../hub/http/caller.js';
import { systemClock } from '../hub/core/clock.js';
import { createLogger } from '../hub/core/log.js';
import { dec, toJsonNumber } from '../hub/core/money.js';
import { tickets as ticketDef } from '../hub/resources/tickets/resource.js';
import { rowColumns } from '../hub/engine/repo.js';
import { itemTotal, ticketTotal } from '../hub/resources/tickets/math.js';
import { vatBreakdown } from '../hub/core/vat.js';
import { addClosedTicket, TotalsDelta, type ClosedTicket, type Lookups } from '../hub/reports/totals.js';
import { applyDelta, markAllCounted } from '../hub/reports/store.js';

export const BENCH_ADMIN_PASSWORD = 'bench-admin-password';
export const BENCH_CASHIER = { userName: 'bench-cashier', password: 'bench-cashier-password' };

/** Small, fast, seedable PRNG (mulberry32) so a store can be generated again identically. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
    chance: (p: number) => next() < p,
  };
}

const FIRST = ['Ján', 'Peter', 'Eva', 'Mária', 'Tomáš', 'Zuzana', 'Martin', 'Katarína', 'Jakub', 'Lucia', 'Miroslav', 'Anna', 'Žofia', 'Ľubomír'];
const LAST = ['Novák', 'Kováč', 'Horváth', 'Varga', 'Tóth', 'Nagy', 'Baláž', 'Szabó', 'Molnár', 'Mészáros', 'Šimko', 'Čierny', 'Dvořák', 'Kučera'];
const DISHES = ['Gulyás', 'Šopský šalát', 'Kuřecí řízek', 'Żurek', 'Bryndzové halušky', 'Svíčková', 'Pstruh', 'Palacinky', 'Langoš', 'Kapustnica', 'Pivo 0,5', 'Kofola', 'Espresso', 'Minerálka', 'Víno biele', 'Víno červené'];
const ZONES = ['Inside', 'Terrace', 'Bar'];

export interface GenerateOptions {
  dataDir: string;
  tickets: number;
  seed?: number;
  log?: (line: string) => void;
}

export async function generateStore(opts: GenerateOptions): Promise<{ tickets: number; ms: number }> {
  const started = Date.now();
  const say = opts.log ?? ((l: string) => process.stdout.write(`${l}\n`));
  const r = rng(opts.seed ?? 42);
  mkdirSync(opts.dataDir, { recursive: true });
  const db = openDb(join(opts.dataDir, 'hub.sqlite'));
  const log = createLogger('warn');
  const config = { timeZone: 'Europe/Bratislava', tokenTtlMs: 12 * 3600_000, dataDir: opts.dataDir };
  const services = buildServices({ db, clock: systemClock, log, config, drivers: { fiscal: new FiscalRegistry({ clock: () => new Date() }) } });
  const existing = db.get<{ n: number }>(sql`SELECT count(*) AS n FROM tickets`)?.n ?? 0;
  if (existing > 0) throw new Error(`${opts.dataDir} already holds ${existing} tickets; generate into an empty directory.`);
  await bootstrap({ db, services: services.resources, dataDir: opts.dataDir, adminPassword: BENCH_ADMIN_PASSWORD, timeZone: config.timeZone, now: new Date(), log });
  const res = services.resources;
  const create = (name: string, body: Record<string, unknown>) => res[name].create(SYSTEM_CALLER, body);

  say('configuration: stocks, order endpoints, plus, modifiers, devices, customers…');
  for (const name of ['Kitchen', 'Bar', 'Pizza', 'Grill', 'Desserts', 'Pass']) {
    await create('orderendpoints', { name, type: r.pick(['TM88', 'SRP350', 'Generic'] as const), address: 'tcp://127.0.0.1:9' });
  }
  await create('stocks', { name: 'Menu', description: 'What the guests order' });
  await create('stocks', { name: 'Store', description: 'Raw materials' });
  const CATEGORIES = ['Jedlá', 'Nápoje', 'Dezerty', 'Prílohy'];
  for (const name of CATEGORIES) await create('categories', { name });
  const plus: Array<{ code: number; stockName: string; name: string; price: number; type: string; vatRate: number; category: string }> = [];
  for (let i = 1; i <= 2000; i++) {
    const stockName = i <= 1200 ? 'Menu' : 'Store';
    const type = stockName === 'Store' ? 'StockItem' : r.chance(0.3) ? 'StockItem' : 'Service';
    const name = `${r.pick(DISHES)} ${i}`;
    const price = toJsonNumber(dec(r.int(50, 2500)).div(100));
    const vatRate = r.pick([20, 10]);
    const category = r.pick(CATEGORIES);
    await create('plus', {
      code: i,
      stockName,
      name,
      type,
      unitPrice: { amount: price, currencyLabel: 'EUR' },
      vatInfo: { category: vatRate === 20 ? 1 : 2, rate: vatRate },
      orderEndpointNames: stockName === 'Menu' ? [r.pick(['Kitchen', 'Bar', 'Pizza', 'Grill', 'Desserts'])] : [],
      category,
    });
    if (stockName === 'Menu') plus.push({ code: i, stockName, name, price, type, vatRate, category });
  }
  for (let m = 1; m <= 30; m++) {
    await create('modifiers', {
      id: `mod${m}`,
      name: `Modifier ${m}`,
      displayName: `Extras ${m}`,
      minimumSelectedOptionsCount: 0,
      maximumSelectedOptionsCount: 3,
      options: [1, 2, 3, 4].map((o) => ({ id: `o${o}`, name: `Option ${o}`, unitPrice: { amount: toJsonNumber(dec(o).div(2)) } })),
    });
  }
  const registers: string[] = [];
  for (let d = 1; d <= 20; d++) {
    const envName = d <= 12 ? 'CashRegister' : d <= 18 ? 'PDA' : 'Tool';
    const name = envName === 'CashRegister' ? `Register${d}` : envName === 'PDA' ? `PDA${d}` : `Tool${d}`;
    await create('devices', { name, envName, settings: { DefaultFiscalName: d % 2 ? 'FP1' : 'FP2', DefaultOrderEndpointName: 'Pass' } });
    if (envName !== 'Tool') registers.push(name);
  }
  for (const name of ['FP1', 'FP2']) await create('fiscaldevices', { name, driver: 'simulator', address: `sim:${name}` });
  await create('paymenttypes', { number: 2, name: 'Card', category: 'CreditCard', isChangeable: false });
  const cards: string[] = [];
  for (let c = 1; c <= 5000; c++) {
    const serial = `CARD${String(c).padStart(6, '0')}`;
    cards.push(serial);
    await create('customers', {
      id: `cust${c}`,
      firstName: r.pick(FIRST),
      lastName: r.pick(LAST),
      email: `guest${c}@example.test`,
      discountRate: r.chance(0.2) ? r.pick([5, 10]) : 0,
      note: r.chance(0.1) ? 'Stály hosť' : null,
      cards: [{ serialNumber: serial }],
    });
  }
  const waiters = ['anna', 'boris', 'cyril', 'dana', 'emil', 'fero', 'gita', 'hana', 'ivan', 'jana'];
  for (const w of waiters) await create('users', { userName: w, name: w[0].toUpperCase() + w.slice(1), password: `${w}-pw`, rights: [] });
  await create('users', {
    userName: BENCH_CASHIER.userName,
    name: 'Bench Cashier',
    password: BENCH_CASHIER.password,
    rights: ['TicketCreate', 'TicketUpdate', 'TicketUpdateAny', 'TicketClose', 'TicketSetDiscount', 'TicketRename', 'Storno', 'TicketPrintPreliminary'],
  });

  say(`tickets: ${opts.tickets.toLocaleString('en')} closed over the last year…`);
  const insertTicket = db.$client.prepare(
    `INSERT INTO tickets (id, v, doc, ${Object.keys(rowColumns(db, ticketDef, sampleDoc())).join(', ')}) VALUES (@id, 1, @doc, ${Object.keys(rowColumns(db, ticketDef, sampleDoc()))
      .map((c) => `@${c}`)
      .join(', ')})`,
  );
  const insertItem = db.$client.prepare(`INSERT INTO ticket_items (ticket_id, item_id, plu_code, plu_stock_name) VALUES (?, ?, ?, ?)`);
  const now = Date.now();
  const yearMs = 365 * 86_400_000;
  // The running sales totals are written beside the tickets, as closes write them (issue 21).
  const pluByCode = new Map(plus.map((p) => [p.code, p]));
  const lookups: Lookups = {
    plu: (code) => {
      const p = pluByCode.get(code);
      return p && { category: p.category, vatRate: p.vatRate };
    },
    paymentType: (number) => (number === 1 ? { name: 'Cash', isChangeable: true } : { name: 'Card', isChangeable: false }),
  };
  const receiptNumbers: Record<string, number> = { FP1: 0, FP2: 0 };
  const BATCH = 20_000;
  let written = 0;
  while (written < opts.tickets) {
    const n = Math.min(BATCH, opts.tickets - written);
    db.$client.transaction(() => {
      const totals = new TotalsDelta();
      for (let k = 0; k < n; k++) {
        const i = written + k;
        const openMs = now - yearMs + Math.floor((i / opts.tickets) * yearMs) + r.int(0, 60_000);
        const closeMs = openMs + r.int(5, 90) * 60_000;
        const device = r.pick(registers);
        const fiscalName = device.length % 2 ? 'FP1' : 'FP2';
        const items = Array.from({ length: r.int(1, 6) }, (_, j) => {
          const p = r.pick(plus);
          const type = r.chance(0.01) ? 'Negative' : 'Positive';
          const quantity = r.int(1, 3);
          const discountRate = r.chance(0.03) ? 10 : 0;
          const total = itemTotal({ type, quantity, unitPrice: p.price, discountRate, optionPrices: [] });
          return {
            id: j + 1,
            plu: { code: p.code, stockName: p.stockName, name: p.name },
            type,
            quantity,
            unitPrice: { amount: p.price },
            discountRate,
            modifiers: [],
            comment: null,
            totalPrice: { amount: toJsonNumber(total) },
          };
        });
        const discountRate = r.chance(0.05) ? 10 : 0;
        const total = ticketTotal(items.map((it) => dec(it.totalPrice.amount)), discountRate);
        const card = r.chance(0.1) ? r.pick(cards) : null;
        const table = String(r.int(1, 30));
        const waiter = r.pick(waiters);
        receiptNumbers[fiscalName] += 1;
        const doc = {
          id: `t${String(i).padStart(7, '0')}`,
          externalId: null,
          name: `Table ${table}`,
          purchaseType: r.chance(0.1) ? 'TakeAway' : 'WalkIn',
          currencyLabel: 'EUR',
          discountRate,
          customer: card ? { id: `cust${Number(card.slice(4))}`, fullName: '', cardSerialNumber: card, discountRate: 0 } : null,
          location: { tableName: table, zoneName: ZONES[Number(table) % 3] },
          note: null,
          items,
          state: 'Closed',
          originDeviceName: device,
          openDate: new Date(openMs).toISOString(),
          closeDate: new Date(closeMs).toISOString(),
          employee: { userName: waiter, name: waiter },
          totalPrice: { amount: toJsonNumber(total), currencyLabel: 'EUR' },
          payments: [{ paymentTypeNumber: r.chance(0.5) ? 1 : 2, amount: toJsonNumber(total) }],
          change: 0,
          closeInfo: {
            deviceName: device,
            fiscalName,
            number: receiptNumbers[fiscalName],
            dailySalesReportNumber: Math.floor((closeMs - (now - yearMs)) / 86_400_000) + 1,
            fiscalMemorySerialNumber: `SIM-${fiscalName}`,
          },
          vatBreakdown: vatBreakdown(
            items.map((it) => ({ vatRate: pluByCode.get(it.plu.code)!.vatRate, total: it.totalPrice.amount })),
            discountRate,
            total.toFixed(2),
          ).map((v) => ({ rate: Number(v.rate), base: Number(v.base), vat: Number(v.vat), gross: Number(v.gross) })),
        };
        insertTicket.run({ id: doc.id, doc: JSON.stringify(doc), ...rowColumns(db, ticketDef, doc) });
        for (const it of items) insertItem.run(doc.id, it.id, it.plu.code, it.plu.stockName);
        addClosedTicket(totals, doc as ClosedTicket, config.timeZone, lookups);
      }
      applyDelta(db, totals);
    })();
    written += n;
    if (written % 100_000 === 0 || written === opts.tickets) say(`  ${written.toLocaleString('en')} (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  markAllCounted(db);
  // The services' last writes may still sit in an open group-commit batch: commit it before the pragmas.
  commitNow(db);
  db.$client.pragma('optimize');
  db.$client.exec('ANALYZE');
  db.$client.pragma('wal_checkpoint(TRUNCATE)');
  closeDb(db);
  return { tickets: opts.tickets, ms: Date.now() - started };
}

/** A minimal ticket document, only to learn the engine's column names. */
function sampleDoc() {
  return {
    items: [],
    closeInfo: null,
    location: null,
    customer: null,
    state: 'Opened',
    discountRate: 0,
    openDate: new Date(0).toISOString(),
    closeDate: null,
    originDeviceName: 'x',
    purchaseType: 'WalkIn',
    employee: { userName: 'x' },
    totalPrice: { amount: 0 },
  };
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('generate-store.ts')) {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const dataDir = resolve(arg('data') ?? process.env.POS_HUB_DATA_DIR ?? './data');
  const count = Number(arg('tickets') ?? 1_000_000);
  generateStore({ dataDir, tickets: count, seed: Number(arg('seed') ?? 42) })
    .then(({ ms }) => process.stdout.write(`Generated ${count.toLocaleString('en')} tickets into ${dataDir} in ${(ms / 1000).toFixed(1)} s. Admin password: ${BENCH_ADMIN_PASSWORD}\n`))
    .catch((e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
}
