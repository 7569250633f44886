/** The shapes the hub answers (CONTRACT §3-§8), as far as the page reads them. */

export interface Versioned {
  _v?: number;
}

export interface Money {
  amount: number;
  currencyLabel?: string | null;
}

export interface TicketItem {
  id: number;
  plu: { code: number; stockName: string; name: string };
  type: 'Positive' | 'Negative';
  quantity: number;
  unitPrice: { amount: number };
  discountRate: number;
  modifiers: Array<{ modifierId: string; optionId: string; name?: string; quantity: number; unitPrice?: number }>;
  comment: string | null;
  totalPrice: { amount: number };
}

export interface Ticket extends Versioned {
  id: string;
  name: string;
  state: 'Opened' | 'Closed';
  purchaseType: string;
  originDeviceName: string;
  currencyLabel: string | null;
  discountRate: number;
  openDate: string;
  closeDate: string | null;
  customer: { id?: string; fullName?: string; cardSerialNumber?: string | null; discountRate?: number } | null;
  employee: { userName: string; name: string } | null;
  location: { tableName: string | null; zoneName: string | null } | null;
  note: string | null;
  items: TicketItem[];
  totalPrice: { amount: number; currencyLabel: string | null };
  payments: Array<{ paymentTypeNumber: number; amount: number; name?: string }>;
  closeInfo: { deviceName: string; fiscalName: string; number: number; dailySalesReportNumber: number; fiscalMemorySerialNumber: string } | null;
}

export interface Order extends Versioned {
  id: string;
  ticketId: string;
  orderEndpointName: string;
  kind: 'New' | 'Cancel';
  state: string;
  createdAt: string;
  items: Array<{ itemId: number; name: string; quantity: number; comment: string | null; modifiers: Array<{ name: string; quantity: number }> }>;
  print: { state: string; attempts: number; lastError: string | null; printedAt: string | null };
}

export interface PaymentType extends Versioned {
  number: number;
  name: string;
  isActive: boolean;
  category: string;
  isChangeable: boolean;
}

export interface Device extends Versioned {
  name: string;
  isActive: boolean;
  envName: string;
  description: string;
  roles: string[];
  preferences: Record<string, unknown>;
  settings: Record<string, string>;
}

export interface OrderEndpoint extends Versioned {
  name: string;
  isActive: boolean;
  type: string;
  address: string;
  settings: Record<string, string>;
  /** Present once the printing service reports it. */
  status?: PrinterStatus;
}

export interface PrinterStatus {
  online?: boolean | null;
  paper?: string | null;
  cover?: string | null;
  queueDepth?: number;
  lastError?: string | null;
  status?: string;
  state?: string;
}

export interface FiscalDevice extends Versioned {
  name: string;
  isActive: boolean;
  driver: string;
  address: string;
  settings: Record<string, string>;
  status: { online: boolean | null; paper: string; lastError: string | null; fiscalMemorySerialNumber: string | null; dailySalesReportNumber: number | null };
}

export interface Stock extends Versioned {
  name: string;
  description: string;
}

export interface PluRef {
  code: number;
  stockName: string;
}

export interface Plu extends Versioned {
  id: string;
  code: number;
  stockName: string;
  name: string;
  type: string;
  unitPrice: Money;
  vatInfo: { category: number; rate: number } | null;
  orderEndpointNames: string[];
  receipt: Array<{ pluId: PluRef; quantity: number }>;
  stockQuantity: number;
  isActive: boolean;
}

export interface ModifierOption {
  id: string;
  name: string;
  unitPrice: Money | null;
  isUnitPriceIncludingVat: boolean;
  pluId: PluRef | null;
  defaultSelectedQuantity: number;
  maximumSelectedQuantity: number | null;
}

export interface Modifier extends Versioned {
  id: string;
  name: string;
  displayName: string;
  minimumSelectedOptionsCount: number;
  maximumSelectedOptionsCount: number;
  maximumSelectedOptionsTotalQuantity: number;
  options: ModifierOption[];
}

export interface StockTransfer extends Versioned {
  id: string;
  documentNumber: string;
  type: string;
  createdAt: string;
  createdBy: { userName: string };
  sourceStockName: string | null;
  targetStockName: string | null;
  items: Array<{ plu: PluRef; quantity: number; expectedQuantity?: number; actualQuantity?: number }>;
  ticketId: string | null;
  stockTakingId: string | null;
  note: string | null;
}

export interface StockTaking extends Versioned {
  id: string;
  createdAt: string;
  createdBy: { userName: string };
  closedAt: string | null;
  closedBy: { userName: string } | null;
  currencyLabel: string | null;
  note: string | null;
  items: Array<{ plu: PluRef; expectedQuantity?: number; actualQuantity: number | null }>;
  stockTransferId: string | null;
}

export interface Card {
  serialNumber: string;
  isActive: boolean;
  isVirtual?: boolean;
  externalId?: string;
  processor?: string;
  status?: string;
  expirationTime?: string | null;
  note?: string | null;
}

export interface Customer extends Versioned {
  id: string;
  isActive: boolean;
  status: string;
  firstName: string;
  lastName: string;
  fullName: string;
  email: string;
  phone: string | null;
  isCompany: boolean;
  company: { name: string | null; vatId: string | null; taxId: string | null } | null;
  credit: Money;
  creditTransactions: Array<{ at: string; amount: number; balance: number; userName: string }>;
  cards: Card[];
  creditRate: number;
  discountRate: number;
  activationTime: string | null;
  expirationTime: string | null;
  note: string | null;
}

export interface HubUser extends Versioned {
  id: string;
  userName: string;
  name: string;
  isActive: boolean;
  rights: string[];
  password?: string;
}

export interface Numbering extends Versioned {
  id: string;
  isActive: boolean;
  type: string;
  format: string;
  repeat: boolean;
  numberings: Array<{ isActive: boolean; startAt: string; period: { unit: string; amount: number }; currentNumber: number; createdAt?: string }>;
}

export interface Health {
  status: string;
  version: string;
  printers: Array<{ name: string; type: string; isActive: boolean; status: string | PrinterStatus; queueDepth?: number; online?: boolean; paper?: string; lastError?: string | null }>;
  fiscalDevices: Array<{ name: string; status: FiscalDevice['status'] | null }>;
}

/** The answer of POST /api/auth (and of a kitchen display's pairing): the manager's page and the display both keep one. */
export interface User {
  id: string;
  userName: string;
  name: string;
  rights: string[];
  device: { name: string; envName: string };
}

export interface Session {
  tokenId: string;
  refreshToken: string;
  expiresAt: string;
  user: User;
}
