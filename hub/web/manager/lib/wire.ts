/** Wire shapes of the reports, receipts, backups and health answers, named for the pages (from shared/api-types.ts). */
import type { components } from '../../shared/api-types';

type Schemas = components['schemas'];

export type SalesReport = Schemas['SalesReport'];
export type FiscalDay = Schemas['FiscalDay'];
export type CashCount = Schemas['CashCount'];
export type ReceiptSettings = Schemas['ReceiptSettings'];
export type ReceiptSettingsInput = Schemas['ReceiptSettingsInput'];
export type ReceiptEmail = Schemas['ReceiptEmail'];
export type Backup = Schemas['Backup'];
export type Shift = Schemas['Shift'];
export type FiscalReportRecord = Schemas['FiscalReportRecord'];
export type FiscalDays = Schemas['FiscalDays'];
export type AuditReport = Schemas['AuditReport'];
export type AuditEvent = Schemas['AuditEvent'];
