/**
 * One hub per data directory, held by a lock the kernel drops with the process: an exclusive POSIX
 * lock on `<data>/hub.lock`, taken through SQLite (a database in locking_mode EXCLUSIVE that has
 * begun an EXCLUSIVE transaction). A pid file alone cannot tell a hub that crashed from an unrelated
 * process that got its pid after a reboot; a lock cannot outlive its holder, however it died.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';

export interface DataDirLock {
  release(): void;
}

export function lockFile(dataDir: string): string {
  return join(dataDir, 'hub.lock');
}

/** Takes the data directory's lock; null when a live process holds it. */
export function lockDataDir(dataDir: string): DataDirLock | null {
  const db = new Database(lockFile(dataDir), { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = MEMORY'); // it never writes: no journal file beside it
    db.exec('BEGIN EXCLUSIVE');
  } catch (e) {
    db.close();
    if ((e as { code?: string }).code === 'SQLITE_BUSY') return null;
    throw e;
  }
  return {
    release() {
      if (!db.open) return;
      try {
        db.exec('ROLLBACK');
      } finally {
        db.close();
      }
    },
  };
}

/** True when a live process holds the data directory's lock (it is taken and dropped at once otherwise). */
export function dataDirLocked(dataDir: string): boolean {
  const lock = lockDataDir(dataDir);
  lock?.release();
  return lock === null;
}
