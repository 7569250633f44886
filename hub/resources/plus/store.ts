/** The plus' SQL beyond the engine's. */
import { rawSql, type Db } from '../../../db/client.js';

/** True when a plu with this code exists in this stock. */
export function pluExists(db: Db, ref: { code: number; stockName: string }): boolean {
  return !!rawSql.get(db, 'SELECT 1 AS hit FROM plus WHERE stock_name = ? AND code = ?', [ref.stockName, ref.code]);
}
