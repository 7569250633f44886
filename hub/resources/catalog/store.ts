/** The catalog's SQL (catalog.ts): a ticket's plus in one statement, the active order endpoints. */
import { rawSql, type Db } from '../../../db/client.js';

/** What the catalog keeps of a plu (catalog.ts): its pricing, VAT and kitchen routing. */
export interface CatalogPluRow {
  id: string;
  stock_name: string;
  code: number;
  name: string;
  type: string;
  unit_price: number | null;
  vat_rate: number | null;
  vat_category: number | null;
  endpoint_names: string | null;
  category: string | null;
}

const CATALOG_PLU = `SELECT id, stock_name, code, name, type, category, json_extract(doc, '$.unitPrice.amount') AS unit_price,
  json_extract(doc, '$.vatInfo.rate') AS vat_rate, json_extract(doc, '$.vatInfo.category') AS vat_category,
  json_extract(doc, '$.orderEndpointNames') AS endpoint_names FROM plus`;

/** The plus of `refs` in one statement (each found by the unique index on stock and code). */
export function catalogPluRows(db: Db, refs: ReadonlyArray<{ code: number; stockName: string }>): CatalogPluRow[] {
  if (refs.length === 1) return rawSql.all<CatalogPluRow>(db, `${CATALOG_PLU} WHERE stock_name = ? AND code = ?`, [refs[0].stockName, refs[0].code]);
  const pairs = refs.map(() => '(?, ?)').join(', ');
  return rawSql.all<CatalogPluRow>(db, `${CATALOG_PLU} WHERE (stock_name, code) IN (VALUES ${pairs})`, refs.flatMap((r) => [r.stockName, r.code]));
}

/** Active order endpoints by name → type, the categories routed to them and the endpoint they mirror. */
export function activeEndpointTypes(db: Db): Map<string, { type: string; categories: string[]; mirrorOf: string | null }> {
  const rows = rawSql.all<{ name: string; type: string; categories: string | null; mirrorOf: string | null }>(
    db,
    "SELECT name, type, json_extract(doc, '$.categoryNames') AS categories, json_extract(doc, '$.mirrorOf') AS mirrorOf FROM order_endpoints WHERE is_active = 1",
    [],
  );
  return new Map(rows.map((e) => [e.name, { type: e.type, categories: e.categories ? (JSON.parse(e.categories) as string[]) : [], mirrorOf: e.mirrorOf ?? null }]));
}

