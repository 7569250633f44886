/** The devices' SQL beyond the engine's: a paired register found by its key; the sessions held on a device ended. */
import { and, eq, isNull } from 'drizzle-orm';
import { rawSql, schema, type Db } from '../../../db/client.js';
import type { Doc } from '../../engine/define.js';

/** The device whose register key hashes to `keyHash` (an indexed lookup), if any. */
export function deviceByRegisterKeyHash(db: Db, keyHash: string): { name: string; doc: Doc } | undefined {
  const row = rawSql.get<{ name: string; doc: string }>(db, 'SELECT name, doc FROM devices WHERE register_key_hash = ?', [keyHash]);
  return row ? { name: row.name, doc: JSON.parse(row.doc) as Doc } : undefined;
}

/**
 * Ends every session held on a device: a new login on a sale device (one session there), a register
 * or display paired again, a device made under the name of a deleted one. Kept with the devices, as
 * the devices' resource ends them itself (and hub/resources/auth reads the devices, so it cannot be asked back).
 */
export function revokeDeviceSessions(db: Db, deviceName: string, at: number): void {
  const { sessions } = schema;
  db.update(sessions).set({ revokedAt: at }).where(and(eq(sessions.deviceName, deviceName), isNull(sessions.revokedAt))).run();
}
