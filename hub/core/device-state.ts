/** Device state that must survive a restart (the fiscal simulator's memory), kept in the meta table. */
import type { DeviceStateStore } from '../../drivers/fiscal/types.js';
import { inTransaction, type Db } from '../../db/client.js';
import { getMeta, setMeta } from './meta-store.js';

export function dbDeviceStateStore(db: Db): DeviceStateStore {
  return {
    inHubDatabase: true,
    load(key) {
      const value = getMeta(db, `device:${key}`);
      return value === undefined ? undefined : JSON.parse(value);
    },
    save(key, state) {
      // A write of the group's batch like any other (no commit of its own per receipt).
      inTransaction(db, () => setMeta(db, `device:${key}`, JSON.stringify(state)));
    },
  };
}
