/**
 * The statements of migration 0018 that repair the running sales totals of a hub whose backfill counted
 * tickets twice (issue 28): everything after its ALTER TABLE and CREATE INDEX of `sales_counted` up to
 * and including the clean-up of the old backfill's meta keys. Tests run them on a database that already
 * has the column, as an upgraded hub would have run them once.
 */
import { readFileSync } from 'node:fs';

export function salesRepairStatements(): string[] {
  const migration = readFileSync(new URL('../../db/migrations/0018_sales_shifts_audit.sql', import.meta.url), 'utf8');
  const parts = migration.split('--> statement-breakpoint');
  const last = parts.findIndex((p) => p.includes('DELETE FROM `meta`'));
  if (last < 2) throw new Error('migration 0018 no longer holds the sales totals repair');
  return parts.slice(2, last + 1);
}
