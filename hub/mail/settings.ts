/**
 * E-mail receipt settings: the SMTP server and the shop's header lines.
 *
 * Two sources, one shape. The environment (POS_HUB_SMTP_URL, POS_HUB_SMTP_FROM, POS_HUB_SHOP_NAME) is
 * what an installer sets; the stored settings (PUT /api/receipts/settings, right ReceiptSettingsUpdate)
 * are what a manager sets on the web page. A stored `smtp` replaces the environment's server as a
 * whole (mixing a host from one with a password from the other would send credentials to the wrong
 * server), though POS_HUB_SMTP_FROM stays the default From; a stored shopName replaces
 * POS_HUB_SHOP_NAME. The password is kept in its own column, so it never reaches the document a GET
 * answers, and in clear: the hub must present it to the server.
 */
import { readSettingsRow, writeSettingsRow } from './settings-store.js';
import { z } from 'zod';
import { inTransaction, type Db } from '../../db/client.js';
import type { Clock } from '../core/clock.js';
import { errors } from '../http/errors.js';
import type { Doc } from '../engine/define.js';
import { enumOf } from '../engine/fields.js';
import { appendChange } from '../engine/change-log.js';
import { fieldMessage } from '../i18n/say.js';
import { addressOf, isEmailAddress } from '../core/rules.js';

/** Implicit: TLS from the first byte (smtps, port 465). Required: STARTTLS or refuse. Opportunistic: STARTTLS when offered. Off: plain text. */
export const SMTP_TLS = ['Implicit', 'Required', 'Opportunistic', 'Off'] as const;
export type SmtpTls = (typeof SMTP_TLS)[number];

export interface SmtpServer {
  host: string;
  port: number;
  tls: SmtpTls;
  user: string | null;
  password: string | null;
  /** The From header: `a@b.c` or `Name <a@b.c>`. */
  from: string;
}

export interface ShopHeader {
  name: string;
  addressLines: string[];
  footerLines: string[];
}

/** What the environment contributes (hub/core/config.ts). */
export interface MailEnv {
  smtpUrl?: string;
  smtpFrom?: string;
  shopName?: string;
}

/** The change-log resource name of the settings (the path below /api). */
export const SETTINGS_RESOURCE = 'receipts/settings';
const ROW = 'default';


/**
 * smtp://user:pass@host:port or smtps://… → a server. `?requireTLS=true` asks for Required,
 * `?ignoreTLS=true` for Off (nodemailer's own query names, so an existing URL keeps its meaning).
 */
export function smtpFromUrl(url: string, from?: string): Omit<SmtpServer, 'from'> & { from: string | null } {
  const u = new URL(url);
  const implicit = u.protocol === 'smtps:';
  const q = (name: string) => u.searchParams.get(name)?.toLowerCase() === 'true';
  const tls: SmtpTls = implicit ? 'Implicit' : q('requireTLS') ? 'Required' : q('ignoreTLS') ? 'Off' : 'Opportunistic';
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: u.port ? Number(u.port) : defaultPort(tls),
    tls,
    user: u.username ? decodeURIComponent(u.username) : null,
    password: u.password ? decodeURIComponent(u.password) : null,
    from: from ?? null,
  };
}

export const defaultPort = (tls: SmtpTls) => (tls === 'Implicit' ? 465 : 587);

const line = (max: number) => z.string().max(max).regex(/^[^\u0000-\u001f]*$/, fieldMessage('field.noControl'));
const address = z.string().max(254).refine((s) => isEmailAddress(addressOf(s)), fieldMessage('field.emailAddress'));

/** The body of PUT /api/receipts/settings. PUT replaces the whole; a left-out password keeps the stored one. */
export const settingsSchema = z.object({
  shopName: line(100).trim().min(1).nullable().default(null),
  addressLines: z.array(line(100)).max(8).default([]),
  footerLines: z.array(line(200)).max(8).default([]),
  smtp: z
    .object({
      host: z
        .string()
        .min(1)
        .max(253)
        .regex(/^[A-Za-z0-9.:[\]-]+$/, fieldMessage('field.hostName'))
        // An IPv6 address as a URL writes it ([::1]) is the address without brackets: that is what a connection takes.
        .transform((h) => h.replace(/^\[(.*)\]$/, '$1')),
      port: z.number().int().min(1).max(65535).nullable().default(null),
      tls: enumOf(SMTP_TLS).default('Opportunistic'),
      user: z.string().min(1).max(254).nullable().default(null),
      password: z.string().min(1).max(1000).nullable().optional(),
      from: address.nullable().default(null),
    })
    .nullable()
    .default(null),
});

type SettingsInput = z.output<typeof settingsSchema>;

const shownServer = {
  host: z.string(),
  port: z.number().int(),
  tls: z.enum(SMTP_TLS),
  user: z.string().nullable(),
  from: z.string().nullable(),
  passwordSet: z.boolean(),
};

/** What GET and PUT answer (for the API description; present() builds it). */
export const settingsAnswerSchema = z.object({
  shopName: z.string().nullable(),
  addressLines: z.array(z.string()),
  footerLines: z.array(z.string()),
  smtp: z.object({ ...shownServer, port: z.number().int().nullable() }).nullable(),
  effective: z.object({
    shopName: z.string(),
    smtpSource: z.enum(['Settings', 'Environment', 'None']),
    smtp: z.object({ ...shownServer, from: z.string() }).nullable(),
  }),
  _v: z.number().int().min(0),
});

interface StoredSettings {
  shopName: string | null;
  addressLines: string[];
  footerLines: string[];
  smtp: { host: string; port: number | null; tls: SmtpTls; user: string | null; from: string | null } | null;
}

const EMPTY: StoredSettings = { shopName: null, addressLines: [], footerLines: [], smtp: null };

/** Whether `next` sends to where `stored` did, as the same login: host, port (a left-out one is the TLS mode's default), TLS mode, user. */
function sameServerAndLogin(stored: StoredSettings['smtp'], next: NonNullable<SettingsInput['smtp']>): boolean {
  if (!stored) return false;
  return (
    stored.host === next.host &&
    (stored.port ?? defaultPort(stored.tls)) === (next.port ?? defaultPort(next.tls)) &&
    stored.tls === next.tls &&
    stored.user === next.user
  );
}

export class MailSettings {
  private readonly listeners: Array<() => void> = [];

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly env: MailEnv,
  ) {}

  /** Called after every stored change (the worker wakes up: a server may just have been configured). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private row(): { v: number; doc: StoredSettings; password: string | null } {
    const r = readSettingsRow(this.db, ROW);
    return r ? { v: r.v, doc: { ...EMPTY, ...(JSON.parse(r.doc) as StoredSettings) }, password: r.smtp_password } : { v: 0, doc: EMPTY, password: null };
  }

  /** The server to send through, or null: none configured, e-mails wait in the outbox. */
  smtp(): SmtpServer | null {
    const { doc, password } = this.row();
    if (doc.smtp) {
      const s = doc.smtp;
      return { host: s.host, port: s.port ?? defaultPort(s.tls), tls: s.tls, user: s.user, password, from: this.fromFor(s.from ?? this.env.smtpFrom, s.user, s.host) };
    }
    if (!this.env.smtpUrl) return null;
    const s = smtpFromUrl(this.env.smtpUrl);
    return { ...s, from: this.fromFor(this.env.smtpFrom, s.user, s.host) };
  }

  /** A From when none is set: the login when it is an address (what most providers insist on), else receipts@<server>. */
  private fromFor(from: string | null | undefined, user: string | null, host: string): string {
    if (from) return from;
    if (user && isEmailAddress(user)) return user;
    return `receipts@${/^[\d.:[\]]+$/.test(host) || !host.includes('.') ? 'localhost.localdomain' : host}`;
  }

  shop(): ShopHeader {
    const { doc } = this.row();
    return { name: doc.shopName ?? this.env.shopName ?? 'POS Hub', addressLines: doc.addressLines, footerLines: doc.footerLines };
  }

  /** What GET answers: the stored settings without the password, and what is in effect. */
  present(): Doc {
    const { v, doc, password } = this.row();
    const effective = this.smtp();
    const source = doc.smtp ? 'Settings' : this.env.smtpUrl ? 'Environment' : 'None';
    const shown = (s: SmtpServer | null, hasPassword: boolean) =>
      s && { host: s.host, port: s.port, tls: s.tls, user: s.user, from: s.from, passwordSet: hasPassword };
    return {
      shopName: doc.shopName,
      addressLines: doc.addressLines,
      footerLines: doc.footerLines,
      smtp: doc.smtp && { ...doc.smtp, passwordSet: password !== null },
      effective: { shopName: this.shop().name, smtpSource: source, smtp: shown(effective, !!effective?.password) },
      _v: v,
    };
  }

  /** PUT: replaces the settings (a left-out smtp.password keeps the stored one for the same host, port, TLS mode and user); `_v` or If-Match must match. */
  put(body: SettingsInput & { _v?: number }, ifMatch?: number): Doc {
    inTransaction(this.db, () => {
      const current = this.row();
      // Both the body's `_v` and If-Match, when sent, must be the stored version.
      const stale = [body._v, ifMatch].find((e) => e !== undefined && e !== current.v);
      if (stale !== undefined) throw errors.versionMismatch({ name: 'ReceiptSettings', id: ROW, version: current.v }, stale);
      const smtp = body.smtp && { host: body.smtp.host, port: body.smtp.port, tls: body.smtp.tls, user: body.smtp.user, from: body.smtp.from };
      // A left-out password stays only while everything it is presented to stays (CONTRACT §12): the
      // same login on the same server, port and TLS mode. Move any of them without sending it again and
      // it is dropped — never presented to a port or in a clear channel the caller picked.
      const password = !body.smtp ? null : body.smtp.password !== undefined ? body.smtp.password : sameServerAndLogin(current.doc.smtp, body.smtp) ? current.password : null;
      const doc: StoredSettings = { shopName: body.shopName, addressLines: body.addressLines, footerLines: body.footerLines, smtp };
      const v = current.v + 1;
      const at = this.clock.now().getTime();
      writeSettingsRow(this.db, ROW, { v, doc: JSON.stringify(doc), smtp_password: password });
      appendChange(this.db, SETTINGS_RESOURCE, ROW, 'upsert', v, at);
    });
    for (const l of this.listeners) l();
    return this.present();
  }
}
