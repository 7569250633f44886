/**
 * The fiscal devices' SQL: their configuration as the device layer needs it, which ones to watch,
 * and their `status`.
 *
 * The `status` of fiscal devices: what the hub last saw of each device (online, paper, lastError,
 * fiscal memory serial, day number), kept up to date by every device call and by a periodic poll.
 *
 * Status is an observation, not configuration: it is stored beside the fiscal device (in the meta
 * table) and merged into the document when it is read, so a status refresh neither changes `_v`
 * nor enters the change log. A manager's PUT with the `_v` they read is therefore never refused
 * because a poll ran in between, and registers are not woken by a change event every poll.
 */
import { sql } from 'drizzle-orm';
import { rawSql, type Db } from '../../../db/client.js';
import type { FiscalDeviceConfig } from '../../../drivers/fiscal/types.js';

export interface FiscalStatus {
  online: boolean | null;
  paper: 'ok' | 'low' | 'out' | 'unknown';
  lastError: string | null;
  fiscalMemorySerialNumber: string | null;
  dailySalesReportNumber: number | null;
}

export const UNKNOWN_STATUS: FiscalStatus = { online: null, paper: 'unknown', lastError: null, fiscalMemorySerialNumber: null, dailySalesReportNumber: null };

const metaKey = (name: string) => `fiscalstatus:${name}`;

export function readFiscalStatus(db: Db, name: string): FiscalStatus {
  const row = db.get<{ value: string }>(sql`SELECT value FROM meta WHERE key = ${metaKey(name)}`);
  return row ? { ...UNKNOWN_STATUS, ...(JSON.parse(row.value) as Partial<FiscalStatus>) } : { ...UNKNOWN_STATUS };
}

export function writeFiscalStatus(db: Db, name: string, status: FiscalStatus): void {
  db.run(sql`INSERT INTO meta (key, value) VALUES (${metaKey(name)}, ${JSON.stringify(status)})
             ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
}

export function forgetFiscalStatus(db: Db, name: string): void {
  db.run(sql`DELETE FROM meta WHERE key = ${metaKey(name)}`);
}

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
