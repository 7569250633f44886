/** Routes of e-mail receipts beyond the engine's list: resend, and the receipt settings. */
import { z } from 'zod';
import { bodyErrors, ERR, ETAG, idempotencyHeader, ifMatchHeader } from '../http/api-docs.js';
import { requireRight } from '../http/caller.js';
import { callerOf } from '../http/handler.js';
import { model, named, routes } from '../http/route.js';
import type { ReceiptEmails } from './receipts.js';
import { settingsAnswerSchema, settingsSchema, type MailSettings } from './settings.js';
import { receiptEmails } from './resource.js';

const tags = [receiptEmails.title];
const settingsAnswer = named('ReceiptSettings', z.object(settingsAnswerSchema.shape));

export const receiptRoutes = routes<{ emails: ReceiptEmails; settings: MailSettings }>((route) => [
  route({
    method: 'post',
    path: '/api/receipts/emails/{id}/resend',
    operationId: 'receiptEmails.resend',
    tags,
    summary: 'Send an e-mail receipt again',
    description:
      'Requires TicketClose (from any device: the manager\'s web page too). A Sent or Failed e-mail is queued again as a new ' +
      'delivery (attempts from 0, a new Message-ID, a fresh give-up time); a Queued one is tried now instead of after its backoff; ' +
      'one being sent right now is left as it is. No body.',
    rights: ['TicketClose'],
    params: z.object({ id: receiptEmails.key.schema.meta({ param: { description: "The ReceiptEmail's key `id`." } }) }),
    headers: idempotencyHeader(),
    responses: { 200: { description: 'The e-mail as queued.', schema: model(receiptEmails.name) } },
    errors: [...bodyErrors('A malformed `Idempotency-Key`, or an unreadable body.'), ERR.unauthenticated(), ERR.missingRight(), ERR.notFound('No e-mail receipt has this id.'), ERR.keyReused()],
    handler:
      ({ emails }) =>
      ({ params }, _req, res) => {
        res.json(emails.resend(callerOf(res), String(params.id)));
      },
  }),
  route({
    method: 'get',
    path: '/api/receipts/settings',
    operationId: 'receiptSettings.get',
    tags,
    summary: 'The e-mail receipt settings: SMTP server and shop header',
    description:
      'Requires SettingsRead. The password is never answered (`passwordSet` says whether there is one). `effective` is what ' +
      'the hub uses: the stored settings, else the environment (POS_HUB_SMTP_URL, POS_HUB_SMTP_FROM, POS_HUB_SHOP_NAME). ' +
      '`_v` is 0 until the settings are first stored.',
    rights: ['SettingsRead'],
    authorize: (caller) => requireRight(caller, 'SettingsRead'),
    responses: { 200: { description: 'The settings.', headers: ETAG, schema: settingsAnswer } },
    errors: [ERR.unauthenticated(), ERR.missingRight('Without SettingsRead.')],
    handler:
      ({ settings }) =>
      (_input, _req, res) => {
        const doc = settings.present();
        res.setHeader('ETag', `"${doc._v}"`);
        res.json(doc);
      },
  }),
  route({
    method: 'put',
    path: '/api/receipts/settings',
    operationId: 'receiptSettings.put',
    tags,
    summary: 'Replace the e-mail receipt settings',
    description:
      'Requires ReceiptSettingsUpdate. Always 200 (the settings always exist, with defaults). Changes apply to e-mails of later closes ' +
      '(an e-mail is rendered when its ticket closes); a new server is used at once, also for e-mails already waiting.',
    rights: ['ReceiptSettingsUpdate'],
    authorize: (caller) => requireRight(caller, 'ReceiptSettingsUpdate'),
    headers: ifMatchHeader(),
    body: {
      required: true,
      schema: named(
        'ReceiptSettingsInput',
        z.object({ ...settingsSchema.shape, _v: z.number().int().min(0).optional() }).meta({
          description:
            'PUT replaces the whole. `shopName` null: POS_HUB_SHOP_NAME. `smtp` null: the server of POS_HUB_SMTP_URL; else this server ' +
            'as a whole (port null: 465 for Implicit TLS, else 587). `smtp.password` is write-only: left out, the stored one is kept only while host, port, TLS mode and user all stay as they were (change any of them and it is dropped, never presented to the new server); null clears it.',
        }),
      ),
    },
    responses: { 200: { description: 'The stored settings.', headers: ETAG, schema: settingsAnswer } },
    errors: [...bodyErrors('An invalid body or `If-Match`; `errors` lists every member at fault.'), ERR.unauthenticated(), ERR.missingRight(), ERR.versionMismatch()],
    handler:
      ({ settings }) =>
      ({ headers, body }, _req, res) => {
        const doc = settings.put(body, headers['If-Match']);
        res.setHeader('ETag', `"${doc._v}"`);
        res.json(doc);
      },
  }),
]);
