/**
 * The register's link to the hub: which device this browser is (from its pairing), the waiter's
 * session, and calls that tell "the hub said no" (ApiError, with the problem+json body) from "the
 * hub could not be reached" (NetworkError: Wi-Fi gone, hub restarting, a call that timed out) —
 * a tablet client (shared/tablet-client.ts), as the kitchen display's is.
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
import { messages } from '../shared/i18n';
import { readStored, removeStored, writeStored } from '../shared/storage';
import { NetworkError, randomHex, tabletClient } from '../shared/tablet-client';
import type { Session as HubSession } from '../shared/types';

export { ApiError, NetworkError } from '../shared/tablet-client';

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

const t = messages({
  ended: { en: 'The session ended (expired, or someone else logged in on this register). Log in again.', sk: 'Prihlásenie skončilo (vypršalo, alebo sa na tejto pokladni prihlásil niekto iný). Prihláste sa znova.', cs: 'Přihlášení skončilo (vypršelo, nebo se na této pokladně přihlásil někdo jiný). Přihlaste se znovu.' },
});

const DEVICE_KEY = 'poshub.pos.device';
const USERS_KEY = 'poshub.pos.users';

const hub = tabletClient<Session>({
  sessionKey: 'poshub.pos.session',
  ended: () => t('ended'),
  // A register waiting longer is better told it is offline.
  timeoutMs: 10_000,
  logoutTimeoutMs: 3000,
  keyPrefix: 'pos-',
});

/**
 * "Minutes since the last order" and "today" are counted on the hub's clock (hubNow), as the
 * register's own may be minutes off.
 */
export const { call, refresh, session, endedBecause, hubNow, hasRight, newKey, logout, onChange } = hub;

let pairing: Pairing | null = readStored<Pairing>(DEVICE_KEY);

export function device(): Pairing | null {
  return pairing;
}

export function saveDevice(p: Pairing | null): void {
  pairing = p;
  // Private mode: kept until the tab closes.
  if (p) writeStored(DEVICE_KEY, p);
  else removeStored(DEVICE_KEY);
  hub.notify();
}

/** A setting of this register's device (DefaultFiscalName, LockAfterSeconds…), as the session last brought it. */
export function deviceSetting(name: string): string | undefined {
  return hub.session()?.user.device.settings?.[name];
}

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
    const r = await call<{ items: RegisterUser[] }>('GET', '/api/registers/users?$take=1000', undefined, { token: null, headers: { 'x-register-key': key } });
    writeStored(USERS_KEY, r.items);
    return r.items;
  } catch (e) {
    if (e instanceof NetworkError) return readStored<RegisterUser[]>(USERS_KEY) ?? [];
    throw e;
  }
}

export async function loginWithPin(userName: string, pin: string): Promise<Session> {
  // A PIN counts only with the key this register's pairing gave it (README, "Where the hub differs from the contract").
  const s = await call<Session>('POST', '/api/auth', { userName, pin, deviceName: pairing!.deviceName }, { token: null, headers: { 'x-register-key': pairing!.deviceKey ?? '' } });
  hub.saveSession(s);
  return s;
}

export async function loginWithPassword(userName: string, password: string, deviceName = pairing?.deviceName ?? ''): Promise<Session> {
  const s = await call<Session>('POST', '/api/auth', { userName, password, deviceName }, { token: null });
  hub.saveSession(s);
  return s;
}

/**
 * An id for a ticket this register makes (CONTRACT §3: 1-64 of A-Za-z0-9._-): made here, so a ticket
 * opened offline keeps its id when it reaches the hub, and a retry can never make a second one.
 */
export function newTicketId(): string {
  return `pos-${Date.now().toString(36)}-${randomHex(6)}`;
}
