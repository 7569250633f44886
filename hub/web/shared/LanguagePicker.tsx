/**
 * This browser's language, by hand: wins over the user's and the shop's until switched back. Shared:
 * the manager's page has it in its sidebar, head office's in its header.
 */
import { chooseLanguage, LANGUAGE_NAMES, LANGUAGES, messages, useLanguage, type Language } from './i18n';
import './ui.css';

const t = messages({ language: { en: 'Language', sk: 'Jazyk', cs: 'Jazyk' } });

/** `userLanguage`: the logged-in user's own language, what choosing none falls back to. */
export function LanguagePicker({ userLanguage = null }: { userLanguage?: Language | null }) {
  const lang = useLanguage();
  return (
    <label class="language-picker">
      <span class="sr-only">{t('language')}</span>
      <select value={lang} aria-label={t('language')} onChange={(e) => chooseLanguage((e.target as HTMLSelectElement).value as Language, userLanguage)}>
        {LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
