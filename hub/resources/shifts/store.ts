/** The shifts' SQL beyond the engine's: the expressions the resource declares for its filters and read scope. */
import { sql, type SQL } from 'drizzle-orm';

/** `state` from the column that keeps it (is_open). */
export const stateSql = (): SQL => sql`(CASE is_open WHEN 1 THEN 'Open' ELSE 'Closed' END)`;

/** The shifts of one register. */
export const ofDevice = (deviceName: string): SQL => sql`device_name = ${deviceName}`;
