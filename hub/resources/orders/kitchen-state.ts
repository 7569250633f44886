/**
 * Order states for the kitchen (CONTRACT §11, issue 10): New → InProgress → Ready → Served, or
 * Cancelled for a cancel order. `POST /api/orders/{id}/state {state}` (right OrderProcess, no
 * Sale environment) moves an order forward, or back one step (a cook's mis-tap), never out of
 * Served or Cancelled. Every change is stored with its time and goes through the change log.
 */
import { z } from 'zod';
import { inTransaction } from '../../../db/client.js';
import { requireRight, type Caller } from '../../http/caller.js';
import { errors } from '../../http/errors.js';
import { ERR, ifMatchHeader } from '../../http/api-docs.js';
import { callerOf } from '../../http/handler.js';
import { model, routes } from '../../http/route.js';
import type { Doc } from '../../engine/define.js';
import { enumOf } from '../../engine/fields.js';
import type { ResourceService } from '../../engine/service.js';
import { ORDER_STATES, type orders as ordersResource } from './resource.js';

type Orders = ResourceService<typeof ordersResource>;

export const FLOW = ['New', 'InProgress', 'Ready', 'Served'] as const;
const FINAL = new Set(['Served', 'Cancelled']);
/** Where a state stands in FLOW (-1: Cancelled, outside it). */
const stepOf = (state: string) => FLOW.findIndex((s) => s === state);

/** `_v` (or If-Match) is optional: a display that sends it is told (409) when its view was stale. */
export const stateChangeSchema = z.object({ state: enumOf(ORDER_STATES), _v: z.number().int().min(0).optional() });

export function changeOrderState(orders: Orders, caller: Caller, id: string, { state, _v }: z.output<typeof stateChangeSchema>, ifMatch?: number): Doc {
  requireRight(caller, 'OrderProcess');
  // Only an order the caller may read: a kitchen display moves its own endpoint's orders, nobody else's.
  orders.get(id, caller);
  return inTransaction(orders.ctx.db, () => {
    const stored = orders.getStored(id);
    orders.checkVersion(id, stored.v, _v, ifMatch);
    const current = stored.doc.state;
    if (current === state) return orders.present(stored);
    if (FINAL.has(current)) throw errors.forbidden('order.final', { id, state: current });
    if (state === 'Cancelled') throw errors.forbidden('order.cancelledBorn');
    const from = stepOf(current);
    const to = stepOf(state);
    if (to < from - 1) throw errors.forbidden('order.oneStepBack', { id, from: current, to: FLOW[from - 1] });
    const at = orders.ctx.clock.now().toISOString();
    const history = [...(stored.doc.stateHistory ?? []), { state, at, userName: caller.userName }];
    return orders.store(undefined, id, { ...stored.doc, state, stateChangedAt: at, stateHistory: history }, stored);
  });
}

export const orderStateRoutes = routes<{ orders: Orders }>((route) => [
  route({
    method: 'post',
    path: '/api/orders/{id}/state',
    operationId: 'orders.state',
    tags: ['Order'],
    summary: 'Move a kitchen order on: New → InProgress → Ready → Served (or one step back)',
    description:
      'Requires OrderProcess; no Sale environment needed (a kitchen display or the pass), and only an order the caller may read ' +
      '(a kitchen display: its own endpoint\'s). Each change is stamped in `stateHistory` and reaches registers through the change log.',
    rights: ['OrderProcess'],
    authorize: (caller) => requireRight(caller, 'OrderProcess'),
    params: z.object({ id: z.string() }),
    headers: ifMatchHeader('The expected `_v` (`"3"`), as `_v` in the body: another answers 409.'),
    body: { schema: stateChangeSchema, required: true },
    responses: { 200: { description: 'The order with its new state.', schema: model('orders') } },
    errors: [
      ERR.validation('An unknown state.'),
      ERR.unauthenticated(),
      ERR.missingRight('Without OrderProcess.'),
      ERR.stateForbids('Out of Served or Cancelled, to Cancelled, or back more than one step.'),
      ERR.notFound('No such order, or not one the caller may read.'),
      ERR.versionMismatch(),
    ],
    handler:
      ({ orders }) =>
      ({ params, headers, body }, _req, res) => {
        res.json(changeOrderState(orders, callerOf(res), params.id, body, headers['If-Match']));
      },
  }),
]);
