/**
 * First start on an empty data directory (CONTRACT §5): user `admin` with every right, device
 * `BackOffice`, the default stock transfer numberings (§7) and payment type 1 Cash.
 */
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { syncPath } from '../db/files.js';
import { join } from 'node:path';
import { inTransaction, type Db } from '../db/client.js';
import { SYSTEM_CALLER } from './http/caller.js';
import { RIGHTS } from './http/rights.js';
import { t, type Language } from './i18n/index.js';
import type { Logger } from './core/log.js';
import type { ResourceService } from './engine/service.js';
import { getStored, refreshSortKeys } from './engine/repo.js';
import { fromZoned, zonedParts } from './core/time.js';
import { DEFAULT_NUMBERINGS } from './resources/numberings/resource.js';
import { recordKnownRights } from './rights-upgrade.js';
import { userCount } from './resources/users/store.js';


export interface BootstrapResult {
  created: boolean;
  adminPassword?: string;
  passwordFile?: string;
}

export async function bootstrap(opts: {
  db: Db;
  services: Record<string, ResourceService>;
  dataDir: string;
  adminPassword?: string;
  timeZone: string;
  now: Date;
  log: Logger;
  /** The shop's language (POS_HUB_LOCALE): the words of the records the hub makes itself. */
  language?: Language;
}): Promise<BootstrapResult> {
  const { db, services } = opts;
  // Sort keys of names are filled after the upgrade that added them, and rebuilt when POS_HUB_LOCALE changes.
  const rebuilt = inTransaction(db, () => refreshSortKeys(db, Object.values(services).map((s) => s.def)));
  if (rebuilt.length) opts.log.info({ tables: rebuilt }, 'sort keys rebuilt for the shop\u2019s language');
  if (userCount(db) > 0) return { created: false };

  const password = opts.adminPassword ?? randomBytes(12).toString('base64url');
  // The password file is written before the admin exists, and each default record is made only if
  // missing: a start cut off half-way is simply completed by the next start, never locked out.
  let passwordFile: string | undefined;
  if (!opts.adminPassword) {
    passwordFile = join(opts.dataDir, 'admin-password.txt');
    // `mode` applies only to a new file: a stale one would keep its own, so it goes first.
    rmSync(passwordFile, { force: true });
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    // On disk before the admin is: a power cut after the first start must not leave a hub nobody can log in to.
    syncPath(passwordFile);
    syncPath(opts.dataDir);
  }
  const ensure = async (service: ResourceService, key: string | number, body: Record<string, unknown>) => {
    if (!getStored(db, service.def, key)) await service.create(SYSTEM_CALLER, body);
  };
  await ensure(services.devices, 'BackOffice', { name: 'BackOffice', envName: 'BackOffice', description: t(opts.language ?? 'en', 'device.backOffice') });
  // Numbering windows count from the start of this year in the store's zone, so months and years align.
  const year = zonedParts(opts.now, opts.timeZone).year;
  const startAt = fromZoned({ year, month: 1, day: 1 }, opts.timeZone).toISOString();
  for (const n of DEFAULT_NUMBERINGS) {
    await ensure(services.stocktransfernumberings, n.id, {
      id: n.id,
      isActive: true,
      type: n.type,
      format: n.format,
      repeat: true,
      numberings: [{ isActive: true, startAt, period: { unit: n.unit, amount: 1 }, currentNumber: 0 }],
    });
  }
  await ensure(services.paymenttypes, 1, { number: 1, name: 'Cash', category: 'Cash', isActive: true, isChangeable: true });
  await ensure(services.users, 'admin', { id: 'admin', userName: 'admin', name: 'Administrator', rights: [...RIGHTS], password });
  recordKnownRights(db);
  opts.log.info({ passwordFile }, 'first start: created user admin, device BackOffice, default numberings and payment type 1 Cash');
  return { created: true, adminPassword: opts.adminPassword ? undefined : password, passwordFile };
}
