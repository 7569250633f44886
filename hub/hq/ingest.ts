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
import { ingestBatch, type DeadLetter } from './repo.js';
import { checkEvent } from './checks.js';
import { EVENTS_STREAM, INGEST_CONSUMER, type StoreEvent } from './protocol.js';
import { REQUEST_TIMEOUT_MS } from './streams.js';

export interface IngestStats {
  batches: number;
  events: number;
  duplicates: number;
  /** Events put aside as dead letters (CONTRACT §13). */
  rejected: number;
}

/**
 * A PostgreSQL error that is the data's fault (SQLSTATE class 22 data exception, 23 integrity, 54
 * a limit exceeded), not the server's: retrying the same batch would fail for ever.
 */
function isDataError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && /^(22|23|54)/.test(code);
}

export class Ingest {
  readonly stats: IngestStats = { batches: 0, events: 0, duplicates: 0, rejected: 0 };
  private running = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      nc: NatsConnection;
      pool: Pool;
      log: Logger;
      batchSize: number;
      ackWaitMs: number;
      crashAfterCommit?: boolean;
      /** The stream or the consumer is not there (NATS lost them): make them again. */
      onMissing?: () => void;
    },
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
        if (/not found/i.test((err as Error).message)) this.deps.onMissing?.();
        log.warn({ err: (err as Error).message, retryInMs: pause }, 'ingest paused');
        await new Promise((r) => setTimeout(r, pause));
        pause = Math.min(pause * 2, 10_000);
      }
    }
  }

  private async take(batch: JsMsg[]): Promise<void> {
    const events: StoreEvent[] = [];
    const from = new Map<StoreEvent, JsMsg>();
    const dead: DeadLetter[] = [];
    // When the stream took each store's newest event: a backlog HQ takes late says nothing of now.
    const heardAt = new Map<string, Date>();
    for (const m of batch) {
      const text = m.string();
      const checked = checkEvent(m.subject, text, m.headers?.get('Nats-Msg-Id'));
      if (checked.ok) {
        events.push(checked.event);
        from.set(checked.event, m);
        const was = heardAt.get(checked.event.storeId);
        if (!was || m.time > was) heardAt.set(checked.event.storeId, m.time);
      } else dead.push({ storeId: checked.storeId, seq: checked.seq, streamSeq: m.seq, subject: m.subject, reason: checked.reason, payload: text });
    }
    // A long batch must not be handed to another HQ process meanwhile.
    const keepAlive = setInterval(() => batch.forEach((m) => m.working()), Math.max(500, this.deps.ackWaitMs / 3));
    try {
      let result: Awaited<ReturnType<typeof ingestBatch>>;
      try {
        result = await ingestBatch(this.deps.pool, events, JSON.stringify(events), dead, heardAt);
      } catch (err) {
        if (!isDataError(err)) throw err;
        // Something PostgreSQL refuses that the checks let through: one by one, so only that one is put aside.
        this.deps.log.warn({ err: (err as Error).message }, 'a batch PostgreSQL refused; taking its events one by one');
        result = await this.oneByOne(events, from, dead, heardAt);
      }
      for (const gap of result.skipped ?? []) {
        this.deps.log.error(gap, "a store's events never reach HQ: its log no longer holds them (compacted before HQ had them, or lost with a restored database); HQ counts on after them");
      }
      this.stats.batches++;
      this.stats.events += result.inserted;
      this.stats.duplicates += result.duplicates;
    } catch (err) {
      batch.forEach((m) => m.nak(1000)); // again in a second, here or at another HQ process
      throw err;
    } finally {
      clearInterval(keepAlive);
    }
    if (dead.length) {
      this.stats.rejected += dead.length;
      this.deps.log.warn({ deadLetters: dead.map((d) => ({ storeId: d.storeId, seq: d.seq, reason: d.reason })) }, 'events put aside as dead letters');
    }
    if (this.deps.crashAfterCommit) process.kill(process.pid, 'SIGKILL'); // the crash test's moment: committed, not acked
    for (const m of batch) m.ack();
  }

  /** The batch's events each in a transaction of its own; one PostgreSQL refuses joins the dead letters with its reason. */
  private async oneByOne(events: StoreEvent[], from: Map<StoreEvent, JsMsg>, dead: DeadLetter[], heardAt: ReadonlyMap<string, Date>): Promise<{ inserted: number; duplicates: number }> {
    const total = { inserted: 0, duplicates: 0 };
    for (const e of events) {
      try {
        const r = await ingestBatch(this.deps.pool, [e], JSON.stringify([e]), [], heardAt);
        total.inserted += r.inserted;
        total.duplicates += r.duplicates;
      } catch (err) {
        if (!isDataError(err)) throw err;
        const m = from.get(e)!;
        dead.push({ storeId: e.storeId, seq: e.seq, streamSeq: m.seq, subject: m.subject, reason: `PostgreSQL: ${(err as Error).message}`, payload: m.string() });
      }
    }
    // The batch's dead letters, those of the checks too (the failed batch took none of them with it).
    await ingestBatch(this.deps.pool, [], undefined, dead);
    return total;
  }
}
