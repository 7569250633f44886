/** The devices' SQL beyond the engine's: a paired register found by its key. */
import { rawSql, type Db } from '../../../db/client.js';
import type { Doc } from '../../engine/define.js';

/** The device whose register key hashes to `keyHash` (an indexed lookup), if any. */
export function deviceByRegisterKeyHash(db: Db, keyHash: string): { name: string; doc: Doc } | undefined {
  const row = rawSql.get<{ name: string; doc: string }>(db, 'SELECT name, doc FROM devices WHERE register_key_hash = ?', [keyHash]);
  return row ? { name: row.name, doc: JSON.parse(row.doc) as Doc } : undefined;
}
