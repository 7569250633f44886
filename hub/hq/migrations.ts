/**
 * HQ's PostgreSQL schema, as numbered migrations applied in order at start (several HQ processes
 * may start at once: an advisory lock lets one migrate while the others wait).
 *
 * For reporting tools: `store_events` holds every event of every store exactly once, keyed
 * `(store_id, seq)`; each resource table (`tickets`, `customers`, `stock_transfers`, `plus`, …)
 * holds each store's latest version of each document, keyed `(store_id, key)`, with `doc jsonb` as
 * the store's API presents it and `deleted` for one the store deleted (kept, so an older event that
 * arrives late cannot bring it back). Money in documents is JSON numbers with at most 4 decimals;
 * `tickets.total` is the same amount as `numeric`.
 */

/** Store resource name → HQ table. Events of other resources are kept in store_events only. */
export const RESOURCE_TABLES: Record<string, string> = {
  customers: 'customers',
  stocktransfernumberings: 'numberings',
  devices: 'devices',
  modifiers: 'modifiers',
  orderendpoints: 'order_endpoints',
  stocks: 'stocks',
  paymenttypes: 'payment_types',
  plus: 'plus',
  fiscaldevices: 'fiscal_devices',
  users: 'users',
  tickets: 'tickets',
  orders: 'orders',
  stocktransfers: 'stock_transfers',
  stocktakings: 'stock_takings',
};

const documentTable = (name: string) => `
CREATE TABLE ${name} (
  store_id text NOT NULL,
  key text NOT NULL,
  seq bigint NOT NULL,
  version integer NOT NULL,
  deleted boolean NOT NULL DEFAULT false,
  doc jsonb,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (store_id, key)
);`;

export const MIGRATIONS: string[] = [
  `
CREATE TABLE stores (
  store_id text PRIMARY KEY,
  name text NOT NULL DEFAULT '',
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz,
  last_seq bigint NOT NULL DEFAULT 0,
  acked_seq bigint NOT NULL DEFAULT 0,
  base_seq bigint NOT NULL DEFAULT 0,
  ingested_seq bigint NOT NULL DEFAULT 0,
  catalog_version bigint NOT NULL DEFAULT 0,
  applied_catalog_version bigint NOT NULL DEFAULT 0,
  catalog_error jsonb,
  devices jsonb
);
CREATE TABLE store_events (
  store_id text NOT NULL,
  seq bigint NOT NULL,
  resource text NOT NULL,
  key text NOT NULL,
  op text NOT NULL,
  version integer NOT NULL,
  doc jsonb,
  recorded_at timestamptz NOT NULL,
  ingested_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (store_id, seq)
);
${Object.values(RESOURCE_TABLES)
  .filter((t) => t !== 'tickets')
  .map(documentTable)
  .join('\n')}
${documentTable('tickets')}
ALTER TABLE tickets ADD COLUMN is_closed boolean NOT NULL DEFAULT false,
  ADD COLUMN open_date timestamptz, ADD COLUMN close_date timestamptz, ADD COLUMN total numeric(19, 4);
CREATE INDEX tickets_closed ON tickets (close_date, store_id) WHERE is_closed AND NOT deleted;
CREATE INDEX tickets_open_date ON tickets (open_date);
CREATE TABLE catalog_changes (
  id bigserial PRIMARY KEY,
  resource text NOT NULL,
  key text NOT NULL,
  op text NOT NULL,
  doc jsonb,
  stores jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL
);
CREATE TABLE catalog_outbox (
  store_id text NOT NULL REFERENCES stores (store_id),
  version bigint NOT NULL,
  change_id bigint NOT NULL REFERENCES catalog_changes (id),
  published_at timestamptz,
  PRIMARY KEY (store_id, version)
);
CREATE INDEX catalog_outbox_unpublished ON catalog_outbox (store_id, version) WHERE published_at IS NULL;
CREATE TABLE hq_users (
  user_name text PRIMARY KEY,
  password_hash text NOT NULL
);
CREATE TABLE hq_sessions (
  token_hash text PRIMARY KEY,
  user_name text NOT NULL REFERENCES hq_users (user_name),
  expires_at timestamptz NOT NULL
);
`,
  // Issue 30: events HQ could not take, kept aside with the reason (one per store and seq, or per
  // stream message when the seq is unreadable); HQ users with rights (the first admin keeps every one).
  `
CREATE TABLE dead_letters (
  id bigserial PRIMARY KEY,
  store_id text NOT NULL,
  msg_key text NOT NULL,
  seq bigint,
  subject text NOT NULL,
  reason text NOT NULL,
  payload text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (store_id, msg_key)
);
CREATE INDEX dead_letters_seq ON dead_letters (store_id, seq) WHERE seq IS NOT NULL;
ALTER TABLE hq_users ADD COLUMN rights text[] NOT NULL DEFAULT '{ReportRead,CatalogPush,UserManage}';
ALTER TABLE hq_users ALTER COLUMN rights SET DEFAULT '{}';
ALTER TABLE hq_sessions DROP CONSTRAINT hq_sessions_user_name_fkey,
  ADD CONSTRAINT hq_sessions_user_name_fkey FOREIGN KEY (user_name) REFERENCES hq_users (user_name) ON DELETE CASCADE;
`,
  // When a store last moved its applied catalog version, or came back online: a store online and
  // still for longer than POS_HQ_CATALOG_RESEND gets its unapplied versions published again.
  `
ALTER TABLE stores ADD COLUMN catalog_progress_at timestamptz NOT NULL DEFAULT now();
`,
];
