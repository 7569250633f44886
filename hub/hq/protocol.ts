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
/** The version a catalog message id names for `storeId`, if it is one of that store's. */
export function catalogVersionOfMsgId(msgId: string | undefined, storeId: string): number | undefined {
  const prefix = `catalog:${storeId}:`;
  if (!msgId?.startsWith(prefix) || !/^[1-9]\d{0,15}$/.test(msgId.slice(prefix.length))) return undefined;
  const v = Number(msgId.slice(prefix.length));
  return Number.isSafeInteger(v) ? v : undefined;
}
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
 * HQ's answer to a heartbeat, on the reply subject the heartbeat named (in the store's own inbox).
 * The store's stream acknowledgement says only that HQ's NATS stored an event; this says what HQ
 * holds, and so what the store may forget, and asks for events again when the stream lost them.
 */
export interface HeartbeatAnswer {
  storeId: string;
  /** The highest seq up to which HQ holds every event of the store (its `ingestedSeq`). */
  ingestedSeq: number;
  /**
   * Publish again from this seq: the stream acknowledged events up to the heartbeat's `ackedSeq`,
   * holds none of this store's any more, and HQ lacks this one (its NATS lost its storage). Null: nothing is missing.
   */
  republishFrom: number | null;
}

/** The NATS user HQ itself connects as (`npm run hq -- nats-config`); no store may take this id. */
export const HQ_NATS_USER = 'hq';

export interface NatsPermissions {
  publish: { allow: string[] };
  subscribe: { allow: string[] };
  /** One answer to the reply subject of each message received, within the time given (nats-server's `allow_responses`). */
  allow_responses?: { max: number; expires: string };
}

/**
 * What a store's NATS user needs and nothing more (CONTRACT §13, README "Security"): publish its own
 * events and heartbeat, make its own catalog consumer and read and acknowledge through it, and hear
 * replies on its own inbox. The consumer may be created only in the filtered form
 * (`$JS.API.CONSUMER.CREATE.<stream>.<consumer>.<filter>`, nats-server ≥ 2.9), where the server
 * refuses a body whose filter differs from the subject's: the forms without the filter token
 * (`CONSUMER.CREATE.<stream>.<consumer>`, `CONSUMER.DURABLE.CREATE…`) take any filter in the body,
 * so a store allowed them could recreate its consumer on `catalog.>` and read every store's pushes.
 */
export function storeNatsPermissions(storeId: string): NatsPermissions {
  const consumer = `${CATALOG_STREAM}.${catalogConsumer(storeId)}`;
  return {
    publish: {
      allow: [
        `pos.${storeId}.>`,
        heartbeatSubject(storeId),
        '$JS.API.INFO',
        `$JS.API.CONSUMER.CREATE.${consumer}.${catalogSubject(storeId)}`,
        `$JS.API.CONSUMER.INFO.${consumer}`,
        `$JS.API.CONSUMER.MSG.NEXT.${consumer}`,
        `$JS.ACK.${consumer}.>`,
      ],
    },
    subscribe: { allow: [`${storeInbox(storeId)}.>`] },
  };
}

/**
 * HQ's own user: the JetStream API (its streams and consumers), catalog pushes, acks of the events
 * it ingests, heartbeats, and replies on the default inbox. It publishes no store's events and hears
 * no store's inbox; into a store's inbox it may send only the one answer to a heartbeat that store
 * sent with a reply subject (`allow_responses`: the server lets it answer, once, what it received —
 * HQ itself answers only to the sending store's own inbox, hub/hq/checks.ts heartbeatReplyProblem).
 */
export function hqNatsPermissions(): NatsPermissions {
  return {
    publish: { allow: ['$JS.API.>', `${CATALOG_SUBJECTS}`, `$JS.ACK.${EVENTS_STREAM}.${INGEST_CONSUMER}.>`] },
    subscribe: { allow: [HEARTBEAT_SUBJECTS, '_INBOX.>'] },
    allow_responses: { max: 1, expires: '1m' },
  };
}
