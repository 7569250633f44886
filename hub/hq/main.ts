/**
 * `npm run hq`: the head-office service (CONTRACT §13). Composition root: config → NATS →
 * PostgreSQL (embedded by default) and its migrations → NATS's streams (kept after reconnections)
 * → ingest, heartbeats, catalog relay → HTTP. Shutdown in reverse on SIGTERM/SIGINT. Several may run against the same NATS and
 * PostgreSQL: the ingest consumer is shared, outbox rows are claimed with SKIP LOCKED.
 */
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { ConfigError } from '../core/config.js';
import { listen } from '../http/listen.js';
import { answerClientErrors } from '../http/client-errors.js';
import { makeDataDir } from '../../db/files.js';
import { createLogger } from '../core/log.js';
import { VERSION } from '../core/version.js';
import { loadHqConfig, type HqConfig } from './config.js';
import { migrate, openPool, startEmbedded } from './db.js';
import { connectHqNats, ensureStreams, keepStreams } from './streams.js';
import { Ingest } from './ingest.js';
import { CatalogRelay } from './catalog.js';
import { createHqApp, ensureAdmin } from './api.js';
import { runNatsConfig } from './nats-config.js';
import { Heartbeats } from './heartbeats.js';

function configOrExit(): HqConfig {
  try {
    return loadHqConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}


async function main(): Promise<void> {
  const config = configOrExit();
  const log = createLogger(config.logLevel);
  const started = Date.now();
  const lines: string[] = [];
  // Before anything else: the first admin's password is written there once its user exists.
  makeDataDir(config.dataDir, 'POS_HQ_DATA_DIR');

  // NATS first: HQ can do nothing without it, and a server that is not there is said at once, naming
  // it, before a database is started for nothing.
  const nc = await connectHqNats(config).catch((e: unknown) => {
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(`cannot reach NATS at ${config.natsUrl} (POS_HQ_NATS_URL): ${why}. Start nats-server with JetStream (nats-server -js) there, or set POS_HQ_NATS_URL.`);
  });
  const embedded = config.databaseUrl ? undefined : await startEmbedded(config.dataDir, log);
  const pool = openPool(config.databaseUrl ?? embedded!.url);
  await migrate(pool).catch((e: unknown) => {
    if (!config.databaseUrl) throw e;
    // Where, without the password the URL may hold.
    const u = new URL(config.databaseUrl);
    throw new Error(`cannot use the PostgreSQL database at ${u.host}${u.pathname} (POS_HQ_DATABASE_URL): ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  });
  const adminPassword = await ensureAdmin(pool, config.adminPassword);
  if (adminPassword) {
    const file = join(config.dataDir, 'hq-admin-password.txt');
    writeFileSync(file, `${adminPassword}\n`, { mode: 0o600 });
    lines.push(`First start: log in as 'admin' with password '${adminPassword}' (also in ${file}).`);
  }

  const { jsm } = await ensureStreams(nc, config);
  const streams = keepStreams(nc, config, log);
  const ingest = new Ingest({ nc, pool, log, batchSize: config.batchSize, ackWaitMs: config.ackWaitMs, crashAfterCommit: config.crashAfterCommit, onMissing: () => streams.check() });
  const relay = new CatalogRelay({ nc, pool, log, resendAfterMs: config.catalogResendMs, offlineAfterMs: config.offlineAfterMs });
  const beats = new Heartbeats({ nc, jsm, pool, log, offlineAfterMs: config.offlineAfterMs });
  beats.start();
  ingest.start();
  relay.start();

  const app = createHqApp({
    pool,
    log,
    timeZone: config.timeZone,
    offlineAfterMs: config.offlineAfterMs,
    state: {
      health: () => ({ nats: nc.isClosed() ? 'closed' : 'connected', ingest: ingest.stats, uptimeS: Math.floor((Date.now() - started) / 1000) }),
      databaseOk: () => pool.query('SELECT 1').then(() => true, () => false),
      catalogPushed: () => relay.kick(),
    },
  });
  const server: Server = createServer(app);
  answerClientErrors(server);
  await listen(server, config.port, config.host, { port: 'POS_HQ_PORT', host: 'POS_HQ_HOST' });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  lines.unshift(
    `POS Hub HQ ${VERSION} listening on http://${config.host}:${port}/hq/ (API /hq/api)`,
    `PostgreSQL: ${config.databaseUrl ? 'POS_HQ_DATABASE_URL' : `embedded in ${join(config.dataDir, 'pg')}`}; NATS: ${config.natsUrl} (started in ${Date.now() - started} ms)`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  log.info({ port }, 'hq started');

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close(async () => {
      beats.stop();
      streams.stop();
      await ingest.stop();
      await relay.stop();
      await nc.drain().catch(() => {});
      await pool.end().catch(() => {});
      await embedded?.stop();
      log.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

if (process.argv[2] === 'nats-config') {
  process.exit(runNatsConfig(process.argv.slice(3)));
} else {
  main().catch((e: unknown) => {
    process.stderr.write(`POS Hub HQ failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
