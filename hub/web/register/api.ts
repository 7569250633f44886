/**
 * The register's link to the hub: which device this browser is (from its pairing), the waiter's
 * session, and calls that tell "the hub said no" (ApiError, with the problem+json body) from "the
 * hub could not be reached" (NetworkError: Wi-Fi gone, hub restarting, a call that timed out).
 *
 * Apart from the manager's page and the kitchen display on purpose, like the display's own client:
 * another session (a waiter on a sale device), kept under other keys, so the pages open in one
 * browser never log each other out.
 *
 * - The device: `POST /api/registers/pair {code}` answers `{deviceName, envName, deviceKey}`; the key
 *   lists the waiters to tap (`GET /api/registers/users`, header `X-Register-Key`) and lets them log
 *   in with a PIN. A register set up with a manager's password instead knows only its device name;
 *   its waiters then log in with their passwords.
 * - Every call has a timeout; a session is refreshed ten minutes before it expires and once after a
 *   401 (a register left on all week survives it).
 */
import { chosenLanguage, language, messages, setLanguage } from '../shared/i18n';
import { readStored } from '../shared/storage';
import type { Session as HubSession, Problem as WireProblem } from '../shared/types';

export type Session = HubSession;

/** This browser as a register: the sale device it logs in on. */
export interface Pairing {
  deviceName: string;
  envName: string;
  /** From a pairing code: lists the waiters and allows PIN logins. Null: set up with a password. */
  deviceKey: string | null;
}

/** A waiter to tap on the login screen (GET /api/registers/users). */
export interface RegisterUser {
  userName: string;
  name: string;
  hasPin: boolean;
}

/** A refusal: the problem+json body, or only the status when the answer was not one (a proxy's page). */
type Problem = Partial<WireProblem> & Pick<WireProblem, 'status'>;

const t = messages({
  answered: { en: 'The hub answered {status}.', sk: 'Hub odpovedal {status}.', cs: 'Hub odpověděl {status}.' },
  ended: { en: 'The session ended (expired, or someone else logged in on this register). Log in again.', sk: 'Prihlásenie skončilo (vypršalo, alebo sa na tejto pokladni prihlásil niekto iný). Prihláste sa znova.', cs: 'Přihlášení skončilo (vypršelo, nebo se na této pokladně přihlásil někdo jiný). Přihlaste se znovu.' },
  timedOut: { en: 'The hub did not answer in time.', sk: 'Hub neodpovedal včas.', cs: 'Hub neodpověděl včas.' },
});

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
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

const DEVICE_KEY = 'poshub.pos.device';
const SESSION_KEY = 'poshub.pos.session';
const USERS_KEY = 'poshub.pos.users';
/** Default time a call may take: a register waiting longer is better told it is offline. */
const CALL_TIMEOUT_MS = 10_000;

type Listener = () => void;
const listeners = new Set<Listener>();

let pairing: Pairing | null = readStored<Pairing>(DEVICE_KEY);
let current: Session | null = readStored<Session>(SESSION_KEY);
/** Why the last session ended, for the login screen. */
export let endedBecause: string | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;

/** The register speaks its user's language (else the shop's), unless this browser was switched by hand. */
function applyLanguage(): void {
  setLanguage(chosenLanguage() ?? current?.user.language ?? null);
}
applyLanguage();

function notify(): void {
  for (const fn of [...listeners]) fn();
}

export function onChange(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function device(): Pairing | null {
  return pairing;
}

export function session(): Session | null {
  return current;
}

export function saveDevice(p: Pairing | null): void {
  pairing = p;
  try {
    if (p) localStorage.setItem(DEVICE_KEY, JSON.stringify(p));
    else localStorage.removeItem(DEVICE_KEY);
  } catch {
    /* private mode: kept until the tab closes */
  }
  notify();
}

function saveSession(s: Session | null, why: string | null = null): void {
  current = s;
  endedBecause = s ? null : why;
  applyLanguage();
  try {
    if (s) localStorage.setItem(SESSION_KEY, JSON.stringify(s));
    else localStorage.removeItem(SESSION_KEY);
  } catch {
    /* private mode */
  }
  scheduleRefresh();
  notify();
}

export function hasRight(right: string): boolean {
  return !!current?.user.rights.some((r) => r === right);
}

/** A setting of this register's device (DefaultFiscalName, LockAfterSeconds…), as the session last brought it. */
export function deviceSetting(name: string): string | undefined {
  return current?.user.device.settings?.[name];
}

/**
 * The register's own clock may be minutes off (no NTP on an offline LAN): "minutes since the last
 * order" and "today" are counted on the hub's, learnt from each answer's Date header.
 */
let skewMs = 0;
export function hubNow(): number {
  return Date.now() + skewMs;
}
function noteSkew(res: Response): void {
  const date = Date.parse(res.headers.get('date') ?? '');
  if (Number.isNaN(date)) return;
  const skew = date - Date.now();
  if (Math.abs(skew - skewMs) > 1500) skewMs = skew;
}

interface CallOptions {
  /** null: no token (pairing, login). Default: the session's. */
  token?: string | null;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

async function send(method: string, path: string, body: unknown, opts: CallOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': language(), ...opts.headers };
  const token = opts.token === undefined ? current?.tokenId : opts.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), opts.timeoutMs ?? CALL_TIMEOUT_MS);
  try {
    return await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store', signal: abort.signal });
  } catch (e) {
    throw new NetworkError(abort.signal.aborted ? t('timedOut') : e instanceof Error ? e.message : String(e));
  } finally {
    clearTimeout(timer);
  }
}

async function problemOf(res: Response): Promise<ApiError> {
  let problem: Problem = { status: res.status };
  try {
    problem = { status: res.status, ...((await res.json()) as Partial<Problem>) };
  } catch {
    /* not a problem body: the status says enough */
  }
  return new ApiError(res.status, problem);
}

export async function call<T>(method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<T> {
  let res = await send(method, path, body, opts);
  // A proxy's or a restarting hub's 502/504 is "not reachable", not a refusal.
  if (res.status >= 500 && res.status !== 503) throw new NetworkError(t('answered', { status: res.status }));
  if (res.status === 401 && opts.token === undefined && current && (await refresh())) res = await send(method, path, body, opts);
  noteSkew(res);
  if (!res.ok) throw await problemOf(res);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

let refreshing: Promise<boolean> | null = null;

/** A new token pair; false when it could not (after a 401 the session is over, offline it is kept). */
export function refresh(): Promise<boolean> {
  refreshing ??= (async () => {
    const s = current;
    if (!s) return false;
    try {
      const res = await send('POST', '/api/auth/refresh', { tokenId: s.tokenId, refreshToken: s.refreshToken }, { token: null });
      if (res.ok) {
        saveSession((await res.json()) as Session);
        return true;
      }
      // Another tab of this register may have refreshed first; its pair is in localStorage now.
      const stored = readStored<Session>(SESSION_KEY);
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

/** Pairs this browser as the register a manager made the code for. */
export async function pair(code: string): Promise<Pairing> {
  const r = await call<{ deviceName: string; envName: string; deviceKey: string }>('POST', '/api/registers/pair', { code }, { token: null });
  const p: Pairing = { deviceName: r.deviceName, envName: r.envName, deviceKey: r.deviceKey };
  saveDevice(p);
  return p;
}

/** The waiters to tap; the last list the hub gave when it cannot be reached now. */
export async function registerUsers(): Promise<RegisterUser[]> {
  const key = pairing?.deviceKey;
  if (!key) return [];
  try {
    const r = await call<{ items: RegisterUser[] }>('GET', '/api/registers/users', undefined, { token: null, headers: { 'x-register-key': key } });
    try {
      localStorage.setItem(USERS_KEY, JSON.stringify(r.items));
    } catch {
      /* private mode */
    }
    return r.items;
  } catch (e) {
    if (e instanceof NetworkError) return readStored<RegisterUser[]>(USERS_KEY) ?? [];
    throw e;
  }
}

export async function loginWithPin(userName: string, pin: string): Promise<Session> {
  // A PIN counts only with the key this register's pairing gave it (README, "Where the hub differs from the contract").
  const s = await call<Session>('POST', '/api/auth', { userName, pin, deviceName: pairing!.deviceName }, { token: null, headers: { 'x-register-key': pairing!.deviceKey ?? '' } });
  saveSession(s);
  return s;
}

export async function loginWithPassword(userName: string, password: string, deviceName = pairing?.deviceName ?? ''): Promise<Session> {
  const s = await call<Session>('POST', '/api/auth', { userName, password, deviceName }, { token: null });
  saveSession(s);
  return s;
}

export async function logout(): Promise<void> {
  await call('DELETE', '/api/auth', undefined, { timeoutMs: 3000 }).catch(() => undefined);
  saveSession(null, null);
}

/** Random hex: not crypto.randomUUID(), which exists only on https (a shop LAN is plain http). */
function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** An Idempotency-Key. */
export function newKey(): string {
  return 'pos-' + randomHex(16);
}

/**
 * An id for a ticket this register makes (CONTRACT §3: 1-64 of A-Za-z0-9._-): made here, so a ticket
 * opened offline keeps its id when it reaches the hub, and a retry can never make a second one.
 */
export function newTicketId(): string {
  return `pos-${Date.now().toString(36)}-${randomHex(6)}`;
}
