/**
 * What every request's session check needs of its user and its device, read and parsed once and
 * kept until either changes (issue 31): a user's rights, name, language and whether it is active; a
 * device's environment, settings and whether it is active. The change log drops a copy the moment
 * its document changes (hub/events/cache.ts), so deactivating a user or a device, or taking a right
 * away, holds from the very next request. The session row itself is read afresh every time: a
 * logout, a revoked or expired session ends at once.
 */
import type { Db } from '../../../db/client.js';
import { ChangeCache } from '../../events/cache.js';
import { canonicalRight, type Right } from '../../http/rights.js';
import { isLanguage, type Language } from '../../i18n/index.js';
import type { Doc } from '../../engine/define.js';
import { getStored } from '../../engine/repo.js';
import { devices } from '../devices/resource.js';
import { findUserDoc } from './repo.js';

export interface SessionUser {
  userName: string;
  name: string;
  isActive: boolean;
  rights: ReadonlySet<Right>;
  language?: Language;
}

export interface SessionDevice {
  isActive: boolean;
  envName: string;
  settings: Readonly<Record<string, string>>;
  /** The stored document and its version (a login's answer shows it). */
  doc: Readonly<Doc>;
  v: number;
}

export class SessionCache {
  private readonly users: ChangeCache<SessionUser>;
  private readonly devices: ChangeCache<SessionDevice>;

  constructor(private readonly db: Db) {
    // The users resource's change-log name (users/resource.ts imports this folder: named, not imported).
    this.users = new ChangeCache(db, { resources: ['users'] });
    this.devices = new ChangeCache(db, { resources: [devices.name] });
  }

  user(id: string): SessionUser | undefined {
    return this.users.get(id, () => {
      const doc = findUserDoc(this.db, id);
      if (!doc) return undefined;
      return Object.freeze({
        userName: String(doc.userName),
        name: String(doc.name ?? ''),
        isActive: doc.isActive === true,
        rights: new Set((doc.rights as string[]).map(canonicalRight).filter((r): r is Right => !!r)),
        ...(isLanguage(doc.language) ? { language: doc.language } : {}),
      });
    });
  }

  device(name: string): SessionDevice | undefined {
    return this.devices.get(name, () => {
      const stored = getStored(this.db, devices, name);
      if (!stored) return undefined;
      return Object.freeze({
        isActive: stored.doc.isActive === true,
        envName: stored.doc.envName,
        settings: Object.freeze({ ...stored.doc.settings }),
        doc: Object.freeze(stored.doc),
        v: stored.v,
      });
    });
  }
}
