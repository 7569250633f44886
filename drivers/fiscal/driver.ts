/**
 * What a fiscal driver says of itself (as zigbee-herdsman's adapters and Home Assistant's
 * integration folders do): each driver folder's index.ts exports one FiscalDriver, and
 * registry.ts lists them. Everything else — the fiscal devices resource's enum and checks, the API
 * document, the manager page's select and labels (through `npm run web:types`), the registry's
 * factories — reads that list, so adding a driver is its folder plus one line in registry.ts.
 */
import type { Decimal } from 'decimal.js';
import { parseAddress } from '../transport/address.js';
import type { ReconnectingOptions } from '../transport/index.js';
import type { Words } from '../words.js';
import type { DeviceStateStore, FiscalDevice, FiscalDeviceConfig } from './types.js';

/** What the registry hands every driver's `create`. */
export interface FiscalDriverDeps {
  store?: DeviceStateStore;
  clock: () => Date;
  /** Transport options for drivers that open a channel (tests pass a serial MockBinding). */
  channel?: ReconnectingOptions;
  /** The hub's id: what a driver keeping its fiscal memory in the hub reports as the memory's serial number. */
  hubId?: string;
  /** The store's time zone (POS_HUB_TIMEZONE): a printer's clock runs in it unless its own TimeZone setting says otherwise. */
  timeZone?: string;
  /** Registrations sent without an answer, kept across a device's instances; the registry makes one when absent. */
  unanswered?: Map<string, number>;
}

export interface FiscalDriver<Name extends string = string> {
  /** As a fiscal device's `driver` names it (the API's enum, lower case). */
  readonly name: Name;
  /** What a manager picks in the driver select, in each language. */
  readonly label: Words;
  readonly address: {
    /** An address of the form it takes: the manager page's example and hint. */
    readonly example: string;
    /** The form, said to the manager beside the address field. */
    readonly hint: Words;
    /** Throws an AddressError (drivers/transport/address.ts) naming what is wrong; the hub says it as `address.<fault>`. */
    check(address: string): void;
  };
  readonly settings: {
    /** Throws on a setting it refuses, marked with its rule where it can be (drivers/settings.ts `refused`). */
    check(settings: Record<string, string>): void;
  };
  /**
   * How its receipts round the amount paid in cash (Slovak eKasa registrations round to 5 cents,
   * CONTRACT §8): the rounded amount. Absent: nothing is rounded.
   */
  readonly cashRounding?: (amount: string) => Decimal;
  /** A device of this driver for `config`; throws when the configuration cannot work. */
  create(config: FiscalDeviceConfig, deps: FiscalDriverDeps): FiscalDevice;
}

/** A driver's description, its name kept as the literal type (so the list of names is a type too). */
export const fiscalDriver = <Name extends string>(driver: FiscalDriver<Name>): FiscalDriver<Name> => driver;

/**
 * The address of a device behind a transport — `tcp://host[:port]` or `serial:/dev/…`, checked by
 * drivers/transport/address.ts — said with a network `example` and a `serial` one.
 */
export function transportAddress(example: string, serial: string): FiscalDriver['address'] {
  return {
    example,
    hint: { en: `Like ${example} or ${serial}`, sk: `Napríklad ${example} alebo ${serial}`, cs: `Například ${example} nebo ${serial}` },
    check: (address) => void parseAddress(address),
  };
}
