/** Mounts the generic CRUD routes of one resource: list, get, POST, PUT, DELETE, and 405 for the rest. */
import { Router } from 'express';
import { requireObjectBody } from '../http/body.js';
import { callerOf, ifMatch, methodNotAllowed } from '../http/handler.js';
import { inMethodOrder, recordMounted } from '../http/route.js';
import type { ResourceService } from './service.js';

/**
 * `alsoOn(path)`: methods other routers serve on the same path (in the document's form,
 * `/api/tickets`), so the 405's `Allow` names them too.
 */
export function resourceRouter(service: ResourceService, alsoOn: (path: string) => string[] = () => []): Router {
  const { def } = service;
  const router = Router();
  const base = `/${def.name}`;
  const one = `/${def.name}/:key`;
  const offers = (verb: 'post' | 'put' | 'delete') => !def.without?.includes(verb);
  const documented = { base: `/api/${def.name}`, one: `/api/${def.name}/{${def.key.field}}` };
  const baseMethods = ['GET', ...(offers('post') ? ['POST'] : [])];
  const oneMethods = ['GET', ...(offers('put') ? ['PUT'] : []), ...(offers('delete') ? ['DELETE'] : [])];
  for (const m of baseMethods) recordMounted(m, documented.base);
  for (const m of oneMethods) recordMounted(m, documented.one);

  router.get(base, (req, res) => {
    res.type('application/json').send(service.listJson(req.query as Record<string, unknown>, callerOf(res)));
  });
  if (offers('post')) {
    router.post(base, async (req, res) => {
      const doc = await service.create(callerOf(res), requireObjectBody(req.body));
      res.status(201).location(`/api/${def.name}/${encodeURIComponent(String(doc[def.key.field]))}`).json(doc);
    });
  }
  router.all(base, methodNotAllowed(inMethodOrder([...baseMethods, ...alsoOn(documented.base)])));

  router.get(one, (req, res) => {
    const { json, v } = service.getJson(service.parseKey(String(req.params.key)), callerOf(res));
    res.setHeader('ETag', `"${v}"`);
    res.type('application/json').send(json);
  });
  if (offers('put')) {
    router.put(one, async (req, res) => {
      const key = service.parseKey(String(req.params.key));
      const { doc, created } = await service.put(callerOf(res), key, requireObjectBody(req.body), ifMatch(req));
      res.setHeader('ETag', `"${doc._v}"`);
      if (created) res.status(201).location(`/api/${def.name}/${encodeURIComponent(String(key))}`);
      res.json(doc);
    });
  }
  if (offers('delete')) {
    router.delete(one, async (req, res) => {
      res.json(await service.remove(callerOf(res), service.parseKey(String(req.params.key)), ifMatch(req)));
    });
  }
  router.all(one, methodNotAllowed(inMethodOrder([...oneMethods, ...alsoOn(documented.one)])));
  return router;
}
