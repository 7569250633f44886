/**
 * `npm run restore -- <backup file>`: puts a backup in place of the hub's database. Refuses while
 * a hub runs on the data directory, and refuses a file that is not a sound hub database. The
 * database it replaces is kept beside it as hub.sqlite.before-restore-<time>.
 */
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkDbFile, continueChangesAfter, lastChangeSeq } from '../db/client.js';
import { ConfigError, loadConfig } from '../hub/core/config.js';
import { claim } from '../hub/core/pidfile.js';
import { syncPath } from '../db/files.js';

function fail(message: string): never {
  process.stderr.write(`restore: ${message}\n`);
  process.exit(1);
}

const arg = process.argv.slice(2).find((a) => !a.startsWith('-'));
if (!arg) fail('usage: npm run restore -- <backup file>   (backups are in <data dir>/backups)');
let config;
try {
  config = loadConfig();
} catch (e) {
  fail(e instanceof ConfigError ? e.message : String(e));
}
const source = existsSync(arg) ? resolve(arg) : resolve(config.dataDir, 'backups', arg);
if (!existsSync(source)) fail(`no such file: ${arg}`);
process.umask(0o077);
// Held until this process ends: no hub can start on the directory halfway through the restore.
try {
  claim(config.dataDir);
} catch (e) {
  fail(`${(e as Error).message}.`);
}
const problem = checkDbFile(source);
if (problem) fail(`${source} is not a usable backup: ${problem}`);

const target = join(config.dataDir, 'hub.sqlite');
let lastSeq = 0;
if (existsSync(target)) {
  // Read before it is replaced (and its WAL folded into it, so the kept copy is whole).
  lastSeq = lastChangeSeq(target);
  const kept = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(target, kept);
  process.stdout.write(`The current database is kept as ${kept}\n`);
}
// A WAL left by the replaced database belongs to it (lastChangeSeq folded it in), not to the backup.
for (const side of ['-wal', '-shm']) rmSync(target + side, { force: true });
copyFileSync(source, target);
// The restored log goes on after the replaced one's last position, never over it.
continueChangesAfter(target, lastSeq);
syncPath(target);
syncPath(config.dataDir);
process.stdout.write(`Restored ${source} into ${target}. Start the hub with npm start.\n`);
