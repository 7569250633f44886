/**
 * createApp(deps) → the express app. It never listens: main.ts does, and tests call it with a
 * temp database and a fake clock.
 */
import express, { type Express } from 'express';
import type { Db } from '../db/client.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import { healthRouter } from './health.js';
import { readJsonBody } from './http/body.js';
import { errors } from './http/errors.js';
import { idempotency } from './http/idempotency.js';
import { eventStreams } from './events/routes.js';
import { problemHandler, requestId, requestLog } from './http/problem.js';
import type { Logger } from './log.js';
import { openApiRouter } from './openapi.js';
import { authRouter, requireSession } from './resources/auth/routes.js';
import { AuthService } from './resources/auth/service.js';
import type { EngineContext } from './resources/engine/define.js';
import { resourceRouter } from './resources/engine/routes.js';
import { ResourceService } from './resources/engine/service.js';
import { RESOURCES } from './resources/index.js';
import { TicketActions } from './resources/tickets/actions.js';
import { DEVICE_TIMEOUT_MS, TicketCloser } from './resources/tickets/close.js';
import { ticketRouter } from './resources/tickets/routes.js';
import { orderStateRouter } from './resources/orders/kitchen-state.js';
import type { FiscalRegistry } from '../drivers/fiscal/registry.js';
import { join } from 'node:path';
import { BackupService } from './backups/service.js';
import { backupRouter } from './backups/routes.js';
import { rateLimit } from './http/rate-limit.js';
import { Metrics } from './metrics.js';
import { buildMail, type MailConfig, type MailServices } from './mail/index.js';
import { receiptRouter } from './resources/receipts/routes.js';
import { receiptEmails } from './resources/receipts/resource.js';

export interface AppDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  config: Pick<Config, 'timeZone' | 'tokenTtlMs' | 'dataDir'> & Partial<Pick<Config, 'rateLimit' | 'backupKeep'>> & MailConfig;
  drivers: { fiscal: FiscalRegistry };
}

export interface Services {
  resources: Record<string, ResourceService>;
  auth: AuthService;
  ticketActions: TicketActions;
  ticketCloser: TicketCloser;
  events: ReturnType<typeof eventStreams>;
  backups: BackupService;
  metrics: Metrics;
  mail: MailServices;
}

export function buildServices(deps: AppDeps): Services {
  const ctx: EngineContext = { db: deps.db, clock: deps.clock, timeZone: deps.config.timeZone, busy: new Set() };
  const resources = Object.fromEntries(RESOURCES.map((def) => [def.name, new ResourceService(def, ctx)]));
  const mail = buildMail({ db: deps.db, clock: deps.clock, log: deps.log, timeZone: deps.config.timeZone, config: deps.config, emails: resources[receiptEmails.name] });
  return {
    resources,
    auth: new AuthService(ctx, deps.config.tokenTtlMs),
    ticketActions: new TicketActions(ctx, resources.tickets),
    ticketCloser: new TicketCloser(ctx, resources.tickets, deps.drivers.fiscal, deps.log, DEVICE_TIMEOUT_MS, mail.receipts),
    events: eventStreams(deps.db),
    backups: new BackupService(deps, join(deps.config.dataDir, 'backups'), deps.config.backupKeep ?? 14),
    metrics: new Metrics(),
    mail,
  };
}

export function createApp(deps: AppDeps, services: Services = buildServices(deps)): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', false);
  app.locals.services = services;

  app.use(requestId);
  app.use(requestLog(deps.log));
  app.use(services.metrics.middleware());
  const limit = deps.config.rateLimit ?? 0;
  app.use(rateLimit({ perSecond: limit, burst: limit * 5, clock: deps.clock }));
  app.use(services.metrics.router(deps.db));

  const api = express.Router();
  api.use(readJsonBody);
  api.use(healthRouter({ db: deps.db, clock: deps.clock, startedAt: deps.clock.now().getTime() }));
  api.use(openApiRouter());
  api.use(authRouter(services.auth));
  api.use(requireSession(services.auth));
  api.use(idempotency({ db: deps.db, clock: deps.clock }));
  api.use(services.events.router);
  api.use(backupRouter(services.backups));
  api.use(ticketRouter(services.ticketActions, services.ticketCloser));
  api.use(receiptRouter(services.mail.receipts, services.mail.settings));
  api.use(orderStateRouter(services.resources.orders));
  for (const service of Object.values(services.resources)) api.use(resourceRouter(service));
  api.use((req) => {
    throw errors.routeNotFound(req.originalUrl.split('?')[0]);
  });
  app.use('/api', api);

  app.get('/', (_req, res) => {
    res.type('html').send('<!doctype html><title>POS Hub</title><h1>POS Hub</h1><p>The API is at <a href="/api/docs">/api/docs</a>.</p>');
  });
  app.use((req) => {
    throw errors.routeNotFound(req.originalUrl.split('?')[0]);
  });
  app.use(problemHandler(deps.log));
  return app;
}
