/**
 * The kitchen display's link to the hub: a tablet client (shared/tablet-client.ts: the session in
 * localStorage, calls with its token, refreshes, ApiError and NetworkError) with the display's own
 * session, and the display's ways in: a pairing code, a login, a manager's pairing.
 *
 * Apart from the manager's page (hub/web/manager/lib) on purpose: a different session (a paired
 * display user, not the manager), and the two pages must not log each other out.
 */

import { messages } from '../shared/i18n';
import { tabletClient } from '../shared/tablet-client';
import type { Session as HubSession, User } from '../shared/types';

export { ApiError, NetworkError, type Problem } from '../shared/tablet-client';

// The same answer of POST /api/auth as the manager's page gets; only the storage is kept apart.
export type SessionUser = User;

export interface Session extends HubSession {
  /** Set by a pairing: the endpoint the code was made for. */
  orderEndpointName?: string;
}

const t = messages({
  ended: { en: 'The session ended (expired or revoked). Pair the display again.', sk: 'Relácia skončila (vypršala alebo bola zrušená). Spárujte displej znova.', cs: 'Relace skončila (vypršela nebo byla zrušena). Spárujte displej znovu.' },
});

// No default timeout: the display's calls wait as long as the browser does.
const hub = tabletClient<Session>({
  sessionKey: 'poshub.kds.session',
  ended: () => t('ended'),
  // A refresh answers the hub's session; the endpoint the display was paired for stays.
  refreshed: (next, old) => ({ ...next, orderEndpointName: old.orderEndpointName }),
  keyPrefix: 'kds-',
});

/** Order ages are counted on the hub's clock (hubNow), as the tablet's own may be minutes off. */
export const { call, refresh, saveSession, session, endedBecause, hubNow, hasRight, newKey, logout } = hub;
export const onSession = hub.onChange;

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

