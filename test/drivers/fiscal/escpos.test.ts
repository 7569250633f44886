/**
 * The `escpos` fiscal driver against the fake ESC/POS printer on 127.0.0.1: the hub numbers the
 * receipts, keeps the Z counter, the day's totals and a journal in its state store, refuses before
 * numbering when the printer cannot print, and prints a copy it owes again, marked REPRINT.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EscPosFiscalDevice } from '../../../drivers/fiscal/escpos/driver.js';
import { type DeviceStateStore, type Receipt } from '../../../drivers/fiscal/types.js';
import { DeviceError } from '../../../drivers/faults.js';
import { FakeEscPosPrinter } from '../../support/fake-escpos-printer.js';
import { sampleReceipt } from '../../support/receipt.js';

const clock = () => new Date('2026-11-21T10:00:00Z');

const receipt = (reference = 'T1', over: Partial<Receipt> = {}): Receipt => sampleReceipt({ reference, ...over });

function mapStore(): DeviceStateStore & { map: Map<string, unknown> } {
  const map = new Map<string, unknown>();
  return { map, load: (k) => map.get(k), save: (k, v) => void map.set(k, structuredClone(v)) };
}

async function failure(p: Promise<unknown>): Promise<DeviceError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DeviceError) return e;
    throw e;
  }
  throw new Error('expected a DeviceError');
}

let printer: FakeEscPosPrinter;
let store: ReturnType<typeof mapStore>;
let dev: EscPosFiscalDevice;
const device = (settings: Record<string, string> = {}, at = printer) =>
  new EscPosFiscalDevice({
    name: 'R1',
    address: at.address,
    settings: { Header: 'Bistro|Main street 1', ReconnectMaxMs: '20', ...settings },
    store,
    clock,
    hubId: 'a1b2c3',
    timeZone: 'UTC',
    printer: { statusTimeoutMs: 300, confirmTimeoutMs: 500, maxStallMs: 300, stallPollMs: 50 },
  });

beforeEach(async () => {
  printer = await FakeEscPosPrinter.start();
  store = mapStore();
  dev = device();
});
afterEach(async () => {
  await dev.close();
  await printer.close();
});

const printedText = () => printer.cutTickets().map((t) => t.join('\n'));

describe('escpos fiscal driver', () => {
  it('numbers the receipt, journals it and prints it; the hub id is the fiscal memory serial', async () => {
    const r = await dev.printReceipt(receipt(), 'job-1');
    expect(r).toEqual({ number: 1, date: clock().toISOString(), amount: '13.80', dailySalesReportNumber: 1, fiscalMemorySerialNumber: 'a1b2c3' });
    expect(dev.journal(1)).toMatchObject({ jobId: 'job-1', number: 1, dailySalesReportNumber: 1, receipt: { reference: 'T1' } });
    await printer.waitFor(() => printer.cutTickets().length === 1);
    expect(printedText()[0]).toMatch(/Bistro[\s\S]*Receipt 1[\s\S]*TOTAL/);
    expect(printedText()[0]).not.toMatch(/REPRINT/);
    expect(await dev.lastDocument()).toEqual({ number: 1, date: clock().toISOString(), amount: '13.80' });
    expect(await dev.info()).toMatchObject({ fiscalMemorySerialNumber: 'a1b2c3', capabilities: { receipts: true, reports: true } });
  });

  it('prints a QR code above the footer when QrCode asks: "true" is serial:number:date:total', async () => {
    await dev.close();
    dev = device({ QrCode: 'true' });
    await dev.printReceipt(receipt(), 'job-q');
    await printer.waitFor(() => printer.cutTickets().length === 1);
    expect(printer.tickets[0].qr).toEqual([`a1b2c3:1:${clock().toISOString()}:13.80`]);
  });

  it('prints on a Star printer (Model TSP650) through Star Line mode, with a QR code from a template', async () => {
    const star = await FakeEscPosPrinter.start(0, { dialect: 'star' });
    const onStar = device({ Model: 'TSP650', QrCode: 'https://bistro.example/r/{number}?sum={total}{currency}' }, star);
    try {
      expect((await onStar.printReceipt(receipt(), 'job-s')).number).toBe(1);
      await star.waitFor(() => star.cutTickets().length === 1);
      expect(star.cutTickets()[0].join('\n')).toMatch(/Bistro[\s\S]*Receipt 1[\s\S]*Gulyás[\s\S]*TOTAL/);
      expect(star.tickets[0].qr).toEqual(['https://bistro.example/r/1?sum=13.80EUR']);
      expect(star.etbCounter).toBe(1);
      expect((await onStar.info()).model).toBe('Star TSP650 (receipts numbered by the hub)');
    } finally {
      await onStar.close();
      await star.close();
    }
  });

  it('numbers consecutively and keeps counting after a restart (the state store is the memory)', async () => {
    await dev.printReceipt(receipt('A'), 'a');
    await dev.close();
    dev = device();
    expect((await dev.printReceipt(receipt('B'), 'b')).number).toBe(2);
    expect(await dev.status()).toMatchObject({ online: true, paper: 'ok', dailySalesReportNumber: 1, fiscalMemorySerialNumber: 'a1b2c3' });
  });

  it('out of paper or cover open: a known failure, nothing numbered', async () => {
    printer.setPaperOut(true);
    expect(await failure(dev.printReceipt(receipt(), 'j'))).toMatchObject({ code: 'PAPER_OUT', outcomeUnknown: false });
    printer.setPaperOut(false);
    printer.setCoverOpen(true);
    expect(await failure(dev.printReceipt(receipt(), 'j'))).toMatchObject({ code: 'COVER_OPEN', outcomeUnknown: false });
    expect(await dev.lastDocument()).toBeNull();
  });

  it('a printer that is off: OFFLINE, nothing numbered', async () => {
    await printer.setRefusing(true);
    expect(await failure(dev.printReceipt(receipt(), 'j'))).toMatchObject({ code: 'OFFLINE', outcomeUnknown: false });
    expect(await dev.lastDocument()).toBeNull();
  });

  it('a copy lost while printing: the receipt stands, and the copy is printed again marked REPRINT', async () => {
    printer.dropBeforeConfirm = 1;
    const r = await dev.printReceipt(receipt(), 'j');
    expect(r.number).toBe(1);
    await new Promise((res) => setTimeout(res, 30)); // the reconnect backoff
    await dev.status();
    await printer.waitFor(() => printer.cutTickets().length === 2);
    expect(printedText()[1]).toMatch(/REPRINT[\s\S]*Receipt 1/);
    await dev.status();
    expect(printer.cutTickets()).toHaveLength(2);
  });

  it('a receipt the customer declines on paper is numbered and journaled, not printed', async () => {
    expect((await dev.printReceipt(receipt('P', { print: false }), 'j')).number).toBe(1);
    await dev.status();
    expect(printer.cutTickets()).toHaveLength(0);
  });

  it('X reports the day; Z closes it and the next receipt carries the next day number', async () => {
    await dev.printReceipt(receipt('A'), 'a');
    expect(await dev.xReport()).toMatchObject({ kind: 'X', number: 1, total: '13.8', receipts: 1 });
    expect(await dev.zReport()).toMatchObject({ kind: 'Z', number: 1, total: '13.8', receipts: 1 });
    expect((await dev.printReceipt(receipt('B'), 'b')).dailySalesReportNumber).toBe(2);
    expect(await dev.zReport()).toMatchObject({ number: 2, receipts: 1 });
    await printer.waitFor(() => printedText().filter((t) => /Z REPORT/.test(t)).length === 2);
  });

  it("prints the receipt's and the reports' time on the shop's clock (POS_HUB_TIMEZONE), not UTC", async () => {
    // 10:00 UTC on 21 November is 11:00 in Bratislava (CET).
    const local = new EscPosFiscalDevice({ name: 'R2', address: printer.address, settings: { ReconnectMaxMs: '20' }, store, clock, timeZone: 'Europe/Bratislava' });
    try {
      await local.printReceipt(receipt(), 'job-tz');
      await local.xReport();
      await printer.waitFor(() => printer.cutTickets().length === 2);
      expect(printedText()[0]).toMatch(/Receipt 1 +2026-11-21 11:00/);
      expect(printedText()[1]).toMatch(/Date +2026-11-21 11:00/);
    } finally {
      await local.close();
    }
  });

  it('prints a refund as such, quoting the receipt it refunds (and its device when another one issued it)', async () => {
    const refund = (fiscalName: string): Receipt => {
      const r = receipt('RET');
      const lines = r.lines.map((l) => ({ ...l, total: `-${l.total}` }));
      return {
        ...r,
        lines,
        total: '-13.80',
        payments: [{ ...r.payments[0], amount: '-13.80' }],
        change: '0',
        returnOf: { ticketId: 'T1', fiscalName, number: 1, date: '2026-11-20T18:30:00Z', dailySalesReportNumber: 1, fiscalMemorySerialNumber: 'a1b2c3' },
      };
    };
    await dev.printReceipt(refund('R1'), 'r1');
    await dev.printReceipt(refund('Old till'), 'r2');
    await printer.waitFor(() => printer.cutTickets().length === 2);
    expect(printedText()[0]).toMatch(/REFUND\nReceipt 1 .*\nRefund of receipt 1 +2026-11-20 18:30\nOperator/);
    expect(printedText()[0]).not.toMatch(/Issued on/);
    expect(printedText()[1]).toMatch(/REFUND[\s\S]*Refund of receipt 1 .*\nIssued on +Old till/);
    // A sale says none of it.
    await dev.printReceipt(receipt('S'), 's');
    await printer.waitFor(() => printer.cutTickets().length === 3);
    expect(printedText()[2]).not.toMatch(/REFUND|Refund of/);
  });

  it('refuses an empty receipt', async () => {
    expect(await failure(dev.printReceipt(receipt('E', { lines: [] }), 'j'))).toMatchObject({ code: 'REJECTED' });
  });
});
