/**
 * The manager's login: kept in localStorage so a reload stays logged in; the rights come from
 * GET /api/auth and are re-read on every page change and after a refusal, so a right granted or
 * taken away shows without logging out.
 */
import { api, ApiError, onUnauthorized, SESSION_ENDED, setToken } from './api';
import { Store, useStore } from '../../shared/store';
import { readStored } from '../../shared/storage';
import { chosenLanguage, setLanguage } from '../../shared/i18n';
import { setShopZone } from '../../shared/days';
import type { Session, User } from '../../shared/types';

export type { Session, User };

export const DEVICE_NAME = 'BackOffice';
const KEY = 'poshub.session';

const load = () => readStored<Session>(KEY);

export const session = new Store<Session | null>(load());
/** Why the last session ended, shown on the login screen. */
export const endedBecause = new Store<string | null>(null);

/** The page speaks the user's language (else the shop's), unless this browser was switched by hand. */
function applyLanguage(s: Session | null): void {
  setLanguage(chosenLanguage() ?? s?.user.language ?? null);
}

/**
 * The page counts days and shows times in the shop's zone, which the hub names in every session answer
 * (a session kept from before the hub named it: the browser's own until GET /api/auth answers).
 */
function applyZone(s: Session | null): void {
  setShopZone(s?.timeZone);
}

function save(s: Session | null): void {
  setToken(s?.tokenId ?? null);
  applyLanguage(s);
  applyZone(s);
  if (s) localStorage.setItem(KEY, JSON.stringify(s));
  else localStorage.removeItem(KEY);
  session.set(s);
}
setToken(session.value?.tokenId ?? null);
applyLanguage(session.value);
applyZone(session.value);

export async function login(userName: string, password: string): Promise<void> {
  const s = await api.post<Session>('/api/auth', { userName, password, deviceName: DEVICE_NAME });
  endedBecause.set(null);
  save(s);
}

export async function logout(): Promise<void> {
  try {
    await api.del('/api/auth');
  } catch {
    /* the token may already be dead; the page forgets it either way */
  }
  save(null);
}

let refreshing: Promise<boolean> | null = null;

/** Trades the refresh token for a new pair once; concurrent 401s share the attempt. */
function recover(): Promise<boolean> {
  const current = session.value;
  if (!current) return Promise.resolve(false);
  refreshing ??= api
    .post<Session>('/api/auth/refresh', { tokenId: current.tokenId, refreshToken: current.refreshToken })
    .then((s) => {
      save({ ...current, ...s });
      return true;
    })
    .catch(() => {
      endedBecause.set(SESSION_ENDED());
      save(null);
      return false;
    })
    .finally(() => (refreshing = null));
  return refreshing;
}
onUnauthorized(recover);

/** Re-reads the user and rights (GET /api/auth). */
export async function refreshSession(): Promise<void> {
  const current = session.value;
  if (!current) return;
  try {
    const view = await api.get<Pick<Session, 'expiresAt' | 'timeZone' | 'user'>>('/api/auth');
    if (session.value?.tokenId === current.tokenId) save({ ...current, expiresAt: view.expiresAt, timeZone: view.timeZone, user: view.user });
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 0) throw e;
  }
}

export function can(right: string): boolean {
  return session.value?.user.rights.some((r) => r === right) ?? false;
}

export function useSession(): Session | null {
  return useStore(session);
}

/** True when the logged-in user holds the right; re-renders when the rights change. */
export function useCan(): (right: string) => boolean {
  const s = useStore(session);
  return (right) => s?.user.rights.some((r) => r === right) ?? false;
}
