/** This browser's language, by hand: wins over the user's and the shop's until switched back. */
import { chooseLanguage, LANGUAGE_NAMES, LANGUAGES, messages, useLanguage, type Language } from '../../shared/i18n';
import { useSession } from '../lib/session';

const t = messages({ language: { en: 'Language', sk: 'Jazyk', cs: 'Jazyk' } });

export function LanguagePicker() {
  const lang = useLanguage();
  const s = useSession();
  return (
    <label class="language-picker">
      <span class="sr-only">{t('language')}</span>
      <select value={lang} aria-label={t('language')} onChange={(e) => chooseLanguage((e.target as HTMLSelectElement).value as Language, s?.user.language ?? null)}>
        {LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
