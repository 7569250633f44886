/**
 * One worker per printer. It delivers the endpoint's jobs strictly in the order they were written:
 * while the oldest job waits (printer off, out of paper, cover open) the later ones wait behind it,
 * so a kitchen never gets order 2 before order 1. Every fault is retried with a growing backoff and
 * shown on the job (and on its order); a job is marked Printed only on the printer's confirmation
 * (ESC/POS: the GS r reply; Star: the ETB it counts once the job is printed).
 */
import type { Db } from '../../db/client.js';
import { render } from '../../drivers/escpos/document.js';
import type { EscPosPrinter } from '../../drivers/escpos/driver.js';
import { blockingFault, type PrinterState } from '../../drivers/escpos/commands.js';
import type { PrinterProfile } from '../../drivers/escpos/profiles.js';
import { DeviceError } from '../../drivers/faults.js';
import { backoffDelay, type Backoff, type Timers } from '../../drivers/transport/reconnecting.js';
import type { Clock } from '../core/clock.js';
import type { Language } from '../i18n/index.js';
import type { Logger } from '../core/log.js';
import { nextJob, queueDepth, type JobUpdate, type KitchenOrders, type PrintJob } from './store.js';
import { documentFor, UnprintableJob, type EndpointConfig } from './render.js';
import type { JobStates } from './states.js';

/** The reason a sleeping worker is woken: new work may be there (not an error). */
const KICKED = 'kicked';

export interface WorkerDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  timeZone: string;
  /** The shop's language (POS_HUB_LOCALE) for what is printed; English when unset. */
  language?: Language;
  orders: KitchenOrders;
  /** Where every worker's job state changes are gathered and written together. */
  states: JobStates;
  timers: Timers;
  /** Between attempts of a job that waits. */
  backoff: Backoff;
  /** How often an idle worker looks for jobs nobody announced. */
  pollMs: number;
  /** How often an idle worker asks its printer's status (so the API shows it without a job waiting). */
  statusEveryMs: number;
  /** Sends without a confirmation after which a job fails instead of printing again and again. */
  maxSends: number;
  /** How long stop() lets a job in flight finish before the connection is closed under it. */
  stopGraceMs: number;
}

export interface EndpointStatus {
  name: string;
  type: string;
  address: string;
  isActive: boolean;
  /** null: not known yet (no contact since start) or not a printer. */
  online: boolean | null;
  paper: 'ok' | 'low' | 'out' | 'unknown';
  cover: 'open' | 'closed' | 'unknown';
  /** Jobs not yet printed, the one in progress included. */
  queueDepth: number;
  lastError: string | null;
  worker: 'idle' | 'printing' | 'waiting' | 'stopped' | 'none';
}

const describe = (e: unknown) => (e instanceof DeviceError ? `${e.code}: ${e.message}${e.vendorCode ? ` (${e.vendorCode})` : ''}` : e instanceof Error ? e.message : String(e));

export class PrintWorker {
  private running: Promise<void> | null = null;
  private stopped = false;
  private wake = new AbortController();
  private failures = 0;
  private activity: EndpointStatus['worker'] = 'idle';
  private lastError: string | null = null;
  /** When the idle worker last asked the printer's status (never, at first). */
  private checkedAt = Number.NEGATIVE_INFINITY;
  /** The fault last logged, so a printer out of paper is logged once, not once per retry. */
  private loggedFault: string | null = null;
  private readonly log: Logger;

  constructor(
    readonly endpoint: EndpointConfig,
    private readonly printer: EscPosPrinter,
    private readonly profile: PrinterProfile,
    private readonly deps: WorkerDeps,
  ) {
    this.log = deps.log.child({ printer: endpoint.name, address: endpoint.address });
    printer.connection.on('offline', (e) => this.log.warn({ err: describe(e) }, 'printer offline'));
    printer.connection.on('online', () => this.log.info('printer online'));
  }

  start(): void {
    this.running ??= this.loop().catch((e: unknown) => this.log.error({ err: e }, 'print worker stopped on an unexpected error'));
  }

  /**
   * New work may be there: stop idling and look now. A worker waiting out a backoff keeps waiting
   * (at most the backoff's cap): every register write kicks every worker, and an offline printer
   * must not be dialled once per request.
   */
  kick(): void {
    // abort() without a reason makes a DOMException (with its stack) on every call, and every
    // register write kicks every worker; a kick while one is pending adds nothing.
    if ((this.stopped || this.activity !== 'waiting') && !this.wake.signal.aborted) this.wake.abort(KICKED);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.kick();
    const grace = new Promise<void>((r) => setTimeout(r, this.deps.stopGraceMs).unref());
    await Promise.race([this.running, grace]);
    // Closing the connection ends a job still in flight; it is retried (marked) at the next start.
    await this.printer.close();
    await this.running;
    this.activity = 'stopped';
  }

  status(): EndpointStatus {
    const reachable = this.printer.connection.state;
    // What a printer that no longer answers last said is history, not its state.
    const s: PrinterState | null = reachable === 'online' ? this.printer.lastState : null;
    return {
      name: this.endpoint.name,
      type: this.endpoint.type,
      address: this.endpoint.address,
      isActive: true,
      online: reachable === 'unknown' ? null : reachable === 'online' && (s?.online ?? true),
      paper: s?.paper ?? 'unknown',
      cover: s ? (s.coverOpen ? 'open' : 'closed') : 'unknown',
      queueDepth: queueDepth(this.deps.db, this.endpoint.name),
      lastError: this.lastError,
      worker: this.activity,
    };
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const job = nextJob(this.deps.db, this.endpoint.name, this.deps.states.settle(this.endpoint.name));
      if (!job) {
        this.activity = 'idle';
        await this.checkIdle();
        await this.sleep(this.deps.pollMs);
        continue;
      }
      const ok = await this.deliver(job);
      if (ok) {
        this.failures = 0;
        continue;
      }
      this.failures += 1;
      this.activity = 'waiting';
      await this.sleep(Math.max(backoffDelay(this.deps.backoff, this.failures), this.printer.connection.retryInMs()));
    }
  }

  /** Tries the job once; true when it is done (printed or failed for good). */
  private async deliver(first: PrintJob): Promise<boolean> {
    const { db, clock, orders, states } = this.deps;
    let job = first;
    // Written with the other workers' changes of the next few moments (states.ts says when each is durable).
    const set = (u: JobUpdate) => (job = states.change(job, u));
    let bytes: Uint8Array;
    try {
      bytes = render(documentFor(db, orders, job, this.endpoint, this.deps.timeZone, this.deps.language), this.profile);
    } catch (e) {
      if (!(e instanceof UnprintableJob)) throw e;
      set({ state: 'Failed', lastError: e.message });
      this.log.warn({ job: job.id, err: e.message }, 'print job cannot be printed');
      return true;
    }
    // A job that waits shows as waiting through its retries, until its bytes go out again.
    if (this.activity !== 'waiting') this.activity = 'printing';
    try {
      await this.printer.print(bytes, {
        // The job (its ticket write) and the mark that it is being sent are on disk before a byte
        // goes out: after a power cut the kitchen never holds an order the hub forgot, and a job
        // cut off mid-send is reprinted marked REPRINT rather than unmarked. The mark is written
        // and synced with whatever the other workers marked meanwhile: one write, one sync.
        beforeSend: async () => {
          this.activity = 'printing';
          set({ state: 'Printing', sending: true });
          await states.durable();
        },
        onStall: (e) => {
          this.activity = 'waiting';
          this.noteFault(e);
          set({ state: 'Waiting', lastError: `${describe(e)}; the job is inside the printer and finishes once it is fixed` });
        },
        onResume: () => set({ state: 'Printing', lastError: null }),
      });
    } catch (e) {
      if (!(e instanceof DeviceError)) this.log.error({ err: e, job: job.id }, 'unexpected error while printing');
      this.noteFault(e);
      const sentBefore = e instanceof DeviceError && e.outcomeUnknown;
      if (sentBefore && job.attempts >= this.deps.maxSends) {
        set({ state: 'Failed', lastError: `${describe(e)}; sent ${job.attempts} times without a confirmation` });
        this.log.error({ job: job.id, attempts: job.attempts }, 'print job failed: never confirmed');
        return true;
      }
      set({ state: 'Waiting', lastError: sentBefore ? `${describe(e)}; it is printed again, marked REPRINT` : describe(e) });
      return false;
    }
    set({ state: 'Printed', lastError: null, printedAt: clock.now().getTime() });
    this.noteFault(null);
    return true;
  }

  /**
   * Asks an idle printer its status every statusEveryMs (at once after start), so the API and the
   * manager's page show a printer out of paper, open or switched off before an order waits on it.
   */
  private async checkIdle(): Promise<void> {
    const now = this.deps.timers.now();
    if (now - this.checkedAt < this.deps.statusEveryMs) return;
    this.checkedAt = now;
    try {
      const blocked = blockingFault(await this.printer.status());
      this.noteFault(blocked ? new DeviceError(blocked.code, blocked.message, false, blocked.vendorCode) : null);
    } catch (e) {
      this.noteFault(e);
    }
  }

  /** Logs a printer fault when it starts or changes, and its end once. */
  private noteFault(e: unknown): void {
    const text = e === null ? null : describe(e);
    this.lastError = text;
    const key = e instanceof DeviceError ? e.code : text;
    if (key === this.loggedFault) return;
    // Connection loss is logged by the connection's own offline/online events.
    if (key !== null && key !== 'OFFLINE') this.log.warn({ err: text }, 'printer cannot print');
    else if (key === null && this.loggedFault !== null && this.loggedFault !== 'OFFLINE') this.log.info('printer printing again');
    this.loggedFault = key;
  }

  /** Sleeps until `ms` passed or a kick came (one that came while busy ends the next sleep at once). */
  private async sleep(ms: number): Promise<void> {
    if (this.stopped) return;
    if (!this.wake.signal.aborted) await this.deps.timers.sleep(ms, this.wake.signal);
    if (this.wake.signal.aborted && !this.stopped) this.wake = new AbortController();
  }
}
