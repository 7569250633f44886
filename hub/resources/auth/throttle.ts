import type { Clock } from '../../clock.js';

/**
 * Failed-login throttling (CONTRACT §11): 10 failures for one user name within 15 minutes, or 50
 * from one address, refuse further attempts until the window has passed. Loopback is not exempt.
 * Kept in memory: a restart forgives, which costs an attacker a power cycle of the shop's hub.
 */
export const WINDOW_MS = 15 * 60_000;
export const MAX_PER_USER = 10;
export const MAX_PER_ADDRESS = 50;

export class LoginThrottle {
  private readonly byUser = new Map<string, number[]>();
  private readonly byAddress = new Map<string, number[]>();
  constructor(private readonly clock: Clock) {}

  private recent(map: Map<string, number[]>, key: string): number[] {
    const cutoff = this.clock.now().getTime() - WINDOW_MS;
    const list = (map.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) map.set(key, list);
    else map.delete(key);
    return list;
  }

  /** Seconds to wait, or 0 when an attempt may go ahead. */
  retryAfterS(userName: string, address: string): number {
    const now = this.clock.now().getTime();
    const waits: number[] = [];
    const u = this.recent(this.byUser, userName.toLowerCase());
    if (u.length >= MAX_PER_USER) waits.push(u[u.length - MAX_PER_USER] + WINDOW_MS - now);
    const a = this.recent(this.byAddress, address);
    if (a.length >= MAX_PER_ADDRESS) waits.push(a[a.length - MAX_PER_ADDRESS] + WINDOW_MS - now);
    return waits.length ? Math.max(1, Math.ceil(Math.max(...waits) / 1000)) : 0;
  }

  fail(userName: string, address: string): void {
    const now = this.clock.now().getTime();
    this.byUser.set(userName.toLowerCase(), [...this.recent(this.byUser, userName.toLowerCase()), now]);
    this.byAddress.set(address, [...this.recent(this.byAddress, address), now]);
  }

  succeed(userName: string): void {
    this.byUser.delete(userName.toLowerCase());
  }
}
