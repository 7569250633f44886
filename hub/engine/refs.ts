/** Reference checks used by hooks: a body that names something that does not exist is a 400. */
import { errors } from '../http/errors.js';
import type { EngineContext, ResourceDef } from './define.js';
import { getStored } from './repo.js';

export function requireExisting(ctx: EngineContext, def: ResourceDef, key: string | number, member: string): void {
  if (!getStored(ctx.db, def, key)) throw errors.member(member, 'error.notFound', { resource: def.title, key });
}

export const bool = (b: unknown): number => (b ? 1 : 0);
