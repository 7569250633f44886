/**
 * Store → HQ (CONTRACT §13). The change log is the outbox: this reads the entries after the highest
 * seq HQ's stream acknowledged and publishes each to `pos.<storeId>.<resource>` with message id
 * `<storeId>:<seq>`, several in flight. The cursor moves to the highest *contiguous* acknowledged
 * seq, so a lost ack in the middle makes that entry go again, never skips it. Any error (no
 * connection, a timeout, no stream) ends the round: wait (doubling, at most 30 s) and resume from
 * the cursor. It runs beside the API and only reads the log; a register's write never waits for it.
 *
 * The stream's ack is not HQ holding the event: HQ's NATS can lose its storage before HQ ingested
 * it. So the store forgets (compaction, the documents kept in the log) only up to what HQ itself
 * says it holds (`hqHolds`, from HQ's answer to a heartbeat), and when HQ asks for events again
 * (`rewind`), the cursor goes back and they are published again; HQ takes each once.
 */
import { whenDurable, type Db } from '../../db/client.js';
import type { Logger } from '../core/log.js';
import type { ResourceService } from '../engine/service.js';
import { getRaw } from '../engine/repo.js';
import { publicSettings } from '../engine/secrets.js';
import type { Caller } from '../http/caller.js';
import { eventMsgId, eventSubject } from '../hq/protocol.js';
import { chainStart, entriesAfter, firstHeldFrom, forgetDocs, newestSeq, saveAcked, saveBase, saveIngested, type PendingEntry } from './repo.js';

/** Documents forgotten per transaction: a week's catch-up must not hold the store's writes in one long statement. */
const FORGET_CHUNK = 2000;

/** Sends one message and resolves once the stream has stored it (a duplicate counts as stored). */
export type PublishFn = (subject: string, payload: string, msgId: string) => Promise<void>;

export interface PublisherOptions {
  db: Db;
  storeId: string;
  publish: PublishFn;
  log: Logger;
  /** The engine's services by resource name: documents are presented as the API shows them (no password hashes). */
  resources: Record<string, ResourceService>;
  /** Messages in flight at once. */
  window?: number;
  /** How often to look for new entries when idle (ms). */
  pollMs?: number;
  /** How often at most to write the cursor (ms): a lost cursor only means a republish HQ ignores. */
  saveEveryMs?: number;
  maxBackoffMs?: number;
}

/**
 * Whom HQ's copy is presented to: a caller with no rights, so it sees what anyone without
 * SettingsRead sees — devices', order endpoints' and fiscal devices' settings without their secrets
 * (API keys, PINs), users without password hashes (CONTRACT §12 "Secrets": never published to HQ).
 */
const PUBLISHED_AS: Caller = {
  userId: 'hq',
  userName: 'hq',
  name: 'Head office',
  rights: new Set(),
  device: { name: 'HQ', envName: 'BackOffice' },
  tokenHash: '',
  expiresAt: Number.MAX_SAFE_INTEGER,
};

export class Publisher {
  private readonly storeId: string;
  /** Where the chain starts: every entry up to it is at HQ or was never in this log (events carry it: HQ counts from there). */
  private base: number;
  private acked: number;
  private saved: number;
  /** What HQ said it holds: every entry up to here is at HQ. */
  private ingested: number;
  /** The documents kept for entries up to here are forgotten (a restart takes it for `ingested`). */
  private forgotten: number;
  private forgetting: NodeJS.Immediate | undefined;
  /** Moves on each rewind: the round under way stops and the next starts from the new cursor. */
  private generation = 0;
  /** Seqs above `acked` whose ack came, waiting for the ones below them. */
  private readonly ackedAhead = new Set<number>();
  /**
   * Each published entry's successor in the log: the cursor steps from one to the next, so a seq the
   * log never held (a restore goes on after the replaced database's last seq) does not stop it.
   */
  private readonly nextOf = new Map<number, number>();
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private online = false;

  constructor(private readonly opts: PublisherOptions) {
    this.storeId = opts.storeId;
    const start = chainStart(opts.db);
    this.base = start.base;
    this.acked = this.saved = start.acked;
    this.ingested = this.forgotten = start.ingested;
  }

  /**
   * The link to HQ is up (again): publish now, from the first wait on, instead of sleeping out a
   * backoff that grew while the store was offline (up to 30 s after a long outage, or after a first
   * connection that took a while on a busy machine).
   */
  retryNow(): void {
    this.failures = 0;
    this.wake?.();
  }

  /** The highest seq HQ's stream acknowledged with every seq below it (the publish cursor). */
  ackedSeq(): number {
    return this.acked;
  }

  /** The highest seq up to which HQ holds every entry, as far as this store knows: compaction keeps every entry after it. */
  heldByHq(): number {
    return Math.min(this.ingested, this.acked);
  }

  /**
   * HQ says it holds every entry up to `seq` (its answer to a heartbeat): the documents kept for
   * them are forgotten, and compaction may remove them. Only forward, and never past the cursor (an
   * answer older than a rewind, or from an HQ that holds more than this log says was sent, changes nothing it should not).
   */
  hqHolds(seq: number): void {
    const next = Math.min(seq, this.acked);
    if (next <= this.ingested) return;
    try {
      saveIngested(this.opts.db, next);
      this.ingested = next;
    } catch (err) {
      this.opts.log.warn({ err }, "could not save HQ's position; it is saved with its next answer");
      return;
    }
    if (!this.forgetting) this.forget();
  }

  /** Forgets the documents of what HQ holds, a chunk at a time, the store's own writes going on between chunks. */
  private forget(): void {
    this.forgetting = undefined;
    const upTo = Math.min(this.ingested, this.forgotten + FORGET_CHUNK);
    if (upTo <= this.forgotten) return;
    try {
      forgetDocs(this.opts.db, this.forgotten, upTo);
      this.forgotten = upTo;
    } catch (err) {
      this.opts.log.warn({ err }, 'could not forget the documents HQ holds; tried again with its next answer');
      return;
    }
    if (this.forgotten < this.ingested) this.forgetting = setImmediate(() => this.forget());
  }

  /**
   * HQ lacks entries its stream had acknowledged (its NATS lost them) and asks for them again from
   * `from`: the cursor goes back there — never before the chain's start — and the round under way
   * stops, so publishing resumes from it at once. Answers the new cursor, or null when nothing
   * changes (the cursor is there already).
   *
   * Entries from `from` on that this log does not hold (compacted away before HQ had them, by a hub
   * that followed its stream's ack; or never handed out here: a restore goes on after the replaced
   * database's last seq) can never come. HQ would wait for them for ever — asking again at every
   * heartbeat, each time a republish of everything since, and the store keeping its whole log
   * because HQ's position never passes them. So the chain's start moves past them: every event
   * carries it, and HQ counts what it holds from there (said once in the log, as HQ misses them).
   */
  rewind(from: number): number | null {
    if (from - 1 >= this.acked) return null;
    const first = firstHeldFrom(this.opts.db, from);
    if (first === null) return null;
    const gone = Math.min(first - 1, this.acked);
    if (first > from && gone > this.base) {
      try {
        saveBase(this.opts.db, gone);
      } catch (err) {
        this.opts.log.warn({ err }, 'could not move where the chain starts; tried again with HQ\'s next answer');
        return null;
      }
      this.opts.log.error(
        { from: Math.max(from, this.base + 1), to: gone, firstHeld: first },
        'HQ asks for entries this hub does not hold (compacted away, or lost with a replaced database); HQ will miss them. Publishing again what is left, HQ counting from there',
      );
      this.base = gone;
    }
    const to = Math.max(from - 1, this.base);
    if (to >= this.acked) return null;
    this.acked = to;
    this.ackedAhead.clear();
    this.nextOf.clear();
    this.generation++;
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.save();
    this.failures = 0;
    this.wake?.();
    return to;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    clearTimeout(this.saveTimer);
    clearImmediate(this.forgetting);
    this.forgetting = undefined;
    this.save();
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.round();
      } catch (err) {
        if (!this.running) break;
        this.failures++;
        const wait = Math.min(this.opts.maxBackoffMs ?? 30_000, 250 * 2 ** Math.min(this.failures, 10));
        // Logged once per outage, not once per retry.
        if (this.online || this.failures === 1) this.opts.log.warn({ err: (err as Error).message, retryInMs: wait }, 'HQ publishing paused; selling goes on');
        this.online = false;
        await this.sleep(wait);
      }
    }
  }

  /**
   * Publishes from the cursor until an error ends the round (then the caller backs off). The window
   * is refilled in chunks once half of it is acknowledged: one read of the log per chunk, not per ack.
   */
  private async round(): Promise<void> {
    const window = this.opts.window ?? 512;
    const generation = this.generation;
    let sent = this.acked;
    let inFlight = 0;
    let failed: unknown;
    let freed: (() => void) | undefined;
    const room = () => new Promise<void>((resolve) => (freed = resolve));
    while (this.running && failed === undefined && generation === this.generation) {
      if (inFlight > window / 2) {
        await room();
        continue;
      }
      const batch = entriesAfter(this.opts.db, sent, window - inFlight);
      if (batch.length === 0) {
        await this.sleep(this.opts.pollMs ?? 100);
        continue;
      }
      // A publish follows a durable commit (ARCHITECTURE): HQ must never hold what a power cut could take back.
      await whenDurable(this.opts.db);
      for (const entry of batch) {
        inFlight++;
        this.nextOf.set(sent, entry.seq);
        this.opts
          .publish(eventSubject(this.storeId, entry.resource), this.payload(entry), eventMsgId(this.storeId, entry.seq))
          .then(
            () => this.ack(entry.seq),
            (err: unknown) => {
              failed ??= err;
            },
          )
          .finally(() => {
            inFlight--;
            freed?.();
            freed = undefined;
          });
        sent = entry.seq;
      }
    }
    while (inFlight > 0) await room();
    if (failed !== undefined) throw failed;
  }

  private ack(seq: number): void {
    if (seq <= this.acked) return;
    this.ackedAhead.add(seq);
    for (let next = this.nextOf.get(this.acked); next !== undefined && this.ackedAhead.delete(next); next = this.nextOf.get(this.acked)) {
      this.nextOf.delete(this.acked);
      this.acked = next;
    }
    if (!this.online) {
      this.online = true;
      if (this.failures) this.opts.log.info({ ackedSeq: this.acked }, 'HQ publishing resumed');
      this.failures = 0;
    }
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = undefined;
      this.save();
    }, this.opts.saveEveryMs ?? 500);
  }

  private save(): void {
    if (this.acked === this.saved) return;
    try {
      saveAcked(this.opts.db, this.acked);
      this.saved = this.acked;
    } catch (err) {
      this.opts.log.warn({ err }, 'could not save the HQ position; it is saved again with the next ack');
    }
  }

  /**
   * The message: the entry and its document as stored at that version, as the API presents it.
   * An entry written before the hub joined a chain has no document kept; it carries the current
   * one when that is still the same version, else none (a later entry carries the newer state).
   */
  private payload(e: PendingEntry): string {
    const service = this.opts.resources[e.resource];
    let doc: Record<string, unknown> | null = null;
    let raw: string | undefined;
    if (e.op === 'upsert' && service) {
      let json = e.doc;
      if (json === null) {
        let row: { v: number; doc: string } | undefined;
        try {
          row = getRaw(this.opts.db, service.def, service.parseKey(e.key));
        } catch {
          row = undefined; // a key the resource no longer parses: the entry goes without a document
        }
        json = row && row.v === e.v ? row.doc : null;
      }
      // A resource without a read-time hook and without settings is sent as stored, `_v` spliced in: no parse and re-serialize.
      if (json !== null && !service.def.hooks?.present && !json.includes('"settings"')) raw = json === '{}' ? `{"_v":${e.v}}` : `${json.slice(0, -1)},"_v":${e.v}}`;
      else if (json !== null) {
        // As a caller without rights reads it, and whatever `settings` it holds without their secrets
        // (the resources with secret settings already leave them out when they present a document).
        const shown = service.present({ doc: JSON.parse(json) as Record<string, unknown>, v: e.v }, PUBLISHED_AS);
        const settings = shown.settings;
        doc = settings && typeof settings === 'object' && !Array.isArray(settings) ? { ...shown, settings: publicSettings(settings as Record<string, string>) } : shown;
      }
    }
    const head = JSON.stringify({
      storeId: this.storeId,
      seq: e.seq,
      base: this.base,
      resource: e.resource,
      key: e.key,
      op: e.op,
      v: e.v,
      at: new Date(e.at).toISOString(),
      doc,
    });
    return raw === undefined ? head : `${head.slice(0, -'null}'.length)}${raw}}`;
  }

  /** How far behind HQ is, for the heartbeat. */
  lastSeq(): number {
    return newestSeq(this.opts.db);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wake = done;
    });
  }
}
