/**
 * Printing over HTTP: a printer's status, and a COPY of a kitchen order. Both need a token and no
 * particular right: the status is what any register may show, and a copy is marked COPY so it cannot
 * be cooked as a new order; the requester's name travels with the job.
 */
import { Router } from 'express';
import { requireRight, type Caller } from '../http/caller.js';
import { callerOf } from '../http/handler.js';
import type { PrintService } from './service.js';

/** `orders.get(id, caller)` throws unless the caller may read that order (the orders resource). */
export function printingRouter(printing: PrintService, orders: { get(id: string, caller: Caller): unknown }): Router {
  const router = Router();
  router.get('/orderendpoints/:name/status', (req, res) => {
    callerOf(res);
    res.json(printing.status(String(req.params.name)));
  });
  router.post('/orders/:id/reprint', (req, res) => {
    const caller = callerOf(res);
    // A copy of an order the caller may read (CONTRACT §12), nobody else's.
    orders.get(String(req.params.id), caller);
    const job = printing.reprint(String(req.params.id), caller.userName);
    res.status(202).json({ jobId: job.id, orderId: job.refId, orderEndpointName: job.endpointName, kind: job.kind, state: job.state });
  });
  // A test page is the manager's tool (the Devices page), so it needs the right to change printers.
  router.post('/orderendpoints/:name/test', (req, res) => {
    const caller = callerOf(res);
    requireRight(caller, 'OrderEndpointUpdate');
    const job = printing.testPrint(String(req.params.name), caller.userName);
    res.status(202).json({ jobId: job.id, orderEndpointName: job.endpointName, kind: job.kind, state: job.state });
  });
  return router;
}
