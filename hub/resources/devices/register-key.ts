/**
 * A register's device key (issue 29): the secret a tablet receives when it is paired as a register
 * (POST /api/registers/pair) and sends back as `X-Register-Key`. It proves the request comes from the
 * tablet the manager paired, which is what makes a short PIN safe to accept: without the key a PIN
 * is refused, so nobody on the LAN can walk a waiter's four digits. The hub keeps only its SHA-256
 * (256 random bits need no slow hash); pairing again replaces it, so the old tablet's key dies.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { SALE_ENVS } from '../../http/rights.js';
import type { Doc } from '../../engine/define.js';

/** The request header a paired register sends its key in. */
export const REGISTER_KEY_HEADER = 'X-Register-Key';

export const newRegisterKey = (): string => randomBytes(32).toString('base64url');
export const hashRegisterKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** A key as a header carries it: one visible-ASCII string, or nothing. */
export function registerKeyOf(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value && /^[\x21-\x7e]{1,200}$/.test(value) ? value : undefined;
}

/** Whether `key` is the key of this device, and the device an active, paired sale device (a register). */
export function isPairedRegister(device: Doc | undefined, key: string | undefined): boolean {
  if (!device || !key || device.isActive !== true || !SALE_ENVS.has(String(device.envName)) || !device.pairedAt) return false;
  const stored = device.registerKeyHash;
  if (typeof stored !== 'string') return false;
  const a = Buffer.from(hashRegisterKey(key), 'hex');
  const b = Buffer.from(stored, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A device's document without its key hash: what any answer may show. */
export function withoutKeyHash<T extends Doc>(doc: T): Omit<T, 'registerKeyHash'> {
  const { registerKeyHash: _key, ...rest } = doc;
  return rest;
}
