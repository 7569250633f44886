/** scrypt password hashes (CONTRACT §5): salted, slow, compared in constant time. */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** The cost every hash is made with: N = 2^14 (~30 ms and 16 MB), stored in the hash so a later cost still verifies it. */
export const PASSWORD_COST = { N: 16384, r: 8, p: 1, keylen: 32 } as const;
let PARAMS: { N: number; r: number; p: number; keylen: number } = PASSWORD_COST;

/**
 * For the test suite only (test/support/setup.ts): the suite hashes over a thousand passwords, half a
 * minute of a core at the real cost, with nothing to learn from the slowness. The hub never calls
 * it; a hash made cheaper still carries its own N, and the auth tests check the real cost.
 */
export function setPasswordCostForTests(N: number): void {
  PARAMS = { ...PASSWORD_COST, N };
}

function derive(password: string, salt: Buffer, o: ScryptOptions & { keylen: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, o.keylen, { N: o.N, r: o.r, p: o.p, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** A hash of a password nobody has, so an unknown user costs the same time as a wrong password. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const hash = stored ?? (await (decoy ??= hashPassword(randomBytes(16).toString('hex'))));
  const [scheme, N, r, p, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(N), r: Number(r), p: Number(p), keylen: expected.length });
  return timingSafeEqual(actual, expected) && stored !== undefined;
}
