/** One kitchen ticket: where it goes, how old it is, what to cook; the whole card is the bump button. */
import type { JSX } from 'preact';
import { messages } from '../shared/i18n';
import { hubNow } from './api';
import { orderNumber, placeOf, type Feed, type Order } from './feed';

export interface Timers {
  amberMs: number;
  redMs: number;
}

/** 4:07, or 1:02:07 past an hour. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const two = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

export function ageClass(ms: number, t: Timers): 'fresh' | 'amber' | 'red' {
  return ms >= t.redMs ? 'red' : ms >= t.amberMs ? 'amber' : 'fresh';
}

const t = messages({
  New: { en: 'Tap to start', sk: 'Ťuknite na začatie', cs: 'Ťukněte pro zahájení' },
  InProgress: { en: 'Tap when ready', sk: 'Ťuknite, keď je hotové', cs: 'Ťukněte, když je hotovo' },
  Ready: { en: 'Tap when served', sk: 'Ťuknite, keď je vydané', cs: 'Ťukněte, když je vydáno' },
  seen: { en: 'Tap when seen', sk: 'Ťuknite, keď ste videli', cs: 'Ťukněte, až to uvidíte' },
  servingIn: { en: 'Served in {s} s · tap to keep', sk: 'Vydá sa o {s} s · ťuknutím ponecháte', cs: 'Vydá se za {s} s · ťuknutím ponecháte' },
  sending: { en: '{action} · sending…', sk: '{action} · odosiela sa…', cs: '{action} · odesílá se…' },
  cancelBanner: { en: 'CANCEL', sk: 'STORNO', cs: 'STORNO' },
  cancelledLater: { en: 'Cancelled later: {what}', sk: 'Neskôr stornované: {what}', cs: 'Později stornováno: {what}' },
  cancelOrder: { en: 'Cancel order ', sk: 'Storno objednávky ', cs: 'Storno objednávky ' },
  label: { en: '{cancel}{place}, order {n}. {action}.', sk: '{cancel}{place}, objednávka {n}. {action}.', cs: '{cancel}{place}, objednávka {n}. {action}.' },
});

const ACTION: Record<string, () => string> = { New: () => t('New'), InProgress: () => t('InProgress'), Ready: () => t('Ready') };

/** "Cancelled later: −1× Soup", on a ticket and on its order at the pass. */
export const cancelledLater = (what: string) => t('cancelledLater', { what });

/** "Served in 4 s · tap to keep", for a ticket and a table at the pass. */
export const servingIn = (s: number) => t('servingIn', { s });

export function Items({ order, struck = false }: { order: Order; struck?: boolean }): JSX.Element {
  return (
    <ul class={`items${struck ? ' struck' : ''}`}>
      {order.items.map((item) => (
        <li key={item.itemId} class="item">
          <div class="line">
            <span class="qty">{order.kind === 'Cancel' ? '−' : ''}{item.quantity}×</span>
            <span class="name">{item.name}</span>
          </div>
          {item.modifiers.length > 0 && (
            <ul class="mods">
              {item.modifiers.map((m, i) => (
                <li key={i}>
                  + {m.quantity !== 1 ? `${m.quantity}× ` : ''}
                  {m.name}
                </li>
              ))}
            </ul>
          )}
          {item.comment && <p class="comment">{item.comment}</p>}
        </li>
      ))}
    </ul>
  );
}

export function Ticket(props: { order: Order; feed: Feed; timers: Timers; fresh: boolean; now: number }): JSX.Element {
  const { order, feed, timers } = props;
  const state = feed.shownState(order);
  const servingUntil = feed.isServing(order.id);
  const age = hubNow() - Date.parse(order.createdAt);
  const place = placeOf(order);
  const cancel = order.kind === 'Cancel';
  const pending = feed.isPending(order.id);
  const cls = [
    'ticket',
    cancel ? 'cancel' : `age-${ageClass(age, timers)}`,
    `state-${state}`,
    servingUntil ? 'serving' : '',
    props.fresh ? 'fresh-arrival' : '',
    pending ? 'pending' : '',
  ].join(' ');
  const action = cancel ? t('seen') : servingUntil ? servingIn(Math.max(0, Math.ceil((servingUntil - props.now) / 1000))) : (ACTION[state]?.() ?? '');
  const changed = feed.changedLater(order);
  const bump = () => feed.bump(order.id);
  return (
    <div
      class={cls}
      role="button"
      tabIndex={0}
      data-order-id={order.id}
      data-state={cancel ? 'Cancelled' : state}
      aria-label={t('label', { cancel: cancel ? t('cancelOrder') : '', place: place.title, n: orderNumber(order), action })}
      onClick={bump}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          bump();
        }
      }}
    >
      {cancel && <div class="cancel-banner">{t('cancelBanner')}</div>}
      <header class="head">
        <span class="place">{place.title}</span>
        {place.sub && <span class="zone">{place.sub}</span>}
        <span class="timer" data-testid="age">
          {clock(age)}
        </span>
      </header>
      {changed && <div class="changed">{cancelledLater(changed)}</div>}
      <div class="meta">
        <span class="number">#{orderNumber(order)}</span>
        {order.employee?.name && <span>{order.employee.name}</span>}
        {order.ticketName && order.ticketName !== place.title && <span>{order.ticketName}</span>}
      </div>
      <Items order={order} struck={cancel} />
      <footer class="action">{pending ? t('sending', { action }) : action}</footer>
    </div>
  );
}
