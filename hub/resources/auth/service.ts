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
import type { Doc, DocOf, EngineContext } from '../../engine/define.js';
import { getStored } from '../../engine/repo.js';
import { MAX_STRING, pin } from '../../engine/fields.js';
import { customIssue } from '../../i18n/say.js';
import { devices } from '../devices/resource.js';
import { isPairedRegister, withoutKeyHash } from '../devices/register-key.js';
import { revokeDeviceSessions } from '../devices/store.js';
import { withoutSecretSettings } from '../../engine/secrets.js';
import { hashPassword, verifyPassword } from '../../core/passwords.js';
import type { ResourceService } from '../../engine/service.js';
import * as repo from './repo.js';
import { LoginThrottle } from '../../http/throttle.js';
import { HashGate } from '../../http/hash-gate.js';
import { fiscalDevices } from '../fiscaldevices/resource.js';
import { readFiscalStatus, type FiscalStatus } from '../../core/fiscal-status.js';
import { SessionCache } from './session-cache.js';

/** `password`, or `pin` on a paired register (with its key in X-Register-Key): exactly one of them. */
export const loginSchema = z.object({
  userName: z.string().min(1).max(MAX_STRING),
  password: z.string().min(1).max(MAX_STRING).optional().meta({ description: 'The password; or `pin` instead, on a paired register.' }),
  pin: pin()
    .optional()
    .meta({
      description:
        "The user's PIN instead of the password: accepted only on an active CashRegister or PDA paired from the manager's page " +
        '(POST /api/registers/pair), with that pairing\'s key in the `X-Register-Key` header; anywhere else 401.',
    }),
  deviceName: z.string().min(1).max(MAX_STRING),
}).superRefine(
  (body, ctx) => {
    if (body.password === undefined && body.pin === undefined) ctx.addIssue({ code: 'invalid_type', expected: 'string', path: ['password'], input: undefined });
    if (body.password !== undefined && body.pin !== undefined) ctx.addIssue({ code: 'custom', path: ['pin'], ...customIssue('auth.passwordOrPin'), input: body.pin });
  },
  // Also when other members failed: a body without deviceName and password names both.
  { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
);

/** A user's own PIN (POST /api/auth/pin): their password vouches for it; null removes the PIN. */
export const ownPinSchema = z.object({
  password: z.string().min(1).max(MAX_STRING).meta({ description: "The caller's current password." }),
  pin: pin().nullable().meta({ description: 'The new PIN, 4 to 8 digits; null removes it.' }),
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
  /** The shop's time zone (POS_HUB_TIMEZONE): the pages count days in it, as the hub does. */
  timeZone: string;
  user: { id: string; userName: string; name: string; rights: string[]; language: Language | null; device: Doc; fiscalDevice: SessionFiscalDevice | null };
}

/**
 * The fiscal printer the session's device closes its tickets on (its DefaultFiscalName), as much of it
 * as a register needs without SettingsRead (CONTRACT §12 keeps the fiscal devices' list behind it): the
 * driver (eKasa rounds cash to 5 cents, §8) and the status (out of paper, offline) to tell the cashier.
 */
export interface SessionFiscalDevice {
  name: string;
  driver: string;
  isActive: boolean;
  status: FiscalStatus;
}

export class AuthService {
  readonly throttle: LoginThrottle;
  private readonly hashing = new HashGate();
  private readonly sessions: SessionCache;
  constructor(
    private readonly ctx: EngineContext,
    private readonly tokenTtlMs: number,
    /** The users resource: a user's own PIN is stored through it (its rules, change log and session ends). */
    private readonly users: ResourceService,
  ) {
    this.throttle = new LoginThrottle(ctx.clock);
    this.sessions = new SessionCache(ctx.db);
  }

  private now(): number {
    return this.ctx.clock.now().getTime();
  }

  /**
   * A login with the password, or with the PIN on a paired register (CONTRACT §5). `registerKey`: the
   * X-Register-Key header, which is what proves a PIN login comes from the tablet the manager paired.
   */
  async login(body: z.output<typeof loginSchema>, address: string, registerKey?: string): Promise<SessionView & { tokenId: string; refreshToken: string }> {
    // Counted before the hash (CONTRACT §12), so parallel guesses cannot slip past the limits; a PIN
    // counts with the password's failures, under the same user name.
    const attempt = this.throttle.attempt(body.userName, address);
    const user = repo.findUserByName(this.ctx.db, body.userName);
    const device = getStored(this.ctx.db, devices, body.deviceName);
    // A PIN anywhere but on a paired register is a bad credential (and a counted failure), never checked.
    if (body.pin !== undefined && !isPairedRegister(device?.doc, registerKey)) throw errors.unauthenticated('auth.pinNotHere');
    const secret = body.pin ?? body.password!;
    const storedHash = body.pin !== undefined ? pinHashOf(user?.doc) : user?.passwordHash;
    let secretOk: boolean;
    try {
      // A user without a PIN is checked against the decoy, so the time tells nothing.
      secretOk = await this.hashing.run(address, () => verifyPassword(secret, storedHash));
    } catch (e) {
      attempt.withdrawn(); // refused before the password was looked at
      throw e;
    }
    if (!user || !secretOk || !user.isActive || !device || device.doc.isActive !== true) {
      throw errors.unauthenticated('auth.loginFailed');
    }
    attempt.succeeded();
    return this.openSession(user.id, body.deviceName);
  }

  /**
   * The caller sets or removes their own PIN (issue 29): no UserUpdate needed, but their current
   * password, checked and throttled like a login (it is a password check), so a register left
   * unlocked is no way to give a waiter a PIN someone else knows. Stored through the users resource,
   * like a manager's change: `_v` grows, the change log has it, the user's other sessions end.
   */
  async setOwnPin(caller: Caller, body: z.output<typeof ownPinSchema>, address: string): Promise<void> {
    const users = this.users;
    const attempt = this.throttle.attempt(caller.userName, address);
    const user = repo.findUserByName(this.ctx.db, caller.userName);
    let ok: boolean;
    try {
      ok = await this.hashing.run(address, () => verifyPassword(body.password, user?.passwordHash));
    } catch (e) {
      attempt.withdrawn();
      throw e;
    }
    if (!ok || user?.id !== caller.userId) throw errors.member('password', 'auth.notYourPassword');
    attempt.succeeded();
    const pinHash = body.pin === null ? undefined : await hashPassword(body.pin);
    inTransaction(this.ctx.db, () => {
      const stored = users.getStored(caller.userId);
      const { body: doc } = users.validate({ ...users.present(stored), pin: body.pin }, caller.userId);
      users.store(caller, caller.userId, doc, stored, { pinHash });
    });
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
      if (SALE_ENVS.has(envName)) revokeDeviceSessions(this.ctx.db, deviceName, now);
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
  /** The session's caller as it is now (its user's current rights), or undefined once the session has ended. */
  liveCaller(tokenHash: string): Caller | undefined {
    try {
      return this.callerOf(tokenHash);
    } catch {
      return undefined;
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
      timeZone: this.ctx.timeZone,
      user: {
        id: caller.userId,
        userName: caller.userName,
        name: caller.name,
        rights: [...caller.rights],
        language: caller.language ?? null,
        // The device as GET /api/devices answers it: never its secret settings nor its register key (CONTRACT §12).
        device: { ...withoutSecretSettings(withoutKeyHash(device?.doc ?? caller.device)), _v: device?.v },
        fiscalDevice: this.fiscalDeviceOf(device?.doc),
      },
    };
  }

  private fiscalDeviceOf(device: DocOf<typeof devices> | undefined): SessionFiscalDevice | null {
    const name = device?.settings.DefaultFiscalName;
    const fiscal = name ? getStored(this.ctx.db, fiscalDevices, name) : undefined;
    if (!fiscal) return null;
    return { name: fiscal.doc.name, driver: fiscal.doc.driver, isActive: fiscal.doc.isActive === true, status: readFiscalStatus(this.ctx.db, fiscal.doc.name) };
  }

  refresh(body: z.output<typeof refreshSchema>): SessionView & { tokenId: string; refreshToken: string } {
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

/** The PIN hash in a stored user document, if the user has a PIN. */
function pinHashOf(doc: string | undefined): string | undefined {
  if (!doc) return undefined;
  const hash = (JSON.parse(doc) as Doc).pinHash;
  return typeof hash === 'string' ? hash : undefined;
}

/** `Authorization: Bearer <token>`, or the bare token (CONTRACT §5). */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  if (m) return m[1];
  const bare = header.trim();
  return bare && !/\s/.test(bare) ? bare : undefined;
}
