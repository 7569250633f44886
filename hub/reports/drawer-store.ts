/**
 * The SQL of cash drawers (issue 28): what each shift's register took, added in the transaction of
 * every close on a register with an open shift, so a ticket counts in the shift that was open when
 * it closed — and in no other — whatever the clock said. The shifts' documents are the resource's
 * (hub/resources/shifts); this reads the few columns a close and a count need.
 */
import { rawSql, type Db } from '../../db/client.js';
import { toScaled } from '../core/money.js';
import type { DrawerShift } from './drawer.js';
import { paidNetOfChange, type ClosedTicket, type Lookups } from './totals.js';

/** The whole of a shift's sales (tickets and their total) is kept under this payment type number. */
const WHOLE = 0;

const ADD = `INSERT INTO shift_sales (shift_id, payment_type_number, tickets, amount) VALUES (?, ?, 1, ?)
  ON CONFLICT (shift_id, payment_type_number) DO UPDATE SET tickets = tickets + 1, amount = amount + excluded.amount`;

/** The open shift of a register, or undefined. */
export function openShiftOf(db: Db, deviceName: string): string | undefined {
  return rawSql.get<{ id: string }>(db, 'SELECT id FROM shifts WHERE device_name = ? AND is_open = 1', [deviceName])?.id;
}

/** Adds a ticket just closed to the open shift of the register it closed on, if any (inside the close's transaction). */
export function recordShiftSale(db: Db, t: ClosedTicket, lookups: Lookups): void {
  const device = t.closeInfo?.deviceName;
  const shift = device ? openShiftOf(db, device) : undefined;
  if (!shift) return;
  rawSql.run(db, ADD, [shift, WHOLE, toScaled(t.totalPrice.amount)]);
  for (const [number, amount] of paidNetOfChange(t, lookups)) rawSql.run(db, ADD, [shift, number, Number(amount)]);
}

export interface ShiftSalesRows {
  tickets: number;
  /** × 10^4 */
  total: number;
  payments: Array<{ paymentTypeNumber: number; tickets: number; amount: number }>;
}

/** A shift's sales as its register's closes added them. */
export function shiftSales(db: Db, shiftId: string): ShiftSalesRows {
  const rows = rawSql.all<{ n: number; tickets: number; amount: number }>(db, 'SELECT payment_type_number AS n, tickets, amount FROM shift_sales WHERE shift_id = ? ORDER BY n', [shiftId]);
  const whole = rows.find((r) => r.n === WHOLE);
  return {
    tickets: whole?.tickets ?? 0,
    total: whole?.amount ?? 0,
    payments: rows.filter((r) => r.n !== WHOLE).map((r) => ({ paymentTypeNumber: r.n, tickets: r.tickets, amount: r.amount })),
  };
}

/** What a count reads of a stored shift (its document is the shifts resource's). */
export interface StoredShift extends DrawerShift {
  state: 'Open' | 'Closed';
  deviceName: string;
  fiscalName: string | null;
}

/** A shift's stored document, or undefined. */
export function storedShift(db: Db, id: string): StoredShift | undefined {
  const row = rawSql.get<{ doc: string }>(db, 'SELECT doc FROM shifts WHERE id = ?', [id]);
  return row ? (JSON.parse(row.doc) as StoredShift) : undefined;
}
