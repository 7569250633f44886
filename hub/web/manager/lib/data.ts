/**
 * Data hooks on top of the api client. Every view that shows hub data reloads itself when the
 * change stream reports a change of what it shows, so nothing on screen needs a manual refresh.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, describeError, type ListQuery, type QueryResult } from './api';
import { mayRead } from './access';
import { useLiveReload } from './live';
import { useCan } from './session';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  /** The failure itself, e.g. to tell a 404 from a network failure. */
  failure: unknown;
  loading: boolean;
  reload: () => void;
}

/** Loads with `load` whenever `key` changes and when any of `live` changes on the hub. */
export function useLoad<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>, live: string[] = []): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; failure: unknown; loading: boolean; key: string | null }>({ data: null, failure: null, loading: key !== null, key });
  const [tick, setTick] = useState(0);
  const latest = useRef(load);
  latest.current = load;

  useEffect(() => {
    if (key === null) return;
    const ctrl = new AbortController();
    setState((s) => ({ ...s, loading: true, key }));
    latest.current(ctrl.signal).then(
      (data) => !ctrl.signal.aborted && setState({ data, failure: null, loading: false, key }),
      (e: unknown) => {
        if (ctrl.signal.aborted || (e as Error).name === 'AbortError') return;
        setState((s) => ({ data: s.key === key ? s.data : null, failure: e, loading: false, key }));
      },
    );
    return () => ctrl.abort();
  }, [key, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  useLiveReload(live, reload);
  // Data of an earlier key is not shown as if it were this key's (e.g. another ticket's detail).
  const data = state.key === key ? state.data : null;
  return { data, failure: state.failure, error: state.failure ? describeError(state.failure) : null, loading: state.loading, reload };
}

// What the user may not read (lib/access.ts) is never asked for: the hook stays empty instead of a 403.
export function useList<T>(resource: string, query: ListQuery, live: string[] = [resource]): Loaded<QueryResult<T>> {
  const qs = JSON.stringify(query);
  const readable = mayRead(resource, useCan());
  return useLoad(readable ? `${resource}${qs}` : null, (signal) => api.list<T>(resource, query, signal), live);
}

export function useAll<T>(resource: string, query: Omit<ListQuery, 'skip' | 'take'> = {}, live: string[] = [resource]): Loaded<T[]> {
  const qs = JSON.stringify(query);
  const readable = mayRead(resource, useCan());
  return useLoad(readable ? `${resource}${qs}` : null, (signal) => api.all<T>(resource, query, signal), live);
}

/** One resource by key (null: nothing to load). A 404 is reported as such, not as a failure. */
export function useOne<T>(url: string | null, live: string[] = []): Loaded<T> & { notFound: boolean } {
  const readable = url !== null && mayRead(url, useCan());
  const r = useLoad(readable ? url : null, (signal) => api.get<T>(url!, signal), live);
  return { ...r, notFound: r.failure instanceof ApiError && r.failure.status === 404 };
}

export interface Named {
  name: string;
}

/** Options for a select from a small resource (stocks, devices, printers, users, payment types). */
export function useOptions<T>(resource: string, value: (row: T) => string, label: (row: T) => string = value): Array<{ value: string; label: string }> {
  const { data } = useAll<T>(resource);
  return (data ?? []).map((row) => ({ value: value(row), label: label(row) }));
}
