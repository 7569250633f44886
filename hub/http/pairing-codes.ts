/**
 * One-time pairing codes, for kitchen displays (hub/kds) and registers (hub/registers): a manager
 * asks for a 6-digit code for one thing, a tablet trades it, without a token, for what it is to be.
 *
 * Codes live only in memory, as HMACs under a key made at start: they last ten minutes, are used
 * once, and a hub restart forgets them (the manager makes a new one). Guessing is throttled the way
 * logins are (issue 30 point 12), per address and per target, so nobody on the LAN can lock pairing
 * for everyone:
 * - per address: 10 wrong codes within 15 minutes make that address wait (429) for the rest of the
 *   window, whatever code it sends next; other addresses pair on;
 * - per code: a code that has seen 50 wrong codes (from anyone) since it was made is void (429 when
 *   it is finally sent): someone is walking the code space with many addresses, and the manager makes
 *   a new code, which starts afresh.
 * Walking a million codes at 10 a quarter of an hour per address, with at most 50 guesses against any
 * one code, hits it with a chance of at most 1 in 20,000.
 */
import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../core/clock.js';
import { errors } from './errors.js';
import { fieldMessage } from '../i18n/say.js';
import { newId } from '../core/ids.js';
import { LoginThrottle } from './throttle.js';

export const PAIRING_TTL_MS = 10 * 60_000;
/** Wrong codes from anyone, while a code is outstanding, after which that code no longer works. */
export const MAX_WRONG_PER_CODE = 50;

/** Six digits; spaces and dashes a person types between groups are dropped. */
export const pairingCode = () =>
  z.preprocess((v) => (typeof v === 'string' ? v.replace(/[\s-]/g, '') : v), z.string().regex(/^\d{6}$/, fieldMessage('field.pairingCode')));

/** What every pairing shows (never its code, which is shown once, to the manager who asked). */
export interface PairingView {
  id: string;
  createdAt: string;
  /** The user name of the manager who asked for the code. */
  createdBy: string;
  expiresAt: string;
}

interface Entry<T> {
  view: PairingView & T;
  expiresAtMs: number;
  /** Wrong codes sent while this one was outstanding. */
  wrong: number;
}

/** A code found: `succeeded()` spends it and forgives the address its earlier wrong codes. */
export interface PairingMatch<T> {
  pairing: PairingView & T;
  succeeded(): void;
  /** The code can never work again (its target is gone): spent without forgiving anything. */
  spend(): void;
}

export class PairingCodes<T extends object> {
  private readonly key = randomBytes(32);
  private readonly byHash = new Map<string, Entry<T>>();
  /** Per address: a LoginThrottle keyed by the address itself (10 failures lock it). */
  private readonly throttle: LoginThrottle;

  constructor(private readonly clock: Clock) {
    this.throttle = new LoginThrottle(clock);
  }

  private now(): number {
    return this.clock.now().getTime();
  }

  private hash(code: string): string {
    return createHmac('sha256', this.key).update(code).digest('hex');
  }

  private prune(): void {
    const now = this.now();
    for (const [hash, p] of this.byHash) if (p.expiresAtMs <= now) this.byHash.delete(hash);
  }

  /** A new code for `target`, valid for PAIRING_TTL_MS. */
  issue(target: T, createdBy: string): PairingView & T & { code: string } {
    this.prune();
    let code: string;
    // Outstanding codes are few; a clash would make one of them unusable, so draw again.
    do code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    while (this.byHash.has(this.hash(code)));
    const now = this.now();
    const view = {
      id: newId(),
      ...target,
      createdAt: new Date(now).toISOString(),
      createdBy,
      expiresAt: new Date(now + PAIRING_TTL_MS).toISOString(),
    } as PairingView & T;
    this.byHash.set(this.hash(code), { view, expiresAtMs: now + PAIRING_TTL_MS, wrong: 0 });
    return { ...view, code };
  }

  /** The codes that still work (not used, expired, withdrawn nor void), soonest to expire first. */
  list(): Array<PairingView & T> {
    this.prune();
    return [...this.byHash.values()]
      .filter((e) => e.wrong < MAX_WRONG_PER_CODE)
      .sort((a, b) => a.expiresAtMs - b.expiresAtMs || a.view.id.localeCompare(b.view.id))
      .map((e) => e.view);
  }

  get(id: string): (PairingView & T) | undefined {
    return this.list().find((p) => p.id === id);
  }

  /** Withdraws a code before it is used; undefined when no outstanding code has this id. */
  revoke(id: string): (PairingView & T) | undefined {
    this.prune();
    for (const [hash, e] of this.byHash) {
      if (e.view.id !== id) continue;
      this.byHash.delete(hash);
      return e.view;
    }
    return undefined;
  }

  /** Withdraws every outstanding code for which `test` holds (their target was paired another way). */
  revokeWhere(test: (pairing: PairingView & T) => boolean): void {
    for (const [hash, e] of this.byHash) if (test(e.view)) this.byHash.delete(hash);
  }

  /**
   * The pairing a code sent from `address` stands for. Counted before it is looked at, like a login:
   * a wrong code is 401 and counts against the address and every outstanding code; a locked address
   * or a void code is 429. The code stays usable until the caller calls succeeded() or spend().
   */
  check(code: string, address: string): PairingMatch<T> {
    const attempt = this.throttle.attempt(address, address, 'tooMany.pairingCodes');
    this.prune();
    const hash = this.hash(code);
    const entry = this.byHash.get(hash);
    if (!entry) {
      for (const e of this.byHash.values()) e.wrong++;
      throw errors.unauthenticated('pairing.badCode');
    }
    if (entry.wrong >= MAX_WRONG_PER_CODE) throw errors.tooManyRequests(1, 'tooMany.pairingCodeVoid');
    return {
      pairing: entry.view,
      succeeded: () => {
        this.byHash.delete(hash);
        attempt.succeeded();
      },
      spend: () => {
        this.byHash.delete(hash);
      },
    };
  }
}
