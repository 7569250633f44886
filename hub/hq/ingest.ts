/**
 * The ingest loop: fetch a batch from the shared durable pull consumer, write it to PostgreSQL in
 * one transaction, and only after the commit ack every message of it. A crash before the commit
 * leaves the batch unacknowledged (redelivered after the ack wait); a crash between commit and ack
 * redelivers events already stored, which `store_events`' primary key turns into nothing.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream, type JsMsg } from '@nats-io/jetstream';
import type { Logger } from '../core/log.js';
import type { Pool } from './db.js';
import { ingestBatch } from './repo.js';
import { EVENTS_STREAM, INGEST_CONSUMER, STORE_ID, type StoreEvent } from './protocol.js';
import { REQUEST_TIMEOUT_MS } from './streams.js';

export interface IngestStats {
  batches: number;
  events: number;
  duplicates: number;
  rejected: number;
}

/** A message that is not a store event we can take; it is terminated, never retried for ever. */
function parse(m: JsMsg): StoreEvent | null {
  try {
    const e = JSON.parse(m.string()) as StoreEvent;
    const ok =
      typeof e.storeId === 'string' && STORE_ID.test(e.storeId) && m.subject.startsWith(`pos.${e.storeId}.`) &&
      Number.isSafeInteger(e.seq) && e.seq > 0 && Number.isSafeInteger(e.base) && e.base >= 0 &&
      typeof e.resource === 'string' && typeof e.key === 'string' && (e.op === 'upsert' || e.op === 'delete') &&
      Number.isSafeInteger(e.v) && typeof e.at === 'string' && !Number.isNaN(Date.parse(e.at)) &&
      (e.doc === null || (typeof e.doc === 'object' && !Array.isArray(e.doc)));
    return ok ? e : null;
  } catch {
    return null;
  }
}

export class Ingest {
  readonly stats: IngestStats = { batches: 0, events: 0, duplicates: 0, rejected: 0 };
  private running = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly deps: { nc: NatsConnection; pool: Pool; log: Logger; batchSize: number; ackWaitMs: number; crashAfterCommit?: boolean },
  ) {}

  /**
   * Two fetch loops: one batch is written to PostgreSQL while the next is fetched and parsed.
   * (Batches of one store still commit one after the other: ingestBatch locks the store's row.)
   */
  start(loops = 2): void {
    this.running = true;
    this.loop = Promise.all(Array.from({ length: loops }, () => this.run())).then(() => {});
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private async run(): Promise<void> {
    const { nc, log } = this.deps;
    let pause = 250;
    while (this.running) {
      try {
        const consumer = await jetstream(nc, { timeout: REQUEST_TIMEOUT_MS }).consumers.get(EVENTS_STREAM, INGEST_CONSUMER);
        while (this.running) {
          const batch: JsMsg[] = [];
          const messages = await consumer.fetch({ max_messages: this.deps.batchSize, expires: 1000 });
          for await (const m of messages) batch.push(m);
          if (batch.length) await this.take(batch);
          pause = 250;
        }
      } catch (err) {
        if (!this.running) break;
        log.warn({ err: (err as Error).message, retryInMs: pause }, 'ingest paused');
        await new Promise((r) => setTimeout(r, pause));
        pause = Math.min(pause * 2, 10_000);
      }
    }
  }

  private async take(batch: JsMsg[]): Promise<void> {
    const events: StoreEvent[] = [];
    const raw: string[] = [];
    const taken: JsMsg[] = [];
    for (const m of batch) {
      const e = parse(m);
      if (e) {
        events.push(e);
        raw.push(m.string());
        taken.push(m);
      } else {
        this.stats.rejected++;
        this.deps.log.warn({ subject: m.subject, seq: m.seq }, 'not a store event; dropped');
        m.term();
      }
    }
    // A long batch must not be handed to another HQ process meanwhile.
    const keepAlive = setInterval(() => taken.forEach((m) => m.working()), Math.max(500, this.deps.ackWaitMs / 3));
    try {
      // The messages as they came go to PostgreSQL (one JSON array), not serialized again.
      const result = await ingestBatch(this.deps.pool, events, `[${raw.join(',')}]`);
      this.stats.batches++;
      this.stats.events += result.inserted;
      this.stats.duplicates += result.duplicates;
    } catch (err) {
      taken.forEach((m) => m.nak(1000)); // again in a second, here or at another HQ process
      throw err;
    } finally {
      clearInterval(keepAlive);
    }
    if (this.deps.crashAfterCommit) process.kill(process.pid, 'SIGKILL'); // the crash test's moment: committed, not acked
    for (const m of taken) m.ack();
  }
}
