/** The stocks' SQL beyond the engine's. */
import { rawSql, type Db } from '../../../db/client.js';

/** How many plus a stock holds. */
export function plusInStock(db: Db, stockName: string): number {
  return rawSql.get<{ n: number }>(db, 'SELECT count(*) AS n FROM plus WHERE stock_name = ?', [stockName])?.n ?? 0;
}
