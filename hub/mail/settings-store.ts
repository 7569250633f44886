/** The receipt_settings table: one row of e-mail receipt settings, its version and the SMTP password. */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

export interface SettingsRow {
  v: number;
  doc: string;
  smtp_password: string | null;
}

export function readSettingsRow(db: Db, id: string): SettingsRow | undefined {
  return db.get<SettingsRow>(sql`SELECT v, doc, smtp_password FROM receipt_settings WHERE id = ${id}`);
}

export function writeSettingsRow(db: Db, id: string, row: SettingsRow): void {
  db.run(sql`INSERT INTO receipt_settings (id, v, doc, smtp_password) VALUES (${id}, ${row.v}, ${row.doc}, ${row.smtp_password})
             ON CONFLICT (id) DO UPDATE SET v = excluded.v, doc = excluded.doc, smtp_password = excluded.smtp_password`);
}
