/**
 * The fiscal devices' SQL: their configuration as the device layer needs it, and which ones to
 * watch. (Their `status`, what the hub last saw of each, is hub/core/fiscal-status.ts.)
 */
import { sql } from 'drizzle-orm';
import { rawSql, type Db } from '../../../db/client.js';
import type { FiscalDeviceConfig } from '../../../drivers/fiscal/types.js';

interface ConfigRow {
  name: string;
  driver: string;
  is_active: number;
  address: string;
  settings: string | null;
}
const toConfig = (d: ConfigRow) => ({
  name: d.name,
  driver: d.driver,
  address: d.address,
  settings: d.settings ? (JSON.parse(d.settings) as Record<string, string>) : {},
  isActive: d.is_active === 1,
});

/** One fiscal device's configuration, as its driver takes it. */
export function fiscalDeviceConfig(db: Db, name: string): (FiscalDeviceConfig & { isActive: boolean }) | undefined {
  // A prepared text (a close asks twice): a drizzle template is built anew on every call.
  const row = rawSql.get<ConfigRow>(
    db,
    "SELECT name, driver, is_active, json_extract(doc, '$.address') AS address, json_extract(doc, '$.settings') AS settings FROM fiscal_devices WHERE name = ?",
    [name],
  );
  return row ? toConfig(row) : undefined;
}

/** The active fiscal devices, and any inactive one still holding a receipt to settle. */
export function fiscalDevicesToWatch(db: Db): FiscalDeviceConfig[] {
  return db
    .all<ConfigRow>(
      sql`SELECT name, driver, is_active, json_extract(doc, '$.address') AS address, json_extract(doc, '$.settings') AS settings FROM fiscal_devices
          WHERE is_active = 1 OR name IN (SELECT fiscal_name FROM fiscal_jobs WHERE state = 'Pending') ORDER BY name`,
    )
    .map(toConfig);
}

/** Every fiscal device by name, with its driver and whether it is active (health, metrics). */
export function fiscalDeviceList(db: Db): Array<{ name: string; driver: string; is_active: number }> {
  return db.all(sql`SELECT name, driver, is_active FROM fiscal_devices ORDER BY name`);
}

/** The tickets whose receipt on fiscal device `name` is still to settle (a lost reply: it may be out). */
export function ticketsToSettleOn(db: Db, name: string): string[] {
  return rawSql
    .all<{ ticket_id: string }>(db, "SELECT DISTINCT ticket_id FROM fiscal_jobs WHERE state = 'Pending' AND fiscal_name = ? ORDER BY ticket_id", [name])
    .map((r) => r.ticket_id);
}
