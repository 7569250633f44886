/**
 * The audit's SQL (issue 28, point 6): its events written in the transaction of the write or close
 * that makes them, and summed per local day, user and kind for the audit report.
 */
import { rawSql, type Db } from '../../db/client.js';
import { auditEvents, type AuditEvent } from './audit.js';

/** Stores events (inside the caller's transaction). Version 1 and no change-log entry: like the sales totals, derived data. */
export function insertAuditEvents(db: Db, events: AuditEvent[]): void {
  for (const e of events) {
    const c = auditEvents.columns(e);
    rawSql.run(db, 'INSERT INTO audit_events (id, v, doc, at, day, kind, user_name, ticket_id, amount) VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?)', [
      e.id,
      JSON.stringify(e),
      c.at,
      c.day,
      c.kind,
      c.user_name,
      c.ticket_id,
      c.amount,
    ]);
  }
}

/**
 * Drops what the audit holds of a ticket's own figures (its returns and discounts): the backfill,
 * counting a ticket again after the totals were rebuilt, records them anew. Its price overrides stay:
 * recorded at the close against the list price of that moment, they cannot be made again.
 */
export function forgetCloseEvents(db: Db, ticketId: string): void {
  rawSql.run(db, "DELETE FROM audit_events WHERE ticket_id = ? AND kind IN ('Return', 'Discount')", [ticketId]);
}

export interface AuditSumRow {
  day: string;
  userName: string;
  name: string | null;
  kind: string;
  events: number;
  /** × 10^4 */
  amount: number;
  /** × 10^4 (0 where the kind has none) */
  quantity: number;
}

/** Events per local day, user and kind over [from, to] (YYYY-MM-DD, both included). */
export function auditSums(db: Db, from: string, to: string): AuditSumRow[] {
  return rawSql.all<AuditSumRow>(
    db,
    `SELECT day, user_name AS userName, max(json_extract(doc, '$.user.name')) AS name, kind, count(*) AS events, total(amount) AS amount,
            total(round(coalesce(json_extract(doc, '$.quantity'), 0) * 10000)) AS quantity
       FROM audit_events WHERE day BETWEEN ? AND ? GROUP BY day, user_name, kind ORDER BY day, user_name, kind`,
    [from, to],
  );
}
