/**
 * A ticket as the register holds it: what the hub stored last (`base`, the version the waiter's
 * changes start from), the newest version the hub told of (`latest`: another register may have moved
 * on), and what the waiter sees (`draft`). What differs between `base` and `draft` is not sent yet:
 * new lines, changed quantities and comments, lines taken off (a storno once sent). "Send" writes the
 * whole draft with PUT, carrying `_v` of `base`, so a change made meanwhile elsewhere is refused (409)
 * and shown, never overwritten.
 *
 * Items carry ids the register chooses (the next free number), so a line typed offline is the same
 * line when it reaches the hub, and a retry can never add it twice.
 */
import type { Ticket, TicketItem } from '../shared/types';
import { dec, lineTotal, num, ticketTotal, type Dec } from './money';

export type Location = { tableName: string | null; zoneName: string | null };
export type Customer = NonNullable<Ticket['customer']>;

export interface LineModifier {
  modifierId: string;
  optionId: string;
  name: string;
  quantity: number;
  unitPrice: number;
}

export interface Line {
  id: number;
  plu: { code: number; stockName: string };
  name: string;
  type: 'Positive' | 'Negative';
  quantity: number;
  unitPrice: number;
  discountRate: number;
  modifiers: LineModifier[];
  comment: string | null;
  /**
   * The waiter typed `unitPrice` (CONTRACT §12: on an OpenedPrices device, or with TicketSetPrice):
   * it is sent as it is. Otherwise a new line takes the plu's price at the hub, a sent one keeps its own.
   */
  ownPrice?: boolean;
}

export interface Draft {
  name: string;
  purchaseType: Ticket['purchaseType'];
  location: Location | null;
  discountRate: number;
  customer: Customer | null;
  note: string | null;
  lines: Line[];
}

export interface LocalTicket {
  id: string;
  base: Ticket | null;
  latest: Ticket | null;
  draft: Draft;
  /** Another register changed or closed it while this one held changes of its own: the waiter decides. */
  conflict: 'changed' | 'closed' | null;
  /** The hub refused the last send (a missing right…): said on the ticket until the next send. */
  refusal: string | null;
  /** When this register last changed it (for the order of the list). */
  touchedAt: number;
}

export function lineFrom(item: TicketItem): Line {
  return {
    id: item.id,
    plu: { code: item.plu.code, stockName: item.plu.stockName },
    name: item.plu.name,
    type: item.type,
    quantity: item.quantity,
    unitPrice: item.unitPrice.amount,
    discountRate: item.discountRate,
    modifiers: item.modifiers.map((m) => ({ modifierId: m.modifierId, optionId: m.optionId, name: m.name, quantity: m.quantity, unitPrice: m.unitPrice })),
    comment: item.comment ?? null,
  };
}

export function draftFrom(t: Ticket): Draft {
  return {
    name: t.name,
    purchaseType: t.purchaseType,
    location: t.location ? { tableName: t.location.tableName ?? null, zoneName: t.location.zoneName ?? null } : null,
    discountRate: t.discountRate,
    customer: t.customer ?? null,
    note: t.note ?? null,
    lines: t.items.map(lineFrom),
  };
}

export function fromServer(t: Ticket): LocalTicket {
  return { id: t.id, base: t, latest: t, draft: draftFrom(t), conflict: null, refusal: null, touchedAt: 0 };
}

const sameModifiers = (a: LineModifier[], b: LineModifier[]) =>
  a.length === b.length && a.every((m, i) => m.modifierId === b[i].modifierId && m.optionId === b[i].optionId && m.quantity === b[i].quantity);

function sameLine(a: Line, b: Line): boolean {
  return (
    a.plu.code === b.plu.code &&
    a.plu.stockName === b.plu.stockName &&
    a.type === b.type &&
    dec(a.quantity).eq(dec(b.quantity)) &&
    a.discountRate === b.discountRate &&
    (a.comment ?? '') === (b.comment ?? '') &&
    sameModifiers(a.modifiers, b.modifiers) &&
    // Only a price the waiter typed counts: a plu's price that changed since the line was sent is not the waiter's change.
    (!b.ownPrice || dec(a.unitPrice).eq(dec(b.unitPrice)))
  );
}

/** Where a line stands: sent as it is, changed since it was sent, new, or taken off (sent, now gone). */
type LineState = 'sent' | 'changed' | 'new' | 'removed';

export interface ShownLine {
  line: Line;
  state: LineState;
  /** The quantity the hub has (for a changed or removed line). */
  sentQuantity: number | null;
}

/** The lines to show: the draft's, and the sent ones taken off (struck through until sent). */
export function shownLines(t: LocalTicket): ShownLine[] {
  const sent = new Map((t.base?.items ?? []).map((i) => [i.id, lineFrom(i)]));
  const out: ShownLine[] = t.draft.lines.map((line) => {
    const was = sent.get(line.id);
    sent.delete(line.id);
    if (!was) return { line, state: 'new', sentQuantity: null };
    return { line, state: sameLine(was, line) ? 'sent' : 'changed', sentQuantity: was.quantity };
  });
  for (const was of sent.values()) out.push({ line: was, state: 'removed', sentQuantity: was.quantity });
  return out;
}

function sameHeader(d: Draft, t: Ticket): boolean {
  const loc = t.location ?? null;
  return (
    d.name === t.name &&
    d.purchaseType === t.purchaseType &&
    d.discountRate === t.discountRate &&
    (d.customer?.id ?? null) === (t.customer?.id ?? null) &&
    (d.note ?? null) === (t.note ?? null) &&
    (d.location?.tableName ?? null) === (loc?.tableName ?? null) &&
    (d.location?.zoneName ?? null) === (loc?.zoneName ?? null)
  );
}

/** True when the draft holds something the hub does not have yet. */
export function hasChanges(t: LocalTicket): boolean {
  if (!t.base) return t.draft.lines.length > 0;
  return !sameHeader(t.draft, t.base) || shownLines(t).some((s) => s.state !== 'sent');
}

/** How many lines wait to be sent (new, changed or taken off). */
export function waitingCount(t: LocalTicket): number {
  return shownLines(t).filter((s) => s.state !== 'sent').length;
}

/** A sent line lowered or taken off: a storno, which needs the right Storno and makes a cancel order. */
export function hasStorno(t: LocalTicket): boolean {
  return shownLines(t).some((s) => s.state === 'removed' || (s.state === 'changed' && s.sentQuantity !== null && dec(s.line.quantity).lt(dec(s.sentQuantity))));
}

function draftTotal(d: Draft): Dec {
  return ticketTotal(d.lines, d.discountRate);
}

/** The total to show: the hub's once it has everything, else the register's own sum of the draft. */
export function totalOf(t: LocalTicket): number {
  if (t.base && !hasChanges(t)) return t.base.totalPrice.amount;
  return num(draftTotal(t.draft));
}

export function lineAmount(l: Line): number {
  return num(lineTotal(l));
}

export function nextLineId(t: LocalTicket): number {
  return Math.max(0, ...t.draft.lines.map((l) => l.id), ...(t.base?.items ?? []).map((i) => i.id), ...(t.latest?.items ?? []).map((i) => i.id)) + 1;
}

/** The draft as a PUT body (CONTRACT §6): a typed price as typed; else sent lines keep the price the hub gave them, new ones take the plu's. */
export function toWire(t: LocalTicket): Record<string, unknown> {
  const sentPrice = new Map((t.base?.items ?? []).map((i) => [i.id, i]));
  const d = t.draft;
  return {
    id: t.id,
    ...(t.base ? { externalId: t.base.externalId ?? null, currencyLabel: t.base.currencyLabel ?? null } : {}),
    name: d.name,
    purchaseType: d.purchaseType,
    location: d.location,
    discountRate: d.discountRate,
    // The card the customer showed stays on the ticket (the hub checks it is theirs).
    customer: d.customer ? { id: d.customer.id, ...(d.customer.cardSerialNumber ? { cardSerialNumber: d.customer.cardSerialNumber } : {}) } : null,
    note: d.note,
    items: d.lines.map((l) => {
      const sent = sentPrice.get(l.id);
      const keepsPrice = sent && sent.plu.code === l.plu.code && sent.plu.stockName === l.plu.stockName;
      return {
        id: l.id,
        plu: { code: l.plu.code, stockName: l.plu.stockName },
        type: l.type,
        quantity: l.quantity,
        ...(l.ownPrice ? { unitPrice: { amount: l.unitPrice } } : keepsPrice ? { unitPrice: { amount: sent.unitPrice.amount } } : {}),
        discountRate: l.discountRate,
        modifiers: l.modifiers.map((m) => ({ modifierId: m.modifierId, optionId: m.optionId, quantity: m.quantity })),
        comment: l.comment,
      };
    }),
    ...(t.base ? { _v: t.base._v } : {}),
  };
}

/**
 * The waiter's unsent changes made again on top of `theirs` (the version another register stored
 * meanwhile): new lines added after theirs (renumbered past their ids), lines the waiter changed or
 * took off changed or taken off there too where they still exist, header fields the waiter changed
 * set again. The result is shown as unsent; nothing goes to the hub until "Send".
 */
export function rebase(t: LocalTicket, theirs: Ticket): LocalTicket {
  const base = t.base;
  const mine = shownLines(t);
  const out = draftFrom(theirs);
  let next = Math.max(0, ...theirs.items.map((i) => i.id), ...t.draft.lines.map((l) => l.id)) + 1;
  for (const s of mine) {
    if (s.state === 'new') out.lines.push({ ...s.line, id: next++ });
    if (s.state === 'changed') {
      const k = out.lines.findIndex((l) => l.id === s.line.id);
      if (k >= 0) out.lines[k] = { ...s.line };
    }
    if (s.state === 'removed') out.lines = out.lines.filter((l) => l.id !== s.line.id);
  }
  if (base) {
    const d = t.draft;
    if (d.name !== base.name) out.name = d.name;
    if (d.discountRate !== base.discountRate) out.discountRate = d.discountRate;
    if ((d.customer?.id ?? null) !== (base.customer?.id ?? null)) out.customer = d.customer;
    if ((d.note ?? null) !== (base.note ?? null)) out.note = d.note;
    if ((d.location?.tableName ?? null) !== (base.location?.tableName ?? null)) out.location = d.location;
  }
  return { ...t, base: theirs, latest: theirs, draft: out, conflict: null, refusal: null };
}

/** The waiter's new lines on a fresh ticket (theirs was closed meanwhile), under a new id. */
export function carryOver(t: LocalTicket, id: string): LocalTicket {
  const lines = shownLines(t)
    .filter((s) => s.state === 'new' || s.state === 'changed')
    .map((s, i) => ({ ...s.line, id: i + 1, quantity: s.state === 'changed' && s.sentQuantity !== null ? Math.max(0, num(dec(s.line.quantity).minus(dec(s.sentQuantity)))) : s.line.quantity }))
    .filter((l) => l.quantity > 0);
  return { id, base: null, latest: null, draft: { ...t.draft, customer: null, discountRate: 0, lines }, conflict: null, refusal: null, touchedAt: Date.now() };
}
