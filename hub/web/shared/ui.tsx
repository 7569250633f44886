/**
 * The building blocks every page of the house uses — buttons, badges, cards, notices, a spinner — so
 * the manager's page and head office's look and behave alike (their looks: ui.css). What needs a
 * page's own router or stores stays in that page (manager/components/ui.tsx).
 */
import type { ButtonHTMLAttributes, ComponentChildren } from 'preact';
import { Icon, type IconName } from './Icon';
import { messages } from './i18n';
import './ui.css';

const t = messages({
  dismiss: { en: 'Dismiss', sk: 'Zavrieť správu', cs: 'Zavřít zprávu' },
  loading: { en: 'Loading…', sk: 'Načítava sa…', cs: 'Načítá se…' },
});

export type Tone = 'neutral' | 'good' | 'warn' | 'bad' | 'info';

export interface ButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'icon' | 'type'> {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  busy?: boolean;
  icon?: IconName;
  small?: boolean;
  type?: 'button' | 'submit';
  disabled?: boolean;
}

export function Button({ variant = 'secondary', busy, icon, small, children, type = 'button', disabled, ...rest }: ButtonProps) {
  return (
    <button {...rest} type={type} disabled={disabled || busy} aria-busy={busy || undefined} class={`btn btn-${variant}${small ? ' btn-small' : ''} ${rest.class ?? ''}`}>
      {busy ? <span class="spinner" aria-hidden="true" /> : icon ? <Icon name={icon} /> : null}
      {children && <span>{children}</span>}
    </button>
  );
}

export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ComponentChildren }) {
  return <span class={`badge badge-${tone}`}>{children}</span>;
}

export function Card({ title, actions, children, class: cls }: { title?: ComponentChildren; actions?: ComponentChildren; children: ComponentChildren; class?: string }) {
  return (
    <section class={`card ${cls ?? ''}`}>
      {(title || actions) && (
        <header class="card-head">
          {title && <h2>{title}</h2>}
          {actions && <div class="card-actions">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}

export function Notice({ tone = 'info', children, onClose }: { tone?: Tone; children: ComponentChildren; onClose?: () => void }) {
  return (
    <div class={`notice notice-${tone}`} role={tone === 'bad' ? 'alert' : 'status'}>
      <div class="notice-body">{children}</div>
      {onClose && (
        <button type="button" class="icon-btn" aria-label={t('dismiss')} onClick={onClose}>
          <Icon name="close" />
        </button>
      )}
    </div>
  );
}

export function Spinner({ label }: { label?: string }) {
  return (
    <div class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      <span>{label ?? t('loading')}</span>
    </div>
  );
}
