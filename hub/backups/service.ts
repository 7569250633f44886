/**
 * Online backups (issue 9): one snapshot of the database (VACUUM INTO, db/client.ts backupDb) into
 * `<data>/backups`, on demand and on a schedule, keeping the newest `keep` files. A backup is written under a temporary name and
 * renamed when complete (then fsynced with its directory), so a half-written file is never mistaken
 * for a backup; leftovers of a cut are removed at start.
 *
 * A backup holds no secret in clear (CONTRACT §12, issue 30): the copy's SMTP password and devices'
 * secret settings are sealed with the data directory's backup key (seal.ts, db/sealed-backup.ts),
 * and the copy is compacted into the backup so no freed page keeps an older value.
 */
import { readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { backupDb, type Db } from '../../db/client.js';
import { syncPath } from '../../db/files.js';
import { compactInto, sealSecrets } from '../../db/sealed-backup.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import { backupKey, sealerFor } from './seal.js';

export interface BackupInfo {
  file: string;
  size: number;
  createdAt: string;
}

/** `hub-<yyyyMMdd>-<HHmmss>[-<n>].sqlite`: the second it was made, and a counter for more in the same second. */
const NAME = /^hub-(\d{8})-(\d{6})(?:-(\d+))?\.sqlite$/;

/** The order a backup was made in, from its name: the second, then the counter (a name without one is the first of its second). */
function orderOf(file: string): [string, number] {
  const m = NAME.exec(file)!;
  return [`${m[1]}${m[2]}`, m[3] ? Number(m[3]) : 1];
}

function newestFirst(a: string, b: string): number {
  const [sa, na] = orderOf(a);
  const [sb, nb] = orderOf(b);
  return sa !== sb ? (sa < sb ? 1 : -1) : nb - na;
}

export class BackupService {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<BackupInfo> | undefined;
  /** The backup that starts once the running one ends, for the requests that came meanwhile. */
  private next: Promise<BackupInfo> | undefined;

  /** `dir`: where backups go (`<data>/backups`); `keyDir`: where the backup key lives (`<data>`, never inside `dir`). */
  constructor(
    private readonly deps: { db: Db; clock: Clock; log: Logger },
    readonly dir: string,
    private readonly keep: number,
    private readonly keyDir: string,
  ) {}

  /** The backups kept, newest first (by the order they were made: several may share a second). */
  list(): BackupInfo[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => NAME.test(n));
    } catch {
      return [];
    }
    return names.sort(newestFirst).flatMap((file) => {
      const info = this.info(file);
      return info ? [info] : [];
    });
  }

  /** A backup's size and time, or undefined when it is gone (pruned, or removed by hand, since the directory was read). */
  private info(file: string): BackupInfo | undefined {
    try {
      const st = statSync(join(this.dir, file));
      return { file, size: st.size, createdAt: st.mtime.toISOString() };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  /** The path of the kept backup named exactly `file` (a name from list(): no other path is reachable). */
  path(file: string): string | undefined {
    return this.list().some((b) => b.file === file) ? join(this.dir, file) : undefined;
  }

  /**
   * One backup at a time, and each answer holds every write acknowledged before its request: a
   * backup already running may have begun copying before the caller's last writes (the one the hub
   * makes as it starts, a scheduled one), so a request that comes meanwhile gets the next backup,
   * begun when the running one ends; the requests of that wait share it.
   */
  create(): Promise<BackupInfo> {
    if (!this.running) return this.start();
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<BackupInfo> {
    const running = this.run().finally(() => {
      if (this.running === running) this.running = undefined;
    });
    this.running = running;
    return running;
  }

  private async run(): Promise<BackupInfo> {
    const file = this.nextName();
    const copy = join(this.dir, `${file}.copy.partial`);
    const partial = join(this.dir, `${file}.partial`);
    try {
      await backupDb(this.deps.db, copy);
      const sealed = sealSecrets(copy, sealerFor(backupKey(this.keyDir)));
      await compactInto(copy, partial);
      if (sealed.length) this.deps.log.info({ file, secrets: sealed.length }, 'secrets sealed in the backup');
    } catch (e) {
      rmSync(partial, { force: true });
      throw e;
    } finally {
      rmSync(copy, { force: true });
    }
    // The copy's bytes, then its name: a backup that survives a power cut is whole.
    syncPath(partial);
    renameSync(partial, join(this.dir, file));
    syncPath(this.dir);
    // The one just made is never the one pruned (CONTRACT §12): it is kept with the newest keep − 1 others.
    for (const old of this.list().filter((b) => b.file !== file).slice(this.keep - 1)) rmSync(join(this.dir, old.file), { force: true });
    const info = this.info(file)!;
    this.deps.log.info({ file, size: info.size }, 'backup written');
    return info;
  }

  /**
   * A name that sorts after every kept backup: this second's, with the next counter when the second
   * already has one — or the newest kept backup's second when the clock is behind it (set back), so
   * the order of names stays the order the backups were made in.
   */
  private nextName(): string {
    const stamp = this.deps.clock.now().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    const newest = this.list()[0]?.file;
    const [newestStamp, newestN] = newest ? orderOf(newest) : ['', 0];
    const now = stamp.replace('-', '');
    if (now > newestStamp) return `hub-${stamp}.sqlite`;
    return `hub-${newestStamp.slice(0, 8)}-${newestStamp.slice(8)}-${newestN + 1}.sqlite`;
  }

  /** Removes backups a power cut or a crash left half-written (`*.partial`); run at start. */
  discardPartials(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.partial'));
    } catch {
      return [];
    }
    for (const n of names) rmSync(join(this.dir, n), { force: true });
    if (names.length) this.deps.log.warn({ files: names }, 'removed half-written backups');
    return names;
  }

  /** Backs up every `everyMs`, and at once when the newest backup is older than that. */
  schedule(everyMs: number): void {
    if (everyMs <= 0) return;
    const newest = this.list()[0];
    const age = newest ? this.deps.clock.now().getTime() - Date.parse(newest.createdAt) : Infinity;
    const safely = () => void this.create().catch((err: unknown) => this.deps.log.error({ err }, 'scheduled backup failed'));
    if (age >= everyMs) safely();
    this.timer = setInterval(safely, everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
    await this.next?.catch(() => undefined);
  }
}
