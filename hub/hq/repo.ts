/**
 * HQ's SQL for ingest, store health, the catalog outbox and logins (lists and reports: lists.ts).
 * Every value is a bound parameter; identifiers come from RESOURCE_TABLES, never from a message.
 */
import type { Pool, PoolClient } from './db.js';
import { RESOURCE_TABLES } from './migrations.js';
import type { CatalogChange, CatalogResource, Heartbeat, StoreEvent } from './protocol.js';

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
/** `json`: the same events as one JSON array text, when the caller has it already (the messages as received). */
export async function ingestBatch(pool: Pool, events: StoreEvent[], json?: string): Promise<{ inserted: number; duplicates: number }> {
  if (!events.length) return { inserted: 0, duplicates: 0 };
  const storeIds = [...new Set(events.map((e) => e.storeId))].sort();
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
    await c.query('SELECT store_id FROM stores WHERE store_id = ANY($1) ORDER BY store_id FOR UPDATE', [storeIds]);
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
      const base = Math.max(...mine.map((e) => e.base));
      const last = Math.max(...mine.map((e) => e.seq));
      await c.query(
        `UPDATE stores SET base_seq = GREATEST(base_seq, $2), ingested_seq = GREATEST(ingested_seq, $2),
                last_seq = GREATEST(last_seq, $3), last_seen_at = now() WHERE store_id = $1`,
        [storeId, base, last],
      );
      await advanceIngested(c, storeId);
    }
    const inserted = Number(result.rows[0].n);
    return { inserted, duplicates: events.length - inserted };
  });
}

/** `ingested_seq`: the end of the unbroken run of events after it (the first seq whose successor is missing). */
async function advanceIngested(c: PoolClient, storeId: string): Promise<void> {
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
}

/**
 * A store's heartbeat. Two of them may be written at once (each is one query of its own), so the
 * positions only ever move forward: a late older heartbeat cannot take them back.
 */
export async function recordHeartbeat(pool: Pool, hb: Heartbeat): Promise<void> {
  await pool.query(
    `INSERT INTO stores (store_id, name, last_seen_at, last_seq, acked_seq, applied_catalog_version, catalog_error, devices)
     VALUES ($1, $2, now(), $3, $4, $5, $6, $7)
     ON CONFLICT (store_id) DO UPDATE SET name = excluded.name, last_seen_at = excluded.last_seen_at,
       last_seq = GREATEST(stores.last_seq, excluded.last_seq), acked_seq = GREATEST(stores.acked_seq, excluded.acked_seq),
       applied_catalog_version = GREATEST(stores.applied_catalog_version, excluded.applied_catalog_version),
       catalog_error = excluded.catalog_error, devices = excluded.devices`,
    [
      hb.storeId,
      hb.name.slice(0, 200),
      hb.lastSeq,
      hb.ackedSeq,
      hb.appliedCatalogVersion,
      hb.catalogError ? JSON.stringify(hb.catalogError) : null,
      JSON.stringify({ printers: hb.printers, fiscalDevices: hb.fiscalDevices }),
    ],
  );
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

/**
 * Hands unpublished outbox rows, oldest version first per store, to `publish` inside a
 * transaction that holds them (another HQ's relay skips them) and marks the ones published.
 */
export async function relayCatalog(pool: Pool, limit: number, publish: (changes: CatalogChange[]) => Promise<CatalogChange[]>): Promise<number> {
  return inTransaction(pool, async (c) => {
    const rows = await c.query<{ store_id: string; version: string; resource: CatalogResource; key: string; op: 'put' | 'delete'; doc: Record<string, unknown> | null }>(
      `SELECT o.store_id, o.version, c.resource, c.key, c.op, c.doc FROM catalog_outbox o JOIN catalog_changes c ON c.id = o.change_id
       WHERE o.published_at IS NULL ORDER BY o.store_id, o.version LIMIT $1 FOR UPDATE OF o SKIP LOCKED`,
      [limit],
    );
    if (!rows.rows.length) return 0;
    const done = await publish(
      rows.rows.map((r) => ({ storeId: r.store_id, version: Number(r.version), resource: r.resource, key: r.key, op: r.op, doc: r.doc })),
    );
    if (done.length) {
      await c.query(
        'UPDATE catalog_outbox SET published_at = now() WHERE (store_id, version) IN (SELECT * FROM unnest($1::text[], $2::bigint[]))',
        [done.map((d) => d.storeId), done.map((d) => d.version)],
      );
    }
    return done.length;
  });
}

export async function userPasswordHash(pool: Pool, userName: string): Promise<string | undefined> {
  return (await pool.query<{ password_hash: string }>('SELECT password_hash FROM hq_users WHERE user_name = $1', [userName])).rows[0]?.password_hash;
}

/** True when it created the user (first start). */
export async function createUserOnce(pool: Pool, userName: string, passwordHash: string): Promise<boolean> {
  return (await pool.query('INSERT INTO hq_users (user_name, password_hash) VALUES ($1, $2) ON CONFLICT DO NOTHING', [userName, passwordHash])).rowCount === 1;
}

export async function createSession(pool: Pool, tokenHash: string, userName: string, expiresAt: Date): Promise<void> {
  await pool.query('DELETE FROM hq_sessions WHERE expires_at < now()');
  await pool.query('INSERT INTO hq_sessions (token_hash, user_name, expires_at) VALUES ($1, $2, $3)', [tokenHash, userName, expiresAt]);
}

export async function sessionUser(pool: Pool, tokenHash: string): Promise<string | undefined> {
  return (await pool.query<{ user_name: string }>('SELECT user_name FROM hq_sessions WHERE token_hash = $1 AND expires_at > now()', [tokenHash])).rows[0]?.user_name;
}

export async function deleteSession(pool: Pool, tokenHash: string): Promise<void> {
  await pool.query('DELETE FROM hq_sessions WHERE token_hash = $1', [tokenHash]);
}
