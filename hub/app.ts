/**
 * createApp(deps) → the express app. It never listens: main.ts does, and tests call it with a
 * temp database and a fake clock.
 */
import express, { type Express } from 'express';
import type { Db } from '../db/client.js';
import type { Clock } from './core/clock.js';
import type { Config } from './core/config.js';
import { healthRoutes } from './health.js';
import { readJsonBody } from './http/body.js';
import { rejectBrokenQueryText } from './http/text.js';
import { errors } from './http/errors.js';
import { idempotency } from './http/idempotency.js';
import { eventRoutes, eventStreams, type EventStreams } from './events/routes.js';
import { problemHandler, requestId, requestLog } from './http/problem.js';
import { answersWhenDurable } from './http/durable.js';
import type { Logger } from './core/log.js';
import { documentJson } from './openapi.js';
import { docsAssets, docsRoutes } from './http/docs.js';
import { kdsPage, webPage } from './http/pages.js';
import { authRoutes, requireSession } from './resources/auth/routes.js';
import { AuthService, tokenFromHeader } from './resources/auth/service.js';
import { hasRight, requireRight, type Caller } from './http/caller.js';
import { timingSafeEqual } from 'node:crypto';
import type { EngineContext } from './resources/engine/define.js';
import { resourceRouter } from './resources/engine/routes.js';
import { ResourceService } from './resources/engine/service.js';
import { useCollation } from './resources/engine/repo.js';
import { RESOURCES } from './resources/index.js';
import { TicketActions } from './resources/tickets/actions.js';
import { TicketReturns } from './resources/tickets/returns.js';
import { TicketCloser } from './resources/tickets/close.js';
import { FiscalDevices } from './resources/fiscaldevices/devices.js';
import { ticketRoutes } from './resources/tickets/routes.js';
import { mount, sharedMethods } from './http/route.js';
import { ROUTES } from './routes.js';
import { FiscalMonitor } from './resources/fiscaldevices/monitor.js';
import { fiscalDeviceRoutes } from './resources/fiscaldevices/routes.js';
import { orderStateRoutes } from './resources/orders/kitchen-state.js';
import type { FiscalRegistry } from '../drivers/fiscal/registry.js';
import { join } from 'node:path';
import { BackupService } from './backups/service.js';
import { backupRoutes } from './backups/routes.js';
import { rateLimit } from './http/rate-limit.js';
import { Metrics, metricsRoutes } from './metrics.js';
import { printingRoutes } from './printing/routes.js';
import { PrintService, type PrintingOptions } from './printing/service.js';
import { buildMail, type MailConfig, type MailServices } from './mail/index.js';
import { SegmentRouter, under } from './http/segments.js';
import { receiptRoutes } from './resources/receipts/routes.js';
import { receiptEmails } from './resources/receipts/resource.js';
import { KdsService } from './kds/service.js';
import { kdsPairRoutes, kdsRoutes } from './kds/routes.js';
import { Reports } from './reports/service.js';
import { reportRoutes } from './reports/routes.js';

export interface AppDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  config: Pick<Config, 'timeZone' | 'tokenTtlMs' | 'dataDir'> & Partial<Pick<Config, 'rateLimit' | 'backupKeep' | 'metricsToken' | 'locale'>> & MailConfig;
  /** `printing`: driver timeouts and backoffs for the print queue (tests pass short ones). */
  drivers: { fiscal: FiscalRegistry; printing?: PrintingOptions };
}

export interface Services {
  resources: Record<string, ResourceService>;
  auth: AuthService;
  ticketActions: TicketActions;
  ticketCloser: TicketCloser;
  ticketReturns: TicketReturns;
  /** Every call to a fiscal device: lookup, one at a time per device, timeouts, faults as 503. */
  fiscal: FiscalDevices;
  events: EventStreams;
  backups: BackupService;
  metrics: Metrics;
  printing: PrintService;
  mail: MailServices;
  fiscalMonitor: FiscalMonitor;
  kds: KdsService;
  reports: Reports;
}

export function buildServices(deps: AppDeps): Services {
  const ctx: EngineContext = { db: deps.db, clock: deps.clock, timeZone: deps.config.timeZone, busy: new Set() };
  // Names sort in the shop's language (stored sort keys and the SQL function sortkey()).
  useCollation(deps.db, deps.config.locale ?? 'en');
  const resources = Object.fromEntries(RESOURCES.map((def) => [def.name, new ResourceService(def, ctx)]));
  const mail = buildMail({ db: deps.db, clock: deps.clock, log: deps.log, timeZone: deps.config.timeZone, language: deps.config.locale, config: deps.config, emails: resources[receiptEmails.name] });
  const auth = new AuthService(ctx, deps.config.tokenTtlMs);
  const fiscal = new FiscalDevices(deps.db, deps.drivers.fiscal);
  const services: Omit<Services, 'fiscalMonitor' | 'kds'> = {
    reports: new Reports(deps.db, deps.config.timeZone),
    resources,
    auth,
    ticketActions: new TicketActions(ctx, resources.tickets),
    ticketReturns: new TicketReturns(ctx, resources.tickets, deps.config.locale ?? 'en'),
    ticketCloser: new TicketCloser(ctx, resources.tickets, fiscal, deps.log, mail.receipts),
    fiscal,
    events: eventStreams(
      deps.db,
      (tokenHash) => auth.isLive(tokenHash),
      // Change-log entries of a resource the caller reads nothing of, without its right, are not theirs to see.
      (caller) => RESOURCES.filter((def) => def.read && !def.read.scope && !hasRight(caller, def.read.right)).map((def) => def.name),
    ),
    backups: new BackupService(deps, join(deps.config.dataDir, 'backups'), deps.config.backupKeep ?? 14),
    metrics: new Metrics(),
    printing: new PrintService({ db: deps.db, clock: deps.clock, log: deps.log, timeZone: deps.config.timeZone, language: deps.config.locale }, deps.drivers.printing),
    mail,
  };
  const monitor = new FiscalMonitor({
    db: deps.db,
    log: deps.log,
    fiscal: deps.drivers.fiscal,
    devices: fiscal,
    // The poll also settles receipts left pending on a device that answers again.
    settle: (name) => fiscal.run(name, (device) => services.ticketCloser.settlePending(name, device)),
  });
  return { ...services, fiscalMonitor: monitor, kds: new KdsService(ctx, services.auth, resources) };
}

/** The caller of a request that may come without a token (health): undefined when it has none or a dead one. */
function optionalCaller(auth: AuthService, header: string | undefined): Caller | undefined {
  const token = tokenFromHeader(header);
  if (!token) return undefined;
  try {
    return auth.authenticate(token);
  } catch {
    return undefined;
  }
}

/**
 * /metrics (CONTRACT §9): the bearer POS_HUB_METRICS_TOKEN (a monitoring system), or a user's token
 * holding Metrics. Numbers about the shop are not for anyone on the LAN.
 */
function metricsReader(auth: AuthService, metricsToken: string | undefined, header: string | undefined): void {
  const token = tokenFromHeader(header);
  if (metricsToken && token && token.length === metricsToken.length && timingSafeEqual(Buffer.from(token), Buffer.from(metricsToken))) return;
  requireRight(auth.authenticate(token), 'Metrics');
}

export function createApp(deps: AppDeps, services: Services = buildServices(deps)): Express {
  const app = express();
  // Error details are said in the caller's language, else the shop's (http/problem.ts).
  app.locals.shopLanguage = deps.config.locale ?? 'en';
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', false);
  app.locals.services = services;

  app.use(requestId);
  // Outermost after the request id: no answer leaves before the changes it may show are on disk.
  app.use(answersWhenDurable(deps.db));
  app.use(requestLog(deps.log));
  app.use(services.metrics.middleware());
  const limit = deps.config.rateLimit ?? 0;
  app.use(rateLimit({ perSecond: limit, burst: limit * 5, clock: deps.clock }));
  app.use(
    under(
      ['metrics'],
      mount(metricsRoutes, { metrics: services.metrics, db: deps.db, authorize: (req) => metricsReader(services.auth, deps.config.metricsToken, req.headers.authorization) }, ''),
    ),
  );

  const api = express.Router();
  api.use(rejectBrokenQueryText);
  api.use(readJsonBody);
  // The routers before the session check and those after it, each set one layer that sends a
  // request to its own segment's routers only (http/segments.ts SegmentRouter).
  const open = new SegmentRouter()
    .add(
      ['health'],
      mount(healthRoutes, {
        db: deps.db,
        clock: deps.clock,
        startedAt: deps.clock.now().getTime(),
        printerStatus: (name) => services.printing.summary(name),
        deviceContacts: () => services.auth.deviceContacts(),
        callerOf: (req) => optionalCaller(services.auth, req.headers.authorization),
      }),
    )
    .add(['openapi.json', 'docs'], mount(docsRoutes, { document: () => documentJson() }))
    .add(['docs'], docsAssets())
    .add(['auth'], mount(authRoutes, { auth: services.auth }))
    .add(['kds'], mount(kdsPairRoutes, { kds: services.kds }));
  api.use(open.handler());
  api.use(requireSession(services.auth));
  api.use(idempotency({ db: deps.db, clock: deps.clock }));
  // A write may have queued print jobs (outbox): wake the printers once it has committed.
  api.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') res.on('finish', () => services.printing.kick(/^\/api\/orderendpoints\b/i.test(req.originalUrl)));
    next();
  });
  const signedIn = new SegmentRouter()
    .add(['events', 'changes'], mount(eventRoutes, { events: services.events }))
    .add(['orderendpoints', 'orders'], mount(printingRoutes, { printing: services.printing, orders: services.resources.orders }))
    .add(['backups'], mount(backupRoutes, { backups: services.backups }))
    .add(['tickets'], mount(ticketRoutes, { actions: services.ticketActions, closer: services.ticketCloser, returns: services.ticketReturns }))
    .add(['fiscaldevices'], mount(fiscalDeviceRoutes, { fiscal: services.fiscal, settlePending: (name, device) => services.ticketCloser.settlePending(name, device) }))
    .add(['receipts'], mount(receiptRoutes, { emails: services.mail.receipts, settings: services.mail.settings }))
    .add(['orders'], mount(orderStateRoutes, { orders: services.resources.orders }))
    .add(['kds'], mount(kdsRoutes, { kds: services.kds }))
    .add(['reports'], mount(reportRoutes, { reports: services.reports, shopLanguage: deps.config.locale ?? 'en' }));
  for (const service of Object.values(services.resources)) signedIn.add([service.def.name], resourceRouter(service, (path) => sharedMethods(ROUTES, path)));
  api.use(signedIn.handler());
  api.use((req) => {
    throw errors.routeNotFound(req.originalUrl.split('?')[0]);
  });
  app.use('/api', api);

  // The pages (hub/http/pages.ts: the kitchen display, the manager's page at /), after the API so they never shadow an /api path.
  app.use(kdsPage(deps.config.locale));
  app.use(webPage(deps.config.locale));
  app.use((req) => {
    throw errors.routeNotFound(req.originalUrl.split('?')[0]);
  });
  app.use(problemHandler(deps.log));
  return app;
}
