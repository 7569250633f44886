/**
 * One hub per data directory (two hubs on one database would both drive the printers). The claim is
 * the kernel-held lock of db/lock.ts, which dies with its process; `<data>/hub.pid` beside it only
 * says which process holds it, for messages. A stale pid file — a crash, a power cut, its pid reused by
 * another program after a reboot — blocks nothing. `npm run restore` takes the same claim.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDirLocked, lockDataDir } from '../../db/lock.js';

export function pidFile(dataDir: string): string {
  return join(dataDir, 'hub.pid');
}

function pidIn(dataDir: string): string {
  try {
    const pid = readFileSync(pidFile(dataDir), 'utf8').trim();
    return /^\d+$/.test(pid) ? `pid ${pid}` : 'pid unknown';
  } catch {
    return 'pid unknown';
  }
}

/** Who holds the data directory ("pid 123"), or undefined when nobody does. */
export function runningHub(dataDir: string): string | undefined {
  return dataDirLocked(dataDir) ? pidIn(dataDir) : undefined;
}

export interface Claim {
  release(): void;
}

/** Claims the data directory for this process, or throws naming the process that holds it. */
export function claim(dataDir: string): Claim {
  const lock = lockDataDir(dataDir);
  if (!lock) throw new Error(`another hub (${pidIn(dataDir)}) is running on ${dataDir}; stop it first`);
  writeFileSync(pidFile(dataDir), `${process.pid}\n`);
  return {
    release() {
      try {
        if (readFileSync(pidFile(dataDir), 'utf8').trim() === String(process.pid)) rmSync(pidFile(dataDir));
      } catch {
        /* already gone */
      }
      lock.release();
    },
  };
}
