/** The `meta` table: small values the hub keeps beside its resources (its id, the rights it knows, device memories). */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

export function getMeta(db: Db, key: string): string | undefined {
  return db.get<{ value: string }>(sql`SELECT value FROM meta WHERE key = ${key}`)?.value;
}

export function setMeta(db: Db, key: string, value: string): void {
  db.run(sql`INSERT INTO meta (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
}

/** Sets `key` unless it has a value; answers the value it ends up with. */
export function setMetaOnce(db: Db, key: string, value: string): string {
  db.run(sql`INSERT INTO meta (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO NOTHING`);
  return getMeta(db, key)!;
}
