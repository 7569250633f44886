/** The display's top bar: which screen this is, the hub's time, the connection, recall, history, sound, log out. */
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { messages } from '../shared/i18n';
// The shop's clock (the session's zone), as the kitchen's printed tickets show it.
import { time as hhmm } from '../shared/format';
import { hasRight, hubNow, logout, session } from './api';
import { audioLocked, onAudioChange, unlockAudio } from './beep';
import { orderNumber, placeOf, type Feed } from './feed';
import { clock } from './Ticket';

const t = messages({
  live: { en: 'Live', sk: 'Pripojené', cs: 'Připojeno' },
  connecting: { en: 'Connecting…', sk: 'Pripája sa…', cs: 'Připojuje se…' },
  offlineFor: { en: 'Offline {time} · reconnecting', sk: 'Offline {time} · znova sa pripája', cs: 'Offline {time} · znovu se připojuje' },
  offline: { en: 'Offline · reconnecting', sk: 'Offline · znova sa pripája', cs: 'Offline · znovu se připojuje' },
  viewOnlyTitle: { en: 'This user lacks the right OrderProcess: taps are refused.', sk: 'Tento používateľ nemá právo OrderProcess: ťuknutia sa odmietnu.', cs: 'Tento uživatel nemá právo OrderProcess: ťuknutí budou odmítnuta.' },
  viewOnly: { en: 'View only', sk: 'Len na čítanie', cs: 'Jen pro čtení' },
  tapForSound: { en: 'Tap for sound', sk: 'Ťuknite pre zvuk', cs: 'Ťukněte pro zvuk' },
  time: { en: 'Time', sk: 'Čas', cs: 'Čas' },
  userOn: { en: '{user} on {device}', sk: '{user} na zariadení {device}', cs: '{user} na zařízení {device}' },
  logoutConfirm: { en: 'Log this display out? It will need a new pairing code or a login.', sk: 'Odhlásiť tento displej? Potom bude potrebovať nový párovací kód alebo prihlásenie.', cs: 'Odhlásit tento displej? Pak bude potřebovat nový párovací kód nebo přihlášení.' },
  logout: { en: 'Log out', sk: 'Odhlásiť', cs: 'Odhlásit' },
  recall: { en: 'Recall', sk: 'Vrátiť', cs: 'Vrátit' },
  recallOrder: { en: 'Recall #{n}', sk: 'Vrátiť #{n}', cs: 'Vrátit #{n}' },
  inProgress: { en: 'In progress', sk: 'Pripravuje sa', cs: 'Připravuje se' },
  New: { en: 'New', sk: 'Nové', cs: 'Nové' },
  Ready: { en: 'Ready', sk: 'Hotové', cs: 'Hotové' },
  history: { en: 'Served', sk: 'Vydané', cs: 'Vydané' },
  historyTitle: { en: 'Served in the last 30 minutes', sk: 'Vydané za posledných 30 minút', cs: 'Vydané za posledních 30 minut' },
  historyEmpty: { en: 'Nothing was served in the last 30 minutes.', sk: 'Za posledných 30 minút sa nič nevydalo.', cs: 'Za posledních 30 minut se nic nevydalo.' },
  servedAt: { en: 'served {time}', sk: 'vydané {time}', cs: 'vydáno {time}' },
  ago: { en: '{time} ago', sk: 'pred {time}', cs: 'před {time}' },
  recallToReady: { en: 'Recall to Ready', sk: 'Vrátiť medzi hotové', cs: 'Vrátit mezi hotové' },
  recalling: { en: 'Recalling…', sk: 'Vracia sa…', cs: 'Vrací se…' },
  close: { en: 'Close', sk: 'Zavrieť', cs: 'Zavřít' },
});

/** The label of a state, as the columns name it. */
export function stateLabel(state: string): string {
  return state === 'InProgress' ? t('inProgress') : state === 'New' ? t('New') : state === 'Ready' ? t('Ready') : state;
}

function Connection({ feed, now }: { feed: Feed; now: number }): JSX.Element {
  const label =
    feed.conn === 'live' ? t('live') : feed.conn === 'connecting' ? t('connecting') : feed.lastContact ? t('offlineFor', { time: clock(now - feed.lastContact) }) : t('offline');
  return (
    <span class={`conn conn-${feed.conn}`} data-testid="conn" data-conn={feed.conn} role="status">
      <span class="dot" aria-hidden="true" />
      {label}
    </span>
  );
}

export function Top(props: { title: string; subtitle?: string; feed: Feed; now: number; beepEnabled: boolean; children?: ComponentChildren }): JSX.Element {
  const { feed } = props;
  const [locked, setLocked] = useState(audioLocked());
  useEffect(() => onAudioChange(() => setLocked(audioLocked())), []);
  const time = hhmm(new Date(hubNow()).toISOString());
  const user = session()?.user;
  return (
    <header class="top">
      <div class="title">
        <h1>{props.title}</h1>
        {props.subtitle && <span class="subtitle">{props.subtitle}</span>}
      </div>
      <Connection feed={feed} now={props.now} />
      {user && !hasRight('OrderProcess') && (
        <span class="chip warn" title={t('viewOnlyTitle')}>
          {t('viewOnly')}
        </span>
      )}
      {props.beepEnabled && locked && (
        <button class="chip warn" type="button" onClick={unlockAudio}>
          {t('tapForSound')}
        </button>
      )}
      <div class="spacer" />
      <div class="actions">
        {props.children}
        <span class="time" aria-label={t('time')}>
          {time}
        </span>
        <button
          class="chip ghost"
          type="button"
          data-testid="logout"
          title={user ? t('userOn', { user: user.name || user.userName, device: user.device.name }) : undefined}
          onClick={() => {
            if (confirm(t('logoutConfirm'))) void logout();
          }}
        >
          {t('logout')}
        </button>
      </div>
    </header>
  );
}

/** Recall: the last bumped order back one step (or a pending Served kept). */
export function RecallButton({ feed }: { feed: Feed }): JSX.Element {
  const last = feed.lastBump();
  const label = last ? t('recallOrder', { n: last.order.id.slice(-6).toUpperCase() }) : t('recall');
  return (
    <button class="chip recall" type="button" disabled={!last} onClick={() => feed.recall()} data-testid="recall">
      ↶ {label}
      {last && <span class="recall-to"> → {stateLabel(last.from)}</span>}
    </button>
  );
}

/** The history button: how many orders were served lately; a tap opens the list. */
export function HistoryButton({ feed, open, onToggle }: { feed: Feed; open: boolean; onToggle: () => void }): JSX.Element {
  return (
    <button class={`chip history-toggle${open ? ' on' : ''}`} type="button" aria-expanded={open} onClick={onToggle} data-testid="history-toggle">
      ☰ {t('history')} <span class="count">{feed.history().length}</span>
    </button>
  );
}

/** The orders served in the last half hour, each with a button that brings it back to Ready. */
export function History({ feed, onClose }: { feed: Feed; onClose: () => void }): JSX.Element {
  const list = feed.history();
  return (
    <aside class="history" data-testid="history" aria-label={t('historyTitle')}>
      <header class="history-head">
        <h2>{t('historyTitle')}</h2>
        <button class="chip ghost" type="button" onClick={onClose}>
          ✕ {t('close')}
        </button>
      </header>
      {list.length === 0 && <p class="empty">{t('historyEmpty')}</p>}
      <ul class="history-list">
        {list.map((o) => {
          const at = Date.parse(o.stateChangedAt ?? o.createdAt);
          const place = placeOf(o);
          const busy = feed.isRecalling(o.id);
          return (
            <li key={o.id} class="served" data-served-id={o.id}>
              <div class="served-main">
                <div class="served-head">
                  <span class="place">{place.title}</span>
                  {place.sub && <span class="zone">{place.sub}</span>}
                  <span class="number">#{orderNumber(o)}</span>
                </div>
                <div class="served-items">{o.items.map((i) => `${i.quantity}× ${i.name}`).join(', ')}</div>
                <div class="served-when">
                  {t('servedAt', { time: hhmm(new Date(at).toISOString()) })} ·{' '}
                  {t('ago', { time: clock(hubNow() - at) })}
                </div>
              </div>
              <button class="chip recall" type="button" disabled={busy} onClick={() => void feed.recallServed(o.id)}>
                ↶ {busy ? t('recalling') : t('recallToReady')}
              </button>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}

/** The last problem, shown for eight seconds. */
export function Message({ feed, now }: { feed: Feed; now: number }): JSX.Element | null {
  if (!feed.message || now - feed.message.at > 8000) return null;
  return (
    <div class="toast" role="alert">
      {feed.message.text}
    </div>
  );
}
