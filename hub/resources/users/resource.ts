import { ERR } from '../../http/api-docs.js';
import { z } from 'zod';
import { LANGUAGES } from '../../i18n/index.js';
import { canonicalRight, RIGHTS } from '../../http/rights.js';
import type { Db } from '../../../db/client.js';
import type { Caller } from '../../http/caller.js';
import { ErrorCode, errors, saidError } from '../../http/errors.js';
import { revokeUserSessions } from '../auth/repo.js';
import { activeHoldersOf, hasPinSql, userNameCondition } from './store.js';
import { hashPassword } from '../../core/passwords.js';
import { atRead, defineResource, type DocOf } from '../../engine/define.js';
import { idKeyed } from '../../engine/keys.js';
import { enumOf, idKey, MAX_STRING, pin, text } from '../../engine/fields.js';
import { bool } from '../../engine/refs.js';
import { fieldMessage, customIssue } from '../../i18n/say.js';

const right = z.string().transform((s, ctx) => {
  const r = canonicalRight(s);
  if (!r) ctx.addIssue({ code: 'custom', ...customIssue('users.notARight', { value: s, rights: RIGHTS.join(', ') }) });
  return r ?? z.NEVER;
});

/** What prepareAsync hands prepare: the hashes of what the body sets. */
interface Hashes {
  passwordHash?: string;
  pinHash?: string;
}

/**
 * Users of the hub (CONTRACT §5). `password` and `pin` are write-only; their hashes never leave the
 * hub. A PUT without `password` or `pin` keeps it; `pin: null` removes the PIN.
 */
export const users = defineResource({
  name: 'users',
  title: 'User',
  example: { userName: 'jana', name: 'Jana Nováková', password: 'change-me-soon', rights: ['TicketCreate', 'TicketUpdate'] },
  table: 'users',
  key: idKeyed(),
  schema: z.object({
    id: idKey().optional(),
    userName: z.string().min(1).max(MAX_STRING).regex(/^\S(.*\S)?$/, fieldMessage('field.noOuterSpaces')),
    name: text().default(''),
    isActive: z.boolean().default(true),
    rights: z.array(right).max(RIGHTS.length * 2).default([]),
    password: z.string().min(1).max(MAX_STRING).optional(),
    pin: pin()
      .nullable()
      .optional()
      .meta({ description: "4 to 8 digits for a quick login on a paired register (POST /api/auth with `pin`). Write-only; absent: kept; null: removed." }),
    language: enumOf(LANGUAGES)
      .nullable()
      .default(null)
      .meta({ description: "The user's language (the manager's page, the kitchen display, error details and CSV reports); null: the shop's (POS_HUB_LOCALE)." }),
  }),
  readOnly: { hasPin: atRead(z.boolean().describe('Whether the user has a PIN (the PIN itself is never answered).')) },
  hidden: { passwordHash: z.string(), pinHash: z.string().optional() },
  columns: (d) => ({ user_name: d.userName, is_active: bool(d.isActive), password_hash: d.passwordHash }),
  unique: [{ columns: ['user_name'], nocase: true, member: 'userName', message: 'users.nameTaken' }],
  filters: {
    id: { type: 'string', column: 'id' },
    userName: { type: 'string', build: (c) => userNameCondition(c) },
    isActive: { type: 'bool', column: 'is_active' },
  },
  read: { right: 'UserRead' },
  collate: ['userName', 'name'],
  // hasPin is made at read time: it sorts by the stored hash's presence, not by a stored member.
  sorts: { hasPin: () => hasPinSql },
  rights: { create: 'UserCreate', update: 'UserUpdate', delete: 'UserDelete' },
  rules: {
    notes: {
      post: 'Nobody grants a right they do not hold.',
      put: 'Nobody grants a right they do not hold, nor changes, deactivates or resets the password of a user holding a right they lack; the last active user holding UserUpdate keeps it and stays active.',
      delete: 'Nobody deletes a user holding a right they lack, nor the last active user holding UserUpdate.',
    },
    errors: {
      post: [ERR.missingRight('The body grants a right the caller does not hold (`detail` names it).')],
      put: [
        ERR.missingRight('A right granted that the caller lacks, or a change to a user holding a right the caller lacks (`detail` names them).'),
        ERR.stateForbids('The last active holder of UserUpdate losing it or being deactivated.'),
      ],
      delete: [ERR.missingRight('A user holding a right the caller lacks (`detail` names them).'), ERR.stateForbids('The last active holder of UserUpdate.')],
    },
  },
  hooks: {
    // The PIN is hashed like the password (scrypt, salted): four digits are few, the hash must be slow.
    prepareAsync: async (body): Promise<Hashes> => ({
      passwordHash: typeof body.password === 'string' ? await hashPassword(body.password) : undefined,
      pinHash: typeof body.pin === 'string' ? await hashPassword(body.pin) : undefined,
    }),
    prepare({ caller, body, existing, extra, ctx }) {
      if (existing) {
        requireOutranks(caller, existing);
        const keeps = body.isActive && body.rights.includes(WAY_BACK_IN);
        if (!keeps) requireAnotherWayBackIn(ctx.db, existing);
      }
      const hashes: Hashes = extra ?? {};
      const passwordHash = hashes.passwordHash ?? existing?.passwordHash;
      if (!passwordHash) throw errors.member('password', 'users.passwordRequired', {}, 'Required');
      // Absent: the PIN is kept; null: removed; digits: the new one.
      const pinHash = body.pin === null ? undefined : (hashes.pinHash ?? existing?.pinHash);
      // No one hands out a right they do not hold themselves (a shift manager cannot make an admin):
      // the caller lacks a right for it, errorCode 2 naming it (CONTRACT §2), like a change to a stronger user.
      const before = new Set(existing?.rights ?? []);
      const granted = body.rights.filter((r) => !before.has(r) && !caller.rights.has(r));
      if (granted.length) throw saidError(403, ErrorCode.Unauthorized, 'users.cannotGrant', { rights: granted.join(', ') });
      const { password: _password, pin: _pin, ...rest } = body;
      return { ...rest, rights: [...new Set(body.rights)], passwordHash, ...(pinHash ? { pinHash } : {}) };
    },
    afterWrite({ caller, before, after, ctx }) {
      // A password or PIN set by someone else ends the user's sessions: whoever held the old one is out.
      if (before && (before.passwordHash !== after.passwordHash || before.pinHash !== after.pinHash)) revokeUserSessions(ctx.db, String(after.id), ctx.clock.now().getTime(), caller.tokenHash);
    },
    beforeDelete({ caller, existing, ctx }) {
      requireOutranks(caller, existing);
      requireAnotherWayBackIn(ctx.db, existing);
    },
    // Users stored before `language` existed read as the shop's language (null), like a new one.
    present: ({ passwordHash: _hash, pinHash, ...doc }) => ({ ...doc, language: doc.language ?? null, hasPin: typeof pinHash === 'string' }),
  },
});

/** A user as stored. */
export type User = DocOf<typeof users>;

/** The right that manages users: the last active user holding it may not lose it (CONTRACT §5). */
const WAY_BACK_IN = 'UserUpdate';

/**
 * Nobody changes, deactivates, deletes or resets the password of a user holding a right they lack
 * (CONTRACT §5): holding UserUpdate alone must not be a way to become admin by taking admin's password.
 */
function requireOutranks(caller: Caller, target: User): void {
  const lacking = target.rights.filter((r) => !caller.rights.has(r));
  if (lacking.length) {
    throw saidError(403, ErrorCode.Unauthorized, 'users.outranks', { user: String(target.userName), rights: lacking.join(', ') });
  }
}

/** The last active holder of UserUpdate cannot lose it, be deactivated or deleted (403, errorCode 8). */
function requireAnotherWayBackIn(db: Db, existing: User): void {
  const holds = existing.isActive && existing.rights.includes(WAY_BACK_IN);
  if (holds && activeHoldersOf(db, WAY_BACK_IN, String(existing.id)) === 0) {
    throw errors.forbidden('users.lastHolder', { user: String(existing.userName), right: WAY_BACK_IN });
  }
}
