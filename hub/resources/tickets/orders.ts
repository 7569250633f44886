/**
 * Kitchen orders from a ticket write (CONTRACT §6): added quantities become a New order, lowered
 * or removed ones a Cancel order, one per order endpoint named by the plu; an item whose plu, options
 * or comment changed is the old one cancelled and the new one ordered. Runs inside the ticket
 * write's transaction and enqueues the print jobs there too (outbox).
 */
import { toUnits, UNIT } from '../../core/money.js';
import { enqueuePrintJob } from '../../printing/store.js';
import type { DocOf, EngineContext } from '../../engine/define.js';
import { putStored } from '../../engine/repo.js';
import { newId } from '../../core/ids.js';
import { orders } from '../orders/resource.js';
import { catalogOf } from '../catalog/catalog.js';

export interface TicketItem {
  id: number;
  plu: { code: number; stockName: string; name: string };
  type: 'Positive' | 'Negative';
  quantity: number;
  modifiers: Array<{ modifierId: string; optionId: string; name?: string; quantity: number }>;
  comment: string | null;
}

interface Line {
  item: TicketItem;
  quantity: number;
}

/** Positive items only: a returned item goes back over the counter, not to the kitchen. */
export function orderDeltas(before: TicketItem[], after: TicketItem[]): { added: Line[]; cancelled: Line[] } {
  const added: Line[] = [];
  const cancelled: Line[] = [];
  const old = new Map(before.filter((i) => i.type === 'Positive').map((i) => [i.id, i]));
  for (const item of after.filter((i) => i.type === 'Positive')) {
    const prev = old.get(item.id);
    old.delete(item.id);
    // The same dish as the kitchen was told: the plu, its options and the comment. Another one (a side
    // changed after it was sent) is the old one cancelled and the new one ordered, so the cook learns of it.
    const samePlu = prev && prev.plu.code === item.plu.code && prev.plu.stockName === item.plu.stockName && sameMaking(prev, item);
    if (prev && !samePlu) cancelled.push({ item: prev, quantity: prev.quantity });
    // In units of 10^-4 (quantities carry at most 4 places): exact, without a decimal object.
    const diff = toUnits(item.quantity) - (samePlu ? toUnits(prev.quantity) : 0);
    if (diff > 0) added.push({ item, quantity: diff / UNIT });
    if (diff < 0) cancelled.push({ item, quantity: -diff / UNIT });
  }
  for (const prev of old.values()) cancelled.push({ item: prev, quantity: prev.quantity });
  return { added, cancelled };
}

/** Whether two versions of an item ask the kitchen for the same thing: the same options in the same quantities, the same comment. */
function sameMaking(a: TicketItem, b: TicketItem): boolean {
  // No comment is no comment, however a client writes it (null, '', spaces).
  if ((a.comment ?? '').trim() !== (b.comment ?? '').trim() || a.modifiers.length !== b.modifiers.length) return false;
  const key = (m: TicketItem['modifiers'][number]) => `${m.modifierId}\u0000${m.optionId}\u0000${m.quantity}`;
  const left = a.modifiers.map(key).sort();
  const right = b.modifiers.map(key).sort();
  return left.every((k, i) => k === right[i]);
}

/**
 * The order endpoints of each line's plu (its own, its category's, and those mirroring either), active ones only (an inactive printer is switched off on
 * purpose). Cached statements (store.ts): this runs inside every ticket write's transaction.
 */
function endpointsOfLines(ctx: EngineContext, lines: Line[]): Array<Array<{ name: string; type: string }>> {
  if (!lines.length) return [];
  const catalog = catalogOf(ctx.db);
  const active = catalog.activeEndpoints();
  const plus = catalog.plusOf(lines.map(({ item }) => item.plu));
  const namesOf = new Map<string, string[]>();
  return lines.map(({ item }, i) => {
    const key = `${item.plu.stockName}\u0000${item.plu.code}`;
    let names = namesOf.get(key);
    if (!names) {
      // The plu's own endpoints, and those its category is routed to (issue 21), each once.
      const category = plus[i]?.category ?? null;
      const byCategory = category === null ? [] : [...active].filter(([, e]) => e.categories.includes(category)).map(([name]) => name);
      const direct = new Set([...(plus[i]?.orderEndpointNames ?? []), ...byCategory]);
      // Endpoints that mirror one of these (a kitchen display showing what a printer prints), one level deep.
      const mirrors = [...active].filter(([, e]) => e.mirrorOf !== null && direct.has(e.mirrorOf)).map(([name]) => name);
      names = [...new Set([...direct, ...mirrors])];
      namesOf.set(key, names);
    }
    return names.filter((n) => active.has(n)).map((name) => ({ name, type: active.get(name)!.type }));
  });
}

/** What an order copies of its ticket. */
interface OrderedTicket {
  id: string;
  name: string;
  location: { tableName: string | null; zoneName: string | null } | null;
  employee: { userName: string; name: string } | null;
}

export function createOrders(ctx: EngineContext, ticket: OrderedTicket, lines: Line[], kind: 'New' | 'Cancel'): void {
  const byEndpoint = new Map<string, Line[]>();
  const typeOf = new Map<string, string>();
  const routes = endpointsOfLines(ctx, lines);
  lines.forEach((line, i) => {
    for (const { name, type } of routes[i]) {
      byEndpoint.set(name, [...(byEndpoint.get(name) ?? []), line]);
      typeOf.set(name, type);
    }
  });
  const now = ctx.clock.now();
  for (const [endpoint, endpointLines] of byEndpoint) {
    // A kitchen display shows the order from the orders list; only printers get a print job.
    const printed = typeOf.get(endpoint) !== 'Tablet';
    const id = newId();
    const doc: DocOf<typeof orders> = {
      id,
      ticketId: ticket.id,
      ticketName: ticket.name ?? '',
      orderEndpointName: endpoint,
      kind,
      state: kind === 'Cancel' ? 'Cancelled' : 'New',
      createdAt: now.toISOString(),
      location: ticket.location ?? null,
      employee: ticket.employee ?? null,
      items: endpointLines.map(({ item, quantity }) => ({
        itemId: item.id,
        plu: { code: item.plu.code, stockName: item.plu.stockName },
        name: item.plu.name,
        quantity,
        modifiers: item.modifiers.map((m) => ({ modifierId: m.modifierId, optionId: m.optionId, name: m.name ?? m.optionId, quantity: m.quantity })),
        comment: item.comment,
      })),
      print: { state: printed ? 'Queued' : 'NotPrinted', attempts: 0, lastError: null, printedAt: null },
    };
    putStored(ctx.db, orders, id, doc, 1, now.getTime());
    if (printed) enqueuePrintJob(ctx.db, { endpointName: endpoint, kind: 'order', refId: id, payload: { orderId: id }, at: now.getTime() });
  }
}
