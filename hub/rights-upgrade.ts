/**
 * When a new version of the hub brings new rights, users who held every right before (the admin)
 * get the new ones too; without this, an upgraded store would have rights nobody may grant.
 * The rights known to the data directory are kept in the meta table.
 */
import { inTransaction, type Db } from '../db/client.js';
import { RIGHTS } from './http/rights.js';
import type { Clock } from './core/clock.js';
import { putStored, readDoc } from './engine/repo.js';
import { users } from './resources/users/resource.js';
import { allStoredUsers } from './resources/users/store.js';
import { getMeta, setMeta, setMetaOnce } from './core/meta-store.js';

const KEY = 'rights.known';

export function grantNewRights(db: Db, clock: Clock): string[] {
  return inTransaction(db, () => {
    const stored = getMeta(db, KEY);
    const known = stored ? (JSON.parse(stored) as string[]) : null;
    const added = known ? RIGHTS.filter((r) => !known.includes(r)) : [];
    if (known && added.length) {
      for (const u of allStoredUsers(db)) {
        const doc = readDoc(users, u.doc);
        const holds = new Set<string>(doc.rights);
        if (known.every((r) => holds.has(r))) {
          putStored(db, users, u.id, { ...doc, rights: [...doc.rights, ...added] }, u.v + 1, clock.now().getTime());
        }
      }
    }
    setMeta(db, KEY, JSON.stringify(RIGHTS));
    return added;
  });
}

/**
 * A new data directory knows every right of this version from the start (bootstrap calls it): a store
 * made by a script, never started by the hub, would otherwise give the next version's rights to nobody.
 */
export function recordKnownRights(db: Db): void {
  setMetaOnce(db, KEY, JSON.stringify(RIGHTS));
}
