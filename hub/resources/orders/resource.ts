import { z } from 'zod';
import { defineResource } from '../../engine/define.js';
import { readableOrders } from '../../engine/visibility.js';

export const ORDER_KINDS = ['New', 'Cancel'] as const;
export const ORDER_STATES = ['New', 'InProgress', 'Ready', 'Served', 'Cancelled'] as const;

const orderItem = z.object({
  itemId: z.number().int(),
  plu: z.object({ code: z.number().int(), stockName: z.string() }),
  name: z.string(),
  quantity: z.number(),
  modifiers: z.array(z.object({ modifierId: z.string(), optionId: z.string(), name: z.string(), quantity: z.number() })),
  comment: z.string().nullable(),
});

/** Kitchen orders (CONTRACT §6, §11). Made only by ticket writes; read through the engine. */
export const orders = defineResource({
  name: 'orders',
  title: 'Order',
  table: 'orders',
  key: { field: 'id', column: 'id', type: 'string', schema: z.string() },
  schema: z.object({ id: z.string().optional() }),
  // Only an order whose state someone changed carries these.
  answered: {
    stateChangedAt: z.string(),
    stateHistory: z.array(z.object({ state: z.enum(ORDER_STATES), at: z.string(), userName: z.string() })),
  },
  readOnly: {
    ticketId: z.string(),
    ticketName: z.string(),
    orderEndpointName: z.string(),
    kind: z.enum(ORDER_KINDS),
    state: z.enum(ORDER_STATES),
    createdAt: z.string(),
    location: z.object({ tableName: z.string().nullable(), zoneName: z.string().nullable() }).nullable(),
    employee: z.object({ userName: z.string(), name: z.string() }).nullable(),
    items: z.array(orderItem),
    print: z.object({ state: z.string(), attempts: z.number(), lastError: z.string().nullable(), printedAt: z.string().nullable() }),
  },
  columns: (d) => ({
    ticket_id: d.ticketId,
    order_endpoint_name: d.orderEndpointName,
    kind: d.kind,
    state: d.state,
    created_at: Date.parse(d.createdAt),
  }),
  filters: {
    id: { type: 'string', column: 'id' },
    ticketId: { type: 'string', column: 'ticket_id' },
    orderEndpointName: { type: 'string', column: 'order_endpoint_name' },
    kind: { type: 'enum', column: 'kind', enumValues: ORDER_KINDS },
    state: { type: 'enum', column: 'state', enumValues: ORDER_STATES },
    createdAt: { type: 'datetime', column: 'created_at' },
  },
  sorts: { createdAt: 'created_at' },
  read: {
    right: 'TicketReadAll',
    scope: {
      where: readableOrders,
      reads: "the orders of the tickets they read (a kitchen display's session: its own endpoint's orders only)",
    },
  },
  rights: { create: null, update: null, delete: null },
  without: ['post', 'put', 'delete'],
});
