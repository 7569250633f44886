/**
 * The wire contract between the stores (hub/chain) and head office (hub/hq), CONTRACT §13: NATS
 * subjects, stream and consumer names, and the JSON of each message. It imports nothing, so both
 * sides can share it without either depending on the other's internals.
 */

/** Store → HQ events: `pos.<storeId>.<resource>`, message id `<storeId>:<seq>`. */
export const EVENTS_STREAM = 'POS_EVENTS';
export const EVENTS_SUBJECTS = 'pos.>';
/** The one durable pull consumer every HQ process shares: a batch goes to one of them. */
export const INGEST_CONSUMER = 'hq-ingest';

/** HQ → store catalog changes: `catalog.<storeId>`, one message per version. */
export const CATALOG_STREAM = 'POS_CATALOG';
export const CATALOG_SUBJECTS = 'catalog.>';

/** Store → HQ heartbeats over plain NATS (no stream: only the latest matters). */
export const HEARTBEAT_SUBJECTS = 'hq.heartbeat.*';

export const STORE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A resource name as one subject token (`receipts/emails` → `receipts_emails`). */
export function subjectToken(resource: string): string {
  return resource.replace(/[^A-Za-z0-9_-]/g, '_');
}

export const eventSubject = (storeId: string, resource: string) => `pos.${storeId}.${subjectToken(resource)}`;
export const eventMsgId = (storeId: string, seq: number) => `${storeId}:${seq}`;
export const catalogSubject = (storeId: string) => `catalog.${storeId}`;
export const catalogMsgId = (storeId: string, version: number) => `catalog:${storeId}:${version}`;
/** Each store's own durable consumer on the catalog stream, filtered to its subject. */
export const catalogConsumer = (storeId: string) => `catalog-${storeId}`;
export const heartbeatSubject = (storeId: string) => `hq.heartbeat.${storeId}`;
/** Where a store's replies come back (acks, JetStream API answers, catalog deliveries): its own prefix. */
export const storeInbox = (storeId: string) => `_INBOX_${storeId}`;

/** One change-log entry of a store, with the document as stored at that version (null for a delete). */
export interface StoreEvent {
  storeId: string;
  seq: number;
  /**
   * The seq the store's chain started after (entries up to it were compacted before the store
   * joined, or never existed): HQ counts `ingestedSeq` from here.
   */
  base: number;
  resource: string;
  key: string;
  op: 'upsert' | 'delete';
  v: number;
  at: string;
  doc: Record<string, unknown> | null;
}

/** The resources HQ may push, and how their keys are written in `/hq/api/catalog/{resource}/{key}`. */
export const CATALOG_RESOURCES = ['plus', 'modifiers', 'paymenttypes', 'stocks'] as const;
export type CatalogResource = (typeof CATALOG_RESOURCES)[number];

/** One catalog version for one store: apply it when it is the store's applied version + 1. */
export interface CatalogChange {
  storeId: string;
  version: number;
  resource: CatalogResource;
  /** plus: `<stockName>/<code>`; paymenttypes: the number; others: the id or name. */
  key: string;
  op: 'put' | 'delete';
  doc: Record<string, unknown> | null;
}

export interface Heartbeat {
  storeId: string;
  name: string;
  at: string;
  /** The store's newest change-log seq (what it has to publish). */
  lastSeq: number;
  /** The highest seq HQ acknowledged, as the store keeps it. */
  ackedSeq: number;
  appliedCatalogVersion: number;
  /** The last catalog version the store could not apply (a 4xx of its own write path), if any. */
  catalogError: { version: number; detail: string } | null;
  printers: unknown[];
  fiscalDevices: unknown[];
}

/**
 * What a store's NATS user needs and nothing more (README "A chain of stores", NATS users): publish
 * its own events and heartbeat, make and read its own catalog consumer and acknowledge what it
 * applied, and hear replies on its own inbox. A store given these cannot publish events as another
 * store, read another store's catalog, or hear another store's replies. JetStream's consumer-create
 * subject is allowed in its three forms (nats-server 2.9 and later take the one with the filter).
 */
export function storeNatsPermissions(storeId: string): { publish: { allow: string[] }; subscribe: { allow: string[] } } {
  const consumer = `${CATALOG_STREAM}.${catalogConsumer(storeId)}`;
  return {
    publish: {
      allow: [
        `pos.${storeId}.>`,
        heartbeatSubject(storeId),
        '$JS.API.INFO',
        `$JS.API.CONSUMER.CREATE.${consumer}`,
        `$JS.API.CONSUMER.CREATE.${consumer}.${catalogSubject(storeId)}`,
        `$JS.API.CONSUMER.DURABLE.CREATE.${consumer}`,
        `$JS.API.CONSUMER.INFO.${consumer}`,
        `$JS.API.CONSUMER.MSG.NEXT.${consumer}`,
        `$JS.ACK.${consumer}.>`,
      ],
    },
    subscribe: { allow: [`${storeInbox(storeId)}.>`] },
  };
}
