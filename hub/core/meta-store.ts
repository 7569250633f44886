/** The `meta` table: small values the hub keeps beside its resources (its id, the rights it knows, device memories). */
import { rawSql, type Db } from '../../db/client.js';

// Prepared texts (rawSql): a close reads and writes here (the simulator's memory, a numbering's counter).

export function getMeta(db: Db, key: string): string | undefined {
  return rawSql.get<{ value: string }>(db, 'SELECT value FROM meta WHERE key = ?', [key])?.value;
}

export function setMeta(db: Db, key: string, value: string): void {
  rawSql.run(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
}

export function deleteMeta(db: Db, key: string): void {
  rawSql.run(db, 'DELETE FROM meta WHERE key = ?', [key]);
}

/** Sets `key` unless it has a value; answers the value it ends up with. */
export function setMetaOnce(db: Db, key: string, value: string): string {
  rawSql.run(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [key, value]);
  return getMeta(db, key)!;
}
