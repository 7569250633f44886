/**
 * Pairing a register (issue 29), modelled on a kitchen display's: the manager (right DeviceUpdate)
 * asks for a 6-digit code for a CashRegister or PDA device, shown with a link to open on the tablet;
 * the tablet trades the code, without a token, for the device's name and a random device key. The
 * device is then paired (`pairedAt`), and the key is what the tablet shows to be that register: it
 * lists the users who may sell there (GET /api/registers/users) and lets them log in with a PIN
 * (POST /api/auth). Pairing again gives a new key: the earlier tablet's stops working, and the
 * device's session ends with it.
 *
 * The codes are Pairings (hub/http/pairings.ts), as kitchen displays' are: in memory, ten
 * minutes, single use, wrong guesses throttled per address and per code; listed, looked up and
 * withdrawn the same way, under DeviceUpdate here.
 */
import { z } from 'zod';
import { inTransaction } from '../../db/client.js';
import { requireRight, requireSale, type Caller } from '../http/caller.js';
import { errors } from '../http/errors.js';
import { SALE_ENVS } from '../http/rights.js';
import { pairingCode, type PairingView } from '../http/pairing-codes.js';
import { Pairings } from '../http/pairings.js';
import type { DocOf, EngineContext } from '../engine/define.js';
import { nameKey } from '../engine/fields.js';
import { getStored, type StoredDoc } from '../engine/repo.js';
import type { ResourceService } from '../engine/service.js';
import { devices } from '../resources/devices/resource.js';
import { hashRegisterKey, isPairedRegister, newRegisterKey } from '../resources/devices/register-key.js';
import { deviceByRegisterKeyHash, revokeDeviceSessions } from '../resources/devices/store.js';
import { activeUsersHolding } from '../resources/users/store.js';

export const registerPairingRequestSchema = z.object({ deviceName: nameKey() });
export const registerPairSchema = z.object({ code: pairingCode() });

/** Who may sell on a register: the right that opens a ticket. */
export const SELLING_RIGHT = 'TicketCreate';

/** Who may hand a ticket over (PATCH /api/tickets?action=Handover), and so read whom to. */
export const HANDOVER_RIGHT = 'TicketHandover';

export type RegisterPairing = PairingView & { deviceName: string };

export interface PairedRegister {
  deviceName: string;
  envName: string;
  /** The register's secret: sent back as X-Register-Key. Shown once; the hub keeps its hash. */
  deviceKey: string;
}

/** A colleague a ticket may be handed over to: what a Handover names and what a waiter reads, nothing more. */
export interface Colleague {
  userName: string;
  name: string;
}

export interface Seller {
  userName: string;
  name: string;
  hasPin: boolean;
}

/** `host` as a browser sent it (`hub.local:8080`, `192.168.1.5:8080`, `[fe80::1]:8080`), or undefined for anything else. */
function plainHost(host: string | undefined): string | undefined {
  if (!host) return undefined;
  return /^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.test(host) ? host : undefined;
}

/** The link a tablet opens: the register's page with the code, on the address the manager reached the hub at. */
export function pairingLink(host: string, code: string): string {
  return `http://${host}/pos/#pair=${code}`;
}

export class RegistersService {
  /** The registers' codes, made, listed and withdrawn by whoever holds DeviceUpdate. */
  readonly pairings: Pairings<{ deviceName: string }>;

  constructor(
    private readonly ctx: EngineContext,
    private readonly devicesService: ResourceService<typeof devices>,
  ) {
    this.pairings = new Pairings(ctx.clock, 'DeviceUpdate');
  }

  /** A sale device that is active, or the error the contract names (400 unknown, 403 state). */
  private saleDevice(name: string, member = 'deviceName'): StoredDoc<DocOf<typeof devices>> {
    const stored = getStored(this.ctx.db, devices, name);
    if (!stored) throw errors.member(member, 'registers.deviceNotFound', { name });
    const envName = String(stored.doc.envName);
    if (!SALE_ENVS.has(envName)) throw errors.forbidden('registers.notSale', { name, envName });
    if (stored.doc.isActive !== true) throw errors.forbidden('registers.deviceInactive', { name });
    return stored;
  }

  /**
   * A code for a register. `host`: the Host the manager's request came to (the link must work from
   * the shop's LAN, as the manager's page does); `fallbackHost`: the hub's own address and port on
   * that connection, when the Host header is missing or not a plain host.
   */
  create(caller: Caller, { deviceName }: z.output<typeof registerPairingRequestSchema>, host: string | undefined, fallbackHost: string): RegisterPairing & { code: string; link: string } {
    requireRight(caller, this.pairings.right);
    const device = this.saleDevice(deviceName);
    const issued = this.pairings.issue(caller, { deviceName: String(device.doc.name) });
    return { ...issued, link: pairingLink(plainHost(host) ?? fallbackHost, issued.code) };
  }

  /** The tablet's side: the code for the device and a new key; the device is paired from now on. */
  pair({ code }: z.output<typeof registerPairSchema>, address: string): PairedRegister {
    const match = this.pairings.check(code, address);
    const { deviceName } = match.pairing;
    if (!getStored(this.ctx.db, devices, deviceName)) {
      // Deleted since the code was made: the code can never work again, so it is spent.
      match.spend();
      throw errors.forbidden('registers.deviceGone', { name: deviceName });
    }
    const deviceKey = newRegisterKey();
    const now = this.ctx.clock.now();
    const envName = inTransaction(this.ctx.db, () => {
      // Checked before the code is spent: a refusal leaves it usable once the manager fixed the device.
      const stored = this.saleDevice(deviceName, 'code');
      this.devicesService.store(undefined, deviceName, { ...stored.doc, pairedAt: now.toISOString(), registerKeyHash: hashRegisterKey(deviceKey) }, stored);
      // The tablet paired before (lost, replaced) loses its key above and its session here.
      revokeDeviceSessions(this.ctx.db, deviceName, now.getTime());
      return String(stored.doc.envName);
    });
    match.succeeded();
    // Other codes for this register would pair it again behind the new tablet's back.
    this.pairings.revokeWhere((p) => p.deviceName === deviceName);
    return { deviceName, envName, deviceKey };
  }

  /** The users who may sell on the register holding `key` (401 for a key of no paired, active register). */
  sellers(key: string | undefined): Seller[] {
    const device = key ? deviceByRegisterKeyHash(this.ctx.db, hashRegisterKey(key)) : undefined;
    if (!device || !isPairedRegister(device.doc, key)) throw errors.unauthenticated('registers.keyUnknown');
    return activeUsersHolding(this.ctx.db, SELLING_RIGHT);
  }

  /**
   * The users a waiter on a sale device may hand a ticket over to: those who may sell, names only
   * (least privilege, CONTRACT §12: no UserRead needed, and nothing a waiter has no use for).
   */
  colleagues(caller: Caller): Colleague[] {
    requireSale(caller);
    requireRight(caller, HANDOVER_RIGHT);
    return activeUsersHolding(this.ctx.db, SELLING_RIGHT).map(({ userName, name }) => ({ userName, name }));
  }
}
