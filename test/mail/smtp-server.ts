/**
 * A real SMTP server on 127.0.0.1 for the e-mail tests (the smtp-server package), with a queue of
 * scripted refusals, and a small MIME reader for what arrives (text and HTML parts, encoded words).
 */
import { SMTPServer } from 'smtp-server';
import { untilTrue } from '../support/wait.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  headers: Map<string, string>;
  subject: string;
  messageId: string;
  text: string;
  html: string;
}

/** A scripted answer for the next message: refuse it at RCPT TO or at the end of DATA. */
export interface Refusal {
  at: 'rcpt' | 'data';
  code: number;
  message?: string;
}

export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  readonly refusals: Refusal[] = [];
  /** Every delivery attempt the server saw (accepted or refused). */
  attempts = 0;
  /** Credentials it asks for; null: no AUTH. */
  auth: { user: string; pass: string } | null = null;
  /** Every password a client presented (AUTH PLAIN or LOGIN), right or wrong: what a rogue server would learn. */
  readonly presented: Array<{ user: string; pass: string }> = [];
  /** Awaited before the reply to a message's data: lets a test hold a send in flight. */
  beforeReply: (() => Promise<void>) | null = null;
  private server: SMTPServer | null = null;
  port = 0;

  /** `tls`: a certificate to speak TLS with, from the first byte (`implicit`) or after STARTTLS; none: plain text only. */
  constructor(private readonly tls?: { key: string; cert: string; implicit: boolean }) {}

  async start(port = 0): Promise<number> {
    const server = new SMTPServer({
      ...(this.tls ? { key: this.tls.key, cert: this.tls.cert, secure: this.tls.implicit } : { disabledCommands: ['STARTTLS'] }),
      authOptional: true,
      allowInsecureAuth: true,
      logger: false,
      closeTimeout: 200,
      onAuth: (auth, _session, cb) => {
        this.presented.push({ user: auth.username ?? '', pass: auth.password ?? '' });
        if (this.auth && auth.username === this.auth.user && auth.password === this.auth.pass) cb(null, { user: auth.username });
        else cb(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      },
      onMailFrom: (_address, session, cb) => {
        if (this.auth && !session.user) cb(Object.assign(new Error('Authentication required'), { responseCode: 530 }));
        else cb();
      },
      onRcptTo: (_address, _session, cb) => {
        const r = this.refusals[0];
        if (r?.at === 'rcpt') {
          this.attempts++;
          this.refusals.shift();
          cb(Object.assign(new Error(r.message ?? `scripted ${r.code}`), { responseCode: r.code }));
        } else cb();
      },
      onData: (stream, session, cb) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', async () => {
          this.attempts++;
          await this.beforeReply?.();
          const r = this.refusals[0];
          if (r?.at === 'data') {
            this.refusals.shift();
            cb(Object.assign(new Error(r.message ?? `scripted ${r.code}`), { responseCode: r.code }));
            return;
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          this.received.push({
            ...readMessage(raw),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((a) => a.address),
          });
          cb(null, 'Queued as test');
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    server.on('error', () => undefined);
    this.server = server;
    this.port = (server.server.address() as { port: number }).port;
    return this.port;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

function decodeQuotedPrintable(s: string): string {
  const soft = s.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const m = soft[i] === '=' ? /^[0-9A-Fa-f]{2}$/.exec(soft.slice(i + 1, i + 3)) : null;
    if (m) {
      bytes.push(parseInt(m[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`), adjacent ones joined. */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function headersOf(head: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0 && !out.has(line.slice(0, i).toLowerCase())) out.set(line.slice(0, i).toLowerCase(), line.slice(i + 1).trim());
  }
  return out;
}

function parts(raw: string): Array<{ headers: Map<string, string>; body: string }> {
  const split = /\r?\n\r?\n/.exec(raw);
  const head = split ? raw.slice(0, split.index) : raw;
  const body = split ? raw.slice(split.index + split[0].length) : '';
  const headers = headersOf(head);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((p) => !p.startsWith('--'))
      .flatMap((p) => parts(p.replace(/^\r?\n/, '')));
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const decoded =
    encoding === 'quoted-printable' ? decodeQuotedPrintable(body) : encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : body;
  // SMTP carries CRLF line ends; the tests read lines.
  return [{ headers, body: decoded.replace(/\r\n/g, '\n') }];
}

export function readMessage(raw: string): Omit<ReceivedMail, 'from' | 'to'> {
  const split = /\r?\n\r?\n/.exec(raw);
  const headers = headersOf(split ? raw.slice(0, split.index) : raw);
  const leaves = parts(raw);
  const of = (type: string) => leaves.find((p) => (p.headers.get('content-type') ?? 'text/plain').toLowerCase().startsWith(type))?.body ?? '';
  return {
    raw,
    headers,
    subject: decodeWords(headers.get('subject') ?? ''),
    messageId: headers.get('message-id') ?? '',
    text: of('text/plain'),
    html: of('text/html'),
  };
}

/** Waits (real time) until `check` holds; fails after `ms`. */
export const waitFor = (check: () => boolean, ms = 10_000, what = 'the condition'): Promise<void> => untilTrue(check, { ms, what, every: 20 });
