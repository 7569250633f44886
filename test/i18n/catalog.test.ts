/** The message catalog (hub/i18n/messages.ts): every text in English, Slovak and Czech, with the same placeholders. */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../hub/i18n/messages.js';
import { LANGUAGES, localDecimal, t } from '../../hub/i18n/index.js';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('message catalog', () => {
  it('has every key in English, Slovak and Czech, none empty, all with the same placeholders', () => {
    expect(Object.keys(MESSAGES).length).toBeGreaterThan(200);
    for (const [key, entry] of Object.entries(MESSAGES) as Array<[string, Record<string, unknown>]>) {
      // No fallback any more: a language missing at run time (a cast, a generated entry) fails here.
      for (const lang of LANGUAGES) {
        expect(typeof entry[lang], `${key} ${lang}`).toBe('string');
        expect((entry[lang] as string).trim(), `${key} ${lang}`).not.toBe('');
        expect(placeholders(entry[lang] as string), `${key} ${lang} placeholders`).toEqual(placeholders(entry.en as string));
      }
    }
  });

  it('has field.* texts without placeholders, each English its own (the answer finds the key again by it: hub/i18n/say.ts)', () => {
    const fields = Object.entries(MESSAGES).filter(([key]) => key.startsWith('field.'));
    expect(fields.length).toBeGreaterThan(10);
    expect(new Set(fields.map(([, e]) => e.en)).size).toBe(fields.length);
    for (const [key, e] of fields) expect(placeholders(e.en), key).toEqual([]);
  });

  it('fills placeholders, each language with its own text', () => {
    expect(t('sk', 'print.printedFor', { name: 'Jana' })).toBe('Vytlačené pre Jana');
    expect(t('cs', 'mail.ekasaOffline')).not.toBe(t('sk', 'mail.ekasaOffline'));
    expect(t('en', 'mail.receiptNo', {})).toBe('Receipt no. {number}');
  });

  it('writes decimals with the language\'s sign', () => {
    expect(localDecimal('sk', '-0.15')).toBe('-0,15');
    expect(localDecimal('cs', '12')).toBe('12');
    expect(localDecimal('en', '12.50')).toBe('12.50');
  });
});
