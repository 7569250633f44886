/** The hub's own id: made once per data directory, announced over mDNS and used as a fallback serial. */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

export function hubId(db: Db): string {
  const row = db.get<{ value: string }>(sql`SELECT value FROM meta WHERE key = 'hub.id'`);
  if (row) return row.value;
  const id = randomBytes(3).toString('hex');
  db.run(sql`INSERT OR IGNORE INTO meta (key, value) VALUES ('hub.id', ${id})`);
  return db.get<{ value: string }>(sql`SELECT value FROM meta WHERE key = 'hub.id'`)!.value;
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
