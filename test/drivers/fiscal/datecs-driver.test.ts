/**
 * The datecs driver against the fake Datecs printer (test/support/fake-datecs-device.ts) in each
 * firmware variant, over a real TCP socket on 127.0.0.1 and over serialport's MockBinding: whole
 * receipts, reports, line faults, and each defect of issue 19 (numbered as the issue numbers them).
 */
import { describe, expect, test as base } from 'vitest';
import { CMD, VARIANTS, faultOf, parseAmount, parseDiagnosticInfo, statusBytes, type VariantName } from '../../../drivers/fiscal/datecs/commands.js';
import { encode1251 } from '../../../drivers/fiscal/datecs/cp1251.js';
import { DatecsFiscalDevice, MAX_OPEN_REFUSALS, checkSettings, frameTimeoutFor, type DatecsOptions } from '../../../drivers/fiscal/datecs/driver.js';
import { type Receipt } from '../../../drivers/fiscal/types.js';
import { DeviceError } from '../../../drivers/faults.js';
import { FakeDatecsDevice } from '../../support/fake-datecs-device.js';

// Short enough that the silence tests end quickly, long enough that a test worker busy elsewhere for
// a moment (the suite runs two files at a time on two cores, and this file's tests run side by side)
// is not taken for a silent printer (80 ms once was, on a machine running three files); and
// retries to spare beyond the faults a test injects (two NAKs and two garbled replies take four), so
// one more retry after such a moment does not exhaust them.
const FAST = { frameTimeoutMs: 150, retries: 6, busyTimeoutMs: 2000 };
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

let ports = 0;

/**
 * A fake printer and the driver talking to it. Each test owns what it opened and closes it at its
 * end (a fixture, not a shared afterEach), so the tests run concurrently: they mostly wait out
 * frame timeouts and the fake's latency, and one after another they took 19 s.
 */
const test = base.extend<{ pair: typeof openPair }>({
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern
  pair: async ({}, use) => {
    const closers: (() => Promise<void>)[] = [];
    await use(async (variant, opts) => {
      const paired = await openPair(variant, opts);
      closers.push(paired.close);
      return paired;
    });
    await Promise.all(closers.map((close) => close()));
  },
});

async function openPair(variant: VariantName, opts: { transport?: 'tcp' | 'serial'; settings?: Record<string, string>; fake?: ConstructorParameters<typeof FakeDatecsDevice>[0] } & Partial<DatecsOptions> = {}) {
  const fake = new FakeDatecsDevice({ clock, variant, ...opts.fake });
  const devices: DatecsFiscalDevice[] = [];
  const port = `/dev/ttyDATECS${++ports}`;
  const serial = opts.transport === 'serial';
  if (!serial) await fake.listen();
  const make = (over: Partial<DatecsOptions> = {}) => {
    const dev = new DatecsFiscalDevice({
      name: 'DT1',
      address: serial ? `serial:${port}` : fake.address,
      settings: opts.settings ?? {},
      clock,
      timings: FAST,
      channel: { backoff: { initialMs: 10, maxMs: 50, factor: 2 }, ...(serial ? { channel: { binding: fake.serialBinding(port) } } : {}) },
      ...over,
    });
    devices.push(dev);
    return dev;
  };
  const close = async () => {
    await Promise.all(devices.map((d) => d.close()));
    await fake.close();
  };
  return { fake, dev: make(), make, close };
}

function suite(variant: VariantName, transport: 'tcp' | 'serial') {
  const it = test.extend<{ paired: Awaited<ReturnType<typeof openPair>> }>({
    paired: async ({ pair }, use) => use(await pair(variant, { transport })),
  });

  it('prints a whole receipt: lines, change, numbers; lastDocument answers it with its amount', async ({ paired: { fake, dev } }) => {
    const r = await dev.printReceipt(receipt(), 'job-1');
    // The УНП the receipt was opened with comes back with it (a storno receipt quotes it).
    expect(r).toEqual({ number: 1, date: clock().toISOString(), amount: '15.78', dailySalesReportNumber: 1, fiscalMemorySerialNumber: '02000001', unp: 'DT000001-0001-0000001' });
    const [stored] = fake.memory.receipts;
    expect(stored).toMatchObject({ number: 1, total: '15.78', change: '4.22', texts: ['Ticket T1', 'Job job-1'] });
    expect(stored.lines.map((l) => [l.text, l.taxGroup, l.quantity, l.total])).toEqual([
      ['Gulyas', 'А', '2', '13.80'],
      ['Pivo', 'А', '1', '1.98'],
    ]);
    expect(await dev.lastDocument()).toEqual({ number: 1, date: clock().toISOString(), amount: '15.78', unp: 'DT000001-0001-0000001' });
  });

  it('answers info and status, finding the variant from the model name', async ({ paired: { dev } }) => {
    expect(await dev.info()).toMatchObject({ model: expect.stringContaining(`(${variant})`), fiscalMemorySerialNumber: '02000001' });
    expect(await dev.status()).toEqual({ online: true, paper: 'ok', coverOpen: false, receiptOpen: false, dailySalesReportNumber: 1, fiscalMemorySerialNumber: '02000001' });
    expect(await dev.lastDocument()).toBeNull();
  });

  it('X leaves the day open, Z closes it: later receipts carry the next day number', async ({ paired: { fake, dev } }) => {
    await dev.printReceipt(receipt('A'), 'a');
    expect(await dev.xReport()).toMatchObject({ kind: 'X', number: 1, total: '15.78', receipts: 1 });
    await dev.printReceipt(receipt('B'), 'b');
    expect(await dev.zReport()).toMatchObject({ kind: 'Z', number: 1, total: '31.56', receipts: 2 });
    expect(fake.memory).toMatchObject({ zNumber: 1, day: { total: '0', receipts: 0 } });
    expect(await dev.printReceipt(receipt('C'), 'c')).toMatchObject({ number: 5, dailySalesReportNumber: 2 });
    expect((await dev.status()).dailySalesReportNumber).toBe(2);
  });

  it('a lost reply is recovered by sending the same frame again: the printer repeats, never executes twice', async ({ paired: { fake, dev } }) => {
    fake.dropReplies({ cmd: CMD.sale, count: 1 });
    fake.dropReplies({ cmd: CMD.closeFiscalReceipt, count: 2 });
    expect((await dev.printReceipt(receipt(), 'j')).number).toBe(1);
    expect(fake.memory.receipts).toHaveLength(1);
    const closes = fake.requests.filter((q) => q.cmd === CMD.closeFiscalReceipt);
    expect(closes).toHaveLength(3);
    expect(new Set(closes.map((q) => q.seq)).size).toBe(1);
  });

  it('a NAK, a garbled reply, SYN while busy: the same frame again, one receipt', async ({ paired: { fake, dev } }) => {
    await dev.info();
    fake.nakFrames(2);
    fake.garbleReplies(2);
    fake.synIntervalMs = 20;
    fake.latencyMs = 100;
    expect((await dev.printReceipt(receipt(), 'j')).number).toBe(1);
    expect(fake.memory.receipts).toHaveLength(1);
  });

  it('paper out mid-receipt: the half-open receipt is voided, known outcome, nothing fiscalized', async ({ paired: { fake, dev } }) => {
    fake.paperOutAfterLines(1);
    expect(await failure(dev.printReceipt(receipt(), 'j'))).toMatchObject({ code: 'PAPER_OUT', vendorCode: 'S2.0', outcomeUnknown: false });
    expect(fake.openReceipt).toBeNull();
    expect(fake.memory.receipts).toHaveLength(0);
    fake.paper = 'ok';
    expect((await dev.printReceipt(receipt(), 'j2')).number).toBe(2); // the void took number 1
  });

  it('silence after the close command: TIMEOUT with an unknown outcome; lastDocument then tells', async ({ paired: { fake, dev } }) => {
    fake.failAfter(CMD.closeFiscalReceipt, 'silence');
    expect(await failure(dev.printReceipt(receipt(), 'j'))).toMatchObject({ code: 'TIMEOUT', outcomeUnknown: true });
    fake.resume();
    expect(await dev.lastDocument()).toMatchObject({ number: 1, amount: '15.78' });
  });

  it('one command in flight: concurrent calls are queued, each gets its own answer', async ({ paired: { dev } }) => {
    const [a, b, s, l] = await Promise.all([dev.printReceipt(receipt('A'), 'a'), dev.printReceipt(receipt('B'), 'b'), dev.status(), dev.lastDocument()]);
    expect([a.number, b.number]).toEqual([1, 2]);
    expect(s.online).toBe(true);
    expect(l?.number).toBe(2);
  });
}

// Every suite and test side by side (each owns its printer): see `test` above.
describe.concurrent('the Datecs driver', () => {
  for (const variant of ['P', 'C', 'X'] as const) {
    describe(`variant ${variant} (${VARIANTS[variant].name === 'X' ? 'FP-700X' : variant === 'P' ? 'FP-2000' : 'DP-150'}) over TCP`, () => suite(variant, 'tcp'));
  }
  describe("variant C over serialport's MockBinding", () => suite('C', 'serial'));
  describe("variant X over serialport's MockBinding", () => suite('X', 'serial'));

  describe('issue 19, defect by defect', () => {
    test('1. 40h answers P,… or F,…: status and receipts work on P, C and X (the old parser threw PROTOCOL)', async ({ pair }) => {
      for (const v of ['P', 'C', 'X'] as const) {
        const { dev } = await pair(v);
        expect((await dev.status()).dailySalesReportNumber).toBe(1); // F: no Z yet
        await dev.printReceipt(receipt(), 'a');
        await dev.zReport();
        expect((await dev.status()).dailySalesReportNumber).toBe(2); // P,0001,…
      }
    });

    test('2. Cyrillic goes out in Windows-1251 and prints as written', async ({ pair }) => {
      const { fake, dev } = await pair('C');
      await dev.printReceipt(receipt('T', { lines: [{ ...receipt().lines[0], name: 'Шопска салата' }], total: '13.80', change: '6.20' }), 'j');
      const sale = fake.requests.find((q) => q.cmd === CMD.sale)!;
      expect(sale.data.subarray(0, 13)).toEqual(encode1251('Шопска салата'));
      expect(sale.data[0]).toBe(0xd8);
      expect(fake.memory.receipts[0].lines[0].text).toBe('Шопска салата');
    });

    test('3. tax groups and name lengths per variant: C Cyrillic А–З and 22 bytes, P 34, X "1"–"8" and 72', async ({ pair }) => {
      const long = 'Bryndzové halušky so slaninou a kyslou smotanou, veľká porcia pre dvoch';
      for (const [v, max, group] of [['C', 22, 'А'], ['P', 34, 'А'], ['X', 72, '1']] as const) {
        const { fake, dev } = await pair(v);
        await dev.printReceipt(receipt('T', { lines: [{ ...receipt().lines[0], name: long, vatCategory: 1 }], total: '13.80', change: '6.20' }), 'j');
        const data = fake.requests.find((q) => q.cmd === CMD.sale)!.data.toString('latin1');
        expect(data.split('\t')[0].length).toBeLessThanOrEqual(max);
        expect(fake.memory.receipts[0].lines[0].text).toHaveLength(Math.min(max, long.length));
        expect(v === 'X' ? data.split('\t')[1] : data.split('\t')[1][0]).toBe(v === 'X' ? group : '\xc0');
      }
      // Tax group I exists on no variant: refused when the device is saved, not at the printer.
      expect(() => checkSettings({ TaxGroups: '9=I' })).toThrow(/not a tax group/);
      expect(() => checkSettings({ TaxGroups: '1=А,2=B,3=3' })).not.toThrow();
    });

    test('4. payments are booked to the right type: card P→D, C→C, X→1; voucher P→m, C→I, X→5', async ({ pair }) => {
      const payments: Receipt['payments'] = [
        { kind: 'CreditCard', name: 'Card', amount: '10.00' },
        { kind: 'Voucher', name: 'Ticket', amount: '5.00' },
        { kind: 'Cash', name: 'Cash', amount: '1.00' },
      ];
      for (const [v, modes] of [['P', ['D', 'm', 'P']], ['C', ['C', 'I', 'P']], ['X', ['1', '5', '0']]] as const) {
        const { fake, dev } = await pair(v);
        await dev.printReceipt(receipt('T', { payments, change: '0.22' }), 'j');
        expect(fake.memory.receipts[0].payments.map((p) => p.mode)).toEqual(modes);
      }
      const { fake, dev } = await pair('C', { settings: { PaymentModes: 'Voucher=J' } });
      await dev.printReceipt(receipt('T', { payments, change: '0.22' }), 'j');
      expect(fake.memory.receipts[0].payments.map((p) => p.mode)).toEqual(['C', 'J', 'P']);
    });

    test.for(['P', 'C', 'X'] as const)('5. a receipt left open after a payment is paid off and closed (3Ch is refused after 35h), and later receipts print: %s', async (v, { pair }) => {
      const { fake, dev } = await pair(v);
      fake.failAfter(CMD.total, 'silence');
      const card: Receipt['payments'] = [{ kind: 'CreditCard', name: 'Card', amount: '10.00' }, { kind: 'Cash', name: 'Cash', amount: '10.00' }];
      expect(await failure(dev.printReceipt(receipt('A', { payments: card }), 'a'))).toMatchObject({ outcomeUnknown: true });
      expect(fake.openReceipt?.paid.toString()).toBe('10');
      fake.resume();
      // The hub's reconciliation asks lastDocument(): the receipt is finished and is the last one, paid
      // as the hub recorded it (issue 27, point 10): the cash payment, with its change.
      expect(await dev.lastDocument()).toMatchObject({ number: 1, amount: '15.78' });
      expect(fake.memory.receipts[0].payments.map((p) => [p.mode, p.amount])).toEqual([
        [VARIANTS[v].payments.CreditCard, '10.00'],
        [VARIANTS[v].payments.Cash, '10.00'],
      ]);
      expect(fake.memory.receipts[0].change).toBe('4.22');
      expect(fake.openReceipt).toBeNull();
      expect((await dev.printReceipt(receipt('B'), 'b')).number).toBe(2);
      expect(await dev.zReport()).toMatchObject({ kind: 'Z' });
    });

    test('6. reconciliation reads 4Ch amounts in cents; voiding a stale receipt does not pass for a receipt', async ({ pair }) => {
      expect(parseAmount('+000001578')).toBe('15.78');
      expect(parseAmount('-000000050')).toBe('-0.5');
      expect(parseAmount('15.78')).toBe('15.78');
      const { fake, dev } = await pair('C');
      await dev.printReceipt(receipt('A'), 'a');
      fake.failAfter(CMD.sale, 'silence');
      expect(await failure(dev.printReceipt(receipt('B'), 'b'))).toMatchObject({ outcomeUnknown: false });
      fake.resume();
      // The open, unpaid receipt is voided (document 2): the last document is that void, which is no
      // receipt (amount 0), so it never passes for one (issue 27, point 7).
      expect(await dev.lastDocument()).toEqual({ number: 2, date: clock().toISOString(), amount: '0' });
      expect(fake.memory.documentNumber).toBe(2);
      expect((await dev.printReceipt(receipt('B'), 'b2')).number).toBe(3);
      expect(fake.memory.receipts.map((r) => r.number)).toEqual([1, 3]);
    });

    test('7. 30h carries the УНП where firmware needs it, the variant\'s own password, and is never tried a third time', async ({ pair }) => {
      for (const v of ['P', 'C', 'X'] as const) {
        const { fake, dev } = await pair(v);
        await dev.printReceipt(receipt('A'), 'a');
        await dev.printReceipt(receipt('B'), 'b');
        expect(fake.memory.receipts.map((r) => r.unp)).toEqual(['DT000001-0001-0000001', 'DT000001-0001-0000002']);
      }
      expect([VARIANTS.P.defaultPassword('FP-2000', '1'), VARIANTS.C.defaultPassword('DP-150', '1'), VARIANTS.X.defaultPassword('FP-700X', '1')]).toEqual(['0000', '1', '0000']);
      const { fake, dev } = await pair('C', { fake: { password: '4711' } });
      for (let i = 0; i < MAX_OPEN_REFUSALS; i++) expect(await failure(dev.printReceipt(receipt(), `j${i}`))).toMatchObject({ code: 'REJECTED' });
      const guarded = await failure(dev.printReceipt(receipt(), 'j9'));
      expect(guarded).toMatchObject({ code: 'REJECTED', vendorCode: 'OPEN-GUARD' });
      expect(fake.wrongPasswords).toBe(2);
      expect(fake.requests.filter((q) => q.cmd === CMD.openFiscalReceipt)).toHaveLength(2);
      const { fake: right, dev: configured } = await pair('C', { fake: { password: '4711' }, settings: { OperatorPassword: '4711' } });
      expect((await configured.printReceipt(receipt(), 'ok')).number).toBe(1);
      expect(right.wrongPasswords).toBe(0);
    });

    test('8. X firmware: found from the model (FP-700X, DP-150MX) or named in settings; a classic frame gets SYN NAK', async ({ pair }) => {
      const { fake, dev } = await pair('X', { fake: { model: 'DP-150MX' } });
      expect((await dev.info()).model).toMatch(/DP-150MX .*\(X\)/);
      expect((await dev.printReceipt(receipt(), 'j')).number).toBe(1);
      expect(fake.memory.receipts).toHaveLength(1);
      const named = await pair('X', { settings: { Variant: 'X' } });
      expect((await named.dev.printReceipt(receipt(), 'j')).number).toBe(1);
      const wrong = await pair('X', { settings: { Variant: 'C' }, timings: { ...FAST, retries: 1 } });
      expect(await failure(wrong.dev.status())).toMatchObject({ code: 'PROTOCOL', vendorCode: 'NAK', outcomeUnknown: false });
    });

    test('9. status bits per variant: P 1.4 is a storno receipt, 1.2 RAM reset; 2.2 EJ full and 4.6 head overheated raise faults', () => {
      const P = VARIANTS.P;
      expect(faultOf(P, statusBytes(P, ['stornoReceiptOpen']))).toBeNull();
      expect(faultOf(P, statusBytes(P, ['ramReset']))).toMatchObject({ code: 'REJECTED', vendorCode: 'S1.2' });
      expect(faultOf(P, statusBytes(P, ['ejFull']))).toMatchObject({ code: 'FISCAL_MEMORY_FULL', vendorCode: 'S2.2' });
      expect(faultOf(P, statusBytes(P, ['headOverheated']))).toMatchObject({ code: 'BUSY', vendorCode: 'S4.6' });
      expect(statusBytes(VARIANTS.X, [])).toHaveLength(8);
      // C has no cover bit (C manual p.3: 0.6 reserved): a set 0.6 means nothing there.
      expect(faultOf(VARIANTS.C, Buffer.from([0xc0, 0x80, 0x80, 0x80, 0x80, 0x80]))).toBeNull();
      expect(faultOf(VARIANTS.X, statusBytes(VARIANTS.X, ['coverOpen']))).toMatchObject({ code: 'COVER_OPEN', vendorCode: 'S0.6' });
    });

    test('9. the frame timeout grows with a slow line: 1.5 s at 2,400 baud, ~0.5 s at 115,200 and on TCP', () => {
      expect(frameTimeoutFor(2400)).toBeGreaterThanOrEqual(1500);
      expect(frameTimeoutFor(115200)).toBeLessThan(600);
      expect(frameTimeoutFor(null)).toBe(500);
    });
  });

  describe('issue 27, point 7: a void is never a receipt, an outcome the printer tells is known', () => {
    test.for(['P', 'C', 'X'] as const)('a payment lost before the printer ran it: the receipt is voided and lastDocument answers no receipt: %s', async (v, { pair }) => {
      const { fake, dev } = await pair(v);
      await dev.printReceipt(receipt('A'), 'a');
      const before = await dev.lastDocument();
      fake.failBefore(CMD.total);
      expect(await failure(dev.printReceipt(receipt('B'), 'b'))).toMatchObject({ outcomeUnknown: true });
      fake.resume();
      // X's 4Ch Number is the open receipt's own while it is open: the void must not pass for receipt B
      // (same amount as A), nor the void's number carry A's amount.
      const last = await dev.lastDocument();
      expect(fake.memory.receipts).toHaveLength(1);
      expect(last === null || last.number <= before!.number || last.amount === '0').toBe(true);
    });

    test.for(['P', 'C', 'X'] as const)('a payment refused after another went in: the receipt is finished with the hub\'s payments and answered as issued: %s', async (v, { pair }) => {
      const { fake, dev } = await pair(v);
      fake.afterNext(CMD.total, () => fake.refuseNext(CMD.total));
      const payments: Receipt['payments'] = [{ kind: 'CreditCard', name: 'Card', amount: '10.00' }, { kind: 'Cash', name: 'Cash', amount: '10.00' }];
      // The old driver threw "outcome unknown" here although it had just closed the receipt itself.
      expect(await dev.printReceipt(receipt('A', { payments }), 'a')).toMatchObject({ number: 1, amount: '15.78' });
      expect(fake.memory.receipts.map((r) => r.payments.map((p) => [p.mode, p.amount]))).toEqual([
        [
          [VARIANTS[v].payments.CreditCard, '10.00'],
          [VARIANTS[v].payments.Cash, '10.00'],
        ],
      ]);
    });

    test.for(['P', 'C'] as const)('a printer that does not number voids: the void is still no receipt, the next receipt is one: %s', async (v, { pair }) => {
      const { fake, dev } = await pair(v);
      fake.numbersVoids = false;
      await dev.printReceipt(receipt('A'), 'a');
      fake.refuseNext(CMD.total);
      expect(await failure(dev.printReceipt(receipt('B', { total: '15.78' }), 'b'))).toMatchObject({ outcomeUnknown: false });
      expect(fake.memory.documentNumber).toBe(1);
      // 71h still answers A's number, 4Ch tells of the voided receipt (nothing paid): no receipt.
      expect(await dev.lastDocument()).toMatchObject({ number: 1, amount: '0' });
      expect((await dev.printReceipt(receipt('C'), 'c')).number).toBe(2);
      expect(await dev.lastDocument()).toMatchObject({ number: 2, amount: '15.78' });
    });

    test.for(['P', 'C', 'X'] as const)('a payment refused before any went in: voided, a known outcome, and no receipt: %s', async (v, { pair }) => {
      const { fake, dev } = await pair(v);
      fake.refuseNext(CMD.total);
      expect(await failure(dev.printReceipt(receipt('A'), 'a'))).toMatchObject({ code: 'REJECTED', outcomeUnknown: false });
      expect(fake.openReceipt).toBeNull();
      expect((await dev.lastDocument())?.amount ?? '0').toBe('0');
    });
  });

  describe('issue 27, points 8-10: passwords, the open guard, paying off, widths, states', () => {
    test('8. X cash registers take their operator\'s number as the factory password, the FMP/FP printers "0000": each prints out of the box', async ({ pair }) => {
      for (const model of ['DP-25X', 'DP-150X', 'WP-50X', 'WP-500X', 'WP-25X', 'DP-05C', 'FMP-350X', 'FMP-55X', 'FP-700X']) {
        const { fake, dev } = await pair('X', { fake: { model } });
        expect((await dev.printReceipt(receipt(), 'j')).number).toBe(1);
        expect(fake.wrongPasswords).toBe(0);
      }
      expect(VARIANTS.X.defaultPassword('DP-25X', '3')).toBe('3');
      expect(VARIANTS.X.defaultPassword('FMP-55X', '3')).toBe('0000');
    });

    test.for(['X', 'C'] as const)('9. a Z report overdue is not a wrong password: said as such, never blocks, and the Z report cures it: %s', async (v, { pair }) => {
      const { fake, dev } = await pair(v);
      fake.zOverdue = true;
      const errors = [];
      for (let i = 0; i < MAX_OPEN_REFUSALS; i++) errors.push(await failure(dev.printReceipt(receipt(), `j${i}`)));
      for (const e of errors) expect(e).toMatchObject({ code: 'REJECTED', message: expect.stringMatching(/Z report is overdue/) });
      if (v === 'X') {
        // X names the cause (-111024): it never counts toward the guard.
        expect(errors[0].vendorCode).toBe('E-111024');
        expect(await failure(dev.printReceipt(receipt(), 'j8'))).toMatchObject({ vendorCode: 'E-111024' });
      } else {
        // Classic firmware says only "not allowed" (S1.1), as for a wrong password: guarded, and the message says both.
        expect(await failure(dev.printReceipt(receipt(), 'j8'))).toMatchObject({ vendorCode: 'OPEN-GUARD', message: expect.stringMatching(/Z report is overdue.*or the operator password is wrong/) });
      }
      expect(fake.wrongPasswords).toBe(0);
      expect(await dev.zReport()).toMatchObject({ kind: 'Z' });
      expect(fake.zOverdue).toBe(false);
      expect((await dev.printReceipt(receipt(), 'after-z')).number).toBeGreaterThan(0);
    });

    test('9. X counts only wrong-password refusals (-102002) and says so', async ({ pair }) => {
      const { fake, dev } = await pair('X', { fake: { password: '4711' } });
      for (let i = 0; i < MAX_OPEN_REFUSALS; i++) {
        expect(await failure(dev.printReceipt(receipt(), `j${i}`))).toMatchObject({ vendorCode: 'E-102002', message: expect.stringMatching(/wrong operator password/) });
      }
      expect(await failure(dev.printReceipt(receipt(), 'j9'))).toMatchObject({ vendorCode: 'OPEN-GUARD', message: expect.stringMatching(/wrong operator password/) });
      expect(fake.wrongPasswords).toBe(MAX_OPEN_REFUSALS);
    });

    test.for(['P', 'C', 'X'] as const)('10. a receipt finished after a failure pays the rest as the hub recorded it, not in cash: %s', async (v, { pair }) => {
      const { fake, dev } = await pair(v);
      const payments: Receipt['payments'] = [{ kind: 'CreditCard', name: 'Card', amount: '10.00' }, { kind: 'Voucher', name: 'Ticket', amount: '5.78' }];
      fake.failAfter(CMD.total, 'silence');
      expect(await failure(dev.printReceipt(receipt('A', { payments, change: '0.00' }), 'a'))).toMatchObject({ outcomeUnknown: true });
      fake.resume();
      expect(await dev.lastDocument()).toMatchObject({ number: 1, amount: '15.78' });
      expect(fake.memory.receipts[0].payments.map((p) => [p.mode, p.amount])).toEqual([
        [VARIANTS[v].payments.CreditCard, '10.00'],
        [VARIANTS[v].payments.Voucher, '5.78'],
      ]);
    });

    test('10. the FMP-55X prints 32 columns: free text lines of at most 30 bytes', async ({ pair }) => {
      const { fake, dev } = await pair('X', { fake: { model: 'FMP-55X' } });
      const jobId = '0b8f3c52-6f0e-4a57-9d3e-1f2a3b4c5d6e';
      expect((await dev.printReceipt(receipt('T-2026-000123'), jobId)).number).toBe(1);
      const texts = fake.requests.filter((q) => q.cmd === CMD.fiscalText).map((q) => q.data.toString('latin1').split('\t')[0]);
      expect(Math.max(...texts.map((t) => t.length))).toBeLessThanOrEqual(30);
      expect(fake.memory.receipts[0].texts.join('')).toBe(`Ticket T-2026-000123Job ${jobId}`);
    });

    test.for(['X', 'C'] as const)('10. a service (non-fiscal) receipt left open (X 4Ch IsOpen 5, status 2.5) is closed, then the receipt prints: %s', async (v, { pair }) => {
      const { fake, dev } = await pair(v);
      fake.openServiceReceipt();
      // Closing it made a document, which is no receipt.
      expect((await dev.lastDocument())?.amount ?? '0').toBe('0');
      fake.openServiceReceipt();
      expect((await dev.printReceipt(receipt(), 'j')).number).toBeGreaterThan(0);
      expect(fake.memory.receipts).toHaveLength(1);
    });

    test.for(['P', 'C'] as const)('10. classic 40h answering F is an error, not "no Z report yet": %s', async (v, { pair }) => {
      const { fake, dev } = await pair(v);
      expect((await dev.status()).dailySalesReportNumber).toBe(1);
      fake.lastEntryFails = true;
      expect(await failure(dev.status())).toMatchObject({ code: 'REJECTED', vendorCode: 'F' });
      expect(await failure(dev.printReceipt(receipt(), 'j'))).toMatchObject({ code: 'REJECTED', vendorCode: 'F', outcomeUnknown: false });
      expect(fake.requests.some((q) => q.cmd === CMD.openFiscalReceipt)).toBe(false);
    });
  });

  describe('issue 27, point 5: a return is a storno receipt quoting the original', () => {
    const refund = (over: Partial<Receipt> = {}): Receipt =>
      receipt('R1', {
        lines: receipt().lines.map((l) => ({ ...l, total: `-${l.total}` })),
        total: '-15.78',
        payments: [{ kind: 'Cash', name: 'Cash', amount: '-15.78' }],
        change: '0.00',
        returnOf: { ticketId: 'T1', fiscalName: 'DT1', number: 1, date: clock().toISOString(), dailySalesReportNumber: 1, fiscalMemorySerialNumber: '02000001' },
        ...over,
      });
    // 2026-11-21 10:00 UTC is 12:00 in Sofia (EET).
    const quoted = { P: '211126120000', C: '211126120000', X: '21-11-26 12:00:00' } as const;

    test.for(['P', 'C', 'X'] as const)('refunds the original by its number, date (the printer\'s time zone), fiscal memory and УНП: %s', async (v, { pair }) => {
      const { fake, dev } = await pair(v, { settings: { TimeZone: 'Europe/Sofia' } });
      expect((await dev.printReceipt(receipt('T1'), 'sale')).number).toBe(1);
      const r = await dev.printReceipt(refund(), 'refund');
      expect(r).toMatchObject({ number: 2, amount: '-15.78' });
      const [, storno] = fake.memory.receipts;
      expect(storno.storno).toEqual({ number: 1, date: quoted[v], fiscalMemorySerialNumber: '02000001', unp: 'DT000001-0001-0000001' });
      expect(storno.lines.map((l) => l.total)).toEqual(['13.80', '1.98']);
      expect(storno.payments).toEqual([{ mode: VARIANTS[v].payments.Cash, amount: '15.78' }]);
      expect(fake.requests.some((q) => q.cmd === (v === 'X' ? CMD.openStornoDocument : CMD.openStornoReceipt))).toBe(true);
      expect(await dev.lastDocument()).toMatchObject({ number: 2, amount: '15.78' });
    });

    test.for(['P', 'C', 'X'] as const)('a lost answer to the storno receipt\'s close: lastDocument answers the storno receipt: %s', async (v, { pair }) => {
      const { fake, dev } = await pair(v);
      await dev.printReceipt(receipt('T1'), 'sale');
      fake.failAfter(CMD.closeFiscalReceipt, 'silence');
      expect(await failure(dev.printReceipt(refund(), 'refund'))).toMatchObject({ outcomeUnknown: true });
      fake.resume();
      expect(await dev.lastDocument()).toMatchObject({ number: 2, amount: '15.78' });
      expect(fake.memory.receipts.filter((x) => x.storno)).toHaveLength(1);
    });

    test.for(['P', 'C', 'X'] as const)('a storno receipt left open unpaid is voided (X 4Ch IsOpen 3, P status 1.4): %s', async (v, { pair }) => {
      const { fake, dev } = await pair(v);
      await dev.printReceipt(receipt('T1'), 'sale');
      fake.failAfter(CMD.sale, 'silence');
      expect(await failure(dev.printReceipt(refund(), 'refund'))).toMatchObject({ outcomeUnknown: false });
      fake.resume();
      expect(await dev.lastDocument()).toMatchObject({ amount: '0' });
      expect(fake.openReceipt).toBeNull();
      expect(fake.memory.receipts).toHaveLength(1);
    });

    test('a return that names no original, or one this printer cannot quote, is refused before anything is sent, saying why', async ({ pair }) => {
      const { fake, dev } = await pair('C');
      await dev.printReceipt(receipt('T1'), 'sale');
      const sent = fake.requests.length;
      expect(await failure(dev.printReceipt(refund({ returnOf: undefined }), 'r1'))).toMatchObject({ code: 'REJECTED', vendorCode: 'RETURN', outcomeUnknown: false, message: expect.stringMatching(/names none/) });
      expect(dev.validate(refund({ returnOf: undefined }))).toMatch(/names none/);
      expect(dev.validate(refund())).toBeNull();
      const foreign = refund({ returnOf: { ...refund().returnOf!, fiscalMemorySerialNumber: '02999999' } });
      expect(await failure(dev.printReceipt(foreign, 'r2'))).toMatchObject({ vendorCode: 'RETURN', message: expect.stringMatching(/fiscal memory 02999999, not by this printer's \(02000001\)/) });
      expect(await failure(dev.printReceipt(refund({ returnOf: { ...refund().returnOf!, date: 'yesterday' } }), 'r3'))).toMatchObject({ vendorCode: 'RETURN' });
      const mixed = refund({ lines: [receipt().lines[0], { ...receipt().lines[1], total: '-1.98' }] });
      expect(await failure(dev.printReceipt(mixed, 'r4'))).toMatchObject({ vendorCode: 'PLAN', message: expect.stringMatching(/cannot mix/) });
      expect(fake.requests.slice(sent).some((q) => [CMD.openFiscalReceipt, CMD.openStornoReceipt].includes(q.cmd as 0x30))).toBe(false);
    });

    test('without УНП: C quotes none, P cannot open a storno receipt of returned items and says so', async ({ pair }) => {
      const c = await pair('C', { settings: { UniqueSaleNumber: 'false' } });
      await c.dev.printReceipt(receipt('T1'), 'sale');
      expect((await c.dev.printReceipt(refund(), 'refund')).number).toBe(2);
      expect(c.fake.memory.receipts[1].storno).toMatchObject({ number: 1, unp: null });
      const p = await pair('P', { settings: { UniqueSaleNumber: 'false' } });
      expect(await failure(p.dev.printReceipt(refund(), 'refund'))).toMatchObject({ vendorCode: 'RETURN', message: expect.stringMatching(/P firmware/) });
    });
  });

  describe('faults common to every variant', () => {
    test('a device that is off is OFFLINE with a known outcome; it works once it is back', async ({ pair }) => {
      const { fake, dev } = await pair('C', { channel: { backoff: { initialMs: 10, maxMs: 20, factor: 2 } } });
      await fake.setPower(false);
      expect(await failure(dev.printReceipt(receipt(), 'j'))).toMatchObject({ code: 'OFFLINE', outcomeUnknown: false });
      await fake.setPower(true);
      await new Promise((r) => setTimeout(r, 30));
      expect((await dev.printReceipt(receipt(), 'j')).number).toBe(1);
    });

    test('a line that drops after the close command: the frame goes again and the printer repeats its answer', async ({ pair }) => {
      const { fake, dev } = await pair('X');
      fake.failAfter(CMD.closeFiscalReceipt, 'disconnect');
      expect((await dev.printReceipt(receipt(), 'j')).number).toBe(1);
      expect(fake.memory.receipts).toHaveLength(1);
    });

    test('replies handed over in pieces (as a serial port reads them, ErpNet.FP #135) are one reply', async ({ pair }) => {
      const { fake, dev } = await pair('X');
      fake.splitReplies = 7;
      expect((await dev.printReceipt(receipt(), 'j')).number).toBe(1);
    });

    test('a receipt the printer cannot take is refused before anything is sent', async ({ pair }) => {
      const { fake, dev } = await pair('C', { settings: { Variant: 'C' } });
      const e = await failure(dev.printReceipt(receipt('T', { lines: [{ ...receipt().lines[0], vatCategory: 0 }] }), 'j'));
      expect(e).toMatchObject({ code: 'REJECTED', vendorCode: 'PLAN' });
      expect(fake.requests.some((q) => q.cmd === CMD.openFiscalReceipt)).toBe(false);
    });

    test('a cover open refuses a Z on P and X firmware with COVER_OPEN', async ({ pair }) => {
      for (const v of ['P', 'X'] as const) {
        const { fake, dev } = await pair(v);
        fake.coverOpen = true;
        expect(await failure(dev.zReport())).toMatchObject({ code: 'COVER_OPEN', vendorCode: 'S0.6' });
      }
    });

    test('a new connection never takes an old answer for a new command', async ({ pair }) => {
      const { fake, make } = await pair('C');
      for (let i = 0; i < 20; i++) {
        const dev = make();
        await dev.printReceipt(receipt(String(i)), String(i));
        expect(await dev.lastDocument()).toMatchObject({ number: i + 1 });
        await dev.close();
      }
      expect(fake.memory.receipts).toHaveLength(20);
    });
  });

  describe('audit against the vendor manuals', () => {
    test('P status 5.2 "the last fiscal memory store operation is not successful" (P p.5, a \'*\' error) refuses receipts; C and X keep 5.2 reserved', () => {
      const bytes = Buffer.from([0x80, 0x80, 0x80, 0x80, 0xa0, 0x84]);
      expect(faultOf(VARIANTS.P, bytes)).toMatchObject({ code: 'FISCAL_MEMORY_FULL', vendorCode: 'S5.2' });
      expect(faultOf(VARIANTS.C, bytes)).toBeNull();
      expect(faultOf(VARIANTS.X, Buffer.concat([bytes, Buffer.from([0x80, 0x80])]))).toBeNull();
    });

    test('X 31h: the quantity goes with three decimals ("Format: 3 decimals", X p.10), the price with two', async ({ pair }) => {
      const { fake, dev } = await pair('X');
      await dev.printReceipt(receipt('T', { lines: [{ ...receipt().lines[0], quantity: '1.5', total: '10.35' }, receipt().lines[1]], total: '12.33', change: '7.67' }), 'j');
      expect(fake.requests.filter((q) => q.cmd === CMD.sale).map((q) => q.data.toString('latin1').split('\t').slice(1, 7))).toEqual([
        ['1', '6.90', '1.500', '', '', '0'],
        ['1', '2.20', '', '4', '0.22', '0'],
      ]);
      expect(fake.memory.receipts[0].lines.map((l) => [l.quantity, l.total])).toEqual([
        ['1.5', '10.35'],
        ['1', '1.98'],
      ]);
    });

    test('C 30h answered `F` (C p.10: `<ErrCode>` or the counts) without a status bit: refused, nothing more sent, counted by the open guard', async ({ pair }) => {
      const { fake, dev } = await pair('C', { fake: { password: '4711', openRefusalWithoutBits: true } });
      for (let i = 0; i < MAX_OPEN_REFUSALS; i++) {
        expect(await failure(dev.printReceipt(receipt(), `j${i}`))).toMatchObject({ code: 'REJECTED', vendorCode: 'F', outcomeUnknown: false });
      }
      // Nothing was sent into a receipt the printer never opened, and no third password was tried.
      expect(fake.requests.filter((q) => q.cmd === CMD.fiscalText || q.cmd === CMD.sale)).toHaveLength(0);
      expect(await failure(dev.printReceipt(receipt(), 'j9'))).toMatchObject({ code: 'REJECTED', vendorCode: 'OPEN-GUARD' });
      expect(fake.requests.filter((q) => q.cmd === CMD.openFiscalReceipt)).toHaveLength(2);
      expect(fake.memory.receipts).toHaveLength(0);
    });

    test('5Ah: the C manual (p.22) answers `<Name><FwRev> <FwDate> <FwTime>,Chk,Sw,FM,Ser`, P (p.29) and X (p.24) `Name,Fw,Chk,Sw,Ser,FM`: both read right', async ({ pair }) => {
      expect(parseDiagnosticInfo('DP-25 2.00BG 01Jan19 1200,ABCD,00000000,02123456,DY123456')).toEqual({
        model: 'DP-25',
        firmware: '2.00BG 01Jan19 1200',
        serialNumber: 'DY123456',
        fiscalMemorySerialNumber: '02123456',
      });
      expect(parseDiagnosticInfo('FP-2000,1.00BG 01Jan19 1200,ABCD,00000000,DT123456,02123456')).toMatchObject({ model: 'FP-2000', serialNumber: 'DT123456', fiscalMemorySerialNumber: '02123456' });
      // Real DP cash registers answer in the P order (ErpNet.FP's C driver reads the serial fifth of six).
      expect(parseDiagnosticInfo('DP-150,3.10BG 10Jan25 1200,A1B2,00000000,DY423793,02000001')).toMatchObject({ model: 'DP-150', serialNumber: 'DY423793', fiscalMemorySerialNumber: '02000001' });
      // Through the driver: a C printer answering as its manual says opens receipts with the УНП of its own serial.
      const { fake, dev } = await pair('C');
      expect(await dev.info()).toMatchObject({ serialNumber: 'DT000001', fiscalMemorySerialNumber: '02000001' });
      await dev.printReceipt(receipt(), 'j');
      expect(fake.requests.find((q) => q.cmd === CMD.openFiscalReceipt)!.data.toString()).toBe('1,1,DT000001-0001-0000001,1');
    });
  });
});
