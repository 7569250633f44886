/** Routes of e-mail receipts beyond the engine's list: resend, and the receipt settings. */
import { Router } from 'express';
import { requireObjectBody } from '../../http/body.js';
import { requireRight } from '../../http/caller.js';
import { callerOf, ifMatch, methodNotAllowed } from '../../http/handler.js';
import type { ReceiptEmails } from '../../mail/receipts.js';
import type { MailSettings } from '../../mail/settings.js';

export function receiptRouter(emails: ReceiptEmails, settings: MailSettings): Router {
  const router = Router();
  router.post('/receipts/emails/:key/resend', (req, res) => {
    res.json(emails.resend(callerOf(res), String(req.params.key)));
  });
  router.all('/receipts/emails/:key/resend', methodNotAllowed(['POST']));

  router.get('/receipts/settings', (_req, res) => {
    requireRight(callerOf(res), 'SettingsRead');
    const doc = settings.present();
    res.setHeader('ETag', `"${doc._v}"`);
    res.json(doc);
  });
  router.put('/receipts/settings', (req, res) => {
    requireRight(callerOf(res), 'ReceiptSettingsUpdate');
    const doc = settings.put(requireObjectBody(req.body), ifMatch(req));
    res.setHeader('ETag', `"${doc._v}"`);
    res.json(doc);
  });
  router.all('/receipts/settings', methodNotAllowed(['GET', 'PUT']));
  return router;
}
