/**
 * Every error of the API in the caller's language (issue 21), not only the contract table's: a
 * member's message and the detail listing it, whether zod found the fault (its own Slovak and Czech
 * locales), a schema's own rule (a refine, from the catalog), a service's business rule or a 403.
 * The English stays as the contract words it; memberName and errorCode never change.
 *
 * And the rule that keeps it so: no call site hands errors.member/forbidden/validation a sentence
 * of its own (it would be English only); they take catalog keys, which have every language.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../support/hub.js';
import { ALL_TICKET_RIGHTS, expect2xx, item, register, restaurant } from '../tickets/fixture.js';

let hub: TestHub;
let cashier: { token: string };
/** Users whose own language is Slovak: one in the back office, one at a register (ticket writes need a Sale device). */
let slovakUser: string;
let slovakCashier: string;
beforeAll(async () => {
  // The shop speaks English, so Slovak or Czech in an answer can only come from the caller.
  hub = await startHub({ locale: 'en' });
  await restaurant(hub);
  cashier = await register(hub);
  await expect2xx(hub.call('POST', '/api/users', { userName: 'zuzana', password: 'pw-zuzana', rights: ['StockCreate', 'StockDelete', 'PaymentTypeCreate'], language: 'sk' }));
  slovakUser = await hub.login('zuzana', 'pw-zuzana', 'BackOffice');
  await expect2xx(hub.call('POST', '/api/devices', { name: 'RegisterSk', envName: 'CashRegister', settings: { DefaultFiscalName: 'FP1' } }));
  await expect2xx(hub.call('POST', '/api/users', { userName: 'peter', password: 'pw-peter', rights: ALL_TICKET_RIGHTS, language: 'sk' }));
  slovakCashier = await hub.login('peter', 'pw-peter', 'RegisterSk');
});
afterAll(() => hub.close());

type Asked = { lang: 'en' | 'sk' | 'cs' } | { user: 'sk' };
const CALLERS: Asked[] = [{ lang: 'en' }, { lang: 'sk' }, { lang: 'cs' }, { user: 'sk' }];

/** A request as `who` asks it: Accept-Language, or the Slovak user (who asks for English, and is answered in Slovak). */
function ask(who: Asked, method: string, path: string, body?: unknown, as: { token?: string; slovak: string } = { slovak: slovakUser }) {
  if ('user' in who) return hub.call(method, path, body, { token: as.slovak, headers: { 'accept-language': 'en' } });
  return hub.call(method, path, body, { token: as.token, headers: { 'accept-language': who.lang } });
}
const langOf = (who: Asked) => ('user' in who ? who.user : who.lang);

/**
 * Asks `request` of every caller and holds the answers to `expected`: per language a word the
 * member's message (and the detail) must hold; English exactly as given. memberName, code and
 * errorCode are the same for all.
 */
async function expectSaid(
  request: (who: Asked) => Promise<{ status: number; body: any }>,
  expected: { status: number; errorCode: number; memberName?: string; en: string; sk: RegExp; cs: RegExp; detailEn?: string },
): Promise<void> {
  const answers = new Map<string, any>();
  for (const who of CALLERS) {
    const r = await request(who);
    expect(r.status, JSON.stringify(r.body)).toBe(expected.status);
    expect(r.body.errorCode).toBe(expected.errorCode);
    const said = expected.memberName === undefined ? r.body.detail : r.body.errors[0].message;
    if (expected.memberName !== undefined) expect(r.body.errors[0].memberName).toBe(expected.memberName);
    const lang = langOf(who);
    if (lang === 'en') {
      expect(said).toBe(expected.en);
      if (expected.detailEn) expect(r.body.detail).toBe(expected.detailEn);
    } else {
      expect(said).not.toBe(expected.en);
      expect(said).toMatch(expected[lang]);
      // The detail says the same members in the same language.
      if (expected.memberName !== undefined) expect(r.body.detail).toContain(`${expected.memberName}: ${said}`);
    }
    answers.set('user' in who ? 'user' : who.lang, r.body);
  }
  // The Slovak user hears what Accept-Language sk hears.
  expect(answers.get('user').detail).toBe(answers.get('sk').detail);
  expect(answers.get('sk').detail).not.toBe(answers.get('cs').detail);
}

describe('error messages in the caller\'s language', () => {
  it('a zod type error: zod\'s own locale', async () => {
    await expectSaid((who) => ask(who, 'POST', '/api/stocks', { name: 5 }), {
      status: 400,
      errorCode: 3,
      memberName: 'name',
      en: 'Invalid input: expected string, received number',
      detailEn: 'The request is not valid. name: Invalid input: expected string, received number',
      sk: /Neplatný vstup: očakávan/,
      cs: /Neplatný vstup: očekáván/,
    });
  });

  it('a required member', async () => {
    await expectSaid((who) => ask(who, 'POST', '/api/paymenttypes', { number: 7, name: 'Card 7' }), {
      status: 400,
      errorCode: 3,
      memberName: 'category',
      en: 'is required.',
      detailEn: 'The request is not valid. category: is required.',
      sk: /^je povinný údaj\.$/,
      cs: /^je povinný údaj\.$/,
    });
    // The detail around it is the language's own.
    expect((await ask({ lang: 'sk' }, 'POST', '/api/paymenttypes', { number: 7, name: 'Card 7' })).body.detail).toBe('Požiadavka nie je platná. category: je povinný údaj.');
    expect((await ask({ lang: 'cs' }, 'POST', '/api/paymenttypes', { number: 7, name: 'Card 7' })).body.detail).toBe('Požadavek není platný. category: je povinný údaj.');
  });

  it('a schema\'s own rule (a refine)', async () => {
    await expectSaid((who) => ask(who, 'POST', '/api/stocks', { name: ' Sklad' }), {
      status: 400,
      errorCode: 3,
      memberName: 'name',
      en: 'must not start or end with spaces, nor hold "/" or control characters',
      sk: /medzerou/,
      cs: /mezerou/,
    });
  });

  it('a business rule of tickets/close', async () => {
    const ticket = await expect2xx(hub.call('POST', '/api/tickets', { items: [item(1, 1)] }, { token: cashier.token }));
    await expectSaid((who) => ask(who, 'POST', `/api/tickets/${ticket.id}/close`, { payments: [{ paymentTypeNumber: 1, amount: 1 }] }, { token: cashier.token, slovak: slovakCashier }), {
      status: 400,
      errorCode: 3,
      memberName: 'payments',
      en: 'The payments (1.00) do not cover the total (6.90).',
      detailEn: 'payments: The payments (1.00) do not cover the total (6.90).',
      sk: /nepokrývajú súčet \(6\.90\)/,
      cs: /nepokrývají součet \(6\.90\)/,
    });
  });

  it('a device\'s address and settings, refused by its driver', async () => {
    const said = async (lang: string, body: Record<string, unknown>) => {
      const r = await hub.call('POST', '/api/fiscaldevices', { name: 'FPx', driver: 'datecs', address: 'serial:/dev/ttyUSB0', ...body }, { headers: { 'accept-language': lang } });
      expect(r.status).toBe(400);
      return `${r.body.errors[0].memberName}: ${r.body.errors[0].message}`;
    };
    const baud = { address: 'serial:/dev/ttyUSB0?baudRate=5' };
    expect(await said('en', baud)).toMatch(/^address: baudRate 5 is not one of 1200, /);
    expect(await said('sk', baud)).toMatch(/^address: baudRate 5 nie je jedna z hodnôt 1200, /);
    expect(await said('cs', baud)).toMatch(/^address: baudRate 5 není jedna z hodnot 1200, /);
    const operator = { settings: { OperatorCode: 'abc' } };
    expect(await said('en', operator)).toBe("settings: OperatorCode: 'abc' is not 1-30");
    expect(await said('sk', operator)).toBe("settings: OperatorCode: 'abc' nie je v rozsahu 1-30");
    expect(await said('cs', operator)).toBe("settings: OperatorCode: 'abc' není v rozsahu 1-30");
  });

  it('a forbidden operation (403, errorCode 8)', async () => {
    await expectSaid((who) => ask(who, 'DELETE', '/api/stocks/Menu'), {
      status: 403,
      errorCode: 8,
      en: "Stock 'Menu' still holds products (5); move or delete them first.",
      sk: /^Sklad 'Menu' ešte obsahuje/,
      cs: /^Sklad 'Menu' ještě obsahuje/,
    });
  });
});

const HUB = fileURLToPath(new URL('../../hub/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'web' || name === 'dist' || name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

describe('no error is written in English only', () => {
  it('errors.member/forbidden/validation/locked/unauthenticated/tooManyRequests are given catalog keys, never a sentence', () => {
    // The key's place: member's second argument, the others' first (tooManyRequests: its second).
    const calls = /errors\.(member|forbidden|validation|locked|unauthenticated|tooManyRequests)\(\s*(?:([^,()]*(?:\([^()]*\))?[^,()]*),\s*)?(['"`])((?:\\.|(?!\3).)*)\3/g;
    const found: string[] = [];
    let seen = 0;
    for (const file of sources(HUB)) {
      const text = readFileSync(file, 'utf8');
      seen += text.match(/errors\.(member|forbidden|validation|locked|unauthenticated|tooManyRequests)\(/g)?.length ?? 0;
      for (const m of text.matchAll(calls)) {
        const [, kind, before, , literal] = m;
        // A literal in the key's place must be a key, or a family of keys (`address.${fault}`): dotted,
        // no spaces (a sentence would not compile either, the parameter being a MessageKey; this keeps
        // a widened type from letting one in).
        const inKeyPlace = kind === 'member' || kind === 'tooManyRequests' ? before !== undefined : before === undefined;
        if (inKeyPlace && !/^[a-z][A-Za-z0-9]*(\.([A-Za-z0-9]+|\$\{[^}]+\}))+$/.test(literal)) {
          found.push(`${relative(ROOT, file)}: errors.${kind}(… '${literal}'`);
        }
      }
      // A HubError made by hand carries its own English detail; only errors.ts and the bare-500 path may.
      if (!/hub\/http\/(errors|problem)\.ts$/.test(file) && /new HubError\(/.test(text)) found.push(`${relative(ROOT, file)}: new HubError(…) (use saidError)`);
    }
    expect(seen).toBeGreaterThan(150);
    expect(found).toEqual([]);
  });

  it("a schema's own message (refine, regex, a bound) is a field.* key through fieldMessage(), never a sentence", () => {
    // `.refine(check, 'must be …')`: zod would say that English to every caller.
    const sentence = /\.(refine|regex|min|max|length|gt|gte|lt|lte|int|positive|nonnegative)\((?:(?!\.[a-z]+\()[^;])*?,\s*(['"`])([^'"`]*\s[^'"`]*)\2\s*\)/g;
    const found: string[] = [];
    // HQ's event checks write the reason a store's event was put aside as a dead letter: a diagnosis
    // kept with the event for the chain's operator, like a log line, never an answer to a register.
    for (const file of sources(HUB).filter((f) => !f.endsWith('hub/hq/checks.ts'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(sentence)) found.push(`${relative(ROOT, file)}: .${m[1]}(… '${m[3]}')`);
    }
    expect(found).toEqual([]);
  });
});
