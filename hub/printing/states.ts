/**
 * The print queue's state changes, written together (issue 31). Every worker reports what its
 * printer did here instead of writing it at once: the changes the workers make together — within
 * one turn of the event loop when a send waits on them, within GATHER_MS otherwise (four printers
 * confirming the four orders of one ticket, a printer's job printed and its next job about to be
 * sent) — are written as one write: one savepoint in the batch of writes
 * that commit together, one COMMIT — and a worker about to send waits for one sync shared by all
 * the changes made so far, not one of its own.
 *
 * What is durable when, and why that keeps the print queue's promises (CONTRACT §9 "never loses it,
 * and never prints it twice"; README "Kitchen printing"):
 * - Bytes go out only after `durable()`: the mark that the job is being sent (Printing, attempts + 1)
 *   and everything committed before it — the ticket write that made the order and its job — are on
 *   stable storage first, exactly as before. While registers are writing, the sync that makes them so
 *   is the next one anyone starts (a register's write, a few milliseconds away) or, when none starts
 *   within PATIENT_MS, one of the queue's own: a job may wait those few milliseconds, and the
 *   registers' writes get no sync more per printed job. In a quiet moment (no sync for anyone else
 *   within BUSY_MS) the queue syncs at once (db/durability.ts, whenDurable({ patient })). After a power cut the kitchen never holds an order the
 *   hub forgot, and a job whose bytes may be on paper comes back as Unknown and is printed again
 *   only marked REPRINT, never twice unmarked.
 * - What a printer did — Printed, Waiting, Failed, a stall — is a record of something that already
 *   happened outside; no byte, answer or event waits on it. It is written within GATHER_MS and
 *   committed with its batch, but as an *unhurried* write (db/durability.ts): it asks for no sync of
 *   its own and is on disk with the next sync anyone starts (the next register's write, the next
 *   job's send, an answer or a live event that shows it) or UNHURRIED_SYNC_MS after its commit at the
 *   latest. A power cut inside that window loses the record, not a job: a job whose Printed was lost
 *   is still Printing on disk, so it comes back as Unknown and prints once more marked REPRINT — the
 *   outcome a cut between the printer's confirmation and its record always had; the window only
 *   grows from one fdatasync to at most UNHURRIED_SYNC_MS. A job still Queued is never lost: its row
 *   was written, and synced, by the write that caused it.
 * - A later change of a job replaces an earlier one not yet written (a printer out of paper, retried:
 *   Waiting, Waiting…): only the job's latest state is written, whole (its attempts included), so the
 *   row is never behind what the worker knows except for GATHER_MS.
 * A worker reading the queue (nextJob) first takes its own pending change into account (see
 * `settle`), so a job printed but not yet written is never picked again.
 */
import { whenDurable, durableCommits, inTransaction, type Db } from '../../db/client.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import { applyUpdate, OPEN_STATES, writeJobStates, type JobUpdate, type KitchenOrders, type PrintJob } from './store.js';

/**
 * How long changes nobody waits on (Printed, Waiting…) are gathered before they are written. A
 * change a send waits on is written at the end of the event loop's turn instead (setImmediate),
 * with everything gathered so far: the kitchen does not wait for the gathering.
 */
export const GATHER_MS = 1;

export class JobStates {
  /** Changes not written yet, by job id: the latest state of each job. */
  private readonly pending = new Map<string, PrintJob>();
  private timer: NodeJS.Timeout | null = null;
  /** A flush at the end of this turn of the event loop, for a send waiting on it. */
  private soon: NodeJS.Immediate | null = null;
  /** Workers waiting for the next write and the sync after it. */
  private waiting: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];
  /** Writes made (tests count them per group of changes). */
  writes = 0;

  constructor(
    private readonly db: Db,
    private readonly orders: KitchenOrders,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** A job's new state (answered at once, as the worker goes on with it), written with the next group. */
  change(job: PrintJob, u: JobUpdate): PrintJob {
    const next = applyUpdate(job, u);
    this.pending.set(next.id, next);
    this.timer ??= setTimeout(() => this.flushFromTimer(), GATHER_MS);
    return next;
  }

  /**
   * Resolves once every change made so far is written and on stable storage, with whatever the
   * other workers changed meanwhile: one write and one sync for all of them.
   */
  durable(): Promise<void> {
    if (this.pending.size === 0) return this.synced();
    this.soon ??= setImmediate(() => this.flushFromTimer());
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /**
   * Before a worker asks the queue for its next job: a pending change that leaves its job open
   * (Waiting) is written now, so the job is read as it is; the id of a job whose pending change
   * closed it (Printed, Failed) is answered, for nextJob to pass over.
   */
  settle(endpointName: string): string | undefined {
    let closed: string | undefined;
    for (const job of this.pending.values()) {
      if (job.endpointName !== endpointName) continue;
      if (OPEN_STATES.includes(job.state)) {
        this.flush();
        return undefined;
      }
      closed = job.id;
    }
    return closed;
  }

  /** Writes the pending changes now (status reads, a worker settling, stopping); whoever waits gets the sync after it. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.soon) clearImmediate(this.soon);
    this.timer = null;
    this.soon = null;
    const waiting = this.waiting;
    this.waiting = [];
    const jobs = [...this.pending.values()];
    this.pending.clear();
    try {
      if (jobs.length > 0) {
        const at = this.clock.now().getTime();
        const write = () => inTransaction(this.db, () => writeJobStates(this.db, this.orders, jobs, at));
        const commits = durableCommits(this.db);
        // Unhurried: a record of what printers did asks for no sync of its own (see the top of this file).
        if (commits) commits.unhurried(write);
        else write();
        this.writes += 1;
      }
    } catch (e) {
      // Rolled back: the changes stay pending (a later one of the same job still wins) for the next try.
      for (const job of jobs) if (!this.pending.has(job.id)) this.pending.set(job.id, job);
      for (const w of waiting) w.reject(e);
      throw e;
    }
    if (waiting.length === 0) return;
    this.synced().then(
      () => waiting.forEach((w) => w.resolve()),
      (e: unknown) => waiting.forEach((w) => w.reject(e)),
    );
  }

  /**
   * Resolves after a sync that started after everything written so far: the next one anyone starts
   * (a register's write in a busy shop), or one of ours within PATIENT_MS (db/durability.ts).
   */
  private synced(): Promise<void> {
    return durableCommits(this.db)?.whenDurable({ patient: true }) ?? whenDurable(this.db);
  }

  private flushFromTimer(): void {
    try {
      this.flush();
    } catch (e) {
      // The waiting workers got the error too; the changes are written with the next flush.
      this.log.error({ err: e }, 'print job states could not be written');
    }
  }
}
