/**
 * The e-mail outbox (table receipt_emails): one row per e-mail receipt, written in the close's
 * transaction and delivered by the worker after the commit. All SQL of the outbox lives here.
 *
 * The row's `doc` is what GET /api/receipts/emails answers; it is rebuilt from the typed columns
 * on every change, which also bumps `v` and appends the change log (resource `receipts/emails`),
 * so registers and the web page see a receipt go Queued → Sent | Failed.
 *
 * Delivery bookkeeping lives beside the document: `next_attempt_at` (backoff), `queued_at` (start
 * of the current delivery round, the give-up clock), `round` (bumped by a resend: a new Message-ID)
 * and `sending_at`, set and committed right before the SMTP call and cleared with its outcome. A
 * row found with `sending_at` set when the hub starts was interrupted mid-send.
 */
import { sql } from 'drizzle-orm';
import { inTransaction, whenDurable, type Db } from '../../db/client.js';
import type { Doc } from '../engine/define.js';
import { appendChange } from '../engine/change-log.js';
import { newId } from '../core/ids.js';

export const EMAIL_STATES = ['Queued', 'Sent', 'Failed'] as const;
export type EmailState = (typeof EMAIL_STATES)[number];

/** The change-log resource name and the path below /api. */
export const EMAILS_RESOURCE = 'receipts/emails';

export interface OutboxRow {
  id: string;
  v: number;
  ticket_id: string;
  to_address: string;
  state: EmailState;
  attempts: number;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
  queued_at: number;
  next_attempt_at: number;
  sending_at: number | null;
  round: number;
  subject: string;
  text_body: string;
  html_body: string;
}

const COLUMNS = sql.raw(
  'id, v, ticket_id, to_address, state, attempts, last_error, created_at, sent_at, queued_at, next_attempt_at, sending_at, round, subject, text_body, html_body',
);

/** The document the API answers (without `_v`, which the engine adds from the row). */
export function presentRow(r: Pick<OutboxRow, 'id' | 'ticket_id' | 'to_address' | 'state' | 'attempts' | 'last_error' | 'created_at' | 'sent_at'>): Doc {
  return {
    id: r.id,
    ticketId: r.ticket_id,
    to: r.to_address,
    state: r.state,
    attempts: r.attempts,
    lastError: r.last_error,
    createdAt: new Date(r.created_at).toISOString(),
    sentAt: r.sent_at === null ? null : new Date(r.sent_at).toISOString(),
  };
}

/** Changes the worker or a resend makes to a row. */
type Patch = Partial<Pick<OutboxRow, 'state' | 'attempts' | 'last_error' | 'sent_at' | 'queued_at' | 'next_attempt_at' | 'sending_at' | 'round'>>;

export class Outbox {
  constructor(private readonly db: Db) {}

  /** Inside the caller's transaction (the close): the e-mail exists if and only if the close does. */
  enqueue(input: { ticketId: string; to: string; subject: string; text: string; html: string; at: number }): string {
    const id = newId();
    const row = { id, ticket_id: input.ticketId, to_address: input.to, state: 'Queued' as const, attempts: 0, last_error: null, created_at: input.at, sent_at: null };
    this.db.run(
      sql`INSERT INTO receipt_emails (id, v, doc, ticket_id, to_address, state, attempts, created_at, queued_at, next_attempt_at, round, subject, text_body, html_body)
          VALUES (${id}, 1, ${JSON.stringify(presentRow(row))}, ${input.ticketId}, ${input.to}, 'Queued', 0, ${input.at}, ${input.at}, ${input.at}, 0,
                  ${input.subject}, ${input.text}, ${input.html})`,
    );
    appendChange(this.db, EMAILS_RESOURCE, id, 'upsert', 1, input.at);
    return id;
  }

  get(id: string): OutboxRow | undefined {
    return this.db.get<OutboxRow>(sql`SELECT ${COLUMNS} FROM receipt_emails WHERE id = ${id}`);
  }

  /** The queued e-mail that is due first (not in flight). */
  nextDue(now: number): OutboxRow | undefined {
    return this.db.get<OutboxRow>(
      sql`SELECT ${COLUMNS} FROM receipt_emails WHERE state = 'Queued' AND sending_at IS NULL AND next_attempt_at <= ${now}
          ORDER BY next_attempt_at, created_at, id LIMIT 1`,
    );
  }

  /** When the next queued e-mail falls due, or null when none waits. */
  nextDueAt(): number | null {
    return this.db.get<{ at: number | null }>(sql`SELECT min(next_attempt_at) AS at FROM receipt_emails WHERE state = 'Queued' AND sending_at IS NULL`)?.at ?? null;
  }

  /**
   * Every queued e-mail waiting out its backoff falls due at `now` (new SMTP settings: the fix the
   * backoff was waiting for may just have been made). Not in the document, so no new version.
   */
  dueNow(now: number): void {
    this.db.run(sql`UPDATE receipt_emails SET next_attempt_at = ${now} WHERE state = 'Queued' AND sending_at IS NULL AND next_attempt_at > ${now}`);
  }

  /** Rows a previous run left mid-send. */
  interrupted(): OutboxRow[] {
    return this.db.all<OutboxRow>(sql`SELECT ${COLUMNS} FROM receipt_emails WHERE sending_at IS NOT NULL`);
  }

  /**
   * Marks the row as being sent, committed before a byte goes to the server (better-sqlite3 runs
   * each statement in its own transaction). False when it is no longer due (a resend or another tick took it).
   */
  /** Resolves once the outbox's writes so far (a claim, the close that queued the e-mail) are on disk. */
  whenDurable(): Promise<void> {
    return whenDurable(this.db);
  }

  claim(id: string, now: number): boolean {
    return this.db.run(sql`UPDATE receipt_emails SET sending_at = ${now} WHERE id = ${id} AND state = 'Queued' AND sending_at IS NULL`).changes === 1;
  }

  /** Applies a change to the row, rebuilding its document, `v` and a change-log entry, in one transaction. */
  update(id: string, patch: Patch, at: number): OutboxRow | undefined {
    return inTransaction(this.db, () => {
      const current = this.get(id);
      if (!current) return undefined;
      const next: OutboxRow = { ...current, ...patch };
      const documented = JSON.stringify(presentRow(next)) !== JSON.stringify(presentRow(current));
      const v = documented ? current.v + 1 : current.v;
      this.db.run(
        sql`UPDATE receipt_emails SET v = ${v}, doc = ${JSON.stringify(presentRow(next))}, state = ${next.state}, attempts = ${next.attempts},
            last_error = ${next.last_error}, sent_at = ${next.sent_at}, queued_at = ${next.queued_at}, next_attempt_at = ${next.next_attempt_at},
            sending_at = ${next.sending_at}, round = ${next.round} WHERE id = ${id}`,
      );
      if (documented) appendChange(this.db, EMAILS_RESOURCE, id, 'upsert', v, at);
      return { ...next, v };
    });
  }

  /** Queued and Failed e-mails, for the health check. */
  depth(): { queued: number; failed: number } {
    const rows = this.db.all<{ state: string; n: number }>(sql`SELECT state, count(*) AS n FROM receipt_emails WHERE state <> 'Sent' GROUP BY state`);
    const n = (s: string) => rows.find((r) => r.state === s)?.n ?? 0;
    return { queued: n('Queued'), failed: n('Failed') };
  }
}
