/**
 * No text of the pages is left untranslated (issue 21). Every word a person reads goes through a
 * module's catalog (hub/web/shared/i18n.ts `messages`, where a text without its Slovak does not
 * compile); this reads the pages' sources and fails on text written straight into them: JSX text,
 * a literal in an attribute people read (title, label, placeholder…), or a sentence in a string.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const WEB = fileURLToPath(new URL('../../hub/web/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && name !== 'api-types.ts' ? [path] : [];
  });
}

/** What may stand in a page as it is: examples of what to type, and keys that are not shown. */
const ALLOWED = new Set([
  // The product's name, the first user's name, an example host.
  '>POS Hub<',
  '>admin<',
  'placeholder="smtp.example.com"',
  // A preset's name as the hub keys it (hub/http/presets.ts), mapped to its translation.
  "'Kitchen display'",
]);

/** The source without comments (a comment may quote a message), line numbers kept. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`])\/\/.*$/gm, (m, lead: string) => lead + ' '.repeat(m.length - lead.length));
}

function findings(name: string, text: string): string[] {
  const lines = withoutComments(text).split('\n');
  const found: string[] = [];
  lines.forEach((line, i) => {
    // A catalog entry: the texts themselves.
    if (/\b(en|sk|cs):\s*['"`]/.test(line)) return;
    const hits = [
      // JSX text: >Words< (not an arrow's `=> f<T>(…)`, a word of letters, not an expression)
      ...[...line.matchAll(/(?<![=-])>\s*([A-Za-zÀ-ž][A-Za-zÀ-ž ,.'!?…-]*[A-Za-zÀ-ž.!?…])\s*</g)].map((m) => `>${m[1]}<`),
      // An attribute a person reads, given as a literal.
      ...[...line.matchAll(/\b(title|label|placeholder|aria-label|alt|hint|subtitle|noun)="([^"]*[A-Za-z][^"]*)"/g)].map((m) => `${m[1]}="${m[2]}"`),
      // A sentence in a string: two words or more, the first capitalised.
      ...[...line.matchAll(/(['`"])([A-Z][a-z]+ [a-z][^'`"]*)\1/g)].map((m) => `'${m[2]}'`),
    ].filter((h) => !ALLOWED.has(h));
    for (const h of hits) found.push(`${name}:${i + 1} ${h}`);
  });
  return found;
}

describe('the pages speak only through their catalogs', () => {
  it('no text is written straight into the manager\'s page, the kitchen display, head office\'s page, the register or what they share', () => {
    const files = ['manager', 'kds', 'hq', 'register', 'shared'].flatMap((room) => sources(join(WEB, room)));
    expect(files.length).toBeGreaterThan(30);
    expect(files.flatMap((f) => findings(relative(ROOT, f), readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('no style sheet writes words on the page (a CSS `content` is never translated)', () => {
    const sheets = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) return name === 'dist' ? [] : sheets(path);
        return name.endsWith('.css') ? [path] : [];
      });
    const files = sheets(WEB);
    expect(files.length).toBeGreaterThan(2);
    const words = files.flatMap((f) =>
      withoutComments(readFileSync(f, 'utf8'))
        .split('\n')
        .flatMap((line, i) => (/\bcontent:\s*(['"])[^'"]*[A-Za-zÀ-ž]{2}/.test(line) ? [`${relative(ROOT, f)}:${i + 1} ${line.trim()}`] : [])),
    );
    expect(words).toEqual([]);
  });

  it('every catalog entry of the pages has its Czech (nothing falls back to Slovak any more)', () => {
    // The Entry type makes `cs` required; this holds the sources to it should the type be widened again.
    const entry = /\ben:\s*(['"`])(?:\\.|(?!\1).)*\1,\s*sk:\s*(['"`])(?:\\.|(?!\2).)*\2\s*,?\s*(\}|cs:)/gs;
    const files = ['manager', 'kds', 'hq', 'register', 'shared'].flatMap((room) => sources(join(WEB, room)));
    const entries = files.flatMap((f) => [...withoutComments(readFileSync(f, 'utf8')).matchAll(entry)].map((m) => ({ file: relative(ROOT, f), czech: m[3] === 'cs:' })));
    expect(entries.length).toBeGreaterThan(800);
    expect(entries.filter((e) => !e.czech).map((e) => e.file)).toEqual([]);
  });

  it('finds text written straight into a page, and passes what goes through a catalog (the check itself)', () => {
    const found = (src: string) => findings('sample.tsx', src).length > 0;
    expect(found('<button title="Log out">x</button>')).toBe(true);
    expect(found('<p>Nothing here</p>')).toBe(true);
    expect(found("toast('Saved the product')")).toBe(true);
    expect(found('<Field label="Name" />')).toBe(true);
    expect(found("const t = messages({ save: { en: 'Save it now', sk: 'Uložiť' } });")).toBe(false);
    expect(found("<p>{t('nothing')}</p>")).toBe(false);
    expect(found('const list = () => api.get<Plu[]>(path);')).toBe(false);
    expect(found('// Saved the product')).toBe(false);
    expect(found('<Field label={t(\'name\')} />')).toBe(false);
  });
});
