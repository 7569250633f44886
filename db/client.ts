/**
 * The one way to open the hub's database: better-sqlite3 in WAL mode with foreign keys and a busy
 * timeout, the committed migrations applied, and the SQL helper functions registered. Used by the
 * hub, the tests and the scripts alike. This folder is the only importer of better-sqlite3.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema.js';
import { DurableCommits, type SyncFd } from './durability.js';
import { syncPath } from './files.js';
import { foldText } from './text.js';
import { compactInto } from './sealed-backup.js';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface OpenOptions {
  /** Skip the migrations (a tool that only reads an existing file). */
  readonly?: boolean;
  /**
   * Checkpoint the WAL from a worker thread instead of inside commits (the hub process). A
   * checkpoint writes pages back and fsyncs; done inline it stalls the event loop every few dozen
   * writes, on a mini-PC's disk for milliseconds.
   */
  backgroundCheckpoints?: boolean;
  /** How the WAL is flushed to stable storage (tests inject a failing or counting fdatasync). */
  syncFd?: SyncFd;
  /**
   * The hub's own connection: COMMIT does not sync on the event loop (`synchronous = NORMAL`);
   * every commit is made durable by the shared fdatasync of the WAL that db/durability.ts runs on
   * the thread pool, which everything a commit causes outside the process awaits (whenDurable()).
   * Only for a process where that holds (hub/main.ts, the tests' in-process hub). Without it a
   * connection commits with `synchronous = FULL` (scripts, a restore): nobody awaits their syncs.
   */
  groupSync?: boolean;
}

const durability = new WeakMap<Db, DurableCommits>();

export function openDb(file: string, opts: OpenOptions = {}): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const client = new Database(file, { readonly: opts.readonly ?? false });
  client.pragma('journal_mode = WAL');
  // CONTRACT §12: a 2xx is on stable storage. FULL: every COMMIT syncs the WAL before it returns —
  // on the event loop. The hub's own connection (groupSync) commits with NORMAL instead and gets the
  // same guarantee from the shared off-thread fdatasync that follows every commit and that every
  // effect of a commit awaits (db/durability.ts; the README's "Durability" says why that is FULL's
  // guarantee). Any other connection (a script, a restore) keeps FULL: nothing awaits its syncs.
  // (better-sqlite3 builds SQLite with SQLITE_DEFAULT_WAL_SYNCHRONOUS=1: it is always set here.)
  const groupSync = opts.groupSync === true && file !== ':memory:' && !opts.readonly;
  client.pragma(groupSync ? 'synchronous = NORMAL' : 'synchronous = FULL');
  client.pragma('foreign_keys = ON');
  // Savepoints (each write of a batch has one) journal the pages they touch: in memory, not a temp file.
  client.pragma('temp_store = MEMORY');
  client.pragma('busy_timeout = 5000');
  // Unicode-aware folding for `contains`/`startswith` and Search: SQLite's own lower()/LIKE fold ASCII
  // only, and names here are "Šopský šalát". Case and accents both go (db/text.ts).
  client.function('casefold', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? foldText(s) : s));
  // Letter case alone, Unicode-aware (SQLite's NOCASE folds A-Z only): user names are unique and
  // matched at login in any case, "Šimon" as "šimon" too, while "Simon" stays another name.
  client.function('lowercase', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : s));
  // Its own statement, prepared before the cache below, so nobody else's hand-out resets its pluck().
  const totalChanges = client.prepare('SELECT total_changes()').pluck();
  cacheStatements(client);
  const db = drizzle(client, { schema }) as Db;
  if (!opts.readonly) migrate(db, { migrationsFolder: MIGRATIONS });
  if (file !== ':memory:' && !opts.readonly) {
    syncAtOpen(file);
    durability.set(db, new DurableCommits(client, () => totalChanges.get() as number, `${file}-wal`, opts.syncFd, groupSync));
  }
  if (opts.backgroundCheckpoints && file !== ':memory:' && !opts.readonly) startCheckpointer(db, file);
  return db;
}

/**
 * What opening (and migrating) wrote is made durable before the hub serves: the WAL, the database
 * file, and the directory that holds their names (a file created and never followed by an fsync of
 * its directory can vanish in a power cut).
 */
function syncAtOpen(file: string): void {
  for (const path of [`${file}-wal`, file, dirname(file)]) {
    if (existsSync(path)) syncPath(path); // no WAL yet: nothing was written to it
  }
}

/**
 * Resolves once every change committed on `db` so far is on stable storage (CONTRACT §12). Await it
 * between a commit and anything the commit causes outside the process. In-memory and read-only
 * databases resolve at once.
 */
export function whenDurable(db: Db): Promise<void> {
  return durability.get(db)?.whenDurable() ?? Promise.resolve();
}

/** True when nothing committed on `db` is still waiting for its sync (a fast path for answers). */
export function isDurable(db: Db): boolean {
  return durability.get(db)?.isDurable() ?? true;
}

/** The durability tracker of a file database (main.ts fails stop through it; metrics count its syncs). */
export function durableCommits(db: Db): DurableCommits | undefined {
  return durability.get(db);
}

const checkpointers = new WeakMap<Db, Worker>();

/**
 * What the checkpoint thread runs: its own connection, a PASSIVE checkpoint every quarter second.
 * A checkpoint never copies a frame whose commit is not on disk yet: SQLite syncs the WAL before it
 * writes any frame into the database file (walCheckpoint(): "Sync the WAL to disk", unless
 * synchronous = OFF), and syncs the database file before the log may restart. Under the hub's
 * NORMAL it is also a backstop: a commit nobody awaited is on disk within a quarter second.
 */
const CHECKPOINT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (e) { parentPort.postMessage(String(e && e.message)); }
}, workerData.everyMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); process.exit(0); });
`;

function startCheckpointer(db: Db, file: string): void {
  // Automatic checkpoints stay on as a backstop, far out, should the thread ever stop.
  db.$client.pragma('wal_autocheckpoint = 50000');
  const worker = new Worker(CHECKPOINT_WORKER, {
    eval: true,
    workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3'), everyMs: 250 },
  });
  worker.unref();
  checkpointers.set(db, worker);
}

const STATEMENT_CACHE_SIZE = 1000;

/**
 * drizzle prepares every query afresh, and SQLite's compile step costs more than many of the
 * hub's queries take to run. The same SQL text gets the same compiled statement here. Statements
 * are reset to object rows on each hand-out, because drizzle switches a statement to raw rows
 * (`raw()`) when it maps columns itself.
 */
function cacheStatements(client: Database.Database): void {
  const prepare = client.prepare.bind(client);
  const cache = new Map<string, Database.Statement>();
  client.prepare = ((source: string) => {
    let stmt = cache.get(source);
    if (stmt) {
      cache.delete(source);
    } else {
      stmt = prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(source, stmt); // most recently used last, so eviction drops the coldest
    if (stmt.reader) stmt.raw(false).pluck(false).expand(false);
    return stmt;
  }) as typeof client.prepare;
}

export function closeDb(db: Db): void {
  const worker = checkpointers.get(db);
  if (worker) {
    worker.postMessage('stop');
    checkpointers.delete(db);
  }
  durability.get(db)?.close();
  durability.delete(db);
  if (db.$client.open) db.$client.close();
}

export type SqlParam = string | number | bigint | null | Buffer;

/**
 * Plain SQL for the few hot paths (the engine's row writes, a ticket write's lookups) where building a drizzle `sql`
 * template per call costs more than running the statement. Texts are constants of the caller;
 * values are always bound.
 */
export const rawSql = {
  run(db: Db, text: string, params: SqlParam[]): { changes: number } {
    return prepared(db, text).run(...params);
  },
  get<T>(db: Db, text: string, params: SqlParam[]): T | undefined {
    return prepared(db, text).get(...params) as T | undefined;
  },
  all<T>(db: Db, text: string, params: SqlParam[]): T[] {
    return prepared(db, text).all(...params) as T[];
  },
};

/**
 * Statements prepared once per database and text: SQLite parses and plans a text each time it is
 * prepared, and a close runs the sales totals' UPSERT once per row it touches (product, category,
 * waiter, VAT, payment… per day and month). Measured on that UPSERT: 26 µs prepared and run each
 * time, 2.3 µs run prepared. A few texts vary with their number of parameters (a report's months),
 * so the cache is bounded: past its size it starts over, which costs one preparation per text.
 */
const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();
const MAX_STATEMENTS = 500;

/** Drops the prepared statements of `db`: the next use prepares again (tests that watch `prepare`). */
export function forgetStatements(db: Db): void {
  statements.delete(db.$client);
}

function prepared(db: Db, text: string): Database.Statement {
  let cache = statements.get(db.$client);
  if (!cache) statements.set(db.$client, (cache = new Map()));
  let statement = cache.get(text);
  if (!statement) {
    if (cache.size >= MAX_STATEMENTS) cache.clear();
    statement = db.$client.prepare(text);
    cache.set(text, statement);
  }
  return statement;
}

/** `T`, unless it is a promise: an async function passed as a transaction is a compile error. */
export type NotAPromise<T> = T extends PromiseLike<unknown> ? never : T;

/**
 * Runs `fn` as one write (no awaits inside: better-sqlite3 cannot span them): all of it or nothing.
 * On a file database it joins the batch that commits together (db/durability.ts), in a savepoint of its own.
 */
export function inTransaction<T>(db: Db, fn: () => NotAPromise<T>): T {
  const batch = durability.get(db);
  const watch = writeWatchers.get(db);
  if (!watch) return (batch ? batch.write(fn) : db.$client.transaction(fn).immediate()) as T;
  watch.depth += 1;
  try {
    return (batch ? batch.write(fn) : db.$client.transaction(fn).immediate()) as T;
  } catch (e) {
    // SQLite has rolled this write back (its savepoint): whatever it changed is as it was.
    for (const w of watch.set) w.rolledBack();
    throw e;
  } finally {
    watch.depth -= 1;
    if (watch.depth === 0) for (const w of watch.set) w.ended();
  }
}

/** Told when a write (inTransaction, at any depth) rolls back, and when the outermost write ends. */
export interface WriteWatcher {
  rolledBack(): void;
  ended(): void;
}

const writeWatchers = new WeakMap<Db, { depth: number; set: Set<WriteWatcher> }>();

/** Watches the writes of `db` (in-memory copies of documents that must not outlive a rollback). Answers the function that stops. */
export function watchWrites(db: Db, watcher: WriteWatcher): () => void {
  let watch = writeWatchers.get(db);
  if (!watch) writeWatchers.set(db, (watch = { depth: 0, set: new Set() }));
  const set = watch.set;
  set.add(watcher);
  return () => set.delete(watcher);
}

/** True inside a write (inTransaction) on `db`, as far as watchWrites() can tell: only watched databases count. */
export function inWrite(db: Db): boolean {
  return (writeWatchers.get(db)?.depth ?? 0) > 0;
}

const dataVersions = new WeakMap<Db, { statement: Database.Statement; value: number; fresh: boolean }>();

/**
 * SQLite's `PRAGMA data_version`: changes whenever another connection (another process) commits to
 * the file. The hub's in-memory copies start over when it moves, should anything write to the
 * database beside the hub. Read once per turn of the event loop (a request's reads are one turn).
 */
export function dataVersion(db: Db): number {
  let version = dataVersions.get(db);
  if (!version) dataVersions.set(db, (version = { statement: db.$client.prepare('PRAGMA data_version'), value: 0, fresh: false }));
  if (!version.fresh) {
    // pluck() each time: the statement cache hands the same statement to anyone preparing this text.
    version.value = version.statement.pluck().get() as number;
    version.fresh = true;
    const v = version;
    setImmediate(() => (v.fresh = false));
  }
  return version.value;
}

/** Whether the database answers a query at all (the health check). */
export function dbAnswers(db: Db): boolean {
  try {
    db.$client.prepare('SELECT 1').get();
    return true;
  } catch {
    return false;
  }
}

/** Commits the open batch of writes now (before a backup or anything that must not run inside it). */
export function commitNow(db: Db): void {
  durability.get(db)?.commit();
}

export { schema };

/**
 * An online backup: one VACUUM INTO on a connection of its own (compactInto, off the main thread),
 * so it copies one snapshot of what was committed while the hub keeps writing. Not SQLite's backup
 * API through the hub's connection: a batch of writes open on it when the copy begins makes the
 * first step answer BUSY, which better-sqlite3 takes for "done" and removes the file.
 */
export async function backupDb(db: Db, destination: string): Promise<void> {
  mkdirSync(dirname(destination), { recursive: true });
  // What is in the open batch (writes already made, answered once synced) goes into the copy too.
  commitNow(db);
  await compactInto(db.$client.name, destination);
  // Nor may it hold a commit a power cut could still take back from the database (it copies what
  // was committed, synced or not): the backup is done once everything it may hold is on disk.
  await whenDurable(db);
}

/**
 * The highest change-log position a hub database ever handed out (its WAL included: opening it
 * read-write recovers the WAL, and closing it checkpoints the WAL into the file, so the file is whole).
 */
export function lastChangeSeq(file: string): number {
  const client = new Database(file, { fileMustExist: true });
  try {
    const max = (client.prepare('SELECT max(seq) AS s FROM changes').get() as { s: number | null }).s ?? 0;
    const seqRow = client.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'changes'").get() as { seq: number } | undefined;
    return Math.max(max, seqRow?.seq ?? 0);
  } finally {
    client.close();
  }
}

/**
 * Makes the change log of `file` go on after `seq`: a restored backup must not hand out positions it
 * handed out before the restore, or a register following the log — and head office, which keeps one
 * event per position (CONTRACT §13) — would take a new change for one it already has and drop it.
 */
export function continueChangesAfter(file: string, seq: number): void {
  const client = new Database(file, { fileMustExist: true });
  try {
    client.pragma('journal_mode = WAL');
    client.pragma('synchronous = FULL'); // a restore's commit, awaited by nobody: synced by COMMIT itself
    client.transaction(() => {
      const current = (client.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'changes'").get() as { seq: number } | undefined)?.seq ?? 0;
      if (seq <= current) return;
      if (current) client.prepare("UPDATE sqlite_sequence SET seq = ? WHERE name = 'changes'").run(seq);
      else client.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('changes', ?)").run(seq);
    })();
  } finally {
    client.close();
  }
}

/**
 * Checks that a file is a sound hub database: SQLite opens it, `PRAGMA integrity_check` says ok,
 * and it holds the hub's tables. Returns the problem, or null.
 */
export function checkDbFile(file: string): string | null {
  let client: Database.Database | undefined;
  try {
    client = new Database(file, { readonly: true, fileMustExist: true });
    const integrity = client.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') return `integrity_check says: ${String(integrity)}`;
    const tables = client.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as Array<{ name: string }>;
    const names = new Set(tables.map((t) => t.name));
    for (const needed of ['users', 'tickets', 'changes', '__drizzle_migrations']) {
      if (!names.has(needed)) return `it has no ${needed} table: not a POS Hub database`;
    }
    return null;
  } catch (e) {
    return (e as Error).message;
  } finally {
    client?.close();
  }
}
