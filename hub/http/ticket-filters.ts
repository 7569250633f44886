/**
 * The tickets list's filters as a client writes them (CONTRACT §4): name, type, values. One list
 * for the hub's tickets resource (resource.ts maps each to its SQLite column) and HQ's tickets of
 * every store (hub/hq/lists.ts maps them to PostgreSQL), so a filter means the same in both and
 * the NData parser (hub/http/ndata.ts) reads it alike. Pure: HQ, another process, imports it.
 */
import type { FilterSpec } from './ndata.js';

export const PURCHASE_TYPES = ['WalkIn', 'TakeAway', 'Delivery'] as const;
export const TICKET_STATES = ['Opened', 'Closed'] as const;

export const TICKET_FILTERS = {
  IsClosed: { type: 'bool' },
  HasCustomer: { type: 'bool' },
  HasDiscount: { type: 'bool' },
  HasNegativeItem: { type: 'bool' },
  HasReturnedItem: { type: 'bool' },
  Id: { type: 'string' },
  ExternalId: { type: 'string' },
  Name: { type: 'string' },
  DeviceName: { type: 'stringList' },
  PurchaseType: { type: 'enum', enumValues: PURCHASE_TYPES },
  OriginDeviceName: { type: 'string' },
  CurrencyLabel: { type: 'string' },
  DiscountRate: { type: 'decimal' },
  OpenDate: { type: 'datetime' },
  CloseDate: { type: 'datetime' },
  CloseInfoDeviceName: { type: 'string' },
  CloseInfoFiscalName: { type: 'string' },
  CloseInfoNumber: { type: 'int' },
  CloseInfoDailySalesReportNumber: { type: 'int' },
  CloseInfoFiscalMemorySerialNumber: { type: 'string' },
  LocationTableName: { type: 'string' },
  LocationZoneName: { type: 'string' },
  CustomerCardSerialNumber: { type: 'string' },
  // Beyond the seed: a customer's purchase history (the manager's page), whichever card they paid with.
  CustomerId: { type: 'string' },
  EmployeeUserName: { type: 'string' },
  // Beyond the seed: the returns started from a closed ticket (POST /api/tickets/{id}/return).
  ReturnOf: { type: 'string' },
  ItemPluCode: { type: 'int' },
  ItemPluStockName: { type: 'string' },
  State: { type: 'enum', enumValues: TICKET_STATES },
} as const satisfies Record<string, FilterSpec>;

export type TicketFilter = keyof typeof TICKET_FILTERS;
