/**
 * The sales figures of closed tickets summed plainly, here in the tests, with decimal.js: from the
 * tickets as the API answers them, never from the hub's totals. The report tests hold the hub's
 * running totals against these.
 */
import { Decimal } from 'decimal.js';

export const D = Decimal.clone({ rounding: Decimal.ROUND_HALF_UP });
export const r2 = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const zero = () => new D(0);

export const localDay = (iso: string, tz: string) => new Intl.DateTimeFormat('sv-SE', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
export const localHour = (iso: string, tz: string) => new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', hourCycle: 'h23' }).format(new Date(iso));

/** Each item's part of the ticket's total: its total less the ticket discount, the cent left over on the largest. */
export function shares(t: any): Decimal[] {
  const f = new D(100).minus(t.discountRate).div(100);
  const s = t.items.map((i: any) => r2(new D(i.totalPrice.amount).times(f)));
  const rest = new D(t.totalPrice.amount).minus(s.reduce((x: Decimal, y: Decimal) => x.plus(y), zero()));
  if (!rest.isZero()) {
    const k = s.reduce((best: number, v: Decimal, i: number) => (v.abs().gt(s[best].abs()) ? i : best), 0);
    s[k] = s[k].plus(rest);
  }
  return s;
}

export interface Sum {
  tickets: Set<string>;
  quantity: Decimal;
  gross: Decimal;
  discounts: Decimal;
  returnsQuantity: Decimal;
  returns: Decimal;
  net: Decimal;
}
export const emptySum = (): Sum => ({ tickets: new Set(), quantity: zero(), gross: zero(), discounts: zero(), returnsQuantity: zero(), returns: zero(), net: zero() });

/** Item figures summed per key (`keyOf` null: left out); a ticket counts once per key it has items in. */
export function sumBy(tickets: any[], keyOf: (t: any, i: any) => string | null): Map<string, Sum> {
  const out = new Map<string, Sum>();
  for (const t of tickets) {
    const s = shares(t);
    t.items.forEach((i: any, k: number) => {
      const key = keyOf(t, i);
      if (key === null) return;
      const sum = out.get(key) ?? emptySum();
      sum.tickets.add(t.id);
      if (i.type === 'Negative') {
        sum.returnsQuantity = sum.returnsQuantity.plus(i.quantity);
        sum.returns = sum.returns.minus(s[k]);
      } else {
        const options = (i.modifiers ?? []).reduce((x: Decimal, m: any) => x.plus(new D(m.unitPrice).times(m.quantity)), zero());
        const gross = r2(new D(i.quantity).times(new D(i.unitPrice.amount).plus(options)));
        sum.quantity = sum.quantity.plus(i.quantity);
        sum.gross = sum.gross.plus(gross);
        sum.discounts = sum.discounts.plus(gross.minus(s[k]));
      }
      sum.net = sum.net.plus(s[k]);
      out.set(key, sum);
    });
  }
  return out;
}

export const asRow = (s: Sum) => ({
  tickets: s.tickets.size,
  quantity: s.quantity.toNumber(),
  gross: s.gross.toNumber(),
  discounts: s.discounts.toNumber(),
  returnsQuantity: s.returnsQuantity.toNumber(),
  returns: s.returns.toNumber(),
  net: s.net.toNumber(),
});
export const asRows = (m: Map<string, Sum>) => Object.fromEntries([...m].map(([k, s]) => [k, asRow(s)]));

/** What each payment type took in, per ticket: the change comes back out of the changeable types' payments, in order. */
export function paidByType(tickets: any[], changeable: (paymentTypeNumber: number) => boolean): Map<number, { tickets: Set<string>; amount: Decimal }> {
  const paid = new Map<number, { tickets: Set<string>; amount: Decimal }>();
  for (const t of tickets) {
    let change = new D(t.change ?? 0);
    for (const p of t.payments) {
      let amount = new D(p.amount);
      if (change.gt(0) && changeable(p.paymentTypeNumber)) {
        const back = Decimal.min(change, amount);
        amount = amount.minus(back);
        change = change.minus(back);
      }
      const row = paid.get(p.paymentTypeNumber) ?? { tickets: new Set<string>(), amount: zero() };
      row.tickets.add(t.id);
      row.amount = row.amount.plus(amount);
      paid.set(p.paymentTypeNumber, row);
    }
  }
  return paid;
}

/** The tickets' own VAT split (`vatBreakdown`), summed per rate. */
export function vatByRate(tickets: any[]): Map<number, { tickets: number; gross: Decimal; vat: Decimal }> {
  const out = new Map<number, { tickets: number; gross: Decimal; vat: Decimal }>();
  for (const t of tickets) {
    for (const v of t.vatBreakdown) {
      const row = out.get(v.rate) ?? { tickets: 0, gross: zero(), vat: zero() };
      row.tickets += 1;
      row.gross = row.gross.plus(v.gross);
      row.vat = row.vat.plus(v.vat);
      out.set(v.rate, row);
    }
  }
  return out;
}

export const total = (tickets: any[]) => tickets.reduce((s: Decimal, t: any) => s.plus(t.totalPrice.amount), zero());
