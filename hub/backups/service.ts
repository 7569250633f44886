/**
 * Online backups (issue 9): SQLite's backup API into `<data>/backups`, on demand and on a
 * schedule, keeping the newest `keep` files. A backup is written under a temporary name and
 * renamed when complete (then fsynced with its directory), so a half-written file is never mistaken
 * for a backup; leftovers of a cut are removed at start.
 */
import { readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { backupDb, type Db } from '../../db/client.js';
import { syncPath } from '../../db/files.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';

export interface BackupInfo {
  file: string;
  size: number;
  createdAt: string;
}

const NAME = /^hub-(\d{8})-(\d{6})(?:-\d+)?\.sqlite$/;

export class BackupService {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<BackupInfo> | undefined;

  constructor(
    private readonly deps: { db: Db; clock: Clock; log: Logger },
    readonly dir: string,
    private readonly keep: number,
  ) {}

  list(): BackupInfo[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => NAME.test(n));
    } catch {
      return [];
    }
    return names
      .sort()
      .reverse()
      .map((file) => {
        const st = statSync(join(this.dir, file));
        return { file, size: st.size, createdAt: st.mtime.toISOString() };
      });
  }

  /** The path of the kept backup named exactly `file` (a name from list(): no other path is reachable). */
  path(file: string): string | undefined {
    return this.list().some((b) => b.file === file) ? join(this.dir, file) : undefined;
  }

  /** One backup at a time: a second request while one runs gets the same result. */
  create(): Promise<BackupInfo> {
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(): Promise<BackupInfo> {
    const now = this.deps.clock.now();
    const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    let file = `hub-${stamp}.sqlite`;
    for (let i = 2; this.list().some((b) => b.file === file); i++) file = `hub-${stamp}-${i}.sqlite`;
    const partial = join(this.dir, `${file}.partial`);
    await backupDb(this.deps.db, partial);
    // The copy's bytes, then its name: a backup that survives a power cut is whole.
    syncPath(partial);
    renameSync(partial, join(this.dir, file));
    syncPath(this.dir);
    for (const old of this.list().slice(this.keep)) rmSync(join(this.dir, old.file), { force: true });
    const info = this.list().find((b) => b.file === file)!;
    this.deps.log.info({ file, size: info.size }, 'backup written');
    return info;
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
  }
}
