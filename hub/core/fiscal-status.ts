/**
 * The `status` of fiscal devices: what the hub last saw of each device (online, paper, lastError,
 * fiscal memory serial, day number), kept up to date by every device call and by a periodic poll.
 *
 * Status is an observation, not configuration: it is stored beside the fiscal device (in the meta
 * table) and merged into the document when it is read, so a status refresh neither changes `_v`
 * nor enters the change log. A manager's PUT with the `_v` they read is therefore never refused
 * because a poll ran in between, and registers are not woken by a change event every poll.
 * A leaf module: the fiscal devices resource, the monitor, sessions, reports, health and metrics read it.
 */
import type { Db } from '../../db/client.js';
import { deleteMeta, getMeta, setMeta } from './meta-store.js';

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
  const value = getMeta(db, metaKey(name));
  return value === undefined ? { ...UNKNOWN_STATUS } : { ...UNKNOWN_STATUS, ...(JSON.parse(value) as Partial<FiscalStatus>) };
}

export function writeFiscalStatus(db: Db, name: string, status: FiscalStatus): void {
  setMeta(db, metaKey(name), JSON.stringify(status));
}

export function forgetFiscalStatus(db: Db, name: string): void {
  deleteMeta(db, metaKey(name));
}
