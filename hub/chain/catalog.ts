/**
 * HQ → store catalog (CONTRACT §13). Each catalog message carries one version for this store; the
 * hub applies version v only when v = applied + 1, through the resource engine's own write path
 * (the resource's rights, checks, `_v`, the change log: registers see it at once and HQ gets it back
 * as an event), in the same SQLite transaction as the new applied version, and acks after that
 * commit. A version already applied (a redelivery after a crash between commit and ack) is acked
 * and skipped; one that comes early waits for its predecessor (nak with a delay).
 *
 * A store trusts HQ with its catalog only (CONTRACT §13 "Trust between the parts"): only the four
 * catalog resources, each document checked as the store's own API checks a body, written as a
 * caller holding only those resources' rights. Anything else — another resource, a message that is
 * not JSON or not a catalog change, a document the store's rules refuse — is refused: the version
 * counts as applied with the refusal kept for the heartbeat (HQ shows it), and the message is
 * acknowledged, so it can never hold up the changes after it.
 */
import { z } from 'zod';
import { inTransaction, whenDurable, type Db } from '../../db/client.js';
import type { Caller } from '../http/caller.js';
import { HubError } from '../http/errors.js';
import type { Right } from '../http/rights.js';
import { jsonDocumentProblem } from '../http/body.js';
import type { Logger } from '../core/log.js';
import type { ResourceService } from '../engine/service.js';
import { CATALOG_RESOURCES, catalogVersionOfMsgId, type CatalogResource } from '../hq/protocol.js';
import { appliedCatalogVersion, pluIdByCode, setAppliedCatalogVersion, setCatalogError } from './repo.js';
import { newId } from '../core/ids.js';
import { MAX_STRING } from '../engine/fields.js';

export type ApplyOutcome = 'applied' | 'skipped' | 'early' | 'failed' | 'retry';

/** A catalog message as the store takes it (protocol.ts CatalogChange), for this store and this version. */
const changeSchema = (storeId: string, version: number) =>
  z.object({
    storeId: z.literal(storeId),
    version: z.literal(version),
    resource: z.enum(CATALOG_RESOURCES),
    key: z.string().min(1).max(MAX_STRING),
    op: z.enum(['put', 'delete']),
    doc: z.record(z.string(), z.unknown()).nullable(),
  });
type Change = z.output<ReturnType<typeof changeSchema>>;

/** Why a change is refused: the store's own words (English, as in its log), shown at HQ. */
class Refused extends Error {}

export class CatalogApplier {
  /** Who HQ's changes are written as: the catalog resources' rights and no other, on a back-office device (it sells nothing). */
  private readonly caller: Caller;

  constructor(
    private readonly db: Db,
    private readonly storeId: string,
    private readonly resources: Record<string, ResourceService>,
    private readonly log: Logger,
  ) {
    const rights = CATALOG_RESOURCES.flatMap((r) => Object.values(this.service(r).def.rights)).filter((r): r is Right => r !== null);
    this.caller = { userId: 'hq', userName: 'hq', name: 'Head office', rights: new Set(rights), device: { name: 'HQ', envName: 'BackOffice' }, tokenHash: '', expiresAt: Number.MAX_SAFE_INTEGER };
  }

  applied(): number {
    return appliedCatalogVersion(this.db);
  }

  /**
   * One catalog message as received: its body and its message id (`catalog:<storeId>:<version>`,
   * which names the version even when the body is broken). `failed`: refused (see the module
   * comment); `retry`: anything that is not the change's fault (the database busy): it comes again.
   */
  async receive(body: string, msgId: string | undefined): Promise<ApplyOutcome> {
    let parsed: unknown;
    let notJson: string | undefined;
    try {
      parsed = JSON.parse(body);
    } catch (e) {
      notJson = `not JSON: ${(e as Error).message}`;
    }
    const claimed = (parsed as { version?: unknown } | null)?.version;
    const version = catalogVersionOfMsgId(msgId, this.storeId) ?? (Number.isSafeInteger(claimed) && (claimed as number) > 0 ? (claimed as number) : undefined);
    if (version === undefined) {
      // Not a version of this store's catalog at all: nothing to count, nothing to wait for.
      this.log.warn({ msgId }, 'a catalog message without a version of this store; dropped');
      setCatalogError(this.db, { version: 0, detail: notJson ?? 'a catalog message without a version of this store' });
      return 'failed';
    }
    const applied = appliedCatalogVersion(this.db);
    if (version <= applied) return 'skipped';
    if (version > applied + 1) return 'early';
    let outcome: ApplyOutcome = 'applied';
    try {
      if (notJson) throw new Refused(notJson);
      const change = this.check(parsed, version);
      inTransaction(this.db, () => {
        this.write(change);
        setAppliedCatalogVersion(this.db, version);
      });
    } catch (err) {
      const refused = err instanceof Refused || (err instanceof HubError && err.status < 500);
      if (!refused) {
        this.log.warn({ err, version }, 'catalog change not applied yet; it comes again');
        return 'retry';
      }
      const detail = describe(err as Error);
      this.log.warn({ version, detail }, 'catalog change refused by this store');
      inTransaction(this.db, () => setAppliedCatalogVersion(this.db, version, { version, detail }));
      outcome = 'failed';
    }
    // The ack that follows tells HQ it is done: only once it would survive a power cut.
    await whenDurable(this.db);
    return outcome;
  }

  /** The change, if it is one this store takes: its shape, then its document as the API checks a body. */
  private check(parsed: unknown, version: number): Change {
    // On the message as parsed, before anything copies it: a `__proto__` key copied is a prototype set.
    const problem = jsonDocumentProblem(parsed);
    if (problem) throw new Refused(`${problem.path || 'message'}: ${problem.key}`);
    const result = changeSchema(this.storeId, version).safeParse(parsed);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new Refused(`${issue.path.join('.') || 'message'}: ${issue.message}`);
    }
    if (result.data.op === 'put' && !result.data.doc) throw new Refused('doc: required for a put');
    return result.data;
  }

  private service(resource: CatalogResource): ResourceService {
    const service = Object.hasOwn(this.resources, resource) ? this.resources[resource] : undefined;
    if (!service) throw new Error(`the catalog resource ${resource} is not served by this hub`);
    return service;
  }

  private write(change: Change): void {
    const service = this.service(change.resource);
    const doc: Record<string, unknown> = { ...(change.doc ?? {}) };
    delete doc._v; // HQ's document replaces the store's, whatever version the store holds
    let key: string | number;
    if (change.resource === 'plus') {
      const m = /^(.+)\/(\d{1,10})$/.exec(change.key);
      if (!m) throw new Refused(`key: '${change.key}' is not <stockName>/<code>`);
      const [, stockName, codeText] = m;
      const code = Number(codeText);
      const id = pluIdByCode(this.db, stockName, code);
      if (change.op === 'delete') {
        if (id) service.removeSync(this.caller, id);
        return;
      }
      key = id ?? (typeof doc.id === 'string' ? doc.id : newId());
      Object.assign(doc, { id: key, stockName, code });
    } else {
      key = service.parseKey(change.key);
      if (change.op === 'delete') {
        try {
          service.removeSync(this.caller, key);
        } catch (err) {
          if (!(err instanceof HubError && err.status === 404)) throw err; // already gone is done
        }
        return;
      }
    }
    service.putSync(this.caller, key, doc);
  }
}

/** A refusal in a line: the store's reason and the members at fault. */
function describe(err: Error): string {
  const members = err instanceof HubError && err.errors?.length ? ` (${err.errors.map((e) => `${e.memberName}: ${e.message}`).join('; ')})` : '';
  return `${err.message}${members}`.slice(0, 1000);
}
