/** The categories' SQL beyond the engine's: what still refers to a category. */
import { rawSql, type Db } from '../../../db/client.js';

/** How many plus are in a category, and which order endpoints route it. */
export function categoryUse(db: Db, name: string): { plus: number; endpoints: string[] } {
  const plus = rawSql.get<{ n: number }>(db, 'SELECT count(*) AS n FROM plus WHERE category = ?', [name])?.n ?? 0;
  const endpoints = rawSql
    .all<{ name: string }>(db, "SELECT name FROM order_endpoints WHERE EXISTS (SELECT 1 FROM json_each(order_endpoints.doc, '$.categoryNames') WHERE value = ?)", [name])
    .map((r) => r.name);
  return { plus, endpoints };
}

/** The ids of the plus in a category (a rename moves each of them). */
export function pluIdsInCategory(db: Db, name: string): string[] {
  return rawSql.all<{ id: string }>(db, 'SELECT id FROM plus WHERE category = ? ORDER BY id', [name]).map((r) => r.id);
}
