/**
 * POST /api/backups makes one now (right Backup); GET lists them (SettingsRead, CONTRACT §12); GET
 * /api/backups/{file} downloads one (right Backup: a backup holds every record and password hashes,
 * so reading the list's settings is not enough; its secrets are sealed, seal.ts).
 */
import { createReadStream, fstatSync } from 'node:fs';
import { z } from 'zod';
import { errors } from '../http/errors.js';
import { ERR, LOCATION, queryResult } from '../http/api-docs.js';
import { pageInMemory } from '../http/list-params.js';
import { requireRight } from '../http/caller.js';
import { named, routes } from '../http/route.js';
import type { BackupService } from './service.js';

const backup = z.object({ file: z.string(), size: z.number().int(), createdAt: z.string() });
const Backup = named('Backup', backup);
/** The list's paging and sorts (CONTRACT §4), over the files on disk. */
const BACKUPS = { what: 'backups', key: 'file', sortKeys: ['file', 'size', 'createdAt'] } as const;

export const backupRoutes = routes<{ backups: BackupService }>((route) => [
  route({
    method: 'get',
    path: '/api/backups',
    operationId: 'backups.list',
    tags: ['System'],
    summary: 'The backups kept in <data>/backups, newest first',
    description: 'Requires SettingsRead.',
    rights: ['SettingsRead'],
    authorize: (caller) => requireRight(caller, 'SettingsRead'),
    list: { ...BACKUPS, sortKeys: [...BACKUPS.sortKeys], filters: {}, tieBreak: '`file` ascending', defaultOrder: 'newest first', example: '-size' },
    responses: { 200: { description: 'The backups.', schema: queryResult(backup) } },
    errors: [ERR.validation('A sort key other than file, size and createdAt, a query parameter that is not one of the list\'s, `$take` out of range; `errors[0].memberName` names it.'), ERR.unauthenticated(), ERR.missingRight('Without SettingsRead.')],
    handler:
      ({ backups }) =>
      ({ list }, _req, res) => {
        res.json(pageInMemory(backups.list(), list, BACKUPS));
      },
  }),
  route({
    method: 'post',
    path: '/api/backups',
    operationId: 'backups.create',
    tags: ['System'],
    summary: 'Write an online backup now',
    description:
      "Requires Backup. One snapshot of what was committed (SQLite's VACUUM INTO), consistent while the hub keeps working, compacted (no freed page keeps an older value); " +
      "the SMTP password and devices' secret settings are in it only sealed (AES-256-GCM) with the key in the data directory's " +
      '`backup.key`, which no backup holds. The file and its folder are synced before the answer; the oldest beyond ' +
      'POS_HUB_BACKUP_KEEP are removed, never the one answered. Restore with `npm run restore -- <file> [--key <backup.key>]` into a stopped hub.',
    rights: ['Backup'],
    authorize: (caller) => requireRight(caller, 'Backup'),
    responses: { 201: { description: 'The backup written.', schema: Backup, headers: LOCATION } },
    errors: [ERR.unauthenticated(), ERR.missingRight('Without Backup.')],
    handler:
      ({ backups }) =>
      async (_input, _req, res) => {
        const info = await backups.create();
        res.status(201).location(`/api/backups/${encodeURIComponent(info.file)}`).json(info);
      },
  }),
  route({
    method: 'get',
    path: '/api/backups/{file}',
    operationId: 'backups.download',
    tags: ['System'],
    summary: 'Download one backup',
    description:
      "Requires Backup (a backup holds every record and the password hashes; the SMTP password and devices' secret settings only " +
      'sealed). The SQLite file as an attachment; copy it off the hub PC, restore it with `npm run restore -- <file>` (on another PC ' +
      "with `--key <the hub's backup.key>`, or enter those secrets again).",
    rights: ['Backup'],
    authorize: (caller) => requireRight(caller, 'Backup'),
    params: z.object({ file: z.string().meta({ description: 'A name from GET /api/backups.' }) }),
    responses: { 200: { description: 'The database file.', schema: z.string().meta({ format: 'binary' }), contentType: 'application/vnd.sqlite3' } },
    errors: [ERR.unauthenticated(), ERR.missingRight('Without Backup.'), ERR.notFound('No kept backup has that name.')],
    handler:
      ({ backups }) =>
      ({ params: { file } }, _req, res, next) => {
        const path = backups.path(file);
        if (!path) throw errors.notFound('backups', file);
        // The whole file, always (no ranges or conditional answers: a backup is read once, whole). Opened
        // first: pruned between the look-up and the read (a backup made meanwhile), it is the same 404 as
        // a name never kept.
        const stream = createReadStream(path);
        stream.once('error', (err) => {
          if (!res.headersSent) next((err as NodeJS.ErrnoException).code === 'ENOENT' ? errors.notFound('backups', file) : err);
          else res.destroy(err);
        });
        stream.once('open', (fd) => {
          res.attachment(file).type('application/vnd.sqlite3').setHeader('Content-Length', fstatSync(fd).size);
          stream.pipe(res);
        });
      },
  }),
]);
