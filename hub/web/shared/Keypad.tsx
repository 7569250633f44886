/**
 * The twelve keys of a phone's keypad, big for wet or busy fingers, on a tablet (a display's pairing
 * code, a waiter's PIN, an amount): 1–9, a key of the caller's choosing (C to clear, or the decimal
 * sign), 0 and ⌫. What a key does is the caller's; the looks are the page's (`class`).
 */
import { messages } from './i18n';

const t = messages({
  clear: { en: 'Clear', sk: 'Vymazať všetko', cs: 'Vymazat vše' },
  back: { en: 'Delete the last digit', sk: 'Zmazať poslednú číslicu', cs: 'Smazat poslední číslici' },
});

export function Keypad({ class: cls, extra = 'C', onKey, testId }: { class: string; extra?: string; onKey: (key: string) => void; testId?: string }) {
  return (
    <div class={cls} data-testid={testId}>
      {['1', '2', '3', '4', '5', '6', '7', '8', '9', extra, '0', '⌫'].map((k) => (
        <button key={k} type="button" class="key" aria-label={k === '⌫' ? t('back') : k === 'C' ? t('clear') : k} onClick={() => onKey(k)}>
          {k}
        </button>
      ))}
    </div>
  );
}
