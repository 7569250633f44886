/** Datecs ISL commands: data builders, reply parsers, status bits → fault codes, a receipt's plan. */
import { describe, expect, it } from 'vitest';
import {
  amount,
  deviceText,
  faultOf,
  hasFlag,
  parseDailyReport,
  parseDateTime,
  parseDiagnosticInfo,
  parseDocumentNumber,
  parsePayment,
  parseReceiptCounts,
  parseSettings,
  parseSubtotal,
  parseTransactionStatus,
  planReceipt,
  receiptProblem,
  statusBytes,
} from '../../../drivers/fiscal/datecs/commands.js';
import { hex } from '../../../drivers/fiscal/datecs/frame.js';
import type { Receipt } from '../../../drivers/fiscal/types.js';
import { sampleReceipt } from '../../support/receipt.js';

const d = (s: string) => Buffer.from(s, 'latin1');
const settings = parseSettings({});

/** Two beers, 5.00 in cash. */
const receipt = (over: Partial<Receipt> = {}): Receipt =>
  sampleReceipt({
    lines: [{ name: 'Pivo', quantity: '2', unitPrice: '2.2', vatRate: '20', vatCategory: 1, discountRate: '0', total: '4.40' }],
    total: '4.40',
    payments: [{ kind: 'Cash', name: 'Cash', amount: '5.00' }],
    change: '0.60',
    ...over,
  });

describe('text', () => {
  it('drops diacritics, replaces what the printer cannot show, blanks control bytes, cuts to length', () => {
    expect(deviceText('Šopský šalát', 30)).toBe('Sopsky salat');
    expect(deviceText('Gulyás\t€5\n', 30)).toBe('Gulyas ?5 ');
    expect(deviceText('x'.repeat(40), 30)).toHaveLength(30);
  });

  it('amounts have two decimals, half away from zero', () => {
    expect(amount('2.2')).toBe('2.20');
    expect(amount('0.125')).toBe('0.13');
    expect(amount('-0.125')).toBe('-0.13');
  });
});

describe('reply parsers', () => {
  it('read the documented fields', () => {
    expect(parseReceiptCounts(d('5,4'))).toEqual({ all: 5, fiscal: 4 });
    expect(parseSubtotal(d('12.50,12.50,0.00,0.00'))).toBe('12.5');
    expect(parsePayment(d('D3.40'))).toEqual({ code: 'D', amount: '3.4' });
    expect(parsePayment(d('R0.60'))).toEqual({ code: 'R', amount: '0.6' });
    expect(parsePayment(d('F'))).toEqual({ code: 'F', amount: null });
    expect(parseDailyReport(d('0007,123.40,100.00,23.40'))).toEqual({ closure: 7, total: '123.4' });
    expect(parseTransactionStatus(d('0,2,4.40,5.00'))).toEqual({ open: false, items: 2, amount: '4.4', tender: '5' });
    expect(parseDocumentNumber(d('0000042'))).toBe(42);
    expect(parseDateTime(d('21-11-26 10:05:09'))).toBe('2026-11-21T10:05:09');
    expect(parseDiagnosticInfo(d('FP2000,3.10 10Jan25 1200,A1B2,0000,DT000001,02000001'))).toEqual({
      model: 'FP2000',
      firmware: '3.10 10Jan25 1200',
      serialNumber: 'DT000001',
      fiscalMemorySerialNumber: '02000001',
    });
  });

  it('refuse what does not parse', () => {
    expect(() => parseDocumentNumber(d(''))).toThrow(/DocNum/);
    expect(() => parsePayment(d('X1.00'))).toThrow(/paid code/);
    expect(() => parseDiagnosticInfo(d('FP2000,3.10'))).toThrow(/fields/);
    expect(() => parseDateTime(d('2026-11-21'))).toThrow(/DD-MM-YY/);
  });
});

describe('status bytes', () => {
  it('always carry bit 7; a fault also sets the general error bit', () => {
    expect(hex(statusBytes([]))).toBe('80 80 80 80 80 80');
    expect(hex(statusBytes(['fiscalMode', 'fiscalReceiptOpen']))).toBe('80 80 88 80 80 88');
    expect(hex(statusBytes(['paperOut', 'fiscalMode']))).toBe('A0 80 81 80 80 88');
    expect(hex(statusBytes(['fiscalMemoryFull']))).toBe('80 80 80 80 B0 80');
  });

  it('map to the fixed fault codes with the vendor bit kept', () => {
    expect(faultOf(statusBytes(['paperOut']))).toMatchObject({ code: 'PAPER_OUT', vendorCode: 'S2.0' });
    expect(faultOf(statusBytes(['coverOpen']))).toMatchObject({ code: 'COVER_OPEN', vendorCode: 'S0.6' });
    expect(faultOf(statusBytes(['fiscalMemoryFull']))).toMatchObject({ code: 'FISCAL_MEMORY_FULL', vendorCode: 'S4.4' });
    expect(faultOf(statusBytes(['notAllowed']))).toMatchObject({ code: 'REJECTED', vendorCode: 'S1.1' });
    expect(faultOf(statusBytes(['syntaxError']))).toMatchObject({ code: 'REJECTED', vendorCode: 'S0.0' });
    expect(faultOf(statusBytes(['mechanismFault']))).toMatchObject({ code: 'OFFLINE', vendorCode: 'S0.4' });
    expect(faultOf(statusBytes(['fiscalMode', 'paperLow', 'fiscalReceiptOpen']))).toBeNull();
  });

  it('a query answered while the paper is out succeeded; a command that prints did not', () => {
    const s = statusBytes(['paperOut', 'fiscalMode']);
    expect(faultOf(s, false)).toBeNull();
    expect(faultOf(statusBytes(['paperOut', 'invalidCommand']), false)).toMatchObject({ vendorCode: 'S0.1' });
    expect(hasFlag(s, 'paperOut')).toBe(true);
    expect(hasFlag(s, 'coverOpen')).toBe(false);
  });

  it('report the paper first when several faults are set', () => {
    expect(faultOf(statusBytes(['notAllowed', 'paperOut', 'coverOpen']))?.code).toBe('PAPER_OUT');
  });
});

describe('a receipt as commands', () => {
  it('open, reference texts, sales, subtotal, payments (cash last)', () => {
    const plan = planReceipt(
      receipt({
        lines: [
          { name: 'Gulyás', quantity: '2', unitPrice: '6.9', vatRate: '20', vatCategory: 1, discountRate: '0', total: '13.80' },
          { name: 'Voda', quantity: '1', unitPrice: '0.1', vatRate: '10', vatCategory: 2, discountRate: '0', total: '0.10' },
        ],
        total: '13.90',
        payments: [
          { kind: 'Cash', name: 'Cash', amount: '5.00' },
          { kind: 'CreditCard', name: 'Card', amount: '10.00' },
        ],
        change: '1.10',
      }),
      settings,
      'job1',
    );
    expect(plan).toEqual({
      open: '1,0000,1',
      texts: ['Ticket T1', 'Job job1'],
      sales: ['Gulyas\tA6.90*2', 'Voda\tB0.10'],
      subtotal: '00',
      total: '13.90',
      payments: [
        { kind: 'CreditCard', data: 'Card\tN10.00' },
        { kind: 'Cash', data: 'Cash\tP5.00' },
      ],
      change: '1.10',
    });
  });

  it("puts discounts in as absolute corrections so each line's total equals the hub's exactly", () => {
    const plan = planReceipt(
      receipt({
        lines: [
          { name: 'Pivo', quantity: '3', unitPrice: '2.2', vatRate: '20', vatCategory: 1, discountRate: '15', total: '5.61' },
          { name: 'Return', quantity: '1', unitPrice: '4.5', vatRate: '20', vatCategory: 1, discountRate: '0', total: '-4.50' },
          { name: 'Syr', quantity: '0.333', unitPrice: '12.3456', vatRate: '20', vatCategory: 1, discountRate: '0', total: '4.11' },
        ],
        discountRate: '10',
        total: '4.70',
        payments: [{ kind: 'Cash', name: 'Cash', amount: '4.70' }],
        change: '0.00',
      }),
      settings,
      'j',
    );
    // 3 × 2.20 = 6.60, less 0.99 = 5.61; a returned item is a negative price; 4 decimals: one piece at the line total.
    expect(plan.sales).toEqual(['Pivo\tA2.20*3;-0.99', 'Return\tA-4.50', '0.333 x Syr\tA4.11']);
    // Lines sum to 5.22; the ticket's discount brings it to 4.70.
    expect(plan.subtotal).toBe('00;-0.52');
  });

  it('maps VAT categories through TaxGroups and refuses one without a group, before anything is sent', () => {
    const custom = parseSettings({ TaxGroups: '1=B, 7=c', OperatorCode: '3', OperatorPassword: '9', TillNumber: '2' });
    const plan = planReceipt(receipt(), custom, 'j');
    expect(plan.open).toBe('3,9,2');
    expect(plan.sales[0]).toBe('Pivo\tB2.20*2');
    const orphan = receipt({ lines: [{ ...receipt().lines[0], vatCategory: 0 }] });
    expect(receiptProblem(orphan, settings)).toMatch(/VAT category 0/);
    expect(() => planReceipt(orphan, settings, 'j')).toThrow(/VAT category 0/);
    expect(receiptProblem(receipt({ lines: [] }), settings)).toMatch(/at least one line/);
    expect(() => parseSettings({ TaxGroups: '1=Z' })).toThrow(/TaxGroups/);
  });
});
