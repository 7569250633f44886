/**
 * Stand-in for `whenDurable(db)` of db/client.ts (being added on main: resolves once every write
 * committed so far is on stable storage). The publisher awaits it before each batch, so switching
 * to the real one is a change of import only.
 */
import type { Db } from '../../db/client.js';

export async function whenDurable(_db: Db): Promise<void> {}
