/** E-mail receipts, assembled: settings, the outbox, its worker, and what closes and routes call. */
import type { Language } from '../i18n/index.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { ResourceService } from '../engine/service.js';
import { Outbox } from './outbox-store.js';
import { ReceiptEmails } from './receipts.js';
import { MailSettings } from './settings.js';
import { DEFAULT_RETRY, MailWorker, type Timers } from './worker.js';

export interface MailServices {
  settings: MailSettings;
  outbox: Outbox;
  worker: MailWorker;
  receipts: ReceiptEmails;
}

export type MailConfig = Partial<Pick<Config, 'smtpUrl' | 'smtpFrom' | 'shopName' | 'mailRetryMs' | 'mailGiveUpMs'>>;

/** The worker is built, not started: main.ts starts it; tests drive it (runDue) or start their own. */
export function buildMail(deps: { db: Db; clock: Clock; log: Logger; timeZone: string; language?: Language; config: MailConfig; emails: ResourceService; timers?: Timers }): MailServices {
  const { db, clock, log, config } = deps;
  const settings = new MailSettings(db, clock, { smtpUrl: config.smtpUrl, smtpFrom: config.smtpFrom, shopName: config.shopName });
  const outbox = new Outbox(db);
  const retry = { ...DEFAULT_RETRY, firstMs: config.mailRetryMs ?? DEFAULT_RETRY.firstMs, giveUpMs: config.mailGiveUpMs ?? DEFAULT_RETRY.giveUpMs };
  const worker = new MailWorker({ outbox, settings, clock, log, retry, timers: deps.timers });
  // New settings are used at once, also for the e-mails already waiting (the PUT's description): a
  // shop that has just fixed its server's name or password wants the waiting receipts to go now, not
  // after a backoff of up to an hour.
  settings.onChange(() => {
    outbox.dueNow(clock.now().getTime());
    worker.notify();
  });
  const receipts = new ReceiptEmails({ outbox, settings, worker, clock, timeZone: deps.timeZone, language: deps.language, emails: deps.emails });
  return { settings, outbox, worker, receipts };
}
