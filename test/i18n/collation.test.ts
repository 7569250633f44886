/**
 * Slovak order and search (issue 21): lists sort by the shop locale's collation (Č after C, Š after S,
 * "ch" after "h", tables in natural number order) through stored, indexed sort keys, and searches
 * ignore case and accents ("stastny" finds Šťastný, "halusky" Halušky) and find customers by card.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldText } from '../../db/text.js';
import { sortKey } from '../../hub/i18n/collation.js';
import { plansOf } from '../support/plans.js';
import { startHub, type TestHub } from '../support/hub.js';
import { expect2xx, item, register, restaurant } from '../tickets/fixture.js';

const WORDS = [
  'Žofia', 'zebra', 'Čaj', 'cesta', 'chlieb', 'hrad', 'ihla', 'stôl 10', 'stôl 2', 'Stôl 3', 'Šťastný', 'sova', 'Ľubo', 'lúka', 'Ä', 'a', 'b', 'Ábel',
  'abeceda', 'Chata', 'CHATA', 'cukor', 'čučoriedka', 'dom', 'ďateľ', 'Ďurko', 'table 10', 'table 2', 'table 1a', 'Table 01', 'ôsmy', 'osem', 'Óda',
  'ruža', 'ŕba', 'řeka', 'rýchlo', 'tŕň', 'ťava', 'úľ', 'ýbrik', 'žaba', 'Zuzana', '1', '10', '2', '-', '(x)', 'Émile', 'éclair', 'Öl', 'Łódź', 'Lodz',
  'Straße', 'Strasse', 'a b', 'ab', 'a-b', 'ňufák', 'nos', 'Nitra', 'Ǆ', '日本', 'Ωmega',
];

describe('sort keys', () => {
  it.each(['sk', 'cs', 'en'] as const)('order %s text as Intl.Collator (numeric) does', (lang) => {
    const collator = new Intl.Collator(lang, { numeric: true });
    const byIntl = [...WORDS].sort((x, y) => collator.compare(x, y) || (x < y ? -1 : x > y ? 1 : 0));
    // Keys compare as SQLite compares TEXT: UTF-8 bytes.
    const bytes = (s: string) => Buffer.from(sortKey(s, lang)!, 'utf8');
    const byKey = [...WORDS].sort((x, y) => Buffer.compare(bytes(x), bytes(y)));
    expect(byKey).toEqual(byIntl);
  });

  it('puts Slovak letters in their places and numbers in natural order', () => {
    const sorted = (list: string[]) => [...list].sort((x, y) => (sortKey(x, 'sk')! < sortKey(y, 'sk')! ? -1 : 1));
    // Č, Š, Ž and "ch" are letters of their own; Ľ is an L with an accent (CLDR's Slovak), so Ľubo comes before Lucia.
    expect(sorted(['Žofia', 'Zuzana', 'Čaj', 'Cyril', 'chlieb', 'hrad', 'Ivan', 'Šimon', 'Sára', 'Ľubo', 'Lucia', 'Lenka'])).toEqual([
      'Cyril', 'Čaj', 'hrad', 'chlieb', 'Ivan', 'Lenka', 'Ľubo', 'Lucia', 'Sára', 'Šimon', 'Zuzana', 'Žofia',
    ]);
    expect(sorted(['table 10', 'table 2', 'table 1'])).toEqual(['table 1', 'table 2', 'table 10']);
    expect(sortKey(null, 'sk')).toBeNull();
    expect(sortKey('a', 'sk')).not.toBe(sortKey('A', 'sk'));
  });

  it('folds case and accents for search', () => {
    expect(foldText('Šťastný')).toBe('stastny');
    expect(foldText('HALUŠKY Ľubomír Ôsmy')).toBe('halusky lubomir osmy');
    expect(foldText('Łódź Straße')).toBe('lodz strasse');
  });
});

describe('lists and search over HTTP, shop locale sk', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub({ locale: 'sk' });
    await restaurant(hub);
    for (const [code, name] of [[20, 'Halušky'], [21, 'Cesnaková polievka'], [22, 'Čokoláda'], [23, 'Chlieb'], [24, 'Hranolky'], [25, 'Zemiaky'], [26, 'Žemľa']] as const) {
      await expect2xx(hub.call('POST', '/api/plus', { code, stockName: 'Menu', name, type: 'Service' }));
    }
    for (const [id, firstName, lastName, card] of [
      ['c1', 'Ľubomír', 'Šťastný', 'CARD-0001'],
      ['c2', 'Zuzana', 'Čierna', 'CARD-0002'],
      ['c3', 'Cyril', 'Cesnak', 'VIP-77'],
      ['c4', 'Adam', 'Horváth', null],
      ['c5', 'Eva', 'Chovanec', null],
    ] as const) {
      await expect2xx(hub.call('POST', '/api/customers', { id, firstName, lastName, cards: card ? [{ serialNumber: card }] : [] }));
    }
  });
  afterAll(() => hub.close());

  const names = async (path: string, field = 'name') => (await expect2xx(hub.call('GET', path))).items.map((x: any) => x[field]);

  it('plus sort by name in Slovak order, both ways', async () => {
    const menu = await names('/api/plus?StockName=Menu&Code=ge:20&$sort=name');
    expect(menu).toEqual(['Cesnaková polievka', 'Čokoláda', 'Halušky', 'Hranolky', 'Chlieb', 'Zemiaky', 'Žemľa']);
    expect(await names('/api/plus?StockName=Menu&Code=ge:20&$sort=-name')).toEqual([...menu].reverse());
  });

  it('customers sort by last name, full name and first name in Slovak order', async () => {
    expect(await names('/api/customers?$sort=lastName', 'lastName')).toEqual(['Cesnak', 'Čierna', 'Horváth', 'Chovanec', 'Šťastný']);
    expect(await names('/api/customers?$sort=fullName', 'fullName')).toEqual(['Adam Horváth', 'Cyril Cesnak', 'Eva Chovanec', 'Ľubomír Šťastný', 'Zuzana Čierna']);
    expect(await names('/api/customers?$sort=firstName:desc', 'firstName')).toEqual(['Zuzana', 'Ľubomír', 'Eva', 'Cyril', 'Adam']);
  });

  it('search ignores case and accents, and finds customers by card number', async () => {
    expect(await names('/api/customers?Search=stastny', 'id')).toEqual(['c1']);
    expect(await names('/api/customers?Search=LUBOMIR', 'id')).toEqual(['c1']);
    expect(await names('/api/customers?Search=%C4%8Cier', 'id')).toEqual(['c2']);
    expect(await names('/api/customers?Search=card-000&$sort=id', 'id')).toEqual(['c1', 'c2']);
    expect(await names('/api/customers?Search=vip-77', 'id')).toEqual(['c3']);
    expect(await names('/api/plus?Name=contains:halusky')).toEqual(['Halušky']);
    expect(await names('/api/plus?Name=startswith:ZEML')).toEqual(['Žemľa']);
    expect(await names('/api/plus?Name=contains:u%C5%A1K')).toEqual(['Halušky']);
  });

  it('a card added later is found by Search at once', async () => {
    const c = await expect2xx(hub.call('GET', '/api/customers/c4'));
    await expect2xx(hub.call('PUT', '/api/customers/c4', { ...c, cards: [{ serialNumber: 'NEW-4242' }] }));
    expect(await names('/api/customers?Search=4242', 'id')).toEqual(['c4']);
  });

  it('a table plan lists tables in natural order, from the stored keys', async () => {
    const cashier = await register(hub);
    for (const table of ['10', '2', '1', 'Terasa 3', 'Terasa 12', 'Bar']) {
      await expect2xx(hub.call('POST', '/api/tickets', { name: `Stôl ${table}`, location: { tableName: table }, items: [item(1, 1)] }, { token: cashier.token }));
    }
    const tables = (await expect2xx(hub.call('GET', '/api/tickets?IsClosed=false&$sort=location.tableName'))).items.map((t: any) => t.location.tableName);
    expect(tables).toEqual(['1', '2', '10', 'Bar', 'Terasa 3', 'Terasa 12']);
    const byName = (await expect2xx(hub.call('GET', '/api/tickets?IsClosed=false&$sort=-name'))).items.map((t: any) => t.name);
    expect(byName).toEqual(['Stôl Terasa 12', 'Stôl Terasa 3', 'Stôl Bar', 'Stôl 10', 'Stôl 2', 'Stôl 1']);
    expect((await expect2xx(hub.call('GET', '/api/tickets?IsClosed=false&$sort=LocationTableName'))).items.map((t: any) => t.location.tableName)).toEqual(tables);
  });

  it('the sorts use their indexes: no full scan of tickets or plus', async () => {
    for (const [path, table] of [
      ['/api/tickets?IsClosed=false&$sort=location.tableName', 'tickets'],
      ['/api/tickets?IsClosed=false&$sort=name&$take=10', 'tickets'],
      ['/api/plus?$sort=name&$take=10', 'plus'],
      ['/api/customers?$sort=lastName&$take=10', 'customers'],
    ] as const) {
      const plans = await plansOf(hub, path, table);
      expect(plans.length, path).toBeGreaterThan(0);
      for (const p of plans) {
        expect(p.plan.join(' | '), path).not.toMatch(new RegExp(`SCAN ${table}\\b(?! USING)`));
        if (/ORDER BY/.test(p.sql)) expect(p.plan.join(' | '), path).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      }
    }
  });
});

describe('a change of POS_HUB_LOCALE', () => {
  it('rebuilds the stored sort keys at the next start: "ch" sorts after "h" in Slovak, among the c in English', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'poshub-locale-'));
    const hub = await startHub({ locale: 'en', dataDir });
    await expect2xx(hub.call('POST', '/api/stocks', { name: 'Menu' }));
    for (const [code, name] of [[1, 'Chlieb'], [2, 'Cukor'], [3, 'Hrach'], [4, 'Ihla']] as const) {
      await expect2xx(hub.call('POST', '/api/plus', { code, stockName: 'Menu', name, type: 'Service' }));
    }
    const order = async (h: TestHub) => (await expect2xx(h.call('GET', '/api/plus?$sort=name'))).items.map((p: any) => p.name);
    expect(await order(hub)).toEqual(['Chlieb', 'Cukor', 'Hrach', 'Ihla']);
    await hub.close();
    const again = await startHub({ locale: 'sk', dataDir });
    try {
      expect(await order(again)).toEqual(['Cukor', 'Hrach', 'Chlieb', 'Ihla']);
    } finally {
      await again.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
