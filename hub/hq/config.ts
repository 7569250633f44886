/**
 * HQ's environment → typed configuration (CONTRACT §13). Every problem is reported at once, naming
 * the variable, and stops the start.
 */
import { resolve } from 'node:path';
import { ConfigError, natsLinkProblems, parseDuration } from '../core/config.js';
import { isValidTimeZone } from '../core/time.js';

export interface HqConfig {
  natsUrl: string;
  natsUser?: string;
  natsPassword?: string;
  natsCreds?: string;
  /** A CA certificate (PEM) a `tls://` link checks the NATS server's certificate against. */
  natsCa?: string;
  /** Unset: an embedded PostgreSQL in `<dataDir>/pg`. */
  databaseUrl?: string;
  dataDir: string;
  port: number;
  host: string;
  adminPassword?: string;
  logLevel: string;
  /** The zone whose calendar days the sales report groups by. */
  timeZone: string;
  /** A store silent this long shows offline (90 s). */
  offlineAfterMs: number;
  /** How long a batch handed to one HQ process may stay unacknowledged before another gets it (30 s). */
  ackWaitMs: number;
  /** JetStream's duplicate window on the events stream (2 min); exactly-once never rests on it. */
  duplicateWindowMs: number;
  /** Events per ingest batch (one PostgreSQL transaction). */
  batchSize: number;
  /**
   * A store online this long without applying the catalog version it waits for gets the versions
   * after its applied one published again (2 min): HQ's NATS may have lost them.
   */
  catalogResendMs: number;
  /**
   * Fault injection for the crash tests (POS_HQ_FAULT=crash-after-commit): the process kills
   * itself after committing its first batch and before acking it. Never set in production.
   */
  crashAfterCommit: boolean;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadHqConfig(env: NodeJS.ProcessEnv = process.env): HqConfig {
  const problems: string[] = [];
  const get = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const duration = (name: string, fallback: string, min: number, max: number, shape: string) => {
    const text = get(name) ?? fallback;
    const ms = parseDuration(text);
    if (ms === null || ms < min || ms > max) problems.push(`${name}='${text}' is not ${shape}.`);
    return ms ?? 0;
  };

  const natsUrl = get('POS_HQ_NATS_URL') ?? 'nats://127.0.0.1:4222';
  try {
    const u = new URL(natsUrl);
    if ((u.protocol !== 'nats:' && u.protocol !== 'tls:') || !u.hostname || u.username) throw new Error();
  } catch {
    problems.push(`POS_HQ_NATS_URL='${natsUrl}' is not nats://host:port or tls://host:port (credentials go in POS_HQ_NATS_USER/POS_HQ_NATS_PASSWORD or POS_HQ_NATS_CREDS).`);
  }
  const natsUser = get('POS_HQ_NATS_USER');
  const natsPassword = get('POS_HQ_NATS_PASSWORD');
  if ((natsUser === undefined) !== (natsPassword === undefined)) problems.push('POS_HQ_NATS_USER and POS_HQ_NATS_PASSWORD go together: set both or neither.');
  const natsCreds = get('POS_HQ_NATS_CREDS');
  const natsCa = get('POS_HQ_NATS_TLS_CA');
  problems.push(
    ...natsLinkProblems({ url: natsUrl, insecure: get('POS_HQ_NATS_INSECURE'), credsFile: natsCreds, caFile: natsCa }, { url: 'POS_HQ_NATS_URL', insecure: 'POS_HQ_NATS_INSECURE', creds: 'POS_HQ_NATS_CREDS', ca: 'POS_HQ_NATS_TLS_CA' }),
  );

  const databaseUrl = get('POS_HQ_DATABASE_URL');
  if (databaseUrl !== undefined) {
    try {
      const u = new URL(databaseUrl);
      if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') throw new Error();
    } catch {
      problems.push('POS_HQ_DATABASE_URL is not postgres://user:password@host:port/database (value not shown: it may hold a password).');
    }
  }
  const portText = get('POS_HQ_PORT') ?? '8090';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) problems.push(`POS_HQ_PORT='${portText}' is not a port number (0-65535).`);
  const host = get('POS_HQ_HOST') ?? '0.0.0.0';
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host)) problems.push(`POS_HQ_HOST='${host}' is not a host name or address.`);
  const adminPassword = get('POS_HQ_ADMIN_PASSWORD');
  if (adminPassword !== undefined && adminPassword.length < 8) problems.push('POS_HQ_ADMIN_PASSWORD is shorter than 8 characters.');
  const logLevel = (get('POS_HQ_LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LEVELS.includes(logLevel)) problems.push(`POS_HQ_LOG_LEVEL='${logLevel}' is not one of ${LEVELS.join(', ')}.`);
  const timeZone = get('POS_HQ_TIMEZONE') ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
  if (!isValidTimeZone(timeZone)) problems.push(`POS_HQ_TIMEZONE='${timeZone}' is not an IANA time zone such as Europe/Bratislava.`);
  const offlineAfterMs = duration('POS_HQ_OFFLINE_AFTER', '90s', 1000, 3_600_000, 'a duration from 1s to 1h (e.g. 90s)');
  const ackWaitMs = duration('POS_HQ_ACK_WAIT', '30s', 1000, 600_000, 'a duration from 1s to 10m (e.g. 30s)');
  const duplicateWindowMs = duration('POS_HQ_DUPLICATE_WINDOW', '2m', 1000, 86_400_000, 'a duration from 1s to 1d (e.g. 2m)');
  const catalogResendMs = duration('POS_HQ_CATALOG_RESEND', '2m', 1000, 3_600_000, 'a duration from 1s to 1h (e.g. 2m)');
  const batchText = get('POS_HQ_BATCH') ?? '1000';
  const batchSize = Number(batchText);
  if (!/^\d{1,5}$/.test(batchText) || batchSize < 1 || batchSize > 5000) problems.push(`POS_HQ_BATCH='${batchText}' is not a number of events from 1 to 5000.`);

  const fault = get('POS_HQ_FAULT');
  if (fault !== undefined && fault !== 'crash-after-commit') problems.push(`POS_HQ_FAULT='${fault}' is not crash-after-commit (a test's fault injection).`);

  if (problems.length) throw new ConfigError(problems);
  return {
    natsUrl,
    natsUser,
    natsPassword,
    natsCreds,
    natsCa,
    databaseUrl,
    dataDir: resolve(get('POS_HQ_DATA_DIR') ?? './hq-data'),
    port,
    host,
    adminPassword,
    logLevel,
    timeZone,
    offlineAfterMs,
    ackWaitMs,
    duplicateWindowMs,
    batchSize,
    catalogResendMs,
    crashAfterCommit: fault === 'crash-after-commit',
  };
}
