import { Router } from 'express';
import { requireRight } from '../http/caller.js';
import { callerOf, methodNotAllowed } from '../http/handler.js';
import type { BackupService } from './service.js';

/** POST /api/backups makes one now (right Backup); GET lists them (SettingsRead, CONTRACT §12). */
export function backupRouter(backups: BackupService): Router {
  const router = Router();
  router.get('/backups', (_req, res) => {
    requireRight(callerOf(res), 'SettingsRead');
    const items = backups.list();
    res.json({ items, count: items.length, totalCount: items.length });
  });
  router.post('/backups', async (_req, res) => {
    requireRight(callerOf(res), 'Backup');
    const info = await backups.create();
    res.status(201).location(`/api/backups/${encodeURIComponent(info.file)}`).json(info);
  });
  router.all('/backups', methodNotAllowed(['GET', 'POST']));
  return router;
}
