/**
 * `<data>/hub.pid`: one hub per data directory. Two hubs on one database would both drive the
 * printers; `npm run restore` uses the same file to refuse restoring under a running hub.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function pidFile(dataDir: string): string {
  return join(dataDir, 'hub.pid');
}

/** The pid of a live hub holding the data directory, if any (a stale file from a crash is ignored). */
export function runningHub(dataDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile(dataDir), 'utf8').trim());
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
  // A hub killed a moment ago can linger as a zombie until it is reaped; it holds nothing.
  try {
    const state = /\)\s+(\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
    if (state === 'Z' || state === 'X') return undefined;
  } catch {
    /* no /proc here: trust the signal check */
  }
  return pid;
}

export function claim(dataDir: string): void {
  writeFileSync(pidFile(dataDir), `${process.pid}\n`);
}

export function release(dataDir: string): void {
  try {
    if (Number(readFileSync(pidFile(dataDir), 'utf8').trim()) === process.pid) rmSync(pidFile(dataDir));
  } catch {
    /* already gone */
  }
}
