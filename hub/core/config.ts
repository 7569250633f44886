/**
 * Environment → typed configuration (CONTRACT §10). Every problem is reported at once, naming the
 * variable, and stops the start.
 */
import { existsSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { isValidTimeZone } from './time.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  adminPassword?: string;
  tokenTtlMs: number;
  mdns: boolean;
  /** IPv4 address of the one interface to announce on (tests: 127.0.0.1); all when unset. */
  mdnsInterface?: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  timeZone: string;
  /** The shop's language (POS_HUB_LOCALE): printed tickets, e-mails, and API messages for users without their own. */
  locale: 'en' | 'sk' | 'cs';
  smtpUrl?: string;
  smtpFrom?: string;
  shopName: string;
  /** E-mail receipts: the wait after the first failed send (doubling, at most an hour), and when to give up. */
  mailRetryMs: number;
  mailGiveUpMs: number;
  /** Requests a second one client address may make (a burst of 5× that); 0 turns limiting off. */
  rateLimit: number;
  /** How often to back up (0: never on a schedule), and how many backups to keep. */
  backupEveryMs: number;
  backupKeep: number;
  /** A bearer token that may read /metrics without a user (a monitoring system's); unset: only users holding Metrics. */
  metricsToken?: string;
  /** The chain (CONTRACT §13): set only when POS_HUB_HQ_URL is; without it the hub opens no outbound connection. */
  chain?: ChainConfig;
}

export interface ChainConfig {
  /** `nats://host:port` or `tls://host:port`. */
  url: string;
  user?: string;
  password?: string;
  /** A NATS credentials file (JWT and NKey seed). */
  credsFile?: string;
  /** A CA certificate (PEM) a `tls://` link checks HQ's server certificate against, beside the system's. */
  caFile?: string;
  /** Unset: the hub id, known once the database is open. */
  storeId?: string;
  storeName: string;
  /** How often the hub tells HQ it is alive (POS_HUB_HQ_HEARTBEAT, 30 s; HQ shows a store offline after 90 s). */
  heartbeatMs: number;
  /**
   * How long the store waits for HQ's NATS to answer a request or acknowledge a publish before it
   * takes the link for down and backs off (POS_HUB_HQ_TIMEOUT, 5 s; longer on a slow satellite link).
   */
  timeoutMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const MAX_TOKEN_TTL_MS = 365 * 86_400_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

/** `12h`, `90m`, `3600s`, `3600` (seconds) → milliseconds. */
export function parseDuration(text: string): number | null {
  const m = /^\s*(\d{1,9})\s*(ms|s|m|h|d)?\s*$/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? 's').toLowerCase();
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit as 'ms' | 's' | 'm' | 'h' | 'd'];
  return n * factor;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const get = (name: string) => {
    const v = env[name];
    return v === undefined || v === '' ? undefined : v;
  };

  const portText = get('POS_HUB_PORT') ?? '8080';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 0 || port > 65535) problems.push(`POS_HUB_PORT='${portText}' is not a port number (0-65535).`);

  const host = get('POS_HUB_HOST') ?? '0.0.0.0';
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host)) problems.push(`POS_HUB_HOST='${host}' is not a host name or address.`);

  const ttlText = get('POS_HUB_TOKEN_TTL') ?? '12h';
  const tokenTtlMs = parseDuration(ttlText);
  // Bounded above too: an expiry past the year 275760 is no Date, and a login would fail with a 500.
  if (tokenTtlMs === null || tokenTtlMs < 60_000 || tokenTtlMs > MAX_TOKEN_TTL_MS) {
    problems.push(`POS_HUB_TOKEN_TTL='${ttlText}' is not a duration from a minute to 365 days (e.g. 12h, 90m, 3600).`);
  }

  const mdnsText = get('POS_HUB_MDNS') ?? '1';
  if (!['0', '1', 'true', 'false'].includes(mdnsText.toLowerCase())) problems.push(`POS_HUB_MDNS='${mdnsText}' is not 0 or 1.`);
  const mdnsInterface = get('POS_HUB_MDNS_INTERFACE');
  if (mdnsInterface !== undefined && !/^\d{1,3}(\.\d{1,3}){3}$/.test(mdnsInterface)) {
    problems.push(`POS_HUB_MDNS_INTERFACE='${mdnsInterface}' is not the IPv4 address of an interface.`);
  }

  const logLevel = (get('POS_HUB_LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LEVELS as readonly string[]).includes(logLevel)) problems.push(`POS_HUB_LOG_LEVEL='${logLevel}' is not one of ${LEVELS.join(', ')}.`);

  const timeZone = get('POS_HUB_TIMEZONE') ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
  if (!isValidTimeZone(timeZone)) problems.push(`POS_HUB_TIMEZONE='${timeZone}' is not an IANA time zone such as Europe/Bratislava.`);

  const localeText = (get('POS_HUB_LOCALE') ?? 'en').toLowerCase();
  if (!['en', 'sk', 'cs'].includes(localeText)) problems.push(`POS_HUB_LOCALE='${localeText}' is not one of en, sk, cs.`);

  const smtpUrl = get('POS_HUB_SMTP_URL');
  if (smtpUrl) {
    try {
      const u = new URL(smtpUrl);
      if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:') throw new Error();
      // What the mailer reads from it later: a host, a port other than 0, a user and password that decode.
      if (!u.hostname || u.port === '0') throw new Error();
      decodeURIComponent(u.username);
      decodeURIComponent(u.password);
    } catch {
      problems.push(`POS_HUB_SMTP_URL is not smtp://user:pass@host:port or smtps://... (value not shown: it may hold a password).`);
    }
  }
  const smtpFrom = get('POS_HUB_SMTP_FROM');
  if (smtpFrom && !/^[^@\s]+@[^@\s]+$/.test(smtpFrom.replace(/^.*<(.+)>$/, '$1'))) problems.push(`POS_HUB_SMTP_FROM='${smtpFrom}' is not an e-mail address.`);
  const retryText = get('POS_HUB_MAIL_RETRY') ?? '15s';
  const mailRetryMs = parseDuration(retryText);
  if (mailRetryMs === null || mailRetryMs < 100 || mailRetryMs > 3_600_000) problems.push(`POS_HUB_MAIL_RETRY='${retryText}' is not a duration from 100ms to 1h (e.g. 15s).`);
  const giveUpText = get('POS_HUB_MAIL_GIVE_UP') ?? '48h';
  const mailGiveUpMs = parseDuration(giveUpText);
  if (mailGiveUpMs === null || mailGiveUpMs < 60_000 || mailGiveUpMs > 30 * 86_400_000) {
    problems.push(`POS_HUB_MAIL_GIVE_UP='${giveUpText}' is not a duration from a minute to 30 days (e.g. 48h).`);
  }

  const adminPassword = get('POS_HUB_ADMIN_PASSWORD');
  if (adminPassword !== undefined && adminPassword.length < 4) problems.push('POS_HUB_ADMIN_PASSWORD is shorter than 4 characters.');

  const rateText = get('POS_HUB_RATE_LIMIT') ?? '1000';
  const rateLimit = Number(rateText);
  if (!/^\d{1,7}$/.test(rateText)) problems.push(`POS_HUB_RATE_LIMIT='${rateText}' is not a whole number of requests a second (0 turns it off).`);
  const backupText = get('POS_HUB_BACKUP_EVERY') ?? '24h';
  const backupEveryMs = backupText === '0' ? 0 : parseDuration(backupText);
  // At most what a timer can wait (2^31-1 ms, 24.8 days): a longer setInterval fires every millisecond.
  if (backupEveryMs === null || (backupEveryMs > 0 && backupEveryMs < 60_000) || backupEveryMs > MAX_TIMER_MS) {
    problems.push(`POS_HUB_BACKUP_EVERY='${backupText}' is not 0 or a duration from a minute to 24 days (e.g. 24h).`);
  }
  const keepText = get('POS_HUB_BACKUP_KEEP') ?? '14';
  const backupKeep = Number(keepText);
  if (!/^\d{1,4}$/.test(keepText) || backupKeep < 1) problems.push(`POS_HUB_BACKUP_KEEP='${keepText}' is not a number of backups to keep (1 or more).`);

  const shopName = get('POS_HUB_SHOP_NAME') ?? 'POS Hub';
  // Printed on receipts (an ESC/POS printer takes a control character for a command), in e-mails and in the mDNS name.
  const control = [...shopName].some((c) => c.codePointAt(0)! < 0x20 || (c.codePointAt(0)! >= 0x7f && c.codePointAt(0)! <= 0x9f));
  if (control || shopName.trim() === '' || [...shopName].length > SHOP_NAME_MAX) {
    problems.push(`POS_HUB_SHOP_NAME=${JSON.stringify(shopName.length > 60 ? `${shopName.slice(0, 60)}…` : shopName)} is not a shop name (1-${SHOP_NAME_MAX} characters, no control characters).`);
  }

  const metricsToken = get('POS_HUB_METRICS_TOKEN');
  // Sent as `Authorization: Bearer <token>`: one that holds a space or a character beyond ASCII could never be matched.
  if (metricsToken !== undefined && !/^[\x21-\x7e]{1,512}$/.test(metricsToken)) {
    problems.push('POS_HUB_METRICS_TOKEN is not a bearer token: 1-512 visible ASCII characters, no spaces (value not shown: it is a secret).');
  }

  const chain = chainConfig(get, problems);

  if (problems.length) throw new ConfigError(problems);
  return {
    port,
    host,
    dataDir: resolve(get('POS_HUB_DATA_DIR') ?? './data'),
    adminPassword,
    tokenTtlMs: tokenTtlMs!,
    mdns: mdnsText === '1' || mdnsText.toLowerCase() === 'true',
    mdnsInterface,
    logLevel: logLevel as Config['logLevel'],
    timeZone,
    locale: localeText as Config['locale'],
    smtpUrl,
    smtpFrom,
    shopName,
    mailRetryMs: mailRetryMs!,
    mailGiveUpMs: mailGiveUpMs!,
    rateLimit,
    backupEveryMs: backupEveryMs ?? 0,
    backupKeep,
    metricsToken,
    chain,
  };
}

const STORE_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A shop's name is printed at the head of every receipt: a few lines at most. */
const SHOP_NAME_MAX = 200;

/** The POS_HUB_HQ_* and POS_HUB_STORE_* variables; problems are added to `problems`. */
function chainConfig(get: (name: string) => string | undefined, problems: string[]): ChainConfig | undefined {
  const url = get('POS_HUB_HQ_URL');
  const others = ['POS_HUB_HQ_USER', 'POS_HUB_HQ_PASSWORD', 'POS_HUB_HQ_CREDS', 'POS_HUB_STORE_ID'].filter((n) => get(n) !== undefined);
  if (url === undefined) {
    if (others.length) problems.push(`${others.join(', ')} ${others.length > 1 ? 'are' : 'is'} set but POS_HUB_HQ_URL is not: set it (nats://host:port) or remove them.`);
    return undefined;
  }
  try {
    const u = new URL(url);
    if ((u.protocol !== 'nats:' && u.protocol !== 'tls:') || !u.hostname || !u.port || u.username || u.password || (u.pathname && u.pathname !== '/')) throw new Error();
  } catch {
    problems.push(`POS_HUB_HQ_URL='${url}' is not nats://host:port or tls://host:port (credentials go in POS_HUB_HQ_USER/POS_HUB_HQ_PASSWORD or POS_HUB_HQ_CREDS).`);
  }
  const user = get('POS_HUB_HQ_USER');
  const password = get('POS_HUB_HQ_PASSWORD');
  const credsFile = get('POS_HUB_HQ_CREDS');
  if ((user === undefined) !== (password === undefined)) problems.push('POS_HUB_HQ_USER and POS_HUB_HQ_PASSWORD go together: set both or neither.');
  if (credsFile !== undefined && user !== undefined) problems.push('POS_HUB_HQ_CREDS and POS_HUB_HQ_USER/POS_HUB_HQ_PASSWORD are alternatives: set one.');
  const caFile = get('POS_HUB_HQ_TLS_CA');
  problems.push(...natsLinkProblems({ url, insecure: get('POS_HUB_HQ_INSECURE'), credsFile, caFile }, { url: 'POS_HUB_HQ_URL', insecure: 'POS_HUB_HQ_INSECURE', creds: 'POS_HUB_HQ_CREDS', ca: 'POS_HUB_HQ_TLS_CA' }));
  const storeId = get('POS_HUB_STORE_ID');
  if (storeId !== undefined && !STORE_ID.test(storeId)) problems.push(`POS_HUB_STORE_ID='${storeId}' is not 1-64 of A-Za-z0-9_-.`);
  const storeName = get('POS_HUB_STORE_NAME') ?? get('POS_HUB_SHOP_NAME') ?? 'POS Hub';
  const beatText = get('POS_HUB_HQ_HEARTBEAT') ?? '30s';
  const heartbeatMs = parseDuration(beatText);
  if (heartbeatMs === null || heartbeatMs < 100 || heartbeatMs > 60_000) problems.push(`POS_HUB_HQ_HEARTBEAT='${beatText}' is not a duration from 100ms to 60s (e.g. 30s).`);
  const timeoutText = get('POS_HUB_HQ_TIMEOUT') ?? '5s';
  const timeoutMs = parseDuration(timeoutText);
  if (timeoutMs === null || timeoutMs < 1000 || timeoutMs > 60_000) problems.push(`POS_HUB_HQ_TIMEOUT='${timeoutText}' is not a duration from 1s to 60s (e.g. 5s).`);
  return { url, user, password, credsFile, caFile, storeId, storeName, heartbeatMs: heartbeatMs ?? 30_000, timeoutMs: timeoutMs ?? 5000 };
}

/** A host on this machine: the only place a NATS link without TLS may go by default. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(host);
}

/**
 * The chain's link to HQ's NATS, checked alike for a store and for HQ (CONTRACT §13): `nats://` to
 * another machine carries the NATS password, every ticket and every customer in clear, so it is
 * refused unless the insecure flag is `1`; a credentials file readable by anyone but its owner is
 * refused (mode 600, as the hub's own secrets); a CA file must exist.
 */
export function natsLinkProblems(
  v: { url: string; insecure?: string; credsFile?: string; caFile?: string },
  names: { url: string; insecure: string; creds: string; ca: string },
): string[] {
  const problems: string[] = [];
  let u: URL | undefined;
  try {
    u = new URL(v.url);
  } catch {
    /* the caller names a URL that is not one */
  }
  if (v.insecure !== undefined && v.insecure !== '1' && v.insecure !== '0') problems.push(`${names.insecure}='${v.insecure}' is not 1 (or 0).`);
  if (u?.protocol === 'nats:' && u.hostname && !isLoopback(u.hostname) && v.insecure !== '1') {
    problems.push(
      `${names.url}='${v.url}' goes to another machine without TLS: its password and every ticket would cross the network in clear. Use tls://${u.host} (README "Security"), or set ${names.insecure}=1 on a network you trust.`,
    );
  }
  if (v.credsFile !== undefined) {
    if (!existsSync(v.credsFile)) problems.push(`${names.creds}='${v.credsFile}' does not name a readable file.`);
    else if ((statSync(v.credsFile).mode & 0o077) !== 0) {
      problems.push(`${names.creds}='${v.credsFile}' may be read by others (mode ${(statSync(v.credsFile).mode & 0o777).toString(8)}): chmod 600 it.`);
    }
  }
  if (v.caFile !== undefined && !existsSync(v.caFile)) problems.push(`${names.ca}='${v.caFile}' does not name a readable file.`);
  if (v.caFile !== undefined && u?.protocol !== 'tls:') problems.push(`${names.ca} is set but ${names.url} is not tls://.`);
  return problems;
}

/** For entry points (the hub, its scripts): the configuration, or a message naming what is wrong and exit 2. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}
