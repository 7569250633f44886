/**
 * Every route beyond the resources' CRUD, declared once beside its handler (hub/http/route.ts), in
 * one list with what each module's handlers are made from: app.ts mounts them from here and
 * openapi.ts documents them from here. Adding a route is adding it to its module; adding a module
 * is one line here.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { AppDeps, Services } from './app.js';
import type { RouteSpec } from './http/route.js';
import { requireRight, type Caller } from './http/caller.js';
import { ticketRoutes } from './resources/tickets/routes.js';
import { fiscalDeviceRoutes } from './resources/fiscaldevices/routes.js';
import { receiptRoutes } from './mail/routes.js';
import { authRoutes } from './resources/auth/routes.js';
import { tokenFromHeader, type AuthService } from './resources/auth/service.js';
import { kdsPairRoutes, kdsRoutes } from './kds/routes.js';
import { eventRoutes } from './events/routes.js';
import { orderStateRoutes } from './resources/orders/kitchen-state.js';
import { printingRoutes } from './printing/routes.js';
import { backupRoutes } from './backups/routes.js';
import { healthRoutes } from './health.js';
import { metricsRoutes } from './metrics.js';
import { docsRoutes } from './http/docs.js';
import { reportRoutes } from './reports/routes.js';
import { recordFiscalReport } from './reports/fiscal-reports.js';
import { registerPairRoutes, registerRoutes } from './registers/routes.js';
import { shiftRoutes } from './resources/shifts/routes.js';
import { categoryRoutes } from './resources/categories/rename.js';
import { stockValueRoutes } from './resources/stocks/value.js';
import { serviceOf } from './engine/service.js';
import { orders } from './resources.js';

/** What the handlers of a module are made from: the app's dependencies and services, and the document. */
export interface MountContext {
  deps: AppDeps;
  services: Services;
  /** The OpenAPI document as served (hub/openapi.ts). */
  document: () => string;
}

/**
 * A module's routes and what its handlers need. `base`: the path they hang under (`''`: outside
 * /api, as /metrics). A module with a route that takes no token is mounted before the session
 * middleware (hub/app.ts), which then checks the token of its other routes itself.
 */
export interface Mounted<D = never> {
  routes: Array<RouteSpec<D>>;
  deps: (c: MountContext) => D;
  base?: string;
}

const mounted = <D>(routes: Array<RouteSpec<D>>, deps: (c: MountContext) => D, base?: string): Mounted => ({ routes, deps, base }) as unknown as Mounted;

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
  // Compared as digests: equal lengths whatever was sent (a header's non-ASCII character is more bytes
  // than characters, and timingSafeEqual throws on buffers of unequal length), and no length told by timing.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  if (metricsToken && token && timingSafeEqual(digest(token), digest(metricsToken))) return;
  requireRight(auth.authenticate(token), 'Metrics');
}

/** In the document's order. */
export const MOUNTS: readonly Mounted[] = [
  mounted(authRoutes, ({ services }) => ({ auth: services.auth })),
  mounted(kdsPairRoutes, ({ services }) => ({ kds: services.kds })),
  mounted(kdsRoutes, ({ services }) => ({ kds: services.kds })),
  mounted(registerPairRoutes, ({ services }) => ({ registers: services.registers })),
  mounted(registerRoutes, ({ services }) => ({ registers: services.registers })),
  mounted(eventRoutes, ({ services }) => ({ events: services.events })),
  mounted(ticketRoutes, ({ services }) => ({ actions: services.ticketActions, closer: services.ticketCloser, returns: services.ticketReturns })),
  mounted(fiscalDeviceRoutes, ({ deps, services }) => ({
    fiscal: services.fiscal,
    settlePending: (name, device) => services.ticketCloser.settlePending(name, device),
    recordReport: (caller, name, report) => recordFiscalReport(deps.db, deps.clock.now(), caller, name, report),
  })),
  mounted(receiptRoutes, ({ services }) => ({ emails: services.mail.receipts, settings: services.mail.settings })),
  mounted(orderStateRoutes, ({ services }) => ({ orders: serviceOf(services.resources, orders) })),
  mounted(printingRoutes, ({ services }) => ({ printing: services.printing, orders: services.resources.orders })),
  mounted(backupRoutes, ({ services }) => ({ backups: services.backups })),
  mounted(reportRoutes, ({ deps, services }) => ({
    reports: services.reports,
    shopLanguage: deps.config.locale ?? 'en',
    present: (resource, row, caller) => services.resources[resource].present(row, caller),
  })),
  mounted(shiftRoutes, ({ services }) => ({ shifts: services.shifts })),
  mounted(categoryRoutes, ({ services }) => ({ categories: services.resources.categories, plus: services.resources.plus, orderEndpoints: services.resources.orderendpoints })),
  mounted(stockValueRoutes, ({ services }) => ({ ctx: services.resources.stocks.ctx })),
  mounted(healthRoutes, ({ deps, services }) => ({
    db: deps.db,
    clock: deps.clock,
    startedAt: deps.clock.now().getTime(),
    printerStatus: (name: string) => services.printing.summary(name),
    deviceContacts: () => services.auth.deviceContacts(),
    callerOf: (req: Request) => optionalCaller(services.auth, req.headers.authorization),
  })),
  mounted(docsRoutes, ({ document }) => ({ document })),
  mounted(
    metricsRoutes,
    ({ deps, services }) => ({ metrics: services.metrics, db: deps.db, authorize: (req: Request) => metricsReader(services.auth, deps.config.metricsToken, req.headers.authorization) }),
    '',
  ),
];

/** For the document: every declaration, in the list's order. */
export const ROUTES: ReadonlyArray<RouteSpec<never>> = MOUNTS.flatMap((m) => m.routes);
