import { z } from 'zod';
import { canonicalRight, RIGHTS, type Right } from '../../http/rights.js';
import { errors } from '../../http/errors.js';
import { hashPassword } from '../auth/passwords.js';
import { defineResource } from '../engine/define.js';
import { idKeyed } from '../engine/keys.js';
import { idKey, text } from '../engine/fields.js';
import { bool } from '../engine/refs.js';

const right = z.string().transform((s, ctx) => {
  const r = canonicalRight(s);
  if (!r) ctx.addIssue({ code: 'custom', message: `'${s}' is not a right. Known rights: ${RIGHTS.join(', ')}.` });
  return r ?? s;
});

/** Users of the hub (CONTRACT §5). `password` is write-only; the stored hash never leaves the hub. */
export const users = defineResource({
  name: 'users',
  title: 'User',
  table: 'users',
  key: idKeyed(),
  schema: z.object({
    id: idKey().optional(),
    userName: z.string().min(1).max(64).regex(/^\S(.*\S)?$/, 'must not start or end with spaces'),
    name: text().default(''),
    isActive: z.boolean().default(true),
    rights: z.array(right).max(RIGHTS.length * 2).default([]),
    password: z.string().min(1).max(256).optional(),
  }),
  readOnly: {},
  ignored: ['passwordHash'],
  columns: (d) => ({ user_name: d.userName as string, is_active: bool(d.isActive), password_hash: d.passwordHash as string }),
  unique: [{ columns: ['user_name'], nocase: true, member: 'userName', message: 'This user name is taken.' }],
  filters: {
    id: { type: 'string', column: 'id' },
    userName: { type: 'string', column: 'user_name', nocase: true },
    isActive: { type: 'bool', column: 'is_active' },
  },
  rights: { create: 'UserCreate', update: 'UserUpdate', delete: 'UserDelete' },
  hooks: {
    prepareAsync: async (body) => (typeof body.password === 'string' ? hashPassword(body.password) : undefined),
    prepare({ caller, body, existing, extra }) {
      const passwordHash = (extra as string | undefined) ?? (existing?.passwordHash as string | undefined);
      if (!passwordHash) throw errors.member('password', 'is required for a new user.', 'Required');
      // No one hands out a right they do not hold themselves (a shift manager cannot make an admin).
      const before = new Set((existing?.rights as string[] | undefined) ?? []);
      const granted = (body.rights as Right[]).filter((r) => !before.has(r) && !caller.rights.has(r));
      if (granted.length) throw errors.forbidden(`You cannot grant rights you do not hold: ${granted.join(', ')}.`);
      const { password: _password, ...rest } = body;
      return { ...rest, rights: [...new Set(body.rights as string[])], passwordHash };
    },
    present: ({ passwordHash: _hash, ...doc }) => doc,
  },
});
