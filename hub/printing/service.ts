/**
 * The print queue's running half: one PrintWorker per active printer endpoint, kept in step with
 * the order_endpoints table (an edited address or model takes effect without a restart), woken
 * when a write may have queued jobs, and stopped cleanly at shutdown.
 */
import { inTransaction, type Db } from '../../db/client.js';
import { EscPosPrinter, type EscPosPrinterOptions } from '../../drivers/escpos/driver.js';
import { PROFILES, type PrinterModel } from '../../drivers/escpos/profiles.js';
import { parseAddress } from '../../drivers/transport/address.js';
import { DEFAULT_BACKOFF, realTimers, type Backoff, type Timers } from '../../drivers/transport/reconnecting.js';
import type { Clock } from '../core/clock.js';
import { errors } from '../http/errors.js';
import type { Language } from '../i18n/index.js';
import type { Logger } from '../core/log.js';
import { endpointRows, enqueuePrintJob, getJob, markInterrupted, queueDepth, takeAnnounced, type EndpointRow, type KitchenOrders, type PrintJob } from './store.js';
import type { EndpointConfig } from './render.js';
import { JobStates } from './states.js';
import { PrintWorker, type EndpointStatus, type WorkerDeps } from './worker.js';

export interface PrintingOptions {
  /** Driver timeouts and the connection's backoff. */
  printer?: EscPosPrinterOptions;
  backoff?: Backoff;
  timers?: Timers;
  pollMs?: number;
  /** How often an idle printer is asked its status. */
  statusEveryMs?: number;
  maxSends?: number;
  stopGraceMs?: number;
}

export interface PrintingDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  timeZone: string;
  /** The shop's language (POS_HUB_LOCALE) for what is printed; English when unset. */
  language?: Language;
  /** The kitchen orders jobs print and show their state on (hub/resources/orders/prints.ts). */
  orders: KitchenOrders;
}

/**
 * Printer retries top out at 5 s, for the job and for dialling alike: a printer switched back on
 * or refilled should not leave a kitchen waiting, and one status request every 5 s costs nothing.
 */
const PRINT_BACKOFF: Backoff = { ...DEFAULT_BACKOFF, maxMs: 5000 };

const signature = (e: EndpointConfig) => JSON.stringify([e.type, e.address, e.settings]);

export class PrintService {
  private readonly workers = new Map<string, { sig: string; worker: PrintWorker }>();
  /** Workers still finishing; their endpoint gets a new worker only after, so no job runs twice. */
  private readonly stopping = new Map<string, Promise<void>>();
  private readonly workerDeps: WorkerDeps;
  /** The job state changes of every worker, written together (states.ts). */
  readonly states: JobStates;
  private ticker: NodeJS.Timeout | null = null;
  private started = false;

  constructor(
    private readonly deps: PrintingDeps,
    private readonly opts: PrintingOptions = {},
  ) {
    this.states = new JobStates(deps.db, deps.orders, deps.clock, deps.log);
    this.workerDeps = {
      ...deps,
      states: this.states,
      timers: opts.timers ?? realTimers,
      backoff: opts.backoff ?? PRINT_BACKOFF,
      pollMs: opts.pollMs ?? 1000,
      // As often as a waiting job retries at most (PRINT_BACKOFF): one status request costs nothing.
      statusEveryMs: opts.statusEveryMs ?? PRINT_BACKOFF.maxMs,
      maxSends: opts.maxSends ?? 3,
      stopGraceMs: opts.stopGraceMs ?? 3000,
    };
  }

  /** Recovers jobs a stopped hub left printing, then starts the workers. */
  start(): void {
    if (this.started) return;
    this.started = true;
    const n = markInterrupted(this.deps.db, this.deps.orders, this.deps.clock.now().getTime());
    if (n) this.deps.log.warn({ jobs: n }, 'print jobs interrupted by the last stop will be printed again, marked REPRINT');
    this.sync();
    // Catches endpoint edits and jobs written by other paths; writes through the API kick at once.
    this.ticker = setInterval(() => this.sync(), this.workerDeps.pollMs);
    this.ticker.unref();
  }

  /**
   * A write finished that may have queued jobs. Only a write to the order endpoints can add,
   * change or remove a printer (then every worker looks); other writes wake the workers of the
   * endpoints they queued jobs on (store.ts takeAnnounced), and no other.
   */
  kick(endpointsChanged = true): void {
    if (!this.started) return;
    const announced = takeAnnounced(this.deps.db);
    if (endpointsChanged) this.sync();
    for (const [name, { worker }] of this.workers) if (endpointsChanged || announced.has(name)) worker.kick();
  }

  async stop(): Promise<void> {
    this.started = false;
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
    const all = [...this.workers.values()].map(({ worker }) => worker.stop());
    this.workers.clear();
    await Promise.all([...all, ...this.stopping.values()]);
    // What the workers did last is written before the database closes (CONTRACT §10: the print queue's state is flushed).
    this.states.flush();
  }

  status(name: string): EndpointStatus {
    // The queue depth counts what is written: the workers' latest changes first.
    this.states.flush();
    const row = this.endpointRows(name)[0];
    if (!row) throw errors.notFound('OrderEndpoint', name);
    return this.statusOf(row);
  }

  /** The device side of a printer's status, for /api/health (which lists the endpoints itself). */
  summary(name: string): Pick<EndpointStatus, 'online' | 'paper' | 'cover' | 'lastError' | 'worker'> {
    const { online, paper, cover, lastError, worker } = this.status(name);
    return { online, paper, cover, lastError, worker };
  }

  /** Queues a COPY of a stored order on its endpoint (CONTRACT §6). */
  reprint(orderId: string, requestedBy: string): PrintJob {
    const order = this.deps.orders.get(this.deps.db, orderId);
    if (!order) throw errors.notFound('Order', orderId);
    const name = String(order.orderEndpointName);
    this.requirePrinter(name, () => errors.forbidden('endpoint.gone', { name }));
    return this.enqueue(name, 'reprint', orderId, { orderId, requestedBy });
  }

  /** Queues a test page: what an installer prints after plugging a printer in. */
  testPrint(name: string, requestedBy: string): PrintJob {
    this.requirePrinter(name, () => errors.notFound('OrderEndpoint', name));
    return this.enqueue(name, 'test', null, { requestedBy });
  }

  private requirePrinter(name: string, missing: () => Error): void {
    const [endpoint] = this.endpointRows(name);
    if (!endpoint) throw missing();
    if (endpoint.type === 'Tablet') throw errors.forbidden('endpoint.displayDoesNotPrint', { name });
    if (endpoint.is_active !== 1) throw errors.forbidden('endpoint.inactive', { name });
  }

  private enqueue(endpointName: string, kind: 'reprint' | 'test', refId: string | null, payload: unknown): PrintJob {
    const id = inTransaction(this.deps.db, () => enqueuePrintJob(this.deps.db, { endpointName, kind, refId, payload, at: this.deps.clock.now().getTime() }));
    this.kick(false);
    return getJob(this.deps.db, id)!;
  }

  private statusOf(r: EndpointRow): EndpointStatus {
    const running = this.workers.get(r.name)?.worker;
    if (running) return { ...running.status(), isActive: r.is_active === 1 };
    return {
      name: r.name,
      type: r.type,
      address: r.address,
      isActive: r.is_active === 1,
      online: null,
      paper: 'unknown',
      cover: 'unknown',
      queueDepth: queueDepth(this.deps.db, r.name),
      lastError: null,
      worker: 'none',
    };
  }

  private endpointRows(name?: string): EndpointRow[] {
    return endpointRows(this.deps.db, name);
  }

  /** Starts a worker for each active printer, restarts one whose configuration changed, stops the rest. */
  private sync(): void {
    const wanted = new Map<string, EndpointConfig>();
    for (const r of this.endpointRows()) {
      if (r.is_active !== 1 || !(r.type in PROFILES)) continue; // Tablet: a kitchen display, nothing to drive
      try {
        parseAddress(r.address);
      } catch {
        continue;
      }
      wanted.set(r.name, { name: r.name, type: r.type, address: r.address, settings: r.settings ? (JSON.parse(r.settings) as Record<string, string>) : {} });
    }
    for (const [name, { sig, worker }] of this.workers) {
      const e = wanted.get(name);
      if (e && signature(e) === sig) continue;
      this.workers.delete(name);
      this.stopping.set(name, worker.stop().finally(() => this.stopping.delete(name)));
    }
    for (const [name, e] of wanted) {
      if (this.workers.has(name) || this.stopping.has(name)) continue;
      const profile = PROFILES[e.type as PrinterModel];
      const printer = new EscPosPrinter(e.address, { backoff: PRINT_BACKOFF, ...this.opts.printer, timers: this.opts.printer?.timers ?? this.workerDeps.timers, dialect: profile.dialect });
      const worker = new PrintWorker(e, printer, profile, this.workerDeps);
      this.workers.set(name, { sig: signature(e), worker });
      worker.start();
    }
  }
}
