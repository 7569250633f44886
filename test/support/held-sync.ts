/** A WAL fdatasync a test holds (db/durability.ts's injected SyncFd): counted, and waiting while held until released or failed. */
import { fdatasync, type SyncFd } from '../../db/durability.js';

export class HeldSync {
  calls = 0;
  private pending: Array<{ fd: number; resolve: () => void; reject: (e: Error) => void }> = [];
  constructor(public hold = true) {}
  readonly fn: SyncFd = (fd) => {
    this.calls += 1;
    if (!this.hold) return fdatasync(fd);
    return new Promise<void>((resolve, reject) => this.pending.push({ fd, resolve, reject }));
  };
  get waiting(): number {
    return this.pending.length;
  }
  /** Completes the syncs started so far (really syncing the file). */
  async release(): Promise<void> {
    const now = this.pending;
    this.pending = [];
    for (const p of now) await fdatasync(p.fd).then(p.resolve, p.reject);
  }
  fail(message = 'EIO: i/o error, fdatasync'): void {
    const now = this.pending;
    this.pending = [];
    for (const p of now) p.reject(Object.assign(new Error(message), { code: 'EIO' }));
  }
}
