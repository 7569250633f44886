/** The rights presets (hub/http/presets.ts), the README's table of them, and the page's read gates. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../hub/http/presets.js';
import { RIGHTS } from '../../hub/http/rights.js';
import { RESOURCES } from '../../hub/resources.js';
import { mayRead, READ_RIGHTS } from '../../hub/web/manager/lib/access.js';

const byName = (name: string) => PRESETS.find((p) => p.name === name)!.rights as readonly string[];

describe('rights presets', () => {
  it('name only rights the hub knows, each once', () => {
    for (const p of PRESETS) {
      for (const r of p.rights) expect(RIGHTS as readonly string[], `${p.name}: ${r}`).toContain(r);
      expect(new Set(p.rights).size, p.name).toBe(p.rights.length);
    }
    expect(PRESETS.map((p) => p.name)).toEqual(['Waiter', 'Cashier', 'Manager', 'Kitchen display']);
  });

  it('give a waiter and a kitchen display nothing to read beyond their work, and no way to manage users', () => {
    const reads = ['CustomerRead', 'TicketReadAll', 'UserRead', 'SettingsRead', 'StockRead', 'ReportRead', 'Metrics'];
    for (const name of ['Waiter', 'Cashier', 'Kitchen display']) {
      expect(byName(name).filter((r) => reads.includes(r) || r.startsWith('User')), name).toEqual([]);
    }
    expect(byName('Waiter')).not.toContain('TicketClose');
    expect(byName('Waiter')).not.toContain('Storno');
    expect(byName('Cashier')).toEqual(expect.arrayContaining([...byName('Waiter'), 'TicketClose', 'Storno']));
    expect(byName('Kitchen display')).toEqual(['OrderProcess']);
    expect(byName('Manager')).not.toContain('Metrics');
    expect(byName('Manager')).toHaveLength(RIGHTS.length - 1);
  });

  it("are the README's Rights table, row for row", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Rights'), readme.indexOf('## API overview'));
    const rows = section.split('\n').filter((l) => /^\| (?!Preset|---)/.test(l)).map((l) => l.split('|').map((c) => c.trim()).filter(Boolean));
    expect(rows.map((r) => r[0])).toEqual(PRESETS.map((p) => p.name));
    for (const [name, rights, purpose] of rows) {
      const preset = PRESETS.find((p) => p.name === name)!;
      expect(purpose, name).toBe(preset.purpose);
      if (name === 'Manager') expect(rights).toBe('every right but Metrics');
      else expect(rights.split(', '), name).toEqual([...preset.rights]);
    }
  });
});

describe("the manager's page asks only for what its user may read", () => {
  it('gates every resource the hub reserves to a read right, with that right', () => {
    const reserved = Object.fromEntries(RESOURCES.filter((d) => d.read && !d.read.scope).map((d) => [d.name, d.read!.right]));
    expect(READ_RIGHTS).toEqual(reserved);
  });

  it('reads a gated resource only with its right, by name or by URL', () => {
    const waiter = (r: string) => byName('Waiter').includes(r);
    expect(mayRead('customers', waiter)).toBe(false);
    expect(mayRead('/api/users?$take=5', waiter)).toBe(false);
    expect(mayRead('/api/receipts/emails', waiter)).toBe(false);
    expect(mayRead('/api/tickets/abc', waiter)).toBe(true);
    expect(mayRead('plus', waiter)).toBe(true);
    expect(mayRead('customers', (r) => r === 'CustomerRead')).toBe(true);
  });
});
