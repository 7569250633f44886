/** The ticket routes beyond the engine's CRUD: batch actions, close, preliminary bill. */
import { Router } from 'express';
import { requireObjectBody } from '../../http/body.js';
import { callerOf } from '../../http/handler.js';
import type { TicketActions } from './actions.js';
import type { TicketCloser } from './close.js';

export function ticketRouter(actions: TicketActions, closer: TicketCloser): Router {
  const router = Router();
  router.patch('/tickets', (req, res) => {
    const action = Object.entries(req.query).find(([k]) => k.toLowerCase() === 'action')?.[1];
    res.json(actions.batch(callerOf(res), Array.isArray(action) ? action[0] : action, requireObjectBody(req.body)));
  });
  router.post('/tickets/:key/close', async (req, res) => {
    res.json(await closer.close(callerOf(res), String(req.params.key), requireObjectBody(req.body)));
  });
  router.post('/tickets/:key/print_preliminary_ticket', (req, res) => {
    const body = req.body === undefined ? undefined : requireObjectBody(req.body);
    actions.preliminary(callerOf(res), String(req.params.key), body);
    res.status(204).end();
  });
  return router;
}
