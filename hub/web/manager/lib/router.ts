/**
 * Client routes on the History API (the hub answers every non-/api path with the page), with
 * list state (filters, page, sort, the open drawer) kept in the query string so reload and the
 * back button work as a manager expects.
 */
import { useCallback } from 'preact/hooks';
import { Store, useStore } from '../../shared/store';

interface Loc {
  path: string;
  search: string;
}

const read = (): Loc => ({ path: window.location.pathname, search: window.location.search });
export const loc = new Store<Loc>(read());
window.addEventListener('popstate', () => loc.set(read()));

/**
 * A view with work not yet saved (a stock count) asks before the page leaves it for another path:
 * `ask` answers whether to go. One at a time; `null` lifts it. Query changes within the view pass.
 */
let leaveGuard: (() => Promise<boolean>) | null = null;
export function guardLeaving(ask: (() => Promise<boolean>) | null): void {
  leaveGuard = ask;
}

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  const url = new URL(to, window.location.origin);
  const next = url.pathname + url.search;
  if (next === window.location.pathname + window.location.search) return;
  const guard = leaveGuard;
  if (guard && url.pathname !== window.location.pathname) {
    void guard().then((go) => {
      if (!go) return;
      if (leaveGuard === guard) leaveGuard = null;
      navigate(to, opts);
    });
    return;
  }
  if (opts.replace) history.replaceState(null, '', next);
  else history.pushState(null, '', next);
  loc.set(read());
  if (!opts.replace) window.scrollTo(0, 0);
}

/** `/tickets/:id` against a path: the params, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) params[p[i].slice(1)] = decodeURIComponent(s[i]);
    else if (p[i] !== s[i]) return null;
  }
  return params;
}

export function useLocation(): Loc {
  return useStore(loc);
}

/** Query parameters as state: `set({page: '2', sort: null})`; null removes a parameter. */
export function useQuery(): [URLSearchParams, (changes: Record<string, string | null | undefined>, opts?: { replace?: boolean }) => void] {
  const { search } = useStore(loc);
  const params = new URLSearchParams(search);
  const set = useCallback((changes: Record<string, string | null | undefined>, opts: { replace?: boolean } = {}) => {
    const next = new URLSearchParams(window.location.search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === undefined || v === '') next.delete(k);
      else next.set(k, v);
    }
    const s = next.toString();
    navigate(window.location.pathname + (s ? `?${s}` : ''), { replace: opts.replace ?? true });
  }, []);
  return [params, set];
}

/** `?edit=<key>` opens a list's editor (`new` for a new one); back closes it. What every list page uses. */
export function useEditParam(): [string | null, (key: string | null) => void] {
  const [q, setQuery] = useQuery();
  return [q.get('edit'), (key) => setQuery({ edit: key }, { replace: key === null })];
}

/** A click handler for in-app links that leaves modified clicks (new tab) to the browser. */
export function linkHandler(href: string) {
  return (e: MouseEvent) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
}
