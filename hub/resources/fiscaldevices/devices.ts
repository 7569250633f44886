/**
 * Every call the hub makes to a fiscal device goes through `FiscalDevices.run(name, fn)` (issue 18):
 * it looks the device up as configured, runs `fn` when every earlier call queued for that device has
 * finished (one receipt, report or status at a time: a reconciliation can then trust "the device's
 * last number moved"), gives each device call its timeout, and maps what is left of a device fault
 * to the API's answer (503 DeviceUnavailable, Retry-After, nothing changed).
 */
import { type FiscalDevice, type FiscalDeviceConfig } from '../../../drivers/fiscal/types.js';
import { DeviceError } from '../../../drivers/faults.js';
import type { FiscalRegistry } from '../../../drivers/fiscal/registry.js';
import { whenDurable, type Db } from '../../../db/client.js';
import { ErrorCode, HubError, saidError } from '../../http/errors.js';
import { fiscalDeviceConfig, fiscalDevicesToWatch } from './store.js';

export const DEVICE_TIMEOUT_MS = 15_000;
/** A Z report prints the day's totals and writes the fiscal memory: it may take a while. */
export const REPORT_TIMEOUT_MS = 60_000;

/** Races a device call against its timeout; a timed-out receipt or report has an unknown outcome. */
export async function withTimeout<T>(call: Promise<T>, ms: number, what: string, outcomeUnknown: boolean): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeviceError('TIMEOUT', `${what} did not answer within ${ms} ms`, outcomeUnknown)), ms);
  });
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Device faults as the API answers them (ARCHITECTURE "Devices": one function). A refusal the device
 * gave knowing it did nothing — REJECTED with a known outcome: what was asked cannot be done as it
 * is (the receipt's content, a return the device cannot refer to its original, what the device
 * supports, or its own state until someone acts on it) — is 403 OperationForbidden naming the reason:
 * the same request again would be refused again. Everything else (unreachable, out of paper, busy,
 * an outcome still unknown) is 503 DeviceUnavailable with Retry-After: nothing changed, try again.
 */
export function deviceUnavailable(name: string, e: unknown): HubError {
  const code = e instanceof DeviceError ? e.code : 'PROTOCOL';
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof DeviceError && e.code === 'REJECTED' && !e.outcomeUnknown) {
    return saidError(403, ErrorCode.OperationForbidden, 'error.fiscalRefused', { name, code, reason: message });
  }
  return saidError(503, ErrorCode.DeviceUnavailable, 'error.fiscalUnavailable', { name, code, reason: message }, { headers: { 'Retry-After': '5' } });
}

/** A fiscal device's calls, each bounded by its timeout (a receipt or a report that times out may have printed). */
export type TimedDevice = Pick<FiscalDevice, 'info' | 'status' | 'lastDocument' | 'printReceipt' | 'xReport' | 'zReport'> &
  Partial<Pick<FiscalDevice, 'findReceipt' | 'memoryInHubDatabase'>>;

export interface FiscalTimeouts {
  callMs: number;
  reportMs: number;
}

export class FiscalDevices {
  /** The tail of each device's queue. */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly registry: FiscalRegistry,
    private readonly timeouts: FiscalTimeouts = { callMs: DEVICE_TIMEOUT_MS, reportMs: REPORT_TIMEOUT_MS },
  ) {}

  /** The configuration of `name`, or undefined when no such fiscal device exists. */
  config(name: string): (FiscalDeviceConfig & { isActive: boolean }) | undefined {
    return fiscalDeviceConfig(this.db, name);
  }

  /** Devices worth asking for their status: the active ones, and any holding a receipt still to settle. */
  toWatch(): FiscalDeviceConfig[] {
    return fiscalDevicesToWatch(this.db);
  }

  /**
   * Runs `fn` on the device's queue. A DeviceError `fn` lets through becomes a 503 naming the
   * device, or a 403 for a refusal for good (deviceUnavailable); a device no longer configured is a
   * 503 too (its receipts may still need settling).
   */
  async run<T>(name: string, fn: (device: TimedDevice) => Promise<T>): Promise<T> {
    const previous = this.queues.get(name) ?? Promise.resolve();
    let release!: () => void;
    const tail = previous.then(() => new Promise<void>((resolve) => (release = resolve)));
    this.queues.set(name, tail);
    await previous;
    try {
      const config = this.config(name);
      if (!config) throw new DeviceError('OFFLINE', 'the fiscal device is no longer configured', false);
      return await fn(this.timed(config));
    } catch (e) {
      throw e instanceof DeviceError ? deviceUnavailable(name, e) : e;
    } finally {
      release();
      if (this.queues.get(name) === tail) this.queues.delete(name);
    }
  }

  /** Status without waiting in the queue (the poll): a status query never changes what the device holds, and each driver sends one command at a time. */
  status(config: FiscalDeviceConfig, ms = this.timeouts.callMs): Promise<unknown> {
    return withTimeout(this.registry.get(config).status(), ms, `${config.name} status`, false);
  }

  private timed(config: FiscalDeviceConfig): TimedDevice {
    const device = this.registry.get(config);
    const { callMs, reportMs } = this.timeouts;
    // A call that makes the device print or change its memory follows a durable commit (ARCHITECTURE):
    // what the hub wrote before it (a receipt's journal row, a settled close) survives a power cut
    // the printed paper survives. A device whose memory is this database goes back with it: no wait.
    const inHubDb = device.memoryInHubDatabase === true;
    const durable = <T>(call: () => Promise<T>): Promise<T> => (inHubDb ? call() : whenDurable(this.db).then(call));
    return {
      memoryInHubDatabase: inHubDb,
      info: () => withTimeout(device.info(), callMs, 'info', false),
      status: () => withTimeout(device.status(), callMs, 'status', false),
      lastDocument: () => withTimeout(device.lastDocument(), callMs, 'lastDocument', false),
      printReceipt: (receipt, jobId) => durable(() => withTimeout(device.printReceipt(receipt, jobId), callMs, 'printReceipt', true)),
      xReport: () => durable(() => withTimeout(device.xReport(), callMs, 'X report', true)),
      zReport: () => durable(() => withTimeout(device.zReport(), reportMs, 'Z report', true)),
      ...(device.findReceipt ? { findReceipt: (jobId: string, sentAt?: Date) => withTimeout(device.findReceipt!(jobId, sentAt), callMs, 'findReceipt', false) } : {}),
    };
  }
}
