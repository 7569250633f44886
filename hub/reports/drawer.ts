/**
 * A cash drawer's figures (issue 28): what it should hold, one rule for every count. A shift's drawer
 * holds its opening float, the cash its register took while the shift was open (Cash-category payment
 * types, change deducted) and the cash put in, less the cash taken out; a fiscal day's drawer (a shop
 * without shifts) its float and the cash of the fiscal day's receipts.
 */
import { D, dec, fromScaled, toJsonNumber, type Dec } from '../core/money.js';
import type { Db } from '../../db/client.js';
import { shiftSales } from './drawer-store.js';
import { paymentTypeNames } from './store.js';

export interface Movement {
  id: number;
  at: string;
  by: { userName: string; name: string };
  kind: 'In' | 'Out';
  amount: number;
  reason: string;
}

export interface ShiftSales {
  tickets: number;
  total: number;
  payments: Array<{ paymentTypeNumber: number; name: string; category: string | null; tickets: number; amount: number }>;
  /** What the Cash-category payment types took in, change deducted. */
  cash: number;
}

export interface DrawerFigures {
  sales: ShiftSales;
  cashIn: number;
  cashOut: number;
  /** openingFloat + sales.cash + cashIn − cashOut */
  expected: number;
}

const sum = (values: Dec[]) => values.reduce((s, v) => s.plus(v), new D(0));

/** What the drawer rule reads of a shift (the shifts resource's document, hub/resources/shifts). */
export interface DrawerShift {
  id: string;
  openingFloat: number;
  movements?: Movement[];
}

/** What a shift's drawer should hold now: from the closes its register made while it was open, and its movements. */
export function shiftDrawer(db: Db, shift: DrawerShift): DrawerFigures {
  const rows = shiftSales(db, shift.id);
  const types = paymentTypeNames(db);
  const payments = rows.payments.map((p) => {
    const type = types.get(p.paymentTypeNumber);
    return { paymentTypeNumber: p.paymentTypeNumber, name: type?.name ?? String(p.paymentTypeNumber), category: type?.category ?? null, tickets: p.tickets, amount: toJsonNumber(fromScaled(p.amount)) };
  });
  const cash = sum(payments.filter((p) => p.category === 'Cash').map((p) => dec(p.amount)));
  const movements = shift.movements ?? [];
  const cashIn = sum(movements.filter((m) => m.kind === 'In').map((m) => dec(m.amount)));
  const cashOut = sum(movements.filter((m) => m.kind === 'Out').map((m) => dec(m.amount)));
  return {
    sales: { tickets: rows.tickets, total: toJsonNumber(fromScaled(rows.total)), payments, cash: toJsonNumber(cash) },
    cashIn: toJsonNumber(cashIn),
    cashOut: toJsonNumber(cashOut),
    expected: toJsonNumber(dec(shift.openingFloat).plus(cash).plus(cashIn).minus(cashOut)),
  };
}

/** A count by denomination: Σ value × count. */
export function denominationsTotal(denominations: ReadonlyArray<{ value: number; count: number }>): Dec {
  return sum(denominations.map((d) => dec(d.value).times(d.count)));
}
