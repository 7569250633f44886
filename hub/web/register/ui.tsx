/** The register's building blocks: a dialog, a number pad, the messages at the foot, error words. */
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { language, messages } from '../shared/i18n';
import { Keypad } from '../shared/Keypad';
import { NetworkError } from './api';
import { say, useNotes } from './hooks';

const t = messages({
  close: { en: 'Close', sk: 'Zavrieť', cs: 'Zavřít' },
  tables: { en: 'Tables', sk: 'Stoly', cs: 'Stoly' },
  back: { en: 'Back', sk: 'Späť', cs: 'Zpět' },
  unreachable: { en: 'The hub cannot be reached. Nothing was changed; try again when the connection is back.', sk: 'Hub je nedostupný. Nič sa nezmenilo; skúste to znova, keď bude spojenie späť.', cs: 'Hub je nedostupný. Nic se nezměnilo; zkuste to znovu, až bude spojení zpět.' },
});

export function Dialog(props: { title: string; onClose: () => void; children: ComponentChildren; wide?: boolean; testId?: string; actions?: ComponentChildren }): JSX.Element {
  const box = useRef<HTMLDivElement>(null);
  // The first field takes the focus as the dialog opens, in the same task as the render: a passive
  // effect runs after the next paint, so a waiter (or a test) quick enough to tap another field first
  // had the focus taken from under the finger and the typing sent to the first field.
  useLayoutEffect(() => {
    if (!box.current?.contains(document.activeElement)) box.current?.querySelector<HTMLElement>('[autofocus], input, textarea')?.focus();
  }, []);
  useEffect(() => {
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape') props.onClose();
    };
    addEventListener('keydown', key);
    return () => removeEventListener('keydown', key);
  }, []);
  return (
    <div class="backdrop" onPointerDown={(e) => e.target === e.currentTarget && props.onClose()}>
      <div class={`dialog${props.wide ? ' wide' : ''}`} role="dialog" aria-modal="true" aria-label={props.title} data-testid={props.testId} ref={box}>
        <header class="dialog-head">
          <h2>{props.title}</h2>
          <button type="button" class="icon-button" aria-label={t('close')} onClick={props.onClose}>
            ✕
          </button>
        </header>
        <div class="dialog-body">{props.children}</div>
        {props.actions && <footer class="dialog-actions">{props.actions}</footer>}
      </div>
    </div>
  );
}

/** A form's submit: no page load, `act` instead (what it promises is its own to handle). */
export const submitting = (act: () => unknown) => (e: Event) => {
  e.preventDefault();
  void act();
};

/** A screen's head: the way back (to the tables, or one step back) and the screen's title. */
export function ScreenHead(props: { title: ComponentChildren; back: 'tables' | 'step'; onBack: () => void; disabled?: boolean; titleTestId?: string }): JSX.Element {
  return (
    <header class="ticket-head">
      <button type="button" class="ghost" onClick={props.onBack} disabled={props.disabled}>
        ← {props.back === 'tables' ? t('tables') : t('back')}
      </button>
      <h2 data-testid={props.titleTestId}>{props.title}</h2>
    </header>
  );
}

/** Digits for a PIN, a quantity or an amount: big keys, no keyboard needed. */
export function NumPad(props: { value: string; onChange: (v: string) => void; decimal?: boolean; maxLength?: number; testId?: string }): JSX.Element {
  // The decimal sign people write: 1,50 in Slovak and Czech, 1.50 in English (parseDecimal reads both).
  const sign = language() === 'en' ? '.' : ',';
  const press = (k: string) => {
    if (k === '⌫') return props.onChange(props.value.slice(0, -1));
    if (k === 'C') return props.onChange('');
    if (k === sign && (/[.,]/.test(props.value) || !props.decimal)) return;
    if (props.maxLength && props.value.length >= props.maxLength) return;
    props.onChange(props.value + k);
  };
  return <Keypad class="numpad" extra={props.decimal ? sign : 'C'} onKey={press} testId={props.testId} />;
}

/** The messages of the moment, at the foot of the screen. */
export function Notes(): JSX.Element {
  const notes = useNotes();
  return (
    <div class="notes" aria-live="polite">
      {notes.map((n) => (
        <div key={n.id} class={`note ${n.kind}`} role={n.kind === 'error' ? 'alert' : 'status'}>
          {n.text}
        </div>
      ))}
    </div>
  );
}

/** What to tell the waiter when a call failed: the hub's own words (in the waiter's language), or that it is out of reach. */
export function failure(e: unknown): string {
  if (e instanceof NetworkError) return t('unreachable');
  return e instanceof Error ? e.message : String(e);
}

/**
 * A button's action: `busy` names the one running (so only its button waits), a failure is said at
 * the foot of the screen. Returns [busy, run]; what succeeds says so itself.
 */
export function useAction<K = true>(): [K | null, (key: K, work: () => Promise<void>) => Promise<void>] {
  const [busy, setBusy] = useState<K | null>(null);
  const run = async (key: K, work: () => Promise<void>) => {
    setBusy(key);
    try {
      await work();
    } catch (e) {
      say(failure(e), 'error');
    } finally {
      setBusy(null);
    }
  };
  return [busy, run];
}
