/** Small hooks of the display: a re-render per feed change, a ticking clock, the session, the route. */
import { useEffect, useState } from 'preact/hooks';
import { onSession, session, type Session } from './api';
import type { Feed } from './feed';

export function useFeed(feed: Feed): void {
  const [, setTick] = useState(0);
  useEffect(() => feed.subscribe(() => setTick((n) => n + 1)), [feed]);
}

/** Date.now() every `ms`, so age timers move without anything else changing. */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

export function useSession(): Session | null {
  const [s, setS] = useState(session());
  useEffect(() => onSession(() => setS(session())), []);
  return s;
}

export type Route =
  | { kind: 'picker' }
  | { kind: 'kitchen'; name: string }
  | { kind: 'expo'; name: string | null; endpoints: string[] | null };

/**
 * /kds (pick an endpoint), /kds/<name> (the kitchen), /kds/<name>/expo or /kds/<name>?view=expo
 * (the pass for that endpoint), /expo (the pass for every endpoint, or ?endpoints=a,b). Under
 * `vite dev` the page is /kds.html?endpoint=<name>.
 */
export function parseRoute(path: string, search: string): Route {
  const params = new URLSearchParams(search);
  const parts = path.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
  if (parts[0] === 'expo' && parts.length === 1) {
    const list = params.get('endpoints');
    return { kind: 'expo', name: null, endpoints: list ? list.split(',').map((s) => s.trim()).filter(Boolean) : null };
  }
  const name = parts[0] === 'kds' ? parts[1] : params.get('endpoint') ?? undefined;
  if (!name) return { kind: 'picker' };
  if (parts[2] === 'expo' || params.get('view') === 'expo') return { kind: 'expo', name, endpoints: [name] };
  return { kind: 'kitchen', name };
}

const routeListeners = new Set<() => void>();
addEventListener('popstate', () => routeListeners.forEach((fn) => fn()));

export function go(to: string): void {
  history.pushState(null, '', to);
  routeListeners.forEach((fn) => fn());
}

export function useRoute(): Route {
  const [route, setRoute] = useState(parseRoute(location.pathname, location.search));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.pathname, location.search));
    routeListeners.add(update);
    return () => void routeListeners.delete(update);
  }, []);
  return route;
}

export const kitchenPath = (name: string) => `/kds/${encodeURIComponent(name)}`;
