/**
 * The `ekasa` fiscal driver: Slovak online fiscalization (eKasa) through a certified local service
 * with its protected storage (CHDÚ), PORTOS eKasa's HTTP API at `http://host:port` (protocol.ts), or
 * the simulated service in-process at `sim:<name>` (service.ts, for demos).
 *
 * Exactly once: the receipt goes out with externalId = the hub's fiscal job id. A lost answer (a
 * timeout, a dropped connection) leaves the outcome unknown; the hub then calls findReceipt(jobId),
 * which looks the registration up by that externalId. A repeated registration is refused by the
 * service (409), so even a blind retry cannot register twice; the driver answers it from the lookup.
 *
 * X and Z reports: eKasa has no fiscal day to close (every receipt is registered as it is made), and
 * the service's own reports are not in its public API, so the driver keeps the day itself: X answers
 * the receipts and total registered since the last Z, Z answers the same and starts the next day
 * number (kept in the hub's device state, like the `escpos` driver's).
 */
import { Decimal } from 'decimal.js';
import { OneAtATime } from '../one-at-a-time.js';
import { type DeviceInfo, type DeviceStateStore, type DeviceStatus, type FiscalDevice, type FiscalResult, type LastDocument, type Receipt, type ReportResult } from '../types.js';
import { DeviceError } from '../../faults.js';
import { LOOKUP_PATH, REGISTER_PATH, buildRequest, faultOfAnswer, parseEkasaSettings, readAnswer, type EkasaAnswer, type EkasaSettings } from './protocol.js';
import { SimulatedEkasaService, type ServiceAnswer } from './service.js';

/** One HTTP exchange: the answer, or a DeviceError (OFFLINE before anything was sent, TIMEOUT after). */
export type EkasaTransport = (method: 'GET' | 'POST', path: string, body: unknown, timeoutMs: number) => Promise<ServiceAnswer>;

export function httpTransport(base: string): EkasaTransport {
  const root = base.replace(/\/+$/, '');
  return async (method, path, body, timeoutMs) => {
    let res: Response;
    try {
      res = await fetch(root + path, {
        method,
        headers: { 'content-type': 'application/json; charset=utf-8', accept: 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause?.code ?? '';
      if (cause === 'ECONNREFUSED' || cause === 'ENOTFOUND' || cause === 'EHOSTUNREACH') throw new DeviceError('OFFLINE', `eKasa at ${root}: ${cause}`, false);
      // Sent, perhaps acted on, no answer: only a lookup can tell.
      const timedOut = (e as Error).name === 'TimeoutError' || (e as Error).name === 'AbortError';
      throw new DeviceError(timedOut ? 'TIMEOUT' : 'OFFLINE', `eKasa at ${root}: ${timedOut ? `no answer within ${timeoutMs} ms` : (e as Error).message}`, method === 'POST');
    }
    let parsed: unknown;
    try {
      const text = await res.text();
      parsed = text ? JSON.parse(text) : null;
    } catch {
      throw new DeviceError('PROTOCOL', `eKasa at ${root}: ${method} ${path} answered ${res.status} without JSON`, method === 'POST' && res.ok);
    }
    return { status: res.status, body: parsed };
  };
}

/** The in-process services behind `sim:<name>` addresses, one per name, so every device instance sees the same one. */
const SIMULATED = new Map<string, SimulatedEkasaService>();

export function simulatedService(name: string, store?: DeviceStateStore, clock?: () => Date): SimulatedEkasaService {
  let s = SIMULATED.get(name);
  if (!s) {
    s = new SimulatedEkasaService(`ekasa-sim:${name}`, store, clock);
    SIMULATED.set(name, s);
  }
  return s;
}

export function checkEkasaSettings(settings: Record<string, string>): void {
  parseEkasaSettings(settings);
}

interface DayState {
  zCount: number;
  dayReceipts: number;
  dayTotal: string;
  last: LastDocument | null;
}

export interface EkasaOptions {
  name: string;
  address: string;
  settings: Record<string, string>;
  clock: () => Date;
  store?: DeviceStateStore;
  /** Tests pass their own transport. */
  transport?: EkasaTransport;
}

export class EkasaFiscalDevice implements FiscalDevice {
  private readonly settings: EkasaSettings;
  private readonly transport: EkasaTransport;
  private readonly clock: () => Date;
  private state: DayState;
  private readonly documents = new OneAtATime();

  constructor(private readonly opts: EkasaOptions) {
    this.settings = parseEkasaSettings(opts.settings);
    this.clock = opts.clock;
    const sim = /^sim:(.+)$/.exec(opts.address);
    if (opts.transport) this.transport = opts.transport;
    else if (sim) {
      const service = simulatedService(sim[1], opts.store, opts.clock);
      this.transport = async (method, path, body) => service.handle(method, path, JSON.parse(JSON.stringify(body ?? null)));
    } else if (/^https?:\/\/[^/\s]+(:\d+)?\/?$/.test(opts.address)) this.transport = httpTransport(opts.address);
    else throw new Error(`the ekasa driver takes http://host:port or sim:<name>, not '${opts.address}'`);
    this.state = (opts.store?.load(this.key) as DayState | undefined) ?? { zCount: 0, dayReceipts: 0, dayTotal: '0', last: null };
  }

  private get key(): string {
    return `ekasa:${this.opts.name}`;
  }

  private save(): void {
    this.opts.store?.save(this.key, this.state);
  }

  private call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ServiceAnswer> {
    return this.transport(method, path, body, this.settings.timeoutMs);
  }

  async info(): Promise<DeviceInfo> {
    const res = await this.call('GET', '/api/v1/product/info');
    if (res.status !== 200) throw faultOfAnswer(res.status, res.body);
    const name = (res.body as { name?: string } | null)?.name ?? 'eKasa';
    return { model: `${name} (eKasa)`, serialNumber: this.settings.cashRegisterCode, fiscalMemorySerialNumber: this.settings.cashRegisterCode, capabilities: { receipts: true, reports: true, email: false } };
  }

  async status(): Promise<DeviceStatus> {
    const res = await this.call('GET', '/api/v1/product/info');
    if (res.status !== 200) throw faultOfAnswer(res.status, res.body);
    return { online: true, paper: 'unknown', coverOpen: false, receiptOpen: false, dailySalesReportNumber: this.state.zCount + 1, fiscalMemorySerialNumber: this.settings.cashRegisterCode };
  }

  /** A registration answer as the hub's result; an answer that registered nothing is REJECTED. */
  private result(answer: EkasaAnswer): FiscalResult {
    const ekasa = readAnswer(answer);
    if (!ekasa) throw new DeviceError('REJECTED', `eKasa refused the receipt: ${answer.error?.message ?? 'no reason given'}`, false, `EKASA${answer.error?.code ?? ''}`);
    return {
      number: ekasa.receiptNumber,
      date: answer.request.data.issueDate ?? this.clock().toISOString(),
      amount: new Decimal(answer.request.data.amount).toFixed(2),
      dailySalesReportNumber: this.state.zCount + 1,
      fiscalMemorySerialNumber: this.settings.cashRegisterCode,
      ekasa,
    };
  }

  private record(r: FiscalResult): FiscalResult {
    this.state.dayReceipts += 1;
    this.state.dayTotal = new Decimal(this.state.dayTotal).plus(r.amount).toString();
    this.state.last = { number: r.number, date: r.date, amount: r.amount };
    this.save();
    return r;
  }

  printReceipt(receipt: Receipt, jobId: string): Promise<FiscalResult> {
    return this.documents.run(async () => {
      const request = buildRequest(receipt, this.settings, jobId);
      const res = await this.call('POST', REGISTER_PATH, request);
      if (res.status === 409) {
        // Registered before (an earlier try whose answer was lost): the registration stands.
        const found = await this.lookup(jobId);
        if (found) return this.record(found);
        throw new DeviceError('PROTOCOL', `eKasa refused externalId ${jobId} as a repeat but cannot find it`, true, 'EKASA409');
      }
      // 200: registered online; 202: registered offline (stored in the CHDÚ and printed, sent later).
      if (res.status !== 200 && res.status !== 202) throw faultOfAnswer(res.status, res.body);
      return this.record(this.result(res.body as EkasaAnswer));
    });
  }

  private async lookup(jobId: string): Promise<FiscalResult | null> {
    const res = await this.call('GET', LOOKUP_PATH(jobId));
    if (res.status === 404) return null;
    if (res.status !== 200) throw faultOfAnswer(res.status, res.body);
    return this.result(res.body as EkasaAnswer);
  }

  findReceipt(jobId: string): Promise<FiscalResult | null> {
    return this.documents.run(async () => {
      const found = await this.lookup(jobId);
      return found ? this.record(found) : null;
    });
  }

  async lastDocument(): Promise<LastDocument | null> {
    return this.state.last;
  }

  xReport(): Promise<ReportResult> {
    return this.report('X');
  }

  zReport(): Promise<ReportResult> {
    return this.report('Z');
  }

  private report(kind: 'X' | 'Z'): Promise<ReportResult> {
    return this.documents.run(async () => {
      // The service must be there, as for any fiscal action.
      await this.status();
      const r: ReportResult = { kind, number: this.state.zCount + 1, date: this.clock().toISOString(), total: new Decimal(this.state.dayTotal).toFixed(2), receipts: this.state.dayReceipts };
      if (kind === 'Z') {
        this.state = { ...this.state, zCount: this.state.zCount + 1, dayReceipts: 0, dayTotal: '0' };
        this.save();
      }
      return r;
    });
  }

  async cancelOpenReceipt(): Promise<void> {}

  async close(): Promise<void> {}
}
