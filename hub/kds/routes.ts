/**
 * Kitchen display pairing routes. `POST /api/kds/pair` takes no token (the code is the
 * credential, like a password at POST /api/auth), so it is mounted before the session middleware;
 * the manager's routes under /api/kds/pairings sit behind it like every other resource.
 */
import { Router } from 'express';
import { requireObjectBody } from '../http/body.js';
import { callerOf, methodNotAllowed } from '../http/handler.js';
import type { KdsService } from './service.js';

export function kdsPairRouter(kds: KdsService): Router {
  const router = Router();
  router.post('/kds/pair', async (req, res) => {
    res.json(await kds.exchange(requireObjectBody(req.body), req.socket.remoteAddress ?? 'unknown'));
  });
  router.all('/kds/pair', methodNotAllowed(['POST']));
  return router;
}

export function kdsRouter(kds: KdsService): Router {
  const router = Router();
  router.get('/kds/pairings', (_req, res) => {
    const items = kds.list(callerOf(res));
    res.json({ items, count: items.length, totalCount: items.length });
  });
  router.post('/kds/pairings', (req, res) => {
    const pairing = kds.create(callerOf(res), requireObjectBody(req.body));
    res.status(201).location(`/api/kds/pairings/${pairing.id}`).json(pairing);
  });
  router.all('/kds/pairings', methodNotAllowed(['GET', 'POST']));
  router.get('/kds/pairings/:id', (req, res) => {
    res.json(kds.get(callerOf(res), String(req.params.id)));
  });
  router.delete('/kds/pairings/:id', (req, res) => {
    res.json(kds.revoke(callerOf(res), String(req.params.id)));
  });
  router.all('/kds/pairings/:id', methodNotAllowed(['GET', 'DELETE']));
  return router;
}
