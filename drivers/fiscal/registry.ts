/**
 * Fiscal device instances by name. A device is (re)created when its configuration changes, so
 * an edited address takes effect at the next call without a restart.
 */
import { SimulatorFiscalDevice } from './simulator/driver.js';
import { DeviceError, type DeviceStateStore, type FiscalDevice, type FiscalDeviceConfig } from './types.js';

export type FiscalDriverFactory = (config: FiscalDeviceConfig, deps: { store?: DeviceStateStore; clock: () => Date }) => FiscalDevice;

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
};

export class FiscalRegistry {
  private readonly devices = new Map<string, { signature: string; device: FiscalDevice }>();

  constructor(
    private readonly deps: { store?: DeviceStateStore; clock: () => Date },
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

  async closeAll(): Promise<void> {
    await Promise.all([...this.devices.values()].map((d) => d.device.close()));
    this.devices.clear();
  }
}
