/** The users queries beyond the engine's: who else could still manage users, how many there are, all of them. */
import { rawSql, type Db } from '../../../db/client.js';

export function userCount(db: Db): number {
  return rawSql.get<{ n: number }>(db, 'SELECT count(*) AS n FROM users', [])?.n ?? 0;
}

/** Every user as stored (a rights upgrade walks them). */
export function allStoredUsers(db: Db): Array<{ id: string; v: number; doc: string }> {
  return rawSql.all(db, 'SELECT id, v, doc FROM users', []);
}

/** Active users other than `exceptId` who hold `right`. */
export function activeHoldersOf(db: Db, right: string, exceptId: string): number {
  return (
    rawSql.get<{ n: number }>(
      db,
      "SELECT count(*) AS n FROM users WHERE is_active = 1 AND id <> ? AND EXISTS (SELECT 1 FROM json_each(users.doc, '$.rights') WHERE value = ?)",
      [exceptId, right],
    )?.n ?? 0
  );
}
