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

/** For the document: each list as declared (their handlers' dependencies do not matter there). */
export const ROUTES: ReadonlyArray<RouteSpec<never>> = [...authRoutes, ...kdsPairRoutes, ...kdsRoutes, ...ticketRoutes, ...fiscalDeviceRoutes, ...receiptRoutes] as ReadonlyArray<RouteSpec<never>>;
