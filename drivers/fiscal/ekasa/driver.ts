/**
 * The `ekasa` fiscal driver: Slovak online fiscalization (eKasa) through a certified local service
 * with its protected storage (CHDÚ), PORTOS eKasa's HTTP API at `http://host:port` (protocol.ts), or
 * the simulated service in-process at `sim:<name>` (service.ts, for demos).
 *
 * Exactly once: the receipt goes out with externalId = the hub's fiscal job id. The service answers
 * 200 (registered online) or 202 (registered offline: stored in the CHDÚ and printed, sent later); both
 * are receipts. Only a refusal before storage (validation, authentication) proves nothing was
 * registered. Anything else — a 5xx, a printer or CHDÚ fault, `isSuccessful: false`, an answer that
 * cannot be read, a timeout, a cut connection — leaves the outcome unknown: printReceipt says so, and
 * the hub calls findReceipt(jobId), which looks the registration up by that externalId before anything
 * else is sent to the device. A lookup that cannot answer throws (the job stays pending), never "none".
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
import {
  CONNECTIVITY_PATH,
  LOOKUP_PATH,
  PRINTER_STATUS_PATH,
  PRODUCT_INFO_PATH,
  REGISTER_PATH,
  buildRequest,
  ekasaInfoOf,
  faultOfAnswer,
  faultOfLookup,
  parseConnectivity,
  parseEkasaSettings,
  parsePrinterStatus,
  parseProductInfo,
  parseRegistration,
  requestAmount,
  shown,
  type Expected,
  type EkasaSettings,
  type ProductInfo,
  type Registration,
} from './protocol.js';
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
        // Only the configured service is asked: a redirect followed would send the receipt to wherever it
        // points (another service registers it too). A 3xx is an answer like any other that proves nothing.
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause?.code ?? '';
      if (cause === 'ECONNREFUSED' || cause === 'ENOTFOUND' || cause === 'EHOSTUNREACH') throw new DeviceError('OFFLINE', `eKasa at ${root}: ${cause}`, false);
      // Sent, perhaps acted on, no answer: only a lookup can tell.
      const timedOut = (e as Error).name === 'TimeoutError' || (e as Error).name === 'AbortError';
      throw new DeviceError(timedOut ? 'TIMEOUT' : 'OFFLINE', `eKasa at ${root}: ${timedOut ? `no answer within ${timeoutMs} ms` : (e as Error).message}`, method === 'POST');
    }
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      // The answer was cut: whatever it said, a POST may have been acted on.
      throw new DeviceError('OFFLINE', `eKasa at ${root}: the answer to ${method} ${path} was cut (${(e as Error).message})`, method === 'POST');
    }
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // No JSON: a proxy's page, a cut body. A 2xx to a POST may still have registered the receipt.
      if (method === 'POST' && res.ok) throw new DeviceError('PROTOCOL', `eKasa at ${root}: ${method} ${path} answered ${res.status} without JSON`, true, 'EKASA-ANSWER');
      parsed = undefined;
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
  /** The jobs whose receipts the day counts (the newest ones): a receipt found again is counted once. */
  counted?: string[];
  /**
   * The cash register code each job was sent under (the newest ones): its lookup asks under that code,
   * though the device's CashRegisterCode was changed since (under the new one the service holds none,
   * and the retry would register the sale again).
   */
  sentUnder?: Array<[string, string]>;
}

const COUNTED_KEPT = 100;

/** In `unanswered`: the service answered the registration (its outcome unknown for another reason), so there is nothing to wait for. */
const ANSWERED = Number.NEGATIVE_INFINITY;

export interface EkasaOptions {
  name: string;
  address: string;
  settings: Record<string, string>;
  clock: () => Date;
  store?: DeviceStateStore;
  /** Tests pass their own transport. */
  transport?: EkasaTransport;
  /**
   * Registrations sent without an answer, by externalId (the hub's job id), and when the driver stopped
   * waiting for the answer (performance.now()), or ANSWERED when the service did answer: see findReceipt. The registry keeps one map for all the
   * instances of its devices: a device saved again between a lost answer and its lookup is a new
   * instance, which must still give the service its time. Absent: the instance's own.
   */
  unanswered?: Map<string, number>;
}

export class EkasaFiscalDevice implements FiscalDevice {
  private readonly settings: EkasaSettings;
  private readonly transport: EkasaTransport;
  private readonly clock: () => Date;
  private state: DayState;
  private readonly documents = new OneAtATime();
  private readonly unanswered: Map<string, number>;
  /** The amount of each registration sent lately, by job id: for an answer that does not say it (parseRegistration). */
  private readonly sentAmounts = new Map<string, string>();

  constructor(private readonly opts: EkasaOptions) {
    this.unanswered = opts.unanswered ?? new Map();
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

  /** The service's product information: without it (or without a CHDÚ connected) nothing can be registered. */
  private async product(): Promise<ProductInfo> {
    const res = await this.call('GET', PRODUCT_INFO_PATH);
    if (res.status !== 200) throw faultOfLookup(res.status, res.body);
    return parseProductInfo(res.body);
  }

  /** What the service says it is: its program (PPEKK) and the protected storage (CHDÚ) connected to it. */
  async info(): Promise<DeviceInfo> {
    const p = await this.product();
    const program = [shown(p.vendorName), shown(p.ppekk?.name), shown(p.ppekk?.version)].filter(Boolean).join(' ') || 'eKasa service';
    const chdu = p.chdu ? `, CHDÚ ${[shown(p.chdu.name), shown(p.chdu.version)].filter(Boolean).join(' ')}` : ', no CHDÚ connected';
    return {
      model: `${program}${chdu}`,
      serialNumber: shown(p.swid, 100) ?? this.settings.cashRegisterCode,
      // The cash register's code (ORP) is what identifies this register's receipts in the eKasa system.
      fiscalMemorySerialNumber: this.settings.cashRegisterCode,
      capabilities: { receipts: true, reports: true, email: false },
    };
  }

  /**
   * The service's own view: a CHDÚ connected (product info), the printer's state and paper, and
   * whether the eKasa system can be reached (receipts are registered offline while it cannot: the
   * device still works, which the status says as a notice). A service without the printer or
   * connectivity endpoint (404) leaves those unknown.
   */
  async status(): Promise<DeviceStatus> {
    const product = await this.product();
    if (!product.chdu) throw new DeviceError('OFFLINE', 'the eKasa service has no protected storage (CHDÚ) connected', false, 'EKASA-CHDU');
    const printerRes = await this.call('GET', PRINTER_STATUS_PATH);
    if (printerRes.status !== 200 && printerRes.status !== 404) throw faultOfLookup(printerRes.status, printerRes.body);
    const printer = printerRes.status === 200 ? parsePrinterStatus(printerRes.body) : null;
    const netRes = await this.call('GET', CONNECTIVITY_PATH);
    if (netRes.status !== 200 && netRes.status !== 404) throw faultOfLookup(netRes.status, netRes.body);
    const net = netRes.status === 200 ? parseConnectivity(netRes.body) : null;
    if (printer?.paperState === 'Empty') throw new DeviceError('PAPER_OUT', "the eKasa service's printer is out of paper", false, 'EKASA-PAPER');
    if (printer?.state === 'Error' && printer.paperState !== 'CoverOpen') throw new DeviceError('OFFLINE', "the eKasa service's printer reports an error", false, 'EKASA-PRINTER');
    const paper: DeviceStatus['paper'] = printer?.paperState === 'Ready' ? 'ok' : printer?.paperState === 'NearEnd' ? 'low' : 'unknown';
    return {
      online: true,
      paper,
      coverOpen: printer?.paperState === 'CoverOpen',
      receiptOpen: false,
      dailySalesReportNumber: this.state.zCount + 1,
      fiscalMemorySerialNumber: this.settings.cashRegisterCode,
      notice: net?.state === 'Down' ? 'OFFLINE: the eKasa system cannot be reached; receipts are registered offline and sent later' : null,
    };
  }

  /** A checked registration as the hub's result. */
  private result(r: Registration): FiscalResult {
    return {
      number: r.receiptNumber,
      date: r.issueDate,
      amount: r.amount,
      dailySalesReportNumber: this.state.zCount + 1,
      fiscalMemorySerialNumber: r.cashRegisterCode,
      ekasa: ekasaInfoOf(r),
    };
  }

  /** Counts a receipt into the day (once per job, however often it is found). */
  private record(jobId: string, r: FiscalResult): FiscalResult {
    const counted = this.state.counted ?? [];
    if (counted.includes(jobId)) return r;
    this.state.dayReceipts += 1;
    this.state.dayTotal = new Decimal(this.state.dayTotal).plus(r.amount).toString();
    this.state.last = { number: r.number, date: r.date, amount: r.amount };
    this.state.counted = [...counted, jobId].slice(-COUNTED_KEPT);
    this.save();
    return r;
  }

  printReceipt(receipt: Receipt, jobId: string): Promise<FiscalResult> {
    return this.documents.run(async () => {
      const request = buildRequest(receipt, this.settings, jobId);
      this.state.sentUnder = [...(this.state.sentUnder ?? []).filter(([job]) => job !== jobId), [jobId, this.settings.cashRegisterCode] as [string, string]].slice(-COUNTED_KEPT);
      this.save();
      const sentAmount = requestAmount(request);
      this.sentAmounts.set(jobId, sentAmount);
      if (this.sentAmounts.size > COUNTED_KEPT) this.sentAmounts.delete(this.sentAmounts.keys().next().value!);
      let res: ServiceAnswer;
      try {
        res = await this.call('POST', REGISTER_PATH, request);
      } catch (e) {
        // No answer (a timeout, a cut connection): the service may still be working on it.
        if (e instanceof DeviceError && e.outcomeUnknown) this.unanswered.set(jobId, performance.now());
        throw e;
      }
      // It answered: whatever the answer leaves unknown, the service is done with the request (findReceipt waits for nothing).
      let registration: Registration;
      try {
        // 200: registered online; 202: registered offline (stored in the CHDÚ and printed, sent later).
        if (res.status !== 200 && res.status !== 202) throw faultOfAnswer(res.status, res.body);
        registration = parseRegistration(res.body, this.expected(jobId));
        if (registration.isSuccessful === false) {
          // The eKasa system refused it after the service had stored it (or not): only a lookup can say.
          const e = registration.error;
          throw new DeviceError('PROTOCOL', `eKasa answered isSuccessful: false${e?.message ? ` (${e.message})` : ''}`, true, e?.code !== undefined ? `EKASA${e.code}` : 'EKASA-FAILED');
        }
      } catch (e) {
        if (e instanceof DeviceError && e.outcomeUnknown) this.unanswered.set(jobId, ANSWERED);
        throw e;
      }
      return this.record(jobId, this.result(registration));
    });
  }

  /**
   * The registration the service holds for externalId `jobId`: a checked answer (whatever its
   * isSuccessful: it is stored in the CHDÚ, so it is a receipt), null when the service answers a
   * problem 404 (it holds none), else a fault: a 404 that is no problem answer is a service without
   * this endpoint, which cannot say "none". A registration this driver sent without getting an answer
   * may still be under way at the service (a connection cut as it went out, a service busy before it
   * stores anything): "none" is believed only once the service has had its TimeoutMs since the driver
   * stopped waiting for the answer, asking once more then. Not since the request went out: a request
   * that timed out had had its TimeoutMs already, so that would give a slow service no time at all,
   * and the retry would register the sale twice. A job this process never sent (the hub was stopped
   * while its request was out, and started again within seconds) gets the same from `sentAt` by the
   * clock: TimeoutMs for the answer the old process waited for, then TimeoutMs more — the service
   * goes on with a request whose client has gone.
   */
  findReceipt(jobId: string, sentAt?: Date): Promise<FiscalResult | null> {
    return this.documents.run(async () => {
      let found = await this.lookup(jobId);
      const gaveUpAt = this.unanswered.get(jobId);
      const timeout = this.settings.timeoutMs;
      const wait =
        gaveUpAt !== undefined ? gaveUpAt + timeout - performance.now() : sentAt ? Math.min(sentAt.getTime() + 2 * timeout - this.clock().getTime(), 2 * timeout) : 0;
      if (found === null && wait > 0) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        found = await this.lookup(jobId);
      }
      this.unanswered.delete(jobId);
      return found && this.record(jobId, found);
    });
  }

  private async lookup(jobId: string): Promise<FiscalResult | null> {
    const res = await this.call('GET', LOOKUP_PATH(this.codeOf(jobId), jobId));
    if (res.status === 404 && res.body !== null && typeof res.body === 'object') return null;
    if (res.status !== 200) throw faultOfLookup(res.status, res.body);
    return this.result(parseRegistration(res.body, this.expected(jobId)));
  }

  /** What an answer about job `jobId` is checked against, and completed from where the service leaves something out. */
  private expected(jobId: string): Expected {
    return { externalId: jobId, cashRegisterCode: this.codeOf(jobId), amount: this.sentAmounts.get(jobId), askedAt: this.clock().toISOString() };
  }

  /** The cash register code job `jobId` was sent under; the device's own for a job it does not remember. */
  private codeOf(jobId: string): string {
    return this.state.sentUnder?.find(([job]) => job === jobId)?.[1] ?? this.settings.cashRegisterCode;
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
      await this.product();
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
