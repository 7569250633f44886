/**
 * The `escpos` fiscal driver, for shops without fiscal hardware: a plain ESC/POS receipt printer
 * (the printing driver, drivers/escpos) and the hub keeping what a fiscal memory would — the receipt
 * numbers, the Z counter, the day's totals and a journal of every receipt — in SQLite through the
 * device state store. fiscalMemorySerialNumber is the hub's id.
 *
 * A receipt is issued when it is journaled, which happens only after the printer answered that it
 * can print (paper, cover): a printer that cannot is a known failure and nothing is numbered. The
 * paper copy is then at-least-once: one that fails to print (the paper ran out in the middle, the
 * line dropped) stays on the journal's to-print list and is printed again, marked REPRINT, when the
 * printer next answers. The hub's record, not the paper, is the receipt.
 */
import { Decimal } from 'decimal.js';
import { render } from '../../escpos/document.js';
import { EscPosPrinter, type EscPosPrinterOptions } from '../../escpos/driver.js';
import { fillQr, qrTemplate } from '../../escpos/blocks.js';
import { receipt as receiptDocument, receiptData, RECEIPT_QR } from './receipt.js';
import { DEFAULT_PRINTER_MODEL, profileFor, type PrinterProfile } from '../../escpos/profiles.js';
import type { Block } from '../../escpos/document.js';
import { OneAtATime } from '../one-at-a-time.js';
import { type DeviceInfo, type DeviceStateStore, type DeviceStatus, type FiscalDevice, type FiscalResult, type LastDocument, type Receipt, type ReportResult } from '../types.js';
import { DeviceError } from '../../faults.js';
import { refused } from '../../settings.js';

interface JournalEntry {
  jobId: string;
  number: number;
  date: string;
  dailySalesReportNumber: number;
  receipt: Receipt;
}

interface State {
  receiptNumber: number;
  /** Z reports made; the open fiscal day is zCount + 1. */
  zCount: number;
  dayTotal: string;
  dayReceipts: number;
  last: (LastDocument & { jobId: string }) | null;
  /** Numbers of journaled receipts whose paper copy is not confirmed printed yet. */
  toPrint: number[];
}

export interface EscPosFiscalOptions {
  name: string;
  address: string;
  settings: Record<string, string>;
  store?: DeviceStateStore;
  clock: () => Date;
  /** The hub's id: the "fiscal memory" serial number. */
  hubId?: string;
  /** The store's time zone (POS_HUB_TIMEZONE): receipts and reports print the shop's wall-clock time. */
  timeZone?: string;
  printer?: EscPosPrinterOptions;
}

/**
 * Settings: Model (a printer model, drivers/escpos/profiles.ts: TM88, SRP350, Generic, TSP650,
 * TSP100), Header and Footer (lines split by '|'), Currency, ReconnectMaxMs, and QrCode (a QR code
 * above the receipt's footer: "true" or a template, receipt.ts RECEIPT_QR).
 */
export function checkEscPosSettings(settings: Record<string, string>): void {
  profileFor(settings.Model ?? DEFAULT_PRINTER_MODEL);
  reconnectMaxMs(settings);
  qrTemplate(settings.QrCode, RECEIPT_QR);
}

function reconnectMaxMs(settings: Record<string, string>): number {
  const v = settings.ReconnectMaxMs;
  if (v === undefined) return 5000;
  if (!/^\d{1,7}$/.test(v) || Number(v) < 10) throw refused(new Error(`ReconnectMaxMs: '${v}' is not a whole number of milliseconds (10 or more)`), 'milliseconds', { setting: 'ReconnectMaxMs', value: v });
  return Number(v);
}

/** A journal that lives only as long as the process: for a registry without a state store. */
function memoryStore(): DeviceStateStore {
  const m = new Map<string, unknown>();
  return { load: (k) => m.get(k), save: (k, v) => void m.set(k, structuredClone(v)) };
}

export class EscPosFiscalDevice implements FiscalDevice {
  private readonly printer: EscPosPrinter;
  private readonly profile: PrinterProfile;
  private readonly store: DeviceStateStore;
  private readonly key: string;
  private readonly serial: string;
  private readonly header: string[];
  private readonly footer: string[];
  private readonly currency: string;
  /** The QrCode setting's template, null for no QR code. */
  private readonly qr: string | null;
  private readonly documents = new OneAtATime();
  /** Day and time as the shop's clock shows them (the journal keeps UTC). */
  private readonly wallClock: Intl.DateTimeFormat;

  constructor(private readonly o: EscPosFiscalOptions) {
    this.wallClock = new Intl.DateTimeFormat('en-GB', {
      timeZone: o.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    this.profile = profileFor(o.settings.Model ?? DEFAULT_PRINTER_MODEL);
    const max = reconnectMaxMs(o.settings);
    this.printer = new EscPosPrinter(o.address, { backoff: { initialMs: Math.min(200, max), maxMs: max, factor: 2 }, ...o.printer, dialect: this.profile.dialect });
    this.store = o.store ?? memoryStore();
    this.key = `escpos:${o.name}`;
    this.serial = o.hubId ?? 'POSHUB';
    const lines = (v: string | undefined) => (v ? v.split('|').map((l) => l.trim()) : []);
    this.header = lines(o.settings.Header);
    this.footer = lines(o.settings.Footer);
    this.currency = o.settings.Currency ?? 'EUR';
    this.qr = qrTemplate(o.settings.QrCode, RECEIPT_QR);
  }

  private state(): State {
    const saved = this.store.load(this.key) as State | undefined;
    return saved ?? { receiptNumber: 0, zCount: 0, dayTotal: '0', dayReceipts: 0, last: null, toPrint: [] };
  }

  private save(s: State): void {
    this.store.save(this.key, s);
  }

  /** The journal entry of receipt `number`. */
  journal(number: number): JournalEntry | undefined {
    return this.store.load(`${this.key}:receipt:${number}`) as JournalEntry | undefined;
  }

  /** One document at a time: numbers are given out, and paper printed, in order. */
  private document<T>(run: () => Promise<T>): Promise<T> {
    return this.documents.run(run);
  }

  async info(): Promise<DeviceInfo> {
    return {
      model: `${this.profile.dialect === 'star' ? 'Star' : 'ESC/POS'} ${this.profile.model} (receipts numbered by the hub)`,
      serialNumber: this.serial,
      fiscalMemorySerialNumber: this.serial,
      capabilities: { receipts: true, reports: true, email: false },
    };
  }

  async status(): Promise<DeviceStatus> {
    const p = await this.printer.status();
    // A printer that answers and can print gets the paper copies it still owes.
    if (this.state().toPrint.length && p.paper !== 'out' && !p.coverOpen && !p.error) await this.document(() => this.printOwed());
    const s = this.state();
    return {
      online: p.online,
      paper: p.paper,
      coverOpen: p.coverOpen,
      receiptOpen: false,
      dailySalesReportNumber: s.zCount + 1,
      fiscalMemorySerialNumber: this.serial,
    };
  }

  printReceipt(receipt: Receipt, jobId: string): Promise<FiscalResult> {
    if (receipt.lines.length === 0) return Promise.reject(new DeviceError('REJECTED', 'a receipt needs at least one line', false, 'EMPTY'));
    return this.document(async () => {
      const paper = receipt.print !== false;
      // Nothing is numbered for a printer that cannot print it now (a known failure: 503 upstream).
      if (paper) await this.ready();
      const s = this.state();
      const date = this.o.clock().toISOString();
      const entry: JournalEntry = { jobId, number: s.receiptNumber + 1, date, dailySalesReportNumber: s.zCount + 1, receipt };
      // The journal entry first: a crash before the state is saved leaves the number free, and the
      // next receipt overwrites the entry that was never counted.
      this.store.save(`${this.key}:receipt:${entry.number}`, entry);
      this.save({
        ...s,
        receiptNumber: entry.number,
        dayTotal: new Decimal(s.dayTotal).plus(receipt.total).toString(),
        dayReceipts: s.dayReceipts + 1,
        last: { number: entry.number, date, amount: receipt.total, jobId },
        toPrint: paper ? [...s.toPrint, entry.number] : s.toPrint,
      });
      if (paper) await this.printOwed(entry.number).catch(() => {}); // what failed is printed again later, marked REPRINT
      return { number: entry.number, date, amount: receipt.total, dailySalesReportNumber: entry.dailySalesReportNumber, fiscalMemorySerialNumber: this.serial };
    });
  }

  /** Throws the printer's blocking fault (no paper, cover open, error, unreachable) as a known failure. */
  private async ready(): Promise<void> {
    const p = await this.printer.status();
    if (p.paper === 'out') throw new DeviceError('PAPER_OUT', 'the receipt printer is out of paper', false, 'PAPER_END');
    if (p.coverOpen) throw new DeviceError('COVER_OPEN', 'the receipt printer cover is open', false, 'COVER_OPEN');
    if (p.error) throw new DeviceError('BUSY', `the receipt printer reports an error (${p.error})`, false, p.error.toUpperCase());
  }

  /**
   * Prints every owed paper copy in order. Only `issued`, printed as it is issued, goes out plain;
   * any other owed copy may already be on paper in part or in whole, so it is marked REPRINT.
   */
  private async printOwed(issued?: number): Promise<void> {
    for (;;) {
      const number = this.state().toPrint[0];
      if (number === undefined) return;
      const entry = this.journal(number);
      if (entry) {
        const mark = number === issued ? null : 'REPRINT';
        const qr = fillQr(this.qr, { number: String(number), date: entry.date, total: new Decimal(entry.receipt.total).toFixed(2), currency: this.currency, serial: this.serial });
        const origin = entry.receipt.returnOf;
        const refundOf = origin
          ? { number: String(origin.number), time: this.time(origin.date), fiscalName: origin.fiscalName === this.o.name ? null : origin.fiscalName }
          : null;
        const data = receiptData(entry.receipt, { header: this.header, number: String(number), time: this.time(entry.date), currency: this.currency, footer: this.footer, mark, qr, refundOf });
        try {
          await this.printer.print(render(receiptDocument(data), this.profile));
        } finally {
          issued = undefined; // a second attempt at the same copy is a reprint
        }
      }
      const after = this.state();
      this.save({ ...after, toPrint: after.toPrint.filter((n) => n !== number) });
    }
  }

  private time(iso: string): string {
    const p = Object.fromEntries(this.wallClock.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
  }

  async lastDocument(): Promise<LastDocument | null> {
    return this.document(async () => {
      const last = this.state().last;
      return last ? { number: last.number, date: last.date, amount: last.amount } : null;
    });
  }

  xReport(): Promise<ReportResult> {
    return this.report('X');
  }

  zReport(): Promise<ReportResult> {
    return this.report('Z');
  }

  private report(kind: 'X' | 'Z'): Promise<ReportResult> {
    return this.document(async () => {
      await this.ready();
      const s = this.state();
      const result: ReportResult = { kind, number: s.zCount + 1, date: this.o.clock().toISOString(), total: s.dayTotal, receipts: s.dayReceipts };
      if (kind === 'Z') this.save({ ...s, zCount: s.zCount + 1, dayTotal: '0', dayReceipts: 0 });
      const money = new Decimal(result.total).toFixed(2);
      const blocks: Block[] = [
        ...this.header.map((h): Block => ({ kind: 'text', text: h, style: { align: 'center' } })),
        { kind: 'text', text: kind === 'Z' ? `Z REPORT ${result.number}` : `X REPORT (day ${result.number})`, style: { align: 'center', bold: true, height: 2 } },
        { kind: 'row', left: 'Date', right: this.time(result.date) },
        { kind: 'row', left: 'Receipts', right: String(result.receipts) },
        { kind: 'row', left: 'TOTAL', right: `${money} ${this.currency}`, style: { bold: true } },
        { kind: 'text', text: 'Not a fiscal document', style: { align: 'center' } },
      ];
      // The report is the hub's; its paper is a courtesy that a failure here does not undo.
      await this.printer.print(render({ blocks }, this.profile)).catch(() => {});
      return result;
    });
  }

  async cancelOpenReceipt(): Promise<void> {
    // Receipts are whole documents here: nothing is ever left half-open on the printer.
  }

  async close(): Promise<void> {
    await this.printer.close();
  }
}
