/** Device state that must survive a restart (the fiscal simulator's memory), kept in the meta table. */
import { sql } from 'drizzle-orm';
import type { DeviceStateStore } from '../../drivers/fiscal/types.js';
import type { Db } from '../../db/client.js';

export function dbDeviceStateStore(db: Db): DeviceStateStore {
  return {
    inHubDatabase: true,
    load(key) {
      const row = db.get<{ value: string }>(sql`SELECT value FROM meta WHERE key = ${'device:' + key}`);
      return row ? JSON.parse(row.value) : undefined;
    },
    save(key, state) {
      db.run(sql`INSERT INTO meta (key, value) VALUES (${'device:' + key}, ${JSON.stringify(state)})
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
    },
  };
}
