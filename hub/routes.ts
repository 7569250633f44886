/**
 * Every route beyond the resources' CRUD, declared once beside its handler (hub/http/route.ts):
 * app.ts mounts them, openapi.ts documents them. Adding a route is adding it here.
 */
import type { RouteSpec } from './http/route.js';
import { ticketRoutes } from './resources/tickets/routes.js';
import { fiscalDeviceRoutes } from './resources/fiscaldevices/routes.js';
import { receiptRoutes } from './resources/receipts/routes.js';
import { authRoutes } from './resources/auth/routes.js';
import { kdsPairRoutes, kdsRoutes } from './kds/routes.js';
import { eventRoutes } from './events/routes.js';
import { orderStateRoutes } from './resources/orders/kitchen-state.js';
import { printingRoutes } from './printing/routes.js';
import { backupRoutes } from './backups/routes.js';
import { healthRoutes } from './health.js';
import { metricsRoutes } from './metrics.js';
import { docsRoutes } from './http/docs.js';
import { reportRoutes } from './reports/routes.js';
import { registerPairRoutes, registerRoutes } from './registers/routes.js';
import { shiftRoutes } from './resources/shifts/routes.js';
import { categoryRoutes } from './resources/categories/rename.js';
import { stockValueRoutes } from './resources/stocks/value.js';

/** For the document: each list as declared (their handlers' dependencies do not matter there). */
export const ROUTES: ReadonlyArray<RouteSpec<never>> = [
  ...authRoutes,
  ...kdsPairRoutes,
  ...kdsRoutes,
  ...registerPairRoutes,
  ...registerRoutes,
  ...eventRoutes,
  ...ticketRoutes,
  ...fiscalDeviceRoutes,
  ...receiptRoutes,
  ...orderStateRoutes,
  ...printingRoutes,
  ...backupRoutes,
  ...reportRoutes,
  ...shiftRoutes,
  ...categoryRoutes,
  ...stockValueRoutes,
  ...healthRoutes,
  ...docsRoutes,
  ...metricsRoutes,
] as ReadonlyArray<RouteSpec<never>>;
