/**
 * The `ekasa` driver against the simulated PORTOS eKasa service over real HTTP on 127.0.0.1:
 * the request as the docs require it (amounts 2/6/4 decimals, price = unitPrice × quantity, clean
 * names, named payments, change), online and offline registration, refusals mapped to the fault set,
 * a lost answer settled by externalId, and timeouts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EkasaFiscalDevice } from '../../../drivers/fiscal/ekasa/driver.js';
import { buildRequest, cleanName, parseEkasaSettings, readAnswer } from '../../../drivers/fiscal/ekasa/protocol.js';
import { type Receipt } from '../../../drivers/fiscal/types.js';
import { DeviceError } from '../../../drivers/faults.js';
import { FakeEkasaService } from '../../support/fake-ekasa-service.js';
import { sampleReceipt } from '../../support/receipt.js';

const clock = () => new Date('2026-11-21T10:00:00Z');
const SETTINGS = { CashRegisterCode: '88812345678900001' };

function receipt(over: Partial<Receipt> = {}): Receipt {
  return sampleReceipt({
    lines: [
      { name: 'Bryndzové halušky (veľké)', quantity: '2', unitPrice: '7.9', vatRate: '19', vatCategory: 1, discountRate: '10', total: '14.22' },
      { name: 'Kofola 0,5l', quantity: '0.3333', unitPrice: '3', vatRate: '23', vatCategory: 2, discountRate: '0', total: '1.00' },
    ],
    discountRate: '5',
    total: '14.46',
    payments: [
      { kind: 'CreditCard', name: 'Karta', amount: '10.00' },
      { kind: 'Cash', name: 'Cash', amount: '5.00' },
    ],
    change: '0.54',
    ...over,
  });
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

describe('the registration request (pure)', () => {
  it('prices to the cent as unitPrice × quantity, discounts as Discount items of the same VAT rate, change as a negative payment', () => {
    const req = buildRequest(receipt(), parseEkasaSettings(SETTINGS), 'job-1');
    const { items, payments, cashRegisterCode } = req.request.data;
    expect(req.request.externalId).toBe('job-1');
    expect(cashRegisterCode).toBe('88812345678900001');
    expect(items).toEqual([
      { type: 'Positive', name: 'Bryndzové halušky veľké', price: '15.80', unitPrice: '7.900000', quantity: { amount: '2.0000', unit: 'ks' }, vatRate: '19.00' },
      { type: 'Discount', name: 'Zľava Bryndzové halušky veľké', price: '-1.58', unitPrice: '-1.580000', quantity: { amount: '1.0000', unit: 'x' }, vatRate: '19.00' },
      { type: 'Positive', name: 'Kofola 0 5l', price: '1.00', unitPrice: '3.000000', quantity: { amount: '0.3333', unit: 'ks' }, vatRate: '23.00' },
      { type: 'Discount', name: 'Zľava na doklad', price: '-0.71', unitPrice: '-0.710000', quantity: { amount: '1.0000', unit: 'x' }, vatRate: '19.00' },
      { type: 'Discount', name: 'Zľava na doklad', price: '-0.05', unitPrice: '-0.050000', quantity: { amount: '1.0000', unit: 'x' }, vatRate: '23.00' },
    ]);
    const sum = items.reduce((s, i) => s + Math.round(Number(i.price) * 100), 0);
    expect(sum).toBe(1446);
    expect(payments).toEqual([
      { name: 'Platobná karta', amount: '10.00' },
      { name: 'Hotovosť', amount: '5.00' },
      { name: 'Výdavok', amount: '-0.54' },
    ]);
  });

  it('cleans names to letters, digits and spaces; refuses returns and a bad cash register code', () => {
    expect(cleanName('  Pivo 12° "Šariš"  ')).toBe('Pivo 12 Šariš');
    expect(cleanName('***')).toBe('Polozka');
    expect(() => buildRequest(receipt({ lines: [{ ...receipt().lines[0], total: '-1.00' }] }), parseEkasaSettings(SETTINGS), 'j')).toThrow(/return/);
    // A storno on the same ticket sells less: one of two beers returned is one beer.
    const beer = { name: 'Pivo', quantity: '2', unitPrice: '2.5', vatRate: '23', vatCategory: 1, discountRate: '0', total: '5.00' };
    const netted = buildRequest(receipt({ lines: [beer, { ...beer, quantity: '1', total: '-2.50' }], discountRate: '0', total: '2.50', payments: [{ kind: 'Cash', name: 'Cash', amount: '2.50' }], change: '0.00' }), parseEkasaSettings(SETTINGS), 'j');
    expect(netted.request.data.items).toEqual([{ type: 'Positive', name: 'Pivo', price: '2.50', unitPrice: '2.500000', quantity: { amount: '1.0000', unit: 'ks' }, vatRate: '23.00' }]);
    expect(() => parseEkasaSettings({ CashRegisterCode: '123' })).toThrow(/CashRegisterCode/);
    expect(parseEkasaSettings({ ...SETTINGS, PaymentNames: 'Voucher=Stravenka' }).paymentNames.Voucher).toBe('Stravenka');
  });

  it('reads the QR code content: the UUID online; OKP:ORP:date:number:amount offline', () => {
    const base = { request: { data: { receiptNumber: 11, okp: 'ED5592BF-19DB7396-19546BE7-7DC20E0A-75BB0777', amount: 236.23, issueDate: '2022-02-12T22:22:23+01:00', cashRegisterCode: '88812345678900001' }, id: 'x', externalId: 'j' }, error: null };
    expect(readAnswer({ ...base, response: { data: { id: 'O-544C' }, processDate: 'now' }, isSuccessful: true })).toMatchObject({ uuid: 'O-544C', offline: false, qrCode: 'O-544C', receiptNumber: 11 });
    expect(readAnswer({ ...base, response: null, isSuccessful: null })).toEqual({
      okp: 'ED5592BF-19DB7396-19546BE7-7DC20E0A-75BB0777',
      receiptNumber: 11,
      offline: true,
      qrCode: 'ED5592BF-19DB7396-19546BE7-7DC20E0A-75BB0777:88812345678900001:120222222223:11:236.23',
    });
  });
});

describe('the driver against the service over HTTP on 127.0.0.1', () => {
  let svc: FakeEkasaService;
  let dev: EkasaFiscalDevice;
  beforeEach(async () => {
    svc = new FakeEkasaService(clock);
    await svc.listen();
    dev = new EkasaFiscalDevice({ name: 'EK', address: svc.address, settings: { ...SETTINGS, TimeoutMs: '300' }, clock });
  });
  afterEach(() => svc.close());

  it('registers online: number, UUID, OKP, QR; the service accepted the amounts as the docs require', async () => {
    const r = await dev.printReceipt(receipt(), 'job-1');
    expect(r).toMatchObject({ number: 1, amount: '14.46', fiscalMemorySerialNumber: '88812345678900001', ekasa: { receiptNumber: 1, offline: false, uuid: expect.stringMatching(/^O-[0-9A-F]{32}$/), okp: expect.any(String) } });
    expect(r.ekasa!.qrCode).toBe(r.ekasa!.uuid);
    expect(await dev.lastDocument()).toMatchObject({ number: 1, amount: '14.46' });
  });

  it('registers offline when the eKasa system is unreachable: no UUID, OKP and the offline QR code', async () => {
    svc.service.online = false;
    const r = await dev.printReceipt(receipt(), 'job-1');
    expect(r.ekasa).toMatchObject({ offline: true, receiptNumber: 1 });
    expect(r.ekasa!.uuid).toBeUndefined();
    expect(r.ekasa!.qrCode).toMatch(/^[0-9A-F]{8}(-[0-9A-F]{8}){4}:88812345678900001:\d{12}:1:14\.46$/);
  });

  it('maps refusals to the fault set with the service code; nothing is registered', async () => {
    svc.service.refuseNext = { status: 503, title: 'Printer is not ready', errorCode: -503 };
    expect(await failure(dev.printReceipt(receipt(), 'a'))).toMatchObject({ code: 'PAPER_OUT', vendorCode: 'EKASA-503', outcomeUnknown: false });
    svc.service.refuseNext = { status: 500, title: 'CHDU error', errorCode: -400 };
    expect(await failure(dev.printReceipt(receipt(), 'b'))).toMatchObject({ code: 'FISCAL_MEMORY_FULL', vendorCode: 'EKASA-400' });
    expect(svc.service.registrations).toHaveLength(0);
    expect((await dev.printReceipt(receipt(), 'c')).number).toBe(1);
  });

  it('a lost answer: the outcome is unknown; findReceipt finds it by externalId; a blind retry registers nothing twice', async () => {
    svc.loseAnswers = 1;
    expect(await failure(dev.printReceipt(receipt(), 'job-7'))).toMatchObject({ outcomeUnknown: true });
    expect(svc.service.registrations).toHaveLength(1);
    const found = await dev.findReceipt('job-7');
    expect(found).toMatchObject({ number: 1, ekasa: { receiptNumber: 1 } });
    expect(await dev.findReceipt('never-sent')).toBeNull();
    const again = await dev.printReceipt(receipt(), 'job-7');
    expect(again.number).toBe(1);
    expect(svc.service.registrations).toHaveLength(1);
  });

  it('a service slower than TimeoutMs is a TIMEOUT with an unknown outcome; one that is off is OFFLINE', async () => {
    svc.delayMs = 600;
    expect(await failure(dev.printReceipt(receipt(), 'slow'))).toMatchObject({ code: 'TIMEOUT', outcomeUnknown: true });
    svc.delayMs = 0;
    await svc.setPower(false);
    expect(await failure(dev.status())).toMatchObject({ code: 'OFFLINE', outcomeUnknown: false });
  });

  it('X reports the day so far; Z closes it and the next receipts carry the next day number', async () => {
    await dev.printReceipt(receipt(), 'a');
    expect(await dev.xReport()).toMatchObject({ kind: 'X', number: 1, total: '14.46', receipts: 1 });
    expect(await dev.zReport()).toMatchObject({ kind: 'Z', number: 1, total: '14.46', receipts: 1 });
    expect(await dev.printReceipt(receipt(), 'b')).toMatchObject({ number: 2, dailySalesReportNumber: 2 });
    expect(await dev.xReport()).toMatchObject({ number: 2, receipts: 1 });
  });
});
