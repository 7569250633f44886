/**
 * Kitchen display pairing routes. `POST /api/kds/pair` takes no token (the code is the
 * credential, like a password at POST /api/auth), so it is mounted before the session middleware;
 * the manager's routes under /api/kds/pairings sit behind it like every other resource.
 */
import { z } from 'zod';
import { bodyErrors, ERR, idempotencyHeader, ifMatchHeader, LOCATION } from '../http/api-docs.js';
import { callerOf } from '../http/handler.js';
import { requireRight } from '../http/caller.js';
import { model, named, routes } from '../http/route.js';
import { pairingRoutes, pairingSchema } from '../http/pairings.js';
import { sessionTokens } from '../resources/auth/routes.js';
import { PAIRING_TTL_MS, pairingRequestSchema, pairSchema, RECALL_WINDOW_MS, recallSchema, type KdsService } from './service.js';

const tags = ['Kitchen display'];
const pairing = pairingSchema('orderEndpointName');
const id = z.object({ id: z.string() });

export const kdsPairRoutes = routes<{ kds: KdsService }>((route) => [
  route({
    method: 'post',
    path: '/api/kds/pair',
    operationId: 'kds.pair',
    tags,
    noToken: true,
    summary: 'Trade a pairing code for a session (the tablet)',
    description:
      'No token: the code is the credential. Answers an ordinary session (refresh it with POST /api/auth/refresh) of user ' +
      '`kds-<endpoint>` (right OrderProcess only, a random password nobody is shown) on the Tool device `KDS <endpoint>`; ' +
      'both are made when missing and reused when present. The code is spent. 10 wrong codes within 15 minutes from one address ' +
      'make that address wait (429) for the rest of the window, whatever code it sends next; a code that 50 wrong codes (from ' +
      'anyone) were tried against while it was valid no longer works (429: make a new one).',
    body: { required: true, schema: named('KdsPairRequest', pairSchema) },
    responses: {
      200: { description: 'A new session, and the order endpoint the code was made for.', schema: sessionTokens({ orderEndpointName: z.string() }, 'KdsSession') },
    },
    errors: [
      ...bodyErrors('A code that is not 6 digits.'),
      ERR.unauthenticated('The code is wrong, expired, withdrawn or already used.'),
      ERR.stateForbids(
        'The endpoint is no longer an active Tablet, or device `KDS <endpoint>` or user `kds-<endpoint>` exists but is inactive, ' +
          'not a Tool device, or holds more rights than OrderProcess. The code is not spent.',
      ),
      { ...ERR.tooMany(), why: 'Too many wrong pairing codes from this address, or against this code.' },
    ],
    handler:
      ({ kds }) =>
      async ({ body }, req, res) => {
        res.json(await kds.exchange(body, req.socket.remoteAddress ?? 'unknown'));
      },
  }),
]);

export const kdsRoutes = routes<{ kds: KdsService }>((route) => [
  ...pairingRoutes<{ kds: KdsService }>({
    path: '/api/kds/pairings',
    operationId: 'kds.pairings',
    tags,
    thing: 'kitchen display',
    title: 'KdsPairing',
    schema: pairing,
    right: 'OrderEndpointUpdate',
    pairings: ({ kds }) => kds.pairings,
  }),
  route({
    method: 'post',
    path: '/api/kds/pairings',
    operationId: 'kds.pairings.create',
    tags,
    summary: 'A pairing code for a kitchen display',
    description:
      `Requires OrderEndpointUpdate, and OrderProcess: the display's session gets OrderProcess, and nobody hands out a right they lack. The code is 6 digits, shown once (the hub keeps only a keyed hash in memory), valid for ` +
      `${PAIRING_TTL_MS / 60_000} minutes and for one POST /api/kds/pair; a restart of the hub forgets it. Only an active Tablet endpoint is paired.`,
    rights: ['OrderEndpointUpdate', 'OrderProcess'],
    authorize: (caller) => {
      requireRight(caller, 'OrderEndpointUpdate');
      requireRight(caller, 'OrderProcess');
    },
    headers: idempotencyHeader(),
    body: { required: true, schema: named('KdsPairingRequest', pairingRequestSchema) },
    responses: {
      201: {
        description: 'The code, with `Location` naming the pairing.',
        headers: LOCATION,
        schema: pairing.extend({ code: z.string().meta({ description: 'Six digits, for the tablet.', example: '042917' }) }),
      },
    },
    errors: [
      ...bodyErrors('A body without orderEndpointName, or an order endpoint that does not exist.'),
      ERR.unauthenticated(),
      ERR.missingRight('Without OrderEndpointUpdate, or without OrderProcess (the right the display would get).'),
      ERR.stateForbids('The order endpoint is a printer, not a Tablet, or is inactive.'),
      ERR.keyReused(),
    ],
    handler:
      ({ kds }) =>
      ({ body }, _req, res) => {
        const created = kds.create(callerOf(res), body);
        res.status(201).location(`/api/kds/pairings/${created.id}`).json(created);
      },
  }),
  route({
    method: 'post',
    path: '/api/kds/orders/{id}/recall',
    operationId: 'kds.orders.recall',
    tags,
    summary: 'A served order back to Ready (a display\'s history list)',
    description:
      `Requires OrderProcess, and only an order the caller may read (a kitchen display: its own endpoint's). The one way out of ` +
      `Served: POST /api/orders/{id}/state still refuses it. Allowed for ${RECALL_WINDOW_MS / 60_000} minutes after the order was served; ` +
      'stamped in `stateHistory` and sent through the change log like any move.',
    rights: ['OrderProcess'],
    authorize: (caller) => requireRight(caller, 'OrderProcess'),
    params: id,
    headers: idempotencyHeader().extend(ifMatchHeader('The expected `_v` (`"3"`), as `_v` in the body: another answers 409.').shape),
    body: { schema: named('KdsRecallRequest', recallSchema), required: false },
    responses: { 200: { description: 'The order, Ready again.', schema: model('orders') } },
    errors: [
      ...bodyErrors('A `_v` that is not a non-negative integer.'),
      ERR.unauthenticated(),
      ERR.missingRight('Without OrderProcess.'),
      ERR.stateForbids(`The order is not Served, or was served more than ${RECALL_WINDOW_MS / 60_000} minutes ago.`),
      ERR.notFound('No such order, or not one the caller may read.'),
      ERR.versionMismatch(),
    ],
    handler:
      ({ kds }) =>
      ({ params, headers, body }, _req, res) => {
        res.json(kds.recall(callerOf(res), params.id, body, headers['If-Match']));
      },
  }),
]);
