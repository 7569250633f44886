/** The plus' SQL beyond the engine's. */
import { sql, type SQL } from 'drizzle-orm';
import { rawSql, type Db } from '../../../db/client.js';

/** True when a plu with this code exists in this stock. */
export function pluExists(db: Db, ref: { code: number; stockName: string }): boolean {
  return !!rawSql.get(db, 'SELECT 1 AS hit FROM plus WHERE stock_name = ? AND code = ?', [ref.stockName, ref.code]);
}

/** A plu's name, by code and stock. */
export function pluName(db: Db, ref: { code: number; stockName: string }): string | undefined {
  return rawSql.get<{ name: string }>(db, 'SELECT name FROM plus WHERE stock_name = ? AND code = ?', [ref.stockName, ref.code])?.name;
}

/** A StockItem whose stock is below its minimum quantity (filter IsBelowMinimum). */
export const belowMinimum = (): SQL => sql`(plus.minimum_quantity IS NOT NULL AND plus.stock_quantity < plus.minimum_quantity)`;

/** True when a modifier with this id exists (a plu's modifierIds; read here, not through the modifiers resource, which imports the plus'). */
export function modifierExists(db: Db, id: string): boolean {
  return !!rawSql.get(db, 'SELECT 1 AS hit FROM modifiers WHERE id = ?', [id]);
}

/** A plu's type and, for a recipe, its parts' plus as stored; undefined when no plu has this code in this stock. */
export function recipePartsOf(db: Db, ref: { code: number; stockName: string }): { type: string; parts: Array<{ code: number; stockName: string }> } | undefined {
  const row = rawSql.get<{ type: string; parts: string | null }>(db, "SELECT type, json_extract(doc, '$.receipt') AS parts FROM plus WHERE stock_name = ? AND code = ?", [
    ref.stockName,
    ref.code,
  ]);
  if (!row) return undefined;
  const parts = row.type === 'Recipe' && row.parts ? (JSON.parse(row.parts) as Array<{ pluId: { code: number; stockName: string } }>) : [];
  return { type: row.type, parts: parts.map((p) => ({ code: p.pluId.code, stockName: p.pluId.stockName })) };
}
