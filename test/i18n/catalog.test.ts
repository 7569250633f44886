/** The message catalog (hub/i18n/messages.ts): every text in English and Slovak, with the same placeholders. */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../hub/i18n/messages.js';
import { localDecimal, t } from '../../hub/i18n/index.js';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('message catalog', () => {
  it('has every key in English and Slovak (Czech where written), none empty, all with the same placeholders', () => {
    for (const [key, entry] of Object.entries(MESSAGES) as Array<[string, { en: string; sk: string; cs?: string }]>) {
      expect(entry.en.trim(), `${key} en`).not.toBe('');
      expect(entry.sk.trim(), `${key} sk`).not.toBe('');
      expect(placeholders(entry.sk), `${key} sk placeholders`).toEqual(placeholders(entry.en));
      if (entry.cs !== undefined) expect(placeholders(entry.cs), `${key} cs placeholders`).toEqual(placeholders(entry.en));
    }
  });

  it('fills placeholders, and Czech falls back to Slovak where it has no text of its own', () => {
    expect(t('sk', 'print.printedFor', { name: 'Jana' })).toBe('Vytlačené pre Jana');
    expect(t('cs', 'mail.ekasaOffline')).toBe(t('sk', 'mail.ekasaOffline'));
    expect(t('en', 'mail.receiptNo', {})).toBe('Receipt no. {number}');
  });

  it('writes decimals with the language\'s sign', () => {
    expect(localDecimal('sk', '-0.15')).toBe('-0,15');
    expect(localDecimal('cs', '12')).toBe('12');
    expect(localDecimal('en', '12.50')).toBe('12.50');
  });
});
