/** The shifts' SQL beyond the engine's: the expressions the resource declares for its filters and read scope. */
import { sql, type SQL } from 'drizzle-orm';
import type { Condition } from '../../http/ndata.js';
import { compare } from '../../engine/repo.js';

/**
 * `State=` on the column that keeps it (is_open), so `State=Open` reads the open shifts from their
 * index; the ordering operators compare the state's text, as for any enum.
 */
export function stateSql(c: Condition): SQL {
  if (c.op === 'eq' || c.op === 'ne' || c.op === 'in' || c.op === 'nin') {
    return compare(sql`is_open`, { op: c.op, values: c.values.map((v) => (v === null ? null : String(v).toLowerCase() === 'open' ? 1 : 0)) });
  }
  return compare(sql`(CASE is_open WHEN 1 THEN 'Open' ELSE 'Closed' END)`, c);
}

/** The shifts of one register. */
export const ofDevice = (deviceName: string): SQL => sql`device_name = ${deviceName}`;
