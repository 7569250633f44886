/** The ticket routes beyond the engine's CRUD: batch actions, close, preliminary bill, receipt copy, return. */
import { z } from 'zod';
import { bodyErrors, ERR, idempotencyHeader } from '../../http/api-docs.js';
import { callerOf } from '../../http/handler.js';
import { model, named, oneOf, routes } from '../../http/route.js';
import { idKey } from '../../engine/fields.js';
import { requireRight, requireSale, type Caller } from '../../http/caller.js';
import type { Right } from '../../http/rights.js';
import { actionSchemas, preliminarySchema, receiptCopySchema, TICKET_ACTIONS, type TicketActions } from './actions.js';
import { closeContextSchema, type TicketCloser } from './close.js';
import { tickets } from './resource.js';
import { returnSchema, type TicketReturns } from './returns.js';
import { job, queuedJob } from '../../printing/routes.js';

const tags = [tickets.title];
// The ticket's key (tickets.key.schema), typed.
const params = z.object({ id: idKey().meta({ param: { description: "The Ticket's key `id`." } }) });
const saleOnly = ERR.missingRight('A missing right (`detail` names it), or a caller outside the Sale environment.');

/** A sale device holding `right`: checked before the request is read, as the services check it first. */
const saleWith = (right: Right) => (caller: Caller) => {
  requireSale(caller);
  requireRight(caller, right);
};
const noTicket = ERR.notFound('No ticket has this id.');
const cannotPrint = ERR.stateForbids('The order endpoint is inactive or cannot print (a kitchen display).');
const printJob = z.object({ ...job, ticketId: z.string() });

export const ticketRoutes = routes<{ actions: TicketActions; closer: TicketCloser; returns: TicketReturns }>((route) => [
  route({
    method: 'patch',
    path: '/api/tickets',
    operationId: 'tickets.batch',
    tags,
    summary: 'Hand over, take over, relocate or split tickets, all or nothing',
    description:
      'Only from the Sale environment. `Handover {ids, userName}` needs TicketHandover (and TicketUpdateAny for tickets of others); ' +
      "`Takeover {ids}` needs TicketTakeover and TicketUpdateAny; `Relocate {ids, location}` needs TicketUpdate for one's own " +
      "tickets and TicketUpdateAny for others'. `Split {ids: [source], items: [{id, quantity}], target: {id, name?, location?}}` " +
      'moves quantities of items from one open ticket to another open ticket, or to a new one with the id given (TicketCreate): a bill ' +
      'split by items, items moved to another table, tables joined. The moved items keep their plu, price, discount, modifiers and ' +
      'comment and take the next free ids on the target; a source left without items is deleted. The bill as a whole does not ' +
      'change, so a split makes no kitchen order and no void and needs no Storno; the rights are those of Relocate on both tickets. ' +
      'Answers the source (unless deleted) and the target.',
    rights: ['TicketHandover', 'TicketTakeover', 'TicketUpdate', 'TicketUpdateAny'],
    // GET and POST of this path are the engine's.
    sharedPath: true,
    query: z.object({
      action: z.enum(TICKET_ACTIONS).meta({ param: { description: 'The batch action (any letter case); unknown or missing: 400.' } }),
    }),
    headers: idempotencyHeader(),
    authorize: requireSale,
    // The body is read as the action it names.
    body: { required: true, schema: oneOf(TICKET_ACTIONS.map((action) => named(`Ticket${action}`, actionSchemas[action])), ({ query }) => `Ticket${query.action}`) },
    responses: { 200: { description: 'The affected tickets as stored.', schema: model('tickets', { array: true }) } },
    errors: [
      ...bodyErrors('An unknown action, an invalid body, an id twice, an unknown ticket id or user name; a split of an unknown item, of more than an item holds, of a return, or onto the source itself.'),
      ERR.unauthenticated(),
      saleOnly,
      ERR.stateForbids('A ticket in the request is closed.'),
      ERR.keyReused(),
      ERR.locked(),
    ],
    handler:
      ({ actions }) =>
      ({ query, body }, _req, res) => {
        res.json(actions.batch(callerOf(res), query.action, body));
      },
  }),
  route({
    method: 'post',
    path: '/api/tickets/{id}/close',
    operationId: 'tickets.close',
    tags,
    summary: 'Pay and fiscalize a ticket',
    description:
      'Requires TicketClose, from the Sale environment. The fiscal device is `fiscalName`, else the calling device\'s setting ' +
      '`DefaultFiscalName`. The payments must cover the total; every payment is > 0 and in whole cents (at most 2 decimal places, as the receipt prints it), and an overpayment is change, allowed only on a ' +
      'changeable payment type and never more than was paid in changeable types (a card is never overpaid). A return (a ticket ' +
      'whose total is negative) needs Storno and is paid out with amounts ≤ 0 adding up to exactly its total. ' +
      'Exactly once: a retry after a timeout or a lost reply answers the closed ticket and issues no second receipt. When the ' +
      'device cannot yet tell whether a receipt went out (503), the ticket takes no edits (423) until a retried close settles it; ' +
      'if the receipt was issued, the ticket closes with the payments and device of that receipt, whatever the retry says. ' +
      '`receipt.email` (empty or null: none) queues an e-mail receipt in the same transaction as the close; the hub sends it when ' +
      'it can (GET /api/receipts/emails). A malformed address is a 400 before anything is fiscalized. `receipt.print: false` asks ' +
      'the fiscal device to skip the paper copy; only a device that may issue a fiscal receipt without printing it does.',
    rights: ['TicketClose', 'Storno'],
    authorize: saleWith('TicketClose'),
    params,
    headers: idempotencyHeader(),
    body: { required: true, schema: named('TicketCloseContext', closeContextSchema) },
    responses: { 200: { description: 'The closed ticket, with closeDate and closeInfo.', schema: model('tickets') } },
    errors: [
      ...bodyErrors(
        'An invalid body; payments short of the total, a payment ≤ 0 on a sale (> 0 on a return), change on a non-changeable type, ' +
          'an unknown or inactive payment type; no or an unknown fiscal device; a ticket without items.',
      ),
      ERR.unauthenticated(),
      saleOnly,
      ERR.stateForbids(
        'The fiscal device is inactive or does not support the action, or it refused this receipt for good (`REJECTED` in `detail`: e.g. a return ' +
          'whose original receipt it cannot refer to, a line it cannot take, a refusal of an eKasa service before storing anything); nothing was issued.',
      ),
      noTicket,
      ERR.keyReused(),
      ERR.locked(),
      ERR.deviceUnavailable(),
    ],
    handler:
      ({ closer }) =>
      async ({ params, body }, _req, res) => {
        res.json(await closer.close(callerOf(res), params.id, body));
      },
  }),
  route({
    method: 'post',
    path: '/api/tickets/{id}/print_preliminary_ticket',
    operationId: 'tickets.printPreliminary',
    tags,
    summary: 'Print the bill before payment',
    description:
      'Requires TicketPrintPreliminary, from the Sale environment; an open or a closed ticket (a closed one of another device or ' +
      "user needs TicketReadAll, as reading it does: CONTRACT §12). The order endpoint is " +
      "`orderEndpointName`, else the calling device's setting `DefaultOrderEndpointName`. The body is optional.",
    rights: ['TicketPrintPreliminary', 'TicketReadAll'],
    authorize: saleWith('TicketPrintPreliminary'),
    params,
    headers: idempotencyHeader(),
    body: { required: false, schema: named('PrintPreliminaryTicketContext', preliminarySchema) },
    responses: { 204: { description: 'The print job is durably queued.' } },
    errors: [
      ...bodyErrors('An invalid body; no or an unknown order endpoint.'),
      ERR.unauthenticated(),
      saleOnly,
      cannotPrint,
      noTicket,
      ERR.keyReused(),
    ],
    handler:
      ({ actions }) =>
      ({ params, body }, _req, res) => {
        actions.preliminary(callerOf(res), params.id, body);
        res.status(204).end();
      },
  }),
  route({
    method: 'post',
    path: '/api/tickets/{id}/print_receipt_copy',
    operationId: 'tickets.printReceiptCopy',
    tags,
    summary: "Print a copy of a closed ticket's receipt, marked COPY",
    description:
      'Queues on the print queue a non-fiscal copy of the receipt of a closed ticket: the bill with its payments, change and ' +
      'fiscal numbers (fiscal device, receipt number, daily report number), marked COPY and "not a fiscal receipt". It changes ' +
      'nothing on the ticket and asks no fiscal device, so, unlike a ticket write, it does not need the Sale environment ' +
      '(a deliberate exception, for the back office: README "Tickets, kitchen orders and closing"). Who may read the ticket may ' +
      "copy its receipt: TicketReadAll, or a sale of the caller's own device or user (CONTRACT §12). The printer is " +
      "`orderEndpointName`, else the calling device's setting `DefaultOrderEndpointName`. The body is optional.",
    rights: ['TicketReadAll'],
    params,
    headers: idempotencyHeader(),
    body: { required: false, schema: named('PrintReceiptCopyContext', receiptCopySchema) },
    responses: { 202: { description: 'The copy is durably queued; the job as stored.', schema: named('ReceiptCopyJob', printJob) } },
    errors: [
      ...bodyErrors('An invalid body; no or an unknown order endpoint; the ticket is still open (`memberName` `id`).'),
      ERR.unauthenticated(),
      ERR.missingRight("Another device's or user's sale without TicketReadAll."),
      cannotPrint,
      noTicket,
      ERR.keyReused(),
    ],
    handler:
      ({ actions }) =>
      ({ params, body }, _req, res) => {
        const queued = actions.receiptCopy(callerOf(res), params.id, body);
        res.status(202).json({ ...queuedJob(queued), ticketId: queued.refId });
      },
  }),
  route({
    method: 'post',
    path: '/api/tickets/{id}/return',
    operationId: 'tickets.startReturn',
    tags,
    summary: 'Start a return of a closed ticket: a new open ticket of Negative items',
    description:
      'Requires Storno and TicketCreate. Creates a new open ticket (`returnOf` = this id) of Negative items copying the sold ' +
      "items' plu, unitPrice, modifiers, discountRate and comment (each keeps the sold item's `id`), with the original's " +
      'discountRate, customer, purchaseType and currency, named "Return of …" in the shop\'s language; employee and ' +
      "originDeviceName are the caller's. `items` chooses what comes back (default: every sold item, in the quantity not yet " +
      'returned); no item may exceed what was sold minus what earlier returns of this ticket hold. A return cannot itself be ' +
      'returned. Allowed outside the Sale environment on purpose (a deliberate exception, README "Tickets, kitchen orders and ' +
      'closing"): it only prepares the return; the refund is paid out and the fiscal refund receipt issued when a register closes ' +
      'the new ticket, which needs the Sale environment, TicketClose and Storno, with payments ≤ 0 (CONTRACT §12). The caller ' +
      'must be able to read the original (TicketReadAll, or a sale of their own device or user). The new ticket is stored, ' +
      'versioned and logged (`/api/changes`, `/api/events`) like any ticket a register creates.',
    rights: ['Storno', 'TicketCreate', 'TicketReadAll'],
    params,
    headers: idempotencyHeader(),
    body: { required: false, schema: named('TicketReturnContext', returnSchema) },
    responses: { 201: { description: 'The new return ticket, open.', schema: model('tickets'), headers: { Location: { description: 'The new ticket.', schema: { type: 'string' } } } } },
    errors: [
      ...bodyErrors(
        'An invalid body; the ticket is still open or is itself a return (`memberName` `id`); an unknown or repeated item id; ' +
          'a quantity beyond what is left to return (`items[i].quantity`); nothing left to return; a plu or modifier deleted since.',
      ),
      ERR.unauthenticated(),
      ERR.missingRight("Without Storno or TicketCreate (`detail` names it); another device's or user's sale without TicketReadAll."),
      noTicket,
      ERR.keyReused(),
    ],
    handler:
      ({ returns }) =>
      ({ params, body }, _req, res) => {
        const created = returns.start(callerOf(res), params.id, body);
        res.status(201).location(`/api/tickets/${encodeURIComponent(String(created.id))}`).json(created);
      },
  }),
]);
