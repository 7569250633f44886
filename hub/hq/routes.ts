/**
 * HQ's API under /hq/api (CONTRACT §13), declared as the hub's routes are (hub/http/route.ts): each
 * with its parameters, body, answers, errors and rights beside its handler. api.ts mounts them,
 * document.ts writes HQ's own document from them (GET /hq/api/openapi.json). The rights a route
 * declares are the ones HQ checks (api.ts `hqSession`), before its input is read.
 */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { bodyErrors, ERR, queryResult } from '../http/api-docs.js';
import { catalogIssue, errors } from '../http/errors.js';
import { named, routes } from '../http/route.js';
import { pageInMemory } from '../http/list-params.js';
import { parseIsoDateTime } from '../core/time.js';
import { VERSION } from '../core/version.js';
import type { Pool } from './db.js';
import { DEAD_LETTERS, listDeadLetters, listSpec, listStores, listTickets, salesReport, storesList, TICKETS } from './lists.js';
import { createSession, deleteSession, deleteUser, findUser, listUsers, pushCatalog, putUser, setOwnPassword } from './repo.js';
import { CATALOG_RESOURCES, STORE_ID, type CatalogResource } from './protocol.js';
// Pure scrypt helpers (node:crypto only), shared rather than written twice.
import { hashPassword, verifyPassword } from '../core/passwords.js';
import type { LoginThrottle } from '../http/throttle.js';
import type { HashGate } from '../http/hash-gate.js';
import { idKey, MAX_INT32, MAX_STRING, nameKey } from '../engine/fields.js';
import { parseOr400 } from '../http/validate.js';

const SESSION_MS = 12 * 3600_000;

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * HQ's rights (CONTRACT §13, issue 30): `ReportRead` reads stores, tickets, reports and dead
 * letters; `CatalogPush` pushes catalog changes to stores; `UserManage` manages HQ's users. The
 * first admin holds all three; a read-only reports user holds ReportRead alone.
 */
export const HQ_RIGHTS = ['ReportRead', 'CatalogPush', 'UserManage'] as const;
export type HqRight = (typeof HQ_RIGHTS)[number];
/** The right that manages users: its last holder cannot lose it (no HQ without a way in). */
const KEEPER: HqRight = 'UserManage';
/** A new password: long enough to resist guessing at the login's throttled pace. */
const MIN_PASSWORD = 10;

const USER_NAME = /^[A-Za-z0-9._@-]{1,64}$/;
const userBody = z.object({
  password: z.string().min(MIN_PASSWORD).max(MAX_STRING).optional(),
  rights: z.array(z.enum(HQ_RIGHTS)).max(HQ_RIGHTS.length * 2),
});
const passwordBody = z.object({ currentPassword: z.string().min(1).max(MAX_STRING), newPassword: z.string().min(MIN_PASSWORD).max(MAX_STRING) });
const loginBody = z.object({ userName: z.string().min(1).max(MAX_STRING), password: z.string().min(1).max(MAX_STRING) });
const catalogBody = z.object({
  doc: z.record(z.string(), z.unknown()).optional().meta({ description: 'The document as the store\'s own API takes it (PUT); left out for DELETE.' }),
  stores: z.array(z.string()).min(1).max(10_000).meta({ description: 'Store ids, or `["*"]` for every known store.' }),
});

export interface HqState {
  /** What the health check shows of this process. */
  health(): Record<string, unknown>;
  /** PostgreSQL answers (a 503 from the health check when it does not). */
  databaseOk(): Promise<boolean>;
  /** A catalog push committed: relay it now. */
  catalogPushed(): void;
}

/** What HQ's handlers are made from. */
export interface HqDeps {
  pool: Pool;
  timeZone: string;
  offlineAfterMs: number;
  state: HqState;
  /** The hub's login rules (CONTRACT §11, §12): attempts counted before the hash, hashing bounded per address. */
  throttle: LoginThrottle;
  hashing: HashGate;
  /** HQ's OpenAPI document (document.ts). */
  document: () => string;
}

/** HQ's session, as api.ts `hqSession` attaches it. */
interface HqLocals {
  userName: string;
  rights: string[];
  tokenHash: string;
}
const session = (locals: Record<string, unknown>) => locals as unknown as HqLocals;

/** A plu's code, as the store's API takes it (CONTRACT §3: a register numbers its plus itself). */
const pluCode = z.coerce.number().int().min(0).max(MAX_INT32);
/** A payment type's number, as the store's API takes it. */
const paymentTypeNumber = z.coerce.number().int().min(1).max(MAX_INT32);

/**
 * The key of a catalog push, checked by the rules the store's own API keys the resource with, and
 * the document's own key against it (CONTRACT §2: a key in the body that differs from the path is a
 * 400): a push the store could only refuse is refused here, where the one who sent it sees why.
 */
function catalogKey(resource: CatalogResource, raw: string, doc: Record<string, unknown> | undefined): string {
  const same = (field: string, expected: string | number) => {
    const given = doc?.[field];
    if (given === undefined || given === null) return;
    // `"1"` for code 1 is a wrong type (as the store's API says it), not another key.
    parseOr400(typeof expected === 'number' ? z.number() : z.string(), given, ['doc', field]);
    if (given !== expected) throw errors.member(`doc.${field}`, 'resource.keyDiffers', { field, given: String(given).slice(0, 100), path: expected });
  };
  if (resource === 'plus') {
    const m = /^(.+)\/(\d{1,10})$/.exec(raw);
    if (!m) throw errors.member('key', 'hq.pluKey', { value: raw.slice(0, 100) });
    const stockName = parseOr400(nameKey(), m[1], ['key']);
    const code = parseOr400(pluCode, m[2], ['key']);
    same('stockName', stockName);
    same('code', code);
  } else if (resource === 'paymenttypes') {
    if (!/^[1-9]\d{0,9}$/.test(raw)) throw errors.member('key', 'hq.paymentTypeKey', { value: raw.slice(0, 100) });
    same('number', parseOr400(paymentTypeNumber, raw, ['key']));
  } else if (resource === 'modifiers') {
    same('id', parseOr400(idKey(), raw, ['key']));
  } else {
    same('name', parseOr400(nameKey(), raw, ['key']));
  }
  return raw;
}

/** An ISO 8601 date-time; one without an offset is read in HQ's time zone by the handler. */
const dateTime = (description: string, example: string) =>
  z
    .string()
    .superRefine((text, ctx) => {
      if (!parseIsoDateTime(text, 'UTC')) catalogIssue(ctx, 'query.notDateTime', { value: text });
    })
    .openapi({ param: { description, example } });


const health = named(
  'HqHealth',
  z.object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    db: z.enum(['ok', 'error']),
    nats: z.enum(['connected', 'closed']).optional(),
    ingest: z.object({ batches: z.number().int(), events: z.number().int(), duplicates: z.number().int(), rejected: z.number().int() }).optional(),
    uptimeS: z.number().int().optional(),
  }),
);
const hqUser = named('HqUser', z.object({ userName: z.string(), rights: z.array(z.enum(HQ_RIGHTS)) }));
/** HQ's zone beside a session: HQ's page counts its days (the sales "by day", the last 7 days) in it, as the report does. */
const hqTimeZone = z.string().meta({
  description: "HQ's time zone (POS_HQ_TIMEZONE, an IANA name): the days of its sales report. HQ's page reckons its days and shows its times in it, wherever the browser is.",
  example: 'Europe/Bratislava',
});
const store = named(
  'HqStore',
  z.object({
    storeId: z.string(),
    name: z.string(),
    online: z.boolean().meta({ description: 'A sign of life within POS_HQ_OFFLINE_AFTER.' }),
    lastSeenAt: z.string().nullable(),
    publishedSeq: z.number().int().meta({ description: "The store's change-log position, as its last heartbeat said." }),
    ingestedSeq: z.number().int(),
    backlog: z.number().int().meta({ description: 'publishedSeq − ingestedSeq: events not yet at HQ.' }),
    catalogVersion: z.number().int(),
    appliedCatalogVersion: z.number().int(),
    catalogError: z.object({ version: z.number().int(), detail: z.string() }).nullable(),
    deadLetters: z.number().int(),
    printers: z.array(z.unknown()),
    fiscalDevices: z.array(z.unknown()),
  }),
);
const deadLetter = named(
  'HqDeadLetter',
  z.object({
    id: z.number().int(),
    storeId: z.string(),
    seq: z.number().int().nullable(),
    subject: z.string(),
    reason: z.string().meta({ description: "Why HQ put it aside: a diagnosis for the chain's operator, in English." }),
    payload: z.string(),
    receivedAt: z.string(),
  }),
);
const salesRow = z.object({
  storeId: z.string().optional(),
  day: z.string().optional(),
  plu: z.object({ code: z.number().int(), stockName: z.string() }).optional(),
  tickets: z.number().int(),
  quantity: z.number(),
  total: z.number(),
});

const BODY = (why: string) => bodyErrors(why);
const tags = { auth: ['Auth'], users: ['Users'], reads: ['Stores and sales'], catalog: ['Catalog'], system: ['System'] };

export const hqRoutes = routes<HqDeps>((route) => [
  route({
    method: 'get',
    path: '/hq/api/health',
    operationId: 'hq.health',
    tags: tags.system,
    noToken: true,
    summary: 'Health of HQ, its database and NATS',
    description: 'No token. 503 when PostgreSQL does not answer.',
    responses: { 200: { description: 'HQ works.', schema: health }, 503: { description: 'PostgreSQL does not answer (`status: degraded`).', schema: health } },
    errors: [],
    handler:
      ({ state }) =>
      async (_input, _req, res) => {
        const db = (await state.databaseOk()) ? 'ok' : 'error';
        res.status(db === 'ok' ? 200 : 503).json({ status: db === 'ok' ? 'ok' : 'degraded', version: VERSION, db, ...state.health() });
      },
  }),
  route({
    method: 'get',
    path: '/hq/api/openapi.json',
    operationId: 'hq.openapi',
    tags: tags.system,
    noToken: true,
    summary: 'This document',
    description: 'No token. OpenAPI 3.1, generated from the declarations HQ validates and routes with.',
    responses: { 200: { description: 'The OpenAPI document.', schema: z.record(z.string(), z.unknown()) } },
    errors: [],
    handler:
      ({ document }) =>
      (_input, _req, res) => {
        res.type('application/json').send(document());
      },
  }),
  route({
    method: 'post',
    path: '/hq/api/auth',
    operationId: 'hq.login',
    tags: tags.auth,
    noToken: true,
    summary: 'Log in',
    description: `No token. A session lasts ${SESSION_MS / 3600_000} hours. Failed logins are throttled per user name and address, as on the hub.`,
    body: { required: true, schema: named('HqLoginRequest', loginBody) },
    responses: {
      200: {
        description: 'A new session.',
        schema: named('HqSession', z.object({ tokenId: z.string(), expiresAt: z.string().meta({ format: 'date-time' }), user: hqUser.schema, timeZone: hqTimeZone })),
      },
    },
    errors: [...BODY('A body without userName or password.'), ERR.unauthenticated('An unknown user name or a wrong password.'), ERR.tooMany()],
    handler:
      ({ pool, throttle, hashing, timeZone }) =>
      async ({ body }, req, res) => {
        const address = req.socket.remoteAddress ?? 'unknown';
        const attempt = throttle.attempt(body.userName, address);
        const user = await findUser(pool, body.userName);
        let ok: boolean;
        try {
          ok = await hashing.run(address, () => verifyPassword(body.password, user?.passwordHash));
        } catch (e) {
          attempt.withdrawn();
          throw e;
        }
        if (!ok || !user) throw errors.unauthenticated('auth.wrongPassword');
        attempt.succeeded();
        const token = randomBytes(32).toString('base64url');
        const expiresAt = new Date(Date.now() + SESSION_MS);
        await createSession(pool, tokenHash(token), user.userName, expiresAt);
        res.json({ tokenId: token, expiresAt: expiresAt.toISOString(), user: { userName: user.userName, rights: user.rights }, timeZone });
      },
  }),
  route({
    method: 'get',
    path: '/hq/api/auth',
    operationId: 'hq.session',
    tags: tags.auth,
    summary: 'The current session',
    description: 'Needs a valid token; no right.',
    responses: { 200: { description: "Who the token belongs to, and HQ's time zone.", schema: named('HqSessionUser', hqUser.schema.extend({ timeZone: hqTimeZone })) } },
    errors: [ERR.unauthenticated()],
    handler:
      ({ timeZone }) =>
      (_input, _req, res) => {
        const { userName, rights } = session(res.locals);
        res.json({ userName, rights, timeZone });
      },
  }),
  route({
    method: 'delete',
    path: '/hq/api/auth',
    operationId: 'hq.logout',
    tags: tags.auth,
    summary: 'Log out',
    description: 'Needs a valid token; no right. The token stops working at once.',
    responses: { 204: { description: 'Logged out.' } },
    errors: [ERR.unauthenticated()],
    handler:
      ({ pool }) =>
      async (_input, _req, res) => {
        await deleteSession(pool, session(res.locals).tokenHash);
        res.status(204).end();
      },
  }),
  route({
    method: 'post',
    path: '/hq/api/auth/password',
    operationId: 'hq.password',
    tags: tags.auth,
    summary: "Change one's own password",
    description:
      `Needs a valid token and the current password (a session left open is not enough), checked and throttled like a login. The new one: at least ${MIN_PASSWORD} characters. ` +
      "The user's other sessions end; this one stays.",
    body: { required: true, schema: named('HqPasswordChange', passwordBody) },
    responses: { 204: { description: 'The password is changed.' } },
    errors: [...BODY(`A new password shorter than ${MIN_PASSWORD} characters, or a current password that is wrong (memberName \`currentPassword\`).`), ERR.unauthenticated(), ERR.tooMany()],
    handler:
      ({ pool, throttle, hashing }) =>
      async ({ body }, req, res) => {
        const address = req.socket.remoteAddress ?? 'unknown';
        const { userName, tokenHash: own } = session(res.locals);
        const attempt = throttle.attempt(userName, address);
        const user = await findUser(pool, userName);
        let ok: boolean;
        try {
          ok = await hashing.run(address, () => verifyPassword(body.currentPassword, user?.passwordHash));
        } catch (e) {
          attempt.withdrawn();
          throw e;
        }
        if (!ok) throw errors.member('currentPassword', 'hq.wrongCurrentPassword');
        attempt.succeeded();
        await setOwnPassword(pool, userName, await hashPassword(body.newPassword), own);
        res.status(204).end();
      },
  }),
  route({
    method: 'get',
    path: '/hq/api/users',
    operationId: 'hq.users.list',
    tags: tags.users,
    summary: "HQ's users and their rights",
    description: 'Requires UserManage.',
    rights: ['UserManage'],
    list: { what: 'users', filters: {}, sortKeys: ['userName'], tieBreak: '`userName` ascending', example: '-userName' },
    responses: { 200: { description: 'The users.', schema: queryResult(hqUser.schema) } },
    errors: [ERR.validation('A sort key other than userName, a query parameter that is not one of the list\'s, `$take` out of range; `errors[0].memberName` names it.'), ERR.unauthenticated(), ERR.missingRight('Without UserManage.')],
    handler:
      ({ pool }) =>
      async ({ list }, _req, res) => {
        res.json(pageInMemory(await listUsers(pool), list, { key: 'userName', sortKeys: ['userName'], what: 'users' }));
      },
  }),
  route({
    method: 'put',
    path: '/hq/api/users/{userName}',
    operationId: 'hq.users.put',
    tags: tags.users,
    summary: 'Create a user, or replace its rights (and password)',
    description:
      `Requires UserManage. A new user needs a password (at least ${MIN_PASSWORD} characters); an existing one keeps its password when it is left out, ` +
      'and a new one ends its sessions. The last user holding UserManage keeps it.',
    rights: ['UserManage'],
    params: z.object({
      userName: z
        .string()
        .superRefine((name, ctx) => {
          if (!USER_NAME.test(name)) catalogIssue(ctx, 'hq.userName', { value: name.slice(0, 100) });
        })
        .meta({ param: { description: '1 to 64 of `A-Za-z0-9._@-`.' } }),
    }),
    invalidParams: 400,
    body: { required: true, schema: named('HqUserInput', userBody) },
    responses: { 200: { description: 'Replaced.', schema: hqUser }, 201: { description: 'Created.', schema: hqUser } },
    errors: [
      ...BODY('A malformed user name, an unknown right, a password shorter than the minimum, or none for a new user.'),
      ERR.unauthenticated(),
      ERR.missingRight('Without UserManage.'),
      ERR.stateForbids('The last user holding UserManage would lose it.'),
    ],
    handler:
      ({ pool }) =>
      async ({ params: { userName }, body }, _req, res) => {
        const rights = [...new Set(body.rights)];
        const done = await putUser(pool, userName, { passwordHash: body.password ? await hashPassword(body.password) : undefined, rights }, KEEPER);
        if (done === 'needsPassword') throw errors.member('password', 'users.passwordRequired', {}, 'Required');
        if (done === 'lastKeeper') throw errors.forbidden('hq.lastUserManager', { right: KEEPER });
        res.status(done === 'created' ? 201 : 200).json({ userName, rights });
      },
  }),
  route({
    method: 'delete',
    path: '/hq/api/users/{userName}',
    operationId: 'hq.users.delete',
    tags: tags.users,
    summary: 'Delete a user',
    description: 'Requires UserManage. Its sessions end. The last user holding UserManage stays.',
    rights: ['UserManage'],
    params: z.object({ userName: z.string() }),
    responses: { 204: { description: 'Deleted.' } },
    errors: [...BODY('An unreadable body.'), ERR.unauthenticated(), ERR.missingRight('Without UserManage.'), ERR.stateForbids('The last user holding UserManage.'), ERR.notFound('No user has this name.')],
    handler:
      ({ pool }) =>
      async ({ params: { userName } }, _req, res) => {
        const done = await deleteUser(pool, userName, KEEPER);
        if (done === 'unknown') throw errors.notFound('User', userName.slice(0, 100));
        if (done === 'lastKeeper') throw errors.forbidden('hq.lastUserManager', { right: KEEPER });
        res.status(204).end();
      },
  }),
  route({
    method: 'get',
    path: '/hq/api/deadletters',
    operationId: 'hq.deadletters',
    tags: tags.reads,
    summary: 'Events HQ put aside',
    description: 'Requires ReportRead. What a store sent that HQ could not take, with why; newest first unless sorted.',
    rights: ['ReportRead'],
    list: listSpec(DEAD_LETTERS, { tieBreak: '`id` ascending', example: 'seq', defaultOrder: '`id` descending (newest first)' }),
    responses: { 200: { description: 'The dead letters.', schema: queryResult(deadLetter.schema) } },
    errors: [ERR.validation('An unknown filter or sort key, a bad filter value, `$take` out of range; `errors[0].memberName` names it.'), ERR.unauthenticated(), ERR.missingRight('Without ReportRead.')],
    handler:
      ({ pool }) =>
      async ({ list }, _req, res) => {
        res.json(await listDeadLetters(pool, list));
      },
  }),
  route({
    method: 'get',
    path: '/hq/api/stores',
    operationId: 'hq.stores',
    tags: tags.reads,
    summary: 'The stores, their backlog, catalog and devices',
    description: 'Requires ReportRead.',
    rights: ['ReportRead'],
    list: listSpec(storesList(0), { tieBreak: '`storeId` ascending', example: '-backlog' }),
    responses: { 200: { description: 'The stores.', schema: queryResult(store.schema) } },
    errors: [ERR.validation('An unknown filter or sort key, a bad filter value, `$take` out of range; `errors[0].memberName` names it.'), ERR.unauthenticated(), ERR.missingRight('Without ReportRead.')],
    handler:
      ({ pool, offlineAfterMs }) =>
      async ({ list }, _req, res) => {
        res.json(await listStores(pool, list, offlineAfterMs));
      },
  }),
  route({
    method: 'get',
    path: '/hq/api/tickets',
    operationId: 'hq.tickets',
    tags: tags.reads,
    summary: "Every store's tickets",
    description: "Requires ReportRead. Each ticket as its store keeps it, with `storeId`; the hub's ticket filters, and `StoreId`.",
    rights: ['ReportRead'],
    list: listSpec(TICKETS, { tieBreak: '`storeId` and `id` ascending', example: '-closeDate' }),
    responses: {
      200: {
        description: 'The tickets.',
        schema: queryResult(z.object({ storeId: z.string() }).catchall(z.unknown()).meta({ description: "A ticket as the store's API answers it, and its store." })),
      },
    },
    errors: [ERR.validation('An unknown filter or sort key, a bad filter value, `$take` out of range; `errors[0].memberName` names it.'), ERR.unauthenticated(), ERR.missingRight('Without ReportRead.')],
    handler:
      ({ pool }) =>
      async ({ list }, _req, res) => {
        res.json(await listTickets(pool, list));
      },
  }),
  route({
    method: 'get',
    path: '/hq/api/reports/sales',
    operationId: 'hq.reports.sales',
    tags: tags.reads,
    summary: 'Closed tickets by store, day or plu',
    description:
      "Requires ReportRead. Tickets closed in [`from`, `to`): per store, per day (HQ's time zone, POS_HQ_TIMEZONE) or per plu. Exact sums; per store and day " +
      "`total` is the tickets' totals, per plu the items' (a ticket discount is not split over items) and `tickets` counts the tickets holding it.",
    rights: ['ReportRead'],
    query: z.object({
      from: dateTime('From, included: an ISO 8601 date-time (without an offset: in HQ\'s time zone).', '2026-11-01T00:00:00Z'),
      to: dateTime('To, excluded.', '2026-12-01T00:00:00Z'),
      groupBy: z
        .string()
        .optional()
        .superRefine((g, ctx) => {
          if (g !== undefined && !['store', 'day', 'plu'].includes(g.toLowerCase())) catalogIssue(ctx, 'hq.groupBy', { value: g });
        })
        .openapi({ param: { description: '`store` (the default), `day` or `plu`, in any letter case.' } }),
    }),
    responses: { 200: { description: 'The rows and their total.', schema: named('HqSalesReport', z.object({ rows: z.array(salesRow), total: z.number() })) } },
    errors: [ERR.validation('A missing or malformed `from`/`to`, a `to` before `from`, an unknown `groupBy`; `errors[0].memberName` names it.'), ERR.unauthenticated(), ERR.missingRight('Without ReportRead.')],
    handler:
      ({ pool, timeZone }) =>
      async ({ query }, _req, res) => {
        // Checked as date-times by the declaration; here placed in HQ's time zone.
        const at = (text: string) => parseIsoDateTime(text, timeZone) as Date;
        const groupBy = (query.groupBy ?? 'store').toLowerCase() as 'store' | 'day' | 'plu';
        const [from, to] = [at(query.from), at(query.to)];
        // A span that ends before it starts is a mistake, refused as the hub's own report refuses it.
        if (to < from) throw errors.member('to', 'reports.toBeforeFrom', { from: query.from }, 'OutOfRange');
        res.json(await salesReport(pool, from, to, groupBy, timeZone));
      },
  }),
  ...(['put', 'delete'] as const).map((method) =>
    route({
      method,
      path: '/hq/api/catalog/{resource}/{key}',
      // A plu's key holds a slash (`Bar/1`): the key is the rest of the path.
      match: '/catalog/:resource/*key',
      operationId: `hq.catalog.${method}`,
      tags: tags.catalog,
      summary: method === 'put' ? 'Push a catalog document to stores' : 'Delete a catalog document at stores',
      description:
        "Requires CatalogPush. Queued for each store in one transaction and relayed to it in order; a store that is down applies it when it is back. `key` is the document's key: " +
        "a plu's is `stockName/code`, a payment type's its number, each checked by the rules the store's own API keys it with; a key inside `doc` must be the path's." +
        (method === 'put' ? ' `doc` is the document as the store\'s own API takes it.' : ''),
      rights: ['CatalogPush'],
      params: z.object({
        resource: z.enum(CATALOG_RESOURCES).meta({ param: { description: 'Which catalog (any letter case).' } }),
        key: z.string().meta({ param: { description: "The document's key; a plu's holds a slash (`Bar/1`)." } }),
      }),
      invalidParams: 400,
      body: { required: true, schema: named('HqCatalogChange', catalogBody) },
      responses: {
        202: {
          description: 'Queued: the change and the version each store will be at.',
          schema: named('HqCatalogPushed', z.object({ catalogVersion: z.number().int(), stores: z.array(z.object({ storeId: z.string(), catalogVersion: z.number().int() })) })),
        },
      },
      errors: [
        ...BODY('An unknown catalog, a malformed key (`key`), a key in `doc` other than the path\'s (`doc.<field>`), no `doc` for PUT, a malformed or unknown store id.'),
        ERR.unauthenticated(),
        ERR.missingRight('Without CatalogPush.'),
      ],
      handler:
        ({ pool, state }) =>
        async ({ params, body }, _req, res) => {
          const key = catalogKey(params.resource, params.key, method === 'put' ? body.doc : undefined);
          if (method === 'put' && !body.doc) throw errors.member('doc', 'member.required', {}, 'Required');
          const all = body.stores.length === 1 && body.stores[0] === '*';
          if (!all)
            body.stores.forEach((s, i) => {
              if (!STORE_ID.test(s)) throw errors.member(`stores[${i}]`, 'hq.notStoreId', { value: s });
            });
          const pushed = await pushCatalog(pool, { resource: params.resource, key, op: method, doc: method === 'put' ? body.doc! : null, stores: all ? '*' : [...new Set(body.stores)], by: session(res.locals).userName });
          if (pushed.unknown.length) throw errors.member('stores', pushed.unknown.length > 1 ? 'hq.unknownStores' : 'hq.unknownStore', { stores: pushed.unknown.join(', ') }, 'Unknown');
          state.catalogPushed();
          res.status(202).json({ catalogVersion: pushed.changeId, stores: pushed.versions });
        },
    }),
  ),
]);
