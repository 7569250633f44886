/**
 * A simulated PORTOS eKasa service: what the local HTTP API answers (protocol.ts has the sources),
 * behind a plain `handle(method, path, body)` so it serves in-process (the `ekasa` driver at address
 * `sim:<name>`, used by `npm run seed:demo`) and as a real HTTP server on 127.0.0.1 in tests
 * (test/support/fake-ekasa-service.ts). It validates requests as the docs describe, numbers receipts
 * (from 1 again each month), registers online (200, a UUID) or offline (202, OKP only, sent later),
 * finds a registration by its externalId (404 problem when it holds none), answers its product,
 * printer and connectivity status, and can be told to fail before storing a receipt (a refusal) or
 * after (a printer fault, `isSuccessful: false`).
 *
 * Its own readings, not confirmed by a source: a repeated externalId is refused with 409 (code −403,
 * the PHP client's STORAGE_DUPLICATE_KEY) and registers nothing; a refund's payments must equal its
 * items plus the rounding.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { OKP, REGISTER_PATH, UUID, type EkasaRequest } from './protocol.js';
import type { DeviceStateStore } from '../types.js';

export interface ServiceAnswer {
  status: number;
  body: unknown;
}

/** A registration as the service keeps it and answers it (to the registration, and to a lookup). */
export interface StoredRegistration {
  request: {
    data: EkasaRequest['request']['data'] & { receiptType: string; amount: number; issueDate: string; createDate: string; receiptNumber: number; okp: string; pkp: string };
    id: string;
    externalId: string;
  };
  response: { data: { id: string }; processDate: string } | null;
  isSuccessful: boolean | null;
  error: { message: string; code: number } | null;
}

interface ServiceState {
  /** The month the receipt numbers count in ("2026-11"): numbering starts at 1 each month. */
  month?: string;
  receiptNumber: number;
  /** Registrations by externalId, the newest KEEP of them. */
  registrations: Array<[string, StoredRegistration]>;
}

export interface Failure {
  status: number;
  title: string;
  errorCode: number;
}

const KEEP = 1000;
const MONEY2 = /^-?\d{1,8}(\.\d{1,2})?$/;
const MONEY6 = /^-?\d{1,8}(\.\d{1,6})?$/;
const QTY4 = /^\d{1,8}(\.\d{1,4})?$/;
const NAME = /^[\p{L}\p{N} \r\n]{1,255}$/u;
const LOOKUP = '/api/v1/requests/receipts/receipt';

const problem = (status: number, title: string, errorCode: number, errors?: Record<string, string[]>): ServiceAnswer => ({
  status,
  body: { type: 'about:blank', title, status, errorCode, ...(errors ? { errors } : {}) },
});

export class SimulatedEkasaService {
  /** false: the eKasa system cannot be reached; receipts are registered offline (OKP, no UUID). */
  online = true;
  /** false: no protected storage (CHDÚ) is connected. */
  chdu = true;
  /** The printer as `GET /api/v1/printers/status` tells it. */
  printer: { state: 'Unknown' | 'Ready' | 'Error'; paperState: 'Ready' | 'CoverOpen' | 'NearEnd' | 'Empty' | null } = { state: 'Ready', paperState: 'Ready' };
  /** The next registration is refused with this answer before anything is stored (validation, authentication). */
  refuseNext: Failure | null = null;
  /** The next registration is stored (and sent, if online), then answered with this error (a printer fault while printing). */
  failAfterStoringNext: Failure | null = null;
  /** The next registration is stored, and the eKasa system refuses it: answered 200 with `isSuccessful: false`. */
  rejectOnlineNext: { message: string; code: number } | null = null;
  private state: ServiceState;

  constructor(
    private readonly key = 'ekasa-service',
    private readonly store?: DeviceStateStore,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.state = (store?.load(key) as ServiceState | undefined) ?? { receiptNumber: 0, registrations: [] };
  }

  /** The registrations, oldest first (tests count them). */
  get registrations(): StoredRegistration[] {
    return this.state.registrations.map(([, a]) => a);
  }

  handle(method: string, path: string, body: unknown): ServiceAnswer {
    const [route, query = ''] = path.split('?');
    if (method === 'GET' && route === '/api/v1/product/info') {
      return { status: 200, body: { vendorName: 'POS Hub', swid: 'SIM-EKASA-0001', ppekk: { name: 'Simulated PORTOS eKasa', version: '1.0.0' }, chdu: this.chdu ? { name: 'CHDU Sim', version: '1.0' } : null } };
    }
    if (method === 'GET' && route === '/api/v1/printers/status') return { status: 200, body: this.printer };
    if (method === 'GET' && route === '/api/v1/connectivity/status') return { status: 200, body: { requestDate: this.now(), state: this.online ? 'Up' : 'Down' } };
    if (method === 'GET' && route === LOOKUP) {
      // Query names as ASP.NET binds them: in any case.
      const q = new Map([...new URLSearchParams(query)].map(([k, v]) => [k.toLowerCase(), v]));
      const found = this.state.registrations.find(([k, a]) => k === q.get('externalid') && a.request.data.cashRegisterCode === q.get('cashregistercode'));
      return found ? { status: 200, body: found[1] } : problem(404, 'Receipt not found.', -104);
    }
    if (method === 'POST' && route === REGISTER_PATH) return this.register(body);
    return { status: 404, body: null };
  }

  private now(): string {
    return this.clock().toISOString().replace(/\.\d{3}Z$/, '+00:00');
  }

  private register(raw: unknown): ServiceAnswer {
    const req = (raw ?? {}) as Partial<EkasaRequest>;
    const data = req.request?.data;
    const externalId = req.request?.externalId;
    const errors: Record<string, string[]> = {};
    const fail = (member: string, message: string) => (errors[member] ??= []).push(message);
    if (!data || typeof data !== 'object') return problem(400, 'request.data is required.', -900, { 'request.data': ['Required'] });
    if (!/^\d{16,17}$/.test(String(data.cashRegisterCode ?? ''))) fail('cashRegisterCode', 'must be 16 or 17 digits');
    if (!Array.isArray(data.items) || data.items.length === 0 || data.items.length > 500) fail('items', 'between 1 and 500 items');
    let sum = new Decimal(0);
    for (const [i, it] of (data.items ?? []).entries()) {
      if (!NAME.test(it.name ?? '')) fail(`items[${i}].name`, 'only letters, digits, spaces, CR and LF, at most 255');
      if (!MONEY2.test(it.price ?? '') || !MONEY6.test(it.unitPrice ?? '') || !QTY4.test(it.quantity?.amount ?? '') || new Decimal(it.quantity.amount).lte(0)) {
        fail(`items[${i}]`, 'price to 2, unitPrice to 6, a positive quantity to 4 decimals');
        continue;
      }
      const product = new Decimal(it.unitPrice).times(it.quantity.amount).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
      if (!product.eq(it.price)) fail(`items[${i}].price`, `price ${it.price} is not unitPrice × quantity (${product.toFixed(2)})`);
      if (it.type === 'Positive' && new Decimal(it.price).lte(0)) fail(`items[${i}].price`, 'a Positive item is positive');
      if ((it.type === 'Discount' || it.type === 'Returned') && new Decimal(it.price).gte(0)) fail(`items[${i}].price`, `a ${it.type} item is negative`);
      if (it.type === 'Returned' && !(UUID.test(it.referenceReceiptId ?? '') || OKP.test(it.referenceReceiptId ?? ''))) fail(`items[${i}].referenceReceiptId`, "a Returned item names the original receipt's id or OKP");
      if (it.type !== 'Returned' && it.referenceReceiptId) fail(`items[${i}].referenceReceiptId`, 'only for Returned and Correction items');
      if (!['Positive', 'Discount', 'Returned'].includes(it.type)) fail(`items[${i}].type`, `'${it.type}' needs what this simulator does not check`);
      sum = sum.plus(it.price);
    }
    const rounding = data.roundingAmount ?? '0';
    if (!MONEY2.test(rounding) || new Decimal(rounding).abs().gt('0.04')) fail('roundingAmount', 'from -0.04 to 0.04, to the cent');
    const due = sum.plus(MONEY2.test(rounding) ? rounding : 0);
    const paid = (data.payments ?? []).reduce((s, p) => s.plus(MONEY2.test(p.amount ?? '') ? p.amount : 0), new Decimal(0));
    if (!Array.isArray(data.payments) || data.payments.length === 0) fail('payments', 'at least one payment');
    else if (due.isNegative() ? !paid.eq(due) : paid.lt(due)) fail('payments', `the payments (${paid.toFixed(2)}) do not cover the items and the rounding (${due.toFixed(2)})`);
    if (typeof externalId !== 'string' || !externalId) fail('externalId', 'Required');
    if (Object.keys(errors).length) return problem(400, 'The request is not valid.', -900, errors);
    if (this.refuseNext) {
      const r = this.refuseNext;
      this.refuseNext = null;
      return problem(r.status, r.title, r.errorCode);
    }
    // A repeated externalId registers nothing: the first registration stands and is found by lookup.
    if (this.state.registrations.some(([k]) => k === externalId)) return problem(409, `A request with externalId '${externalId}' exists.`, -403);
    const now = this.clock();
    const month = now.toISOString().slice(0, 7);
    // A state kept before months were counted goes on with its numbers until the month turns.
    if (this.state.month !== month) this.state = { ...this.state, month, receiptNumber: this.state.month === undefined ? this.state.receiptNumber : 0 };
    const number = ++this.state.receiptNumber;
    const issueDate = this.now();
    const okp = createHash('sha1').update(`${data.cashRegisterCode}:${month}:${number}:${externalId}`).digest('hex').toUpperCase().match(/.{8}/g)!.join('-');
    const rejected = this.rejectOnlineNext;
    this.rejectOnlineNext = null;
    const online = this.online && !rejected;
    const answer: StoredRegistration = {
      request: {
        data: { ...data, receiptType: 'CashRegister', amount: Number(sum.toFixed(2)), issueDate, createDate: issueDate, receiptNumber: number, okp, pkp: randomBytes(64).toString('base64') },
        id: createHash('sha1').update(`id:${externalId}`).digest('hex').slice(0, 32),
        externalId: externalId!,
      },
      response: online ? { data: { id: `O-${randomBytes(16).toString('hex').toUpperCase()}` }, processDate: issueDate } : null,
      isSuccessful: rejected ? false : online ? true : null,
      error: rejected,
    };
    this.state.registrations.push([externalId!, answer]);
    if (this.state.registrations.length > KEEP) this.state.registrations.splice(0, this.state.registrations.length - KEEP);
    this.store?.save(this.key, this.state);
    if (this.failAfterStoringNext) {
      const f = this.failAfterStoringNext;
      this.failAfterStoringNext = null;
      return problem(f.status, f.title, f.errorCode);
    }
    // 200: registered online; 202: registered offline (stored in the CHDÚ and printed, sent later).
    return { status: online || rejected ? 200 : 202, body: answer };
  }
}
