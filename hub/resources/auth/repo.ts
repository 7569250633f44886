import { and, eq, isNull, sql } from 'drizzle-orm';
import { rawSql, schema, type Db } from '../../../db/client.js';

const { sessions, users } = schema;

export type SessionRow = typeof sessions.$inferSelect;

/**
 * The user of a login name in any letter case, Unicode-aware like the names' uniqueness (engine
 * uniqueTaken). Were two names stored before that differ in case alone, the exact spelling wins.
 */
export function findUserByName(db: Db, userName: string): { id: string; doc: string; passwordHash: string; isActive: number } | undefined {
  return db
    .select({ id: users.id, doc: users.doc, passwordHash: users.passwordHash, isActive: users.isActive })
    .from(users)
    .where(sql`lowercase(${users.userName}) = lowercase(${userName})`)
    .orderBy(sql`${users.userName} = ${userName} DESC`)
    .limit(1)
    .get();
}

/** A user's stored document by id (what a session needs: userName, name, isActive, rights). */
export function findUserDoc(db: Db, id: string): Record<string, unknown> | undefined {
  const row = db.select({ doc: users.doc }).from(users).where(eq(users.id, id)).get();
  return row ? (JSON.parse(row.doc) as Record<string, unknown>) : undefined;
}

/** Runs on every request: a prepared text, the row's columns named as drizzle names them (no mapping layer per call). */
export function findSession(db: Db, tokenHash: string): SessionRow | undefined {
  return rawSql.get<SessionRow>(
    db,
    `SELECT token_hash AS tokenHash, refresh_hash AS refreshHash, user_id AS userId, device_name AS deviceName, env_name AS envName,
       created_at AS createdAt, expires_at AS expiresAt, refresh_expires_at AS refreshExpiresAt, revoked_at AS revokedAt
     FROM sessions WHERE token_hash = ?`,
    [tokenHash],
  );
}

export function findSessionByRefresh(db: Db, refreshHash: string): SessionRow | undefined {
  return db.select().from(sessions).where(eq(sessions.refreshHash, refreshHash)).get();
}

export function insertSession(db: Db, row: SessionRow): void {
  db.insert(sessions).values(row).run();
}

export function revokeSession(db: Db, tokenHash: string, at: number): void {
  db.update(sessions).set({ revokedAt: at }).where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt))).run();
}

/** Ends every session of a user but `keepTokenHash` (the caller's own, when they change their own password). */
export function revokeUserSessions(db: Db, userId: string, at: number, keepTokenHash = ''): void {
  db.update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), sql`${sessions.tokenHash} <> ${keepTokenHash}`))
    .run();
}

/** At most `keep` live sessions per user (CONTRACT §12): the oldest beyond them end. */
export function capUserSessions(db: Db, userId: string, keep: number, now: number): void {
  db.run(sql`UPDATE sessions SET revoked_at = ${now} WHERE token_hash IN (
      SELECT token_hash FROM sessions WHERE user_id = ${userId} AND revoked_at IS NULL AND refresh_expires_at > ${now}
      ORDER BY created_at DESC, rowid DESC LIMIT -1 OFFSET ${keep})`);
}

/** Sessions dead for a day are of no use to anyone; keeps the table small. */
export function pruneSessions(db: Db, before: number): void {
  db.delete(sessions).where(sql`${sessions.refreshExpiresAt} < ${before}`).run();
}

/** Every device with the newest login made on it (null: none kept), for the registers' last contact. */
export function deviceLogins(db: Db): Array<{ name: string; envName: string; isActive: number; lastLogin: number | null }> {
  return db.all(sql`SELECT d.name AS name, d.env_name AS envName, d.is_active AS isActive,
      (SELECT MAX(s.created_at) FROM sessions s WHERE s.device_name = d.name) AS lastLogin
    FROM devices d ORDER BY d.name`);
}
