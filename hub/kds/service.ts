/**
 * Pairing a kitchen display (issue 10): the manager (right OrderEndpointUpdate) asks for a
 * 6-digit code for a Tablet order endpoint; the tablet trades the code, without a token, for an
 * ordinary session of a dedicated user (`kds-<endpoint>`, right OrderProcess only, a random
 * password nobody sees) on a dedicated Tool device (`KDS <endpoint>`). Nobody types a password
 * on a greasy kitchen screen, and the screen never holds more than it needs.
 *
 * The codes are Pairings (hub/http/pairings.ts), as the registers' are: in memory, ten
 * minutes, single use, wrong guesses throttled per address and per code; listed, looked up and
 * withdrawn the same way, under OrderEndpointUpdate here.
 */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { inTransaction } from '../../db/client.js';
import { SYSTEM_CALLER } from '../http/caller.js';
import type { Caller } from '../http/caller.js';
import { requireRight } from '../http/caller.js';
import { errors } from '../http/errors.js';
import { cutText } from '../http/text.js';
import * as authRepo from '../resources/auth/repo.js';
import type { AuthService, SessionView } from '../resources/auth/service.js';
import { pairingCode, type PairingView } from '../http/pairing-codes.js';
import { Pairings } from '../http/pairings.js';
import type { Doc, EngineContext } from '../engine/define.js';
import { MAX_STRING, nameKey } from '../engine/fields.js';
import { getStored, readDoc } from '../engine/repo.js';
import { serviceOf, type ResourceService } from '../engine/service.js';
import { devices } from '../resources/devices/resource.js';
import { orders } from '../resources/orders/resource.js';
import { orderEndpoints } from '../resources/orderendpoints/resource.js';
import { users } from '../resources/users/resource.js';
import { t, type Language } from '../i18n/index.js';

export { PAIRING_TTL_MS } from '../http/pairing-codes.js';
/** How long after Served a display may still bring an order back to Ready (a plate served to the wrong table). */
export const RECALL_WINDOW_MS = 30 * 60_000;
/** The one right a display's user holds: it moves orders on, nothing else. */
export const DISPLAY_RIGHTS = ['OrderProcess'] as const;

export const pairingRequestSchema = z.object({ orderEndpointName: nameKey() });
export const pairSchema = z.object({ code: pairingCode() });

export const recallSchema = z.object({ _v: z.number().int().min(0).optional() });

export type Pairing = PairingView & { orderEndpointName: string };

export type PairedSession = SessionView & { tokenId: string; refreshToken: string; orderEndpointName: string };

/**
 * `KDS <endpoint>` and `kds-<endpoint>` when that whole name fits the 64 characters names may hold;
 * else cut, with a tag of the endpoint's full name beside it: the device's setting is what scopes a
 * display to its endpoint, so two endpoints that share their first 60 characters must never share one.
 */
function displayName(prefix: string, endpoint: string): string {
  const whole = `${prefix}${endpoint}`;
  if (whole.length <= 64 && whole === whole.trimEnd()) return whole;
  const tag = createHash('sha256').update(endpoint).digest('hex').slice(0, 8);
  return `${cutText(whole, 55).trimEnd()}~${tag}`;
}
export const displayDeviceName = (endpoint: string) => displayName('KDS ', endpoint);
export const displayUserName = (endpoint: string) => displayName('kds-', endpoint);

export class KdsService {
  /** The displays' codes, made, listed and withdrawn by whoever holds OrderEndpointUpdate. */
  readonly pairings: Pairings<{ orderEndpointName: string }>;
  /** Exchanges run one at a time, so two tablets paired at once cannot both create the user. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: EngineContext,
    private readonly auth: AuthService,
    private readonly resources: Record<string, ResourceService>,
    /** The shop's language: the words of the device and user a pairing makes. */
    private readonly language: Language = 'en',
  ) {
    this.pairings = new Pairings(ctx.clock, 'OrderEndpointUpdate');
  }

  private now(): number {
    return this.ctx.clock.now().getTime();
  }

  /** A Tablet endpoint that is active, or the error the contract names (400 unknown, 403 state). */
  private tabletEndpoint(name: string): Doc {
    const stored = getStored(this.ctx.db, orderEndpoints, name);
    if (!stored) throw errors.member('orderEndpointName', 'endpoint.notFoundKds', { name });
    if (stored.doc.type !== 'Tablet') throw errors.forbidden('kds.notTablet', { name, type: String(stored.doc.type) });
    if (stored.doc.isActive !== true) throw errors.forbidden('endpoint.inactive', { name });
    return stored.doc;
  }

  create(caller: Caller, { orderEndpointName }: z.output<typeof pairingRequestSchema>): Pairing & { code: string } {
    requireRight(caller, this.pairings.right);
    const endpoint = this.tabletEndpoint(orderEndpointName);
    return this.pairings.issue(caller, { orderEndpointName: String(endpoint.name) });
  }

  /**
   * A served order back to Ready (the history list of a display): the one step back out of Served
   * that POST /api/orders/{id}/state refuses, allowed to a display (OrderProcess, an order it may
   * read) for RECALL_WINDOW_MS after it was served, stamped in stateHistory like any move.
   */
  recall(caller: Caller, id: string, { _v }: z.output<typeof recallSchema>, ifMatch?: number): Doc {
    requireRight(caller, 'OrderProcess');
    const service = serviceOf(this.resources, orders);
    // Only an order the caller may read: a display recalls its own endpoint's orders, nobody else's.
    service.get(id, caller);
    return inTransaction(this.ctx.db, () => {
      const stored = service.getStored(id);
      service.checkVersion(id, stored.v, _v, ifMatch);
      const state = stored.doc.state;
      if (state !== 'Served') throw errors.forbidden('kds.notServed', { id, state });
      const servedAt = Date.parse(stored.doc.stateChangedAt ?? stored.doc.createdAt);
      const now = this.now();
      if (!(now - servedAt <= RECALL_WINDOW_MS)) {
        throw errors.forbidden('kds.recallTooLate', { id, minutes: RECALL_WINDOW_MS / 60_000 });
      }
      const at = new Date(now).toISOString();
      const history = [...(stored.doc.stateHistory ?? []), { state: 'Ready' as const, at, userName: caller.userName }];
      return service.store(undefined, id, { ...stored.doc, state: 'Ready', stateChangedAt: at, stateHistory: history }, stored);
    });
  }

  exchange(body: z.output<typeof pairSchema>, address: string): Promise<PairedSession> {
    const run = this.queue.then(() => this.exchangeNow(body, address));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async exchangeNow({ code }: z.output<typeof pairSchema>, address: string): Promise<PairedSession> {
    const match = this.pairings.check(code, address);
    const { pairing } = match;
    if (!getStored(this.ctx.db, orderEndpoints, pairing.orderEndpointName)) {
      // Deleted since the code was made: the code can never work again, so it is spent.
      match.spend();
      throw errors.forbidden('kds.endpointGone', { name: pairing.orderEndpointName });
    }
    const endpoint = this.tabletEndpoint(pairing.orderEndpointName);
    const name = String(endpoint.name);
    const deviceName = displayDeviceName(name);
    const userName = displayUserName(name);
    // Check the device and user before the code is spent, so a refusal leaves it usable once fixed.
    const device = getStored(this.ctx.db, devices, deviceName);
    if (device && device.doc.envName !== 'Tool') {
      throw errors.forbidden('kds.deviceNotTool', { device: deviceName, envName: String(device.doc.envName) });
    }
    if (device && device.doc.isActive !== true) {
      throw errors.forbidden('kds.deviceInactive', { device: deviceName });
    }
    // A device of this name made by hand for another endpoint: its setting, not this pairing, would say whose orders the display reads.
    const setFor = (device?.doc.settings as Record<string, string> | undefined)?.OrderEndpointName;
    if (device && setFor !== name) {
      throw errors.forbidden('kds.deviceOtherEndpoint', { device: deviceName, other: setFor ?? '—', name });
    }
    const user = authRepo.findUserByName(this.ctx.db, userName);
    if (user) {
      const doc = readDoc(users, user.doc);
      if (user.isActive !== 1) throw errors.forbidden('kds.userInactive', { user: userName });
      // A pairing hands out OrderProcess and nothing more, whatever someone later gave this user.
      const extra = (doc.rights ?? []).filter((r) => !DISPLAY_RIGHTS.some((d) => d === r));
      if (extra.length) throw errors.forbidden('kds.userHoldsMore', { user: userName, rights: extra.join(', ') });
    }
    match.succeeded();

    const system: Caller = { ...SYSTEM_CALLER, userName: `pairing by ${pairing.createdBy}` };
    if (!device) {
      // Made afresh, the device ends the sessions left from a deleted one of this name (devices/resource.ts).
      await this.resources[devices.name].create(system, {
        name: deviceName,
        envName: 'Tool',
        // Within the longest text a field holds, however long the endpoint's name (itself up to that long).
        description: cutText(t(this.language, 'device.kitchenDisplay', { name }), MAX_STRING),
        settings: { OrderEndpointName: name },
      });
    }
    let userId = user?.id;
    if (!userId) {
      const created = await this.resources[users.name].create(system, {
        userName,
        name: cutText(t(this.language, 'user.kitchenDisplay', { name }), MAX_STRING),
        rights: [...DISPLAY_RIGHTS],
        password: randomBytes(24).toString('base64url'),
      });
      userId = String(created.id);
    }
    return { ...this.auth.openSession(userId, deviceName), orderEndpointName: name };
  }
}
