/**
 * The demo (`npm run seed:demo`, issue 28): its staff are made from the presets a manager is offered
 * — so the demo manager can add a waiter —, its stocks share the codes a transfer needs (and one is
 * made), its menu is in coloured, ordered categories routed to the bar, and its incomes carry
 * suppliers, purchase prices and units, so the stock has a value.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESETS } from '../../hub/http/presets.js';
import { ADMIN_PASSWORD, startHub, type TestHub } from '../support/hub.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let hub: TestHub;

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'poshub-demo-'));
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/seed-demo.ts'], {
    cwd: ROOT,
    env: { ...process.env, POS_HUB_DATA_DIR: dataDir, POS_HUB_ADMIN_PASSWORD: ADMIN_PASSWORD, POS_HUB_LOCALE: 'sk', POS_HUB_MDNS: '0' },
    encoding: 'utf8',
  });
  hub = await startHub({ dataDir, locale: 'sk' });
}, 60_000);
afterAll(() => hub?.close());

const get = async (url: string) => {
  const r = await hub.call('GET', url);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};
const rightsOf = (name: string) => [...PRESETS.find((p) => p.name === name)!.rights].sort();

describe('the demo restaurant', () => {
  it('makes its staff from the presets: the manager holds every User right and adds a waiter', async () => {
    const users = (await get('/api/users?$take=100')).items as Array<{ userName: string; rights: string[] }>;
    const rights = (userName: string) => [...users.find((u) => u.userName === userName)!.rights].sort();
    expect(rights('manazer')).toEqual(rightsOf('Manager'));
    for (const cashier of ['jana', 'zdenka']) expect(rights(cashier)).toEqual(rightsOf('Cashier'));
    for (const waiter of ['peter', 'lubos']) expect(rights(waiter)).toEqual(rightsOf('Waiter'));
    const manager = await hub.login('manazer', 'demo1234', 'BackOffice');
    const added = await hub.call('POST', '/api/users', { userName: 'novy', name: 'Nový Čašník', password: 'pw-novy', rights: rightsOf('Waiter') }, { token: manager });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
  });

  it('gives the staff their PINs and the mains their modifiers, as the README says', async () => {
    const users = (await get('/api/users?$take=100')).items as Array<{ userName: string; hasPin: boolean }>;
    for (const u of ['jana', 'peter', 'zdenka', 'lubos']) expect(users.find((x) => x.userName === u)?.hasPin, u).toBe(true);
    const offered = async (code: number) => (await get(`/api/plus?stockName=Kuchyňa&code=${code}`)).items[0].modifierIds;
    expect(await offered(1)).toEqual(['navyse']);
    expect(await offered(3)).toEqual(['priloha']);
    expect(await offered(4)).toEqual(['priloha']);
  });

  it('keeps the bar’s bottles in Sklad under the bar’s codes, and has moved some there', async () => {
    const [transfer] = (await get('/api/stocktransfers?type=Transfer')).items;
    expect([transfer.sourceStockName, transfer.targetStockName]).toEqual(['Sklad', 'Bar']);
    for (const it of transfer.items) {
      for (const stockName of ['Sklad', 'Bar']) expect((await get(`/api/plus?stockName=${stockName}&code=${it.plu.code}`)).totalCount, `${stockName} ${it.plu.code}`).toBe(1);
    }
    // Another transfer of the same codes goes through.
    const again = await hub.call('POST', '/api/stocktransfers', { type: 'Transfer', sourceStockName: 'Sklad', targetStockName: 'Bar', items: [{ plu: { code: transfer.items[0].plu.code }, quantity: 1 }] });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });

  it('sells from coloured, ordered categories; the bar gets its drinks by category', async () => {
    const categories = (await get('/api/categories?$sort=order,name')).items as Array<{ name: string; color: string | null; order: number }>;
    expect(categories.length).toBeGreaterThanOrEqual(6);
    expect(categories.every((c) => /^#[0-9a-f]{6}$/.test(c.color ?? ''))).toBe(true);
    expect(new Set(categories.map((c) => c.order)).size).toBe(categories.length);
    const menu = (await get('/api/plus?stockName=in:Kuchyňa,Bar&$take=1000')).items as Array<{ name: string; category: string | null }>;
    expect(menu.filter((p) => !p.category).map((p) => p.name)).toEqual([]);
    const bar = await get('/api/orderendpoints/Bar');
    expect(bar.categoryNames).toEqual(expect.arrayContaining(['Pivo', 'Nealko']));
    const byCategory = await get(`/api/reports/sales?from=2020-01-01&to=2039-12-31&groupBy=category`);
    expect(byCategory.rows.filter((r: { key: string }) => r.key).length).toBeGreaterThan(3);
  });

  it('received its goods from suppliers at purchase prices, in units, so each stock has a value', async () => {
    const incomes = (await get('/api/stocktransfers?type=Income')).items as Array<{ supplier: { name: string } | null; items: Array<{ costPrice: { amount: number } | null }> }>;
    expect(incomes.length).toBeGreaterThan(0);
    for (const d of incomes) {
      expect(d.supplier?.name).toBeTruthy();
      expect(d.items.every((i) => (i.costPrice?.amount ?? 0) > 0)).toBe(true);
    }
    const stockItems = (await get('/api/plus?type=StockItem&$take=1000')).items as Array<{ unit: string | null }>;
    expect(stockItems.every((p) => p.unit)).toBe(true);
    const value = await get('/api/stockvalue?from=2000-01-01&to=2100-12-31');
    for (const stock of ['Sklad', 'Bar']) expect(value.stocks.find((s: { stockName: string }) => s.stockName === stock).value).toBeGreaterThan(0);
    expect(value.totals.costOfGoodsSold).toBeGreaterThan(0);
  });
});
