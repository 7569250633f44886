/**
 * HQ's side of NATS: the connection, and the streams and the ingest consumer it needs — at start,
 * and again after every reconnection (a NATS server that lost its storage comes back without them)
 * — creating what exists already changes nothing, so several HQ processes may do it at once.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '../core/log.js';
import { connectNats, REQUEST_TIMEOUT_MS } from './nats-connect.js';
import { AckPolicy, DeliverPolicy, RetentionPolicy, StorageType, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { HqConfig } from './config.js';
import { CATALOG_STREAM, CATALOG_SUBJECTS, EVENTS_STREAM, EVENTS_SUBJECTS, INGEST_CONSUMER } from './protocol.js';

export { REQUEST_TIMEOUT_MS };
const ms = (n: number) => n * 1_000_000; // JetStream durations are nanoseconds

export function connectHqNats(config: HqConfig): Promise<NatsConnection> {
  return connectNats({ url: config.natsUrl, user: config.natsUser, password: config.natsPassword, credsFile: config.natsCreds, caFile: config.natsCa }, 'pos-hq');
}

/**
 * Makes a stream or consumer as `config` says, the same calls on every start and reconnection:
 * created when it is not there (answers true), else updated. (Creating one that exists with the
 * same configuration succeeds too, so only asking first tells whether NATS had lost it.)
 */
async function ensure(exists: () => Promise<unknown>, create: () => Promise<unknown>, update: () => Promise<unknown>): Promise<boolean> {
  try {
    await exists();
  } catch (err) {
    if (!/not found/i.test((err as Error).message)) throw err;
    try {
      await create();
      return true;
    } catch (e) {
      // Another HQ process made it meanwhile, with another configuration (an older HQ's).
      if (!/already in use|already exists/i.test((e as Error).message)) throw e;
    }
  }
  await update();
  return false;
}

/** The streams and the consumer HQ needs; `created` names those that were missing. */
export async function ensureStreams(nc: NatsConnection, config: Pick<HqConfig, 'duplicateWindowMs' | 'ackWaitMs'>): Promise<{ jsm: JetStreamManager; created: string[] }> {
  const jsm = await jetstreamManager(nc, { timeout: REQUEST_TIMEOUT_MS });
  // Events wait in the stream for as long as HQ is away, and leave it once HQ has them (work queue).
  const events = {
    name: EVENTS_STREAM,
    subjects: [EVENTS_SUBJECTS],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    duplicate_window: ms(config.duplicateWindowMs),
  };
  const created: string[] = [];
  if (
    await ensure(
      () => jsm.streams.info(EVENTS_STREAM),
      () => jsm.streams.add(events),
      () => jsm.streams.update(EVENTS_STREAM, { subjects: events.subjects, duplicate_window: events.duplicate_window }),
    )
  )
    created.push(EVENTS_STREAM);
  // Catalog versions stay: a store that was down for weeks still finds every one it missed.
  const catalog = { name: CATALOG_STREAM, subjects: [CATALOG_SUBJECTS], retention: RetentionPolicy.Limits, storage: StorageType.File, duplicate_window: ms(120_000) };
  if (
    await ensure(
      () => jsm.streams.info(CATALOG_STREAM),
      () => jsm.streams.add(catalog),
      () => jsm.streams.update(CATALOG_STREAM, { subjects: catalog.subjects }),
    )
  )
    created.push(CATALOG_STREAM);
  const consumer = {
    durable_name: INGEST_CONSUMER,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: ms(config.ackWaitMs),
    max_ack_pending: 20_000,
    max_deliver: -1,
  };
  if (
    await ensure(
      () => jsm.consumers.info(EVENTS_STREAM, INGEST_CONSUMER),
      () => jsm.consumers.add(EVENTS_STREAM, consumer),
      () => jsm.consumers.update(EVENTS_STREAM, INGEST_CONSUMER, { ack_wait: consumer.ack_wait, max_ack_pending: consumer.max_ack_pending }),
    )
  )
    created.push(INGEST_CONSUMER);
  return { jsm, created };
}

/**
 * Keeps the streams there while HQ runs: after every reconnection to NATS, and whenever `check()`
 * is called (ingest found its consumer or stream missing), ensureStreams again, retried until it
 * succeeds. A NATS server restarted without its storage has lost the streams (and with them events
 * not yet ingested and catalog versions not yet applied: ingest's heartbeat answers and the relay's
 * resend heal those); without them the stores' publishes and HQ's ingest would fail for ever.
 */
export function keepStreams(nc: NatsConnection, config: HqConfig, log: Logger): { check(): void; stop(): void } {
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  const run = async () => {
    let pause = 250;
    do {
      again = false;
      for (;;) {
        if (stopped || nc.isClosed()) return;
        try {
          const { created } = await ensureStreams(nc, config);
          if (created.length) log.warn({ created }, 'NATS had lost these (its storage?): created again');
          break;
        } catch (err) {
          log.warn({ err: (err as Error).message, retryInMs: pause }, 'cannot make sure of the NATS streams yet');
          await new Promise((r) => setTimeout(r, pause));
          pause = Math.min(pause * 2, 5000);
        }
      }
    } while (again);
  };
  const check = () => {
    if (running) {
      again = true;
      return;
    }
    running = run().finally(() => (running = undefined));
  };
  void (async () => {
    for await (const s of nc.status()) if (s.type === 'reconnect') check();
  })();
  return {
    check,
    stop: () => {
      stopped = true;
    },
  };
}
