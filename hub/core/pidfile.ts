/**
 * One hub per data directory (two hubs on one database would both drive the printers). The claim is
 * the kernel-held lock of db/lock.ts, which dies with its process; `<data>/hub.pid` beside it only
 * says which process holds it, for messages. A stale pid file — a crash, a power cut, its pid reused by
 * another program after a reboot — blocks nothing. `npm run restore` takes the same claim.
 * Once the hub listens, the file's second line is its manager's page address, so a tool run beside it
 * (`npm run seed:demo`) names the port the hub really took, not the one it was configured with.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDirLocked, lockDataDir } from '../../db/lock.js';

export function pidFile(dataDir: string): string {
  return join(dataDir, 'hub.pid');
}

/** The pid file's lines: the pid, then (once the hub listens) its manager's page address. */
function linesIn(dataDir: string): string[] {
  try {
    return readFileSync(pidFile(dataDir), 'utf8').split('\n').map((l) => l.trim());
  } catch {
    return [];
  }
}

function pidIn(dataDir: string): string {
  const pid = linesIn(dataDir)[0] ?? '';
  return /^\d+$/.test(pid) ? `pid ${pid}` : 'pid unknown';
}

/** The manager's page address of the hub running on the data directory; undefined when none runs. */
export function runningHubUrl(dataDir: string): string | undefined {
  if (!dataDirLocked(dataDir)) return undefined;
  const url = linesIn(dataDir)[1];
  return url && /^https?:\/\//.test(url) ? url : undefined;
}

/** Who holds the data directory ("pid 123"), or undefined when nobody does. */
export function runningHub(dataDir: string): string | undefined {
  return dataDirLocked(dataDir) ? pidIn(dataDir) : undefined;
}

export interface Claim {
  /** Written once the hub listens: the address its manager's page is served on. */
  listening(url: string): void;
  release(): void;
}

/** Claims the data directory for this process, or throws naming the process that holds it. */
export function claim(dataDir: string): Claim {
  const lock = lockDataDir(dataDir);
  if (!lock) throw new Error(`another hub (${pidIn(dataDir)}) is running on ${dataDir}; stop it first`);
  writeFileSync(pidFile(dataDir), `${process.pid}\n`);
  return {
    listening(url) {
      writeFileSync(pidFile(dataDir), `${process.pid}\n${url}\n`);
    },
    release() {
      try {
        if (linesIn(dataDir)[0] === String(process.pid)) rmSync(pidFile(dataDir));
      } catch {
        /* already gone */
      }
      lock.release();
    },
  };
}
