/**
 * E-mail receipts as the rest of the hub sees them: queued by a close (inside its transaction),
 * re-queued by POST /api/receipts/emails/{id}/resend, delivered by the worker.
 */
import type { Language } from '../i18n/index.js';
import type { Receipt } from '../../drivers/fiscal/types.js';
import type { Clock } from '../core/clock.js';
import { requireRight, type Caller } from '../http/caller.js';
import { errors } from '../http/errors.js';
import type { Doc } from '../engine/define.js';
import type { ResourceService } from '../engine/service.js';
import type { Outbox } from './outbox-store.js';
import { receiptMailData, renderReceipt } from './render.js';
import type { MailSettings } from './settings.js';
import type { MailWorker } from './worker.js';

/** What a close needs: queue one e-mail receipt in the caller's transaction. */
export interface ReceiptMailer {
  enqueue(input: { to: string; ticket: Doc; receipt: Receipt }): string;
}

export class ReceiptEmails implements ReceiptMailer {
  constructor(
    private readonly deps: {
      outbox: Outbox;
      settings: MailSettings;
      worker: MailWorker;
      clock: Clock;
      timeZone: string;
      /** The shop's language (POS_HUB_LOCALE) for the receipt's words. */
      language?: Language;
      /** The engine's service of /api/receipts/emails, to answer the document as GET does. */
      emails: ResourceService;
    },
  ) {}

  /**
   * Renders the receipt (shop header as set now, the ticket as closed) and stores it. Call inside
   * the close's transaction: a rollback takes the e-mail with it. The worker's wake-up is a timer,
   * so it runs after the commit.
   */
  enqueue(input: { to: string; ticket: Doc; receipt: Receipt }): string {
    const mail = renderReceipt(receiptMailData(input.ticket, input.receipt, this.deps.settings.shop(), this.deps.timeZone, this.deps.language));
    const id = this.deps.outbox.enqueue({ ticketId: String(input.ticket.id), to: input.to, ...mail, at: this.deps.clock.now().getTime() });
    this.deps.worker.notify();
    return id;
  }

  /**
   * Re-queues an e-mail (right TicketClose, from any device: the manager's web page too). A Sent or
   * Failed one starts a new delivery round: attempts from 0, a fresh give-up time, and a new
   * Message-ID (a deliberate second copy, not a retry a mail client should fold into the first).
   * A Queued one is tried now instead of after its backoff; one being sent right now is left as it is.
   */
  resend(caller: Caller, id: string): Doc {
    requireRight(caller, 'TicketClose');
    const { outbox, clock, worker, emails } = this.deps;
    const row = outbox.get(id);
    if (!row) throw errors.notFound(emails.def.title, id);
    const now = clock.now().getTime();
    if (row.state !== 'Queued') {
      outbox.update(id, { state: 'Queued', attempts: 0, last_error: null, sent_at: null, queued_at: now, next_attempt_at: now, round: row.round + 1 }, now);
    } else if (row.sending_at === null) {
      outbox.update(id, { next_attempt_at: now }, now);
    }
    worker.notify();
    return emails.get(id);
  }
}
