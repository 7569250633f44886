/**
 * The document-level fiscal device interface (after ErpNet.FP): the hub hands over a whole
 * receipt and gets back the device's numbers; it never drives a receipt line by line. Amounts are
 * decimal strings ("12.50") so no binary float crosses this boundary. Faults: drivers/faults.ts.
 */
export type PaymentKind = 'Cash' | 'CreditCard' | 'Voucher' | 'Other';

export interface ReceiptLine {
  name: string;
  quantity: string;
  unitPrice: string;
  /** VAT rate in percent and the device's VAT group (category). */
  vatRate: string;
  vatCategory: number;
  /** Discount in percent applied to the line, "0" for none. */
  discountRate: string;
  /** The line total after discount, signed (negative for a returned item). */
  total: string;
}

/**
 * The fiscal receipt a return refunds (a return ticket's `returnOf`, as that ticket's close recorded
 * it): a device that issues refunds against their original (eKasa's `referenceReceiptId`, a Datecs
 * storno receipt's document number, date and fiscal memory) reads it from here.
 */
export interface ReceiptOrigin {
  /** The original ticket's id. */
  ticketId: string;
  /** The fiscal device that issued the original receipt, as named in its closeInfo. */
  fiscalName: string;
  number: number;
  /** When the original receipt was issued (ISO 8601, the ticket's closeDate). */
  date: string;
  dailySalesReportNumber: number;
  fiscalMemorySerialNumber: string;
  /** The unique sale number (Bulgarian УНП) the original carries, when its device gave one and it is known. */
  unp?: string;
  /** The original's eKasa identifiers, when an eKasa service registered it. */
  ekasa?: { uuid?: string; okp?: string; receiptNumber: number };
}

export interface Receipt {
  /** The hub's ticket id, printed as a reference. */
  reference: string;
  /** Set on a return (a receipt of negative lines): the receipt it refunds. */
  returnOf?: ReceiptOrigin;
  operator: string;
  lines: ReceiptLine[];
  /** Ticket-level discount in percent applied on the subtotal. */
  discountRate: string;
  total: string;
  payments: Array<{ kind: PaymentKind; name: string; amount: string }>;
  /**
   * Slovak cash rounding (CONTRACT §8, `ekasa` devices only): what rounding the cash part of the
   * payment to 5 cents added to what the customer pays (negative: took off). The payments less the
   * change add up to total + rounding. Absent or "0.00": none.
   */
  rounding?: string;
  change: string;
  /**
   * false: the customer declined a paper copy (an e-mail receipt instead). A driver whose device may
   * issue the fiscal document without printing it honours this; the others print as they must.
   * Absent means true.
   */
  print?: boolean;
}

/** What a Slovak eKasa registration adds to a receipt (CONTRACT §8: closeInfo.ekasa). */
export interface EkasaInfo {
  /** The receipt's id in the eKasa system ("O-…"); absent while it is registered offline. */
  uuid?: string;
  /** The cash register's own code of the receipt (OKP), printed on every receipt. */
  okp?: string;
  receiptNumber: number;
  /** Registered offline: the service sends it to the eKasa system later. */
  offline: boolean;
  /** What the QR code on the printed or e-mailed receipt holds: the UUID online, else OKP:ORP:date:number:amount. */
  qrCode: string;
}

export interface FiscalResult {
  number: number;
  date: string;
  amount: string;
  dailySalesReportNumber: number;
  fiscalMemorySerialNumber: string;
  ekasa?: EkasaInfo;
  /** The unique sale number (Bulgarian УНП) the receipt carries: what a storno receipt refunding it quotes. */
  unp?: string;
}

export interface LastDocument {
  number: number;
  date: string;
  amount: string;
  /** The receipt's unique sale number (УНП), when the driver knows it (it opened that receipt itself). */
  unp?: string;
}

export interface DeviceInfo {
  model: string;
  serialNumber: string;
  fiscalMemorySerialNumber: string;
  capabilities: { receipts: boolean; reports: boolean; email: boolean };
}

export interface DeviceStatus {
  online: boolean;
  paper: 'ok' | 'low' | 'out' | 'unknown';
  coverOpen: boolean;
  receiptOpen: boolean;
  dailySalesReportNumber: number | null;
  fiscalMemorySerialNumber: string | null;
  /** Something the device reports that does not stop it (eKasa: the eKasa system cannot be reached, receipts are registered offline). */
  notice?: string | null;
}

export interface ReportResult {
  kind: 'X' | 'Z';
  /** Z: the number of the report just printed; X: the current day's number. */
  number: number;
  date: string;
  total: string;
  receipts: number;
}

export interface FiscalDevice {
  /**
   * True when everything the device remembers is written into the hub's own database (the
   * simulator): a power cut then takes the device's memory and the hub's journal back together, so
   * the journal row need not be on disk before the device is asked. A real device: absent.
   */
  readonly memoryInHubDatabase?: boolean;
  info(): Promise<DeviceInfo>;
  status(): Promise<DeviceStatus>;
  /** Issues one fiscal receipt. `jobId` lets a driver that can store it match a retry to the job. */
  printReceipt(receipt: Receipt, jobId: string): Promise<FiscalResult>;
  lastDocument(): Promise<LastDocument | null>;
  /**
   * The receipt registered for `jobId`, looked up by the id the driver sent along (eKasa's externalId),
   * or null when the device holds none. Drivers whose device can do this settle a lost answer exactly;
   * for the others the hub compares lastDocument() with the number it saw before the job.
   * `sentAt`: when the hub wrote the job, just before it asked the device (the injected clock's time);
   * a driver that did not send the job itself (a hub started again since) gives the device its time from then.
   */
  findReceipt?(jobId: string, sentAt?: Date): Promise<FiscalResult | null>;
  xReport(): Promise<ReportResult>;
  zReport(): Promise<ReportResult>;
  cancelOpenReceipt(): Promise<void>;
  close(): Promise<void>;
}

export interface FiscalDeviceConfig {
  name: string;
  driver: string;
  address: string;
  settings: Record<string, string>;
}

/** Where a driver may keep state that must survive a restart (the simulator's fiscal memory). */
export interface DeviceStateStore {
  /** The state is written in the hub's own database, in the order of the hub's own writes. */
  readonly inHubDatabase?: boolean;
  load(key: string): unknown;
  save(key: string, state: unknown): void;
}
