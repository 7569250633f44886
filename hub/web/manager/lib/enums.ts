/**
 * Enumerations of the contract, for the manager page's selects. Each is checked against the wire
 * types below, so a value the hub adds (or drops) fails the typecheck until the select offers it.
 */
import type { Device, FiscalDevice, Numbering, OrderEndpoint, PaymentType, Plu, StockTransfer } from '../../shared/types';
import { FISCAL_DRIVERS, PRINTER_MODELS } from '../../shared/drivers';

export const ENUMS = {
  envName: ['BackOffice', 'CashRegister', 'PDA', 'Tool'],
  paymentCategory: ['Cash', 'CreditCard', 'Voucher', 'Other'],
  pluType: ['StockItem', 'Recipe', 'Service', 'Container'],
  // What the drivers say of themselves (shared/drivers.ts, generated from drivers/); a Tablet is a kitchen display.
  orderEndpointType: [...PRINTER_MODELS.map((m) => m.name), 'Tablet'],
  fiscalDriver: FISCAL_DRIVERS.map((d) => d.name),
  transferType: ['Income', 'Outcome', 'Transfer', 'Sale', 'Invoice', 'Correction'],
  postableTransferType: ['Income', 'Outcome', 'Transfer', 'Invoice'],
  periodUnit: ['Day', 'Week', 'Month', 'Year'],
} as const;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Lists<K extends keyof typeof ENUMS> = (typeof ENUMS)[K][number];
const exhaustive: [
  Same<Lists<'envName'>, Device['envName']>,
  Same<Lists<'paymentCategory'>, PaymentType['category']>,
  Same<Lists<'pluType'>, Plu['type']>,
  Same<Lists<'orderEndpointType'>, OrderEndpoint['type']>,
  Same<Lists<'fiscalDriver'>, FiscalDevice['driver']>,
  Same<Lists<'transferType'>, StockTransfer['type']>,
  Same<Lists<'periodUnit'>, Numbering['numberings'][number]['period']['unit']>,
] = [true, true, true, true, true, true, true];
void exhaustive;

export const options = (values: readonly string[], label: (v: string) => string = (v) => v) => values.map((v) => ({ value: v, label: label(v) }));
