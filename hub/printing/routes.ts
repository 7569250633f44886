/**
 * Printing over HTTP: a printer's status, a COPY of a kitchen order, a test page. The status is what
 * any register may show; a copy is marked COPY so it cannot be cooked as a new order, and the
 * requester's name travels with the job.
 */
import { z } from 'zod';
import { ERR } from '../http/api-docs.js';
import { requireRight, type Caller } from '../http/caller.js';
import { callerOf } from '../http/handler.js';
import { named, routes } from '../http/route.js';
import type { PrintService } from './service.js';
import type { PrintJob } from './store.js';

const status = z.object({
  name: z.string(),
  type: z.string(),
  address: z.string(),
  isActive: z.boolean(),
  online: z.boolean().nullable().meta({ description: 'null: no contact since start, or not a printer.' }),
  paper: z.enum(['ok', 'low', 'out', 'unknown']),
  cover: z.enum(['open', 'closed', 'unknown']),
  queueDepth: z.number().int().meta({ description: 'Jobs not yet printed, the one in progress included.' }),
  lastError: z.string().nullable(),
  worker: z.enum(['idle', 'printing', 'waiting', 'stopped', 'none']),
});
/** A queued print job as an answer says it (202): the same fields wherever a job is queued. */
export const job = { jobId: z.string(), orderEndpointName: z.string(), kind: z.string(), state: z.string() };
export function queuedJob(j: PrintJob): { jobId: string; orderEndpointName: string; kind: string; state: string } {
  return { jobId: j.id, orderEndpointName: j.endpointName, kind: j.kind, state: j.state };
}
const name = z.object({ name: z.string().meta({ param: { description: 'The order endpoint.' } }) });

/** `orders.get(id, caller)` throws unless the caller may read that order (the orders resource). */
export const printingRoutes = routes<{ printing: PrintService; orders: { get(id: string, caller: Caller): unknown } }>((route) => [
  route({
    method: 'get',
    path: '/api/orderendpoints/{name}/status',
    operationId: 'orderendpoints.status',
    tags: ['OrderEndpoint'],
    summary: "A printer's live status",
    description: 'A token is enough. Online, paper, cover, queue depth, last error and the worker state, as the print queue last saw them.',
    params: name,
    responses: { 200: { description: 'The status.', schema: named('PrinterStatus', status) } },
    errors: [ERR.unauthenticated(), ERR.notFound('No such order endpoint.')],
    handler:
      ({ printing }) =>
      ({ params }, _req, res) => {
        callerOf(res);
        res.json(printing.status(params.name));
      },
  }),
  route({
    method: 'post',
    path: '/api/orderendpoints/{name}/test',
    operationId: 'orderendpoints.test',
    tags: ['OrderEndpoint'],
    summary: 'Print a test page on a printer',
    // A test page is the manager's tool (the Devices page), so it needs the right to change printers.
    description: 'Requires OrderEndpointUpdate. Queued like any print job; its progress shows in the printer status.',
    rights: ['OrderEndpointUpdate'],
    authorize: (caller) => requireRight(caller, 'OrderEndpointUpdate'),
    params: name,
    responses: { 202: { description: 'The test page is queued.', schema: z.object(job) } },
    errors: [ERR.unauthenticated(), ERR.missingRight('Without OrderEndpointUpdate.'), ERR.stateForbids('A kitchen display or an inactive endpoint.'), ERR.notFound('No such order endpoint.')],
    handler:
      ({ printing }) =>
      ({ params }, _req, res) => {
        const queued = printing.testPrint(params.name, callerOf(res).userName);
        res.status(202).json(queuedJob(queued));
      },
  }),
  route({
    method: 'post',
    path: '/api/orders/{id}/reprint',
    operationId: 'orders.reprint',
    tags: ['Order'],
    summary: 'Print a copy of a kitchen order, marked COPY',
    description: 'A token is enough, for an order the caller may read (CONTRACT §12): the copy cannot be cooked as a new order, and the requester is printed on it.',
    params: z.object({ id: z.string() }),
    responses: { 202: { description: 'The copy is queued.', schema: z.object({ ...job, orderId: z.string() }) } },
    errors: [
      ERR.unauthenticated(),
      ERR.missingRight('An order of a ticket the caller may not read (another waiter\'s closed sale needs TicketReadAll).'),
      ERR.stateForbids('The endpoint is a kitchen display, inactive or gone.'),
      ERR.notFound('No such order, or not one the caller may read.'),
    ],
    handler:
      ({ printing, orders }) =>
      ({ params: { id } }, _req, res) => {
        const caller = callerOf(res);
        orders.get(id, caller);
        const queued = printing.reprint(id, caller.userName);
        res.status(202).json({ ...queuedJob(queued), orderId: queued.refId });
      },
  }),
]);
