/**
 * The kitchen display's link to the hub: its session in localStorage (a tablet left on all week
 * survives reloads and power cuts), calls with the token, one refresh on a 401 and ahead of
 * expiry, problem+json as ApiError and a dropped Wi-Fi as NetworkError, so callers can tell
 * "the hub said no" from "the hub could not be reached".
 *
 * Apart from the manager's page (hub/web/manager/lib) on purpose: a different session (a paired
 * display user, not the manager), and the two pages must not log each other out.
 */

import { chosenLanguage, language, messages, setLanguage } from '../shared/i18n';
import { readStored } from '../shared/storage';
import type { Session as HubSession, Problem as WireProblem, User } from '../shared/types';

// The same answer of POST /api/auth as the manager's page gets; only the storage is kept apart.
export type SessionUser = User;

export interface Session extends HubSession {
  /** Set by a pairing: the endpoint the code was made for. */
  orderEndpointName?: string;
}

/** A refusal: the problem+json body, or only the status when the answer was not one (a proxy's page). */
export type Problem = Partial<WireProblem> & Pick<WireProblem, 'status'>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
    readonly retryAfterS?: number,
  ) {
    super(problem.detail || problem.title || t('answered', { status }));
  }
}

/** The hub could not be reached (Wi-Fi down, hub restarting): try again later, nothing was refused. */
export class NetworkError extends Error {}

const t = messages({
  answered: { en: 'The hub answered {status}.', sk: 'Hub odpovedal {status}.', cs: 'Hub odpověděl {status}.' },
  ended: { en: 'The session ended (expired or revoked). Pair the display again.', sk: 'Relácia skončila (vypršala alebo bola zrušená). Spárujte displej znova.', cs: 'Relace skončila (vypršela nebo byla zrušena). Spárujte displej znovu.' },
});

const KEY = 'poshub.kds.session';
type Listener = () => void;
const listeners = new Set<Listener>();

const load = () => readStored<Session>(KEY);

let current: Session | null = load();

/** The display speaks its user's language (a paired display's user has none: the shop's), unless this browser was switched by hand. */
function applyLanguage(s: Session | null): void {
  setLanguage(chosenLanguage() ?? s?.user.language ?? null);
}
applyLanguage(current);
/** Why the last session ended, for the login screen. */
export let endedBecause: string | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;

export function session(): Session | null {
  return current;
}

export function onSession(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function saveSession(s: Session | null, why: string | null = null): void {
  current = s;
  endedBecause = s ? null : why;
  applyLanguage(s);
  if (s) localStorage.setItem(KEY, JSON.stringify(s));
  else localStorage.removeItem(KEY);
  scheduleRefresh();
  for (const fn of [...listeners]) fn();
}

/**
 * The tablet's own clock may be minutes off (no NTP on an offline shop LAN); order ages are
 * counted on the hub's clock instead, learnt from each answer's Date header.
 */
let skewMs = 0;
export function hubNow(): number {
  return Date.now() + skewMs;
}
function noteSkew(res: Response): void {
  const date = Date.parse(res.headers.get('date') ?? '');
  if (Number.isNaN(date)) return;
  const skew = date - Date.now();
  // The header counts whole seconds: follow it only when it is clearly off, so timers do not jitter.
  if (Math.abs(skew - skewMs) > 1500) skewMs = skew;
}

interface CallOptions {
  /** null: no token (pairing, login). Default: the session's. */
  token?: string | null;
  idempotencyKey?: string;
  /** Survives the page going away (a Served bump sent as the tablet reloads). */
  keepalive?: boolean;
}

async function send(method: string, path: string, body: unknown, opts: CallOptions): Promise<Response> {
  // The hub says its errors (shown on the display as they come) in the display's language.
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': language() };
  const token = opts.token === undefined ? current?.tokenId : opts.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  try {
    return await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), keepalive: opts.keepalive, cache: 'no-store' });
  } catch (e) {
    throw new NetworkError(e instanceof Error ? e.message : String(e));
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

export async function call<T>(method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<T> {
  let res = await send(method, path, body, opts);
  if (res.status >= 500 && res.status !== 503) throw new NetworkError(t('answered', { status: res.status }));
  if (res.status === 401 && opts.token === undefined && current && (await refresh())) res = await send(method, path, body, opts);
  noteSkew(res);
  if (!res.ok) throw await problemOf(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

let refreshing: Promise<boolean> | null = null;

/**
 * A new token pair from the refresh token. Answers false when it could not: after a 401 the
 * session is over (the login screen says why); after a network error it is kept for a retry.
 */
export function refresh(): Promise<boolean> {
  refreshing ??= (async () => {
    const s = current;
    if (!s) return false;
    try {
      const res = await send('POST', '/api/auth/refresh', { tokenId: s.tokenId, refreshToken: s.refreshToken }, { token: null });
      if (res.ok) {
        const next = (await res.json()) as Session;
        saveSession({ ...next, orderEndpointName: s.orderEndpointName });
        return true;
      }
      // Another tab of this tablet may have refreshed first; its pair is in localStorage now.
      const stored = load();
      if (stored && stored.tokenId !== s.tokenId) {
        saveSession(stored);
        return true;
      }
      if (res.status === 401 || res.status === 400) saveSession(null, t('ended'));
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
scheduleRefresh();

export async function pairWithCode(code: string): Promise<Session> {
  const s = await call<Session>('POST', '/api/kds/pair', { code }, { token: null });
  saveSession(s);
  return s;
}

export async function loginWithPassword(userName: string, password: string, deviceName: string): Promise<Session> {
  const s = await call<Session>('POST', '/api/auth', { userName, password, deviceName }, { token: null });
  saveSession(s);
  return s;
}

/**
 * A manager pairs this screen without a code on paper: log in (the manager's own device), ask
 * for a code, trade it here, log the manager out again. The tablet keeps only the display's session.
 */
export async function pairAsManager(userName: string, password: string, deviceName: string, orderEndpointName: string): Promise<Session> {
  const manager = await call<Session>('POST', '/api/auth', { userName, password, deviceName }, { token: null });
  try {
    const { code } = await call<{ code: string }>('POST', '/api/kds/pairings', { orderEndpointName }, { token: manager.tokenId });
    return await pairWithCode(code);
  } finally {
    await call('DELETE', '/api/auth', undefined, { token: manager.tokenId }).catch(() => undefined);
  }
}

export async function logout(): Promise<void> {
  await call('DELETE', '/api/auth').catch(() => undefined);
  saveSession(null, null);
}

export function hasRight(right: string): boolean {
  return !!current?.user.rights.some((r) => r === right);
}

/** An Idempotency-Key. Not crypto.randomUUID(): that exists only on https, and a shop LAN is plain http. */
export function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return 'kds-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
