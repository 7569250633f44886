/**
 * `npm run restore -- <backup file> [--key <file>]`: puts a backup in place of the hub's database.
 * Refuses while a hub runs on the data directory, and refuses a file that is not a sound hub
 * database. The database it replaces is kept beside it as hub.sqlite.before-restore-<time>.
 *
 * The backup's secrets (the SMTP password, devices' secret settings) are sealed with the backup key
 * of the hub that made it (hub/backups/seal.ts): they are put back when that key is the data
 * directory's `backup.key` or the file given with `--key`; without it the rest restores and the
 * restore names the secrets to enter again.
 */
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkDbFile, continueChangesAfter, lastChangeSeq } from '../db/client.js';
import { unsealSecrets } from '../db/sealed-backup.js';
import { ConfigError, loadConfig } from '../hub/core/config.js';
import { claim } from '../hub/core/pidfile.js';
import { backupKeyPath, openWith, readBackupKey } from '../hub/backups/seal.js';
import { makeDataDir, syncPath } from '../db/files.js';

function fail(message: string): never {
  process.stderr.write(`restore: ${message}\n`);
  process.exit(1);
}

const args = process.argv.slice(2);
const keyAt = args.indexOf('--key');
const keyArg = keyAt >= 0 ? args[keyAt + 1] : undefined;
if (keyAt >= 0 && !keyArg) fail('--key needs the file of the backup key (backup.key in the data directory of the hub that made the backup)');
const arg = args.find((a, i) => !a.startsWith('-') && (keyAt < 0 || i !== keyAt + 1));
if (!arg) fail('usage: npm run restore -- <backup file> [--key <backup.key>]   (backups are in <data dir>/backups)');
let config;
try {
  config = loadConfig();
} catch (e) {
  fail(e instanceof ConfigError ? e.message : String(e));
}
const source = existsSync(arg) ? resolve(arg) : resolve(config.dataDir, 'backups', arg);
if (!existsSync(source)) fail(`no such file: ${arg}`);
process.umask(0o077);
// A new PC or a new disk has no data directory yet (`./data` appears at the hub's first start): made
// as the hub makes it (mode 700), so the restore is the first thing run there.
try {
  makeDataDir(config.dataDir, 'POS_HUB_DATA_DIR');
} catch (e) {
  fail((e as Error).message);
}
// Held until this process ends: no hub can start on the directory halfway through the restore.
try {
  claim(config.dataDir);
} catch (e) {
  fail(`${(e as Error).message}.`);
}
const problem = checkDbFile(source);
if (problem) fail(`${source} is not a usable backup: ${problem}`);
let key: Buffer | undefined;
try {
  key = readBackupKey(resolve(keyArg ?? backupKeyPath(config.dataDir)));
} catch (e) {
  fail((e as Error).message);
}
if (keyArg && !key) fail(`no such key file: ${keyArg}`);

const target = join(config.dataDir, 'hub.sqlite');
/**
 * How far the log jumps when no database is replaced (a new PC, a dead disk): what the lost one handed
 * out after the backup is unknown, and head office holds it, one event per position (CONTRACT §13) —
 * a new sale at a position it already has would be dropped there as a repeat. A billion positions is
 * centuries of a shop's changes; the chain passes the gap (the store moves its start past positions
 * its log never held when HQ asks for them) and registers resume after it.
 */
const UNKNOWN_GAP = 1_000_000_000;
/** The replaced database's last position; undefined when there is none. */
let lastSeq: number | undefined;
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
// The sealed secrets back where the key opens them; the others named, to be entered again.
const { restored, lost } = unsealSecrets(target, (sealed, where) => (key ? openWith(key, sealed, where) : null));
if (restored.length) process.stdout.write(`Put back ${restored.length} secret(s) sealed in the backup.\n`);
if (lost.length) {
  process.stdout.write(
    `${lost.length} secret(s) of the backup could not be opened ${key ? 'with this key (the backup was made by another hub)' : '(no backup key)'}; ` +
      `restore again with --key <that hub's backup.key>, or enter them again (Settings):\n` +
      lost.map((w) => `  ${w.place}: ${w.name}\n`).join(''),
  );
}
// The restored log goes on after the replaced one's last position, never over it.
if (lastSeq === undefined) {
  lastSeq = lastChangeSeq(target) + UNKNOWN_GAP;
  process.stdout.write(`No database to replace: the change log goes on at ${lastSeq + 1}, past anything the lost one may have handed out.\n`);
}
continueChangesAfter(target, lastSeq);
syncPath(target);
syncPath(config.dataDir);
process.stdout.write(`Restored ${source} into ${target}. Start the hub with npm start.\n`);
