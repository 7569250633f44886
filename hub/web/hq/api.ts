/**
 * HQ's API as the page calls it (/hq/api, CONTRACT §13): the session's token kept for this tab
 * only (sessionStorage), a 401 logs the page out, an error answer becomes an ApiError with the
 * problem's detail and members.
 */
import { setShopZone } from '../shared/days';
import { fetchWithin } from '../shared/fetch';

/** How long a call to HQ may take (its API reads PostgreSQL; a push to the stores is queued, not awaited). */
const TIMEOUT_MS = 30_000;

export interface HqUser {
  userName: string;
  rights: string[];
}

export interface StoreRow {
  storeId: string;
  name: string;
  online: boolean;
  lastSeenAt: string | null;
  publishedSeq: number;
  ingestedSeq: number;
  backlog: number;
  catalogVersion: number;
  appliedCatalogVersion: number;
  catalogError: { version: number; detail: string } | null;
  deadLetters: number;
}

export interface DeadLetter {
  id: number;
  storeId: string;
  seq: number | null;
  subject: string;
  reason: string;
  payload: string;
  receivedAt: string;
}

export interface SalesRow {
  storeId?: string;
  day?: string;
  tickets: number;
  total: number;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly members: Array<{ memberName: string; message: string }> = [],
  ) {
    super(detail);
  }
}

const TOKEN = 'poshub.hq.token';
let token: string | null = sessionStorage.getItem(TOKEN);
let onLoggedOut: () => void = () => {};

export const loggedIn = () => token !== null;
export function whenLoggedOut(fn: () => void): void {
  onLoggedOut = fn;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetchWithin(
    `/hq/api${path}`,
    {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), 'accept-language': document.documentElement.lang },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    TIMEOUT_MS,
  );
  const text = await res.text();
  const json = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  if (res.status === 401 && path !== '/auth' && token) {
    logOut();
    throw new ApiError(401, String(json?.detail ?? ''));
  }
  if (!res.ok) throw new ApiError(res.status, String(json?.detail ?? res.statusText), (json?.errors as ApiError['members'] | undefined) ?? []);
  return json as T;
}

/** HQ's answer to a login and to GET /auth names its time zone: the page counts its days and shows its times in it. */
export async function logIn(userName: string, password: string): Promise<HqUser> {
  const r = await api<{ tokenId: string; user: HqUser; timeZone: string }>('POST', '/auth', { userName, password });
  token = r.tokenId;
  sessionStorage.setItem(TOKEN, token);
  setShopZone(r.timeZone);
  return r.user;
}

/** The session behind the kept token: who, and HQ's zone (taken as logIn takes it). */
export async function currentUser(): Promise<HqUser> {
  const r = await api<HqUser & { timeZone: string }>('GET', '/auth');
  setShopZone(r.timeZone);
  return { userName: r.userName, rights: r.rights };
}

export function logOut(): void {
  if (token) void fetchWithin('/hq/api/auth', { method: 'DELETE', headers: { authorization: `Bearer ${token}` } }, TIMEOUT_MS).catch(() => {});
  token = null;
  sessionStorage.removeItem(TOKEN);
  onLoggedOut();
}
