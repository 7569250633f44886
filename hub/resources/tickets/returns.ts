/**
 * Starting a return from a closed ticket (POST /api/tickets/{id}/return, issue 21): a new open ticket
 * of Negative items copied from the sold ones, which a register then closes (Sale environment,
 * Storno, payments ≤ 0: CONTRACT §12) and so issues the fiscal refund. Starting one is allowed
 * outside the Sale environment on purpose: it moves no money and issues no receipt; it prepares
 * what a register pays out. It goes through the engine's write (`store`), so the return is checked,
 * totalled, stored, versioned and logged like any ticket a register creates.
 */
import { z } from 'zod';
import { inTransaction } from '../../../db/client.js';
import { requireRight, type Caller } from '../../http/caller.js';
import { errors } from '../../http/errors.js';
import { t, type Language } from '../../i18n/index.js';
import { dec, toJsonNumber, type Dec } from '../../core/money.js';
import type { Doc, EngineContext } from '../../engine/define.js';
import { decimal, MAX_INT32 } from '../../engine/fields.js';
import { fieldMessage } from '../../i18n/say.js';
import { newId } from '../../core/ids.js';
import type { ResourceService } from '../../engine/service.js';
import { requireClosed } from './actions.js';
import type { ReturnStart, StoredItem, Ticket, Tickets } from './resource.js';
import { readDoc } from '../../engine/repo.js';
import { returnDocsOf } from './store.js';

export const returnSchema = z.object({
  items: z
    .array(
      z.object({
        id: z.number().int().min(1).max(MAX_INT32).describe("The sold item's `id` on the closed ticket."),
        quantity: decimal().refine((n) => n > 0, fieldMessage('field.positive')),
      }),
    )
    .min(1)
    .max(1000)
    .optional()
    .describe('What comes back; absent: every sold item, in the quantity not yet returned.'),
});

export class TicketReturns {
  constructor(
    private readonly ctx: EngineContext,
    private readonly tickets: ResourceService<Tickets>,
    /** The shop's language: the return's name is read at the register, like a printed bill. */
    private readonly language: Language,
  ) {}

  start(caller: Caller, id: string, body: z.output<typeof returnSchema>): Doc {
    // Both: a return takes sold items back (Storno) on a new ticket (TicketCreate).
    requireRight(caller, 'Storno');
    requireRight(caller, 'TicketCreate');
    const original = this.tickets.read(id, caller).doc;
    requireClosed(original, 'tickets.openNoReturn');
    if (original.returnOf) throw errors.member('id', 'tickets.returnOfReturn', { id, original: String(original.returnOf) });
    const sold = original.items.filter((i) => i.type === 'Positive');
    // One transaction from reading the earlier returns to storing this one: two returns started at
    // once cannot both take the last piece (better-sqlite3 runs a transaction to its end).
    return inTransaction(this.ctx.db, () => {
      const left = this.returnable(id, sold);
      const wanted = body.items ?? sold.filter((i) => left.get(i.id)!.gt(0)).map((i) => ({ id: i.id, quantity: toJsonNumber(left.get(i.id)!) }));
      if (!wanted.length) throw errors.member('items', 'tickets.allReturned', { id });
      const seen = new Set<number>();
      const items = wanted.map((w, i) => {
        const item = sold.find((s) => s.id === w.id);
        if (!item) throw errors.member(`items[${i}].id`, 'tickets.noSoldItem', { id, item: w.id });
        if (seen.has(w.id)) throw errors.member(`items[${i}].id`, 'tickets.returnItemTwice', { item: w.id }, 'Unique');
        seen.add(w.id);
        const max = left.get(w.id)!;
        if (dec(w.quantity).gt(max)) {
          throw errors.member(`items[${i}].quantity`, 'tickets.returnAtMost', { max: max.toString(), item: w.id, sold: item.quantity }, 'OutOfRange');
        }
        // The item keeps its id, so later returns know what this one took back.
        return {
          id: item.id,
          plu: { code: item.plu.code, stockName: item.plu.stockName },
          type: 'Negative',
          quantity: w.quantity,
          unitPrice: { amount: item.unitPrice.amount },
          discountRate: item.discountRate,
          modifiers: item.modifiers.map((m) => ({ modifierId: m.modifierId, optionId: m.optionId, quantity: m.quantity })),
          comment: item.comment,
        };
      });
            const key = newId();
      const doc = {
        id: key,
        externalId: null,
        name: t(this.language, 'ticket.returnName', { name: nameOf(original, this.language) }),
        purchaseType: original.purchaseType,
        currencyLabel: original.currencyLabel ?? null,
        discountRate: original.discountRate,
        customer: original.customer ? { id: original.customer.id } : null,
        location: null,
        note: null,
        items,
      };
      const extra: ReturnStart = { returnOf: id };
      // Through the resource's own validation, as a POST body would go: defaults, limits, ranges.
      return this.tickets.store(caller, key, this.tickets.validate(doc).body, undefined, extra);
    });
  }

  /** Per sold item: what was sold minus what earlier returns of this ticket (their items keep its ids) hold. */
  private returnable(id: string, sold: StoredItem[]): Map<number, Dec> {
    const left = new Map(sold.map((i) => [i.id, dec(i.quantity)]));
    for (const json of returnDocsOf(this.ctx.db, id)) {
      for (const r of readDoc(this.tickets.def, json).items) {
        const had = left.get(r.id);
        if (had !== undefined && r.type === 'Negative') left.set(r.id, had.minus(dec(r.quantity)));
      }
    }
    return left;
  }
}

/** The original as a person names it: its name, else its receipt number, else its id. */
function nameOf(ticket: Ticket, language: Language): string {
  if (ticket.name) return ticket.name;
  const number = ticket.closeInfo?.number;
  return number !== undefined ? t(language, 'ticket.receiptRef', { number }) : String(ticket.id);
}
