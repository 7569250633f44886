/**
 * HQ's SQL for ingest, store health, the catalog outbox and logins (lists and reports: lists.ts).
 * Every value is a bound parameter; identifiers come from RESOURCE_TABLES, never from a message.
 */
import type { Pool, PoolClient } from './db.js';
import { RESOURCE_TABLES } from './migrations.js';
import type { CatalogChange, CatalogResource, Heartbeat, StoreEvent } from './protocol.js';
import { cutText } from '../http/text.js';

async function inTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** The ticket columns HQ filters and sums on, taken from the document in SQL (numeric stays exact). */
const TICKET_COLUMNS = {
  names: ', is_closed, open_date, close_date, total',
  values: `, COALESCE(u.doc->>'state' = 'Closed', false), (u.doc->>'openDate')::timestamptz,
            (u.doc->>'closeDate')::timestamptz, (u.doc->'totalPrice'->>'amount')::numeric`,
  updates: ', is_closed = excluded.is_closed, open_date = excluded.open_date, close_date = excluded.close_date, total = excluded.total',
};

/**
 * One batch of events in one transaction. Only events new to `store_events` (the primary key
 * `(store_id, seq)` turns a redelivery or a republish into nothing) touch the resource tables, and
 * there an older version never replaces a newer one (batches of one store may be ingested by two
 * HQ processes out of order). The stores in the batch are locked first, in order, so `ingestedSeq`
 * is worked out by one transaction at a time per store and sees what the one before committed.
 */
/** An event HQ could not take, put aside (CONTRACT §13): its store (the subject's), its seq when readable, why, and what came. */
export interface DeadLetter {
  storeId: string;
  seq: number | null;
  /** The message's place in the stream: names a dead letter whose seq is unreadable. */
  streamSeq: number;
  subject: string;
  reason: string;
  payload: string;
}

/** Text PostgreSQL takes, whatever came: NUL and lone surrogates replaced, at most 16 KiB kept. */
const storable = (s: string, max = 16_384) => s.slice(0, max).replace(/\u0000/g, '\ufffd').replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/**
 * `json`: the same events as one JSON array text, when the caller has it already. `dead`: events of
 * the same batch put aside, in the same transaction (a redelivery adds none twice); a dead letter
 * with a seq counts for `ingestedSeq` as taken, so the store's later events are not held behind it.
 * `heardAt`: per store, when HQ's NATS took its newest event of the batch — the store's sign of life
 * (`lastSeenAt`, `online`), not the moment HQ caught up with a backlog; without it, now.
 */
export async function ingestBatch(
  pool: Pool,
  events: StoreEvent[],
  json?: string,
  dead: DeadLetter[] = [],
  heardAt?: ReadonlyMap<string, Date>,
): Promise<{ inserted: number; duplicates: number; skipped?: Array<{ storeId: string; from: number; to: number }> }> {
  if (!events.length && !dead.length) return { inserted: 0, duplicates: 0 };
  const storeIds = [...new Set([...events.map((e) => e.storeId), ...dead.map((d) => d.storeId)])].sort();
  const tables = [...new Set(events.map((e) => RESOURCE_TABLES[e.resource]).filter((t): t is string => !!t))];
  // One statement: the events go in as one JSON array, parsed once by PostgreSQL; only the rows that
  // were new feed the resource tables (the newest event per document of this batch).
  const upserts = tables.map((table, i) => {
    const extra = table === 'tickets' ? TICKET_COLUMNS : { names: '', values: '', updates: '' };
    const resources = Object.keys(RESOURCE_TABLES).filter((r) => RESOURCE_TABLES[r] === table);
    return `, t${i} AS (
      INSERT INTO ${table} AS t (store_id, key, seq, version, deleted, doc, updated_at${extra.names})
      SELECT u.store_id, u.key, u.seq, u.version, u.deleted, u.doc, u.updated_at${extra.values} FROM (
        SELECT DISTINCT ON (store_id, key) store_id, key, seq, version, op = 'delete' AS deleted, doc, recorded_at AS updated_at
        FROM ins WHERE resource IN (${resources.map((r) => `'${r}'`).join(', ')}) ORDER BY store_id, key, seq DESC) u
      ON CONFLICT (store_id, key) DO UPDATE SET seq = excluded.seq, version = excluded.version, deleted = excluded.deleted,
        doc = CASE WHEN excluded.deleted THEN t.doc ELSE excluded.doc END, updated_at = excluded.updated_at${extra.updates}
      WHERE t.seq < excluded.seq)`;
  });
  return inTransaction(pool, async (c) => {
    await c.query('INSERT INTO stores (store_id) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [storeIds]);
    const locked = await c.query<{ store_id: string; ingested_seq: string; base_seq: string }>(
      'SELECT store_id, ingested_seq, base_seq FROM stores WHERE store_id = ANY($1) ORDER BY store_id FOR UPDATE',
      [storeIds],
    );
    const was = new Map(locked.rows.map((r) => [r.store_id, { ingested: Number(r.ingested_seq), base: Number(r.base_seq) }]));
    const skipped: Array<{ storeId: string; from: number; to: number }> = [];
    if (dead.length) {
      await c.query(
        `INSERT INTO dead_letters (store_id, msg_key, seq, subject, reason, payload)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[]) ON CONFLICT DO NOTHING`,
        [
          dead.map((d) => d.storeId),
          dead.map((d) => (d.seq !== null ? `seq:${d.seq}` : `stream:${d.streamSeq}`)),
          dead.map((d) => d.seq),
          dead.map((d) => storable(d.subject, 300)),
          dead.map((d) => storable(d.reason, 1000)),
          dead.map((d) => storable(d.payload)),
        ],
      );
    }
    if (!events.length) {
      for (const storeId of storeIds) await advanceIngested(c, storeId);
      return { inserted: 0, duplicates: 0 };
    }
    const result = await c.query<{ n: string }>(
      `WITH ins AS (
         INSERT INTO store_events (store_id, seq, resource, key, op, version, doc, recorded_at)
         SELECT x."storeId", x.seq, x.resource, x.key, x.op, x.v, CASE WHEN jsonb_typeof(x.doc) = 'object' THEN x.doc END, x.at
         FROM jsonb_to_recordset($1::jsonb) AS x ("storeId" text, seq bigint, resource text, key text, op text, v integer, at timestamptz, doc jsonb)
         ON CONFLICT (store_id, seq) DO NOTHING
         RETURNING store_id, seq, resource, key, op, version, doc, recorded_at)${upserts.join('')}
       SELECT count(*) AS n FROM ins`,
      [json ?? JSON.stringify(events)],
    );
    for (const storeId of storeIds) {
      const mine = events.filter((e) => e.storeId === storeId);
      if (!mine.length) {
        await advanceIngested(c, storeId);
        continue;
      }
      const base = Math.max(...mine.map((e) => e.base));
      const last = Math.max(...mine.map((e) => e.seq));
      // The store's chain now starts past what HQ holds: the entries between are gone from its log
      // (compacted before HQ had them, or lost with a replaced database) and never come.
      const before = was.get(storeId);
      if (before && (before.ingested > 0 || before.base > 0) && base > before.ingested) skipped.push({ storeId, from: before.ingested + 1, to: base });
      // Never later than now: a NATS clock ahead of PostgreSQL's must not keep a silent store online.
      await c.query(
        `UPDATE stores SET base_seq = GREATEST(base_seq, $2), ingested_seq = GREATEST(ingested_seq, $2),
                last_seq = GREATEST(last_seq, $3), last_seen_at = GREATEST(last_seen_at, LEAST(COALESCE($4::timestamptz, now()), now()))
         WHERE store_id = $1`,
        [storeId, base, last, heardAt?.get(storeId) ?? null],
      );
      await advanceIngested(c, storeId);
    }
    const inserted = Number(result.rows[0].n);
    return { inserted, duplicates: events.length - inserted, ...(skipped.length ? { skipped } : {}) };
  });
}

/**
 * `ingested_seq`: the end of the unbroken run of events after it (the first seq whose successor is
 * missing). A seq put aside as a dead letter counts as taken: the run goes on past it.
 */
async function advanceIngested(c: PoolClient, storeId: string): Promise<void> {
  const dead = await c.query('SELECT 1 FROM dead_letters d, stores s WHERE s.store_id = $1 AND d.store_id = $1 AND d.seq > s.ingested_seq LIMIT 1', [storeId]);
  if (!dead.rowCount) {
    // The common case, on the primary key alone: no dead letter ahead of the position.
    await c.query(
      `UPDATE stores s SET ingested_seq = e.seq FROM (
         SELECT e.seq FROM store_events e, stores s2
         WHERE s2.store_id = $1 AND e.store_id = $1 AND e.seq > s2.ingested_seq
           AND EXISTS (SELECT 1 FROM store_events x WHERE x.store_id = $1 AND x.seq = s2.ingested_seq + 1)
           AND NOT EXISTS (SELECT 1 FROM store_events f WHERE f.store_id = $1 AND f.seq = e.seq + 1)
         ORDER BY e.seq LIMIT 1) e
       WHERE s.store_id = $1`,
      [storeId],
    );
    return;
  }
  await c.query(
    `WITH s2 AS (SELECT ingested_seq FROM stores WHERE store_id = $1),
     held AS (
       SELECT e.seq FROM store_events e, s2 WHERE e.store_id = $1 AND e.seq > s2.ingested_seq
       UNION SELECT d.seq FROM dead_letters d, s2 WHERE d.store_id = $1 AND d.seq > s2.ingested_seq)
     UPDATE stores s SET ingested_seq = e.seq FROM (
       SELECT h.seq FROM held h, s2
       WHERE EXISTS (SELECT 1 FROM held x WHERE x.seq = s2.ingested_seq + 1)
         AND NOT EXISTS (SELECT 1 FROM held f WHERE f.seq = h.seq + 1)
       ORDER BY h.seq LIMIT 1) e
     WHERE s.store_id = $1`,
    [storeId],
  );
}

/**
 * A store's heartbeat. Two of them may be written at once (each is one query of its own), so the
 * positions only ever move forward: a late older heartbeat cannot take them back. The store's
 * catalog counts as moving (`catalog_progress_at`) when its applied version grows, or when it comes
 * back after being silent for `awayAfterMs`: it gets that long to catch up from the stream before
 * anything is published again. Answers what HQ holds of the store's events.
 */
export async function recordHeartbeat(pool: Pool, hb: Heartbeat, awayAfterMs: number): Promise<{ ingestedSeq: number }> {
  const r = await pool.query<{ ingested_seq: string }>(
    `INSERT INTO stores (store_id, name, last_seen_at, last_seq, acked_seq, applied_catalog_version, catalog_error, devices)
     VALUES ($1, $2, now(), $3, $4, $5, $6, $7)
     ON CONFLICT (store_id) DO UPDATE SET name = excluded.name, last_seen_at = excluded.last_seen_at,
       last_seq = GREATEST(stores.last_seq, excluded.last_seq), acked_seq = GREATEST(stores.acked_seq, excluded.acked_seq),
       applied_catalog_version = GREATEST(stores.applied_catalog_version, excluded.applied_catalog_version),
       catalog_progress_at = CASE WHEN excluded.applied_catalog_version > stores.applied_catalog_version
         OR stores.last_seen_at IS NULL OR stores.last_seen_at < now() - make_interval(secs => $8 / 1000.0)
         THEN now() ELSE stores.catalog_progress_at END,
       catalog_error = excluded.catalog_error, devices = excluded.devices
     RETURNING ingested_seq`,
    [
      hb.storeId,
      cutText(hb.name, 200),
      hb.lastSeq,
      hb.ackedSeq,
      hb.appliedCatalogVersion,
      hb.catalogError ? JSON.stringify(hb.catalogError) : null,
      JSON.stringify({ printers: hb.printers, fiscalDevices: hb.fiscalDevices }),
      awayAfterMs,
    ],
  );
  return { ingestedSeq: Number(r.rows[0].ingested_seq) };
}

/** The highest seq up to which HQ holds every event of the store (0 for a store it does not know). */
export async function ingestedSeqOf(pool: Pool, storeId: string): Promise<number> {
  const r = await pool.query<{ ingested_seq: string }>('SELECT ingested_seq FROM stores WHERE store_id = $1', [storeId]);
  return Number(r.rows[0]?.ingested_seq ?? 0);
}

export interface StoreRow {
  store_id: string;
  name: string;
  last_seen_at: Date | null;
  last_seq: string;
  ingested_seq: string;
  catalog_version: string;
  applied_catalog_version: string;
  catalog_error: { version: number; detail: string } | null;
  dead_letters: string;
  devices: { printers: unknown[]; fiscalDevices: unknown[] } | null;
}

/** Store ids that exist, of those asked; all of them for `*`. */
export async function knownStores(pool: Pool): Promise<string[]> {
  return (await pool.query<{ store_id: string }>('SELECT store_id FROM stores ORDER BY store_id')).rows.map((r) => r.store_id);
}

/**
 * A catalog change for `stores` (all known stores for `*`): one change row and, per store, the
 * next version in the outbox, in one transaction. Answers the change's number and each version.
 */
export async function pushCatalog(
  pool: Pool,
  change: { resource: CatalogResource; key: string; op: 'put' | 'delete'; doc: Record<string, unknown> | null; stores: string[] | '*'; by: string },
): Promise<{ changeId: number; versions: Array<{ storeId: string; catalogVersion: number }>; unknown: string[] }> {
  return inTransaction(pool, async (c) => {
    const locked =
      change.stores === '*'
        ? await c.query<{ store_id: string }>('SELECT store_id FROM stores ORDER BY store_id FOR UPDATE')
        : await c.query<{ store_id: string }>('SELECT store_id FROM stores WHERE store_id = ANY($1) ORDER BY store_id FOR UPDATE', [change.stores]);
    const targets = locked.rows.map((r) => r.store_id);
    const unknown = change.stores === '*' ? [] : change.stores.filter((s) => !targets.includes(s));
    if (unknown.length) return { changeId: 0, versions: [], unknown };
    const id = (
      await c.query<{ id: string }>('INSERT INTO catalog_changes (resource, key, op, doc, stores, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id', [
        change.resource,
        change.key,
        change.op,
        change.doc === null ? null : JSON.stringify(change.doc),
        JSON.stringify(change.stores),
        change.by,
      ])
    ).rows[0].id;
    const bumped = await c.query<{ store_id: string; catalog_version: string }>(
      'UPDATE stores SET catalog_version = catalog_version + 1 WHERE store_id = ANY($1) RETURNING store_id, catalog_version',
      [targets],
    );
    await c.query('INSERT INTO catalog_outbox (store_id, version, change_id) SELECT unnest($1::text[]), unnest($2::bigint[]), $3', [
      bumped.rows.map((r) => r.store_id),
      bumped.rows.map((r) => r.catalog_version),
      id,
    ]);
    const versions = bumped.rows.map((r) => ({ storeId: r.store_id, catalogVersion: Number(r.catalog_version) })).sort((a, b) => a.storeId.localeCompare(b.storeId));
    return { changeId: Number(id), versions, unknown };
  });
}

type OutboxRow = { store_id: string; version: string; resource: CatalogResource; key: string; op: 'put' | 'delete'; doc: Record<string, unknown> | null };

/**
 * Hands the rows `select` picks (locked: another HQ's relay skips them) to `publish` inside one
 * transaction, and marks the ones published.
 */
async function relayRows(pool: Pool, select: string, params: unknown[], publish: (changes: CatalogChange[]) => Promise<CatalogChange[]>): Promise<CatalogChange[]> {
  return inTransaction(pool, async (c) => {
    const rows = await c.query<OutboxRow>(select, params);
    if (!rows.rows.length) return [];
    const done = await publish(rows.rows.map((r) => ({ storeId: r.store_id, version: Number(r.version), resource: r.resource, key: r.key, op: r.op, doc: r.doc })));
    if (done.length) {
      await c.query(
        'UPDATE catalog_outbox SET published_at = now() WHERE (store_id, version) IN (SELECT * FROM unnest($1::text[], $2::bigint[]))',
        [done.map((d) => d.storeId), done.map((d) => d.version)],
      );
    }
    return done;
  });
}

/** Hands unpublished outbox rows, oldest version first per store, to `publish`, and marks the ones published. */
export async function relayCatalog(pool: Pool, limit: number, publish: (changes: CatalogChange[]) => Promise<CatalogChange[]>): Promise<number> {
  const done = await relayRows(
    pool,
    `SELECT o.store_id, o.version, c.resource, c.key, c.op, c.doc FROM catalog_outbox o JOIN catalog_changes c ON c.id = o.change_id
     WHERE o.published_at IS NULL ORDER BY o.store_id, o.version LIMIT $1 FOR UPDATE OF o SKIP LOCKED`,
    [limit],
    publish,
  );
  return done.length;
}

/**
 * The catalog stall (HQ's NATS lost versions it had stored: the store applies v only after v - 1 and
 * would wait for ever). For each store that is online (heard within `offlineAfterMs`), has not moved
 * its applied version for `resendAfterMs` (nor since it came back), and waits for a version published
 * longer ago than that: every published version after its applied one, oldest first, to `publish`
 * again. The store acknowledges a version it has already applied and skips it, so a copy too many
 * costs nothing. Answers what went again.
 */
export async function resendCatalog(
  pool: Pool,
  timing: { resendAfterMs: number; offlineAfterMs: number },
  limit: number,
  publish: (changes: CatalogChange[]) => Promise<CatalogChange[]>,
): Promise<CatalogChange[]> {
  return relayRows(
    pool,
    `SELECT o.store_id, o.version, c.resource, c.key, c.op, c.doc
     FROM stores s
     JOIN catalog_outbox n ON n.store_id = s.store_id AND n.version = s.applied_catalog_version + 1
     JOIN catalog_outbox o ON o.store_id = s.store_id AND o.version > s.applied_catalog_version
     JOIN catalog_changes c ON c.id = o.change_id
     WHERE s.applied_catalog_version < s.catalog_version
       AND s.last_seen_at > now() - make_interval(secs => $2 / 1000.0)
       AND s.catalog_progress_at < now() - make_interval(secs => $1 / 1000.0)
       AND n.published_at < now() - make_interval(secs => $1 / 1000.0)
       AND o.published_at IS NOT NULL
     ORDER BY o.store_id, o.version LIMIT $3 FOR UPDATE OF o SKIP LOCKED`,
    [timing.resendAfterMs, timing.offlineAfterMs, limit],
    publish,
  );
}

/** An HQ user as stored: the hash never leaves this module's callers in an answer. */
export interface HqUserRow {
  userName: string;
  passwordHash: string;
  rights: string[];
}

export async function findUser(pool: Pool, userName: string): Promise<HqUserRow | undefined> {
  const r = await pool.query<{ user_name: string; password_hash: string; rights: string[] }>('SELECT user_name, password_hash, rights FROM hq_users WHERE user_name = $1', [userName]);
  const row = r.rows[0];
  return row && { userName: row.user_name, passwordHash: row.password_hash, rights: row.rights };
}

export async function listUsers(pool: Pool): Promise<Array<{ userName: string; rights: string[] }>> {
  const r = await pool.query<{ user_name: string; rights: string[] }>('SELECT user_name, rights FROM hq_users ORDER BY user_name');
  return r.rows.map((row) => ({ userName: row.user_name, rights: row.rights }));
}

/** True when it created the user (first start). */
export async function createUserOnce(pool: Pool, userName: string, passwordHash: string, rights: readonly string[]): Promise<boolean> {
  return (await pool.query('INSERT INTO hq_users (user_name, password_hash, rights) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [userName, passwordHash, rights])).rowCount === 1;
}

/**
 * Creates or changes a user (a new password, when given, ends the user's sessions), in one
 * transaction that keeps at least one holder of `keeper` (the right that manages users): answers
 * 'created', 'updated', 'needsPassword' (a new user without one) or 'lastKeeper'.
 */
export async function putUser(
  pool: Pool,
  userName: string,
  change: { passwordHash?: string; rights: string[] },
  keeper: string,
): Promise<'created' | 'updated' | 'needsPassword' | 'lastKeeper'> {
  return inTransaction(pool, async (c) => {
    await c.query('LOCK TABLE hq_users IN SHARE ROW EXCLUSIVE MODE');
    const existing = (await c.query('SELECT 1 FROM hq_users WHERE user_name = $1', [userName])).rowCount === 1;
    if (!existing) {
      if (!change.passwordHash) return 'needsPassword';
      await c.query('INSERT INTO hq_users (user_name, password_hash, rights) VALUES ($1, $2, $3)', [userName, change.passwordHash, change.rights]);
      return 'created';
    }
    if (!change.rights.includes(keeper) && !(await otherKeeper(c, userName, keeper))) return 'lastKeeper';
    await c.query('UPDATE hq_users SET rights = $2, password_hash = COALESCE($3, password_hash) WHERE user_name = $1', [userName, change.rights, change.passwordHash ?? null]);
    if (change.passwordHash) await c.query('DELETE FROM hq_sessions WHERE user_name = $1', [userName]);
    return 'updated';
  });
}

async function otherKeeper(c: PoolClient, userName: string, keeper: string): Promise<boolean> {
  return (await c.query('SELECT 1 FROM hq_users WHERE user_name <> $1 AND $2 = ANY(rights) LIMIT 1', [userName, keeper])).rowCount === 1;
}

/** Deletes a user and their sessions, unless they are the last holder of `keeper`. */
export async function deleteUser(pool: Pool, userName: string, keeper: string): Promise<'deleted' | 'unknown' | 'lastKeeper'> {
  return inTransaction(pool, async (c) => {
    await c.query('LOCK TABLE hq_users IN SHARE ROW EXCLUSIVE MODE');
    const row = (await c.query<{ rights: string[] }>('SELECT rights FROM hq_users WHERE user_name = $1', [userName])).rows[0];
    if (!row) return 'unknown';
    if (row.rights.includes(keeper) && !(await otherKeeper(c, userName, keeper))) return 'lastKeeper';
    await c.query('DELETE FROM hq_users WHERE user_name = $1', [userName]);
    return 'deleted';
  });
}

/** A user's own new password: every other session of theirs ends, the one that changed it stays. */
export async function setOwnPassword(pool: Pool, userName: string, passwordHash: string, keepTokenHash: string): Promise<void> {
  await inTransaction(pool, async (c) => {
    await c.query('UPDATE hq_users SET password_hash = $2 WHERE user_name = $1', [userName, passwordHash]);
    await c.query('DELETE FROM hq_sessions WHERE user_name = $1 AND token_hash <> $2', [userName, keepTokenHash]);
  });
}

export async function createSession(pool: Pool, tokenHash: string, userName: string, expiresAt: Date): Promise<void> {
  await pool.query('DELETE FROM hq_sessions WHERE expires_at < now()');
  await pool.query('INSERT INTO hq_sessions (token_hash, user_name, expires_at) VALUES ($1, $2, $3)', [tokenHash, userName, expiresAt]);
}

/** The session's user and their rights as they are now (a right taken away counts at once). */
export async function sessionUser(pool: Pool, tokenHash: string): Promise<{ userName: string; rights: string[] } | undefined> {
  const r = await pool.query<{ user_name: string; rights: string[] }>(
    'SELECT u.user_name, u.rights FROM hq_sessions s JOIN hq_users u ON u.user_name = s.user_name WHERE s.token_hash = $1 AND s.expires_at > now()',
    [tokenHash],
  );
  return r.rows[0] && { userName: r.rows[0].user_name, rights: r.rows[0].rights };
}

export async function deleteSession(pool: Pool, tokenHash: string): Promise<void> {
  await pool.query('DELETE FROM hq_sessions WHERE token_hash = $1', [tokenHash]);
}
