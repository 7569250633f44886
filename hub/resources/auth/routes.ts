import { Router, type RequestHandler } from 'express';
import { callerOf, methodNotAllowed } from '../../http/handler.js';
import { requireObjectBody } from '../../http/body.js';
import { tokenFromHeader, type AuthService } from './service.js';

/** Attaches the caller to res.locals or answers 401. */
export function requireSession(auth: AuthService): RequestHandler {
  return (req, res, next) => {
    // A browser's EventSource cannot send headers, so the event stream also takes ?access_token=.
    const fromQuery = req.method === 'GET' && req.path === '/events' ? req.query.access_token : undefined;
    res.locals.caller = auth.authenticate(tokenFromHeader(req.headers.authorization) ?? (typeof fromQuery === 'string' ? fromQuery : undefined));
    next();
  };
}

export function authRouter(auth: AuthService): Router {
  const router = Router();
  router.post('/auth', async (req, res) => {
    res.json(await auth.login(requireObjectBody(req.body), req.socket.remoteAddress ?? 'unknown'));
  });
  router.post('/auth/refresh', (req, res) => {
    res.json(auth.refresh(requireObjectBody(req.body)));
  });
  router.get('/auth', requireSession(auth), (_req, res) => {
    res.json(auth.view(callerOf(res)));
  });
  router.delete('/auth', requireSession(auth), (_req, res) => {
    auth.logout(callerOf(res));
    res.status(204).end();
  });
  router.all('/auth', methodNotAllowed(['GET', 'POST', 'DELETE']));
  router.all('/auth/refresh', methodNotAllowed(['POST']));
  return router;
}
