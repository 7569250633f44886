/**
 * HQ's side of NATS: the connection, and at start the streams and the ingest consumer it needs
 * (creating what exists already changes nothing, so several HQ processes may start at once).
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats, REQUEST_TIMEOUT_MS } from './nats-connect.js';
import { AckPolicy, DeliverPolicy, RetentionPolicy, StorageType, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { HqConfig } from './config.js';
import { CATALOG_STREAM, CATALOG_SUBJECTS, EVENTS_STREAM, EVENTS_SUBJECTS, INGEST_CONSUMER } from './protocol.js';

export { REQUEST_TIMEOUT_MS };
const ms = (n: number) => n * 1_000_000; // JetStream durations are nanoseconds

export function connectHqNats(config: HqConfig): Promise<NatsConnection> {
  return connectNats({ url: config.natsUrl, user: config.natsUser, password: config.natsPassword, credsFile: config.natsCreds, caFile: config.natsCa }, 'pos-hq');
}

/** Creates or updates a stream or consumer to `config`: the same call on every start. */
async function ensure(create: () => Promise<unknown>, update: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (err) {
    if (!/already in use|already exists/i.test((err as Error).message)) throw err;
    await update();
  }
}

export async function ensureStreams(nc: NatsConnection, config: HqConfig): Promise<JetStreamManager> {
  const jsm = await jetstreamManager(nc, { timeout: REQUEST_TIMEOUT_MS });
  // Events wait in the stream for as long as HQ is away, and leave it once HQ has them (work queue).
  const events = {
    name: EVENTS_STREAM,
    subjects: [EVENTS_SUBJECTS],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    duplicate_window: ms(config.duplicateWindowMs),
  };
  await ensure(
    () => jsm.streams.add(events),
    () => jsm.streams.update(EVENTS_STREAM, { subjects: events.subjects, duplicate_window: events.duplicate_window }),
  );
  // Catalog versions stay: a store that was down for weeks still finds every one it missed.
  const catalog = { name: CATALOG_STREAM, subjects: [CATALOG_SUBJECTS], retention: RetentionPolicy.Limits, storage: StorageType.File, duplicate_window: ms(120_000) };
  await ensure(
    () => jsm.streams.add(catalog),
    () => jsm.streams.update(CATALOG_STREAM, { subjects: catalog.subjects }),
  );
  const consumer = {
    durable_name: INGEST_CONSUMER,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: ms(config.ackWaitMs),
    max_ack_pending: 20_000,
    max_deliver: -1,
  };
  await ensure(
    () => jsm.consumers.add(EVENTS_STREAM, consumer),
    () => jsm.consumers.update(EVENTS_STREAM, INGEST_CONSUMER, { ack_wait: consumer.ack_wait, max_ack_pending: consumer.max_ack_pending }),
  );
  return jsm;
}
