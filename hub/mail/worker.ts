/**
 * The outbox worker: delivers queued e-mail receipts through SMTP, one at a time, with retries
 * and exponential backoff, until the server takes them (Sent), refuses them for good (a 5xx
 * reply: Failed), or the give-up time passes (Failed).
 *
 * Never twice, as far as SMTP allows. SMTP has no idempotency: a message is delivered when the
 * server answers 250 to its data, and nothing lets a client ask afterwards. So:
 * - the row is marked `sending` and committed before the first byte goes out, and the Sent state is
 *   committed synchronously on the 250, with no await between, so the only gap in which a crash
 *   leaves a delivered e-mail looking unsent is between the server's 250 and that commit;
 * - a shutdown waits for the send in flight (bounded), so a SIGTERM does not open that gap;
 * - a row found `sending` at start-up is sent again: losing a receipt is worse than a duplicate,
 *   and the duplicate carries the same Message-ID (derived from the outbox id), so mail clients
 *   and the customer can tell it for what it is. Its lastError says so;
 * - a send whose data went out but whose reply was lost (a dropped connection, a timeout) is retried
 *   like any failure that may pass: the server may or may not have taken it, only a 250 says so.
 *
 * Time comes from the injected clock and timers, so tests move hours in milliseconds.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { Outbox, OutboxRow } from './outbox-store.js';
import { addressOf } from '../core/rules.js';
import { type MailSettings, type SmtpServer } from './settings.js';
import { classifySendError, smtpSender, type MailSender } from './smtp.js';

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** Real timers that do not keep the process alive (the HTTP server does). */
export const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms).unref(),
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface RetryPolicy {
  /** The wait after the first failed attempt; each further failure doubles it. */
  firstMs: number;
  /** The longest wait between two attempts. */
  maxMs: number;
  /** From queueing (or a resend) until an e-mail that still cannot be delivered is Failed. */
  giveUpMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { firstMs: 15_000, maxMs: 3_600_000, giveUpMs: 48 * 3_600_000 };

/** The wait after `failed` failed attempts (≥ 1): first, 2×first, 4×first, … at most maxMs. */
export function retryDelay(policy: RetryPolicy, failed: number): number {
  return Math.min(policy.firstMs * 2 ** Math.min(Math.max(failed - 1, 0), 40), policy.maxMs);
}

/** `<id@domain>`, and `<id.N@domain>` after the N-th resend: a resend is a new message, a retry is not. */
export function messageIdOf(row: Pick<OutboxRow, 'id' | 'round'>, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)$/.exec(addressOf(from))?.[1] ?? 'pos-hub.invalid';
  return `<${row.id}${row.round ? `.${row.round}` : ''}@${domain}>`;
}

export const INTERRUPTED =
  'The hub stopped while this e-mail was being sent, so whether the server took it is unknown; it is sent again ' +
  '(a duplicate carries the same Message-ID).';

export interface DeliveryReport {
  sent: number;
  retried: number;
  failed: number;
}

export interface MailWorkerDeps {
  outbox: Outbox;
  settings: MailSettings;
  clock: Clock;
  log: Logger;
  timers?: Timers;
  retry?: RetryPolicy;
  /** How a server becomes a sender (tests keep the real one; it is the seam for other transports). */
  senderFor?: (server: SmtpServer) => MailSender;
  /** A send that takes longer is abandoned (and retried). */
  sendTimeoutMs?: number;
}

export class MailWorker {
  readonly retry: RetryPolicy;
  private readonly timers: Timers;
  private timer: unknown = null;
  private started = false;
  private stopping = false;
  private running: Promise<DeliveryReport> | null = null;
  private ticking: Promise<void> | null = null;
  private again = false;
  /** Set after a failure that is not the message's own: nothing is tried before then. */
  private pausedUntil = 0;
  private reachable = true;
  private sender: { key: string; sender: MailSender } | null = null;
  private readonly abort = new AbortController();

  constructor(private readonly deps: MailWorkerDeps) {
    this.timers = deps.timers ?? realTimers;
    this.retry = deps.retry ?? DEFAULT_RETRY;
  }

  /** Settles sends a previous run left in flight, then delivers whatever is due, now and whenever more falls due. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.recoverInterrupted();
    this.schedule(0);
  }

  /** Something may be due now: an e-mail queued, a resend, new settings. */
  notify(): void {
    this.pausedUntil = 0;
    if (this.started && !this.stopping) this.schedule(0);
  }

  /** Stops scheduling; waits up to `graceMs` for the send in flight, then aborts it (it stays queued). */
  async stop(graceMs = 3000): Promise<void> {
    this.stopping = true;
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    const running = this.running?.catch(() => undefined);
    if (running) {
      let t: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (t = setTimeout(resolve, graceMs)));
      await Promise.race([running, grace]);
      clearTimeout(t);
      this.abort.abort(new Error('the hub is shutting down'));
      await running;
    }
    this.sender?.sender.close();
    this.sender = null;
  }

  private recoverInterrupted(): void {
    const now = this.deps.clock.now().getTime();
    for (const row of this.deps.outbox.interrupted()) {
      this.deps.log.warn({ emailId: row.id, ticketId: row.ticket_id }, 'an e-mail receipt was being sent when the hub stopped; sending it again');
      this.deps.outbox.update(row.id, { sending_at: null, attempts: row.attempts + 1, last_error: INTERRUPTED, next_attempt_at: now }, now);
    }
  }

  private schedule(ms: number): void {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = this.timers.set(() => {
      this.timer = null;
      const t = this.tick().finally(() => {
        if (this.ticking === t) this.ticking = null;
      });
      this.ticking = t;
    }, ms);
  }

  /** Resolves when no scheduled run is under way (its next timer set): what tests with fake timers wait for. */
  async whenIdle(): Promise<void> {
    while (this.ticking) await this.ticking;
  }

  private async tick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    try {
      await this.runDue();
    } catch (err) {
      this.deps.log.error({ err }, 'the e-mail outbox worker failed; it tries again later');
      this.pausedUntil = this.deps.clock.now().getTime() + this.retry.firstMs;
    }
    if (!this.stopping) this.scheduleNext();
  }

  private scheduleNext(): void {
    if (this.again) {
      this.again = false;
      this.schedule(0);
      return;
    }
    // Without a server nothing is tried; new settings call notify().
    if (!this.deps.settings.smtp()) return;
    const due = this.deps.outbox.nextDueAt();
    if (due === null) return;
    const wait = Math.max(due, this.pausedUntil) - this.deps.clock.now().getTime();
    // Re-checked at least hourly, so a clock step cannot leave the queue asleep for long.
    this.schedule(Math.min(Math.max(wait, 0), 3_600_000));
  }

  /** Delivers every e-mail that is due now, one at a time. Tests call this directly with a fake clock. */
  async runDue(): Promise<DeliveryReport> {
    while (this.running) await this.running.catch(() => undefined);
    const run = this.drain();
    this.running = run;
    try {
      return await run;
    } finally {
      this.running = null;
    }
  }

  private async drain(): Promise<DeliveryReport> {
    const report: DeliveryReport = { sent: 0, retried: 0, failed: 0 };
    const server = this.deps.settings.smtp();
    if (!server) return report;
    const sender = this.senderFor(server);
    for (;;) {
      const now = this.deps.clock.now().getTime();
      if (this.stopping || now < this.pausedUntil) break;
      const row = this.deps.outbox.nextDue(now);
      if (!row) break;
      if (!this.deps.outbox.claim(row.id, now)) continue;
      // No e-mail for a sale a power cut could still take back; the claim is on disk before a retry could miss it.
      await this.deps.outbox.whenDurable();
      const outcome = await this.deliver(row, server, sender);
      report[outcome]++;
    }
    return report;
  }

  private senderFor(server: SmtpServer): MailSender {
    const key = JSON.stringify(server);
    if (this.sender?.key !== key) {
      this.sender?.sender.close();
      this.sender = { key, sender: (this.deps.senderFor ?? smtpSender)(server) };
    }
    return this.sender.sender;
  }

  private async deliver(row: OutboxRow, server: SmtpServer, sender: MailSender): Promise<'sent' | 'retried' | 'failed'> {
    const { outbox, clock, log } = this.deps;
    const messageId = messageIdOf(row, server.from);
    const signal = AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.deps.sendTimeoutMs ?? 120_000)]);
    let response: string;
    try {
      ({ response } = await sender.send(
        {
          from: server.from,
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body,
          messageId,
          date: clock.now(),
          headers: { 'X-POS-Hub-Receipt': row.id, 'X-POS-Hub-Ticket': row.ticket_id },
        },
        signal,
      ));
    } catch (e) {
      return this.failed(row, e);
    }
    // No await between the server's 250 and this commit: the only window for a duplicate.
    const now = clock.now().getTime();
    outbox.update(row.id, { state: 'Sent', sent_at: now, sending_at: null, attempts: row.attempts + 1, last_error: null }, now);
    if (!this.reachable) log.info({ host: server.host }, 'the SMTP server takes e-mail again');
    this.reachable = true;
    log.info({ emailId: row.id, ticketId: row.ticket_id, messageId, response }, 'e-mail receipt sent');
    return 'sent';
  }

  private failed(row: OutboxRow, e: unknown): 'retried' | 'failed' {
    const { outbox, clock, log } = this.deps;
    const failure = classifySendError(e);
    const now = clock.now().getTime();
    const attempts = row.attempts + 1;
    const deadline = row.queued_at + this.retry.giveUpMs;
    if (failure.serverWide) {
      // Logged once per outage, not once per retry.
      if (this.reachable) log.warn({ err: failure.message }, 'the SMTP server does not take e-mail now; e-mail receipts wait in the outbox');
      this.reachable = false;
    }
    if (failure.permanent || now >= deadline) {
      const why = failure.permanent ? failure.message : `Gave up after ${attempts} attempts: ${failure.message}`;
      outbox.update(row.id, { state: 'Failed', sending_at: null, attempts, last_error: why }, now);
      log.warn({ emailId: row.id, ticketId: row.ticket_id, err: why }, 'e-mail receipt failed');
      return 'failed';
    }
    // The last attempt falls on the deadline rather than past it.
    const next = Math.min(now + retryDelay(this.retry, attempts), deadline);
    outbox.update(row.id, { sending_at: null, attempts, last_error: failure.message, next_attempt_at: next }, now);
    if (failure.serverWide) this.pausedUntil = next;
    return 'retried';
  }
}
