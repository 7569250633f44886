/**
 * createApp(deps) → the express app. It never listens: main.ts does, and tests call it with a
 * temp database and a fake clock.
 */
import express, { type Express } from 'express';
import type { Db } from '../db/client.js';
import type { Clock } from './core/clock.js';
import type { Config } from './core/config.js';
import { eventStreams, type EventStreams } from './events/routes.js';
import { docsAssets } from './http/docs.js';
import { requireSession } from './resources/auth/routes.js';
import { AuthService } from './resources/auth/service.js';
import { hasRight } from './http/caller.js';
import { displayEndpointOf } from './engine/visibility.js';
import { mount, sharedMethods } from './http/route.js';
import { MOUNTS, ROUTES, type MountContext } from './routes.js';
import { Metrics } from './metrics.js';
import { readJsonBody } from './http/body.js';
import { rejectBrokenPathText, rejectBrokenQueryText } from './http/text.js';
import { errors } from './http/errors.js';
import { idempotency } from './http/idempotency.js';
import { problemHandler, requestId, requestLog } from './http/problem.js';
import { answersWhenDurable } from './http/durable.js';
import { noStore } from './http/no-store.js';
import type { Logger } from './core/log.js';
import { documentJson } from './openapi.js';
import { kdsPage, posPage, securityHeaders, webPage } from './http/pages.js';
import type { EngineContext } from './engine/define.js';
import { resourceRouter } from './engine/routes.js';
import { ResourceService, serviceOf } from './engine/service.js';
import { useCollation } from './engine/repo.js';
import { cashCounts, devices, RESOURCES, shifts, tickets } from './resources.js';
import { TicketActions } from './resources/tickets/actions.js';
import { TicketReturns } from './resources/tickets/returns.js';
import { TicketCloser } from './resources/tickets/close.js';
import { FiscalDevices } from './resources/fiscaldevices/devices.js';
import { FiscalMonitor } from './resources/fiscaldevices/monitor.js';
import { fiscalDeviceConfig } from './resources/fiscaldevices/store.js';
import type { FiscalRegistry } from '../drivers/fiscal/registry.js';
import { join } from 'node:path';
import { BackupService } from './backups/service.js';
import { fingerprintKey } from './backups/seal.js';
import { rateLimit } from './http/rate-limit.js';
import { PrintService, type PrintingOptions } from './printing/service.js';
import { buildMail, type MailConfig, type MailServices } from './mail/index.js';
import { SegmentRouter } from './http/segments.js';
import { receiptEmails } from './mail/resource.js';
import { KdsService } from './kds/service.js';
import { Reports } from './reports/service.js';
import { RegistersService } from './registers/service.js';
import { ShiftActions } from './resources/shifts/service.js';
import { kitchenOrders } from './resources/orders/prints.js';

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
  registers: RegistersService;
  shifts: ShiftActions;
}

export function buildServices(deps: AppDeps): Services {
  const ctx: EngineContext = { db: deps.db, clock: deps.clock, timeZone: deps.config.timeZone, busy: new Set() };
  // Names sort in the shop's language (stored sort keys and the SQL function sortkey()).
  useCollation(deps.db, deps.config.locale ?? 'en');
  const resources = Object.fromEntries(RESOURCES.map((def) => [def.name, new ResourceService(def, ctx)]));
  const mail = buildMail({ db: deps.db, clock: deps.clock, log: deps.log, timeZone: deps.config.timeZone, language: deps.config.locale, config: deps.config, emails: resources[receiptEmails.name] });
  const auth = new AuthService(ctx, deps.config.tokenTtlMs, resources.users);
  const fiscal = new FiscalDevices(deps.db, deps.drivers.fiscal);
  const services: Omit<Services, 'fiscalMonitor' | 'kds' | 'registers'> = {
    reports: new Reports(deps.db, deps.config.timeZone, (name) => fiscalDeviceConfig(deps.db, name) !== undefined),
    shifts: new ShiftActions(ctx, serviceOf(resources, shifts), serviceOf(resources, cashCounts)),
    resources,
    auth,
    ticketActions: new TicketActions(ctx, serviceOf(resources, tickets)),
    ticketReturns: new TicketReturns(ctx, serviceOf(resources, tickets), deps.config.locale ?? 'en'),
    ticketCloser: new TicketCloser(ctx, serviceOf(resources, tickets), fiscal, deps.log, mail.receipts),
    fiscal,
    events: eventStreams(
      deps.db,
      (tokenHash) => auth.liveCaller(tokenHash),
      // Change-log entries of a resource the caller reads nothing of, without its right, are not theirs
      // to see; nor, for a kitchen display's session, which reads no ticket, the tickets' (visibility.ts).
      (caller) => [
        ...RESOURCES.filter((def) => def.read && !def.read.scope && !hasRight(caller, def.read.right)).map((def) => def.name),
        ...(displayEndpointOf(caller) !== undefined ? [tickets.name] : []),
      ],
    ),
    backups: new BackupService(deps, join(deps.config.dataDir, 'backups'), deps.config.backupKeep ?? 14, deps.config.dataDir),
    metrics: new Metrics(),
    printing: new PrintService({ db: deps.db, clock: deps.clock, log: deps.log, timeZone: deps.config.timeZone, language: deps.config.locale, orders: kitchenOrders }, deps.drivers.printing),
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
  return { ...services, fiscalMonitor: monitor, kds: new KdsService(ctx, services.auth, resources, deps.config.locale ?? 'en'), registers: new RegistersService(ctx, serviceOf(resources, devices)) };
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
  // The Date header on the injected clock, the one every stored time is on: a register and a kitchen
  // display set their own clocks by it (tablet-client.ts hubNow), so their "today" and "minutes ago"
  // are the hub's. Node's own header reads the machine's clock, which only the system clock equals.
  app.use((_req, res, next) => {
    res.setHeader('Date', deps.clock.now().toUTCString());
    next();
  });
  // CSP and nosniff on every answer, pages and API alike (CONTRACT §12 "Pages").
  app.use(securityHeaders);
  // Outermost after the request id: no answer leaves before the changes it may show are on disk.
  app.use(answersWhenDurable(deps.db));
  app.use(requestLog(deps.log));
  app.use(services.metrics.middleware());
  const limit = deps.config.rateLimit ?? 0;
  app.use(rateLimit({ perSecond: limit, burst: limit * 5, clock: deps.clock }));
  // The declared routes (hub/routes.ts): outside /api first; then those that take no token, before the
  // session middleware; the rest behind it.
  const ctx: MountContext = { deps, services, document: () => documentJson() };
  const mountOf = (m: (typeof MOUNTS)[number], opts: Parameters<typeof mount>[2] = {}) => mount(m.routes, m.deps(ctx), { base: m.base, ...opts });
  const open = (m: (typeof MOUNTS)[number]) => m.routes.some((r) => r.noToken);
  /** The first segments under /api of a module's routes (`/api/tickets/{id}/close` → `tickets`). */
  const segmentsOf = (m: (typeof MOUNTS)[number]) => [...new Set(m.routes.map((r) => r.path.replace(/^\/api\//, '').split('/')[0]))];
  for (const m of MOUNTS.filter((m) => m.base === '')) app.use(mountOf(m));

  const api = express.Router();
  api.use(noStore);
  api.use(rejectBrokenQueryText);
  let templates: string[] | undefined;
  api.use(rejectBrokenPathText(() => (templates ??= Object.keys((JSON.parse(documentJson()) as { paths: object }).paths))));
  api.use(readJsonBody);
  // The routers before the session check and those after it, each set one layer that sends a
  // request to its own segment's routers only (http/segments.ts SegmentRouter).
  const session = requireSession(services.auth);
  const beforeSession = new SegmentRouter();
  for (const m of MOUNTS.filter((m) => m.base === undefined && open(m))) beforeSession.add(segmentsOf(m), mountOf(m, { authenticate: (req, res) => void session(req, res, () => undefined) }));
  beforeSession.add(['docs'], docsAssets());
  api.use(beforeSession.handler());
  api.use(session);
  api.use(idempotency({ db: deps.db, clock: deps.clock, fingerprintKey: fingerprintKey(deps.config.dataDir) }));
  // A write may have queued print jobs (outbox): wake the printers once it has committed.
  api.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') res.on('finish', () => services.printing.kick(/^\/api\/orderendpoints\b/i.test(req.originalUrl)));
    next();
  });
  const signedIn = new SegmentRouter();
  for (const m of MOUNTS.filter((m) => m.base === undefined && !open(m))) signedIn.add(segmentsOf(m), mountOf(m));
  for (const service of Object.values(services.resources)) signedIn.add([service.def.name], resourceRouter(service, (path) => sharedMethods(ROUTES, path)));
  api.use(signedIn.handler());
  api.use((req) => {
    throw errors.routeNotFound(req.originalUrl.split('?')[0]);
  });
  app.use('/api', api);

  // The pages (hub/http/pages.ts: the kitchen display, the register at /pos/, the manager's page at /), after the API so they never shadow an /api path.
  // A NUL, a lone surrogate or undecodable bytes in a page's path or query: 400, as in the API (CONTRACT §12 "Text").
  app.use(rejectBrokenQueryText, rejectBrokenPathText(() => []));
  app.use(kdsPage(deps.config.locale));
  app.use(posPage(deps.config.locale));
  app.use(webPage(deps.config.locale));
  app.use((req) => {
    throw errors.routeNotFound(req.originalUrl.split('?')[0]);
  });
  app.use(problemHandler(deps.log));
  return app;
}
