/**
 * Sending one message over SMTP with nodemailer (the only importer of it), and what its errors
 * mean for the outbox: a permanent rejection (a 5xx reply) fails the e-mail for good; anything
 * else (a 4xx reply, a server that cannot be reached, a timeout, a refused login) may pass later.
 */
import type { Transporter } from 'nodemailer';
import type { SmtpServer } from './settings.js';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  date: Date;
  headers: Record<string, string>;
}

export interface MailSender {
  /** Resolves with the server's final reply once it accepted the message (250). */
  send(mail: OutgoingMail, signal: AbortSignal): Promise<{ response: string }>;
  close(): void;
}

export interface SendFailure {
  /** The server refused the message for good: retrying would get the same answer. */
  permanent: boolean;
  /** Not about this message (unreachable, timed out, login refused): the others waiting would fare no better now. */
  serverWide: boolean;
  message: string;
}

/** Bounds on each step, so a send never hangs and a shutdown is never held up for minutes. */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000, socketCloseTimeout: 1_000 };

export function smtpSender(server: SmtpServer): MailSender {
  // nodemailer is loaded with the first e-mail, not at every start of a hub that may never send one
  // (one transport, however many sends start before it is made).
  let transport: Promise<Transporter> | undefined;
  const made = () =>
    (transport ??= import('nodemailer').then(({ createTransport }) =>
      createTransport({
        host: server.host,
        port: server.port,
        secure: server.tls === 'Implicit',
        requireTLS: server.tls === 'Required',
        ignoreTLS: server.tls === 'Off',
        auth: server.user ? { user: server.user, pass: server.password ?? '' } : undefined,
        ...SMTP_TIMEOUTS,
      }),
    ));
  return {
    async send(mail, signal) {
      const info = await (await made()).sendMail({ ...mail, signal });
      return { response: String(info.response ?? '') };
    },
    close: () => void transport?.then((t) => t.close()),
  };
}

interface SmtpError {
  code?: string;
  responseCode?: number;
  response?: string;
  permanent?: boolean;
  message?: string;
}

export function classifySendError(e: unknown): SendFailure {
  const err = (typeof e === 'object' && e !== null ? e : { message: String(e) }) as SmtpError;
  const message = (err.response || err.message || String(e)).slice(0, 500);
  // A refused login (535, a 5xx) is the hub's configuration, not this e-mail: it waits for a fix.
  if (err.code === 'EAUTH' || err.code === 'ENOAUTH') return { permanent: false, serverWide: true, message };
  // Our own abort (a shutdown, the send's time limit) says nothing about the server.
  if (err.code === 'EABORT') return { permanent: false, serverWide: false, message };
  if (typeof err.responseCode === 'number') {
    // nodemailer marks 5xx replies permanent, except 503 (a bad command sequence, not a verdict on the message).
    const permanent = err.permanent ?? (err.responseCode >= 500 && err.responseCode !== 503);
    return { permanent, serverWide: err.responseCode === 421, message };
  }
  return { permanent: false, serverWide: true, message };
}
