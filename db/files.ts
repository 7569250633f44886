/**
 * Files of the data directory on stable storage (CONTRACT §12 "Durability" and "Files"). A rename or
 * a new file is durable only once its directory is fsynced too; a file's bytes only once the file is.
 */
import { accessSync, chmodSync, closeSync, constants, fsyncSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** fsyncs a file or a directory (opened read-only: Linux syncs any descriptor of the inode). */
export function syncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Every file under `dir` (the data directory and its backups) readable by the hub's user alone:
 * the database and its WAL hold customers and password hashes, the backups copies of them, and
 * admin-password.txt a secret. Directories get 700. For data directories made before the hub set its
 * umask; new files are born this way.
 */
export function restrictToOwner(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  chmodSync(dir, 0o700);
  for (const name of names) {
    const path = join(dir, name);
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) restrictToOwner(path);
    else if (st.isFile() && (st.mode & 0o777) !== 0o600) chmodSync(path, 0o600);
  }
}

/**
 * The data directory an environment variable names, made (mode 700) if it is not there yet; one
 * that cannot be (a file of that name, no right to write) stops the start naming the variable
 * (CONTRACT §10: a bad value stops the start with a message naming it).
 */
export function makeDataDir(dir: string, variable: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (e) {
    throw new Error(`${variable}='${dir}' cannot be the data directory: ${(e as Error).message}`, { cause: e });
  }
}
