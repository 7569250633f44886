/**
 * Sessions (CONTRACT §5): login with user, password and device; opaque random tokens stored only
 * as SHA-256 hashes; refresh; logout; one session per sale device; throttled failures.
 */
import type { Language } from '../../i18n/index.js';
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { inTransaction } from '../../../db/client.js';
import type { Caller } from '../../http/caller.js';
import { errors } from '../../http/errors.js';
import { SALE_ENVS } from '../../http/rights.js';
import type { Doc, EngineContext } from '../engine/define.js';
import { getStored } from '../engine/repo.js';
import { parseOr400 } from '../engine/validate.js';
import { MAX_STRING } from '../engine/fields.js';
import { devices } from '../devices/resource.js';
import { verifyPassword } from './passwords.js';
import * as repo from './repo.js';
import { LoginThrottle } from './throttle.js';
import { HashGate } from './hash-gate.js';
import { SessionCache } from './session-cache.js';

export const loginSchema = z.object({
  userName: z.string().min(1).max(MAX_STRING),
  password: z.string().min(1).max(MAX_STRING),
  deviceName: z.string().min(1).max(MAX_STRING),
});
// Any string may be presented; one the hub never made is simply unknown (401).
export const refreshSchema = z.object({ tokenId: z.string().min(1).max(MAX_STRING), refreshToken: z.string().min(1).max(MAX_STRING) });

/** CONTRACT §12: a login beyond this ends the user's oldest session (1,000 logins made 1,000 before). */
export const MAX_SESSIONS_PER_USER = 20;

/** A refresh token outlives its access token so a register can come back after a night off. */
const REFRESH_LIFETIME_MS = 7 * 24 * 3600_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

export interface SessionView {
  expiresAt: string;
  user: { id: string; userName: string; name: string; rights: string[]; language: Language | null; device: Doc };
}

export class AuthService {
  readonly throttle: LoginThrottle;
  private readonly hashing = new HashGate();
  private readonly sessions: SessionCache;
  constructor(
    private readonly ctx: EngineContext,
    private readonly tokenTtlMs: number,
  ) {
    this.throttle = new LoginThrottle(ctx.clock);
    this.sessions = new SessionCache(ctx.db);
  }

  private now(): number {
    return this.ctx.clock.now().getTime();
  }

  async login(raw: unknown, address: string): Promise<SessionView & { tokenId: string; refreshToken: string }> {
    const body = parseOr400(loginSchema, raw ?? {});
    // Counted before the hash (CONTRACT §12), so parallel guesses cannot slip past the limits.
    const attempt = this.throttle.attempt(body.userName, address);
    const user = repo.findUserByName(this.ctx.db, body.userName);
    let passwordOk: boolean;
    try {
      passwordOk = await this.hashing.run(address, () => verifyPassword(body.password, user?.passwordHash));
    } catch (e) {
      attempt.withdrawn(); // refused before the password was looked at
      throw e;
    }
    const device = getStored(this.ctx.db, devices, body.deviceName);
    if (!user || !passwordOk || !user.isActive || !device || device.doc.isActive !== true) {
      throw errors.unauthenticated('auth.loginFailed');
    }
    attempt.succeeded();
    return this.openSession(user.id, body.deviceName);
  }

  /**
   * A session for a user on a device, without a password: login() after its checks, and a kitchen
   * display's pairing code (hub/kds), which vouches for the user itself. An unknown or inactive
   * user or device gets no session (401), as at login.
   */
  openSession(userId: string, deviceName: string): SessionView & { tokenId: string; refreshToken: string } {
    const device = getStored(this.ctx.db, devices, deviceName);
    const user = repo.findUserDoc(this.ctx.db, userId);
    if (!user || user.isActive !== true || !device || device.doc.isActive !== true) {
      throw errors.unauthenticated('auth.inactive');
    }
    const envName = String(device.doc.envName);
    const tokenId = newToken();
    const refreshToken = newToken();
    const now = this.now();
    inTransaction(this.ctx.db, () => {
      if (SALE_ENVS.has(envName)) repo.revokeDeviceSessions(this.ctx.db, deviceName, now);
      repo.pruneSessions(this.ctx.db, now - 24 * 3600_000);
      repo.insertSession(this.ctx.db, {
        tokenHash: hashToken(tokenId),
        refreshHash: hashToken(refreshToken),
        userId,
        deviceName,
        envName,
        createdAt: now,
        expiresAt: now + this.tokenTtlMs,
        refreshExpiresAt: now + Math.max(REFRESH_LIFETIME_MS, this.tokenTtlMs),
        revokedAt: null,
      });
      repo.capUserSessions(this.ctx.db, userId, MAX_SESSIONS_PER_USER, now);
    });
    return { tokenId, refreshToken, ...this.view(this.authenticate(tokenId)) };
  }

  /** The caller behind a token, or 401. Rights are read fresh, so a change applies at once. */
  authenticate(token: string | undefined): Caller {
    if (!token) throw errors.unauthenticated();
    return this.callerOf(hashToken(token));
  }

  /** Whether the session behind a token hash still holds: not logged out, expired, nor its user or device deactivated. */
  isLive(tokenHash: string): boolean {
    try {
      this.callerOf(tokenHash);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Each device's last request this run (kept in memory: a write per request would cost every
   * register a commit); with the logins the sessions table keeps, the registers' last contact.
   */
  private readonly lastRequest = new Map<string, number>();

  /** Every device, when it was last heard from (a request or a login), newest knowledge first; null: never. */
  deviceContacts(): Array<{ name: string; envName: string; isActive: boolean; lastContactAt: string | null }> {
    return repo.deviceLogins(this.ctx.db).map((d) => {
      const at = Math.max(this.lastRequest.get(d.name) ?? 0, d.lastLogin ?? 0);
      return { name: d.name, envName: d.envName, isActive: d.isActive === 1, lastContactAt: at ? new Date(at).toISOString() : null };
    });
  }

  private callerOf(tokenHash: string): Caller {
    const session = repo.findSession(this.ctx.db, tokenHash);
    if (!session || session.revokedAt !== null || session.expiresAt <= this.now()) {
      throw errors.unauthenticated('auth.tokenUnknown');
    }
    // Kept until the user or device changes (the change log drops them: session-cache.ts).
    const user = this.sessions.user(session.userId);
    const device = this.sessions.device(session.deviceName);
    if (!user || !user.isActive || !device || !device.isActive) {
      throw errors.unauthenticated('auth.sessionInactive');
    }
    this.lastRequest.set(session.deviceName, this.now());
    return {
      userId: session.userId,
      userName: user.userName,
      name: user.name,
      rights: user.rights,
      device: { name: session.deviceName, envName: device.envName, settings: device.settings },
      tokenHash,
      expiresAt: session.expiresAt,
      ...(user.language ? { language: user.language } : {}),
    };
  }

  view(caller: Caller): SessionView {
    const device = getStored(this.ctx.db, devices, caller.device.name);
    return {
      expiresAt: new Date(caller.expiresAt).toISOString(),
      user: {
        id: caller.userId,
        userName: caller.userName,
        name: caller.name,
        rights: [...caller.rights],
        language: caller.language ?? null,
        device: { ...(device?.doc ?? caller.device), _v: device?.v },
      },
    };
  }

  refresh(raw: unknown): SessionView & { tokenId: string; refreshToken: string } {
    const body = parseOr400(refreshSchema, raw ?? {});
    const session = repo.findSessionByRefresh(this.ctx.db, hashToken(body.refreshToken));
    const now = this.now();
    if (!session || session.tokenHash !== hashToken(body.tokenId) || session.revokedAt !== null || session.refreshExpiresAt <= now) {
      throw errors.unauthenticated('auth.refreshUnknown');
    }
    const tokenId = newToken();
    const refreshToken = newToken();
    inTransaction(this.ctx.db, () => {
      repo.revokeSession(this.ctx.db, session.tokenHash, now);
      repo.insertSession(this.ctx.db, {
        ...session,
        tokenHash: hashToken(tokenId),
        refreshHash: hashToken(refreshToken),
        createdAt: now,
        expiresAt: now + this.tokenTtlMs,
        refreshExpiresAt: now + Math.max(REFRESH_LIFETIME_MS, this.tokenTtlMs),
        revokedAt: null,
      });
    });
    return { tokenId, refreshToken, ...this.view(this.authenticate(tokenId)) };
  }

  logout(caller: Caller): void {
    repo.revokeSession(this.ctx.db, caller.tokenHash, this.now());
  }
}

/** `Authorization: Bearer <token>`, or the bare token (CONTRACT §5). */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  if (m) return m[1];
  const bare = header.trim();
  return bare && !/\s/.test(bare) ? bare : undefined;
}
