/**
 * `npm run seed:demo`: fills the data directory of `npm start` (POS_HUB_DATA_DIR, ./data by
 * default) with a small Slovak restaurant — stocks, a menu with modifiers, two kitchen printers
 * on 127.0.0.1, two registers and a waiter's PDA, an eKasa fiscal device on the simulated PORTOS eKasa
 * service, customers with cards, and a day of tickets, most of them closed through it.
 *
 * It goes through the hub's own services (the same validation, numbering, stock movements and
 * change log as the API), with a clock moved to each ticket's time so the day looks like a day.
 * It works whether the hub is running or not (SQLite in WAL mode; a running hub's page updates
 * live). Run twice, it finds its register and does nothing.
 *
 * `npm run seed:demo -- --printers` then keeps two fake ESC/POS printers listening on the
 * printers' ports and shows every kitchen ticket they receive.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { closeDb, openDb } from '../db/client.js';
import { closeContextSchema } from '../hub/resources/tickets/close.js';
import { FiscalRegistry } from '../drivers/fiscal/registry.js';
import { buildServices } from '../hub/app.js';
import { bootstrap } from '../hub/bootstrap.js';
import { SYSTEM_CALLER } from '../hub/http/caller.js';
import { FakeClock } from '../hub/core/clock.js';
import { loadConfigOrExit } from '../hub/core/config.js';
import { runningHubUrl } from '../hub/core/pidfile.js';
import { dec, toJsonNumber } from '../hub/core/money.js';
import { dbDeviceStateStore } from '../hub/core/device-state.js';
import type { Caller } from '../hub/http/caller.js';
import type { Right } from '../hub/http/rights.js';
import { PRESETS } from '../hub/http/presets.js';
import { createLogger } from '../hub/core/log.js';
import type { Doc } from '../hub/engine/define.js';

const MARKER_DEVICE = 'Pokladňa 1';
const PRINTER_PORTS = { Kuchyňa: 9101, Bar: 9102 } as const;
const DEMO_PASSWORD = 'demo1234';

/** The rights of a preset of the users form (hub/http/presets.ts): the demo's staff are made as a shop would make them. */
const preset = (name: string): readonly Right[] => {
  const found = PRESETS.find((p) => p.name === name);
  if (!found) throw new Error(`no preset ${name}`);
  return found.rights;
};

/** Repeatable randomness: the demo looks the same every time it is loaded. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(20261121);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
const chance = (p: number) => random() < p;
const MIN = 60_000;

/**
 * The menu's categories, in the registers' order and colours. Drinks go to the bar's printer by
 * category (its categoryNames); the kitchen's dishes name their printer themselves.
 */
const CATEGORIES = [
  { name: 'Polievky', description: 'Polievky dňa', color: '#fb8c00', order: 1 },
  { name: 'Hlavné jedlá', description: 'Slovenská kuchyňa', color: '#e53935', order: 2 },
  { name: 'Šaláty', description: '', color: '#43a047', order: 3 },
  { name: 'Dezerty', description: '', color: '#d81b60', order: 4 },
  { name: 'Pivo', description: 'Čapované a fľaškové', color: '#fdd835', order: 5 },
  { name: 'Nealko', description: '', color: '#1e88e5', order: 6 },
  { name: 'Káva a čaj', description: '', color: '#6d4c41', order: 7 },
  { name: 'Víno a destiláty', description: '', color: '#5e35b1', order: 8 },
] as const;
type CategoryName = (typeof CATEGORIES)[number]['name'];
const BAR_CATEGORIES: CategoryName[] = ['Pivo', 'Nealko', 'Víno a destiláty'];

interface MenuPlu {
  code: number;
  stock: 'Bar' | 'Kuchyňa' | 'Sklad';
  name: string;
  type: 'StockItem' | 'Recipe' | 'Service';
  price: number;
  vat: number;
  category?: CategoryName;
  printer?: keyof typeof PRINTER_PORTS;
  parts?: Array<[number, number]>;
  income?: number;
}

const MENU: MenuPlu[] = [
  // Raw materials, counted in kilograms.
  { code: 501, stock: 'Sklad', name: 'Bryndza', type: 'StockItem', price: 0, vat: 19, income: 12 },
  { code: 502, stock: 'Sklad', name: 'Zemiaky', type: 'StockItem', price: 0, vat: 19, income: 40 },
  { code: 503, stock: 'Sklad', name: 'Slanina', type: 'StockItem', price: 0, vat: 19, income: 6 },
  { code: 504, stock: 'Sklad', name: 'Kyslá kapusta', type: 'StockItem', price: 0, vat: 19, income: 15 },
  { code: 505, stock: 'Sklad', name: 'Klobása', type: 'StockItem', price: 0, vat: 19, income: 5 },
  { code: 506, stock: 'Sklad', name: 'Syr Eidam', type: 'StockItem', price: 0, vat: 19, income: 10 },
  { code: 507, stock: 'Sklad', name: 'Kuracie prsia', type: 'StockItem', price: 0, vat: 19, income: 12 },
  { code: 508, stock: 'Sklad', name: 'Múka hladká', type: 'StockItem', price: 0, vat: 19, income: 25 },
  // The kitchen.
  { code: 1, stock: 'Kuchyňa', name: 'Bryndzové halušky', category: 'Hlavné jedlá', type: 'Recipe', price: 8.9, vat: 19, printer: 'Kuchyňa', parts: [[501, 0.15], [502, 0.3], [503, 0.05], [508, 0.1]] },
  { code: 2, stock: 'Kuchyňa', name: 'Kapustnica s klobásou', category: 'Polievky', type: 'Recipe', price: 3.9, vat: 19, printer: 'Kuchyňa', parts: [[504, 0.2], [505, 0.05]] },
  { code: 3, stock: 'Kuchyňa', name: 'Vyprážaný syr', category: 'Hlavné jedlá', type: 'Recipe', price: 8.5, vat: 19, printer: 'Kuchyňa', parts: [[506, 0.15], [508, 0.03]] },
  { code: 4, stock: 'Kuchyňa', name: 'Kurací rezeň', category: 'Hlavné jedlá', type: 'Recipe', price: 9.2, vat: 19, printer: 'Kuchyňa', parts: [[507, 0.18], [508, 0.03]] },
  { code: 5, stock: 'Kuchyňa', name: 'Hovädzí guláš', category: 'Hlavné jedlá', type: 'Service', price: 7.4, vat: 19, printer: 'Kuchyňa' },
  { code: 6, stock: 'Kuchyňa', name: 'Šopský šalát', category: 'Šaláty', type: 'Service', price: 4.9, vat: 19, printer: 'Kuchyňa' },
  { code: 7, stock: 'Kuchyňa', name: 'Palacinky s čokoládou', category: 'Dezerty', type: 'Service', price: 4.5, vat: 19, printer: 'Kuchyňa' },
  { code: 8, stock: 'Kuchyňa', name: 'Cesnaková polievka', category: 'Polievky', type: 'Service', price: 3.2, vat: 19, printer: 'Kuchyňa' },
  { code: 9, stock: 'Kuchyňa', name: 'Kuřecí řízek s bramborem', category: 'Hlavné jedlá', type: 'Recipe', price: 9.6, vat: 19, printer: 'Kuchyňa', parts: [[507, 0.18], [502, 0.25]] },
  // The bar.
  { code: 101, stock: 'Bar', name: 'Zlatý Bažant 12° 0,5 l', category: 'Pivo', type: 'StockItem', price: 2.4, vat: 23, income: 120 },
  { code: 102, stock: 'Bar', name: 'Kofola 0,3 l', category: 'Nealko', type: 'StockItem', price: 1.8, vat: 23, income: 90 },
  { code: 103, stock: 'Bar', name: 'Budějovický Budvar 0,33 l', category: 'Pivo', type: 'StockItem', price: 2.6, vat: 23, income: 60 },
  { code: 104, stock: 'Bar', name: 'Rajec neperlivý 0,33 l', category: 'Nealko', type: 'StockItem', price: 1.5, vat: 23, income: 80 },
  { code: 105, stock: 'Bar', name: 'Espresso', category: 'Káva a čaj', type: 'Service', price: 1.9, vat: 23 },
  { code: 106, stock: 'Bar', name: 'Čaj s citrónom', category: 'Káva a čaj', type: 'Service', price: 1.6, vat: 23 },
  { code: 107, stock: 'Bar', name: 'Borovička 0,04 l', category: 'Víno a destiláty', type: 'StockItem', price: 2.2, vat: 23, income: 40 },
  { code: 108, stock: 'Bar', name: 'Frankovka modrá 0,1 l', category: 'Víno a destiláty', type: 'StockItem', price: 1.9, vat: 23, income: 50 },
];

/** Stock items' units and purchase prices (per unit, without VAT): what the incomes below were bought at. */
const STOCKED: Record<number, { unit: string; cost: number }> = {
  501: { unit: 'kg', cost: 9.8 },
  502: { unit: 'kg', cost: 0.62 },
  503: { unit: 'kg', cost: 7.5 },
  504: { unit: 'kg', cost: 1.4 },
  505: { unit: 'kg', cost: 6.9 },
  506: { unit: 'kg', cost: 7.2 },
  507: { unit: 'kg', cost: 6.4 },
  508: { unit: 'kg', cost: 0.55 },
  101: { unit: 'fľ.', cost: 0.95 },
  102: { unit: 'fľ.', cost: 0.45 },
  103: { unit: 'fľ.', cost: 1.05 },
  104: { unit: 'fľ.', cost: 0.38 },
  107: { unit: 'porc.', cost: 0.62 },
  108: { unit: 'porc.', cost: 0.55 },
};

const SUPPLIERS = {
  food: { name: 'Veľkoobchod Tatra s.r.o.', companyId: '12345678', vatId: 'SK2020000001', documentNumber: 'DL-2026/4411' },
  drinks: { name: 'Nápoje Považie s.r.o.', companyId: '87654321', vatId: 'SK2020000002', documentNumber: 'FA-2026/0918' },
};

const MODIFIERS = [
  {
    id: 'priloha',
    name: 'Príloha',
    displayName: 'Príloha',
    minimumSelectedOptionsCount: 0,
    maximumSelectedOptionsCount: 1,
    options: [
      { id: 'hranolky', name: 'Hranolky', unitPrice: { amount: 2.2 } },
      { id: 'zemiaky', name: 'Varené zemiaky', unitPrice: { amount: 1.9 } },
      { id: 'ryza', name: 'Ryža', unitPrice: { amount: 1.8 } },
    ],
  },
  {
    id: 'navyse',
    name: 'Navyše',
    displayName: 'Navyše',
    minimumSelectedOptionsCount: 0,
    maximumSelectedOptionsCount: 3,
    options: [
      { id: 'slanina', name: 'Slanina', unitPrice: { amount: 0.9 } },
      { id: 'smotana', name: 'Kyslá smotana', unitPrice: { amount: 0.6 } },
      { id: 'tatarska', name: 'Tatárska omáčka', unitPrice: { amount: 0.8 } },
    ],
  },
];

/**
 * The staff, each made from a preset as a manager would: cashiers close tickets, give discounts and
 * take items back; a waiter's tickets are paid at the cashier of their register (`paysAt`).
 */
/** pin: what each one types on a paired register (README "The register"). */
const WAITERS = [
  { userName: 'jana', name: 'Jana Kováčová', device: 'Pokladňa 1', preset: 'Cashier', paysAt: 'jana', pin: '1111' },
  { userName: 'peter', name: 'Peter Horváth', device: 'Pokladňa 1', preset: 'Waiter', paysAt: 'jana', pin: '2222' },
  { userName: 'zdenka', name: 'Zdeňka Dvořáková', device: 'Pokladňa 2', preset: 'Cashier', paysAt: 'zdenka', pin: '3333' },
  { userName: 'lubos', name: 'Ľuboš Ďurčo', device: 'Terasa PDA', preset: 'Waiter', paysAt: 'zdenka', pin: '4444' },
] as const;

/** The modifiers a register offers with a product (plu modifierIds): the sides with the mains, extras on halušky. */
const OFFERED: Record<number, string[]> = { 1: ['navyse'], 3: ['priloha'], 4: ['priloha'] };

const CUSTOMERS = [
  { id: 'stastny', firstName: 'Ľubomír', lastName: 'Šťastný', email: 'lubo.stastny@example.sk', phone: '+421 905 123 456', discountRate: 10, credit: 25, cards: ['1001'] },
  { id: 'durisova', firstName: 'Zuzana', lastName: 'Ďurišová', email: 'zuzana@example.sk', discountRate: 5, credit: 0, cards: ['1002'] },
  { id: 'dvorak', firstName: 'Jiří', lastName: 'Dvořák', email: 'jiri.dvorak@example.cz', discountRate: 0, credit: 0, cards: ['1003'] },
  { id: 'novakova', firstName: 'Anna', lastName: 'Nováková', email: '', discountRate: 0, credit: 10, cards: [] },
  { id: 'teplaren', firstName: '', lastName: '', isCompany: true, company: { name: 'Žilinská teplárenská, a.s.', vatId: 'SK2020123456', taxId: '2020123456' }, email: 'recepcia@example.sk', discountRate: 15, credit: 0, cards: ['2001', '2002'] },
  { id: 'cech', firstName: 'Tomáš', lastName: 'Čech', email: '', discountRate: 5, credit: 0, cards: ['1004'], expired: true },
] as const;

function caller(userName: string, name: string, rights: readonly Right[], device: { name: string; envName: string }): Caller {
  return { userId: userName, userName, name, rights: new Set(rights), device, tokenHash: '', expiresAt: Number.MAX_SAFE_INTEGER };
}


async function main(): Promise<void> {
  const config = loadConfigOrExit();
  mkdirSync(config.dataDir, { recursive: true });
  const db = openDb(join(config.dataDir, 'hub.sqlite'));
  const now = new Date();
  const clock = new FakeClock(now);
  const log = createLogger('warn');
  const fiscal = new FiscalRegistry({ store: dbDeviceStateStore(db), clock: () => clock.now(), timeZone: config.timeZone });
  const services = buildServices({ db, clock, log, config, drivers: { fiscal } });
  const r = services.resources;
  const out = (line = '') => process.stdout.write(`${line}\n`);

  const boot = await bootstrap({ db, services: r, dataDir: config.dataDir, adminPassword: config.adminPassword, timeZone: config.timeZone, now, log, language: config.locale });
  if (boot.created) out(`New data directory ${config.dataDir}: user 'admin' ${boot.adminPassword ? `with password '${boot.adminPassword}'` : '(password from POS_HUB_ADMIN_PASSWORD)'}.`);

  let already = false;
  try {
    r.devices.get(MARKER_DEVICE);
    already = true;
  } catch {
    /* not there: load the demo */
  }
  /** The running hub's own address (its pid file says which port it took); else where `npm start` will listen. */
  const whereToOpen = (): string => {
    const running = runningHubUrl(config.dataDir);
    return running ? `Open ${running} and log in as admin (or manazer).` : `Start the hub (npm start), open http://localhost:${config.port}/ and log in as admin (or manazer).`;
  };
  if (already) {
    out(`The demo data is already loaded in ${config.dataDir} (register '${MARKER_DEVICE}' exists); nothing was changed.`);
    out(`To load it again, stop the hub and point POS_HUB_DATA_DIR at an empty directory.`);
    out(whereToOpen());
    closeDb(db);
  } else {
    await load();
  }
  if (process.argv.includes('--printers')) await servePrinters(out);
  else process.exit(0);

  async function load(): Promise<void> {
    const system = SYSTEM_CALLER;
    const at = (t: Date | number) => clock.set(new Date(t));
    const start = new Date(now);
    start.setHours(8, 0, 0, 0);
    // A day: from 10:00 to now; before noon, the last ten hours instead (so there is always a day).
    let dayFrom = new Date(now).setHours(10, 0, 0, 0);
    if (now.getTime() - dayFrom < 2 * 3600_000) dayFrom = now.getTime() - 10 * 3600_000;
    at(Math.min(dayFrom - 2 * 3600_000, start.getTime()));

    out('Loading the demo restaurant…');
    for (const [name, description] of [
      ['Kuchyňa', 'Jedlá z kuchyne'],
      ['Bar', 'Nápoje'],
      ['Sklad', 'Suroviny'],
    ]) {
      await r.stocks.create(system, { name, description });
    }
    for (const [name, port] of Object.entries(PRINTER_PORTS)) {
      await r.orderendpoints.create(system, {
        name,
        type: name === 'Kuchyňa' ? 'TM88' : 'SRP350',
        address: `tcp://127.0.0.1:${port}`,
        settings: name === 'Kuchyňa' ? { IsBeepEnabled: 'true', DoubleHeightFont: 'true', HighlightOrderNumber: 'true' } : { IsBeepEnabled: 'false' },
      });
    }
    // A Slovak restaurant registers its receipts online (eKasa) through a certified local service:
    // here the simulated PORTOS eKasa service, in-process (address sim:<name>; a real one is http://host:port).
    await r.fiscaldevices.create(system, {
      name: 'FP1',
      driver: 'ekasa',
      address: 'sim:demo',
      settings: { CashRegisterCode: '88812345678900001', HeaderText: 'Reštaurácia U Jelena', FooterText: 'Ďakujeme za návštevu!' },
    });
    await r.paymenttypes.put(system, 1, { number: 1, name: 'Hotovosť', category: 'Cash', isChangeable: true, isActive: true });
    await r.paymenttypes.create(system, { number: 2, name: 'Platobná karta', category: 'CreditCard', isChangeable: false });
    await r.paymenttypes.create(system, { number: 3, name: 'Stravné lístky', category: 'Voucher', isChangeable: false });
    const registerSettings = { DefaultFiscalName: 'FP1', DefaultOrderEndpointName: 'Bar', DefaultStockName: 'Bar' };
    await r.devices.create(system, { name: 'Pokladňa 1', envName: 'CashRegister', description: 'Pult pri vchode', settings: registerSettings });
    await r.devices.create(system, { name: 'Pokladňa 2', envName: 'CashRegister', description: 'Bar', settings: registerSettings });
    await r.devices.create(system, { name: 'Terasa PDA', envName: 'PDA', description: 'Čašník na terase', settings: registerSettings });
    for (const w of WAITERS) await r.users.create(system, { userName: w.userName, name: w.name, password: DEMO_PASSWORD, pin: w.pin, rights: preset(w.preset) });
    await r.users.create(system, { userName: 'manazer', name: 'Mária Šimková', password: DEMO_PASSWORD, rights: preset('Manager') });
    for (const c of CATEGORIES) await r.categories.create(system, c);

    for (const m of MODIFIERS) await r.modifiers.create(system, { ...m, maximumSelectedOptionsTotalQuantity: 0 });
    const pluIds = new Map<number, string>();
    // Stock items and raw materials first: recipes refer to them. Printers come later (see below).
    for (const p of [...MENU].sort((a, b) => (a.type === 'Recipe' ? 1 : 0) - (b.type === 'Recipe' ? 1 : 0))) {
      const doc = await r.plus.create(system, {
        code: p.code,
        stockName: p.stock,
        name: p.name,
        type: p.type,
        unitPrice: { amount: p.price },
        vatInfo: { category: p.vat === 23 ? 1 : 2, rate: p.vat },
        category: p.category ?? null,
        unit: STOCKED[p.code]?.unit ?? null,
        receipt: (p.parts ?? []).map(([code, quantity]) => ({ pluId: { code, stockName: 'Sklad' }, quantity })),
        modifierIds: OFFERED[p.code] ?? [],
      });
      pluIds.set(p.code, String(doc.id));
    }
    // The bar's bottles are kept in Sklad under the same codes, so a transfer moves them to the bar.
    const barBottles = MENU.filter((p) => p.stock === 'Bar' && p.type === 'StockItem');
    for (const p of barBottles) await r.plus.create(system, { code: p.code, stockName: 'Sklad', name: p.name, type: 'StockItem', unit: STOCKED[p.code].unit, unitPrice: { amount: 0 }, vatInfo: { category: 1, rate: p.vat } });
    // Goods received at purchase prices: the stock value and the cost of what is sold follow from them.
    await r.stocktransfers.create(system, {
      type: 'Income',
      targetStockName: 'Sklad',
      supplier: SUPPLIERS.food,
      items: MENU.filter((p) => p.stock === 'Sklad' && p.income).map((p) => ({ plu: { code: p.code }, quantity: p.income, costPrice: { amount: STOCKED[p.code].cost } })),
    });
    await r.stocktransfers.create(system, {
      type: 'Income',
      targetStockName: 'Sklad',
      supplier: SUPPLIERS.drinks,
      note: 'Dve prepravky Kofoly vymenené za nepoškodené',
      items: barBottles.map((p) => ({ plu: { code: p.code }, quantity: 2 * p.income!, costPrice: { amount: STOCKED[p.code].cost } })),
    });
    await r.stocktransfers.create(system, {
      type: 'Transfer',
      sourceStockName: 'Sklad',
      targetStockName: 'Bar',
      note: 'Na bar na víkend',
      items: barBottles.map((p) => ({ plu: { code: p.code }, quantity: p.income! })),
    });
    for (const c of CUSTOMERS) {
      const expired = 'expired' in c && c.expired;
      await r.customers.create(system, {
        id: c.id,
        firstName: c.firstName,
        lastName: c.lastName,
        isCompany: 'isCompany' in c ? c.isCompany : false,
        company: 'company' in c ? c.company : null,
        email: c.email,
        phone: 'phone' in c ? c.phone : null,
        discountRate: c.discountRate,
        credit: { amount: c.credit, currencyLabel: null },
        expirationTime: expired ? new Date(now.getTime() - 30 * 24 * 3600_000).toISOString() : null,
        cards: c.cards.map((serialNumber) => ({ serialNumber })),
      });
    }

    // ---- the day's tickets ----
    const callers = new Map(
      WAITERS.map((w) => {
        const device = w.device === 'Terasa PDA' ? { name: w.device, envName: 'PDA' } : { name: w.device, envName: 'CashRegister' };
        return [w.userName, caller(w.userName, w.name, preset(w.preset), device)];
      }),
    );
    const mains = MENU.filter((p) => p.stock === 'Kuchyňa' && p.code !== 2 && p.code !== 8);
    const soups = MENU.filter((p) => p.code === 2 || p.code === 8);
    const drinks = MENU.filter((p) => p.stock === 'Bar');

    const line = (p: MenuPlu, quantity = 1, extra: Record<string, unknown> = {}) => ({ plu: { code: p.code, stockName: p.stock }, quantity, ...extra });
    function order(): Array<Record<string, unknown>> {
      const items: Array<Record<string, unknown>> = [];
      const guests = 1 + Math.floor(random() * 4);
      for (let g = 0; g < guests; g++) {
        if (chance(0.35)) items.push(line(pick(soups)));
        if (chance(0.75)) {
          const main = pick(mains);
          const mods = main.code === 3 || main.code === 4 ? [{ modifierId: 'priloha', optionId: pick(['hranolky', 'zemiaky', 'ryza']), quantity: 1 }] : main.code === 1 && chance(0.5) ? [{ modifierId: 'navyse', optionId: 'slanina', quantity: 1 }] : [];
          items.push(line(main, 1, { modifiers: mods, comment: chance(0.12) ? pick(['bez cibule', 'extra pikantné', 'pre dieťa, menšia porcia']) : null }));
        }
        items.push(line(pick(drinks), chance(0.3) ? 2 : 1));
      }
      return items;
    }
    type Op = { t: number; run: () => Promise<void> };
    const ops: Op[] = [];
    const end = now.getTime() - 5 * MIN;
    const span = end - dayFrom;
    const closedCount = Math.max(24, Math.round((span / 3600_000) * 6));
    const printersFrom = end - 2 * 3600_000;
    let tableSeq = 0;
    let closed = 0;
    for (let n = 0; n < closedCount; n++) {
      // More guests at lunch (11-14) and dinner (18-21): a day's shape, not a flat line.
      let t = dayFrom + random() * span;
      const hour = new Date(t).getHours();
      if ((hour < 11 || (hour > 14 && hour < 17)) && chance(0.5)) t = dayFrom + random() * span;
      const opened = Math.max(dayFrom, t - (20 + random() * 50) * MIN);
      const waiter = pick(WAITERS);
      const who = callers.get(waiter.userName)!;
      const cashier = callers.get(waiter.paysAt)!;
      const table = String(1 + (tableSeq++ % 12));
      const items = order();
      // A drink sent back: one of the ticket's own drinks (the last line of an order is always one).
      if (chance(0.05)) items.push({ ...items[items.length - 1], quantity: 1, type: 'Negative', comment: 'vrátené, zlé načapované' });
      const card = chance(0.12) ? pick(['1001', '1002', '1003', '2001']) : null;
      // A discount is a cashier's to give.
      const discount = !card && waiter.preset === 'Cashier' && chance(0.08) ? 10 : 0;
      const body: Record<string, unknown> = {
        name: `Stôl ${table}`,
        location: { tableName: table, zoneName: Number(table) > 8 ? 'Terasa' : 'Sála' },
        items,
        discountRate: discount,
        customer: card ? { cardSerialNumber: card } : null,
      };
      let id = '';
      ops.push({
        t: opened,
        run: async () => {
          id = String((await r.tickets.create(who, body)).id);
        },
      });
      ops.push({
        t,
        run: async () => {
          const ticket = r.tickets.get(id);
          const total = (ticket.totalPrice as { amount: number }).amount;
          const way = random();
          const payments =
            way < 0.5
              ? [{ paymentTypeNumber: 1, amount: toJsonNumber(dec(total).div(5).ceil().times(5)) }]
              : way < 0.88
                ? [{ paymentTypeNumber: 2, amount: total }]
                : [
                    { paymentTypeNumber: 3, amount: Math.min(total, 5.5) },
                    // The cash part rounded up to 5 cents covers Slovak cash rounding (eKasa, CONTRACT §8).
                    { paymentTypeNumber: 1, amount: Math.max(0, toJsonNumber(dec(total).minus('5.5').div('0.05').ceil().times('0.05'))) },
                  ].filter((p) => p.amount > 0);
          // The body as the route reads it (its defaults applied).
          await services.ticketCloser.close(cashier, id, closeContextSchema.parse({ payments }));
          closed++;
        },
      });
    }
    // Orders for the history would reach the printers all at once; only the last two hours' do.
    ops.push({
      t: printersFrom,
      run: async () => {
        for (const p of MENU.filter((x) => x.printer)) {
          const stored = r.plus.get(pluIds.get(p.code)!);
          await r.plus.put(system, pluIds.get(p.code)!, { ...stored, orderEndpointNames: [p.printer!] });
        }
        const bar = r.orderendpoints.get('Bar');
        await r.orderendpoints.put(system, 'Bar', { ...bar, categoryNames: BAR_CATEGORIES });
      },
    });
    // Tables that are eating now: open tickets, with a second round ordered on some.
    const openTables = ['3', '5', '7', '10', '12'];
    const openIds: string[] = [];
    openTables.forEach((table, i) => {
      const waiter = WAITERS[i % WAITERS.length];
      const who = callers.get(waiter.userName)!;
      const opened = now.getTime() - (15 + random() * 70) * MIN;
      ops.push({
        t: opened,
        run: async () => {
          const doc: Doc = await r.tickets.create(who, { name: `Stôl ${table}`, location: { tableName: table, zoneName: Number(table) > 8 ? 'Terasa' : 'Sála' }, items: order() });
          openIds.push(String(doc.id));
          if (chance(0.6)) {
            at(Math.min(now.getTime() - MIN, opened + 12 * MIN));
            const stored = r.tickets.get(String(doc.id));
            await r.tickets.put(who, String(doc.id), { ...stored, items: [...(stored.items as Doc[]), line(pick(drinks), 2)] });
          }
        },
      });
    });

    ops.sort((a, b) => a.t - b.t);
    for (const op of ops) {
      at(op.t);
      await op.run();
    }
    at(now);

    const openSum = openIds.reduce((s, id) => s.plus(dec((r.tickets.get(id).totalPrice as { amount: number }).amount)), dec(0));
    out(`Loaded: 3 stocks, ${CATEGORIES.length} categories, ${MENU.length} products, ${MODIFIERS.length} modifiers, 2 kitchen printers (tcp://127.0.0.1:${PRINTER_PORTS.Kuchyňa} and :${PRINTER_PORTS.Bar}),`);
    out(`  registers 'Pokladňa 1', 'Pokladňa 2' and 'Terasa PDA', fiscal device FP1 (eKasa, simulated PORTOS eKasa service), ${CUSTOMERS.length} customers,`);
    out(`  ${closed} tickets closed since ${new Intl.DateTimeFormat(config.locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: config.timeZone }).format(dayFrom)} and ${openIds.length} open (${openSum.toFixed(2)} € at the tables).`);
    out(`Staff: ${WAITERS.map((w) => `${w.userName} (${w.preset === 'Cashier' ? 'cashier' : 'waiter'})`).join(', ')} and manazer (manager), all with password '${DEMO_PASSWORD}'.`);
    out(whereToOpen());
    await fiscal.closeAll();
    closeDb(db);
  }
}

/** Two fake ESC/POS printers on the demo printers' ports, showing what the hub prints. */
async function servePrinters(out: (line?: string) => void): Promise<void> {
  // Imported only here: the fake printer is a test helper, used by the demo's optional mode.
  const { FakeEscPosPrinter } = await import('../test/support/fake-escpos-printer.js');
  for (const [name, port] of Object.entries(PRINTER_PORTS)) {
    const printer = await FakeEscPosPrinter.start(port);
    printer.on('ticket', (t: { lines: Array<{ text: string }> }) => {
      out(`\n── ${name} ──────────────────────────\n${t.lines.map((l) => l.text).join('\n')}`);
    });
    out(`Fake printer '${name}' listening on tcp://127.0.0.1:${port}`);
  }
  out('Kitchen tickets appear below as the hub prints them. Ctrl-C stops the printers.');
}

main().catch((e: unknown) => {
  process.stderr.write(`seed:demo failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
