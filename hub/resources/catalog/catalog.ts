/**
 * The catalog a ticket write and a close read (issue 31): plus (name, price, VAT, kitchen routing),
 * modifiers, payment types and the active order endpoints. Read once and kept until the change log
 * says they changed (hub/events/cache.ts): a price, a VAT rate or a routing changed in the back
 * office holds from the next ticket write on, as when every write read them afresh.
 */
import type { Db } from '../../../db/client.js';
import { ChangeCache } from '../../events/cache.js';
import type { DocOf } from '../../engine/define.js';
import { getStored } from '../../engine/repo.js';
import { modifiers } from '../modifiers/resource.js';
import { orderEndpoints } from '../orderendpoints/resource.js';
import { paymentTypes } from '../paymenttypes/resource.js';
import { plus } from '../plus/resource.js';
import { activeEndpointTypes, catalogPluRows, type CatalogPluRow } from './store.js';
import type { Lookups } from '../../reports/totals.js';

export interface CatalogPlu {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly unitPrice: number | null;
  readonly vatRate: number | null;
  readonly vatCategory: number | null;
  readonly orderEndpointNames: readonly string[];
  readonly category: string | null;
}

/** A modifier as stored (frozen: every ticket write shares it). */
export type CatalogModifier = Readonly<DocOf<typeof modifiers>>;

export interface CatalogPaymentType {
  readonly doc: Readonly<DocOf<typeof paymentTypes>>;
}

export type ActiveEndpoints = ReadonlyMap<string, { type: string; categories: string[]; mirrorOf: string | null }>;

const pluKey = (stockName: string, code: number) => `${stockName}\u0000${code}`;
/** Misses are read this many at a time: one statement text per count, so a handful of prepared texts. */
const READ_AT_ONCE = 16;

function pluOf(row: CatalogPluRow): CatalogPlu {
  return Object.freeze({
    id: row.id,
    name: row.name,
    type: row.type,
    unitPrice: row.unit_price,
    vatRate: row.vat_rate,
    vatCategory: row.vat_category,
    orderEndpointNames: Object.freeze(row.endpoint_names ? (JSON.parse(row.endpoint_names) as string[]) : []),
    category: row.category,
  });
}

export class Catalog {
  private readonly plus: ChangeCache<CatalogPlu>;
  /** plu id → the keys (stock and code) its copies are kept under: a change log entry names the id. */
  private readonly pluKeys = new Map<string, Set<string>>();
  private readonly modifiers: ChangeCache<CatalogModifier>;
  private readonly paymentTypes: ChangeCache<CatalogPaymentType>;
  private readonly endpoints: ChangeCache<ActiveEndpoints>;

  constructor(private readonly db: Db) {
    this.plus = new ChangeCache(db, {
      resources: [plus.name],
      drops: (_, id) => {
        const keys = this.pluKeys.get(id);
        this.pluKeys.delete(id);
        return keys ? [...keys] : [];
      },
    });
    this.modifiers = new ChangeCache(db, { resources: [modifiers.name] });
    this.paymentTypes = new ChangeCache(db, { resources: [paymentTypes.name] });
    this.endpoints = new ChangeCache(db, { resources: [orderEndpoints.name], drops: () => 'all' });
  }

  /** The plus of `refs`, in order (undefined: no such plu); those not kept yet are read in one statement. */
  plusOf(refs: ReadonlyArray<{ code: number; stockName: string }>): Array<CatalogPlu | undefined> {
    const out = refs.map((r) => this.plus.peek(pluKey(r.stockName, r.code)));
    const missing = new Map<string, { code: number; stockName: string }>();
    refs.forEach((r, i) => {
      if (!out[i]) missing.set(pluKey(r.stockName, r.code), r);
    });
    if (!missing.size) return out;
    const wanted = [...missing.values()];
    for (let i = 0; i < wanted.length; i += READ_AT_ONCE) {
      for (const row of catalogPluRows(this.db, wanted.slice(i, i + READ_AT_ONCE))) {
        const key = pluKey(row.stock_name, row.code);
        this.plus.keep(key, pluOf(row));
        let keys = this.pluKeys.get(row.id);
        if (!keys) this.pluKeys.set(row.id, (keys = new Set()));
        keys.add(key);
      }
    }
    return refs.map((r, i) => out[i] ?? this.plus.peek(pluKey(r.stockName, r.code)));
  }

  plu(code: number, stockName: string): CatalogPlu | undefined {
    return this.plusOf([{ code, stockName }])[0];
  }

  modifier(id: string): CatalogModifier | undefined {
    return this.modifiers.get(id, () => {
      const stored = getStored(this.db, modifiers, id);
      return stored ? Object.freeze(stored.doc) : undefined;
    });
  }

  paymentType(number: number): CatalogPaymentType | undefined {
    return this.paymentTypes.get(String(number), () => {
      const stored = getStored(this.db, paymentTypes, number);
      return stored ? Object.freeze({ doc: Object.freeze(stored.doc) }) : undefined;
    });
  }

  /** What the sales totals read of plus and payment types (reports/totals.ts Lookups), from the catalog. */
  totalsLookups(): Lookups {
    return {
      plu: (code, stockName) => {
        const plu = this.plu(code, stockName);
        // unitPrice: the list price now, which the audit holds a sold price against (a price override).
        return plu ? { category: plu.category, vatRate: plu.vatRate, unitPrice: plu.unitPrice } : undefined;
      },
      paymentType: (number) => {
        const type = this.paymentType(number);
        return type ? { name: type.doc.name ?? String(number), isChangeable: type.doc.isChangeable === true } : undefined;
      },
    };
  }

  /** Active order endpoints by name: their type, the categories routed to them and the endpoint they mirror. */
  activeEndpoints(): ActiveEndpoints {
    return this.endpoints.get('active', () => activeEndpointTypes(this.db))!;
  }
}

const catalogs = new WeakMap<Db, Catalog>();

/** The catalog of `db` (one per database, as its prepared statements are). */
export function catalogOf(db: Db): Catalog {
  let catalog = catalogs.get(db);
  if (!catalog) catalogs.set(db, (catalog = new Catalog(db)));
  return catalog;
}
