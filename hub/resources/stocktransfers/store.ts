/** The stock transfers' SQL beyond the engine's: numbering lookups, a plu's stock row, filter expressions. */
import { sql, type SQL } from 'drizzle-orm';
import { rawSql, type Db } from '../../../db/client.js';
import type { Condition } from '../../http/ndata.js';
import { compare } from '../../engine/repo.js';
import type { SqlValue } from '../../engine/define.js';

/** Whether a document number is in use already. */
export function documentNumberTaken(db: Db, documentNumber: string): boolean {
  return !!rawSql.get(db, 'SELECT 1 AS hit FROM stock_transfers WHERE document_number = ?', [documentNumber]);
}

/** The id of the active numbering of a transfer type. */
export function activeNumberingId(db: Db, type: string): string | undefined {
  return rawSql.get<{ id: string }>(db, 'SELECT id FROM stock_transfer_numberings WHERE type = ? AND is_active = 1 LIMIT 1', [type])?.id;
}

/** The name of a user (as it is now), for documents the hub makes in their name; undefined for an unknown user. */
export function userDisplayName(db: Db, userName: string): string | undefined {
  // In any letter case beyond ASCII, as names are unique and log in (auth/repo.ts findUserByName); the exact spelling first.
  return (
    rawSql.get<{ name: string | null }>(
      db,
      "SELECT json_extract(doc, '$.name') AS name FROM users WHERE lowercase(user_name) = lowercase(?) ORDER BY user_name = ? DESC LIMIT 1",
      [userName, userName],
    )?.name ?? undefined
  );
}

export interface PluRow {
  id: string;
  v: number;
  doc: string;
  type: string;
}

/** A plu as stored, by code and stock (its stock quantity moves with transfers). */
export function pluRow(db: Db, ref: { code: number; stockName: string }): PluRow | undefined {
  return rawSql.get<PluRow>(db, 'SELECT id, v, doc, type FROM plus WHERE stock_name = ? AND code = ?', [ref.stockName, ref.code]);
}

/** The same with every column of the row (a stock movement then rewrites only the quantity's: engine putStored). */
export function pluRowWithColumns(db: Db, ref: { code: number; stockName: string }): (PluRow & Record<string, SqlValue>) | undefined {
  return rawSql.get<PluRow & Record<string, SqlValue>>(db, 'SELECT * FROM plus WHERE stock_name = ? AND code = ?', [ref.stockName, ref.code]);
}

export const transferSql = {
  /** A transfer concerns a stock when it leaves it, enters it, or moves one of its plus. */
  stockName: (c: Condition): SQL => {
    // Every transfer concerns a stock, so none has a missing stockName (CONTRACT §4: `null` means missing):
    // eq:null matches none and ne:null all, as for the list members itemPluCode and itemPluStockName.
    if ((c.op === 'eq' || c.op === 'ne') && c.values[0] === null) return c.op === 'eq' ? sql`0` : sql`1`;
    const positive = c.op === 'ne' ? { op: 'eq' as const, values: c.values } : c.op === 'nin' ? { op: 'in' as const, values: c.values } : c;
    const any = sql`(${compare(sql`stock_transfers.source_stock_name`, positive)} OR ${compare(sql`stock_transfers.target_stock_name`, positive)}
      OR EXISTS (SELECT 1 FROM stock_transfer_items i WHERE i.transfer_id = stock_transfers.id AND ${compare(sql`i.plu_stock_name`, positive)}))`;
    // A missing source or target compares as NULL; the negation must still hold there.
    return positive === c ? any : sql`NOT coalesce(${any}, 0)`;
  },
  /** Sorts by the stock left, else the one entered, else the lowest item stock. */
  stockNameSort: (): SQL => sql`coalesce(stock_transfers.source_stock_name, stock_transfers.target_stock_name,
      (SELECT min(i.plu_stock_name) FROM stock_transfer_items i WHERE i.transfer_id = stock_transfers.id))`,
};
