/**
 * The key that seals the secrets in backups (CONTRACT §12, issue 30 point 12): 32 random bytes in
 * `<data>/backup.key` (mode 600), made with the first backup. It lives beside the database, never in
 * it nor in a backup: a backup downloaded through the API (right `Backup`) holds the SMTP password
 * and the devices' secret settings only as AES-256-GCM ciphertext, each bound to where it was taken
 * from. `npm run restore` opens them with the data directory's key (or `--key <file>`); restored on
 * another PC without that key, the rest of the backup restores and those secrets are entered again.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { syncPath } from '../../db/files.js';
import type { SealedSecret, Sealer } from '../../db/sealed-backup.js';
import { isSecretSetting } from '../engine/secrets.js';

export const BACKUP_KEY_FILE = 'backup.key';
const FORMAT = 'v1';

export const backupKeyPath = (dataDir: string) => join(dataDir, BACKUP_KEY_FILE);

/** The key in `file`, or undefined when there is none; a file that holds no key is an error naming it. */
export function readBackupKey(file: string): Buffer | undefined {
  if (!existsSync(file)) return undefined;
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a backup key (32 bytes, base64)`);
  return key;
}

/** The data directory's key, made (mode 600, synced with its directory) when there is none yet. */
export function backupKey(dataDir: string): Buffer {
  const file = backupKeyPath(dataDir);
  const existing = readBackupKey(file);
  if (existing) return existing;
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  syncPath(file);
  syncPath(dirname(file));
  return key;
}

/**
 * The key of the Idempotency-Key request fingerprints (hub/http/idempotency.ts), derived from the data
 * directory's backup key (made here if there is none yet): fingerprints of bodies that carried a secret
 * go into backups, where they must not be testable against guesses without the key.
 */
export function fingerprintKey(dataDir: string): Buffer {
  return createHmac('sha256', backupKey(dataDir)).update('POS Hub idempotency fingerprints v1').digest();
}

const aad = (where: SealedSecret) => Buffer.from(`${where.place}\u0000${where.name}`, 'utf8');

/** Seals with `key`: `v1.<iv>.<tag>.<ciphertext>` (base64url), bound to `where`. */
export function sealWith(key: Buffer, plain: string, where: SealedSecret): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad(where));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [FORMAT, iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

/** Opens a sealed value, or null: another key, another place, or not a sealed value at all. */
export function openWith(key: Buffer, sealed: string, where: SealedSecret): string | null {
  const [format, iv, tag, body] = sealed.split('.');
  if (format !== FORMAT || iv === undefined || tag === undefined || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url')).setAAD(aad(where));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** What BackupService seals a copy with. */
export function sealerFor(key: Buffer): Sealer {
  return { isSecretSetting, seal: (plain, where) => sealWith(key, plain, where) };
}
