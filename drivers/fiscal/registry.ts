/**
 * Fiscal device instances by name. A device is (re)created when its configuration changes, so
 * an edited address takes effect at the next call without a restart.
 */
import type { ReconnectingOptions } from '../transport/index.js';
import { DatecsFiscalDevice } from './datecs/driver.js';
import { EkasaFiscalDevice } from './ekasa/driver.js';
import { EscPosFiscalDevice } from './escpos/driver.js';
import { SimulatorFiscalDevice } from './simulator/driver.js';
import { type DeviceStateStore, type FiscalDevice, type FiscalDeviceConfig } from './types.js';
import { DeviceError } from '../faults.js';

export interface FiscalDriverDeps {
  store?: DeviceStateStore;
  clock: () => Date;
  /** Transport options for drivers that open a channel (tests pass a serial MockBinding). */
  channel?: ReconnectingOptions;
  /** The hub's id: what the `escpos` driver reports as its fiscal memory serial number. */
  hubId?: string;
  /** The store's time zone (POS_HUB_TIMEZONE): a `datecs` printer's clock runs in it unless its TimeZone setting says otherwise. */
  timeZone?: string;
  /** `ekasa` registrations sent without an answer (EkasaOptions.unanswered); the registry makes one when absent. */
  unanswered?: Map<string, number>;
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
  escpos: (config, deps) =>
    new EscPosFiscalDevice({ name: config.name, address: config.address, settings: config.settings, store: deps.store, clock: deps.clock, hubId: deps.hubId }),
  datecs: (config, deps) => new DatecsFiscalDevice({ name: config.name, address: config.address, settings: config.settings, clock: deps.clock, channel: deps.channel, timeZone: deps.timeZone }),
  ekasa: (config, deps) =>
    new EkasaFiscalDevice({ name: config.name, address: config.address, settings: config.settings, clock: deps.clock, store: deps.store, unanswered: deps.unanswered }),
};

/** What every device call showed: its result, or the error it failed with. */
export type FiscalObserver = (name: string, call: FiscalCall, outcome: { ok: true; value: unknown } | { ok: false; error: unknown }) => void;
export type FiscalCall = 'info' | 'status' | 'printReceipt' | 'findReceipt' | 'lastDocument' | 'xReport' | 'zReport' | 'cancelOpenReceipt';
const OBSERVED: FiscalCall[] = ['info', 'status', 'printReceipt', 'findReceipt', 'lastDocument', 'xReport', 'zReport', 'cancelOpenReceipt'];

/**
 * The device seen through a proxy that reports each call's outcome; everything else (a simulator's
 * fault injection, its journal) reaches the device itself.
 */
function observed(name: string, device: FiscalDevice, observer: FiscalObserver): FiscalDevice {
  return new Proxy(device, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || !OBSERVED.includes(prop as FiscalCall)) return value;
      return async (...args: unknown[]) => {
        const tell = (outcome: Parameters<FiscalObserver>[2]) => {
          try {
            observer(name, prop as FiscalCall, outcome);
          } catch {
            // What the observer does with it must never change the call's own outcome.
          }
        };
        try {
          const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          tell({ ok: true, value: result });
          return result;
        } catch (error) {
          tell({ ok: false, error });
          throw error;
        }
      };
    },
  });
}

export class FiscalRegistry {
  private readonly devices = new Map<string, { signature: string; device: FiscalDevice }>();
  private readonly deps: FiscalDriverDeps;

  constructor(
    deps: FiscalDriverDeps,
    private readonly factories: Record<string, FiscalDriverFactory> = DEFAULT_FACTORIES,
  ) {
    // What a device's instances share across a new configuration (an eKasa registration still unanswered).
    this.deps = { ...deps, unanswered: deps.unanswered ?? new Map() };
  }

  get(config: FiscalDeviceConfig): FiscalDevice {
    const signature = JSON.stringify([config.driver, config.address, config.settings]);
    const known = this.devices.get(config.name);
    if (known && known.signature === signature) return known.device;
    if (known) void known.device.close();
    const factory = this.factories[config.driver];
    let device: FiscalDevice;
    try {
      device = factory ? factory(config, this.deps) : new UnavailableDevice(`the ${config.driver} driver is not available in this build`);
    } catch (e) {
      device = new UnavailableDevice(`the ${config.driver} driver refused its configuration: ${(e as Error).message}`);
    }
    if (this.observer) device = observed(config.name, device, this.observer);
    this.devices.set(config.name, { signature, device });
    return device;
  }

  private observer: FiscalObserver | null = null;

  /** Tells `observer` the outcome of every call on every device made from now on (the status of devices). */
  observe(observer: FiscalObserver): void {
    this.observer = observer;
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
