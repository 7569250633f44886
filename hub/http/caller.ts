import type { Language } from '../i18n/index.js';
import { errors } from './errors.js';
import { RIGHTS, SALE_ENVS, type Right } from './rights.js';
// Written once with the pages' rules: the register offers typed prices by the same one (hub/core/rules.ts).
export { opensPrices } from '../core/rules.js';

/** Who is calling: the session's user and the device named at login (CONTRACT §5). */
export interface Caller {
  userId: string;
  userName: string;
  name: string;
  rights: ReadonlySet<Right>;
  /** The device named at login; `settings` as stored (DefaultFiscalName, OpenedPrices, a display's OrderEndpointName…). */
  device: { name: string; envName: string; settings?: Record<string, string> };
  tokenHash: string;
  expiresAt: number;
  /** The user's own language, when set (else the request's, else the shop's: http/language.ts). */
  language?: Language;
}

export function isSale(caller: Caller): boolean {
  return SALE_ENVS.has(caller.device.envName);
}

export function hasRight(caller: Caller, right: Right): boolean {
  return caller.rights.has(right);
}

/** Throws 403 (errorCode 2) unless the caller holds one of `anyOf`. */
export function requireRight(caller: Caller, ...anyOf: Right[]): void {
  if (!anyOf.some((r) => caller.rights.has(r))) throw errors.missingRight(anyOf);
}

export function requireSale(caller: Caller): void {
  if (!isSale(caller)) throw errors.notSaleEnvironment();
}

/** The hub acting on its own (first start, a paired display's user, head office's catalog): every right; never reachable from a request. */

export const SYSTEM_CALLER: Caller = {
  userId: 'system',
  userName: 'system',
  name: 'POS Hub',
  rights: new Set(RIGHTS),
  device: { name: 'BackOffice', envName: 'BackOffice' },
  tokenHash: '',
  expiresAt: Number.MAX_SAFE_INTEGER,
};
