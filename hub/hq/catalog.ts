/**
 * The catalog relay: outbox rows committed by a catalog PUT/DELETE are published as
 * `catalog.<storeId>` messages (message id `catalog:<storeId>:<version>`, so a relay that dies
 * after publishing and before marking publishes a duplicate the stream drops), each store's
 * versions in order, stores side by side. Woken by a local push, and every quarter second for
 * pushes made by another HQ process. Once a second it also looks for stores stalled on a version
 * their heartbeats say they have not applied long after it was published (HQ's NATS lost it with
 * its storage): those versions go again (repo.ts resendCatalog).
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import type { Logger } from '../core/log.js';
import type { Pool } from './db.js';
import { relayCatalog, resendCatalog } from './repo.js';
import { catalogMsgId, catalogSubject, type CatalogChange } from './protocol.js';
import { REQUEST_TIMEOUT_MS } from './streams.js';

const POLL_MS = 250;
/** How often the relay looks for stalled stores (one query). */
const STALL_CHECK_MS = 1000;

export class CatalogRelay {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private kicked = false;

  constructor(private readonly deps: { nc: NatsConnection; pool: Pool; log: Logger; resendAfterMs: number; offlineAfterMs: number }) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** A push has just committed here: relay it now rather than at the next poll. */
  kick(): void {
    this.kicked = true;
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    const js = jetstream(this.deps.nc, { timeout: REQUEST_TIMEOUT_MS });
    let pause = POLL_MS;
    let stallCheckAt = 0;
    while (this.running) {
      this.kicked = false;
      let moved = 0;
      try {
        moved = await relayCatalog(this.deps.pool, 500, (changes) => this.publish(js, changes));
        if (Date.now() >= stallCheckAt) {
          stallCheckAt = Date.now() + STALL_CHECK_MS;
          const again = await resendCatalog(this.deps.pool, { resendAfterMs: this.deps.resendAfterMs, offlineAfterMs: this.deps.offlineAfterMs }, 500, (changes) => this.publish(js, changes));
          this.logResent(again);
        }
        pause = POLL_MS;
      } catch (err) {
        this.deps.log.warn({ err: (err as Error).message }, 'catalog relay paused');
        pause = Math.min(pause * 2, 10_000);
      }
      if (moved === 0 && !this.kicked && this.running) await this.sleep(pause);
    }
  }

  /** Per store in version order; stores at once. A store's first failure stops that store's later versions. */
  private async publish(js: ReturnType<typeof jetstream>, changes: CatalogChange[]): Promise<CatalogChange[]> {
    const byStore = new Map<string, CatalogChange[]>();
    for (const c of changes) byStore.set(c.storeId, [...(byStore.get(c.storeId) ?? []), c]);
    const done: CatalogChange[] = [];
    await Promise.all(
      [...byStore.values()].map(async (list) => {
        for (const c of list) {
          try {
            await js.publish(catalogSubject(c.storeId), JSON.stringify(c), { msgID: catalogMsgId(c.storeId, c.version), timeout: REQUEST_TIMEOUT_MS });
            done.push(c);
          } catch (err) {
            this.deps.log.warn({ err: (err as Error).message, storeId: c.storeId, version: c.version }, 'catalog change not published yet');
            return;
          }
        }
      }),
    );
    return done;
  }

  /** Said once per store and round: which versions went again, and why. */
  private logResent(changes: CatalogChange[]): void {
    const byStore = new Map<string, number[]>();
    for (const c of changes) byStore.set(c.storeId, [...(byStore.get(c.storeId) ?? []), c.version]);
    for (const [storeId, versions] of byStore) {
      this.deps.log.warn(
        { storeId, from: Math.min(...versions), to: Math.max(...versions) },
        'catalog versions published again: the store waits for one it was sent long ago (lost by NATS?)',
      );
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }
}
