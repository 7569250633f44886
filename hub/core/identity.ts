/** The hub's own id: made once per data directory, announced over mDNS and used as a fallback serial. */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../../db/client.js';
import { getMeta, setMetaOnce } from './meta-store.js';

export function hubId(db: Db): string {
  return getMeta(db, 'hub.id') ?? setMetaOnce(db, 'hub.id', randomBytes(3).toString('hex'));
}

/** `<shop>-<id>` reduced to what a DNS label takes, so `<name>.local` resolves. */
export function mdnsHostName(shopName: string, id: string): string {
  const base = shopName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${base || hostname().toLowerCase() || 'poshub'}-${id}`;
}

/** An instance name is one DNS label (RFC 6763 §4.1.1): at most 63 bytes of UTF-8. */
const INSTANCE_NAME_BYTES = 63;

/**
 * `<shop> (<id>)`, the shop's name shortened (by whole characters) so the whole fits one DNS label:
 * a longer name makes a record no browser reads, and the hub would be announced to nobody.
 */
export function mdnsInstanceName(shopName: string, id: string): string {
  const suffix = ` (${id})`;
  const room = INSTANCE_NAME_BYTES - Buffer.byteLength(suffix);
  const chars = [...shopName.trim()];
  let bytes = Buffer.byteLength(chars.join(''));
  while (bytes > room) bytes -= Buffer.byteLength(chars.pop()!);
  return `${chars.join('').trimEnd() || 'POS Hub'}${suffix}`;
}
