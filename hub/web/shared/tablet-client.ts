/**
 * A tablet's link to the hub (the kitchen display's and the register's, each made once by its own
 * api.ts): the session in localStorage (a tablet left on all week survives reloads and power cuts),
 * calls with its token, one refresh on a 401 and ten minutes ahead of expiry, the hub's clock learnt
 * from each answer, and errors that tell "the hub said no" (ApiError, with the problem+json body)
 * from "the hub could not be reached" (NetworkError: Wi-Fi gone, hub restarting, a call timed out).
 *
 * Each tablet keeps its session under its own key, apart from the manager's page (manager/lib), so
 * pages open in one browser never log each other out.
 */
import { chosenLanguage, language, messages, setLanguage } from './i18n';
import { setShopZone } from './days';
import { DeadlineExceeded, fetchWithin } from './fetch';
import { readStored, removeStored, writeStored } from './storage';
import type { Session, Problem as WireProblem } from './types';

const t = messages({
  answered: { en: 'The hub answered {status}.', sk: 'Hub odpovedal {status}.', cs: 'Hub odpověděl {status}.' },
  timedOut: { en: 'The hub did not answer in time.', sk: 'Hub neodpovedal včas.', cs: 'Hub neodpověděl včas.' },
});

/** A refusal: the problem+json body, or only the status when the answer was not one (a proxy's page). */
export type Problem = Partial<WireProblem> & Pick<WireProblem, 'status'>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
    /** Retry-After of a 429 (too many logins), in seconds. */
    readonly retryAfterS?: number,
  ) {
    super(problem.detail || problem.title || t('answered', { status }));
  }
  /** 403 with errorCode 2: a right is missing (as opposed to a state that forbids it). */
  get isMissingRight(): boolean {
    return this.status === 403 && this.problem.errorCode === 2;
  }
  /** 409 with errorCode 6: someone changed it meanwhile. */
  get isConflict(): boolean {
    return this.status === 409 && this.problem.errorCode === 6;
  }
}

/** The hub could not be reached, or did not answer in time: nothing was refused; try again later. */
export class NetworkError extends Error {}

export interface CallOptions {
  /** null: no token (pairing, login). Default: the session's. */
  token?: string | null;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  /** How long the call may take; default: the client's. */
  timeoutMs?: number;
  /** Survives the page going away (a Served bump sent as the tablet reloads). */
  keepalive?: boolean;
}

export interface TabletClientOptions<S extends Session> {
  /** The localStorage key of the session. */
  sessionKey: string;
  /** Why a session the hub no longer takes ended, as the login screen says it. */
  ended: () => string;
  /** Default time a call may take; 15 s when not said (a kitchen display's calls are small). */
  timeoutMs?: number;
  /** Time a logout may take before the session is forgotten here anyway; default: timeoutMs. */
  logoutTimeoutMs?: number;
  /** The session after a refresh: what the hub answered, plus what the tablet keeps beside it. */
  refreshed?: (next: Session, old: S) => S;
  /** Before the random hex of an Idempotency-Key (`kds-`, `pos-`), to tell the tablets apart in logs. */
  keyPrefix: string;
}

type Listener = () => void;

const DEFAULT_TIMEOUT_MS = 15_000;

/** Random hex: not crypto.randomUUID(), which exists only on https (a shop LAN is plain http). */
export function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function tabletClient<S extends Session>(opts: TabletClientOptions<S>) {
  const listeners = new Set<Listener>();
  let current: S | null = readStored<S>(opts.sessionKey);
  let endedBecause: string | null = null;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let refreshing: Promise<boolean> | null = null;

  /**
   * The tablet speaks its user's language (else the shop's), unless this browser was switched by hand,
   * and reckons days and shows times on the shop's clock (the session's `timeZone`), not on the
   * tablet's own zone, which nobody may have set on a kiosk tablet.
   */
  const applyLocale = () => {
    setLanguage(chosenLanguage() ?? current?.user.language ?? null);
    setShopZone(current?.timeZone);
  };

  function notify(): void {
    for (const fn of [...listeners]) fn();
  }

  function saveSession(s: S | null, why: string | null = null): void {
    current = s;
    endedBecause = s ? null : why;
    applyLocale();
    if (s) writeStored(opts.sessionKey, s);
    else removeStored(opts.sessionKey);
    scheduleRefresh();
    notify();
  }

  /**
   * The tablet's own clock may be minutes off (no NTP on an offline shop LAN): ages and "today" are
   * counted on the hub's, learnt from each answer's Date header.
   */
  let skewMs = 0;
  function noteSkew(res: Response): void {
    const date = Date.parse(res.headers.get('date') ?? '');
    if (Number.isNaN(date)) return;
    const skew = date - Date.now();
    // The header counts whole seconds: follow it only when it is clearly off, so timers do not jitter.
    if (Math.abs(skew - skewMs) > 1500) skewMs = skew;
  }

  async function send(method: string, path: string, body: unknown, call: CallOptions): Promise<Response> {
    // The hub says its errors (shown on the tablet as they come) in the tablet's language.
    const headers: Record<string, string> = { accept: 'application/json', 'accept-language': language(), ...call.headers };
    const token = call.token === undefined ? current?.tokenId : call.token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (call.idempotencyKey) headers['idempotency-key'] = call.idempotencyKey;
    const timeoutMs = call.timeoutMs ?? opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    try {
      return await fetchWithin(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), keepalive: call.keepalive, cache: 'no-store' }, timeoutMs);
    } catch (e) {
      throw new NetworkError(e instanceof DeadlineExceeded ? t('timedOut') : e instanceof Error ? e.message : String(e));
    }
  }

  async function problemOf(res: Response): Promise<ApiError> {
    let problem: Problem = { status: res.status };
    try {
      problem = { status: res.status, ...((await res.json()) as Partial<Problem>) };
    } catch {
      /* not a problem body (a proxy's page): the status says enough */
    }
    const retry = Number(res.headers.get('retry-after'));
    return new ApiError(res.status, problem, Number.isFinite(retry) && retry > 0 ? retry : undefined);
  }

  async function call<T>(method: string, path: string, body?: unknown, callOpts: CallOptions = {}): Promise<T> {
    let res = await send(method, path, body, callOpts);
    // A proxy's or a restarting hub's 502/504 is "not reachable", not a refusal.
    if (res.status >= 500 && res.status !== 503) throw new NetworkError(t('answered', { status: res.status }));
    if (res.status === 401 && callOpts.token === undefined && current && (await refresh())) res = await send(method, path, body, callOpts);
    noteSkew(res);
    if (!res.ok) throw await problemOf(res);
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** A new token pair; false when it could not (after a 401 the session is over, offline it is kept for a retry). */
  function refresh(): Promise<boolean> {
    refreshing ??= (async () => {
      const s = current;
      if (!s) return false;
      try {
        const res = await send('POST', '/api/auth/refresh', { tokenId: s.tokenId, refreshToken: s.refreshToken }, { token: null });
        if (res.ok) {
          const next = (await res.json()) as Session;
          saveSession(opts.refreshed ? opts.refreshed(next, s) : (next as S));
          return true;
        }
        // Another tab of this tablet may have refreshed first; its pair is in localStorage now.
        const stored = readStored<S>(opts.sessionKey);
        if (stored && stored.tokenId !== s.tokenId) {
          saveSession(stored);
          return true;
        }
        if (res.status === 401 || res.status === 400) saveSession(null, opts.ended());
        return false;
      } catch {
        return false;
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  }

  /** Refreshes ten minutes before the token expires; offline, it tries again every 30 s. */
  function scheduleRefresh(): void {
    clearTimeout(refreshTimer);
    if (!current) return;
    const left = Date.parse(current.expiresAt) - Date.now();
    const wait = Math.max(5_000, Math.min(left - 10 * 60_000, left / 2));
    refreshTimer = setTimeout(() => {
      void refresh().then((ok) => {
        if (!ok && current) refreshTimer = setTimeout(scheduleRefresh, 30_000);
      });
    }, Math.min(wait, 2 ** 31 - 1));
  }

  applyLocale();
  scheduleRefresh();

  return {
    call,
    refresh,
    saveSession,
    notify,
    session: (): S | null => current,
    /** Why the last session ended, for the login screen. */
    endedBecause: (): string | null => endedBecause,
    onChange(fn: Listener): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    hubNow: (): number => Date.now() + skewMs,
    hasRight: (right: string): boolean => !!current?.user.rights.some((r) => r === right),
    /** An Idempotency-Key. */
    newKey: (): string => opts.keyPrefix + randomHex(16),
    /** Logs the session out at the hub (what it answers does not matter) and forgets it here. */
    async logout(): Promise<void> {
      await call('DELETE', '/api/auth', undefined, { timeoutMs: opts.logoutTimeoutMs }).catch(() => undefined);
      saveSession(null, null);
    },
  };
}
