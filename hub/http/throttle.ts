import type { Clock } from '../core/clock.js';
import { errors } from './errors.js';
import type { MessageKey } from '../i18n/index.js';

/**
 * Failed-login throttling (CONTRACT §11, §12): 10 failures for one user name within 15 minutes, or 50
 * from one address, refuse further attempts until the window has passed. Loopback is not exempt.
 *
 * An attempt is counted as a failure *before* its password is checked, and taken back only if the
 * password was right: checking the count first and recording the failure after the ~40 ms hash let
 * 300 parallel guesses all through the check (and 200 of them found a password). Kept in memory: a
 * restart forgives, which costs an attacker a power cycle of the shop's hub.
 */
export const WINDOW_MS = 15 * 60_000;
export const MAX_PER_USER = 10;
export const MAX_PER_ADDRESS = 50;

interface Mark {
  at: number;
}

/** One attempt in progress: counted already; `succeeded()` takes it back and forgives the user's failures. */
export interface LoginAttempt {
  succeeded(): void;
  /** Not tried after all (the hash queue was full): the attempt counts for nothing. */
  withdrawn(): void;
}

export class LoginThrottle {
  private readonly byUser = new Map<string, Mark[]>();
  private readonly byAddress = new Map<string, Mark[]>();
  constructor(private readonly clock: Clock) {}

  private recent(map: Map<string, Mark[]>, key: string): Mark[] {
    const cutoff = this.clock.now().getTime() - WINDOW_MS;
    const list = (map.get(key) ?? []).filter((m) => m.at > cutoff);
    if (list.length) map.set(key, list);
    else map.delete(key);
    return list;
  }

  /** Seconds to wait, or 0 when an attempt may go ahead. */
  retryAfterS(userName: string, address: string): number {
    const now = this.clock.now().getTime();
    const waits: number[] = [];
    const u = this.recent(this.byUser, userName.toLowerCase());
    if (u.length >= MAX_PER_USER) waits.push(u[u.length - MAX_PER_USER].at + WINDOW_MS - now);
    const a = this.recent(this.byAddress, address);
    if (a.length >= MAX_PER_ADDRESS) waits.push(a[a.length - MAX_PER_ADDRESS].at + WINDOW_MS - now);
    return waits.length ? Math.max(1, Math.ceil(Math.max(...waits) / 1000)) : 0;
  }

  /**
   * Starts an attempt: 429 when the limits are reached (counting the attempts still being checked),
   * else counted as a failure at once — synchronously, so parallel attempts see each other.
   */
  attempt(userName: string, address: string, tooMany: MessageKey = 'tooMany.failedLogins'): LoginAttempt {
    const wait = this.retryAfterS(userName, address);
    if (wait > 0) throw errors.tooManyRequests(wait, tooMany);
    const user = userName.toLowerCase();
    const mark: Mark = { at: this.clock.now().getTime() };
    this.byUser.set(user, [...this.recent(this.byUser, user), mark]);
    this.byAddress.set(address, [...this.recent(this.byAddress, address), mark]);
    const forget = (map: Map<string, Mark[]>, key: string) => {
      const left = (map.get(key) ?? []).filter((m) => m !== mark);
      if (left.length) map.set(key, left);
      else map.delete(key);
    };
    return {
      succeeded: () => {
        forget(this.byAddress, address);
        this.byUser.delete(user); // a success resets the count for that user
      },
      withdrawn: () => {
        forget(this.byAddress, address);
        forget(this.byUser, user);
      },
    };
  }
}
