/**
 * What the register sells from and where: products, their categories (colour and order), modifiers,
 * payment types, the floor plan (zones and tables), the fiscal device that closes its tickets. Read
 * from the hub at login and whenever the change log says one of them changed, kept in IndexedDB so
 * the register starts and sells without the hub.
 */
import { call, NetworkError, ApiError, session, type Session } from './api';
import { idbGet, idbPut } from './idb';
import type { components } from '../shared/api-types';
import { FISCAL_DRIVERS } from '../shared/drivers';
import type { FiscalDevice, Modifier, PaymentType, Plu } from '../shared/types';

/** A category as the register shows it: its tile colour (#rrggbb) and place, where the hub has them. */
export type Category = components['schemas']['Category'] & { color?: string | null; order?: number | null };

/** A table of the floor plan: optional place on the zone's grid (in grid cells), shape and seats. */
export interface Table {
  name: string;
  x?: number | null;
  y?: number | null;
  width?: number | null;
  height?: number | null;
  shape?: 'Rect' | 'Round' | null;
  seats?: number | null;
}

/** A zone (a room, the terrace) and its tables, as GET /api/zones answers it. */
export interface Zone {
  name: string;
  order?: number | null;
  color?: string | null;
  isActive?: boolean;
  tables: Table[];
  _v?: number;
}

export interface Catalog {
  plus: Plu[];
  categories: Category[];
  modifiers: Modifier[];
  paymentTypes: PaymentType[];
  /** Empty when the shop has laid out no floor plan (or the hub has no zones): free table names. */
  zones: Zone[];
  /** The device closing this register's tickets (its DefaultFiscalName), when it can be read. */
  fiscal: Pick<FiscalDevice, 'name' | 'driver' | 'isActive' | 'status'> | null;
  loadedAt: number;
}

export const EMPTY_CATALOG: Catalog = { plus: [], categories: [], modifiers: [], paymentTypes: [], zones: [], fiscal: null, loadedAt: 0 };

const KV_KEY = 'catalog';

async function all<T>(resource: string, filter = ''): Promise<T[]> {
  const out: T[] = [];
  for (let skip = 0; ; skip += 1000) {
    const page = await call<{ items: T[] }>('GET', `/api/${resource}?$take=1000&$skip=${skip}${filter}`);
    out.push(...page.items);
    if (page.items.length < 1000) return out;
  }
}

/** A list the hub may not offer (an older hub without zones): empty, rather than no catalog at all. */
async function optional<T>(resource: string, filter = ''): Promise<T[]> {
  try {
    return await all<T>(resource, filter);
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 403)) return [];
    throw e;
  }
}

/**
 * The fiscal device that closes this register's tickets, as its session tells it (GET /api/auth:
 * `user.fiscalDevice`, its driver and status): the fiscal devices' list needs SettingsRead, a waiter's
 * session has its own device's printer without it.
 */
export async function fiscalDevice(): Promise<Catalog['fiscal']> {
  try {
    const s = await call<Omit<Session, 'tokenId' | 'refreshToken'>>('GET', '/api/auth');
    // The device's settings as they are now (lock time, printers): changed while this register was off
    // or away, they would otherwise stay as at the login until the next one.
    const cur = session();
    if (cur?.user.device && JSON.stringify(cur.user.device) !== JSON.stringify(s.user.device)) cur.user.device = s.user.device;
    return s.user.fiscalDevice ?? null;
  } catch (e) {
    if (e instanceof NetworkError) throw e;
    return null;
  }
}

export async function loadCatalog(): Promise<Catalog> {
  const [plus, categories, modifiers, paymentTypes, zones, fiscal] = await Promise.all([
    all<Plu>('plus', '&isActive=true'),
    optional<Category>('categories'),
    all<Modifier>('modifiers'),
    all<PaymentType>('paymenttypes', '&isActive=true'),
    optional<Zone>('zones'),
    fiscalDevice(),
  ]);
  const catalog: Catalog = { plus, categories, modifiers, paymentTypes, zones, fiscal, loadedAt: Date.now() };
  await idbPut('kv', catalog, KV_KEY).catch(() => undefined);
  return catalog;
}

export async function keptCatalog(): Promise<Catalog | null> {
  return (await idbGet<Catalog>('kv', KV_KEY).catch(() => undefined)) ?? null;
}

/** Lower case without accents, so "kava" finds Káva and "stastny" Šťastný. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * What the register offers: active products, but not the ingredients a recipe is made of (a stock
 * item priced 0: bryndza by the kilo is counted, never sold at the counter) — unless the waiter types
 * prices here (`typedPrices`: an OpenedPrices device, or TicketSetPrice), where a product priced 0 is
 * one priced at the till (fruit by the kilo at a market stall).
 */
export function sellable(plus: Plu[], typedPrices = false): Plu[] {
  return plus.filter((p) => p.isActive && (typedPrices || !(p.type === 'StockItem' && p.unitPrice.amount === 0)) && p.type !== 'Container');
}

/** Active categories in the shop's order (then by name); products without one show under "Other". */
export function orderedCategories(categories: Category[]): Category[] {
  return categories
    .filter((c) => c.isActive)
    .sort((a, b) => (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER) || a.name.localeCompare(b.name));
}

export function searchPlus(plus: Plu[], query: string): Plu[] {
  const q = fold(query.trim());
  if (!q) return plus;
  const words = q.split(/\s+/);
  return plus.filter((p) => {
    const name = fold(p.name);
    return words.every((w) => name.includes(w)) || String(p.code) === q || p.barcode === q;
  });
}

/** A scanned barcode (EAN) or a typed product code: the one product it names, if exactly one. */
export function byCode(plus: Plu[], code: string): Plu | null {
  const c = code.trim();
  if (!/^\d+$/.test(c)) return null;
  const byBarcode = plus.filter((p) => p.barcode === c);
  if (byBarcode.length === 1) return byBarcode[0];
  const byNumber = plus.filter((p) => String(p.code) === c);
  return byNumber.length === 1 ? byNumber[0] : null;
}

export function modifiersOf(plu: Plu, modifiers: Modifier[]): Modifier[] {
  return (plu.modifierIds ?? []).map((id) => modifiers.find((m) => m.id === id)).filter((m): m is Modifier => !!m);
}

/** True when the fiscal device rounds cash to 5 cents (Slovak eKasa, CONTRACT §8), as its driver says (shared/drivers.ts). */
export function roundsCash(catalog: Catalog): boolean {
  return FISCAL_DRIVERS.some((d) => d.name === catalog.fiscal?.driver && d.cashRounding);
}
