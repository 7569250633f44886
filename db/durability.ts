/**
 * Durable commits with group commit (CONTRACT §12 "Durability", issues 16 and 31).
 *
 * The hub's own connection runs in WAL mode with `synchronous = NORMAL` (db/client.ts, `groupSync`):
 * a COMMIT appends its pages to the WAL with write(2) and returns, without a sync on the event loop.
 * SQLite documents what NORMAL keeps under power loss in WAL mode (https://sqlite.org/pragma.html#pragma_synchronous,
 * https://sqlite.org/wal.html): the database stays consistent (the WAL is synced before every
 * checkpoint copies a frame into the database file, the database file after a checkpoint that
 * reached the end of the WAL, and the WAL header when the log restarts; frames carry cumulative
 * checksums and salts, so recovery replays only whole transactions up to the last valid commit
 * frame, a prefix of the commits in order), but the transactions committed since the last sync of
 * the WAL may roll back. FULL is NORMAL plus "an additional sync of the WAL file after each
 * transaction commit" — made inline, on the event loop, per COMMIT.
 *
 * This class makes that additional sync, shared and off the event loop: before anything a commit
 * caused leaves the process (an HTTP answer, an SSE event, kitchen-printer bytes, a fiscal-device
 * call, an e-mail, a publish to head office, a backup), the caller awaits `whenDurable()`, which
 * resolves once an fdatasync of the WAL that *started after* the caller's commits has completed.
 * fdatasync(2) flushes every byte written to the file before it started, whichever descriptor wrote
 * it, so everything committed up to that point is on stable storage — what FULL guarantees for an
 * acknowledged commit. The sync runs on libuv's thread pool, so the event loop keeps serving
 * registers meanwhile; every commit that lands while one sync runs is covered by the next one
 * (group commit: one fsync for all the writes that arrived together, as PostgreSQL's WAL flush does),
 * and a sync starts only once the event loop has handled the I/O that is ready, so the requests that
 * arrived together commit before it (startSyncSoon).
 * A batch's COMMIT nobody awaits starts that sync too, so a batch is on disk one fdatasync later, as
 * under FULL, only never on the event loop. (A statement committing on its own, outside a batch, is
 * covered by the next sync, or the checkpoint thread's: nothing outside the process has heard of it
 * before one of them.)
 *
 * Unhurried writes (`unhurried()`: the print queue's record of what a printer did — printed, waiting,
 * failed) are the one exception, named as such: a batch holding nothing else does not start a sync
 * of its own when it commits. It rides the next sync anyone starts (the next register's answer, a
 * few milliseconds later in a busy shop), and at the latest one started UNHURRIED_SYNC_MS after
 * its COMMIT. What that risks is argued where it is used (hub/printing/states.ts): such a write
 * reports something that already happened outside, so nothing outside waits on it, and losing it in a
 * power cut loses only the record (a kitchen order printed once more, marked REPRINT) — never a
 * write anyone was told of, since everything that leaves the process still awaits a sync.
 *
 * Writes that arrive together also share one COMMIT: the first write opens a transaction (BEGIN
 * IMMEDIATE) and every write runs in its own savepoint inside it, so one that fails rolls back alone;
 * the transaction commits when the next sync is about to start (so every write that came in while
 * one sync ran shares the next COMMIT and fsync), or after COMMIT_AFTER_MS when nobody waits for a
 * sync. A COMMIT writes each page the batch touched once — the change log's last page, the indexes'
 * right edges — instead of once per write. Nothing leaves the process before the sync after that
 * COMMIT, so no one learns of a write that could still be taken back.
 *
 * Connections that commit outside this (scripts, a restore, the tests' plain databases) keep
 * `synchronous = FULL`: nothing awaits a sync of theirs, so COMMIT syncs itself. On them the shared
 * sync finds the WAL already flushed.
 *
 * A failed fdatasync means the hub can no longer know what is on disk (the kernel may have dropped
 * the dirty pages: PostgreSQL's "fsyncgate", 2018). Like PostgreSQL, the hub then fails stop: every
 * waiting and later caller gets the error, and the owner (main.ts) exits so the service manager
 * restarts it and SQLite recovers from what the disk really holds.
 */
import { fstatSync, openSync, closeSync, statSync, fdatasync as fdatasyncCb, fdatasyncSync } from 'node:fs';
import type Database from 'better-sqlite3';

/** Flushes one file descriptor's data to stable storage (fdatasync; tests inject failures and counts). */
export type SyncFd = (fd: number) => Promise<void>;

export const fdatasync: SyncFd = (fd) => new Promise((resolve, reject) => fdatasyncCb(fd, (err) => (err ? reject(err) : resolve())));

interface Waiter {
  mark: number;
  /** Waits for the next sync anyone starts, starting one itself only after PATIENT_MS (whenDurable({ patient: true }) while others sync often). */
  patient: boolean;
  /** Asked to be patient (whenDurable({ patient: true })), whether or not it waits: not "someone else" for BUSY_MS. */
  asked: boolean;
  resolve: () => void;
  reject: (e: Error) => void;
}

const RESOLVED = Promise.resolve();

/** A batch nobody is waiting on is committed after this long at the latest. */
export const COMMIT_AFTER_MS = 2;

/** An unhurried write's commit is synced this long after it at the latest (sooner by anyone else's sync). */
export const UNHURRIED_SYNC_MS = 50;

/** A patient waiter starts a sync of its own after this long, if nobody else started one. */
export const PATIENT_MS = 5;

/**
 * Patience pays only while others sync often: a patient waiter waits only if a sync started for
 * someone else (an answer, a hurried commit) within this long; otherwise it syncs at once, so a
 * printer working through a backlog in a quiet shop is not held 5 ms per job.
 */
export const BUSY_MS = 20;

export class DurableCommits {
  /** The connection's change counter (sqlite3_total_changes) covered by the last completed sync. */
  private durableMark: number;
  private syncing = false;
  private waiters: Waiter[] = [];
  private failure: Error | null = null;
  private fd: number | null = null;
  private fdIno = 0;
  /** Completed WAL syncs (metrics, and tests that count fsyncs per group of writes), and their time in all. */
  syncs = 0;
  syncMs = 0;
  /** Told once when a sync fails (the hub then exits; see the top of this file). */
  onFailure: ((err: Error) => void) | null = null;

  /** A batch transaction is open (BEGIN IMMEDIATE by write(), not yet committed). */
  private batchOpen = false;
  /** Completed COMMITs of batches (metrics, and tests that count commits per group of writes). */
  commits = 0;
  private closed = false;
  /** Inside unhurried(): writes made now do not ask for a sync of their own. */
  private unhurriedDepth = 0;
  /** The open batch holds a write that is not unhurried: its COMMIT starts a sync. */
  private batchHurried = false;
  /** Rows changed by unhurried writes since the last sync started: changes past the durable mark beyond these ask for a sync. */
  private unhurriedChanges = 0;
  /** The unhurried writes' own deadline passed: the next sync is due even if nothing else asks for one. */
  private unhurriedDue = false;
  private unhurriedTimer: NodeJS.Timeout | null = null;
  /** Patient waiters' deadline passed: the next sync is due. */
  private patientDue = false;
  private patientTimer: NodeJS.Timeout | null = null;
  /** A sync is to start once the event loop's ready I/O is handled (startSyncSoon). */
  private syncSoon = false;
  /** The change counter the running sync covers. */
  private syncMark = 0;
  /** When a sync last started for someone other than patient waiters and unhurried writes (performance.now()). */
  private othersSyncedAt = -Infinity;

  constructor(
    private readonly client: Database.Database,
    /** sqlite3_total_changes() of the connection: grows with every row any statement changed. */
    private readonly changes: () => number,
    private readonly walFile: string,
    private readonly syncFd: SyncFd = fdatasync,
    /**
     * COMMIT does not sync on this connection (synchronous = NORMAL): every commit is followed by
     * the shared sync, whether anyone awaits it or not.
     */
    private readonly syncsEveryCommit = false,
  ) {
    this.durableMark = changes();
  }

  /**
   * Runs `fn` as one write: in its own savepoint inside the batch transaction (opened here if none
   * is), so a throw rolls back `fn`'s changes alone. Synchronous, like every SQLite transaction here.
   */
  write<T>(fn: () => T): T {
    if (this.failure) throw this.failure;
    if (!this.client.inTransaction) {
      this.client.exec('BEGIN IMMEDIATE');
      this.batchOpen = true;
      this.batchHurried = false;
      setTimeout(() => this.commit(), COMMIT_AFTER_MS).unref();
    }
    if (this.unhurriedDepth === 0) {
      this.batchHurried = true;
      return this.client.transaction(fn)();
    }
    const before = this.changes();
    try {
      return this.client.transaction(fn)();
    } finally {
      this.unhurriedChanges += this.changes() - before;
    }
  }

  /**
   * Runs `fn`, whose writes (inTransaction) then do not start a sync of their own when their batch
   * commits: they are synced by the next sync anyone starts, or UNHURRIED_SYNC_MS after their
   * COMMIT at the latest. Only for writes that record what already happened outside and that nothing
   * outside waits on (see the top of this file); whenDurable() after them still waits for a sync as ever.
   */
  unhurried<T>(fn: () => T): T {
    this.unhurriedDepth += 1;
    try {
      return fn();
    } finally {
      this.unhurriedDepth -= 1;
    }
  }

  /** Commits the open batch (a no-op without one). A COMMIT that fails, or a batch SQLite rolled back on its own, stops the hub. */
  commit(): void {
    if (!this.batchOpen) return;
    this.batchOpen = false;
    if (!this.client.inTransaction) {
      // SQLite rolls back the whole transaction on some errors (disk full, I/O): the batch is gone.
      this.fail(new Error('the database rolled back a batch of writes on its own (disk full or an I/O error)'));
      return;
    }
    try {
      this.client.exec('COMMIT');
      this.commits += 1;
      if (!this.syncsEveryCommit) return;
      if (this.batchHurried) {
        // Nobody may be waiting (the batch timer): the sync starts anyway, so no commit stays unsynced.
        this.startSync();
      } else {
        this.syncUnhurried();
      }
    } catch (e) {
      try {
        if (this.client.inTransaction) this.client.exec('ROLLBACK');
      } catch {
        /* the failure below is what counts */
      }
      this.fail(e as Error);
    }
  }

  /** True when every change made so far is known to be on stable storage (no wait needed). */
  isDurable(): boolean {
    return this.failure === null && !this.batchOpen && this.changes() <= this.durableMark;
  }

  /** Resolves once everything committed before this call is on stable storage. */
  /**
   * `patient`: the caller can wait a few milliseconds (a kitchen printer about to be sent a job):
   * while others sync often (one started for someone else within BUSY_MS) it is covered by the next
   * sync anyone starts — in a busy shop the next register's write — and starts one itself only when
   * none started within PATIENT_MS; in a quiet moment it starts one at once. Either way it resolves
   * only after a sync that started after its commits completed.
   */
  whenDurable(opts: { patient?: boolean } = {}): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const mark = this.changes();
    if (mark <= this.durableMark) return RESOLVED;
    const asked = opts.patient === true;
    const patient = asked && performance.now() - this.othersSyncedAt < BUSY_MS;
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ mark, patient, asked, resolve, reject });
      if (patient) this.armPatience();
      else this.startSyncSoon();
    });
  }

  /**
   * Starts the sync once the event loop has handled the I/O that is ready now (setImmediate runs
   * right after its poll phase): requests that arrived together — the registers answered by the last
   * sync sending their next write at once — commit into one batch and share one sync, where starting
   * it at the first one's answer would make the rest wait for that sync and then one more. A lone
   * request loses only the rest of the loop turn.
   */
  private startSyncSoon(): void {
    if (this.syncSoon) return;
    this.syncSoon = true;
    setImmediate(() => {
      this.syncSoon = false;
      this.startSync();
    });
  }

  /** Patient waiters get a sync of their own within PATIENT_MS if nobody else starts one. */
  private armPatience(): void {
    if (this.patientTimer || this.closed) return;
    this.patientTimer = setTimeout(() => {
      this.patientTimer = null;
      if (this.closed || this.failure) return;
      // Those the running sync covers need nothing more; the others get the next one at once.
      if (!this.waiters.some((w) => w.patient && !(this.syncing && w.mark <= this.syncMark))) return;
      this.patientDue = true;
      this.startSync();
    }, PATIENT_MS);
    this.patientTimer.unref();
  }

  /** The error that stopped durable commits, if one did. */
  get failed(): Error | null {
    return this.failure;
  }

  /**
   * Commits the open batch and, where COMMIT does not sync, syncs the WAL before the connection
   * closes (the checkpoint SQLite makes when its last connection closes is not to be counted on:
   * the checkpoint thread may still hold one).
   */
  close(): void {
    // A sync asked for this turn starts now, as it would have before the database went away.
    if (this.syncSoon) this.startSync();
    this.closed = true;
    if (this.unhurriedTimer) clearTimeout(this.unhurriedTimer);
    this.unhurriedTimer = null;
    if (this.patientTimer) clearTimeout(this.patientTimer);
    this.patientTimer = null;
    // The batch's COMMIT below syncs nothing itself; what it leaves unsynced is synced right after.
    this.commit();
    if (this.syncsEveryCommit && !this.failure && this.changes() > this.durableMark) {
      fdatasyncSync(this.walFd());
      this.syncs += 1;
      this.durableMark = this.changes();
      for (const w of this.waiters) w.resolve();
      this.waiters = [];
    }
    // A sync still running on the thread pool closes the descriptor when it ends.
    if (!this.syncing) this.closeFd();
  }

  /** An unhurried batch committed: a sync within UNHURRIED_SYNC_MS, unless someone else's covers it first. */
  private syncUnhurried(): void {
    // Closing syncs what is left itself (close()).
    if (this.unhurriedTimer || this.closed) return;
    this.unhurriedTimer = setTimeout(() => {
      this.unhurriedTimer = null;
      if (this.closed || this.failure || this.changes() <= this.durableMark) return;
      this.unhurriedDue = true;
      this.startSync();
    }, UNHURRIED_SYNC_MS);
    this.unhurriedTimer.unref();
  }

  private startSync(): void {
    if (this.syncing || this.failure || this.closed) return;
    // Waiters, or (where COMMIT does not sync) commits not yet synced that nobody waits for — all
    // but unhurried ones, whose own timer makes them due.
    const unsynced = this.changes() - this.durableMark;
    const forOthers = this.waiters.some((w) => !w.asked) || (this.syncsEveryCommit && ((this.batchOpen && this.batchHurried) || unsynced > this.unhurriedChanges));
    if (!forOthers && !this.patientDue && !this.waiters.some((w) => !w.patient) && !(this.syncsEveryCommit && this.unhurriedDue && unsynced > 0)) return;
    if (forOthers) this.othersSyncedAt = performance.now();
    this.syncing = true;
    this.unhurriedDue = false;
    this.patientDue = false;
    // The batch commits now: everything counted below is then in the WAL (write(2) returned) before the sync starts.
    this.commit();
    if (this.failure) return;
    const mark = this.changes();
    this.syncMark = mark;
    // This sync covers every unhurried change made so far.
    this.unhurriedChanges = 0;
    const started = performance.now();
    let fd: number;
    try {
      fd = this.walFd();
    } catch (e) {
      this.fail(e as Error);
      return;
    }
    this.syncFd(fd).then(
      () => {
        this.syncing = false;
        this.syncs += 1;
        this.syncMs += performance.now() - started;
        if (mark > this.durableMark) this.durableMark = mark;
        // Unhurried commits this sync covered need no sync of their own any more.
        if (this.unhurriedTimer && this.changes() <= this.durableMark) {
          clearTimeout(this.unhurriedTimer);
          this.unhurriedTimer = null;
        }
        const still: Waiter[] = [];
        for (const w of this.waiters) {
          if (w.mark <= mark) w.resolve();
          else still.push(w);
        }
        this.waiters = still;
        if (this.closed) this.closeFd();
        else {
          this.startSync();
          // Patient waiters this sync did not cover, and no sync started for them: their own deadline.
          if (!this.syncing && this.waiters.some((w) => w.patient)) this.armPatience();
        }
      },
      (e: unknown) => {
        this.syncing = false;
        if (this.closed) this.closeFd();
        this.fail(e instanceof Error ? e : new Error(String(e)));
      },
    );
  }

  private closeFd(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  /**
   * The WAL's descriptor, reopened if the file was replaced (SQLite deletes the WAL when the last
   * connection closes; the hub's own connection stays open, but a sync must never go to a dead inode).
   */
  private walFd(): number {
    if (this.fd !== null) {
      let current = -1;
      try {
        current = statSync(this.walFile).ino;
      } catch {
        /* gone: reopen below */
      }
      if (current === this.fdIno) return this.fd;
      closeSync(this.fd);
      this.fd = null;
    }
    this.fd = openSync(this.walFile, 'r');
    this.fdIno = fstatSync(this.fd).ino;
    return this.fd;
  }

  private fail(err: Error): void {
    const failure = new Error(`the database could not be synced to disk (${err.message}); the hub must restart`, { cause: err });
    this.failure = failure;
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w.reject(failure);
    this.onFailure?.(failure);
  }
}
