/** Keeps the `status` of fiscal devices (status.ts) up to date from every device call and a periodic poll. */
import type { Db } from '../../../db/client.js';
import type { FiscalRegistry } from '../../../drivers/fiscal/registry.js';
import { type DeviceInfo, type DeviceStatus, type FiscalResult, type ReportResult } from '../../../drivers/fiscal/types.js';
import { DeviceError } from '../../../drivers/faults.js';
import type { Logger } from '../../core/log.js';
import type { FiscalDevices } from './devices.js';
import { readFiscalStatus, writeFiscalStatus, type FiscalStatus } from '../../core/fiscal-status.js';

/** A device error as status text: the fault code, the message and the vendor's own code. */
export function describeFault(e: unknown): string {
  if (e instanceof DeviceError) return `${e.code}: ${e.message}${e.vendorCode ? ` (${e.vendorCode})` : ''}`;
  return e instanceof Error ? e.message : String(e);
}

export const STATUS_POLL_MS = 30_000;
export const STATUS_TIMEOUT_MS = 10_000;

/** Records what each device call showed, logs going offline and coming back once each, and polls. */
export class FiscalMonitor {
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;

  constructor(
    private readonly deps: {
      db: Db;
      log: Logger;
      fiscal: FiscalRegistry;
      /** The devices as configured: which to watch, and a status query with its timeout. */
      devices: Pick<FiscalDevices, 'toWatch' | 'status'>;
      /** Settles receipts left pending on a device that answers again. */
      settle?: (name: string) => Promise<void>;
    },
  ) {
    deps.fiscal.observe((name, call, outcome) => {
      if (!outcome.ok) return this.failed(name, outcome.error);
      if (call === 'status') return this.status(name, outcome.value as DeviceStatus);
      // Something printed: there is paper (how much, only a status answer tells).
      const printed = { paper: this.get(name).paper === 'low' ? ('low' as const) : ('ok' as const) };
      if (call === 'printReceipt') {
        const r = outcome.value as FiscalResult;
        return this.ok(name, { ...printed, dailySalesReportNumber: r.dailySalesReportNumber, fiscalMemorySerialNumber: r.fiscalMemorySerialNumber });
      }
      if (call === 'zReport') return this.ok(name, { ...printed, dailySalesReportNumber: (outcome.value as ReportResult).number + 1 });
      if (call === 'xReport') return this.ok(name, printed);
      if (call === 'info') return this.ok(name, { fiscalMemorySerialNumber: (outcome.value as DeviceInfo).fiscalMemorySerialNumber });
      this.ok(name);
    });
  }

  get(name: string): FiscalStatus {
    return readFiscalStatus(this.deps.db, name);
  }

  /** The device answered: it is online; `seen` is what the answer told. */
  ok(name: string, seen: Partial<FiscalStatus> = {}): void {
    this.update(name, { online: true, lastError: null, ...seen });
  }

  status(name: string, s: DeviceStatus): void {
    this.ok(name, {
      paper: s.paper,
      // A notice (an eKasa service registering offline) is what the status says when nothing is wrong.
      lastError: s.coverOpen ? 'COVER_OPEN: the cover is open' : (s.notice ?? null),
      fiscalMemorySerialNumber: s.fiscalMemorySerialNumber,
      dailySalesReportNumber: s.dailySalesReportNumber,
    });
  }

  /** A call failed: unreachable faults mark it offline; faults of an answering device keep it online. */
  failed(name: string, e: unknown): void {
    const code = e instanceof DeviceError ? e.code : 'PROTOCOL';
    const unreachable = code === 'OFFLINE' || code === 'TIMEOUT';
    this.update(name, {
      online: !unreachable,
      lastError: describeFault(e),
      ...(code === 'PAPER_OUT' ? { paper: 'out' as const } : {}),
    });
  }

  private update(name: string, patch: Partial<FiscalStatus>): void {
    const before = this.get(name);
    const after = { ...before, ...patch };
    if (JSON.stringify(before) === JSON.stringify(after)) return;
    writeFiscalStatus(this.deps.db, name, after);
    if (before.online !== after.online && after.online !== null) {
      if (after.online) this.deps.log.info({ fiscalName: name }, 'fiscal device is online');
      else this.deps.log.warn({ fiscalName: name, err: after.lastError }, 'fiscal device is offline');
    }
  }

  /** Asks every active device for its status, then settles what was left pending on those that answer. */
  poll(): Promise<void> {
    this.polling ??= (async () => {
      for (const config of this.deps.devices.toWatch()) {
        try {
          // The observer records the answer (or the failure) as the device's status.
          await this.deps.devices.status(config, STATUS_TIMEOUT_MS);
        } catch (e) {
          this.failed(config.name, e);
          continue;
        }
        try {
          await this.deps.settle?.(config.name);
        } catch (e) {
          this.deps.log.warn({ fiscalName: config.name, err: describeFault(e) }, 'pending fiscal receipts not settled yet');
        }
      }
    })().finally(() => (this.polling = null));
    return this.polling;
  }

  start(intervalMs = STATUS_POLL_MS): void {
    if (this.timer) return;
    void this.poll();
    this.timer = setInterval(() => void this.poll(), intervalMs);
    this.timer.unref();
  }

  /** Stops polling; a poll under way gets a moment to finish, not the whole device timeout. */
  async stop(graceMs = 1000): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.polling, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
  }
}
