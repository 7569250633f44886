/**
 * The manager page's own building blocks: links and tabs on its router, the toolbar, drawers, toasts
 * and dialogs on its stores. Buttons, badges, cards, notices and the spinner are the house's (shared/ui.tsx).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { describeError } from '../lib/api';
import { linkHandler } from '../lib/router';
import { Store, useStore } from '../../shared/store';
import { Icon, type IconName } from '../../shared/Icon';
import { messages } from '../../shared/i18n';
import { Button, type Tone } from '../../shared/ui';

const t = messages({
  sections: { en: 'Sections', sk: 'Časti', cs: 'Části' },
  close: { en: 'Close', sk: 'Zavrieť', cs: 'Zavřít' },
  cancel: { en: 'Cancel', sk: 'Zrušiť', cs: 'Zrušit' },
});

export function LinkButton({ href, children, icon, variant = 'secondary' }: { href: string; children: ComponentChildren; icon?: IconName; variant?: 'primary' | 'secondary' | 'ghost' }) {
  return (
    <a href={href} onClick={linkHandler(href)} class={`btn btn-${variant}`}>
      {icon && <Icon name={icon} />}
      <span>{children}</span>
    </a>
  );
}

/** Filters on the left, the page's main action on the right (above them on a narrow screen). */
export function Toolbar({ children, actions }: { children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <section class="card toolbar">
      <div class="toolbar-filters">{children}</div>
      {actions && <div class="toolbar-actions">{actions}</div>}
    </section>
  );
}

export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <header class="page-head">
      <div>
        <h1>{title}</h1>
        {subtitle && <p class="page-sub">{subtitle}</p>}
      </div>
      {actions && <div class="page-actions">{actions}</div>}
    </header>
  );
}

export function Empty({ icon = 'inbox', title, children }: { icon?: IconName; title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <Icon name={icon} size={32} />
      <p class="empty-title">{title}</p>
      {children && <div class="empty-text">{children}</div>}
    </div>
  );
}

export function Tabs({ tabs, current }: { tabs: Array<{ id: string; label: string; href: string }>; current: string }) {
  return (
    <nav class="tabs" aria-label={t('sections')}>
      {tabs.map((t) => (
        <a key={t.id} href={t.href} onClick={linkHandler(t.href)} class={`tab${t.id === current ? ' active' : ''}`} aria-current={t.id === current ? 'page' : undefined}>
          {t.label}
        </a>
      ))}
    </nav>
  );
}

/** A segmented choice (e.g. All / Open / Closed): big touch targets, one tap. */
export function Segmented({ label, options, value, onChange }: { label: string; options: Array<{ value: string; label: string }>; value: string; onChange: (v: string) => void }) {
  return (
    <div class="field">
      <span class="field-label">{label}</span>
      <div class="segmented" role="radiogroup" aria-label={label}>
        {options.map((o) => (
          <button key={o.value} type="button" role="radio" aria-checked={o.value === value} class={o.value === value ? 'on' : ''} onClick={() => onChange(o.value)}>
            {o.label}
          </button>
        ))}
      </div>
    </div>
  );
}

export function Stat({ label, value, note, tone }: { label: string; value: ComponentChildren; note?: ComponentChildren; tone?: Tone }) {
  return (
    <div class={`stat${tone ? ` stat-${tone}` : ''}`}>
      <div class="stat-label">{label}</div>
      <div class="stat-value">{value}</div>
      {note && <div class="stat-note">{note}</div>}
    </div>
  );
}

/** A definition list of label → value pairs. */
export function Facts({ items }: { items: Array<[string, ComponentChildren]> }) {
  return (
    <dl class="facts">
      {items.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A panel from the right (full screen on a portrait tablet); Esc or the backdrop closes it. */
export function Drawer({ title, subtitle, onClose, children, footer, wide }: { title: ComponentChildren; subtitle?: ComponentChildren; onClose: () => void; children: ComponentChildren; footer?: ComponentChildren; wide?: boolean }) {
  const panel = useRef<HTMLDivElement>(null);
  // The panel takes the focus once, as it opens and in the same task as the render (not after the next
  // paint, and not again when a caller passes a new onClose): a field clicked meanwhile keeps its focus.
  useLayoutEffect(() => {
    if (!panel.current?.contains(document.activeElement)) panel.current?.focus();
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && !dialog.value && onClose();
    document.addEventListener('keydown', onKey);
    document.body.classList.add('has-drawer');
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.classList.remove('has-drawer');
    };
  }, [onClose]);
  return (
    <div class="drawer-wrap">
      <div class="backdrop" onClick={onClose} />
      <div class={`drawer${wide ? ' drawer-wide' : ''}`} role="dialog" aria-modal="true" aria-label={typeof title === 'string' ? title : undefined} tabIndex={-1} ref={panel}>
        <header class="drawer-head">
          <div>
            <h2>{title}</h2>
            {subtitle && <p class="drawer-sub">{subtitle}</p>}
          </div>
          <button type="button" class="icon-btn" aria-label={t('close')} onClick={onClose}>
            <Icon name="close" />
          </button>
        </header>
        <div class="drawer-body">{children}</div>
        {footer && <footer class="drawer-foot">{footer}</footer>}
      </div>
    </div>
  );
}

// ---- toasts: short confirmations that need no answer ----
interface Toast {
  id: number;
  text: string;
  tone: Tone;
}
const toasts = new Store<Toast[]>([]);
let toastSeq = 0;

export function toast(text: string, tone: Tone = 'good'): void {
  const t = { id: ++toastSeq, text, tone };
  toasts.set([...toasts.value, t]);
  setTimeout(() => toasts.set(toasts.value.filter((x) => x.id !== t.id)), tone === 'bad' ? 8000 : 3500);
}

/**
 * A button's action: busy while it runs, its failure said in a toast (`notFound`: the words for a 404).
 * Returns [busy, run]; what succeeds says so itself (a toast, a navigation, new state).
 */
export function useAction(): [boolean, (work: () => Promise<void>, notFound?: string) => Promise<void>] {
  const [busy, run] = useKeyedAction<true>();
  return [busy !== null, (work, notFound) => run(true, work, notFound)];
}

/**
 * `useAction` for a row of buttons (one per file, shift, format…): `busy` names the one running,
 * so only its button spins.
 */
export function useKeyedAction<K>(): [K | null, (key: K, work: () => Promise<void>, notFound?: string) => Promise<void>] {
  const [busy, setBusy] = useState<K | null>(null);
  const run = async (key: K, work: () => Promise<void>, notFound?: string) => {
    setBusy(key);
    try {
      await work();
    } catch (e) {
      toast(describeError(e, notFound), 'bad');
    } finally {
      setBusy(null);
    }
  };
  return [busy, run];
}

/**
 * A form's action: busy while it runs; its failure kept (`failure`) for the form to show by its
 * fields, cleared when it runs again. `fail` says a problem found before any call (a check).
 */
export function useFormAction(): { busy: boolean; failure: string | null; fail: (text: string | null) => void; run: (work: () => Promise<void>) => Promise<void> } {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setFailure(null);
    try {
      await work();
    } catch (e) {
      setFailure(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, fail: setFailure, run };
}

export function Toasts() {
  const list = useStore(toasts);
  return (
    <div class="toasts" aria-live="polite">
      {list.map((t) => (
        <div key={t.id} class={`toast toast-${t.tone}`}>
          {t.text}
        </div>
      ))}
    </div>
  );
}

// ---- confirmation dialog: for actions that cannot be undone ----
interface Ask {
  title: string;
  text: ComponentChildren;
  confirm: string;
  danger?: boolean;
  resolve: (yes: boolean) => void;
}
const dialog = new Store<Ask | null>(null);

export function confirm(opts: Omit<Ask, 'resolve'>): Promise<boolean> {
  return new Promise((resolve) => dialog.set({ ...opts, resolve }));
}

export function Dialogs() {
  const ask = useStore(dialog);
  const ok = useRef<HTMLButtonElement>(null);
  useEffect(() => ok.current?.focus(), [ask]);
  if (!ask) return null;
  const answer = (yes: boolean) => {
    dialog.set(null);
    ask.resolve(yes);
  };
  return (
    <div class="dialog-wrap" onKeyDown={(e) => e.key === 'Escape' && answer(false)}>
      <div class="backdrop" onClick={() => answer(false)} />
      <div class="dialog" role="alertdialog" aria-modal="true" aria-labelledby="dialog-title">
        <h2 id="dialog-title">{ask.title}</h2>
        <div class="dialog-text">{ask.text}</div>
        <div class="dialog-actions">
          <Button variant="ghost" onClick={() => answer(false)}>
            {t('cancel')}
          </Button>
          <button ref={ok} type="button" class={`btn ${ask.danger ? 'btn-danger' : 'btn-primary'}`} onClick={() => answer(true)}>
            {ask.confirm}
          </button>
        </div>
      </div>
    </div>
  );
}
