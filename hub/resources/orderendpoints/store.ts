/** The order endpoints' SQL beyond the engine's: what still sends orders to an endpoint. */
import { rawSql, type Db } from '../../../db/client.js';

/** How many plus route their orders to endpoint `name`, and which endpoints mirror it. */
export function endpointUse(db: Db, name: string): { plus: number; mirrors: string[] } {
  const plus =
    rawSql.get<{ n: number }>(db, "SELECT count(*) AS n FROM plus WHERE EXISTS (SELECT 1 FROM json_each(plus.doc, '$.orderEndpointNames') WHERE value = ?)", [name])?.n ?? 0;
  const mirrors = rawSql
    .all<{ name: string }>(db, "SELECT name FROM order_endpoints WHERE json_extract(doc, '$.mirrorOf') = ? ORDER BY name", [name])
    .map((r) => r.name);
  return { plus, mirrors };
}
