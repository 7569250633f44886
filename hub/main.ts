/**
 * Composition root: config → db → services → bootstrap → app → listen. Shutdown in reverse on
 * SIGTERM/SIGINT: stop taking requests, finish those in flight, close the database, exit 0 in 10 s.
 */
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { closeDb, durableCommits, openDb, whenDurable } from '../db/client.js';
import { makeDataDir, restrictToOwner } from '../db/files.js';
import { buildServices, createApp } from './app.js';
import { deviceStatuses } from './health.js';
import { bootstrap } from './bootstrap.js';
import { systemClock } from './core/clock.js';
import { loadConfigOrExit } from './core/config.js';
import { createLogger } from './core/log.js';
import { dbDeviceStateStore } from './core/device-state.js';
import { FiscalRegistry } from '../drivers/fiscal/registry.js';
import { VERSION } from './core/version.js';
import { hubId, mdnsHostName, mdnsInstanceName } from './core/identity.js';
import { claim } from './core/pidfile.js';
import { answerClientErrors } from './http/client-errors.js';
import { listen } from './http/listen.js';
import { grantNewRights } from './rights-upgrade.js';
import { compact, keepDocsInLog, RETENTION_MS } from './engine/change-log.js';
import type { Chain } from './chain/index.js';
import { Announcement, lanAddress } from '../drivers/mdns.js';

const SHUTDOWN_GRACE_MS = 8000;

/**
 * The hub's database, or an error naming the file (CONTRACT §12: a failed start names its cause):
 * SQLite's own words ("file is not a database") do not say which file an operator should look at.
 */
function openOrName(dbFile: string): ReturnType<typeof openDb> {
  try {
    // groupSync: COMMIT does not sync on the event loop; everything a commit causes awaits the shared sync (db/durability.ts).
    return openDb(dbFile, { backgroundCheckpoints: true, groupSync: true });
  } catch (e) {
    throw new Error(`the database ${dbFile} cannot be opened: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

async function main(): Promise<void> {
  // Everything the hub creates in its data directory — the database, its WAL, backups, the admin
  // password — is readable by its own user only (CONTRACT §12 "Files").
  process.umask(0o077);
  const config = loadConfigOrExit();
  const log = createLogger(config.logLevel);
  const clock = systemClock;
  const started = Date.now();
  makeDataDir(config.dataDir, 'POS_HUB_DATA_DIR');
  const claimed = claim(config.dataDir);
  restrictToOwner(config.dataDir);
  const dbFile = join(config.dataDir, 'hub.sqlite');
  const db = openOrName(dbFile);
  // In a chain every change-log entry keeps its document until HQ has it (from the first write on).
  if (config.chain) keepDocsInLog(db);
  const fiscal = new FiscalRegistry({ store: dbDeviceStateStore(db), clock: () => clock.now(), hubId: hubId(db), timeZone: config.timeZone });
  const deps = { db, clock, log, config, drivers: { fiscal } };
  const services = buildServices(deps);
  const boot = await bootstrap({
    db,
    services: services.resources,
    dataDir: config.dataDir,
    adminPassword: config.adminPassword,
    timeZone: config.timeZone,
    now: clock.now(),
    log,
    language: config.locale,
  });
  const newRights = grantNewRights(db, clock);
  if (newRights.length) log.info({ rights: newRights }, 'new rights granted to the users who held every right');
  services.backups.discardPartials();
  // What starting wrote (the first admin, whose password is printed below; new rights) is on disk before anyone hears of it.
  await whenDurable(db);
  const app = createApp(deps, services);

  const server: Server = createServer(app);
  answerClientErrors(server);
  await listen(server, config.port, config.host, { port: 'POS_HUB_PORT', host: 'POS_HUB_HOST' });
  server.keepAliveTimeout = 5000;
  // A failed fsync: nothing more can be promised as saved. Stop at once (the answers waiting for that
  // sync have become 500s) and let the service manager restart the hub on what the disk holds.
  const durable = durableCommits(db);
  if (durable) {
    durable.onFailure = (err) => {
      log.fatal({ err }, 'the database could not be synced to disk; stopping so the hub restarts on what the disk holds');
      server.close();
      setTimeout(() => process.exit(70), 200).unref();
    };
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  // The manager opens the page from the back-office PC or a tablet: when the hub listens on every
  // address, the LAN address is the one to type on another machine.
  const lan = config.host === '0.0.0.0' || config.host === '::' ? lanAddress() : undefined;
  claimed.listening(`http://${shown}:${port}/`);
  const lines = [
    `POS Hub ${VERSION} listening on http://${config.host}:${port} (API http://${shown}:${port}/api, docs http://${shown}:${port}/api/docs)`,
    `Manager's page: http://${shown}:${port}/${lan ? ` (from another machine: http://${lan}:${port}/)` : ''}; kitchen displays: http://${shown}:${port}/kds/<endpoint name>`,
    `Data directory: ${config.dataDir} (started in ${Date.now() - started} ms)`,
  ];
  if (boot.created && boot.adminPassword) {
    lines.push(`First start: log in as user 'admin' with password '${boot.adminPassword}' on device 'BackOffice'.`);
    lines.push(`The password is also in ${boot.passwordFile} (readable only by this user); change it after logging in.`);
  } else if (boot.created) {
    lines.push(`First start: log in as user 'admin' (password from POS_HUB_ADMIN_PASSWORD) on device 'BackOffice'.`);
  } else {
    lines.push(`Log in: POST /api/auth {"userName", "password", "deviceName"}.`);
  }
  const id = hubId(db);
  let announcement: Announcement | undefined;
  if (config.mdns) {
    announcement = new Announcement({
      name: mdnsInstanceName(config.shopName, id),
      host: mdnsHostName(config.shopName, id),
      port,
      txt: { id, api: '/api', version: VERSION },
      interface: config.mdnsInterface,
      listenAddress: typeof address === 'object' && address ? address.address : undefined,
      onError: (err) => log.warn({ err: err.message }, 'mDNS announcement problem (the API keeps working)'),
    });
    announcement.start();
    lines.push(`Announced over mDNS as '${config.shopName} (${id})' (_poshub._tcp).`);
  }
  // The chain's code is loaded only when it is configured: a hub alone opens no outbound connection.
  let chain: Chain | undefined;
  if (config.chain) {
    const { startChain } = await import('./chain/index.js');
    const storeId = config.chain.storeId ?? id;
    chain = startChain({
      db,
      log,
      config: config.chain,
      storeId,
      resources: services.resources,
      deviceStatuses: () => deviceStatuses(db, (name) => services.printing.summary(name)),
      clock: () => clock.now(),
    });
    lines.push(`In a chain as store '${storeId}': publishing to HQ at ${config.chain.url}.`);
  }
  const compactLog = () => {
    try {
      compact(db, clock.now().getTime(), RETENTION_MS, chain?.heldByHq());
    } catch (err) {
      log.warn({ err }, 'change-log compaction failed');
    }
  };
  compactLog();
  const compaction = setInterval(compactLog, 6 * 3600_000);
  compaction.unref();
  services.backups.schedule(config.backupEveryMs);
  // Fiscal status now and every 30 s; receipts a stopped hub left pending are settled as each device answers.
  services.fiscalMonitor.start();
  services.mail.worker.start();
  // Kitchen printers: jobs a stopped hub left printing are marked for a REPRINT, then each printer's worker starts.
  services.printing.start();
  // Tickets a store closed before it kept running sales totals are counted once, in the background.
  void services.reports.backfill(log).catch((err: unknown) => log.error({ err }, 'counting the sales totals of earlier tickets failed'));
  const smtp = services.mail.settings.smtp();
  lines.push(
    smtp
      ? `E-mail receipts go out through ${smtp.host}:${smtp.port}.`
      : 'E-mail receipts wait in their outbox: no SMTP server is set (POS_HUB_SMTP_URL, or PUT /api/receipts/settings).',
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  log.info({ port, host: config.host, dataDir: config.dataDir, version: VERSION }, 'hub started');

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      log.warn('requests still in flight after the grace period; closing anyway');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    clearInterval(compaction);
    services.events.close();
    // Stops taking new sends at once; the one in flight may finish, so its outcome is committed.
    const mailStopped = services.mail.worker.stop();
    // Printers: no new jobs start; one in flight gets a few seconds to be confirmed.
    const printingStopped = services.printing.stop();
    const withdrawn = announcement?.stop() ?? Promise.resolve();
    const chainStopped = chain?.stop() ?? Promise.resolve();
    server.close(async () => {
      await withdrawn;
      await chainStopped;
      await services.backups.stop();
      await services.fiscalMonitor.stop();
      await mailStopped;
      await printingStopped;
      clearTimeout(force);
      void fiscal.closeAll();
      closeDb(db);
      claimed.release();
      log.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

// Any error before the hub serves ends the process with a non-zero status and the cause, so systemd
// (Restart=on-failure) tries again and the log says why.
main().catch((e: unknown) => {
  process.stderr.write(`POS Hub failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
