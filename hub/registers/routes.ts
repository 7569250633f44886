/**
 * Register pairing routes. `POST /api/registers/pair` and `GET /api/registers/users` take no user
 * token (a code, then the register's key, is the credential), so they are mounted before the session
 * middleware; the manager's routes under /api/registers/pairings sit behind it.
 */
import type { Request } from 'express';
import { z } from 'zod';
import { bodyErrors, ERR, idempotencyHeader, LOCATION, registerKeyHeader } from '../http/api-docs.js';
import { callerOf } from '../http/handler.js';
import { requireRight, requireSale, type Caller } from '../http/caller.js';
import { named, routes } from '../http/route.js';
import { PAIRING_TTL_MS } from '../http/pairing-codes.js';
import { pairingRoutes, pairingSchema } from '../http/pairings.js';
import { registerKeyOf } from '../resources/devices/register-key.js';
import { HANDOVER_RIGHT, registerPairingRequestSchema, registerPairSchema, SELLING_RIGHT, type RegistersService } from './service.js';
import { pageInMemory } from '../http/list-params.js';

/** The users' lists a register shows (CONTRACT §4 paging; a register asks for up to 1,000 at once). */
const USERS_LIST = { what: 'users', key: 'userName', sortKeys: ['userName', 'name'] } as const;

const tags = ['Registers'];
const pairing = pairingSchema('deviceName');
const managerOnly = ERR.missingRight('Without DeviceUpdate.');
const guessing =
  '10 wrong codes within 15 minutes from one address make that address wait (429) for the rest of the window; a code that 50 wrong ' +
  'codes (from anyone) were tried against while it was valid no longer works (429: make a new one).';

/** The hub's own address on the manager's connection, for a link when the request named no usable Host. */
function localHost(req: Request): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return `${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort ?? 8080}`;
}

export const registerPairRoutes = routes<{ registers: RegistersService }>((route) => [
  route({
    method: 'post',
    path: '/api/registers/pair',
    operationId: 'registers.pair',
    tags,
    noToken: true,
    summary: 'Trade a pairing code for the register’s device key (the tablet)',
    description:
      'No token: the code is the credential. Answers the device and a new random `deviceKey`, which the register keeps and sends ' +
      'as `X-Register-Key` (GET /api/registers/users, and POST /api/auth with a PIN). The device is paired from now on (`pairedAt`); ' +
      'pairing it again gives a new key, so the earlier tablet\'s key stops working and the device\'s session ends. The code is spent. ' +
      guessing,
    body: { required: true, schema: named('RegisterPairRequest', registerPairSchema) },
    responses: {
      200: {
        description: 'The register this tablet now is.',
        schema: named(
          'PairedRegister',
          z.object({
            deviceName: z.string(),
            envName: z.enum(['CashRegister', 'PDA']),
            deviceKey: z.string().meta({ description: 'The register\'s secret (256 random bits): shown once; the hub keeps only its hash.' }),
          }),
        ),
      },
    },
    errors: [
      ...bodyErrors('A code that is not 6 digits.'),
      ERR.unauthenticated('The code is wrong, expired, withdrawn or already used.'),
      ERR.stateForbids('The device was deleted (the code is spent), or is inactive or no longer a CashRegister or PDA (the code is kept).'),
      { ...ERR.tooMany(), why: 'Too many wrong pairing codes from this address, or against this code.' },
    ],
    handler:
      ({ registers }) =>
      ({ body }, req, res) => {
        res.json(registers.pair(body, req.socket.remoteAddress ?? 'unknown'));
      },
  }),
  route({
    method: 'get',
    path: '/api/registers/users',
    operationId: 'registers.users',
    tags,
    noToken: true,
    summary: 'The users a register shows to tap (by its device key)',
    description:
      `No user token: the register's key in \`X-Register-Key\`. Active users holding ${SELLING_RIGHT} (who may sell), by name in the ` +
      "shop's language, with whether each has a PIN. Nothing else about them.",
    headers: registerKeyHeader('The key POST /api/registers/pair gave this register.', true),
    list: { ...USERS_LIST, sortKeys: [...USERS_LIST.sortKeys], filters: {}, tieBreak: '`userName` ascending', defaultOrder: "`name` in the shop's language", example: 'userName' },
    responses: {
      200: {
        description: 'The users who may sell.',
        schema: named(
          'RegisterUsers',
          z.object({
            items: z.array(z.object({ userName: z.string(), name: z.string(), hasPin: z.boolean() })).optional().openapi({ description: 'Left out when `$count=true`.' }),
            count: z.number().int(),
            totalCount: z.number().int(),
          }),
        ),
      },
    },
    errors: [ERR.unauthenticated('No key, or not the key of an active paired CashRegister or PDA (paired again since, deleted, switched off).')],
    handler:
      ({ registers }) =>
      ({ headers, list }, _req, res) => {
        res.json(pageInMemory(registers.sellers(registerKeyOf(headers['X-Register-Key'])), list, USERS_LIST));
      },
  }),
]);

/** A waiter on a register who may hand tickets over: checked before anything of the request is read. */
const handingOver = (caller: Caller) => {
  requireSale(caller);
  requireRight(caller, HANDOVER_RIGHT);
};

export const registerRoutes = routes<{ registers: RegistersService }>((route) => [
  route({
    method: 'get',
    path: '/api/registers/colleagues',
    operationId: 'registers.colleagues',
    tags,
    summary: 'The colleagues a waiter may hand a ticket over to (a register\'s session)',
    description:
      `Requires ${HANDOVER_RIGHT} and a session on a sale device (CashRegister or PDA), as PATCH /api/tickets?action=Handover does. ` +
      `The active users holding ${SELLING_RIGHT} (who may sell), by name in the shop's language: their \`userName\` (what a Handover ` +
      'names) and `name`, nothing else — no rights, no PIN, no id. For a register logged in with a password, which has no ' +
      '`X-Register-Key` to read GET /api/registers/users with; the caller is in the list too (a register leaves out the ticket\'s owner).',
    rights: [HANDOVER_RIGHT],
    authorize: handingOver,
    list: { ...USERS_LIST, sortKeys: [...USERS_LIST.sortKeys], filters: {}, tieBreak: '`userName` ascending', defaultOrder: "`name` in the shop's language", example: 'userName' },
    responses: {
      200: {
        description: 'The users a ticket may be handed over to.',
        schema: named(
          'RegisterColleagues',
          z.object({
            items: z.array(z.object({ userName: z.string(), name: z.string() })).optional().openapi({ description: 'Left out when `$count=true`.' }),
            count: z.number().int(),
            totalCount: z.number().int(),
          }),
        ),
      },
    },
    errors: [ERR.unauthenticated(), ERR.missingRight(`Without ${HANDOVER_RIGHT}, or a session on a device outside the Sale environment (BackOffice, Tool).`)],
    handler:
      ({ registers }) =>
      ({ list }, _req, res) => {
        res.json(pageInMemory(registers.colleagues(callerOf(res)), list, USERS_LIST));
      },
  }),
  ...pairingRoutes<{ registers: RegistersService }>({
    path: '/api/registers/pairings',
    operationId: 'registers.pairings',
    tags,
    thing: 'register',
    title: 'RegisterPairing',
    schema: pairing,
    right: 'DeviceUpdate',
    pairings: ({ registers }) => registers.pairings,
  }),
  route({
    method: 'post',
    path: '/api/registers/pairings',
    operationId: 'registers.pairings.create',
    tags,
    summary: 'A pairing code for a register',
    description:
      `Requires DeviceUpdate. For an active device of envName CashRegister or PDA. The code is 6 digits, shown once (the hub keeps ` +
      `only a keyed hash in memory), valid for ${PAIRING_TTL_MS / 60_000} minutes and for one POST /api/registers/pair; a restart of ` +
      'the hub forgets it. `link` opens the register on the tablet with the code filled in (for a QR code): ' +
      '`http://<the host this request was sent to>/pos/#pair=<code>`.',
    rights: ['DeviceUpdate'],
    authorize: (caller) => requireRight(caller, 'DeviceUpdate'),
    headers: idempotencyHeader(),
    body: { required: true, schema: named('RegisterPairingRequest', registerPairingRequestSchema) },
    responses: {
      201: {
        description: 'The code and the link, with `Location` naming the pairing.',
        headers: LOCATION,
        schema: pairing.extend({
          code: z.string().meta({ description: 'Six digits, for the tablet.', example: '042917' }),
          link: z.string().meta({ description: 'The register page with the code, for the tablet to open.', example: 'http://192.168.1.5:8080/pos/#pair=042917' }),
        }),
      },
    },
    errors: [
      ...bodyErrors('A body without deviceName, or a device that does not exist.'),
      ERR.unauthenticated(),
      managerOnly,
      ERR.stateForbids('The device is not a CashRegister or PDA, or is inactive.'),
      ERR.keyReused(),
    ],
    handler:
      ({ registers }) =>
      ({ body }, req, res) => {
        const created = registers.create(callerOf(res), body, req.headers.host, localHost(req));
        res.status(201).location(`/api/registers/pairings/${created.id}`).json(created);
      },
  }),
]);
