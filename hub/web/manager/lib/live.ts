/**
 * One EventSource per logged-in page on GET /api/events. Subscribers name the resources they
 * show; each change calls them with `{resource, key, op}`. While the browser reconnects by itself
 * (Last-Event-ID) nothing is lost; when the stream is refused (token expired, log compacted past
 * our position) a fresh stream starts and every subscriber gets `null`: reload everything.
 */
import { useEffect, useRef } from 'preact/hooks';
import { refreshSession, session } from './session';
import { Store } from '../../shared/store';
import type { Change } from '../../shared/types';

export type { Change };

type Listener = (change: Change | null) => void;
export type LiveStatus = 'off' | 'connecting' | 'live' | 'reconnecting';

export const liveStatus = new Store<LiveStatus>('off');

const listeners = new Map<string, Set<Listener>>();
let source: EventSource | null = null;
let listening = new Set<string>();
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let hadStream = false;

function dispatch(resource: string, change: Change | null): void {
  for (const fn of [...(listeners.get(resource) ?? [])]) fn(change);
}

function listen(resource: string): void {
  if (!source || listening.has(resource)) return;
  listening.add(resource);
  // The hub names each event after its resource, so a plain onmessage would never fire.
  source.addEventListener(resource, (ev) => {
    try {
      dispatch(resource, JSON.parse((ev as MessageEvent<string>).data) as Change);
    } catch {
      /* a malformed event is ignored; the next full reload corrects the view */
    }
  });
}

function connect(): void {
  const token = session.value?.tokenId;
  if (!token) return;
  source = new EventSource(`/api/events?access_token=${encodeURIComponent(token)}`);
  listening = new Set();
  liveStatus.set(hadStream ? 'reconnecting' : 'connecting');
  for (const resource of listeners.keys()) listen(resource);
  const opened = source;
  opened.onopen = () => {
    liveStatus.set('live');
    // A new stream starts at "now": whatever happened while there was none must be reloaded.
    if (hadStream) for (const resource of listeners.keys()) dispatch(resource, null);
    hadStream = true;
  };
  opened.onerror = () => {
    if (opened !== source) return;
    if (opened.readyState === EventSource.CLOSED) {
      liveStatus.set('reconnecting');
      opened.close();
      source = null;
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => {
        // Renews an expired token (or ends the session) before the next attempt.
        void refreshSession()
          .catch(() => undefined)
          .then(() => {
            if (!source) connect();
          });
      }, 3000);
    } else {
      liveStatus.set('reconnecting');
    }
  };
}

export function startLive(): void {
  if (source) return;
  hadStream = false;
  connect();
}

export function stopLive(): void {
  clearTimeout(retryTimer);
  source?.close();
  source = null;
  liveStatus.set('off');
}

export function subscribe(resources: string[], fn: Listener): () => void {
  for (const r of resources) {
    if (!listeners.has(r)) listeners.set(r, new Set());
    listeners.get(r)!.add(fn);
    listen(r);
  }
  return () => resources.forEach((r) => listeners.get(r)?.delete(fn));
}

/** Calls `fn` on every change of these resources (and with null after a gap) while mounted. */
export function useLive(resources: string[], fn: Listener): void {
  const latest = useRef(fn);
  latest.current = fn;
  const key = resources.join(',');
  useEffect(() => subscribe(key ? key.split(',') : [], (c) => latest.current(c)), [key]);
}

/** Calls `fn` at most once per `ms` for a burst of changes (a register writing many tickets). */
export function useLiveReload(resources: string[], fn: () => void, ms = 250): void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(fn);
  latest.current = fn;
  useEffect(() => () => clearTimeout(timer.current), []);
  useLive(resources, () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      latest.current();
    }, ms);
  });
}
