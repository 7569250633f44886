/** The customers' SQL beyond the engine's: the expressions its filters and sorts declare. */
import { sql, type SQL } from 'drizzle-orm';
import type { Condition } from '../../http/ndata.js';
import { foldText } from '../../../db/text.js';

export const customerSql = {
  isExpired: (now: number): SQL => sql`(customers.expiration_time IS NOT NULL AND customers.expiration_time <= ${now})`,
  /** search_text holds the six fields and the card numbers folded at write time (db/text.ts), so a search is one instr() per row. */
  search: (c: Condition): SQL => {
    const any = sql.join(
      c.values.map((v) => sql`instr(coalesce(customers.search_text, ''), ${foldText(String(v ?? ''))}) > 0`),
      sql` OR `,
    );
    return c.op === 'ne' || c.op === 'nin' ? sql`NOT (${any})` : sql`(${any})`;
  },
  /** The derived status, as customerStatus() computes it. */
  status: (now: number): SQL => sql`CASE WHEN customers.expiration_time <= ${now} THEN 'Expired' WHEN customers.activation_time > ${now} THEN 'NotYetValid' ELSE 'Valid' END`,
};
