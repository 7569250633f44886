/** The stocks' SQL beyond the engine's. */
import { rawSql, type Db } from '../../../db/client.js';

/** How many plus a stock holds. */
export function plusInStock(db: Db, stockName: string): number {
  return rawSql.get<{ n: number }>(db, 'SELECT count(*) AS n FROM plus WHERE stock_name = ?', [stockName])?.n ?? 0;
}

/** Every stock's name. */
export function stockNames(db: Db): string[] {
  return rawSql.all<{ name: string }>(db, 'SELECT name FROM stocks ORDER BY name', []).map((r) => r.name);
}

/** Every StockItem's stock, quantity and cost of one unit (null: none known), for the stock value. */
export function stockItemCosts(db: Db): Array<{ stockName: string; doc: string }> {
  return rawSql.all<{ stockName: string; doc: string }>(db, "SELECT stock_name AS stockName, doc FROM plus WHERE type = 'StockItem'", []);
}

/** The stock documents made in [from, to) (ms), oldest first (index stock_transfers_created). */
export function transfersBetween(db: Db, from: number, to: number): Array<{ doc: string }> {
  return rawSql.all<{ doc: string }>(db, 'SELECT doc FROM stock_transfers WHERE created_at >= ? AND created_at < ? ORDER BY created_at', [from, to]);
}
