/**
 * The tickets' SQL beyond the engine's: the fiscal journal (one row per receipt asked of a device,
 * written before it is asked), the catalog lookups a ticket write makes, and the filter expressions
 * the ticket resource declares. Everything else in this folder speaks in documents.
 */
import { sql, type SQL } from 'drizzle-orm';
import { readDoc } from '../../engine/repo.js';
import { users, type User } from '../users/resource.js';
import { rawSql, type Db } from '../../../db/client.js';
import type { Receipt } from '../../../drivers/fiscal/types.js';

export interface FiscalJobRow {
  id: string;
  ticket_id: string;
  fiscal_name: string;
  state: string;
  request: string;
  last_number_before: number | null;
  /** When the job was written, just before the device was asked (the hub's clock, ms). */
  created_at: number;
}

const JOB_COLUMNS = 'id, ticket_id, fiscal_name, state, request, last_number_before, created_at';

/** Receipts whose outcome is not known yet, oldest first: of one ticket, or on one device. */
export function pendingJobs(db: Db, of: { ticketId: string } | { fiscalName: string }): FiscalJobRow[] {
  return 'ticketId' in of
    ? rawSql.all<FiscalJobRow>(db, `SELECT ${JOB_COLUMNS} FROM fiscal_jobs WHERE state = 'Pending' AND ticket_id = ? ORDER BY created_at`, [of.ticketId])
    : rawSql.all<FiscalJobRow>(db, `SELECT ${JOB_COLUMNS} FROM fiscal_jobs WHERE state = 'Pending' AND fiscal_name = ? ORDER BY created_at`, [of.fiscalName]);
}

/** Whether a receipt of this ticket may be out already (a lost reply not yet settled). */
export function hasPendingJob(db: Db, ticketId: string): boolean {
  return !!rawSql.get(db, "SELECT 1 AS hit FROM fiscal_jobs WHERE ticket_id = ? AND state = 'Pending' LIMIT 1", [ticketId]);
}

export function jobRow(db: Db, jobId: string): FiscalJobRow | undefined {
  return rawSql.get<FiscalJobRow>(db, `SELECT ${JOB_COLUMNS} FROM fiscal_jobs WHERE id = ?`, [jobId]);
}

/** What the job that issued ticket `ticketId`'s receipt recorded of it (its JSON result), if any. */
export function issuedJobResult(db: Db, ticketId: string): string | undefined {
  return rawSql.get<{ result: string | null }>(db, "SELECT result FROM fiscal_jobs WHERE ticket_id = ? AND state = 'Done' ORDER BY finished_at DESC LIMIT 1", [ticketId])?.result ?? undefined;
}

export function insertPendingJob(db: Db, job: { id: string; ticketId: string; fiscalName: string; request: unknown; lastNumberBefore: number; at: number }): void {
  rawSql.run(db, "INSERT INTO fiscal_jobs (id, ticket_id, fiscal_name, state, request, last_number_before, created_at) VALUES (?, ?, ?, 'Pending', ?, ?, ?)", [
    job.id,
    job.ticketId,
    job.fiscalName,
    JSON.stringify(job.request),
    job.lastNumberBefore,
    job.at,
  ]);
}

export function finishJob(db: Db, jobId: string, state: 'Done' | 'Failed', result: unknown, error: string | null, at: number): void {
  rawSql.run(db, 'UPDATE fiscal_jobs SET state = ?, result = ?, error = ?, finished_at = ? WHERE id = ?', [
    state,
    result === null ? null : JSON.stringify(result),
    error,
    at,
    jobId,
  ]);
}

/** The customer holding a card. */
export function customerIdOfCard(db: Db, serialNumber: string): string | undefined {
  return rawSql.get<{ id: string }>(db, 'SELECT customer_id AS id FROM customer_cards WHERE serial_number = ?', [serialNumber])?.id;
}

/** The stored document of an active user by user name (a Handover's new owner). */
export function activeUserDoc(db: Db, userName: string): User | undefined {
  // In any letter case beyond ASCII, as names are unique and log in (auth/repo.ts findUserByName); the exact spelling first.
  const doc = rawSql.get<{ doc: string }>(
    db,
    'SELECT doc FROM users WHERE lowercase(user_name) = lowercase(?) AND is_active = 1 ORDER BY user_name = ? DESC LIMIT 1',
    [userName, userName],
  )?.doc;
  return doc === undefined ? undefined : readDoc(users, doc);
}

/** Filter expressions of the ticket resource. */
export const ticketSql = {
  hasCustomer: (): SQL => sql`tickets.customer_id IS NOT NULL`,
  state: (): SQL => sql`CASE tickets.is_closed WHEN 1 THEN 'Closed' ELSE 'Opened' END`,
  table: sql`tickets`,
};

/** The receipt a fiscal device issued for ticket `ticketId` (as its close journaled it), if the hub issued one. */
export function issuedReceiptOf(db: Db, ticketId: string): Receipt | undefined {
  const row = rawSql.get<{ request: string }>(db, "SELECT request FROM fiscal_jobs WHERE ticket_id = ? AND state = 'Done' ORDER BY finished_at DESC LIMIT 1", [ticketId]);
  return row ? (JSON.parse(row.request) as { receipt: Receipt }).receipt : undefined;
}

/** The stored documents of the returns started from ticket `ticketId` (open or closed; a deleted one is gone). */
export function returnDocsOf(db: Db, ticketId: string): string[] {
  return rawSql.all<{ doc: string }>(db, 'SELECT doc FROM tickets WHERE return_of = ?', [ticketId]).map((r) => r.doc);
}

/** Tickets opened and not yet closed (metrics). */
export function openTicketCount(db: Db): number {
  return rawSql.get<{ n: number }>(db, 'SELECT count(*) AS n FROM tickets WHERE is_closed = 0', [])?.n ?? 0;
}
