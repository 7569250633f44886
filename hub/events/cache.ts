/**
 * In-memory copies of stored documents, kept only as long as the documents do not change (issue 31):
 * what every request would otherwise read and parse again — a session's user and device, the
 * catalog a ticket write prices its items from. A copy that outlived its document would be a
 * security bug (a deactivated user still selling, a revoked right still granted), so a copy is
 * dropped by the change log's own entries (engine/change-log.ts onChange), written in the transaction of
 * every stored change, before that transaction even ends; and:
 *  - a write that rolls back (a savepoint, at any depth) drops again what it had changed, in case
 *    its own work read a document after changing it and kept a copy of what never happened;
 *  - a commit by another connection (another process writing to the file: `PRAGMA data_version`
 *    moves) drops everything.
 * A load that finds nothing is not kept: a document created later is never hidden by an old miss.
 */
import { dataVersion, inWrite, watchWrites, type Db } from '../../db/client.js';
import { onChange } from '../engine/change-log.js';

export interface ChangeCacheOptions {
  /** The change-log resources whose entries drop copies. */
  resources: readonly string[];
  /**
   * The copies a change of `key` drops: by default the copy kept under the same key; `all` for
   * copies that gather many documents (the active order endpoints, say).
   */
  drops?: (resource: string, key: string) => readonly string[] | 'all';
}

export class ChangeCache<V> {
  private readonly entries = new Map<string, V>();
  private version: number;
  /** What the writes in progress changed: dropped again should one of them roll back. */
  private touched: string[] = [];
  private touchedAll = false;

  constructor(
    private readonly db: Db,
    opts: ChangeCacheOptions,
  ) {
    this.version = dataVersion(db);
    const resources = new Set(opts.resources);
    const drops = opts.drops ?? ((_: string, key: string) => [key]);
    onChange(db, (resource, key) => {
      if (!resources.has(resource)) return;
      const gone = drops(resource, key);
      const writing = inWrite(db);
      if (gone === 'all') {
        this.entries.clear();
        if (writing) this.touchedAll = true;
        return;
      }
      for (const k of gone) this.entries.delete(k);
      if (writing) this.touched.push(...gone);
    });
    watchWrites(db, {
      rolledBack: () => {
        if (this.touchedAll) this.entries.clear();
        for (const k of this.touched) this.entries.delete(k);
      },
      ended: () => {
        this.touched = [];
        this.touchedAll = false;
      },
    });
  }

  /** The copy kept under `key`, or what `load` reads (kept unless it is undefined). */
  get(key: string, load: () => V | undefined): V | undefined {
    this.checkVersion();
    const kept = this.entries.get(key);
    if (kept !== undefined) return kept;
    const loaded = load();
    if (loaded !== undefined) this.entries.set(key, loaded);
    return loaded;
  }

  /** Copies already kept, without loading (a caller that loads many at once). */
  peek(key: string): V | undefined {
    this.checkVersion();
    return this.entries.get(key);
  }

  /** Keeps a copy read by the caller (with `peek`, for loads of many keys in one statement). */
  keep(key: string, value: V): void {
    this.entries.set(key, value);
  }

  /** Another process committed to the file: nothing kept can be trusted. */
  private checkVersion(): void {
    const now = dataVersion(this.db);
    if (now !== this.version) {
      this.version = now;
      this.entries.clear();
    }
  }
}
