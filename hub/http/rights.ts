/** Every right the hub knows (the seed's table plus CONTRACT §5), in the seed's spelling. */
export const RIGHTS = [
  'CustomerCreate', 'CustomerUpdate', 'CustomerDelete', 'CustomerSetDiscount', 'CustomerSetCredit',
  'StockTransferNumberingCreate', 'StockTransferNumberingUpdate', 'StockTransferNumberingDelete',
  'DeviceCreate', 'DeviceUpdate', 'DeviceDelete',
  'ModifierCreate', 'ModifierUpdate', 'ModifierDelete',
  'OrderEndpointCreate', 'OrderEndpointUpdate', 'OrderEndpointDelete',
  'StockCreate', 'StockUpdate', 'StockDelete',
  'StockTakingCreate', 'StockTakingUpdate', 'StockTakingDelete', 'StockTakingClose',
  'PaymentTypeCreate', 'PaymentTypeUpdate', 'PaymentTypeDelete',
  'TicketCreate', 'TicketUpdate', 'TicketUpdateAny', 'TicketRename', 'TicketSetDiscount', 'TicketSetCustomer',
  'TicketHandover', 'TicketTakeover', 'TicketDelete', 'TicketClose', 'TicketPrintPreliminary', 'Storno',
  'PluCreate', 'PluUpdate', 'PluDelete',
  'StockTransferCreate',
  'FiscalDeviceCreate', 'FiscalDeviceUpdate', 'FiscalDeviceDelete', 'FiscalReport',
  'UserCreate', 'UserUpdate', 'UserDelete',
  'OrderProcess', 'Backup',
  'ReceiptSettingsUpdate',
  // Reading is a right too (CONTRACT §12): beyond the catalog, open tickets and one's own sales.
  'CustomerRead', 'TicketReadAll', 'UserRead', 'SettingsRead', 'StockRead', 'ReportRead', 'Metrics',
  // Money (CONTRACT §12): a unit price other than the plu's.
  'TicketSetPrice',
  // Issue 21: recording a cash count of a drawer (reading them is ReportRead); issue 28: opening and closing a shift.
  'CashCount',
  // Issue 29: the floor plan (zones and their tables; everyone logged in reads it).
  'ZoneCreate', 'ZoneUpdate', 'ZoneDelete',
  // Issue 28: cash put into or taken out of a shift's drawer.
  'CashMovement',
] as const;
export type Right = (typeof RIGHTS)[number];

const BY_LOWER = new Map<string, Right>(RIGHTS.map((r) => [r.toLowerCase(), r]));

/** The canonical spelling of a right named in any case, or undefined for an unknown one. */
export function canonicalRight(name: string): Right | undefined {
  return BY_LOWER.get(name.toLowerCase());
}

/** Device environments (CONTRACT §5); CashRegister and PDA are the Sale environment. */
export const ENV_NAMES = ['BackOffice', 'CashRegister', 'PDA', 'Tool'] as const;
export type EnvName = (typeof ENV_NAMES)[number];
export const SALE_ENVS: ReadonlySet<string> = new Set<EnvName>(['CashRegister', 'PDA']);
