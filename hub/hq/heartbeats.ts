/**
 * Heartbeats (CONTRACT §13): each goes to one HQ process of the queue group, is checked, recorded,
 * and — when the store asked, with a reply subject in its own inbox — answered with what HQ holds
 * of the store's events (`HeartbeatAnswer`).
 *
 * Why HQ answers: JetStream's publish ack tells the store only that HQ's NATS stored an event. If
 * that NATS loses its storage before HQ ingested the event, the store still counts it delivered. So
 * the store forgets (compacts) only up to what HQ says it holds, and HQ asks for events again when
 * the heartbeat's `ackedSeq` is past HQ's `ingestedSeq` and the events stream holds nothing of that
 * store: nothing is on its way, so what lies between is lost. The stream is looked at first and
 * `ingestedSeq` read after: an event that leaves the stream is committed before it is acknowledged
 * (ingest.ts), so one that left meanwhile is counted in what is read after. A request too many only
 * costs a republish that `ON CONFLICT (store_id, seq)` turns into nothing.
 */
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { Logger } from '../core/log.js';
import type { Pool } from './db.js';
import { checkHeartbeat, heartbeatReplyProblem } from './checks.js';
import { ingestedSeqOf, recordHeartbeat } from './repo.js';
import { EVENTS_STREAM, HEARTBEAT_SUBJECTS, type Heartbeat, type HeartbeatAnswer } from './protocol.js';

/**
 * How often at most a store's events are looked for in the stream (one JetStream API request): a
 * store beating fast, or lying about its `ackedSeq`, costs HQ one request a second at most.
 */
const STREAM_CHECK_EVERY_MS = 1000;
/** How often at most a store's lost events are said in the log. */
const LOG_EVERY_MS = 60_000;

export interface HeartbeatDeps {
  nc: NatsConnection;
  jsm: JetStreamManager;
  pool: Pool;
  log: Logger;
  /** A store silent this long was away (POS_HQ_OFFLINE_AFTER): its catalog gets that long again before a resend. */
  offlineAfterMs: number;
}

export class Heartbeats {
  private sub: Subscription | undefined;
  /** When a refusal was last logged, per subject: at most once a minute each. */
  private readonly refusedLogged = new Map<string, number>();
  /** Per store: when its events were last looked for in the stream, and when their loss was last logged. */
  private readonly checkedAt = new Map<string, number>();
  private readonly lossLogged = new Map<string, number>();

  constructor(private readonly deps: HeartbeatDeps) {}

  start(): void {
    this.sub = this.deps.nc.subscribe(HEARTBEAT_SUBJECTS, {
      queue: 'hq',
      callback: (err, m) => {
        if (!err) this.take(m).catch((e: Error) => this.deps.log.warn({ err: e.message, subject: m.subject.slice(0, 100) }, 'heartbeat not recorded'));
      },
    });
  }

  stop(): void {
    this.sub?.unsubscribe();
  }

  private refused(subject: string, reason: string): void {
    if (this.due(this.refusedLogged, subject, LOG_EVERY_MS)) this.deps.log.warn({ subject: subject.slice(0, 100), reason }, 'heartbeat refused');
  }

  private async take(m: Msg): Promise<void> {
    const checked = checkHeartbeat(m.subject, m.string());
    if (!checked.ok) return this.refused(m.subject, checked.reason);
    const hb = checked.heartbeat;
    const { ingestedSeq } = await recordHeartbeat(this.deps.pool, hb, this.deps.offlineAfterMs);
    if (!m.reply) return; // a store that asks nothing
    const problem = heartbeatReplyProblem(hb.storeId, m.reply);
    if (problem) return this.refused(m.subject, problem);
    m.respond(JSON.stringify(await this.answer(hb, ingestedSeq)));
  }

  private async answer(hb: Heartbeat, recorded: number): Promise<HeartbeatAnswer> {
    let ingestedSeq = recorded;
    let republishFrom: number | null = null;
    if (hb.ackedSeq > ingestedSeq && this.due(this.checkedAt, hb.storeId, STREAM_CHECK_EVERY_MS) && (await this.nothingQueued(hb.storeId))) {
      ingestedSeq = await ingestedSeqOf(this.deps.pool, hb.storeId);
      if (hb.ackedSeq > ingestedSeq) {
        republishFrom = ingestedSeq + 1;
        if (this.due(this.lossLogged, hb.storeId, LOG_EVERY_MS)) {
          this.deps.log.warn(
            { storeId: hb.storeId, from: republishFrom, to: hb.ackedSeq },
            "events the store's stream acknowledged never reached HQ (NATS lost them?): the store publishes them again",
          );
        }
      }
    }
    return { storeId: hb.storeId, ingestedSeq, republishFrom };
  }

  /** Whether `key` was last done at least `everyMs` ago (then it counts as done now). */
  private due(last: Map<string, number>, key: string, everyMs: number): boolean {
    const now = Date.now();
    if (now - (last.get(key) ?? 0) < everyMs) return false;
    last.set(key, now);
    return true;
  }

  /** Whether the events stream holds none of the store's events (pending or on their way to ingest). Unknown counts as no. */
  private async nothingQueued(storeId: string): Promise<boolean> {
    try {
      const info = await this.deps.jsm.streams.info(EVENTS_STREAM, { subjects_filter: `pos.${storeId}.>` });
      return Object.values(info.state.subjects ?? {}).every((n) => n === 0);
    } catch (err) {
      this.deps.log.debug({ err: (err as Error).message }, 'events stream not readable; no republish asked this time');
      return false;
    }
  }
}
