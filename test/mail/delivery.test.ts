/**
 * Delivering the outbox through a real SMTP server on 127.0.0.1: a server down at close time,
 * temporary (4xx) and permanent (5xx) refusals, backoff over hours until the give-up time, a hub
 * restarted with mail queued or mid-send, and a shutdown during a send. Never twice, except where
 * SMTP itself leaves no way to know (a crash between the server's 250 and our commit), and then the
 * copy carries the same Message-ID.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../hub/core/log.js';
import { DEFAULT_RETRY, INTERRUPTED, MailWorker, retryDelay, type RetryPolicy } from '../../hub/mail/worker.js';
import { freePort } from '../support/process.js';
import { item, mailHub, type MailHub } from './fixture.js';
import { TestSmtpServer, waitFor } from './smtp-server.js';
import { FakeTimers } from './timers.js';

let m: MailHub;

beforeAll(async () => {
  m = await mailHub();
});
afterAll(() => m.stop());

const closeWithEmail = (to = 'guest@example.sk') => m.close([item(1, 2), item(3, 1)], { receipt: { email: to } });
const runDue = () => m.hub.services.mail.worker.runDue();
/** A worker as a restarted hub would make it: same database, fresh process state, timers the test moves. */
function freshWorker(retry: RetryPolicy = DEFAULT_RETRY): { worker: MailWorker; timers: FakeTimers } {
  const { outbox, settings } = m.hub.services.mail;
  const timers = new FakeTimers(m.hub.clock);
  const worker = new MailWorker({ outbox, settings, clock: m.hub.clock, log: createLogger('silent'), timers, retry });
  settings.onChange(() => worker.notify());
  return { worker, timers };
}

describe('retries', () => {
  it('a server that is down at close time: the e-mail waits, and is delivered once when the server is up', async () => {
    const port = await freePort();
    await m.useSmtp(port);
    const t = await closeWithEmail('down.then.up@example.sk');
    expect(await runDue()).toEqual({ sent: 0, retried: 1, failed: 0 });
    const [waiting] = await m.emailsOf(t.id);
    expect(waiting).toMatchObject({ state: 'Queued', attempts: 1, sentAt: null });
    expect(waiting.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(m.outboxRow(waiting.id)!.next_attempt_at).toBe(m.hub.clock.now().getTime() + DEFAULT_RETRY.firstMs);

    const late = new TestSmtpServer();
    await late.start(port);
    try {
      // Not due before its backoff has passed.
      expect(await runDue()).toEqual({ sent: 0, retried: 0, failed: 0 });
      m.hub.clock.advance(DEFAULT_RETRY.firstMs);
      expect(await runDue()).toEqual({ sent: 1, retried: 0, failed: 0 });
      m.hub.clock.advance(6 * 3600_000);
      await runDue();
      expect(m.receivedFor(t.id, late)).toHaveLength(1);
      expect(late.received[0].subject).toBe(`Receipt ${t.closeInfo.number} – Bistro Šťastie`);
      expect((await m.emailsOf(t.id))[0]).toMatchObject({ state: 'Sent', attempts: 2, lastError: null });
    } finally {
      await late.stop();
      await m.useSmtp(m.smtp.port);
    }
  });

  it('new SMTP settings are used at once for the e-mails already waiting, not after their backoff', async () => {
    const port = await freePort();
    await m.useSmtp(port);
    const t = await closeWithEmail('fixed.settings@example.sk');
    expect(await runDue()).toEqual({ sent: 0, retried: 1, failed: 0 });
    m.hub.clock.advance(DEFAULT_RETRY.firstMs - 1);
    expect(await runDue()).toEqual({ sent: 0, retried: 0, failed: 0 });
    // The manager corrects the server: the waiting receipt goes now (before: only once its backoff had passed).
    await m.useSmtp(m.smtp.port);
    expect(await runDue()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(m.receivedFor(t.id)).toHaveLength(1);
    expect((await m.emailsOf(t.id))[0]).toMatchObject({ state: 'Sent', attempts: 2, lastError: null });
  });

  it('a temporary refusal (4xx) is retried after the backoff and delivered once', async () => {
    m.smtp.refusals.push({ at: 'data', code: 451, message: 'Requested action aborted: local error in processing' });
    const t = await closeWithEmail('busy@example.sk');
    expect(await runDue()).toEqual({ sent: 0, retried: 1, failed: 0 });
    const [e] = await m.emailsOf(t.id);
    expect(e).toMatchObject({ state: 'Queued', attempts: 1 });
    expect(e.lastError).toContain('451');
    m.hub.clock.advance(DEFAULT_RETRY.firstMs);
    expect(await runDue()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(m.receivedFor(t.id)).toHaveLength(1);
    expect((await m.emailsOf(t.id))[0]).toMatchObject({ state: 'Sent', attempts: 2, lastError: null });
  });

  it('a permanent refusal (5xx) fails the e-mail at once, visible in the list, and it is not retried', async () => {
    m.smtp.refusals.push({ at: 'rcpt', code: 550, message: 'No such user here' });
    const t = await closeWithEmail('nobody@example.sk');
    expect(await runDue()).toEqual({ sent: 0, retried: 0, failed: 1 });
    const failed = (await m.hub.call('GET', `/api/receipts/emails?state=Failed&ticketId=${t.id}`)).body.items;
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ state: 'Failed', attempts: 1, sentAt: null });
    expect(failed[0].lastError).toMatch(/550.*No such user here/);
    m.hub.clock.advance(3 * 3600_000);
    await runDue();
    expect(m.receivedFor(t.id)).toEqual([]);
    expect((await m.emailsOf(t.id))[0]).toMatchObject({ state: 'Failed', attempts: 1 });
    // Fixed on the server side: a resend delivers it.
    await m.hub.call('POST', `/api/receipts/emails/${failed[0].id}/resend`);
    await runDue();
    expect(m.receivedFor(t.id)).toHaveLength(1);
  });

  it('a 503 (bad command sequence) and a refused login are not the message\'s fault: retried', async () => {
    m.smtp.refusals.push({ at: 'data', code: 503, message: 'Bad sequence of commands' });
    const t = await closeWithEmail('seq@example.sk');
    expect(await runDue()).toMatchObject({ retried: 1 });
    m.smtp.auth = { user: 'u', pass: 'p' };
    await m.useSmtp(m.smtp.port, { user: 'u', password: 'wrong' });
    m.hub.clock.advance(3600_000);
    expect(await runDue()).toMatchObject({ retried: 1, failed: 0 });
    expect((await m.emailsOf(t.id))[0].lastError).toMatch(/535|auth/i);
    m.smtp.auth = null;
    await m.useSmtp(m.smtp.port);
    m.hub.clock.advance(3600_000);
    expect(await runDue()).toMatchObject({ sent: 1 });
    expect(m.receivedFor(t.id)).toHaveLength(1);
  });

  it('backs off exponentially from seconds to an hour, and fails at the give-up time', async () => {
    const { worker, timers } = freshWorker();
    const port = await freePort();
    await m.useSmtp(port);
    const started = m.hub.clock.now().getTime();
    try {
      const t = await closeWithEmail('far.away@example.sk');
      const [e] = await m.emailsOf(t.id);
      worker.start();
      const fired = await timers.advance(49 * 3600_000, () => worker.whenIdle());
      // Two days passed: the sessions of the hub's users have expired.
      await m.relogin();
      const attempts = fired.filter((at, i) => i === 0 || at !== fired[i - 1]).map((at) => (at - started) / 1000);
      // 0 s, then 15 s, 30 s, 1 min, 2 min, 4 min, 8 min, 16 min, 32 min, then hourly.
      expect(attempts.slice(0, 10)).toEqual([0, 15, 45, 105, 225, 465, 945, 1905, 3825, 3825 + 3600]);
      const [failed] = await m.emailsOf(t.id);
      expect(failed.state).toBe('Failed');
      expect(failed.lastError).toMatch(new RegExp(`^Gave up after ${failed.attempts} attempts: `));
      // The last attempt falls on the give-up time, not after it.
      expect(m.hub.db.get<{ at: number }>(sql`SELECT max(at) AS at FROM changes WHERE resource = 'receipts/emails' AND key = ${e.id}`)!.at).toBe(
        started + DEFAULT_RETRY.giveUpMs,
      );
      expect(failed.attempts).toBeGreaterThan(50);
      expect(timers.next()).toBeNull();
    } finally {
      await worker.stop();
      await m.useSmtp(m.smtp.port);
    }
  });

  it('retryDelay doubles from the first wait and stops at the longest', () => {
    const p = { firstMs: 200, maxMs: 1000, giveUpMs: 60_000 };
    expect([1, 2, 3, 4, 5, 60].map((n) => retryDelay(p, n))).toEqual([200, 400, 800, 1000, 1000, 1000]);
  });
});

describe('a restarted hub', () => {
  it('delivers the e-mails queued before the restart, once', async () => {
    const port = await freePort();
    await m.useSmtp(port);
    const t = await closeWithEmail('restart@example.sk');
    expect(await runDue()).toMatchObject({ retried: 1 });
    // "Restart": the old worker is gone; a new one starts on the same database, and the server is back.
    const late = new TestSmtpServer();
    await late.start(port);
    const { worker, timers } = freshWorker();
    try {
      worker.start();
      await timers.advance(DEFAULT_RETRY.firstMs, () => worker.whenIdle());
      await timers.advance(3600_000, () => worker.whenIdle());
      expect(m.receivedFor(t.id, late)).toHaveLength(1);
      expect((await m.emailsOf(t.id))[0]).toMatchObject({ state: 'Sent', attempts: 2 });
    } finally {
      await worker.stop();
      await late.stop();
      await m.useSmtp(m.smtp.port);
    }
  });

  it('sends again an e-mail whose send was interrupted, with the same Message-ID, and says so meanwhile', async () => {
    const t = await closeWithEmail('interrupted@example.sk');
    const [e] = await m.emailsOf(t.id);
    // The previous process marked it sending, then died before any outcome was stored.
    expect(m.hub.services.mail.outbox.claim(e.id, m.hub.clock.now().getTime())).toBe(true);
    expect(await runDue()).toEqual({ sent: 0, retried: 0, failed: 0 });
    const { worker, timers } = freshWorker();
    const recovered = new Promise<any>((resolve) => {
      // What the API shows between the recovery and the send.
      m.smtp.beforeReply = async () => {
        m.smtp.beforeReply = null;
        resolve((await m.emailsOf(t.id))[0]);
      };
    });
    try {
      worker.start();
      await timers.advance(0, () => worker.whenIdle());
      expect(await recovered).toMatchObject({ state: 'Queued', attempts: 1, lastError: INTERRUPTED });
      const mails = m.receivedFor(t.id);
      expect(mails.map((x) => x.messageId)).toEqual([`<${e.id}@bistro.example>`]);
      expect((await m.emailsOf(t.id))[0]).toMatchObject({ state: 'Sent', attempts: 2, lastError: null });
    } finally {
      await worker.stop();
    }
  });

  it('a crash between the server\'s 250 and our commit can duplicate, and the copy carries the same Message-ID', async () => {
    const t = await closeWithEmail('window@example.sk');
    await runDue();
    const [e] = await m.emailsOf(t.id);
    // As if the process had died right after the server's 250, before the Sent state was committed.
    m.hub.db.run(sql`UPDATE receipt_emails SET state = 'Queued', sent_at = NULL, sending_at = ${m.hub.clock.now().getTime()} WHERE id = ${e.id}`);
    const { worker, timers } = freshWorker();
    try {
      worker.start();
      await timers.advance(0, () => worker.whenIdle());
    } finally {
      await worker.stop();
    }
    const mails = m.receivedFor(t.id);
    expect(mails).toHaveLength(2);
    expect(new Set(mails.map((x) => x.messageId))).toEqual(new Set([`<${e.id}@bistro.example>`]));
  });

  it('never sends one e-mail twice from two runs at once', async () => {
    const t = await closeWithEmail('once@example.sk');
    const before = m.smtp.attempts;
    let release!: () => void;
    m.smtp.beforeReply = () => new Promise<void>((r) => (release = r));
    const both = Promise.all([runDue(), runDue(), runDue()]);
    await waitFor(() => m.smtp.attempts > before, 5000, 'the send');
    m.smtp.beforeReply = null;
    release();
    const reports = await both;
    expect(reports.reduce((n, r) => n + r.sent, 0)).toBe(1);
    expect(m.receivedFor(t.id)).toHaveLength(1);
  });
});

describe('shutdown', () => {
  /** Closes a ticket and starts a fresh worker whose send the server holds for `ms`; resolves once it is in flight. */
  async function sendHeldFor(ms: number, to: string): Promise<{ ticketId: string; worker: MailWorker }> {
    const t = await closeWithEmail(to);
    const { worker, timers } = freshWorker();
    const inFlight = new Promise<void>((entered) => {
      m.smtp.beforeReply = async () => {
        m.smtp.beforeReply = null;
        entered();
        await new Promise((r) => setTimeout(r, ms));
      };
    });
    worker.start();
    void timers.advance(0, async () => undefined);
    await inFlight;
    return { ticketId: t.id, worker };
  }

  it('waits for the send in flight, so its outcome is stored', async () => {
    const { ticketId, worker } = await sendHeldFor(200, 'inflight@example.sk');
    await worker.stop(5000);
    const [e] = await m.emailsOf(ticketId);
    expect(e).toMatchObject({ state: 'Sent', attempts: 1 });
    expect(m.outboxRow(e.id)!.sending_at).toBeNull();
  });

  it('abandons a send that outlasts the grace period; the e-mail stays queued and goes out later', async () => {
    const { ticketId, worker } = await sendHeldFor(3000, 'slow@example.sk');
    await worker.stop(100);
    const [e] = await m.emailsOf(ticketId);
    expect(e).toMatchObject({ state: 'Queued', attempts: 1 });
    expect(e.lastError).toMatch(/shutting down|abort/i);
    expect(m.outboxRow(e.id)!.sending_at).toBeNull();
    // The server may still have taken the first copy (it answered after we left); the next run sends the same Message-ID.
    m.hub.clock.advance(DEFAULT_RETRY.firstMs);
    await runDue();
    expect(m.receivedFor(ticketId).length).toBeGreaterThanOrEqual(1);
    expect(new Set(m.receivedFor(ticketId).map((x) => x.messageId))).toEqual(new Set([`<${e.id}@bistro.example>`]));
    expect((await m.emailsOf(ticketId))[0].state).toBe('Sent');
  });
});
