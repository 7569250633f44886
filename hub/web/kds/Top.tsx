/** The display's top bar: which screen this is, the hub's time, the connection, recall, sound, log out. */
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { hasRight, hubNow, logout, session } from './api';
import { audioLocked, onAudioChange, unlockAudio } from './beep';
import type { Feed } from './feed';
import { clock } from './Ticket';

function Connection({ feed, now }: { feed: Feed; now: number }): JSX.Element {
  const label =
    feed.conn === 'live'
      ? 'Live'
      : feed.conn === 'connecting'
        ? 'Connecting…'
        : feed.lastContact
          ? `Offline ${clock(now - feed.lastContact)} · reconnecting`
          : 'Offline · reconnecting';
  return (
    <span class={`conn conn-${feed.conn}`} data-testid="conn" role="status">
      <span class="dot" aria-hidden="true" />
      {label}
    </span>
  );
}

export function Top(props: { title: string; subtitle?: string; feed: Feed; now: number; beepEnabled: boolean; children?: ComponentChildren }): JSX.Element {
  const { feed } = props;
  const [locked, setLocked] = useState(audioLocked());
  useEffect(() => onAudioChange(() => setLocked(audioLocked())), []);
  const time = new Date(hubNow()).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const user = session()?.user;
  return (
    <header class="top">
      <div class="title">
        <h1>{props.title}</h1>
        {props.subtitle && <span class="subtitle">{props.subtitle}</span>}
      </div>
      <Connection feed={feed} now={props.now} />
      {user && !hasRight('OrderProcess') && (
        <span class="chip warn" title="This user lacks the right OrderProcess: taps are refused.">
          View only
        </span>
      )}
      {props.beepEnabled && locked && (
        <button class="chip warn" type="button" onClick={unlockAudio}>
          Tap for sound
        </button>
      )}
      <div class="spacer" />
      {props.children}
      <span class="time" aria-label="Time">
        {time}
      </span>
      <button
        class="chip ghost"
        type="button"
        title={user ? `${user.name || user.userName} on ${user.device.name}` : undefined}
        onClick={() => {
          if (confirm('Log this display out? It will need a new pairing code or a login.')) void logout();
        }}
      >
        Log out
      </button>
    </header>
  );
}

/** Recall: the last bumped order back one step (or a pending Served kept). */
export function RecallButton({ feed }: { feed: Feed }): JSX.Element {
  const last = feed.lastBump();
  const label = last ? `Recall #${last.order.id.slice(-6).toUpperCase()}` : 'Recall';
  return (
    <button class="chip recall" type="button" disabled={!last} onClick={() => feed.recall()} data-testid="recall">
      ↶ {label}
      {last && <span class="recall-to"> → {last.from === 'InProgress' ? 'In progress' : last.from}</span>}
    </button>
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
