/**
 * The NATS connection both sides of the chain open: a `nats://` or `tls://` URL, a user and
 * password or a credentials file, a timeout on every request, and reconnecting for ever (a store's
 * internet comes and goes; HQ's NATS restarts).
 */
import { readFileSync } from 'node:fs';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import { connect, credsAuthenticator, type NatsConnection } from '@nats-io/transport-node';

export const REQUEST_TIMEOUT_MS = 5000;

export interface NatsTarget {
  url: string;
  user?: string;
  password?: string;
  credsFile?: string;
  /** For `tls://`: a CA certificate (PEM) to trust beside the system's. */
  caFile?: string;
}

/**
 * tls://: the server's certificate is checked, never skipped — against the system's CAs or the
 * given CA — and for the host of the URL. (nats.js checks an address given as an IP against
 * `localhost`: it names no server to Node's TLS then.)
 */
function tlsOptions(hostname: string, caFile: string | undefined): Record<string, unknown> {
  const host = hostname.replace(/^\[|\]$/g, '');
  return { ...(caFile ? { caFile } : {}), checkServerIdentity: (_name: string, cert: PeerCertificate) => checkServerIdentity(host, cert) };
}

/**
 * `waitOnFirstConnect`: keep trying from the first attempt on (a store may start offline).
 * `inboxPrefix`: where replies come back (a store's own, `_INBOX_<storeId>`, so NATS can let each
 * store subscribe to its replies only: README "A chain of stores", NATS users).
 */
export function connectNats(target: NatsTarget, name: string, opts: { waitOnFirstConnect?: boolean; inboxPrefix?: string; timeoutMs?: number } = {}): Promise<NatsConnection> {
  const url = new URL(target.url);
  return connect({
    servers: `${url.hostname}:${url.port || 4222}`,
    name,
    tls: url.protocol === 'tls:' ? tlsOptions(url.hostname, target.caFile) : undefined,
    user: target.user,
    pass: target.password,
    authenticator: target.credsFile ? credsAuthenticator(readFileSync(target.credsFile)) : undefined,
    timeout: opts.timeoutMs ?? REQUEST_TIMEOUT_MS,
    waitOnFirstConnect: opts.waitOnFirstConnect ?? false,
    inboxPrefix: opts.inboxPrefix,
    reconnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 2000,
    pingInterval: 10_000,
    maxPingOut: 2,
    // Without this every request builds an Error with a stack trace up front, in case it fails.
    noAsyncTraces: true,
  });
}
