/**
 * The store side of the chain (CONTRACT §13), loaded by main.ts only when POS_HUB_HQ_URL is set.
 * One NATS connection that keeps reconnecting for as long as the hub runs; over it the change-log
 * publisher, the catalog consumer and a heartbeat, which HQ answers with what it holds (and, when
 * its NATS lost events it had acknowledged, where to publish again from). Nothing here ever blocks
 * the API: without HQ the store sells on and the log keeps what HQ does not hold.
 */
import { createInbox, type NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { Db } from '../../db/client.js';
import type { ChainConfig } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { ResourceService } from '../engine/service.js';
import { CATALOG_STREAM, catalogConsumer, catalogSubject, heartbeatSubject, storeInbox, type Heartbeat } from '../hq/protocol.js';
import { CatalogApplier } from './catalog.js';
import { Publisher } from './publisher.js';
import { ackedPublisher } from './acked-publish.js';
// Every network call has a timeout: a publish ack, a connect attempt, a JetStream API request.
import { connectNats } from '../hq/nats-connect.js';
import { catalogError } from './repo.js';
import { readHeartbeatAnswer } from './answer.js';


/** How long stopping waits for the acks of publishes in flight. */
const STOP_GRACE_MS = 1000;
/** Heartbeats sent unanswered before the store says it keeps its whole log (HQ away, or older than this hub). */
const UNANSWERED_SAID_AFTER = 10;

export interface ChainDeps {
  db: Db;
  log: Logger;
  config: ChainConfig;
  storeId: string;
  resources: Record<string, ResourceService>;
  /** What the heartbeat tells of the store's printers and fiscal devices (health.ts's deviceStatuses). */
  deviceStatuses: () => { printers: unknown[]; fiscalDevices?: unknown[] };
  /** The hub's clock: a heartbeat says when it was sent. */
  clock: () => Date;
}

export interface Chain {
  /** The highest seq up to which HQ holds every entry (HQ's word, not its stream's ack): compaction keeps every entry after it. */
  heldByHq(): number;
  stop(): Promise<void>;
}

export function startChain(deps: ChainDeps): Chain {
  const { db, log, storeId } = deps;
  let nc: NatsConnection | undefined;
  let acked: ReturnType<typeof ackedPublisher> | undefined;
  let stopped = false;
  const applier = new CatalogApplier(db, storeId, deps.resources, log);

  const publisher = new Publisher({
    db,
    storeId,
    log,
    resources: deps.resources,
    publish: async (subject, payload, msgId) => {
      if (!acked) throw new Error('not connected to HQ yet');
      await acked.publish(subject, payload, msgId);
    },
  });

  /** Where HQ answers heartbeats (in the store's own inbox); each heartbeat's reply subject ends in its number. */
  let answers: string | undefined;
  let beats = 0;
  /** The last heartbeat sent before the latest rewind: an answer to it or an earlier one asks nothing more. */
  let rewoundAfterBeat = 0;
  /** Heartbeats sent since HQ last answered one, and whether that was said. */
  let unanswered = 0;
  let unansweredSaid = false;
  const heartbeat = () => {
    if (!nc || nc.isClosed() || !answers) return;
    // Without HQ's answer the store forgets nothing: said once, so an operator knows why its log grows.
    if (++unanswered > UNANSWERED_SAID_AFTER && !unansweredSaid) {
      unansweredSaid = true;
      log.warn(
        { heartbeats: unanswered - 1, heldByHq: publisher.heldByHq(), lastSeq: publisher.lastSeq() },
        'HQ answers no heartbeat (away, or older than this hub: upgrade HQ): the store keeps every change-log entry, with its document, after what HQ last said it holds',
      );
    }
    try {
      const devices = deps.deviceStatuses();
      const body: Heartbeat = {
        storeId,
        name: deps.config.storeName,
        at: deps.clock().toISOString(),
        lastSeq: publisher.lastSeq(),
        ackedSeq: publisher.ackedSeq(),
        appliedCatalogVersion: applier.applied(),
        catalogError: catalogError(db),
        printers: devices.printers,
        fiscalDevices: devices.fiscalDevices ?? [],
      };
      nc.publish(heartbeatSubject(storeId), JSON.stringify(body), { reply: `${answers}.${++beats}` });
    } catch (err) {
      log.debug({ err }, 'heartbeat not sent');
    }
  };
  /** HQ's answer: what it holds (the store may forget up to there), and whether it lost events its stream acknowledged. */
  const answered = (subject: string, text: string, status: number | undefined) => {
    if (status) return; // 503: no HQ listens just now
    const answer = readHeartbeatAnswer(storeId, text);
    if ('refused' in answer) {
      log.warn({ reason: answer.refused }, "HQ's answer to a heartbeat refused");
      return;
    }
    unanswered = 0;
    if (unansweredSaid) {
      unansweredSaid = false;
      log.info({ ingestedSeq: answer.ingestedSeq }, 'HQ answers heartbeats again: the store forgets what HQ holds');
    }
    publisher.hqHolds(answer.ingestedSeq);
    const of = Number(subject.slice(subject.lastIndexOf('.') + 1));
    // An answer to a heartbeat sent before the last rewind speaks of the cursor as it was then.
    if (answer.republishFrom === null || !(of > rewoundAfterBeat)) return;
    const to = publisher.rewind(answer.republishFrom);
    if (to === null) return;
    rewoundAfterBeat = beats;
    log.warn({ from: to + 1, ingestedSeq: answer.ingestedSeq }, "HQ lacks events its NATS had acknowledged (lost with its storage?); publishing them again");
  };
  const beat = setInterval(heartbeat, deps.config.heartbeatMs);
  beat.unref();

  let catalogRetryNow: (() => void) | undefined;
  /**
   * Follows this store's catalog subject; on any error starts again after a pause — also when its
   * consumer or the stream is gone (a NATS server that lost its storage comes back without them):
   * the consumer is made again, rather than waited for.
   */
  const followCatalog = async (conn: NatsConnection) => {
    let pause = 500;
    while (!stopped && !conn.isClosed()) {
      try {
        const jsm = await jetstreamManager(conn, { timeout: deps.config.timeoutMs });
        const name = catalogConsumer(storeId);
        const config = {
          durable_name: name,
          filter_subject: catalogSubject(storeId),
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          ack_wait: 30_000_000_000,
          max_ack_pending: 100,
        };
        await jsm.consumers.add(CATALOG_STREAM, config);
        const consumer = await jetstream(conn, { timeout: deps.config.timeoutMs }).consumers.get(CATALOG_STREAM, name);
        const messages = await consumer.consume({ max_messages: 50, expires: 10_000, abort_on_missing_resource: true });
        pause = 500;
        for await (const m of messages) {
          if (stopped) break;
          // Whatever the message holds, it ends acknowledged or coming again later: never a throw that stalls the catalog.
          const outcome = await applier.receive(m.string(), m.headers?.get('Nats-Msg-Id'));
          if (outcome === 'early' || outcome === 'retry') m.nak(outcome === 'early' ? 300 : 2000);
          else {
            m.ack();
            if (outcome !== 'skipped') heartbeat(); // HQ learns the applied version at once
          }
        }
      } catch (err) {
        if (stopped) break;
        log.debug({ err: (err as Error).message }, 'catalog consumer restarts');
      }
      await new Promise<void>((r) => {
        const timer = setTimeout(r, pause);
        // A reconnection ends the pause: the catalog is followed again at once.
        catalogRetryNow = () => {
          clearTimeout(timer);
          pause = 250;
          r();
        };
      });
      catalogRetryNow = undefined;
      pause = Math.min(pause * 2, 30_000);
    }
  };

  const connecting = (async () => {
    try {
      nc = await connectNats(deps.config, `pos-hub ${storeId}`, { waitOnFirstConnect: true, inboxPrefix: storeInbox(storeId), timeoutMs: deps.config.timeoutMs });
    } catch (err) {
      if (!stopped) log.error({ err: (err as Error).message }, 'cannot connect to HQ (check POS_HUB_HQ_*); the store sells on without it');
      return;
    }
    if (stopped) {
      await nc.close();
      return;
    }
    acked = ackedPublisher(nc, deps.config.timeoutMs, storeInbox(storeId));
    answers = createInbox(storeInbox(storeId));
    nc.subscribe(`${answers}.*`, {
      callback: (err, m) => {
        if (!err) answered(m.subject, m.string(), m.headers?.code);
      },
    });
    log.info({ url: deps.config.url, storeId }, 'connected to HQ');
    // Publishing starts once there is a connection to publish on (a start logs no outage that was never one).
    publisher.start();
    heartbeat();
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === 'reconnect') {
          log.info('reconnected to HQ');
          acked?.reconnected();
          publisher.retryNow();
          catalogRetryNow?.();
          heartbeat();
        } else if (s.type === 'disconnect') log.warn('lost the connection to HQ; selling goes on');
      }
    })();
    void followCatalog(nc);
  })();

  return {
    heldByHq: () => publisher.heldByHq(),
    async stop() {
      stopped = true;
      clearInterval(beat);
      const published = publisher.stop();
      // Acks on their way get a moment; publishes still waiting then fail at once instead of after
      // POS_HUB_HQ_TIMEOUT (up to a minute, HQ's NATS silent): the hub must exit within 10 s (CONTRACT
      // §10). They are not lost: the cursor stays before them, they go again after the restart and HQ
      // takes each once.
      await Promise.race([published, new Promise((r) => setTimeout(r, STOP_GRACE_MS))]);
      acked?.close();
      await published;
      const conn = nc;
      if (conn && !conn.isClosed()) {
        await Promise.race([conn.drain().catch(() => conn.close()), new Promise((r) => setTimeout(r, 2000))]);
        if (!conn.isClosed()) await conn.close();
      }
      void connecting;
    },
  };
}
