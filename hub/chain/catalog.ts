/**
 * HQ → store catalog (CONTRACT §13). Each catalog message carries one version for this store; the
 * hub applies version v only when v = applied + 1, through the resource engine's own write path
 * (rights, checks, `_v`, the change log: registers see it at once and HQ gets it back as an event),
 * in the same SQLite transaction as the new applied version, and acks after that commit. A version
 * already applied (a redelivery after a crash between commit and ack) is acked and skipped; one
 * that comes early waits for its predecessor (nak with a delay).
 */
import { inTransaction, whenDurable, type Db } from '../../db/client.js';
import type { Caller } from '../http/caller.js';
import { HubError, saidError } from '../http/errors.js';
import { SYSTEM_CALLER } from '../http/caller.js';
import type { Logger } from '../core/log.js';
import type { ResourceService } from '../resources/engine/service.js';
import type { CatalogChange } from '../hq/protocol.js';
import { appliedCatalogVersion, pluIdByCode, setAppliedCatalogVersion } from './repo.js';
import { newId } from '../resources/engine/keys.js';

/** Who HQ's changes are written as: every right (the system's), a back-office device (it sells nothing). */
export const HQ_CALLER: Caller = { ...SYSTEM_CALLER, userId: 'hq', userName: 'hq', name: 'Head office', device: { name: 'HQ', envName: 'BackOffice' } };

export type ApplyOutcome = 'applied' | 'skipped' | 'early' | 'failed' | 'retry';

export class CatalogApplier {
  constructor(
    private readonly db: Db,
    private readonly resources: Record<string, ResourceService>,
    private readonly log: Logger,
  ) {}

  applied(): number {
    return appliedCatalogVersion(this.db);
  }

  /**
   * `failed`: the store's own rules refused the change (a 4xx: an unknown stock, say); the version
   * counts as applied with the error kept for HQ to show, so later versions are not held up
   * forever. `retry`: anything else (the database busy): the message comes again.
   */
  async apply(change: CatalogChange): Promise<ApplyOutcome> {
    const applied = appliedCatalogVersion(this.db);
    if (change.version <= applied) return 'skipped';
    if (change.version > applied + 1) return 'early';
    let outcome: ApplyOutcome = 'applied';
    try {
      inTransaction(this.db, () => {
        this.write(change);
        setAppliedCatalogVersion(this.db, change.version);
      });
    } catch (err) {
      if (!(err instanceof HubError) || err.status >= 500) {
        this.log.warn({ err, version: change.version }, 'catalog change not applied yet; it comes again');
        return 'retry';
      }
      this.log.warn({ version: change.version, resource: change.resource, key: change.key, detail: err.message }, 'catalog change refused by this store');
      inTransaction(this.db, () => setAppliedCatalogVersion(this.db, change.version, { version: change.version, detail: err.message }));
      outcome = 'failed';
    }
    // The ack that follows tells HQ it is done: only once it would survive a power cut.
    await whenDurable(this.db);
    return outcome;
  }

  private write(change: CatalogChange): void {
    const service = this.resources[change.resource];
    if (!service) throw saidError(400, 3, 'hq.unknownCatalogResource', { resource: change.resource });
    const doc: Record<string, unknown> = { ...(change.doc ?? {}) };
    delete doc._v; // HQ's document replaces the store's, whatever version the store holds
    let key: string | number;
    if (change.resource === 'plus') {
      const slash = change.key.lastIndexOf('/');
      const stockName = change.key.slice(0, slash);
      const code = Number(change.key.slice(slash + 1));
      const id = pluIdByCode(this.db, stockName, code);
      if (change.op === 'delete') {
        if (id) service.removeSync(HQ_CALLER, id);
        return;
      }
      key = id ?? (typeof doc.id === 'string' ? doc.id : newId());
      Object.assign(doc, { id: key, stockName, code });
    } else {
      key = service.parseKey(change.key);
      if (change.op === 'delete') {
        try {
          service.removeSync(HQ_CALLER, key);
        } catch (err) {
          if (!(err instanceof HubError && err.status === 404)) throw err; // already gone is done
        }
        return;
      }
    }
    service.putSync(HQ_CALLER, key, doc);
  }
}
