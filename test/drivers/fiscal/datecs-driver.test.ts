/**
 * The datecs driver against the Datecs device simulator, over a real TCP socket on 127.0.0.1 and
 * over serialport's MockBinding: whole receipts, reports, and the line faults the protocol is built
 * for (lost replies, NAK, garbled replies, SYN while busy, a device that goes silent or away).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CMD } from '../../../drivers/fiscal/datecs/commands.js';
import { DatecsFiscalDevice, type DatecsOptions } from '../../../drivers/fiscal/datecs/driver.js';
import { DatecsSimulator } from '../../../drivers/fiscal/datecs/simulator.js';
import { DeviceError, type Receipt } from '../../../drivers/fiscal/types.js';

const FAST = { frameTimeoutMs: 60, retries: 4, busyTimeoutMs: 2000 };
const clock = () => new Date('2026-11-21T10:00:00Z');

function receipt(reference = 'T1', over: Partial<Receipt> = {}): Receipt {
  return {
    reference,
    operator: 'anna',
    lines: [
      { name: 'Gulyás', quantity: '2', unitPrice: '6.9', vatRate: '20', vatCategory: 1, discountRate: '0', total: '13.80' },
      { name: 'Pivo', quantity: '1', unitPrice: '2.2', vatRate: '20', vatCategory: 1, discountRate: '10', total: '1.98' },
    ],
    discountRate: '0',
    total: '15.78',
    payments: [{ kind: 'Cash', name: 'Cash', amount: '20.00' }],
    change: '4.22',
    ...over,
  };
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

function suite(transport: 'tcp' | 'serial') {
  let sim: DatecsSimulator;
  let dev: DatecsFiscalDevice;
  let ports = 0;

  const device = (over: Partial<DatecsOptions> = {}) =>
    new DatecsFiscalDevice({
      name: 'DT1',
      address: transport === 'tcp' ? sim.address : `serial:/dev/ttyDATECS${ports}`,
      settings: {},
      clock,
      timings: FAST,
      channel: { backoff: { initialMs: 10, maxMs: 50, factor: 2 }, ...(transport === 'serial' ? { channel: { binding: sim.serialBinding(`/dev/ttyDATECS${ports}`) } } : {}) },
      ...over,
    });

  beforeEach(async () => {
    sim = new DatecsSimulator({ clock });
    ports += 1;
    if (transport === 'tcp') await sim.listen();
    dev = device();
  });
  afterEach(async () => {
    await dev.close();
    await sim.close();
  });

  it('prints a whole receipt: lines, change, numbers, fiscal memory', async () => {
    const r = await dev.printReceipt(receipt(), 'job-1');
    expect(r).toEqual({ number: 1, date: clock().toISOString(), amount: '15.78', dailySalesReportNumber: 1, fiscalMemorySerialNumber: '02000001' });
    const [stored] = sim.memory.receipts;
    expect(stored).toMatchObject({ number: 1, total: '15.78', change: '4.22', texts: ['Ticket T1', 'Job job-1'] });
    expect(stored.lines.map((l) => [l.text, l.price, l.quantity, l.total])).toEqual([
      ['Gulyas', '6.90', '2', '13.80'],
      ['Pivo', '2.20', '1', '1.98'],
    ]);
    expect(sim.memory.day).toMatchObject({ total: '15.78', receipts: 1 });
    expect(await dev.lastDocument()).toEqual({ number: 1, date: clock().toISOString(), amount: '15.78' });
  });

  it('answers info and status; an empty device has no last document', async () => {
    expect(await dev.info()).toMatchObject({ serialNumber: 'DT000001', fiscalMemorySerialNumber: '02000001', capabilities: { receipts: true, reports: true } });
    expect(await dev.status()).toEqual({ online: true, paper: 'ok', coverOpen: false, receiptOpen: false, dailySalesReportNumber: 1, fiscalMemorySerialNumber: '02000001' });
    sim.paper = 'low';
    sim.coverOpen = true;
    expect(await dev.status()).toMatchObject({ paper: 'low', coverOpen: true });
    expect(await dev.lastDocument()).toBeNull();
  });

  it('X leaves the day open, Z closes it: later receipts carry the next day number', async () => {
    await dev.printReceipt(receipt('A'), 'a');
    expect(await dev.xReport()).toMatchObject({ kind: 'X', number: 1, total: '15.78', receipts: 1 });
    await dev.printReceipt(receipt('B'), 'b');
    expect(await dev.zReport()).toMatchObject({ kind: 'Z', number: 1, total: '31.56', receipts: 2 });
    expect(sim.memory).toMatchObject({ zNumber: 1, day: { total: '0', receipts: 0 } });
    const next = await dev.printReceipt(receipt('C'), 'c');
    expect(next).toMatchObject({ number: 3, dailySalesReportNumber: 2 });
    expect((await dev.status()).dailySalesReportNumber).toBe(2);
  });

  it('a lost reply is recovered by sending the same frame again: the printer repeats, never executes twice', async () => {
    sim.dropReplies({ cmd: CMD.sale, count: 1 });
    sim.dropReplies({ cmd: CMD.closeFiscalReceipt, count: 2 });
    const r = await dev.printReceipt(receipt(), 'j');
    expect(r.number).toBe(1);
    expect(sim.memory.receipts).toHaveLength(1);
    expect(sim.memory.receipts[0].lines).toHaveLength(2);
    const closes = sim.requests.filter((q) => q.cmd === CMD.closeFiscalReceipt);
    expect(closes).toHaveLength(3);
    expect(new Set(closes.map((q) => q.seq)).size).toBe(1);
  });

  it('a NAK or a garbled reply makes it send the same frame again', async () => {
    sim.nakFrames(2);
    sim.garbleReplies(2);
    expect((await dev.printReceipt(receipt(), 'j')).number).toBe(1);
    expect(sim.memory.receipts).toHaveLength(1);
  });

  it('waits through SYN while the printer is busy', async () => {
    sim.synIntervalMs = 20;
    sim.latencyMs = 150; // more than the frame timeout: only the SYN bytes keep the command alive
    expect(await dev.zReport()).toMatchObject({ kind: 'Z', number: 1 });
  });

  it('a printer that keeps answering SYN past the busy limit times out', async () => {
    await dev.close();
    dev = device({ timings: { ...FAST, busyTimeoutMs: 100 } });
    sim.latencyMs = 400;
    const e = await failure(dev.status());
    expect(e.code).toBe('TIMEOUT');
  });

  it('out of paper before the receipt: PAPER_OUT with the vendor bit, nothing opened', async () => {
    sim.paper = 'out';
    const e = await failure(dev.printReceipt(receipt(), 'j'));
    expect(e).toMatchObject({ code: 'PAPER_OUT', vendorCode: 'S2.0', outcomeUnknown: false });
    expect(sim.requests.some((q) => q.cmd === CMD.openFiscalReceipt)).toBe(false);
    expect(await dev.status()).toMatchObject({ paper: 'out' });
  });

  it('paper out mid-receipt: the half-open receipt is voided, known outcome, nothing fiscalized', async () => {
    sim.paperOutAfterLines(1);
    const e = await failure(dev.printReceipt(receipt(), 'j'));
    expect(e).toMatchObject({ code: 'PAPER_OUT', outcomeUnknown: false });
    expect(sim.openReceipt).toBeNull();
    expect(sim.memory.receipts).toHaveLength(0);
    expect(sim.memory.day.voided).toBe(1);
    sim.paper = 'ok';
    expect((await dev.printReceipt(receipt(), 'j2')).number).toBe(1);
  });

  it('a receipt left open by an earlier failure is voided before the next one', async () => {
    sim.failAfter(CMD.sale, 'silence');
    const e = await failure(dev.printReceipt(receipt(), 'j'));
    expect(e).toMatchObject({ code: 'TIMEOUT', outcomeUnknown: false });
    expect(sim.openReceipt).not.toBeNull();
    sim.resume();
    expect((await dev.printReceipt(receipt(), 'j2')).number).toBe(1);
    expect(sim.memory.receipts).toHaveLength(1);
    expect(sim.memory.day.voided).toBe(1);
  });

  it('silence after the close command: TIMEOUT with an unknown outcome; lastDocument then tells', async () => {
    sim.failAfter(CMD.closeFiscalReceipt, 'silence');
    const e = await failure(dev.printReceipt(receipt(), 'j'));
    expect(e).toMatchObject({ code: 'TIMEOUT', outcomeUnknown: true });
    expect(sim.memory.receipts).toHaveLength(1);
    sim.resume();
    expect(await dev.lastDocument()).toMatchObject({ number: 1, amount: '15.78' });
  });

  it('a refused payment voids the receipt with REJECTED', async () => {
    const e = await failure(dev.printReceipt(receipt('T', { payments: [{ kind: 'Cash', name: 'Cash', amount: '1.00' }] }), 'j'));
    expect(e).toMatchObject({ code: 'REJECTED', outcomeUnknown: false });
    expect(sim.openReceipt).toBeNull();
    expect(sim.memory.receipts).toHaveLength(0);
  });

  it('a receipt the printer cannot take is refused before anything is sent', async () => {
    const bad = receipt('T', { lines: [{ ...receipt().lines[0], vatCategory: 0 }] });
    expect(dev.validate(bad)).toMatch(/VAT category/);
    const e = await failure(dev.printReceipt(bad, 'j'));
    expect(e).toMatchObject({ code: 'REJECTED', vendorCode: 'PLAN' });
    expect(sim.requests).toHaveLength(0);
  });

  it('a cover open refuses with COVER_OPEN', async () => {
    sim.coverOpen = true;
    expect(await failure(dev.zReport())).toMatchObject({ code: 'COVER_OPEN', vendorCode: 'S0.6' });
  });

  it('one command in flight: concurrent calls are queued, each gets its own answer', async () => {
    const [a, b, s, l] = await Promise.all([dev.printReceipt(receipt('A'), 'a'), dev.printReceipt(receipt('B'), 'b'), dev.status(), dev.lastDocument()]);
    expect([a.number, b.number]).toEqual([1, 2]);
    expect(s.online).toBe(true);
    expect(l?.number).toBe(2);
    expect(sim.memory.receipts.map((r) => r.texts[0])).toEqual(['Ticket A', 'Ticket B']);
  });
}

describe('over TCP on 127.0.0.1', () => {
  suite('tcp');

  it('a device that is off is OFFLINE with a known outcome; it works once it is back', async () => {
    const sim = new DatecsSimulator({ clock });
    await sim.listen();
    const dev = new DatecsFiscalDevice({ name: 'X', address: sim.address, settings: {}, clock, timings: FAST, channel: { backoff: { initialMs: 10, maxMs: 20, factor: 2 } } });
    try {
      await sim.setPower(false);
      expect(await failure(dev.printReceipt(receipt(), 'j'))).toMatchObject({ code: 'OFFLINE', outcomeUnknown: false });
      await sim.setPower(true);
      await new Promise((r) => setTimeout(r, 30));
      expect((await dev.printReceipt(receipt(), 'j')).number).toBe(1);
    } finally {
      await dev.close();
      await sim.close();
    }
  });

  it('a line that drops after the close command: the frame goes again on a new connection and the printer repeats its answer', async () => {
    const sim = new DatecsSimulator({ clock });
    await sim.listen();
    const dev = new DatecsFiscalDevice({ name: 'X', address: sim.address, settings: {}, clock, timings: FAST, channel: { backoff: { initialMs: 10, maxMs: 20, factor: 2 } } });
    try {
      sim.failAfter(CMD.closeFiscalReceipt, 'disconnect');
      const r = await dev.printReceipt(receipt(), 'j');
      expect(r.number).toBe(1);
      expect(sim.memory.receipts).toHaveLength(1);
    } finally {
      await dev.close();
      await sim.close();
    }
  });

  it('a new connection never takes an old answer for a new command (the printer remembers the last sequence number)', async () => {
    const sim = new DatecsSimulator({ clock });
    await sim.listen();
    const opts = { name: 'X', address: sim.address, settings: {}, clock, timings: FAST };
    try {
      for (let i = 0; i < 30; i++) {
        const dev = new DatecsFiscalDevice(opts);
        await dev.printReceipt(receipt(String(i)), String(i));
        expect(await dev.lastDocument()).toMatchObject({ number: i + 1 });
        await dev.close();
      }
      expect(sim.memory.receipts).toHaveLength(30);
    } finally {
      await sim.close();
    }
  });
});

describe("over serialport's MockBinding", () => {
  suite('serial');
});
