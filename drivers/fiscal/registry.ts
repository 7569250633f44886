/**
 * The fiscal drivers, one line each (a driver describes itself in its folder's index.ts:
 * drivers/fiscal/driver.ts), and the device instances by name. A device is (re)created when its
 * configuration changes, so an edited address takes effect at the next call without a restart.
 */
import { datecs } from './datecs/index.js';
import { ekasa } from './ekasa/index.js';
import { escpos } from './escpos/index.js';
import { simulator } from './simulator/index.js';
import type { FiscalDriver, FiscalDriverDeps } from './driver.js';
import { type FiscalDevice, type FiscalDeviceConfig } from './types.js';
import { DeviceError } from '../faults.js';

/** Every fiscal driver the hub has, in the order the API and the page list them. */
export const FISCAL_DRIVERS = [datecs, escpos, simulator, ekasa] as const;

export type FiscalDriverName = (typeof FISCAL_DRIVERS)[number]['name'];
export const FISCAL_DRIVER_NAMES = FISCAL_DRIVERS.map((d) => d.name) as [FiscalDriverName, ...FiscalDriverName[]];
/** The driver that talks to no device: the API document's example, demos. */
export const DEMO_DRIVER: FiscalDriver = simulator;

/** The driver a fiscal device names, or undefined for a name no driver has. */
export function fiscalDriverNamed(name: string): FiscalDriver | undefined {
  return FISCAL_DRIVERS.find((d) => d.name === name);
}

export type { FiscalDriver, FiscalDriverDeps } from './driver.js';

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
    private readonly drivers: readonly FiscalDriver[] = FISCAL_DRIVERS,
  ) {
    // What a device's instances share across a new configuration (an eKasa registration still unanswered).
    this.deps = { ...deps, unanswered: deps.unanswered ?? new Map() };
  }

  get(config: FiscalDeviceConfig): FiscalDevice {
    const signature = JSON.stringify([config.driver, config.address, config.settings]);
    const known = this.devices.get(config.name);
    if (known && known.signature === signature) return known.device;
    if (known) void known.device.close();
    const driver = this.drivers.find((d) => d.name === config.driver);
    let device: FiscalDevice;
    try {
      device = driver ? driver.create(config, this.deps) : new UnavailableDevice(`the ${config.driver} driver is not available in this build`);
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
