/**
 * The `ekasa` driver against the simulated PORTOS eKasa service over real HTTP on 127.0.0.1:
 * the request as the docs require it (amounts 2/6/4 decimals, price = unitPrice × quantity, clean
 * names, named payments, change), online (200) and offline (202) registration, which answers prove
 * "not issued" and which leave the outcome unknown, every answer checked before it is used, the
 * lookup by externalId, the service's status, and timeouts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EkasaFiscalDevice } from '../../../drivers/fiscal/ekasa/driver.js';
import { buildRequest, cleanName, ekasaInfoOf, faultOfAnswer, parseEkasaSettings, parseRegistration } from '../../../drivers/fiscal/ekasa/protocol.js';
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

/** Before each test a fake service on 127.0.0.1 of its own and a driver on it (300 ms to answer); closed after. */
function freshService(use: (fresh: { svc: FakeEkasaService; dev: EkasaFiscalDevice }) => void): void {
  let svc: FakeEkasaService | undefined;
  beforeEach(async () => {
    svc = new FakeEkasaService(clock);
    await svc.listen();
    use({ svc, dev: new EkasaFiscalDevice({ name: 'EK', address: svc.address, settings: { ...SETTINGS, TimeoutMs: '300' }, clock }) });
  });
  afterEach(() => svc?.close());
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
    const expect1 = { externalId: 'j', cashRegisterCode: '88812345678900001', askedAt: '2022-02-12T21:22:20.000Z' };
    const uuid = 'O-544C525A6D5B47198C525A6D5BC01234';
    expect(ekasaInfoOf(parseRegistration({ ...base, response: { data: { id: uuid }, processDate: '2022-02-12T22:22:24+01:00' }, isSuccessful: true }, expect1))).toMatchObject({ uuid, offline: false, qrCode: uuid, receiptNumber: 11 });
    expect(ekasaInfoOf(parseRegistration({ ...base, response: null, isSuccessful: null }, expect1))).toEqual({
      okp: 'ED5592BF-19DB7396-19546BE7-7DC20E0A-75BB0777',
      receiptNumber: 11,
      offline: true,
      qrCode: 'ED5592BF-19DB7396-19546BE7-7DC20E0A-75BB0777:88812345678900001:120222222223:11:236.23',
    });
  });

  it('reads an answer of the form the vendor captured from a real service (lower-case OKP, numbers for amounts, extra members ignored)', () => {
    // The shape of ninedigit/ekasa-clientphp tests/data/response1.json, with values of our own.
    const answer = {
      request: {
        data: {
          receiptType: 'CashRegister', amount: 4.5, roundingAmount: 0.0, issueDate: '2026-03-02T09:15:07+01:00', receiptNumber: 7, invoiceNumber: null, paragonNumber: null,
          icdph: 'SK2020000000', ico: '12345678', customer: null, basicVatAmount: 0.75, reducedVatAmount: null, taxFreeAmount: null, taxBaseBasic: 3.75, taxBaseReduced: null,
          items: [{ type: 'Positive', name: 'KAVA', price: 4.5, unitPrice: 2.25, quantity: { amount: 2.0, unit: 'ks' }, referenceReceiptId: null, vatRate: 20.0 }],
          okp: '1a2b3c4d-5e6f7a8b-9c0d1e2f-3a4b5c6d-7e8f9a0b', pkp: 'c2lnbmF0dXJl', payments: [{ name: 'Hotovosť', amount: 5.0 }, { name: 'Výdavok', amount: -0.5 }],
          headerText: null, footerText: null, createDate: '2026-03-02T09:15:07+01:00', dic: '2020000000', cashRegisterCode: '88812345678900001',
        },
        id: '5b0e4c1a-7d53-4f3e-9a61-0c2f6b7e8d90', externalId: 'job-7', date: '2026-03-02T09:15:07+01:00', sendingCount: 1,
      },
      response: { data: { id: 'O-0123456789ABCDEF0123456789ABCDEF' }, processDate: '2026-03-02T09:15:08+01:00' },
      isSuccessful: true,
      error: null,
      $type: 'Receipt',
    };
    const r = parseRegistration(answer, { externalId: 'job-7', cashRegisterCode: '88812345678900001', askedAt: '2026-03-02T08:15:06.000Z' });
    expect(r).toEqual({ receiptNumber: 7, okp: '1a2b3c4d-5e6f7a8b-9c0d1e2f-3a4b5c6d-7e8f9a0b', amount: '4.50', issueDate: '2026-03-02T09:15:07+01:00', cashRegisterCode: '88812345678900001', uuid: 'O-0123456789ABCDEF0123456789ABCDEF', isSuccessful: true });
  });

  it('reads a lean answer (no echo, amount, date, isSuccessful, or an online OKP): filled in from what the hub sent; an echo given is still checked', () => {
    const expected = { externalId: 'job-9', cashRegisterCode: '88812345678900001', amount: '14.46', askedAt: '2026-11-21T10:00:00.000Z' };
    const uuid = 'O-544C525A6D5B47198C525A6D5BC01234';
    const okp = 'ED5592BF-19DB7396-19546BE7-7DC20E0A-75BB0777';
    // Online: a receipt number and the UUID are enough.
    expect(parseRegistration({ request: { data: { receiptNumber: 3 } }, response: { data: { id: uuid } } }, expected)).toEqual({
      receiptNumber: 3, amount: '14.46', issueDate: '2026-11-21T10:00:00.000Z', cashRegisterCode: '88812345678900001', uuid, isSuccessful: true,
    });
    expect(ekasaInfoOf(parseRegistration({ request: { data: { receiptNumber: 3 } }, response: { data: { id: uuid } } }, expected))).toEqual({ uuid, receiptNumber: 3, offline: false, qrCode: uuid });
    // Offline: the OKP is what the receipt proves; the service's processing time is the issue date when it writes none.
    const offline = parseRegistration({ request: { data: { receiptNumber: 4, okp } }, response: { data: null, processDate: '2026-11-21T11:00:05+01:00' } }, expected);
    expect(offline).toMatchObject({ receiptNumber: 4, okp, amount: '14.46', isSuccessful: null, issueDate: '2026-11-21T11:00:05+01:00' });
    expect(ekasaInfoOf(offline)).toEqual({ okp, receiptNumber: 4, offline: true, qrCode: `${okp}:88812345678900001:211126110005:4:14.46` });
    // What cannot be filled in, and an echo or amount that says otherwise, still make the answer unreadable (outcome unknown).
    const unreadable = (body: unknown, exp: Parameters<typeof parseRegistration>[1] = expected) => {
      try {
        parseRegistration(body, exp);
      } catch (e) {
        return e instanceof DeviceError && e.code === 'PROTOCOL' && e.outcomeUnknown ? e.message : 'another error';
      }
      return 'read';
    };
    expect(unreadable({ request: { data: { receiptNumber: 4 } } })).toMatch(/no OKP/);
    expect(unreadable({ request: { data: { okp } }, response: { data: { id: uuid } } })).toMatch(/receiptNumber/);
    expect(unreadable({ request: { data: { receiptNumber: 3 }, externalId: 'job-8' }, response: { data: { id: uuid } } })).toMatch(/externalId job-8 is not job-9/);
    expect(unreadable({ request: { data: { receiptNumber: 3, cashRegisterCode: '88812345678900002' } }, response: { data: { id: uuid } } })).toMatch(/cashRegisterCode/);
    expect(unreadable({ request: { data: { receiptNumber: 3 } }, response: { data: { id: uuid } } }, { ...expected, amount: undefined })).toMatch(/no amount/);
    expect(unreadable({ request: { data: { receiptNumber: 3 } }, response: { data: null }, isSuccessful: true })).toMatch(/without a receipt id/);
  });

  it('only a refusal before storage (400/422 validation, 401/403 authentication) proves nothing was registered', () => {
    const known = (status: number, errorCode?: number) => faultOfAnswer(status, errorCode === undefined ? { title: 'x' } : { title: 'x', errorCode }).outcomeUnknown === false;
    expect(known(400, -900)).toBe(true);
    expect(known(422)).toBe(true);
    expect(known(401)).toBe(true);
    expect(known(403, -1000)).toBe(true);
    expect(known(400, -302)).toBe(true); // certificate expired: the receipt cannot be signed
    // After storage, or anything the hub cannot read as a refusal: the outcome is unknown.
    expect(known(400, -500)).toBe(false); // a printer fault comes after the CHDÚ write
    expect(known(500)).toBe(false);
    expect(known(503, -503)).toBe(false);
    expect(known(500, -400)).toBe(false);
    expect(known(409, -403)).toBe(false);
    expect(known(404)).toBe(false);
    expect(faultOfAnswer(503, { title: 'Printer is not ready', errorCode: -503 })).toMatchObject({ code: 'PAPER_OUT', vendorCode: 'EKASA-503' });
    // What the service says is kept as printable text only.
    expect(faultOfAnswer(500, { detail: '<script>x</script>\u0000boom' }).message).toBe('eKasa: script x /script boom');
    expect(faultOfAnswer(500, { detail: { html: '<b>' } }).message).toBe('eKasa: HTTP 500');
  });
});

describe('the driver against the service over HTTP on 127.0.0.1', () => {
  let svc: FakeEkasaService;
  let dev: EkasaFiscalDevice;
  freshService((fresh) => ({ svc, dev } = fresh));

  it('registers online: number, UUID, OKP, QR; the service accepted the amounts as the docs require', async () => {
    const r = await dev.printReceipt(receipt(), 'job-1');
    expect(r).toMatchObject({ number: 1, amount: '14.46', fiscalMemorySerialNumber: '88812345678900001', ekasa: { receiptNumber: 1, offline: false, uuid: expect.stringMatching(/^O-[0-9A-F]{32}$/), okp: expect.any(String) } });
    expect(r.ekasa!.qrCode).toBe(r.ekasa!.uuid);
    expect(await dev.lastDocument()).toMatchObject({ number: 1, amount: '14.46' });
  });

  it('takes a lean answer from a compatible service: only the receipt number and the UUID (online) or the OKP (202, offline)', async () => {
    svc.malformNext = ({ status, body }) => {
      const b = body as { request: { data: { receiptNumber: number } }; response: { data: { id: string } } };
      return { status, text: JSON.stringify({ request: { data: { receiptNumber: b.request.data.receiptNumber } }, response: { data: { id: b.response.data.id } } }) };
    };
    const online = await dev.printReceipt(receipt(), 'job-1');
    expect(online).toMatchObject({ number: 1, amount: '14.46', date: clock().toISOString(), ekasa: { receiptNumber: 1, offline: false, uuid: expect.stringMatching(/^O-[0-9A-F]{32}$/) } });
    expect(online.ekasa!.okp).toBeUndefined();
    svc.service.online = false;
    svc.malformNext = ({ status, body }) => {
      const b = body as { request: { data: { receiptNumber: number; okp: string } } };
      return { status, text: JSON.stringify({ request: { data: { receiptNumber: b.request.data.receiptNumber, okp: b.request.data.okp } } }) };
    };
    const offline = await dev.printReceipt(receipt(), 'job-2');
    expect(offline).toMatchObject({ number: 2, amount: '14.46', ekasa: { receiptNumber: 2, offline: true, okp: expect.stringMatching(/^[0-9A-F]{8}(-[0-9A-F]{8}){4}$/) } });
    expect(await dev.lastDocument()).toMatchObject({ number: 2, amount: '14.46' });
  });

  it('registers offline when the eKasa system is unreachable: no UUID, OKP and the offline QR code', async () => {
    svc.service.online = false;
    const r = await dev.printReceipt(receipt(), 'job-1');
    expect(r.ekasa).toMatchObject({ offline: true, receiptNumber: 1 });
    expect(r.ekasa!.uuid).toBeUndefined();
    expect(r.ekasa!.qrCode).toMatch(/^[0-9A-F]{8}(-[0-9A-F]{8}){4}:88812345678900001:\d{12}:1:14\.46$/);
  });

  it('a refusal before storage registers nothing and says so; a failure after storage leaves the outcome to a lookup, which finds the receipt', async () => {
    svc.service.refuseNext = { status: 400, title: 'The request is not valid.', errorCode: -900 };
    expect(await failure(dev.printReceipt(receipt(), 'a'))).toMatchObject({ code: 'REJECTED', vendorCode: 'EKASA-900', outcomeUnknown: false });
    svc.service.refuseNext = { status: 401, title: 'Unauthenticated', errorCode: -1000 };
    expect(await failure(dev.printReceipt(receipt(), 'b'))).toMatchObject({ code: 'REJECTED', outcomeUnknown: false });
    expect(svc.service.registrations).toHaveLength(0);
    expect(await dev.findReceipt('a')).toBeNull();
    // The printer fails after the receipt went into the CHDÚ: stored, answered 503.
    svc.service.failAfterStoringNext = { status: 503, title: 'Printer is not ready', errorCode: -503 };
    expect(await failure(dev.printReceipt(receipt(), 'c'))).toMatchObject({ code: 'PAPER_OUT', vendorCode: 'EKASA-503', outcomeUnknown: true });
    expect(svc.service.registrations).toHaveLength(1);
    expect(await dev.findReceipt('c')).toMatchObject({ number: 1, ekasa: { receiptNumber: 1, offline: false, uuid: svc.service.registrations[0].response!.data.id } });
  });

  it('isSuccessful: false after a 2xx is no refusal: the lookup finds the stored receipt (offline, no UUID)', async () => {
    svc.service.rejectOnlineNext = { message: 'Doklad bol odmietnutý', code: -100 };
    expect(await failure(dev.printReceipt(receipt(), 'j'))).toMatchObject({ code: 'PROTOCOL', outcomeUnknown: true });
    expect(svc.service.registrations).toHaveLength(1);
    const found = await dev.findReceipt('j');
    expect(found!.ekasa).toMatchObject({ offline: true, okp: svc.service.registrations[0].request.data.okp, receiptNumber: 1 });
    expect(found!.ekasa!.uuid).toBeUndefined();
  });

  it('a malformed 2xx (HTML, a number that is not one, objects, a NUL, another job’s answer) is an unknown outcome, never a crash', async () => {
    const broken: Array<(a: any) => { status: number; text: string; type?: string }> = [
      () => ({ status: 200, text: '<html><body>Proxy error</body></html>', type: 'text/html' }),
      () => ({ status: 202, text: '' }),
      () => ({ status: 200, text: 'null' }),
      () => ({ status: 200, text: '[]' }),
      (a) => ({ status: 200, text: JSON.stringify({ ...a.body, request: { ...a.body.request, data: { ...a.body.request.data, receiptNumber: '<b>1</b>' } } }) }),
      (a) => ({ status: 200, text: JSON.stringify({ ...a.body, request: { ...a.body.request, data: { ...a.body.request.data, receiptNumber: -3 } } }) }),
      (a) => ({ status: 200, text: JSON.stringify({ ...a.body, request: { ...a.body.request, data: { ...a.body.request.data, okp: `${a.body.request.data.okp}\u0000` } } }) }),
      (a) => ({ status: 200, text: JSON.stringify({ ...a.body, response: { data: { id: { toString: 'O-1' } }, processDate: null } }) }),
      (a) => ({ status: 200, text: JSON.stringify({ ...a.body, request: { ...a.body.request, data: { ...a.body.request.data, issueDate: 'yesterday', createDate: null } } }) }),
      (a) => ({ status: 200, text: JSON.stringify({ ...a.body, request: { ...a.body.request, externalId: 'another-job' } }) }),
      (a) => ({ status: 200, text: JSON.stringify({ ...a.body, request: { ...a.body.request, data: { ...a.body.request.data, amount: 1e300 } } }) }),
    ];
    for (const [i, malform] of broken.entries()) {
      svc.malformNext = malform;
      const e = await failure(dev.printReceipt(receipt(), `m${i}`));
      expect(e, `answer ${i}`).toMatchObject({ code: 'PROTOCOL', outcomeUnknown: true });
      // The registration was made all the same; the lookup (a well-formed answer) finds it.
      expect((await dev.findReceipt(`m${i}`))?.number, `answer ${i}`).toBe(i + 1);
    }
    expect(svc.service.registrations).toHaveLength(broken.length);
  });

  it('a redirect is not followed: the receipt goes to the configured service only, and the answer leaves the outcome to the lookup there', async () => {
    const other = new FakeEkasaService(clock);
    await other.listen();
    try {
      svc.malformNext = () => ({ status: 307, text: '', headers: { location: `${other.address}/api/v1/requests/receipts/cash_register` } });
      const e = await failure(dev.printReceipt(receipt(), 'redirected'));
      expect(e).toMatchObject({ code: 'PROTOCOL', outcomeUnknown: true });
      expect(other.requests).toEqual([]);
      expect(other.service.registrations).toHaveLength(0);
      expect((await dev.findReceipt('redirected'))?.number).toBe(svc.service.registrations[0].request.data.receiptNumber);
      expect(svc.service.registrations).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('the lookup: GET /api/v1/requests/receipts/receipt?CashRegisterCode&ExternalId; a problem 404 is "none"; anything else it cannot read is a fault, never "none"', async () => {
    await dev.printReceipt(receipt(), 'here');
    expect((await dev.findReceipt('here'))?.number).toBe(1);
    expect(svc.requests.at(-1)).toBe('GET /api/v1/requests/receipts/receipt?CashRegisterCode=88812345678900001&ExternalId=here');
    expect(await dev.findReceipt('never-sent')).toBeNull();
    // A service without the endpoint (a bare 404), one that fails, one that answers nonsense: no answer at all.
    const lookups = (answer: (path: string) => { status: number; body: unknown }) =>
      new EkasaFiscalDevice({ name: 'EK', address: 'http://127.0.0.1:1', settings: SETTINGS, clock, transport: async (_m, path) => answer(path) });
    await expect(lookups(() => ({ status: 404, body: null })).findReceipt('x')).rejects.toMatchObject({ code: 'PROTOCOL' });
    await expect(lookups(() => ({ status: 404, body: undefined })).findReceipt('x')).rejects.toMatchObject({ code: 'PROTOCOL' });
    await expect(lookups(() => ({ status: 500, body: { title: 'boom' } })).findReceipt('x')).rejects.toMatchObject({ code: 'OFFLINE' });
    await expect(lookups(() => ({ status: 401, body: { title: 'no' } })).findReceipt('x')).rejects.toMatchObject({ code: 'PROTOCOL' });
    await expect(lookups(() => ({ status: 200, body: { request: {} } })).findReceipt('x')).rejects.toMatchObject({ code: 'PROTOCOL' });
  });

  it('a lost answer: the outcome is unknown; findReceipt finds it by externalId; a blind retry registers nothing twice', async () => {
    svc.loseAnswers = 1;
    expect(await failure(dev.printReceipt(receipt(), 'job-7'))).toMatchObject({ outcomeUnknown: true });
    expect(svc.service.registrations).toHaveLength(1);
    const found = await dev.findReceipt('job-7');
    expect(found).toMatchObject({ number: 1, ekasa: { receiptNumber: 1 } });
    expect(await dev.findReceipt('never-sent')).toBeNull();
    // Even a blind repeat registers nothing twice (the simulator refuses a repeated externalId).
    expect(await failure(dev.printReceipt(receipt(), 'job-7'))).toMatchObject({ outcomeUnknown: true });
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

describe('what the service says of itself', () => {
  let svc: FakeEkasaService;
  let dev: EkasaFiscalDevice;
  freshService((fresh) => ({ svc, dev } = fresh));

  it('status() asks for the CHDÚ, the printer and the eKasa system, not just whether the service answers', async () => {
    expect(await dev.status()).toMatchObject({ online: true, paper: 'ok', coverOpen: false, notice: null, fiscalMemorySerialNumber: '88812345678900001' });
    expect(svc.requests.map((q) => q.split(' ')[1])).toEqual(['/api/v1/product/info', '/api/v1/printers/status', '/api/v1/connectivity/status']);
    svc.service.online = false;
    expect((await dev.status()).notice).toMatch(/registered offline/);
    svc.service.online = true;
    svc.service.printer = { state: 'Ready', paperState: 'NearEnd' };
    expect((await dev.status()).paper).toBe('low');
    svc.service.printer = { state: 'Error', paperState: 'CoverOpen' };
    expect(await dev.status()).toMatchObject({ coverOpen: true, paper: 'unknown' });
    svc.service.printer = { state: 'Error', paperState: 'Empty' };
    expect(await failure(dev.status())).toMatchObject({ code: 'PAPER_OUT' });
    svc.service.printer = { state: 'Error', paperState: null };
    expect(await failure(dev.status())).toMatchObject({ code: 'OFFLINE', vendorCode: 'EKASA-PRINTER' });
    svc.service.printer = { state: 'Ready', paperState: 'Ready' };
    svc.service.chdu = false;
    expect(await failure(dev.status())).toMatchObject({ code: 'OFFLINE', vendorCode: 'EKASA-CHDU' });
  });

  it('a service without the printer and connectivity endpoints leaves them unknown; an answer it cannot read is a fault', async () => {
    const answering = (answer: (path: string) => { status: number; body: unknown }) =>
      new EkasaFiscalDevice({ name: 'EK', address: 'http://127.0.0.1:1', settings: SETTINGS, clock, transport: async (_m, path) => answer(path) });
    const product = { vendorName: 'Nine Digit, s.r.o.', swid: 'X1', ppekk: { name: 'Portos eKasa', version: 'v1.23' }, chdu: { name: 'CHDU Lite', version: '2.0' } };
    const older = answering((path) => (path === '/api/v1/product/info' ? { status: 200, body: product } : { status: 404, body: null }));
    expect(await older.status()).toMatchObject({ online: true, paper: 'unknown', notice: null });
    const rogue = answering((path) => (path === '/api/v1/product/info' ? { status: 200, body: product } : { status: 200, body: { state: '<b>Ready</b>' } }));
    expect(await failure(rogue.status())).toMatchObject({ code: 'PROTOCOL' });
    expect(await failure(answering(() => ({ status: 200, body: '<html>' })).status())).toMatchObject({ code: 'PROTOCOL' });
  });

  it('info() shows what the service really returns: vendor, program and version, CHDÚ; printable text only', async () => {
    expect(await dev.info()).toMatchObject({ model: 'POS Hub Simulated PORTOS eKasa 1.0.0, CHDÚ CHDU Sim 1.0', serialNumber: 'SIM-EKASA-0001', fiscalMemorySerialNumber: '88812345678900001' });
    const odd = new EkasaFiscalDevice({
      name: 'EK',
      address: 'http://127.0.0.1:1',
      settings: SETTINGS,
      clock,
      transport: async () => ({ status: 200, body: { vendorName: 'Nine\u0000<script>', ppekk: { name: 'Portos eKasa', version: 'v1.23' }, chdu: null } }),
    });
    expect((await odd.info()).model).toBe('Nine script Portos eKasa v1.23, no CHDÚ connected');
  });

  it('the receipt number restarts each month: a new month’s first receipt is number 1 again, told apart by its OKP and UUID', async () => {
    let now = new Date('2026-11-30T22:00:00Z');
    const monthly = new FakeEkasaService(() => now);
    await monthly.listen();
    try {
      const d = new EkasaFiscalDevice({ name: 'EK', address: monthly.address, settings: SETTINGS, clock: () => now });
      const nov = await d.printReceipt(receipt(), 'nov');
      now = new Date('2026-12-01T08:00:00Z');
      const dec = await d.printReceipt(receipt(), 'dec');
      expect([nov.number, dec.number]).toEqual([1, 1]);
      expect(nov.ekasa!.okp).not.toBe(dec.ekasa!.okp);
      expect(nov.ekasa!.uuid).not.toBe(dec.ekasa!.uuid);
    } finally {
      await monthly.close();
    }
  });
});

describe('discounts are negative, surcharges are prices (pure)', () => {
  it('a line dearer than unitPrice × quantity (a negative discountRate) is sent at its real price, never as a positive Discount', () => {
    const line = { name: 'Pivo', quantity: '3', unitPrice: '2.2', vatRate: '20', vatCategory: 1, discountRate: '-10', total: '7.26' };
    const req = buildRequest(sampleReceipt({ lines: [line], total: '7.26', payments: [{ kind: 'Cash', name: 'Cash', amount: '7.30' }], change: '0.00', rounding: '0.04' }), parseEkasaSettings(SETTINGS), 'j');
    expect(req.request.data.items).toEqual([{ type: 'Positive', name: 'Pivo', price: '7.26', unitPrice: '2.420000', quantity: { amount: '3.0000', unit: 'ks' }, vatRate: '20.00' }]);
    expect(req.request.data.roundingAmount).toBe('0.04');
    // A surcharge on the whole ticket: shared into the lines' prices, never a Discount item.
    const two = [
      { ...line, discountRate: '0', total: '6.60' },
      { name: 'Čaj', quantity: '1', unitPrice: '1.5', vatRate: '10', vatCategory: 2, discountRate: '0', total: '1.50' },
    ];
    const up = buildRequest(sampleReceipt({ lines: two, discountRate: '-5', total: '8.51', payments: [{ kind: 'CreditCard', name: 'Card', amount: '8.51' }], change: '0.00' }), parseEkasaSettings(SETTINGS), 'j');
    expect(up.request.data.items.every((i) => i.type === 'Positive')).toBe(true);
    expect(up.request.data.items.reduce((s, i) => s + Math.round(Number(i.price) * 100), 0)).toBe(851);
    for (const i of up.request.data.items) expect(Math.round(Number(i.unitPrice) * Number(i.quantity.amount) * 100)).toBe(Math.round(Number(i.price) * 100));
  });

  it('a return: Returned items referring to the original (UUID, else OKP); without an eKasa original it is refused before anything is sent', () => {
    const origin = { ticketId: 'T0', fiscalName: 'EK1', number: 4, date: '2026-11-20T10:00:00Z', dailySalesReportNumber: 1, fiscalMemorySerialNumber: '88812345678900001' };
    const back = { name: 'Gulyás', quantity: '1', unitPrice: '6.9', vatRate: '20', vatCategory: 1, discountRate: '0', total: '-6.90' };
    const base = { lines: [back], total: '-6.90', payments: [{ kind: 'Cash' as const, name: 'Cash', amount: '-6.90' }], change: '0.00' };
    const okp = '0C790111-E75DBD21-4501EB1B-44F148E4-1B05553B';
    const viaOkp = buildRequest(sampleReceipt({ ...base, returnOf: { ...origin, ekasa: { okp, receiptNumber: 4 } } }), parseEkasaSettings(SETTINGS), 'j');
    expect(viaOkp.request.data.items).toEqual([{ type: 'Returned', name: 'Gulyás', price: '-6.90', unitPrice: '-6.900000', quantity: { amount: '1.0000', unit: 'ks' }, vatRate: '20.00', referenceReceiptId: okp }]);
    const uuid = 'O-38C672C785474B5E8672C785476B5E94';
    expect(buildRequest(sampleReceipt({ ...base, returnOf: { ...origin, ekasa: { uuid, okp, receiptNumber: 4 } } }), parseEkasaSettings(SETTINGS), 'j').request.data.items[0].referenceReceiptId).toBe(uuid);
    expect(() => buildRequest(sampleReceipt({ ...base, returnOf: { ...origin, fiscalName: 'DT1' } }), parseEkasaSettings(SETTINGS), 'j')).toThrow(/DT1.*not registered by an eKasa service/);
  });
});
