/**
 * Renaming a category (issue 28). A category is keyed by its name and a plu's `category` names it, as
 * an order endpoint's `categoryNames` do, so a rename is one transaction through the engine: the
 * category is stored under its new name (its `_v` goes on from the old one's), every plu and order
 * endpoint naming it is stored again naming the new one (each with its own `_v` + 1 and change-log
 * entry, so registers following the log redraw them), and the old name is deleted from the log.
 * Either all of it commits or none. Past sales keep the name they were sold under (reports sum what was
 * sold then).
 *
 * Rights: PluUpdate (the category and its plus change); OrderEndpointUpdate too when an order endpoint
 * routes the category.
 */
import { z } from 'zod';
import { inTransaction } from '../../../db/client.js';
import { requireRight, type Caller } from '../../http/caller.js';
import { errors } from '../../http/errors.js';
import { ERR, bodyErrors, idempotencyHeader, ifMatchHeader } from '../../http/api-docs.js';
import { callerOf } from '../../http/handler.js';
import { model, routes } from '../../http/route.js';
import type { Doc } from '../../engine/define.js';
import { nameKey } from '../../engine/fields.js';
import { deleteStored, getStored } from '../../engine/repo.js';
import type { ResourceService } from '../../engine/service.js';
import { categoryUse, pluIdsInCategory } from './store.js';

export const renameSchema = z.object({
  name: nameKey().describe('The new name.'),
  _v: z.number().int().min(0).optional().describe('The expected `_v` of the category: another answers 409.'),
});

export interface RenameDeps {
  categories: ResourceService;
  plus: ResourceService;
  orderEndpoints: ResourceService;
}

export function renameCategory(deps: RenameDeps, caller: Caller, from: string, { name: to, _v }: z.output<typeof renameSchema>, expectedV?: number): Doc {
  requireRight(caller, 'PluUpdate');
  const { categories, plus, orderEndpoints } = deps;
  const ctx = categories.ctx;
  return inTransaction(ctx.db, () => {
    const stored = categories.getStored(from);
    categories.checkVersion(from, stored.v, _v, expectedV);
    if (to === from) return categories.present(stored);
    if (getStored(ctx.db, categories.def, to)) {
      throw errors.member('name', 'resource.exists', { resource: categories.def.title, key: to }, 'Unique');
    }
    const routed = categoryUse(ctx.db, from).endpoints;
    if (routed.length) requireRight(caller, 'OrderEndpointUpdate');
    // The new name first: the plus' and endpoints' own checks find it.
    const renamed = categories.store(caller, to, { ...stored.doc, name: to }, stored);
    for (const id of pluIdsInCategory(ctx.db, from)) {
      const plu = plus.getStored(id);
      plus.store(caller, id, { ...plu.doc, category: to }, plu);
    }
    for (const name of routed) {
      const endpoint = orderEndpoints.getStored(name);
      const names = [...new Set((endpoint.doc.categoryNames as string[]).map((n) => (n === from ? to : n)))];
      orderEndpoints.store(caller, name, { ...endpoint.doc, categoryNames: names }, endpoint);
    }
    deleteStored(ctx.db, categories.def, from, stored.v + 1, ctx.clock.now().getTime());
    return renamed;
  });
}

export const categoryRoutes = routes<RenameDeps>((route) => [
  route({
    method: 'post',
    path: '/api/categories/{name}/rename',
    operationId: 'categories.rename',
    tags: ['Category'],
    summary: 'Rename a category, with its products and routings',
    description:
      'Requires PluUpdate, and OrderEndpointUpdate when an order endpoint routes the category. In one transaction the category is ' +
      'stored under the new name (its `_v` follows on from the old one\'s; the change log has an upsert of the new name and a delete ' +
      'of the old one), every plu whose `category` named it is stored naming the new one, and so is every order endpoint whose ' +
      '`categoryNames` held it (each with its own `_v` + 1 and change-log entry). The same name: nothing changes. Past sales keep the ' +
      'name they were sold under.',
    rights: ['PluUpdate', 'OrderEndpointUpdate'],
    authorize: (caller) => requireRight(caller, 'PluUpdate'),
    params: z.object({ name: z.string().meta({ param: { description: 'The category’s current name.' } }) }),
    headers: idempotencyHeader().extend(ifMatchHeader('The expected `_v` (`"3"`), as `_v` in the body: another answers 409.').shape),
    body: { schema: renameSchema, required: true },
    responses: { 200: { description: 'The category under its new name.', schema: model('categories') } },
    errors: [
      ...bodyErrors('An invalid new name, or one another category has (`code: Unique`).'),
      ERR.unauthenticated(),
      ERR.missingRight('Without PluUpdate, or without OrderEndpointUpdate when an order endpoint routes the category.'),
      ERR.notFound('No category has this name.'),
      ERR.versionMismatch(),
      ERR.keyReused(),
    ],
    handler: (deps) => ({ params, headers, body }, _req, res) => {
      res.json(renameCategory(deps, callerOf(res), params.name, body, headers['If-Match']));
    },
  }),
]);
