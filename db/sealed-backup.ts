/**
 * Secrets in backups (CONTRACT §12, issue 30 point 12). A backup leaves the hub PC (anyone holding
 * the right `Backup` downloads it), so the secrets the hub keeps in clear because it must present
 * them — the SMTP password, devices' secret settings — are sealed in it: moved out of their rows
 * into a table `sealed_secrets`, each sealed (by the caller: hub/backups/seal.ts, AES-256-GCM under a
 * key kept in the data directory, never in the database nor in a backup). `npm run restore` puts them
 * back where the key opens them.
 *
 * The copy is then compacted into the backup file (VACUUM INTO, on a worker thread so the hub keeps
 * serving): only live rows go in, so no value a row once held survives in a freed page. VACUUM INTO
 * keeps rowids (SQLite's transfer optimisation) and writes a rollback-journal file, which the hub
 * opens in WAL mode as any other.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** Where a secret lives: `receipt_settings/<id>` (smtp_password), `<table>/<name>` (a setting of that row's doc). */
export interface SealedSecret {
  place: string;
  name: string;
}

export interface Sealer {
  /** Whether a device's (order endpoint's, fiscal device's) setting of this name is a secret. */
  isSecretSetting(name: string): boolean;
  /** The sealed form of `plain`; `where` is bound into it, so a sealed value opens only where it was taken from. */
  seal(plain: string, where: SealedSecret): string;
}

/** Tables whose documents' `settings` may hold secrets, keyed by `name`. */
const SETTINGS_TABLES = ['devices', 'order_endpoints', 'fiscal_devices'] as const;
const SMTP_NAME = 'smtp_password';

const tableExists = (client: Database.Database, table: string) =>
  client.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;

/**
 * Moves every secret of the backup copy `file` into `sealed_secrets`, sealed, and drops stored
 * idempotent answers that quote one (answers written before secrets stopped being answered).
 * Returns where the secrets were.
 */
export function sealSecrets(file: string, sealer: Sealer): SealedSecret[] {
  const client = new Database(file, { fileMustExist: true });
  try {
    // No journal file beside the copy: a cut mid-way leaves a partial file, discarded at start anyway.
    client.pragma('journal_mode = MEMORY');
    const sealed: SealedSecret[] = [];
    const plains: string[] = [];
    client.transaction(() => {
      client.exec('CREATE TABLE IF NOT EXISTS sealed_secrets (place TEXT NOT NULL, name TEXT NOT NULL, sealed TEXT NOT NULL, PRIMARY KEY (place, name))');
      const put = client.prepare('INSERT OR REPLACE INTO sealed_secrets (place, name, sealed) VALUES (?, ?, ?)');
      const keep = (where: SealedSecret, plain: string) => {
        put.run(where.place, where.name, sealer.seal(plain, where));
        sealed.push(where);
        plains.push(plain);
      };
      if (tableExists(client, 'receipt_settings')) {
        for (const row of client.prepare('SELECT id, smtp_password AS p FROM receipt_settings WHERE smtp_password IS NOT NULL').all() as Array<{ id: string; p: string }>) {
          keep({ place: `receipt_settings/${row.id}`, name: SMTP_NAME }, row.p);
        }
        client.prepare('UPDATE receipt_settings SET smtp_password = NULL').run();
      }
      for (const table of SETTINGS_TABLES) {
        if (!tableExists(client, table)) continue;
        const update = client.prepare(`UPDATE ${table} SET doc = ? WHERE name = ?`);
        for (const row of client.prepare(`SELECT name, doc FROM ${table}`).all() as Array<{ name: string; doc: string }>) {
          const doc = JSON.parse(row.doc) as { settings?: Record<string, string> };
          const secret = Object.keys(doc.settings ?? {}).filter((k) => sealer.isSecretSetting(k));
          if (!secret.length) continue;
          for (const name of secret) keep({ place: `${table}/${row.name}`, name }, doc.settings![name]);
          doc.settings = Object.fromEntries(Object.entries(doc.settings!).filter(([k]) => !secret.includes(k)));
          update.run(JSON.stringify(doc), row.name);
        }
      }
      if (tableExists(client, 'idempotency_keys')) {
        const drop = client.prepare('DELETE FROM idempotency_keys WHERE instr(body, ?) > 0');
        // As the answer's JSON spells it.
        for (const plain of new Set(plains)) if (plain) drop.run(JSON.stringify(plain).slice(1, -1));
      }
    })();
    return sealed;
  } finally {
    client.close();
  }
}

/** What the compacting thread runs: its own read-only connection, one VACUUM INTO. */
const COMPACT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
try {
  const db = new Database(workerData.from, { readonly: true, fileMustExist: true });
  try { db.prepare('VACUUM INTO ?').run(workerData.to); } finally { db.close(); }
  parentPort.postMessage({ ok: true });
} catch (e) {
  parentPort.postMessage({ ok: false, message: String(e && e.message) });
}
`;

/** Writes `from` into the new file `to` with only its live content (VACUUM INTO), off the main thread. */
export function compactInto(from: string, to: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(COMPACT_WORKER, { eval: true, workerData: { from, to, driver: createRequire(import.meta.url).resolve('better-sqlite3') } });
    let answered = false;
    worker.once('message', (m: { ok: boolean; message?: string }) => {
      answered = true;
      if (m.ok) resolve();
      else reject(new Error(`compacting the backup failed: ${m.message}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the backup's compacting thread stopped (exit ${code})`));
    });
  });
}

/**
 * After a restore: puts each sealed secret of `file` back where `open` opens it, and drops the
 * table. Returns what went back and what could not (no key, another hub's key, a row gone).
 */
export function unsealSecrets(file: string, open: (sealed: string, where: SealedSecret) => string | null): { restored: SealedSecret[]; lost: SealedSecret[] } {
  const client = new Database(file, { fileMustExist: true });
  const restored: SealedSecret[] = [];
  const lost: SealedSecret[] = [];
  try {
    if (!tableExists(client, 'sealed_secrets')) return { restored, lost };
    client.transaction(() => {
      const rows = client.prepare('SELECT place, name, sealed FROM sealed_secrets ORDER BY place, name').all() as Array<SealedSecret & { sealed: string }>;
      for (const { place, name, sealed } of rows) {
        const where = { place, name };
        const plain = open(sealed, where);
        const slash = place.indexOf('/');
        const [table, key] = [place.slice(0, slash), place.slice(slash + 1)];
        let done = false;
        if (plain !== null && table === 'receipt_settings' && name === SMTP_NAME) {
          done = client.prepare('UPDATE receipt_settings SET smtp_password = ? WHERE id = ?').run(plain, key).changes === 1;
        } else if (plain !== null && (SETTINGS_TABLES as readonly string[]).includes(table)) {
          done = client.prepare(`UPDATE ${table} SET doc = json_set(doc, '$.settings.' || json_quote(?), ?) WHERE name = ?`).run(name, plain, key).changes === 1;
        }
        (done ? restored : lost).push(where);
      }
      client.exec('DROP TABLE sealed_secrets');
    })();
    return { restored, lost };
  } finally {
    client.close();
  }
}
