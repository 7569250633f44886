/**
 * A simulated PORTOS eKasa service: what the local HTTP API answers (protocol.ts has the sources),
 * behind a plain `handle(method, path, body)` so it serves in-process (the `ekasa` driver at address
 * `sim:<name>`, used by `npm run seed:demo`) and as a real HTTP server on 127.0.0.1 in tests
 * (test/support/fake-ekasa-service.ts). It validates requests as the docs describe, numbers receipts,
 * registers online (a UUID) or offline (OKP only, sent later), refuses a repeated externalId instead
 * of registering twice, finds a registration by its externalId, and can be told to fail.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { LOOKUP_PATH, REGISTER_PATH, type EkasaAnswer, type EkasaRequest } from './protocol.js';
import type { DeviceStateStore } from '../types.js';

export interface ServiceAnswer {
  status: number;
  body: unknown;
}

interface ServiceState {
  receiptNumber: number;
  /** Registrations by externalId, the newest KEEP of them. */
  registrations: Array<[string, EkasaAnswer]>;
}

const KEEP = 1000;
const MONEY2 = /^-?\d{1,8}(\.\d{1,2})?$/;
const MONEY6 = /^-?\d{1,8}(\.\d{1,6})?$/;
const QTY4 = /^\d{1,8}(\.\d{1,4})?$/;
const NAME = /^[\p{L}\p{N} \r\n]{1,255}$/u;

const problem = (status: number, title: string, errorCode: number, errors?: Record<string, string[]>): ServiceAnswer => ({
  status,
  body: { type: 'about:blank', title, status, errorCode, ...(errors ? { errors } : {}) },
});

export class SimulatedEkasaService {
  /** false: the eKasa system cannot be reached; receipts are registered offline (OKP, no UUID). */
  online = true;
  /** The next registration is answered with this error (a CHDÚ or printer fault), registering nothing. */
  refuseNext: { status: number; title: string; errorCode: number } | null = null;
  private state: ServiceState;

  constructor(
    private readonly key = 'ekasa-service',
    private readonly store?: DeviceStateStore,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.state = (store?.load(key) as ServiceState | undefined) ?? { receiptNumber: 0, registrations: [] };
  }

  /** The registrations, oldest first (tests count them). */
  get registrations(): EkasaAnswer[] {
    return this.state.registrations.map(([, a]) => a);
  }

  handle(method: string, path: string, body: unknown): ServiceAnswer {
    if (method === 'GET' && path === '/api/v1/product/info') return { status: 200, body: { name: 'PORTOS eKasa (simulated)', version: '1.0.0', online: this.online } };
    if (method === 'GET' && path.startsWith(`${REGISTER_PATH}?`)) {
      const id = new URLSearchParams(path.slice(path.indexOf('?') + 1)).get('externalId') ?? '';
      const found = this.state.registrations.find(([k]) => k === id);
      return found ? { status: 200, body: found[1] } : problem(404, `No registration with externalId '${id}'.`, -104);
    }
    if (method === 'POST' && path === REGISTER_PATH) return this.register(body);
    return problem(404, `${method} ${path} is not an endpoint.`, -100);
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
      if (!MONEY2.test(it.price ?? '') || !MONEY6.test(it.unitPrice ?? '') || !QTY4.test(it.quantity?.amount ?? '')) {
        fail(`items[${i}]`, 'price to 2, unitPrice to 6, quantity to 4 decimals');
        continue;
      }
      const product = new Decimal(it.unitPrice).times(it.quantity.amount).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
      if (!product.eq(it.price)) fail(`items[${i}].price`, `price ${it.price} is not unitPrice × quantity (${product.toFixed(2)})`);
      if (it.type === 'Positive' && new Decimal(it.price).lte(0)) fail(`items[${i}].price`, 'a Positive item is positive');
      if (it.type === 'Discount' && new Decimal(it.price).gte(0)) fail(`items[${i}].price`, 'a Discount item is negative');
      if (!['Positive', 'Discount'].includes(it.type)) fail(`items[${i}].type`, `'${it.type}' needs what this simulator does not check`);
      sum = sum.plus(it.price);
    }
    const paid = (data.payments ?? []).reduce((s, p) => s.plus(MONEY2.test(p.amount ?? '') ? p.amount : 0), new Decimal(0));
    if (!Array.isArray(data.payments) || data.payments.length === 0) fail('payments', 'at least one payment');
    else if (paid.lt(sum)) fail('payments', `the payments (${paid.toFixed(2)}) are less than the items (${sum.toFixed(2)})`);
    if (typeof externalId !== 'string' || !externalId) fail('externalId', 'Required');
    if (Object.keys(errors).length) return problem(400, 'The request is not valid.', -900, errors);
    // A repeated externalId registers nothing: the first registration stands and is found by lookup.
    if (this.state.registrations.some(([k]) => k === externalId)) return problem(409, `A request with externalId '${externalId}' exists; look it up at ${LOOKUP_PATH(externalId!)}.`, -403);
    if (this.refuseNext) {
      const r = this.refuseNext;
      this.refuseNext = null;
      return problem(r.status, r.title, r.errorCode);
    }
    const number = ++this.state.receiptNumber;
    const now = this.clock();
    const issueDate = now.toISOString().replace(/\.\d{3}Z$/, '+00:00');
    const okp = createHash('sha1').update(`${data.cashRegisterCode}:${number}:${externalId}`).digest('hex').toUpperCase().match(/.{8}/g)!.join('-');
    const answer: EkasaAnswer & { request: { data: Record<string, unknown> } } = {
      request: {
        data: { ...data, receiptType: 'CashRegister', amount: Number(sum.toFixed(2)), issueDate, createDate: issueDate, receiptNumber: number, okp, pkp: randomBytes(64).toString('base64') },
        id: createHash('sha1').update(`id:${externalId}`).digest('hex').slice(0, 32),
        externalId: externalId!,
      },
      response: this.online ? { data: { id: `O-${randomBytes(16).toString('hex').toUpperCase()}` }, processDate: issueDate } : null,
      isSuccessful: this.online ? true : null,
      error: null,
    };
    this.state.registrations.push([externalId!, answer]);
    if (this.state.registrations.length > KEEP) this.state.registrations.splice(0, this.state.registrations.length - KEEP);
    this.store?.save(this.key, this.state);
    // 200: registered online; 202: registered offline (stored in the CHDÚ and printed, sent later).
    return { status: this.online ? 200 : 202, body: answer };
  }
}
