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
