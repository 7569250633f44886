/**
 * Fiscal device instances by name. A device is (re)created when its configuration changes, so
 * an edited address takes effect at the next call without a restart.
 */
import type { ReconnectingOptions } from '../transport/index.js';
import { DatecsFiscalDevice } from './datecs/driver.js';
import { SimulatorFiscalDevice } from './simulator/driver.js';
import { DeviceError, type DeviceStateStore, type FiscalDevice, type FiscalDeviceConfig } from './types.js';

export interface FiscalDriverDeps {
  store?: DeviceStateStore;
  clock: () => Date;
  /** Transport options for drivers that open a channel (tests pass a serial MockBinding). */
  channel?: ReconnectingOptions;
}

export type FiscalDriverFactory = (config: FiscalDeviceConfig, deps: FiscalDriverDeps) => FiscalDevice;

/** A driver that is configured but not built yet answers every call as offline, honestly. */
class UnavailableDevice implements FiscalDevice {
  constructor(private readonly why: string) {}
  private fail(): never {
    throw new DeviceError('OFFLINE', this.why);
  }
  info = async () => this.fail();
  status = async () => this.fail();
  printReceipt = async () => this.fail();
  lastDocument = async () => this.fail();
  xReport = async () => this.fail();
  zReport = async () => this.fail();
  cancelOpenReceipt = async () => this.fail();
  close = async () => {};
}

export const DEFAULT_FACTORIES: Record<string, FiscalDriverFactory> = {
  simulator: (config, deps) => new SimulatorFiscalDevice(config.name, deps.store, deps.clock),
  datecs: (config, deps) => new DatecsFiscalDevice({ name: config.name, address: config.address, settings: config.settings, clock: deps.clock, channel: deps.channel }),
};

/** Waiting longer than this for another document on the same device answers BUSY. */
export const DEVICE_QUEUE_WAIT_MS = 30_000;

export class FiscalRegistry {
  private readonly devices = new Map<string, { signature: string; device: FiscalDevice }>();
  private readonly turns = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: FiscalDriverDeps,
    private readonly factories: Record<string, FiscalDriverFactory> = DEFAULT_FACTORIES,
  ) {}

  get(config: FiscalDeviceConfig): FiscalDevice {
    const signature = JSON.stringify([config.driver, config.address, config.settings]);
    const known = this.devices.get(config.name);
    if (known && known.signature === signature) return known.device;
    if (known) void known.device.close();
    const factory = this.factories[config.driver];
    const device = factory ? factory(config, this.deps) : new UnavailableDevice(`the ${config.driver} driver is not available in this build`);
    this.devices.set(config.name, { signature, device });
    return device;
  }

  /** The instance already made for `name`, if any (tests reach the simulator this way). */
  peek(name: string): FiscalDevice | undefined {
    return this.devices.get(name)?.device;
  }

  /**
   * Runs `work` while no other document work runs on device `name` (a receipt, its reconciliation, a
   * report), so "the last document" always belongs to the job being settled. A caller that cannot
   * get its turn within `waitMs` gets BUSY instead of hanging behind a slow device.
   */
  async exclusive<T>(name: string, work: () => Promise<T>, waitMs = DEVICE_QUEUE_WAIT_MS): Promise<T> {
    const before = this.turns.get(name) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => mine);
    this.turns.set(name, tail);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        before,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new DeviceError('BUSY', `fiscal device '${name}' is busy with another document`)), waitMs);
        }),
      ]);
    } catch (e) {
      // Give the turn up only once the queue reaches it, so order is kept for those behind.
      void before.then(release);
      throw e;
    } finally {
      clearTimeout(timer);
    }
    try {
      return await work();
    } finally {
      release();
      if (this.turns.get(name) === tail) this.turns.delete(name);
    }
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.devices.values()].map((d) => d.device.close()));
    this.devices.clear();
  }
}
