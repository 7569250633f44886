/** The idempotency_keys table: a stored answer per user and Idempotency-Key (CONTRACT §9, §11). */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

export interface StoredReply {
  fingerprint: string;
  status: number;
  headers: string;
  body: string | null;
}

export function findReply(db: Db, userId: string, key: string): StoredReply | undefined {
  return db.get<StoredReply>(sql`SELECT fingerprint, status, headers, body FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key}`);
}

export function saveReply(db: Db, userId: string, key: string, reply: StoredReply, at: number): void {
  db.run(sql`INSERT OR REPLACE INTO idempotency_keys (user_id, key, fingerprint, status, headers, body, created_at)
             VALUES (${userId}, ${key}, ${reply.fingerprint}, ${reply.status}, ${reply.headers}, ${reply.body}, ${at})`);
}

export function pruneReplies(db: Db, before: number): void {
  db.run(sql`DELETE FROM idempotency_keys WHERE created_at < ${before}`);
}
