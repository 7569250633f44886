/** The users queries beyond the engine's: who else could still manage users, how many there are, all of them. */
import { sql, type SQL } from 'drizzle-orm';
import { rawSql, type Db } from '../../../db/client.js';
import { compare } from '../../engine/repo.js';
import type { Condition } from '../../http/ndata.js';

/**
 * The UserName filter in any letter case, Unicode-aware as the names' uniqueness and the login are
 * (SQL lowercase(), db/client.ts): `UserName=šimon` finds "Šimon" (SQLite's NOCASE folds A-Z only).
 */
export function userNameCondition(c: Condition): SQL {
  const values = c.values.map((v) => (typeof v === 'string' ? v.toLowerCase() : v));
  return compare(sql`lowercase(users.user_name)`, { ...c, values });
}

/** The answered `hasPin` (made at read time from the stored hash), as a sort key. */
export const hasPinSql: SQL = sql`(json_type(users.doc, '$.pinHash') IS NOT NULL)`;

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

/**
 * Active users holding `right`, by name in the shop's collation (the SQL function sortkey()), with
 * whether each has a PIN: the names a register shows to tap (hub/registers).
 */
export function activeUsersHolding(db: Db, right: string): Array<{ userName: string; name: string; hasPin: boolean }> {
  return rawSql
    .all<{ userName: string; name: string | null; hasPin: number }>(
      db,
      `SELECT user_name AS userName, json_extract(doc, '$.name') AS name, json_type(doc, '$.pinHash') IS NOT NULL AS hasPin
         FROM users
        WHERE is_active = 1 AND EXISTS (SELECT 1 FROM json_each(users.doc, '$.rights') WHERE value = ?)
        ORDER BY sortkey(coalesce(nullif(json_extract(doc, '$.name'), ''), user_name)), sortkey(user_name), user_name`,
      [right],
    )
    .map((r) => ({ userName: r.userName, name: r.name ?? '', hasPin: r.hasPin === 1 }));
}
