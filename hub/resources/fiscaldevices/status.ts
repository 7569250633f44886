/**
 * The `status` of fiscal devices: what the hub last saw of each device (online, paper, lastError,
 * fiscal memory serial, day number), kept up to date by every device call and by a periodic poll.
 *
 * Status is an observation, not configuration: it is stored beside the fiscal device (in the meta
 * table) and merged into the document when it is read, so a status refresh neither changes `_v`
 * nor enters the change log. A manager's PUT with the `_v` they read is therefore never refused
 * because a poll ran in between, and registers are not woken by a change event every poll.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';

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
