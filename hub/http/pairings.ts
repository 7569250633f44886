/**
 * What a manager does with the outstanding pairing codes of one kind — a kitchen display's
 * (hub/kds), a register's (hub/registers) — under the one right that makes them: ask for a code,
 * list the codes not yet used, look one up, withdraw one. The codes themselves are PairingCodes
 * (pairing-codes.ts); what a code pairs, and how the tablet trades it, is each kind's own.
 *
 * `pairingRoutes()` declares the list, get and withdraw routes of a kind the same way for both.
 */
import { z } from 'zod';
import type { Clock } from '../core/clock.js';
import { ERR, queryResult } from './api-docs.js';
import { pageInMemory } from './list-params.js';
import { requireRight, type Caller } from './caller.js';
import { errors } from './errors.js';
import { callerOf } from './handler.js';
import type { Right } from './rights.js';
import { named, routes, type RouteSpec } from './route.js';
import { PAIRING_TTL_MS, PairingCodes, type PairingMatch, type PairingView } from './pairing-codes.js';

export class Pairings<T extends object> {
  private readonly codes: PairingCodes<T>;

  constructor(
    clock: Clock,
    /** The right that makes, lists and withdraws this kind's codes. */
    readonly right: Right,
  ) {
    this.codes = new PairingCodes(clock);
  }

  /** A new code for `target`, made by `caller` (who must hold the right). */
  issue(caller: Caller, target: T): PairingView & T & { code: string } {
    requireRight(caller, this.right);
    return this.codes.issue(target, caller.userName);
  }

  /** The codes that still work, soonest to expire first. */
  list(caller: Caller): Array<PairingView & T> {
    requireRight(caller, this.right);
    return this.codes.list();
  }

  get(caller: Caller, id: string): PairingView & T {
    requireRight(caller, this.right);
    const found = this.codes.get(id);
    if (!found) throw errors.notFound('Pairing', id);
    return found;
  }

  /** Withdraws a code before it is used (the manager showed it to the wrong screen). */
  revoke(caller: Caller, id: string): PairingView & T {
    requireRight(caller, this.right);
    const gone = this.codes.revoke(id);
    if (!gone) throw errors.notFound('Pairing', id);
    return gone;
  }

  /** The tablet's side: the pairing a code sent from `address` stands for (PairingCodes.check). */
  check(code: string, address: string): PairingMatch<T> {
    return this.codes.check(code, address);
  }

  /** Withdraws every outstanding code for which `test` holds (their target was paired another way). */
  revokeWhere(test: (pairing: PairingView & T) => boolean): void {
    this.codes.revokeWhere(test);
  }
}

/** A pairing as the API answers it: the view, with the field naming what it pairs. */
export function pairingSchema(target: string): z.ZodObject {
  return z.object({
    id: z.string(),
    [target]: z.string(),
    createdAt: z.string().meta({ format: 'date-time' }),
    createdBy: z.string().meta({ description: 'The user name of the manager who asked for the code.' }),
    expiresAt: z.string().meta({ format: 'date-time', description: `${PAIRING_TTL_MS / 60_000} minutes after createdAt.` }),
  });
}

/**
 * GET `<path>`, GET and DELETE `<path>/{id}`: the outstanding codes of one kind, for whoever holds
 * its right. `schema`: the pairing as pairingSchema() makes it; `title`: its name in the document.
 */
export function pairingRoutes<D>(kind: {
  path: string;
  operationId: string;
  tags: string[];
  /** What the codes pair, in the summaries ("register", "kitchen display"). */
  thing: string;
  title: string;
  schema: z.ZodObject;
  right: Right;
  pairings: (deps: D) => Pairings<object>;
}): Array<RouteSpec<D>> {
  const id = z.object({ id: z.string() });
  const one = named(kind.title, kind.schema);
  const managerOnly = ERR.missingRight(`Without ${kind.right}.`);
  const requires = `Requires ${kind.right}.`;
  const sortKeys = Object.keys(kind.schema.shape);
  return routes<D>((route) => [
    route({
      method: 'get',
      path: kind.path,
      operationId: `${kind.operationId}.list`,
      tags: kind.tags,
      summary: `${kind.thing[0].toUpperCase()}${kind.thing.slice(1)} codes not yet used nor expired (without the codes)`,
      description: `${requires} Soonest to expire first.`,
      rights: [kind.right],
      list: { what: `${kind.thing} pairings`, filters: {}, sortKeys: [...sortKeys], tieBreak: '`id` ascending', defaultOrder: '`expiresAt` ascending (soonest to expire first)', example: '-createdAt' },
      responses: { 200: { description: 'The outstanding pairings.', schema: queryResult(kind.schema) } },
      errors: [ERR.validation('A sort key that is not a member of the pairing, a query parameter that is not one of the list\'s, `$take` out of range; `errors[0].memberName` names it.'), ERR.unauthenticated(), managerOnly],
      handler: (deps) => ({ list }, _req, res) => {
        res.json(pageInMemory(kind.pairings(deps).list(callerOf(res)), list, { key: 'id', sortKeys, what: `${kind.thing} pairings` }));
      },
    }),
    route({
      method: 'get',
      path: `${kind.path}/{id}`,
      operationId: `${kind.operationId}.get`,
      tags: kind.tags,
      summary: `One outstanding ${kind.thing} pairing`,
      description: requires,
      rights: [kind.right],
      params: id,
      responses: { 200: { description: 'The pairing.', schema: one } },
      errors: [ERR.unauthenticated(), managerOnly, ERR.notFound('No outstanding pairing has this id (used, expired or withdrawn).')],
      handler: (deps) => ({ params }, _req, res) => {
        res.json(kind.pairings(deps).get(callerOf(res), params.id));
      },
    }),
    route({
      method: 'delete',
      path: `${kind.path}/{id}`,
      operationId: `${kind.operationId}.delete`,
      tags: kind.tags,
      summary: `Withdraw a ${kind.thing} code before it is used`,
      description: requires,
      rights: [kind.right],
      params: id,
      responses: { 200: { description: 'The withdrawn pairing.', schema: one } },
      errors: [ERR.unauthenticated(), managerOnly, ERR.notFound('No outstanding pairing has this id.')],
      handler: (deps) => ({ params }, _req, res) => {
        res.json(kind.pairings(deps).revoke(callerOf(res), params.id));
      },
    }),
  ]);
}
