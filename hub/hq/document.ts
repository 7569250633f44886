/**
 * HQ's OpenAPI 3.1 document (GET /hq/api/openapi.json), written from its route declarations
 * (routes.ts) as the hub's is from its own (hub/openapi.ts, hub/http/route-docs.ts): a route added
 * there shows up here, and a test fails when a mounted route is not in it.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { ERR, problemDetailsSchema, type ErrorSpec } from '../http/api-docs.js';
import { ErrorCode } from '../http/errors.js';
import type { RouteSpec } from '../http/route.js';
import { registerRoute } from '../http/route-docs.js';
import { VERSION } from '../core/version.js';
import { hqRoutes } from './routes.js';

/** What HQ's router answers before an operation sees a request: a body that is unreadable, too large or not JSON (http/body.ts). */
function beforeTheOperation(request: { method: string }): ErrorSpec[] {
  const method = request.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD') return [];
  return [ERR.validation('A body that is not JSON, nests deeper than 32 levels, or holds `__proto__`, a NUL or a lone surrogate.'), ERR.tooLarge(), ERR.mediaType()];
}

const OVERVIEW = `The API of POS Hub HQ: the head office of a chain of stores. It holds every store's tickets as
the stores publish them, reports across stores, and pushes catalog changes to them.

**Authentication.** \`POST /hq/api/auth {userName, password}\` answers a \`tokenId\`; send it as
\`Authorization: Bearer <tokenId>\`. Every endpoint needs it except health, login and this document.
Rights: ReportRead (stores, tickets, reports, dead letters), CatalogPush, UserManage; each operation
names the one it needs in \`x-rights\`.

**Lists** answer \`{items, count, totalCount}\` with \`$skip\`, \`$take\`, \`$sort\`, \`$count\` and NData filters, as on
the hub. **Errors** are \`application/problem+json\` with an \`errorCode\`, as on the hub.`;

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

export function buildHqOpenApi(routeSpecs: ReadonlyArray<RouteSpec<never>> = hqRoutes as ReadonlyArray<RouteSpec<never>>): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', description: 'The `tokenId` from POST /hq/api/auth.' });
  const problem = registry.register('ProblemDetails', problemDetailsSchema) as z.ZodObject;
  const paths = new Set<string>();
  for (const spec of routeSpecs) {
    // HQ has no Idempotency-Key and no per-address rate limit.
    registerRoute(registry, spec, problem, new Map(), { idempotent: false, rateLimited: false, before: beforeTheOperation });
    paths.add(spec.path);
  }
  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'POS Hub HQ API', version: VERSION, description: OVERVIEW },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Auth', description: 'Sessions: log in, log out, one\'s own password.' },
      { name: 'Users', description: "HQ's users and their rights (UserManage)." },
      { name: 'Stores and sales', description: 'Stores, their tickets, sales and dead letters (ReportRead).' },
      { name: 'Catalog', description: 'Catalog changes pushed to stores (CatalogPush).' },
      { name: 'System', description: 'Health and this document; no token needed.' },
    ],
  });
  // OpenAPI has no place for an operation that does not exist, so the 405 is told on the path item.
  for (const path of paths) {
    const item = doc.paths?.[path];
    if (item) item.description = `Methods not listed here answer 405 (errorCode ${ErrorCode.OperationForbidden}) with an \`Allow\` header.`;
  }
  return doc;
}

let serialized: string | undefined;

/** Built on first request and kept: the declarations cannot change while HQ runs. */
export function hqDocumentJson(): string {
  return (serialized ??= JSON.stringify(buildHqOpenApi()));
}
