/**
 * What a caller reads of what everyone may read in part (CONTRACT §12). Of the sales, without
 * TicketReadAll: every open ticket (a table plan needs them) and the closed ones of their own device
 * or user, and those tickets' kitchen orders; a kitchen display's session only its own endpoint's
 * orders. (Secret settings of devices are answered to nobody: secrets.ts.)
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Caller } from '../http/caller.js';

/**
 * The rows of tickets table `t` the caller reads. `device_name` is the device of the sale: the one
 * that opened an open ticket, the one that closed a closed one. Each term has its index, so SQLite
 * counts and pages a waiter's view by a multi-index OR instead of walking a million tickets (a term
 * without one — origin_device_name — made a count take 3 s on the bench store).
 */
export function ownOrOpenTicket(caller: Caller, t: SQL): SQL {
  return sql`(${t}.is_closed = 0 OR ${t}.device_name = ${caller.device.name} OR ${t}.employee_user_name = ${caller.userName})`;
}

/**
 * The tickets a caller without TicketReadAll reads: those of ownOrOpenTicket, but none for a kitchen
 * display's session, which reads only its endpoint's orders (CONTRACT §12): a screen on the kitchen
 * wall has no use for the bills, their customers and prices.
 */
export function readableTickets(caller: Caller, t: SQL): SQL {
  return displayEndpointOf(caller) === undefined ? ownOrOpenTicket(caller, t) : sql`0`;
}

/**
 * The order endpoint of a kitchen display's session: a caller holding OrderProcess alone, on a
 * device set up for one endpoint — the paired `KDS <endpoint>` Tool device (setting
 * OrderEndpointName), or a device set up by hand whose DefaultOrderEndpointName (the contract's own
 * device setting naming an endpoint) says which.
 */
export function displayEndpointOf(caller: Caller): string | undefined {
  if (!caller.rights.has('OrderProcess') || caller.rights.size !== 1) return undefined;
  const settings = caller.device.settings;
  const endpoint = settings?.OrderEndpointName || settings?.DefaultOrderEndpointName;
  return typeof endpoint === 'string' && endpoint ? endpoint : undefined;
}

/** The orders (rows of `orders`) a caller without TicketReadAll reads: a display its endpoint's, anyone else those of the tickets they read. */
export function readableOrders(caller: Caller): SQL {
  const endpoint = displayEndpointOf(caller);
  if (endpoint !== undefined) return sql`orders.order_endpoint_name = ${endpoint}`;
  return sql`EXISTS (SELECT 1 FROM tickets WHERE tickets.id = orders.ticket_id AND ${ownOrOpenTicket(caller, sql`tickets`)})`;
}
