/** Sessions over HTTP (CONTRACT §5): log in, the session, log out, refresh. */
import { LANGUAGES } from '../../i18n/index.js';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { bodyErrors, ERR, registerKeyHeader } from '../../http/api-docs.js';
import { registerKeyOf } from '../devices/register-key.js';
import { callerOf } from '../../http/handler.js';
import { ENV_NAMES, RIGHTS } from '../../http/rights.js';
import { named, queryValue, routes, type Composed } from '../../http/route.js';
import { loginSchema, ownPinSchema, refreshSchema, tokenFromHeader, type AuthService } from './service.js';

/** Attaches the caller to res.locals or answers 401. */
export function requireSession(auth: AuthService): RequestHandler {
  return (req, res, next) => {
    // A browser's EventSource cannot send headers, so the event stream also takes ?access_token=.
    const fromQuery = req.method === 'GET' && req.path === '/events' ? queryValue(req, 'access_token') : undefined;
    res.locals.caller = auth.authenticate(tokenFromHeader(req.headers.authorization) ?? fromQuery);
    next();
  };
}

const sessionShape = (device: z.ZodObject, fiscal: z.ZodObject) => ({
  expiresAt: z.string().meta({ format: 'date-time', description: 'When the access token stops working.' }),
  timeZone: z.string().meta({
    description:
      "The shop's time zone (POS_HUB_TIMEZONE, an IANA name such as Europe/Bratislava): the days the hub counts in — reports, fiscal days, " +
      "numbering tokens — are its local days. A page opened from another zone reckons its days and shows its times in this one.",
    example: 'Europe/Bratislava',
  }),
  user: z.object({
    id: z.string(),
    userName: z.string(),
    name: z.string(),
    rights: z.array(z.enum(RIGHTS)),
    language: z.enum(LANGUAGES).nullable().meta({ description: "The user's own language; null: the shop's (the page's `<html lang>`)." }),
    device,
    fiscalDevice: fiscal
      .pick({ driver: true, isActive: true, status: true })
      .extend({ name: z.string() })
      .nullable()
      .meta({
        description:
          "The fiscal printer the session's device closes its tickets on (its setting DefaultFiscalName): its driver (eKasa rounds cash, " +
          'CONTRACT §8) and status, for a register without SettingsRead. null: none set, or no such fiscal device.',
      }),
  }),
});
const tokenShape = {
  tokenId: z.string().meta({ description: 'The access token: send `Authorization: Bearer <tokenId>`.' }),
  refreshToken: z.string().meta({ description: 'Single use, for POST /api/auth/refresh.' }),
};

/** `{tokenId, refreshToken, expiresAt, user}`: what a login answers (a kitchen display's pairing too, with more). */
export const sessionTokens = (extra: z.ZodRawShape = {}, name?: string): Composed => ({
  name,
  uses: ['devices', 'fiscaldevices'],
  compose: (model) => z.object({ ...tokenShape, ...sessionShape(model('devices'), model('fiscaldevices')), ...extra }),
});

const tags = ['Auth'];

export const authRoutes = routes<{ auth: AuthService }>((route) => [
  route({
    method: 'post',
    path: '/api/auth',
    operationId: 'auth.login',
    tags,
    noToken: true,
    summary: 'Log in',
    description:
      `No token and no right. A login on a sale device (${ENV_NAMES.filter((e) => e === 'CashRegister' || e === 'PDA').join(', ')}) ends the earlier ` +
      'session on that device; a user has at most 20 live sessions (a login beyond ends the oldest). 10 failed logins for one user name ' +
      'within 15 minutes, or 50 from one address, answer 429 until the window has passed; an attempt counts before its password is ' +
      'checked, and an address with 4 logins being checked is told to come back (429) at once. ' +
      "With `pin` instead of `password` (a register's quick login): only on an active CashRegister or PDA paired from the manager's page, " +
      'with the key that pairing gave in `X-Register-Key`; a PIN anywhere else is refused as a bad login (401) and counts as a failure.',
    headers: registerKeyHeader('Only with `pin`: the key POST /api/registers/pair gave this register.'),
    body: { required: true, schema: named('LoginRequest', loginSchema) },
    responses: { 200: { description: 'A new session.', schema: sessionTokens({}, 'SessionTokens') } },
    errors: [
      ...bodyErrors('A body without userName or deviceName, with neither or both of password and pin, or a pin that is not 4-8 digits.'),
      ERR.unauthenticated(
        'Unknown user or device, wrong password or PIN, an inactive user or device, or a PIN on a device that is not a paired register (or without its key).',
      ),
      ERR.tooMany(),
    ],
    handler:
      ({ auth }) =>
      async ({ headers, body }, req, res) => {
        res.json(await auth.login(body, req.socket.remoteAddress ?? 'unknown', registerKeyOf(headers['X-Register-Key'])));
      },
  }),
  route({
    method: 'get',
    path: '/api/auth',
    operationId: 'auth.session',
    tags,
    summary: 'The current session',
    description: 'Needs a valid token; no right.',
    responses: { 200: { description: 'The session behind the token.', schema: { name: 'Session', uses: ['devices', 'fiscaldevices'], compose: (model) => z.object(sessionShape(model('devices'), model('fiscaldevices'))) } } },
    errors: [ERR.unauthenticated()],
    handler:
      ({ auth }) =>
      (_input, req, res) => {
        res.json(auth.view(callerOf(res)));
      },
  }),
  route({
    method: 'delete',
    path: '/api/auth',
    operationId: 'auth.logout',
    tags,
    summary: 'Log out',
    description: 'Needs a valid token; no right. The token stops working at once, and so do the event streams opened with it.',
    responses: { 204: { description: 'Logged out.' } },
    errors: [...bodyErrors('An unreadable body.'), ERR.unauthenticated()],
    handler:
      ({ auth }) =>
      (_input, req, res) => {
        auth.logout(callerOf(res));
        res.status(204).end();
      },
  }),
  route({
    method: 'post',
    path: '/api/auth/pin',
    operationId: 'auth.pin',
    tags,
    summary: "Set or remove one's own PIN",
    description:
      "Needs a valid token and the caller's current password; no right (a manager sets another user's PIN with PUT /api/users/{id}, " +
      'right UserUpdate). The password check is throttled like a login: it counts against the caller\'s user name. ' +
      "The user's other sessions end, as after a password change; this one stays.",
    body: { required: true, schema: named('OwnPinRequest', ownPinSchema) },
    responses: { 204: { description: 'The PIN is set (or removed).' } },
    errors: [
      ...bodyErrors('A pin that is not 4-8 digits nor null, or a password that is not the caller\'s (memberName `password`).'),
      ERR.unauthenticated(),
      { ...ERR.tooMany(), why: 'Too many failed logins or password checks for this user name or from this address.' },
    ],
    handler:
      ({ auth }) =>
      async ({ body }, req, res) => {
        await auth.setOwnPin(callerOf(res), body, req.socket.remoteAddress ?? 'unknown');
        res.status(204).end();
      },
  }),
  route({
    method: 'post',
    path: '/api/auth/refresh',
    operationId: 'auth.refresh',
    tags,
    noToken: true,
    summary: 'Exchange a refresh token for a new token pair',
    description: 'No token and no right. The old pair stops working.',
    body: { required: true, schema: named('RefreshRequest', refreshSchema) },
    responses: { 200: { description: 'A new token pair for the same session.', schema: sessionTokens({}, 'SessionTokens') } },
    errors: [...bodyErrors('A body without tokenId or refreshToken.'), ERR.unauthenticated('The refresh token is unknown, expired, already used, or not the pair of tokenId.')],
    handler:
      ({ auth }) =>
      ({ body }, _req, res) => {
        res.json(auth.refresh(body));
      },
  }),
]);
