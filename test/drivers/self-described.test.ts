/**
 * Drivers describe themselves (issue 32): a fiscal driver is its folder under drivers/fiscal/ plus one
 * line in drivers/fiscal/registry.ts, and a printer model a line in drivers/escpos/profiles.ts.
 * Everything else reads those lists, so no other source of the hub or the drivers may know a driver
 * or a model by name: this reads them (comments aside) for a name written as a string, and for an
 * import reaching into a driver's folder. The generated files the lists produce are not sources.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRINTER_MODELS, PROFILES } from '../../drivers/escpos/profiles.js';
import { FISCAL_DRIVER_NAMES, FISCAL_DRIVERS } from '../../drivers/fiscal/registry.js';
import { fiscalDevices } from '../../hub/resources/fiscaldevices/resource.js';
import { orderEndpoints } from '../../hub/resources/orderendpoints/resource.js';
import { startHub, type TestHub } from '../support/hub.js';
import { ROOT } from '../support/process.js';

const GENERATED = ['hub/web/shared/api-types.ts', 'hub/web/shared/drivers.ts'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !GENERATED.includes(relative(ROOT, path)) ? [path] : [];
  });
}

/** The source without its comments, lines kept (a comment may name a driver: it explains, it does not decide). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, '')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

const FILES = ['hub', 'drivers'].flatMap((d) => sources(join(ROOT, d))).map((path) => ({ file: relative(ROOT, path), text: withoutComments(readFileSync(path, 'utf8')) }));

/** `file:line name` for every quoted `name` in the files `mayKnow` does not exempt. */
function knownBy(names: readonly string[], mayKnow: (file: string, name: string) => boolean): string[] {
  return FILES.flatMap(({ file, text }) =>
    names.flatMap((name) =>
      text
        .split('\n')
        .flatMap((line, i) => (new RegExp(`(['"])${name}\\1`).test(line) && !mayKnow(file, name) ? [`${file}:${i + 1} ${name}`] : [])),
    ),
  );
}

describe('drivers describe themselves', () => {
  it('every folder of drivers/fiscal is one driver of the registry, and the registry lists no other', () => {
    const folders = readdirSync(join(ROOT, 'drivers/fiscal')).filter((name) => existsSync(join(ROOT, 'drivers/fiscal', name, 'index.ts')));
    expect([...folders].sort()).toEqual([...FISCAL_DRIVER_NAMES].sort());
    expect(FISCAL_DRIVERS.length).toBeGreaterThanOrEqual(4);
  });

  it('no source outside a fiscal driver’s folder and the registry knows the driver by name', () => {
    // `escpos` is also the name of the ESC/POS command language, which drivers/escpos speaks.
    const mayKnow = (file: string, name: string) =>
      file.startsWith(`drivers/fiscal/${name}/`) || file === 'drivers/fiscal/registry.ts' || (name === 'escpos' && file.startsWith('drivers/escpos/'));
    expect(knownBy(FISCAL_DRIVER_NAMES, mayKnow)).toEqual([]);
  });

  it('nothing outside drivers/fiscal reaches into a driver’s folder: the registry is the way in', () => {
    const reaching = FILES.filter(({ file }) => !file.startsWith('drivers/fiscal/')).flatMap(({ file, text }) =>
      [...text.matchAll(/from\s+'([^']+)'/g)].filter((m) => FISCAL_DRIVER_NAMES.some((name) => m[1].includes(`fiscal/${name}/`))).map((m) => `${file} ${m[1]}`),
    );
    expect(reaching).toEqual([]);
  });

  it('no source outside drivers/escpos knows a printer model by name', () => {
    expect(knownBy(PRINTER_MODELS, (file) => file.startsWith('drivers/escpos/'))).toEqual([]);
  });

  it('finds a name written as a string, not one in a comment (the check itself)', () => {
    expect(withoutComments("const a = 1; // the 'ekasa' driver\n/* 'datecs' */ const b = 'simulator';")).not.toMatch(/ekasa|datecs/);
    expect(withoutComments("const url = 'http://x'; const d = 'ekasa';")).toContain("'ekasa'");
  });

  it('the API takes exactly the drivers and models the lists hold, lower-cased drivers as before', () => {
    const driver = fiscalDevices.schema.shape.driver;
    for (const name of FISCAL_DRIVER_NAMES) expect(driver.parse(name.toUpperCase())).toBe(name);
    expect(driver.safeParse('nosuchdriver').success).toBe(false);
    const type = orderEndpoints.schema.shape.type;
    for (const model of PRINTER_MODELS) expect(type.parse(model)).toBe(model);
    expect(type.parse('Tablet')).toBe('Tablet');
    expect(Object.keys(PROFILES)).toEqual([...PRINTER_MODELS]);
  });
});

describe('a driver’s own address check, through the API', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('takes each driver’s example address and refuses another form with 400 naming the address, in the caller’s language', async () => {
    // The examples are checked, never used: a device at them would be polled on the LAN.
    for (const d of FISCAL_DRIVERS) expect(() => d.address.check(d.address.example), d.name).not.toThrow();
    const refused = async (driver: string, address: string, language = 'en') => {
      const r = await hub.call('POST', '/api/fiscaldevices', { name: `X-${driver}`, driver, address }, { headers: { 'accept-language': language } });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.errors.map((e: { memberName: string }) => e.memberName)).toEqual(['address']);
      return r.body.errors[0].message as string;
    };
    expect(await refused('simulator', 'tcp://127.0.0.1:9')).toBe("The simulator driver takes an address sim:<any>, not 'tcp://127.0.0.1:9'.");
    expect(await refused('simulator', 'tcp://127.0.0.1:9', 'sk')).toBe("Ovládač simulator berie adresu sim:<čokoľvek>, nie 'tcp://127.0.0.1:9'.");
    expect(await refused('ekasa', 'tcp://127.0.0.1:9')).toBe("The ekasa driver takes http://host:port (or sim:<name>), not 'tcp://127.0.0.1:9'.");
    expect(await refused('datecs', 'sim:x')).toBe("'sim:x' is neither tcp://host[:port] nor serial:/dev/...");
    expect(await refused('escpos', 'tcp://127.0.0.1:99999', 'cs')).toBe('port 99999 je mimo 1-65535.');
    expect((await hub.call('GET', '/api/fiscaldevices')).body.items.filter((d: { name: string }) => d.name.startsWith('X-'))).toEqual([]);
  });
});
